// SPDX-License-Identifier: GPL-2.0
/*
 * The module parameters: the name to listen on and every limit, in
 * vl_config, checked at load.
 */
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/un.h>
#include <uapi/linux/varlink.h>

#include "params.h"

#define VL_LIMIT_DEFAULT(name, def, min, max, floor, text)	.name = def,

struct vl_config vl_config = {
	.socket_name = VARLINK_SOCKET_NAME,
	VL_LIMITS(VL_LIMIT_DEFAULT)
	.fast_path = true,
};

/* the defaults of limits.h that userspace builds of the protocol core use */
static_assert(VL_MSG_SIZE_DEFAULT == 65536);
static_assert(VL_JSON_DEPTH_DEFAULT == 32 && VL_JSON_TOKENS_DEFAULT == 8192);

module_param_named(socket_name, vl_config.socket_name, charp, 0444);
MODULE_PARM_DESC(socket_name,
		 "abstract AF_UNIX name to listen on, without the leading '@' (default \""
		 VARLINK_SOCKET_NAME "\")");

module_param_named(init_net_only, vl_config.init_net_only, bool, 0444);
MODULE_PARM_DESC(init_net_only,
		 "listen in the initial network namespace only, not in every one (default off)");

#define VL_LIMIT_PARAM(name, def, min, max, floor, text)		\
	module_param_named(name, vl_config.name, uint, 0444);		\
	MODULE_PARM_DESC(name, text " (default " #def ")");
VL_LIMITS(VL_LIMIT_PARAM)

module_param_named(fast_path, vl_config.fast_path, bool, 0644);
MODULE_PARM_DESC(fast_path, "serve VARLINK_INLINE methods in the calling task when safe (default on)");

/* The numeric limits an administrator sets, with their bounds: checked at
 * load (vl_params_check()) and listed by GetLimits (vl_limits_for_each()),
 * under their parameters' names.  A limit with @floor may not be
 * below that other one.
 */
static const struct vl_limit {
	const char *name;
	const unsigned int *value;
	unsigned int min;
	unsigned int max;
	const unsigned int *floor;
} limits[] = {
#define VL_LIMIT_ENTRY(name, def, min, max, floor, text)		\
	{ #name, &vl_config.name, min, max, floor },
	VL_LIMITS(VL_LIMIT_ENTRY)
};

static bool param_ok(const char *name, unsigned int v, unsigned int lo,
		     unsigned int hi)
{
	if (v >= lo && v <= hi)
		return true;
	pr_err("%s=%u is outside %u..%u\n", name, v, lo, hi);
	return false;
}

/**
 * vl_params_check() - check the parameters the module was loaded with
 *
 * Return: 0, or -EINVAL with the first one out of its range logged.
 */
int __init vl_params_check(void)
{
	const char *name = vl_config.socket_name;
	const struct vl_limit *l;
	unsigned int min;

	/* sun_path holds a leading NUL and the name, with no trailing NUL */
	if (!param_ok("socket_name length", name ? strlen(name) : 0, 1,
		      UNIX_PATH_MAX - 1))
		return -EINVAL;
	for (l = limits; l < limits + ARRAY_SIZE(limits); l++) {
		min = l->floor ? max(l->min, *l->floor) : l->min;
		if (!param_ok(l->name, *l->value, min, l->max))
			return -EINVAL;
	}
	return 0;
}

/**
 * vl_limits_for_each() - visit the numeric limits in force
 * @fn: called with each one's parameter name and value
 * @data: passed to @fn
 */
void vl_limits_for_each(void (*fn)(const char *name, unsigned int value,
				   void *data),
			void *data)
{
	const struct vl_limit *l;

	for (l = limits; l < limits + ARRAY_SIZE(limits); l++)
		fn(l->name, *l->value, data);
}
