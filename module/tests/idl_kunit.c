// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the IDL parser (suite varlink_idl): the tables of
 * tests/idl_cases.h, which selftests/host/idl_test.c also runs in
 * userspace.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../compat.h"
#include "idl_cases.h"

static void idl_case_desc(const struct vl_idl_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

static void idl_gen_case_desc(const struct vl_idl_gen_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

static void idl_shape_case_desc(const struct vl_idl_shape_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(idl_cases, vl_idl_cases, idl_case_desc);
KUNIT_ARRAY_PARAM(idl_gen_cases, vl_idl_gen_cases, idl_gen_case_desc);
KUNIT_ARRAY_PARAM(idl_shape_cases, vl_idl_shape_cases, idl_shape_case_desc);

/* Parse @text and check the outcome against @line, @col, @msg. */
static void idl_expect(struct kunit *test, const char *text, size_t len,
		       int line, int col, const char *msg, int n_members)
{
	struct vl_idl_error err;
	struct vl_idl *idl;
	int ret;

	/* Act */
	ret = vl_idl_parse(text, len, &idl, &err);

	/* Assert */
	if (!line) {
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "%d:%d: %s\n%.*s", err.line,
				    err.col, err.msg, (int)min_t(size_t, len, 512),
				    text);
		KUNIT_EXPECT_NULL_MSG(test, vl_idl_check_schema(idl), "%s",
				      vl_idl_check_schema(idl));
		if (n_members)
			KUNIT_EXPECT_EQ(test, idl->n_members, n_members);
		vl_idl_free(idl);
		return;
	}
	KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "%.*s",
			    (int)min_t(size_t, len, 512), text);
	KUNIT_EXPECT_NULL(test, idl);
	KUNIT_EXPECT_EQ_MSG(test, err.line, line, "%d:%d: %s", err.line,
			    err.col, err.msg);
	KUNIT_EXPECT_EQ_MSG(test, err.col, col, "%d:%d: %s", err.line,
			    err.col, err.msg);
	KUNIT_ASSERT_NOT_NULL(test, err.msg);
	if (msg)
		KUNIT_EXPECT_STREQ(test, err.msg, msg);
	vl_idl_free(idl);
}

static void idl_test_parse(struct kunit *test)
{
	const struct vl_idl_case *c = test->param_value;

	idl_expect(test, c->text, c->len ? c->len : strlen(c->text), c->line,
		   c->col, c->msg, c->n_members);
}

static void idl_test_limits(struct kunit *test)
{
	const struct vl_idl_gen_case *c = test->param_value;
	size_t len;
	char *buf;

	/* Arrange */
	buf = kunit_kmalloc(test, VL_IDL_GEN_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	len = vl_idl_gen(c, buf, VL_IDL_GEN_SIZE);
	KUNIT_ASSERT_LE(test, len, (size_t)VL_IDL_GEN_SIZE);

	/* Act, Assert */
	idl_expect(test, buf, len, c->line, c->col, c->msg, 0);
}

static void idl_test_shape(struct kunit *test)
{
	const struct vl_idl_shape_case *c = test->param_value;
	struct vl_idl_error err;
	struct vl_idl *idl;
	bool found;
	char *buf;

	/* Arrange */
	buf = kunit_kzalloc(test, 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ_MSG(test, vl_idl_parse(c->text, strlen(c->text), &idl,
					       &err), 0,
			    "%d:%d: %s", err.line, err.col, err.msg);

	/* Act */
	found = vl_idl_render(idl, c->member, buf, 1024);

	/* Assert */
	if (c->expect) {
		KUNIT_EXPECT_TRUE_MSG(test, found, "no member %s", c->member);
		KUNIT_EXPECT_STREQ(test, buf, c->expect);
	} else {
		KUNIT_EXPECT_FALSE_MSG(test, found, "found %s", buf);
	}
	vl_idl_free(idl);
}

/* The schema holds slices of the text, not copies. */
static void idl_test_names_are_slices(struct kunit *test)
{
	const struct vl_idl_member *m;
	struct vl_idl_error err;
	struct vl_idl *idl;

	KUNIT_ASSERT_EQ(test, vl_idl_parse(vl_idl_service,
					   strlen(vl_idl_service), &idl,
					   &err), 0);
	KUNIT_EXPECT_PTR_EQ(test, idl->name, strstr(vl_idl_service,
						    "org.varlink.service"));
	KUNIT_EXPECT_EQ(test, idl->name_len, strlen("org.varlink.service"));
	for (m = idl->members; m < idl->members + idl->n_members; m++)
		KUNIT_EXPECT_TRUE_MSG(test, m->name > vl_idl_service &&
				      m->name < vl_idl_service +
				      sizeof(vl_idl_service), "%.*s",
				      m->name_len, m->name);
	vl_idl_free(idl);
}

/* A text that is not NUL-terminated is read up to @len only. */
static void idl_test_length_bounds_text(struct kunit *test)
{
	static const char text[] = "interface a.b\nmethod F() -> ()\nXXX";
	struct vl_idl_error err;
	struct vl_idl *idl;

	KUNIT_EXPECT_EQ(test, vl_idl_parse(text, sizeof(text) - 4, &idl, &err),
			0);
	vl_idl_free(idl);
	KUNIT_EXPECT_EQ(test, vl_idl_parse(text, sizeof(text) - 1, &idl, &err),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, err.line, 3);
}

static void idl_test_free_null(struct kunit *test)
{
	vl_idl_free(NULL);
}

static struct kunit_case idl_test_cases[] = {
	KUNIT_CASE_PARAM(idl_test_parse, idl_cases_gen_params),
	KUNIT_CASE_PARAM(idl_test_limits, idl_gen_cases_gen_params),
	KUNIT_CASE_PARAM(idl_test_shape, idl_shape_cases_gen_params),
	KUNIT_CASE(idl_test_names_are_slices),
	KUNIT_CASE(idl_test_length_bounds_text),
	KUNIT_CASE(idl_test_free_null),
	{}
};

static struct kunit_suite idl_test_suite = {
	.name = "varlink_idl",
	.test_cases = idl_test_cases,
};

kunit_test_suite(idl_test_suite);

MODULE_IMPORT_NS(VL_NS(EXPORTED_FOR_KUNIT_TESTING));
