// SPDX-License-Identifier: GPL-2.0
/*
 * Delays the selftests inject into the core, to make races they test
 * happen every time: /sys/kernel/debug/varlink/<name>_ms.  Only a build
 * with the test provider (CONFIG_VARLINK_TEST_PROVIDER) has the files;
 * elsewhere vl_test_delay() compiles to nothing.
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>

#include "test_hooks.h"

u32 vl_test_delay_ms[VL_TEST_DELAYS];

static const char * const delay_names[VL_TEST_DELAYS] = {
	[VL_TEST_SENDER_DELAY] = "test_sender_delay_ms",
	[VL_TEST_CANCEL_DELAY] = "test_cancel_delay_ms",
	[VL_TEST_CALLBACK_DELAY] = "test_callback_delay_ms",
	[VL_TEST_FDS_DELAY] = "test_fds_delay_ms",
	[VL_TEST_INLINE_DELAY] = "test_inline_delay_ms",
};

static struct dentry *test_dir;

void vl_test_hooks_init(void)
{
	unsigned int i;

	if (!IS_ENABLED(CONFIG_VARLINK_TEST_PROVIDER))
		return;
	test_dir = debugfs_create_dir("varlink", NULL);
	for (i = 0; i < VL_TEST_DELAYS; i++)
		debugfs_create_u32(delay_names[i], 0600, test_dir,
				   &vl_test_delay_ms[i]);
}

void vl_test_hooks_exit(void)
{
	debugfs_remove_recursive(test_dir);
}
