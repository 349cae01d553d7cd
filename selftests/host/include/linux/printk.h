/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: printk to stderr; pr_debug is silent. */
#ifndef _SHIM_LINUX_PRINTK_H
#define _SHIM_LINUX_PRINTK_H

#include <stdio.h>

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define pr_err(fmt, ...)	fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)	do { } while (0)
#define pr_err_ratelimited	pr_err
#define pr_warn_ratelimited	pr_warn
#define pr_warn_once		pr_warn

#endif
