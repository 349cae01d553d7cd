/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which connections the server takes: the limits in total, per user and
 * per network namespace, and the refusals over them.
 */
#ifndef _VL_ADMISSION_H
#define _VL_ADMISSION_H

struct net;
struct socket;
struct vl_peer;

int vl_admit(struct vl_peer *peer, struct socket *sock);
void vl_admission_leave(struct vl_peer *peer);
unsigned int vl_admission_count_net(const struct net *net);

#endif /* _VL_ADMISSION_H */
