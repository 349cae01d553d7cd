/* SPDX-License-Identifier: GPL-2.0 */
/* Streams: their quotas and their life, see streams.c. */
#ifndef _VL_STREAMS_H
#define _VL_STREAMS_H

#include <linux/types.h>

struct varlink_call;

bool vl_stream_admit(struct varlink_call *call);
void vl_stream_leave(struct varlink_call *call);
bool vl_stream_cancel(struct varlink_call *call, bool gone);
bool vl_stream_step(struct varlink_call *call);

#endif /* _VL_STREAMS_H */
