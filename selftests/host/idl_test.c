// SPDX-License-Identifier: GPL-2.0
/*
 * Host runner of the IDL parser cases: module/idl.c built in userspace,
 * the same tables as the KUnit suite varlink_idl.  Output is TAP.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>	/* shim_fail_alloc */

#include "../../module/idl.h"
#include "../../module/tests/idl_cases.h"

static int n_pass, n_fail;

static void report(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", n_pass + n_fail + 1);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (ok)
		n_pass++;
	else
		n_fail++;
}

/* Parse @text and compare with the expectation; true if as expected. */
static bool run_parse(const char *desc, const char *text, size_t len,
		      int line, int col, const char *msg, int n_members)
{
	struct vl_idl_error err;
	struct vl_idl *idl;
	const char *bad;
	int ret;

	ret = vl_idl_parse(text, len, &idl, &err);
	if (!line) {
		bad = ret ? "parse failed" : vl_idl_check_schema(idl);
		if (!bad && n_members && idl->n_members != n_members)
			bad = "member count";
		if (bad)
			printf("# %s: %s; error %d:%d: %s\n", desc, bad,
			       err.line, err.col, err.msg ? err.msg : "-");
		vl_idl_free(idl);
		return !bad;
	}
	if (ret != -EINVAL || idl || err.line != line || err.col != col ||
	    !err.msg || (msg && strcmp(err.msg, msg))) {
		printf("# %s: expected %d:%d: %s, got %d (%d:%d: %s)\n", desc,
		       line, col, msg, ret, err.line, err.col,
		       err.msg ? err.msg : "-");
		vl_idl_free(idl);
		return false;
	}
	return true;
}

static void test_cases(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vl_idl_cases); i++) {
		const struct vl_idl_case *c = &vl_idl_cases[i];
		size_t len = c->len ? c->len : strlen(c->text);

		report(run_parse(c->desc, c->text, len, c->line, c->col,
				 c->msg, c->n_members), "idl: %s", c->desc);
	}
}

static void test_gen_cases(void)
{
	char *buf = malloc(VL_IDL_GEN_SIZE);
	unsigned int i;

	if (!buf)
		abort();
	for (i = 0; i < ARRAY_SIZE(vl_idl_gen_cases); i++) {
		const struct vl_idl_gen_case *c = &vl_idl_gen_cases[i];
		size_t len = vl_idl_gen(c, buf, VL_IDL_GEN_SIZE);

		report(len <= VL_IDL_GEN_SIZE &&
		       run_parse(c->desc, buf, len, c->line, c->col, c->msg, 0),
		       "idl limits: %s", c->desc);
	}
	free(buf);
}

static void test_shapes(void)
{
	char buf[1024];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vl_idl_shape_cases); i++) {
		const struct vl_idl_shape_case *c = &vl_idl_shape_cases[i];
		struct vl_idl_error err;
		struct vl_idl *idl;
		bool ok, found;

		if (vl_idl_parse(c->text, strlen(c->text), &idl, &err)) {
			report(false, "idl shape: %s (%d:%d: %s)", c->desc,
			       err.line, err.col, err.msg);
			continue;
		}
		found = vl_idl_render(idl, c->member, buf, sizeof(buf));
		ok = c->expect ? found && !strcmp(buf, c->expect) : !found;
		if (!ok)
			printf("# expected: %s\n#      got: %s\n",
			       c->expect ? c->expect : "(none)",
			       found ? buf : "(none)");
		report(ok, "idl shape: %s", c->desc);
		vl_idl_free(idl);
	}
}

/* An allocation failure is -ENOMEM, with nothing leaked (ASan checks). */
static void test_alloc_failure(void)
{
	struct vl_idl_error err;
	struct vl_idl *idl;
	int ret;

	shim_fail_alloc = 1;
	ret = vl_idl_parse(vl_idl_service, strlen(vl_idl_service), &idl, &err);
	shim_fail_alloc = 0;
	report(ret == -ENOMEM && !idl, "idl: allocation failure");
}

int main(void)
{
	printf("TAP version 13\n1..%zu\n", ARRAY_SIZE(vl_idl_cases) +
	       ARRAY_SIZE(vl_idl_gen_cases) + ARRAY_SIZE(vl_idl_shape_cases) +
	       1);
	test_cases();
	test_gen_cases();
	test_shapes();
	test_alloc_failure();
	printf("# %d passed, %d failed\n", n_pass, n_fail);
	return n_fail ? 1 : 0;
}
