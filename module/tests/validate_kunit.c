// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of parameter validation (suite varlink_validate): the table
 * of tests/validate_cases.h, which selftests/host/validate_test.c also runs
 * in userspace.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../compat.h"
#include "validate_cases.h"

static void validate_case_desc(const struct vl_validate_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(validate_cases, vl_validate_cases, validate_case_desc);

static void validate_test_case(struct kunit *test)
{
	const struct vl_validate_case *c = test->param_value;
	u32 cap = vl_json_tokens_needed(VL_VALIDATE_TEXT_MAX);
	struct vl_validate_outcome *out;
	struct vl_json_tok *toks;
	char *buf;

	/* Arrange */
	buf = kunit_kmalloc(test, VL_VALIDATE_TEXT_MAX, GFP_KERNEL);
	toks = kunit_kcalloc(test, cap, sizeof(*toks), GFP_KERNEL);
	out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, toks);
	KUNIT_ASSERT_NOT_NULL(test, out);

	/* Act */
	vl_validate_run(c, buf, toks, cap, out);

	/* Assert */
	KUNIT_ASSERT_NULL_MSG(test, out->setup, "%s", out->setup);
	if (!c->msg) {
		KUNIT_EXPECT_EQ_MSG(test, out->ret, 0, "%s(%s): %s", c->member,
				    c->json ? c->json : "absent", out->msg);
		return;
	}
	KUNIT_EXPECT_EQ_MSG(test, out->ret, -EINVAL, "%s(%s)", c->member,
			    c->json ? c->json : "absent");
	KUNIT_ASSERT_NOT_NULL(test, out->msg);
	KUNIT_EXPECT_STREQ_MSG(test, out->msg, c->msg, "%s(%s)", c->member,
			       c->json ? c->json : "absent");
	if (!c->param) {
		KUNIT_EXPECT_EQ(test, out->param_len, -ENOENT);
		return;
	}
	KUNIT_ASSERT_GE_MSG(test, out->param_len, 0, "%s(%s)", c->member,
			    c->json ? c->json : "absent");
	KUNIT_EXPECT_EQ(test, out->param_len, (int)strlen(c->param));
	KUNIT_EXPECT_STREQ(test, out->param, c->param);
}

/* A wrong node or token is refused, not followed. */
static void validate_test_bad_arguments(struct kunit *test)
{
	static const char text[] = "{\"a\": 1}";
	struct vl_validate_error err;
	struct vl_json_tok toks[4];
	struct vl_idl_error ierr;
	struct vl_json js;
	struct vl_idl *idl;
	const struct vl_json_limits lim = VL_JSON_LIMITS_DEFAULT;

	KUNIT_ASSERT_EQ(test, vl_idl_parse(vl_validate_idl,
					   strlen(vl_validate_idl), &idl,
					   &ierr), 0);
	vl_json_init(&js, toks, ARRAY_SIZE(toks));
	KUNIT_ASSERT_EQ(test, vl_json_parse(&js, text, strlen(text), &lim), 0);

	KUNIT_EXPECT_EQ(test, vl_validate(idl, 0, &js, 0, &err), -EINVAL);
	KUNIT_EXPECT_EQ(test, vl_validate(idl, idl->n_nodes, &js, 0, &err),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, vl_validate(idl, idl->members[0].type, &js, 99,
					  &err), -EINVAL);
	vl_idl_free(idl);
}

/* The name buffer is bounded. */
static void validate_test_param_name_space(struct kunit *test)
{
	struct vl_validate_error err = { .param = "abc", .param_len = 3 };
	char buf[4];

	KUNIT_EXPECT_EQ(test, vl_validate_param_name(NULL, &err, buf, 3),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, vl_validate_param_name(NULL, &err, buf, 4), 3);
	KUNIT_EXPECT_STREQ(test, buf, "abc");
	err.param = NULL;
	KUNIT_EXPECT_EQ(test, vl_validate_param_name(NULL, &err, buf, 4),
			-ENOENT);
}

static struct kunit_case validate_test_cases[] = {
	KUNIT_CASE_PARAM(validate_test_case, validate_cases_gen_params),
	KUNIT_CASE(validate_test_bad_arguments),
	KUNIT_CASE(validate_test_param_name_space),
	{}
};

static struct kunit_suite validate_test_suite = {
	.name = "varlink_validate",
	.test_cases = validate_test_cases,
};

kunit_test_suite(validate_test_suite);

MODULE_IMPORT_NS(VL_NS(EXPORTED_FOR_KUNIT_TESTING));
