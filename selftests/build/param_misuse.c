// SPDX-License-Identifier: GPL-2.0
/*
 * Misuse of the provider API that must not build: scripts/misuse.sh
 * compiles this file once for each case, with -DCASE_<name>, and
 * expects the compiler to refuse every case but CASE_OK, where the
 * same tables are right.  A parameter's type is its member's: a member
 * of a type no parameter type stands for is refused.
 */
#include <linux/module.h>
#include <linux/varlink.h>

struct misuse_params {
	u32 u32;
	u64 u64;
	long l;
	char name[16];
	char *mutable;
	const char *string;
	const u32 const_u32;
};

static const struct varlink_param misuse_params[] = {
#if defined(CASE_OK)
	VARLINK_PARAM("a", struct misuse_params, u32),
	VARLINK_PARAM("b", struct misuse_params, u64),
	VARLINK_PARAM("c", struct misuse_params, string),
	VARLINK_PARAM("d", struct misuse_params, const_u32),
#elif defined(CASE_LONG)
	VARLINK_PARAM("a", struct misuse_params, l),
#elif defined(CASE_CHAR_ARRAY)
	VARLINK_PARAM("a", struct misuse_params, name),
#elif defined(CASE_NOT_CONST)
	VARLINK_PARAM("a", struct misuse_params, mutable),
#endif
};

const struct varlink_param *misuse_table = misuse_params;
EXPORT_SYMBOL_GPL(misuse_table);
MODULE_LICENSE("GPL");
