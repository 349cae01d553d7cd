/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Delays the selftests inject, in test builds only (test_hooks.c): each
 * holds a task at one point of the core, to make a race happen.
 */
#ifndef _VL_TEST_HOOKS_H
#define _VL_TEST_HOOKS_H

#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/types.h>

enum vl_test_delay {
	VL_TEST_SENDER_DELAY,	/* a sender lingers once served inline */
	VL_TEST_CANCEL_DELAY,	/* before a call's cancel callback */
	VL_TEST_CALLBACK_DELAY,	/* a task lingers in a socket callback */
	VL_TEST_FDS_DELAY,	/* a writer lingers before the check of fds */
	VL_TEST_INLINE_DELAY,	/* a sender lingers holding the connection */
	VL_TEST_DELAYS
};

extern u32 vl_test_delay_ms[VL_TEST_DELAYS];
void vl_test_hooks_init(void);
void vl_test_hooks_exit(void);

/* Sleep as long as the selftests asked at this point, in test builds.
 * Socket callbacks also run in softirq context: there it does not sleep.
 */
static inline void vl_test_delay(enum vl_test_delay which)
{
	u32 ms;

	if (!IS_ENABLED(CONFIG_VARLINK_TEST_PROVIDER))
		return;
	ms = READ_ONCE(vl_test_delay_ms[which]);
	if (ms && preemptible())
		msleep(ms);
}

#endif /* _VL_TEST_HOOKS_H */
