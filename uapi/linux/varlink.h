/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The in-kernel varlink server: what userspace can rely on.
 *
 * The kernel serves varlink (UAPI.20 "Varlink IPC") on an AF_UNIX stream
 * socket in the abstract namespace of every network namespace (of the
 * initial one only with the module parameter "init_net_only"), by
 * default "@org.kernel.varlink" (module parameter "socket_name").  Every
 * message is one JSON object followed by a NUL byte.  The address length
 * is offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name): the name
 * has no trailing NUL.
 *
 * Anyone can bind an abstract name.  A listener carries the credentials
 * of the task that made it: in the initial network namespace, the root
 * task that loaded the module, so a client there that must trust the
 * server checks that SO_PEERCRED of its connection reports uid 0; in
 * another network namespace, the task that created that namespace.
 */
#ifndef _UAPI_LINUX_VARLINK_H
#define _UAPI_LINUX_VARLINK_H

#define VARLINK_SOCKET_NAME		"org.kernel.varlink"
#define VARLINK_ADDRESS			"unix:@" VARLINK_SOCKET_NAME

/* Defaults of the limits; the module parameters may change them. */
#define VARLINK_MESSAGE_SIZE_DEFAULT	(64 * 1024)	/* NUL included */
#define VARLINK_JSON_DEPTH_DEFAULT	32
#define VARLINK_JSON_TOKENS_DEFAULT	8192

#endif /* _UAPI_LINUX_VARLINK_H */
