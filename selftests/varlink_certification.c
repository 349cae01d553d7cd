// SPDX-License-Identifier: GPL-2.0
/*
 * The varlink certification test, from a strict client: org.varlink.certification
 * is served by varlink_certification.ko, which the guest always loads.
 *
 * Each reply is parsed with the core's tokenizer (module/json.c, built in
 * userspace behind the shim of selftests/host) and compared with the
 * values of the Python reference server: every member, in any order,
 * numbers by their exact text (an int never gets a decimal point), strings
 * once unescaped; a reply has nothing else.  The client chains the values
 * as the certification says: the parameters of a reply are those of the
 * next call.
 *
 * And the server must notice a client that gets it wrong: wrong values,
 * wrong flags and calls out of order get CertificationError with what
 * the server wanted and what it got, an unknown client_id gets
 * ClientIdError, and End then answers all_ok: false.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"
#include "../module/json.h"
#include "../module/tests/json_extra.h"

#define CERT		"org.varlink.certification"
#define CERT_MODULE	"varlink_certification"
#define CERT_LIFETIME	"/sys/module/" CERT_MODULE "/parameters/client_lifetime"
#define CERT_CLIENTS	100
#define CERT_ERROR	CERT ".CertificationError"
#define CLIENT_ID_ERROR	CERT ".ClientIdError"

/* The methods, in the order of the test */
enum test_step {
	START, T01, T02, T03, T04, T05, T06, T07, T08, T09, T10, T11, END, STEPS
};

static const char *const step_names[STEPS] = {
	"Start", "Test01", "Test02", "Test03", "Test04", "Test05", "Test06",
	"Test07", "Test08", "Test09", "Test10", "Test11", "End",
};

/* The values of the Python server, exactly as the kernel writes them */
#define PI		"3.141592653589793"
#define STRING		"a lot of string"
#define STRUCT		"{\"bool\":false,\"int\":2,\"float\":" PI ",\"string\":\"" STRING "\"}"
#define MAP		"{\"foo\":\"Foo\",\"bar\":\"Bar\"}"
#define SET		"{\"one\":{},\"two\":{},\"three\":{}}"
#define MYTYPE_WITH(foo1, nulls)					\
	"{\"object\":{\"method\":\"" CERT ".Test09\","			\
	"\"parameters\":{\"map\":" MAP "}},"				\
	"\"enum\":\"two\",\"struct\":{\"first\":1,\"second\":\"2\"},"	\
	"\"array\":[\"one\",\"two\",\"three\"],"			\
	"\"dictionary\":" MAP ",\"stringset\":" SET "," nulls		\
	"\"interface\":{\"foo\":[null," foo1 ",null,"			\
	"{\"one\":\"foo\",\"two\":\"bar\"}],"				\
	"\"anon\":{\"foo\":true,\"bar\":false}}}"
#define NULLS		"\"nullable\":null,\"nullable_array_struct\":null,"
#define MYTYPE		MYTYPE_WITH("{\"foo\":\"foo\",\"bar\":\"bar\"}", NULLS)
/* What the Go server sends: capitalised keys, no nulls; not accepted */
#define MYTYPE_GO	MYTYPE_WITH("{\"Foo\":\"foo\",\"Bar\":\"bar\"}", "")
#define R(n)		"\"Reply number " #n "\""
#define REPLIES		"[" R(1) "," R(2) "," R(3) "," R(4) "," R(5) "," R(6) "," \
			R(7) "," R(8) "," R(9) "," R(10) "]"

/* The parameters of each reply; those of step N are the arguments of N + 1 */
static const char *const replies[STEPS] = {
	[T01] = "{\"bool\":true}",
	[T02] = "{\"int\":1}",
	[T03] = "{\"float\":1.0}",
	[T04] = "{\"string\":\"ping\"}",
	[T05] = "{\"bool\":false,\"int\":2,\"float\":" PI ",\"string\":\"" STRING "\"}",
	[T06] = "{\"struct\":" STRUCT "}",
	[T07] = "{\"map\":" MAP "}",
	[T08] = "{\"set\":" SET "}",
	[T09] = "{\"mytype\":" MYTYPE "}",
	[T10] = "{\"last_more_replies\":" REPLIES "}",	/* all ten, for Test11 */
	[T11] = NULL,					/* oneway: none */
	[END] = "{\"all_ok\":true}",
};

/* The interface description, verbatim from the Python server */
#include "module/tests/certification_idl.h"

/* JSON, with the core's tokenizer */

struct doc {
	struct vl_json js;
	char *text;
};

static const struct vl_json_limits doc_limits = {
	.max_size = VL_MSG_SIZE_MAX,
	.max_depth = VL_JSON_DEPTH_MAX,
	.max_tokens = VL_JSON_TOKENS_MAX,
};

/* Parse @text into @d; returns 0 or -errno (then @d holds nothing). */
static int doc_parse(struct doc *d, const char *text)
{
	size_t len = strlen(text);
	u32 cap = vl_json_tokens_needed(len);
	struct vl_json_tok *toks = calloc(cap, sizeof(*toks));
	int err;

	d->text = strdup(text);
	if (!toks || !d->text) {
		free(toks);
		free(d->text);
		return -ENOMEM;
	}
	vl_json_init(&d->js, toks, cap);
	err = vl_json_parse(&d->js, d->text, len, &doc_limits);
	if (err) {
		free(toks);
		free(d->text);
	}
	return err;
}

static void doc_free(struct doc *d)
{
	free(d->js.toks);
	free(d->text);
}

/* The text of value @i, in a new string */
static char *doc_raw(const struct doc *d, u32 i)
{
	return strndup(d->text + d->js.toks[i].start, d->js.toks[i].len);
}

static bool str_equal(const struct vl_json *a, u32 i, const struct vl_json *b,
		      u32 j)
{
	size_t n = a->toks[i].count;
	char *x, *y;
	bool eq;

	if (n != b->toks[j].count)
		return false;
	x = malloc(n + 1);
	y = malloc(n + 1);
	eq = x && y && vl_json_unescape(a, i, x, n + 1) == (int)n &&
	     vl_json_unescape(b, j, y, n + 1) == (int)n && !memcmp(x, y, n);
	free(x);
	free(y);
	return eq;
}

/*
 * Strict equality, independent of the kernel's varlink_json_equal():
 * members in any order but all of them (a null member is not an absent
 * one), numbers by their text, strings once unescaped.
 */
static bool json_same(const struct vl_json *a, u32 i, const struct vl_json *b,
		      u32 j)
{
	const struct vl_json_tok *ta = &a->toks[i], *tb = &b->toks[j];
	u32 k, v, bk, bv;
	bool found;

	if (ta->type != tb->type)
		return false;
	switch (ta->type) {
	case VL_JSON_NUMBER:
		return ta->len == tb->len &&
		       !memcmp(a->buf + ta->start, b->buf + tb->start, ta->len);
	case VL_JSON_STRING:
		return str_equal(a, i, b, j);
	case VL_JSON_BOOL:
		return !((ta->flags ^ tb->flags) & VL_JSON_F_TRUE);
	case VL_JSON_NULL:
		return true;
	case VL_JSON_ARRAY:
		if (ta->count != tb->count)
			return false;
		bv = j + 1;
		vl_json_for_each_elem(a, i, v) {
			if (!json_same(a, v, b, bv))
				return false;
			bv = b->toks[bv].next;
		}
		return true;
	case VL_JSON_OBJECT:
		if (ta->count != tb->count)
			return false;
		vl_json_for_each_member(a, i, k, v) {
			found = false;
			vl_json_for_each_member(b, j, bk, bv) {
				if (str_equal(a, k, b, bk)) {
					found = json_same(a, v, b, bv);
					break;
				}
			}
			if (!found)
				return false;
		}
		return true;
	}
	return false;
}

/* The last problem found, for the logs */
static const char *last_problem = "";

/* After an EXPECT or ASSERT: the last problem and the message @m */
#define LOG_MSG(m)	TH_LOG("%s; the message: %s", last_problem, (m))

static const char *noted(const char *problem)
{
	if (problem)
		last_problem = problem;
	return problem;
}

/*
 * What is wrong with reply @msg, or NULL: it must be a valid reply, with
 * the error @error (NULL for none), with "continues": true if and only
 * if @continues, and with the parameters @params (NULL: none, absent or
 * empty).  The reply's parameters go to *@got when it is not NULL.
 */
static const char *check_reply(const char *msg, const char *error,
			       const char *params, bool continues, char **got)
{
	const char *problem;
	struct doc d, want;
	int p, e, c;

	if (got)
		*got = NULL;
	if (!msg || !*msg)
		return "no reply";
	problem = vt_reply_problem(msg);
	if (problem)
		return problem;
	if (doc_parse(&d, msg))
		return "the tokenizer refuses the reply";
	p = vl_json_find(&d.js, 0, "parameters");
	e = vl_json_find(&d.js, 0, "error");
	c = vl_json_find(&d.js, 0, "continues");
	if (got && p >= 0)
		*got = doc_raw(&d, p);
	if (error && (e < 0 || !vl_json_str_eq(&d.js, e, error, strlen(error)))) {
		problem = "not the error expected";
	} else if (!error && e >= 0) {
		problem = "an error";
	} else if (continues != (c >= 0)) {
		problem = continues ? "no \"continues\"" : "\"continues\" where none is due";
	} else if (!params) {
		if (p >= 0 && d.js.toks[p].count)
			problem = "parameters where none are due";
	} else if (p < 0) {
		problem = "no parameters";
	} else if (doc_parse(&want, params)) {
		problem = "the expected parameters are not JSON (a bug of the test)";
	} else {
		if (!json_same(&d.js, p, &want.js, 0))
			problem = "not the parameters expected";
		doc_free(&want);
	}
	doc_free(&d);
	return problem;
}

static const char *reply_problem(const char *msg, const char *error,
				 const char *params, bool continues, char **got)
{
	return noted(check_reply(msg, error, params, continues, got));
}

/* The string member @key of object text @json, or NULL */
static char *member_str(const char *json, const char *key)
{
	struct doc d;
	char *s = NULL;
	int i;

	if (!json || doc_parse(&d, json))
		return NULL;
	i = vl_json_find(&d.js, 0, key);
	if (i >= 0 && d.js.toks[i].type == VL_JSON_STRING) {
		s = malloc(d.js.toks[i].count + 1);
		if (s && vl_json_tok_str(&d.js, i, s, d.js.toks[i].count + 1) < 0) {
			free(s);
			s = NULL;
		}
	}
	doc_free(&d);
	return s;
}

/* The raw text of member @key of object text @json, or NULL */
static char *member_raw(const char *json, const char *key)
{
	struct doc d;
	char *s = NULL;
	int i;

	if (!json || doc_parse(&d, json))
		return NULL;
	i = vl_json_find(&d.js, 0, key);
	if (i >= 0)
		s = doc_raw(&d, i);
	doc_free(&d);
	return s;
}

/* A client of the certification, on a connection of its own */
struct client {
	struct vt_conn c;
	char *id;		/* the client_id Start gave */
	char *prev;		/* the parameters of the last reply */
	char *strings[10];	/* the replies of Test10, raw */
	int n_strings;
	char *last;		/* the last message received, for the logs */
};

static void client_init(struct client *cl)
{
	memset(cl, 0, sizeof(*cl));
	vt_init(&cl->c);
}

static void client_close(struct client *cl)
{
	int i;

	vt_close(&cl->c);
	free(cl->id);
	free(cl->prev);
	free(cl->last);
	for (i = 0; i < cl->n_strings; i++)
		free(cl->strings[i]);
	client_init(cl);
}

/* A call of @step, with @flags (",\"more\":true") and @members after client_id */
static char *call_text(const struct client *cl, enum test_step step,
		       const char *flags, const char *members)
{
	if (step == START)
		return vt_fmt("{\"method\":\"" CERT ".Start\"%s}", flags);
	return vt_fmt("{\"method\":\"" CERT ".%s\"%s,\"parameters\":{\"client_id\":\"%s\"%s%s}}",
		      step_names[step], flags, cl->id ? cl->id : "",
		      *members ? "," : "", members);
}

/*
 * The arguments of @step but client_id, as members of an object: the
 * parameters of the reply before, or the strings Test10 returned.
 */
static char *step_members(const struct client *cl, enum test_step step)
{
	char *s, *t;
	int i;

	switch (step) {
	case START:
	case T01:
	case END:
		return strdup("");
	case T11:
		if (cl->n_strings != 10)
			return strdup("\"last_more_replies\":" REPLIES);
		s = strdup("\"last_more_replies\":[");
		for (i = 0; s && i < 10; i++) {
			t = vt_fmt("%s%s%s", s, i ? "," : "", cl->strings[i]);
			free(s);
			s = t;
		}
		t = s ? vt_fmt("%s]", s) : NULL;
		free(s);
		return t;
	default:
		s = cl->prev ? cl->prev : (char *)replies[step - 1];
		return strndup(s + 1, strlen(s) - 2);	/* the braces off */
	}
}

static void client_keep(struct client *cl, const char *msg)
{
	free(cl->last);
	cl->last = strdup(msg);
}

/* The checks of Start's reply: only a client_id of 32 lowercase hex digits */
static const char *start_problem(struct client *cl, const char *msg)
{
	const char *problem = NULL;
	char *got, *id, *only;
	size_t i;

	got = member_raw(msg, "parameters");
	id = member_str(got, "client_id");
	free(got);
	free(cl->id);
	cl->id = id;
	if (!id || strlen(id) != 32)
		return noted("no client_id of 32 characters");
	for (i = 0; !problem && i < 32; i++)
		if (!isxdigit((unsigned char)id[i]) || isupper((unsigned char)id[i]))
			return noted("client_id is not lowercase hex");
	/* and nothing else */
	only = vt_fmt("{\"client_id\":\"%s\"}", id);
	problem = reply_problem(msg, NULL, only, false, NULL);
	free(only);
	return problem;
}

/* Test10: ten replies, "continues" on all but the last */
static const char *stream_problem(struct client *cl)
{
	const char *problem, *msg;
	char *want, *got;
	int n;

	while (cl->n_strings)
		free(cl->strings[--cl->n_strings]);
	for (n = 1; n <= 10; n++) {
		if (vt_recv(&cl->c, VT_TIMEOUT_MS, &msg) != 1)
			return "fewer than ten replies";
		client_keep(cl, msg);
		want = vt_fmt("{\"string\":\"Reply number %d\"}", n);
		problem = reply_problem(msg, NULL, want, n < 10, &got);
		free(want);
		if (!problem) {
			cl->strings[cl->n_strings++] = member_raw(got, "string");
			if (!cl->strings[cl->n_strings - 1])
				problem = "no string";
		}
		free(got);
		if (problem)
			return problem;
	}
	return NULL;
}

/*
 * Make the right call of @step and check its reply; End expects @all_ok.
 * Test11 has no reply: the reply to the next call shows that none came.
 */
static const char *client_step(struct client *cl, enum test_step step, bool all_ok)
{
	const char *flags = step == T10 ? ",\"more\":true" :
			    step == T11 ? ",\"oneway\":true" : "";
	const char *problem, *msg;
	char *members, *text, *got;
	int ret;

	members = step_members(cl, step);
	text = members ? call_text(cl, step, flags, members) : NULL;
	ret = text ? vt_send(&cl->c, text) : -ENOMEM;
	free(members);
	free(text);
	if (ret)
		return "cannot send";
	if (step == T11)
		return NULL;
	if (step == T10)
		return stream_problem(cl);
	if (vt_recv(&cl->c, VT_TIMEOUT_MS, &msg) != 1)
		return "no reply";
	client_keep(cl, msg);
	if (step == START)
		return start_problem(cl, msg);
	problem = reply_problem(msg, NULL,
				step == END && !all_ok ? "{\"all_ok\":false}" :
				replies[step], false, &got);
	free(cl->prev);
	cl->prev = got;
	return problem;
}

/* Steps @from to @to, both included; NULL or "STEP: what is wrong" */
static const char *client_run(struct client *cl, enum test_step from, enum test_step to,
			      bool all_ok)
{
	const char *problem;
	enum test_step s;

	for (s = from; s <= to; s++) {
		problem = client_step(cl, s, all_ok);
		if (problem)
			return noted(vt_fmt("%s: %s", step_names[s], problem));
	}
	return NULL;
}

static int client_open(struct client *cl)
{
	client_init(cl);
	return vt_open_ready(&cl->c);
}

/* Whether the module's clients expire after @seconds from now on */
static int set_lifetime(const char *seconds)
{
	int fd = open(CERT_LIFETIME, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, seconds, strlen(seconds));
	close(fd);
	return n == (ssize_t)strlen(seconds) ? 0 : -EIO;
}

/* The whole test, right, then the client_id is gone */
TEST(sequence)
{
	struct client cl;
	const char *msg;
	char *text;

	ASSERT_EQ(0, client_open(&cl));
	EXPECT_EQ(NULL, client_run(&cl, START, END, true)) LOG_MSG(cl.last);

	text = call_text(&cl, T01, "", "");
	ASSERT_EQ(1, vt_call(&cl.c, text, &msg));
	EXPECT_EQ(NULL, reply_problem(msg, CLIENT_ID_ERROR, NULL, false, NULL))
		LOG_MSG(msg);
	EXPECT_EQ(-ETIMEDOUT, vt_recv(&cl.c, 200, &msg)) LOG_MSG(msg);
	free(text);
	client_close(&cl);
}

/* Twice on one connection, then from two connections at once */
TEST(again_and_interleaved)
{
	struct client a, b;
	enum test_step s;

	ASSERT_EQ(0, client_open(&a));
	ASSERT_EQ(0, client_open(&b));
	EXPECT_EQ(NULL, client_run(&a, START, END, true)) LOG_MSG(a.last);
	EXPECT_EQ(NULL, client_run(&a, START, END, true)) LOG_MSG(a.last);
	for (s = START; s <= END; s++) {
		EXPECT_EQ(NULL, client_run(&a, s, s, true)) LOG_MSG(a.last);
		EXPECT_EQ(NULL, client_run(&b, s, s, true)) LOG_MSG(b.last);
	}
	client_close(&a);
	client_close(&b);
}

#define DESCRIBE_CERT							\
	"{\"method\":\"org.varlink.service.GetInterfaceDescription\","	\
	"\"parameters\":{\"interface\":\"" CERT "\"}}"

/* The description is the Python server's, and GetInfo lists it */
TEST(describe)
{
	struct vt_conn c;
	const char *msg;
	char *desc;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, DESCRIBE_CERT, &msg));
	ASSERT_TRUE(vt_is_ok(msg)) LOG_MSG(msg);
	desc = member_str(vt_params(msg), "description");
	ASSERT_NE(NULL, desc);
	EXPECT_STREQ(vl_certification_idl, desc);
	free(desc);

	ASSERT_EQ(1, vt_call(&c, "{\"method\":\"org.varlink.service.GetInfo\"}", &msg));
	EXPECT_NE(NULL, strstr(msg, "\"" CERT "\"")) LOG_MSG(msg);
	vt_close(&c);
}

#define T06_PI_SPELT							\
	"\"string\":\"" STRING "\",\"float\":0.31415926535897930e1,"		\
	"\"int\":2,\"bool\":false"

/* A float may come as any spelling of its value: 1, or pi in another form */
TEST(float_spellings)
{
	struct client cl;
	const char *msg;
	char *text;

	ASSERT_EQ(0, client_open(&cl));
	ASSERT_EQ(NULL, client_run(&cl, START, T03, true)) LOG_MSG(cl.last);
	text = call_text(&cl, T04, "", "\"float\":1");
	ASSERT_EQ(1, vt_call(&cl.c, text, &msg));
	EXPECT_EQ(NULL, reply_problem(msg, NULL, replies[T04], false, NULL))
		LOG_MSG(msg);
	free(text);
	text = call_text(&cl, T05, "", "\"string\":\"ping\"");
	ASSERT_EQ(1, vt_call(&cl.c, text, &msg));
	EXPECT_EQ(NULL, reply_problem(msg, NULL, replies[T05], false, NULL))
		LOG_MSG(msg);
	free(text);
	text = call_text(&cl, T06, "", T06_PI_SPELT);
	ASSERT_EQ(1, vt_call(&cl.c, text, &msg));
	EXPECT_EQ(NULL, reply_problem(msg, NULL, replies[T06], false, NULL))
		LOG_MSG(msg);
	free(text);
	free(cl.prev);
	cl.prev = NULL;
	EXPECT_EQ(NULL, client_run(&cl, T07, END, true)) LOG_MSG(cl.last);
	client_close(&cl);
}

/* A wrong call, noticed; the client goes on and End says so */
FIXTURE(wrong) {
	struct client cl;
};

FIXTURE_VARIANT(wrong) {
	enum test_step at;		/* the method due */
	enum test_step call;		/* the method called */
	const char *flags;
	const char *members;	/* the arguments after client_id */
	const char *error;	/* NULL: no reply (oneway) */
	const char *error_params;	/* "%1$s" stands for the client_id */
	enum test_step resume;	/* the method due afterwards */
};

#define CALL_OBJ(name, flags, members)					\
	"{\"method\":\"" CERT "." name "\"" flags				\
	",\"parameters\":{\"client_id\":\"%1$s\"," members "}}"
#define METHOD_OBJ(name)	"{\"method\":\"" CERT "." name "\"}"
#define WANTS_GOT(wants, got)	"{\"wants\":" wants ",\"got\":" got "}"
#define MORE		",\"more\":true"
#define ONEWAY		",\"oneway\":true"
#define T05_VALUES	"\"bool\":false,\"int\":2,\"float\":" PI ",\"string\":\"" STRING "\""

FIXTURE_VARIANT_ADD(wrong, bool) {
	.at = T02, .call = T02, .flags = "", .members = "\"bool\":false",
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(CALL_OBJ("Test02", "", "\"bool\":true"),
				  CALL_OBJ("Test02", "", "\"bool\":false")),
	.resume = T03,
};

FIXTURE_VARIANT_ADD(wrong, int) {
	.at = T03, .call = T03, .flags = "", .members = "\"int\":2",
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(CALL_OBJ("Test03", "", "\"int\":1"),
				  CALL_OBJ("Test03", "", "\"int\":2")),
	.resume = T04,
};

FIXTURE_VARIANT_ADD(wrong, float) {
	.at = T04, .call = T04, .flags = "", .members = "\"float\":1.5",
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(CALL_OBJ("Test04", "", "\"float\":1.0"),
				  CALL_OBJ("Test04", "", "\"float\":1.5")),
	.resume = T05,
};

FIXTURE_VARIANT_ADD(wrong, string) {
	.at = T05, .call = T05, .flags = "", .members = "\"string\":\"Ping\"",
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(CALL_OBJ("Test05", "", "\"string\":\"ping\""),
				  CALL_OBJ("Test05", "", "\"string\":\"Ping\"")),
	.resume = T06,
};

#define T06_NOT_PI	"\"bool\":false,\"int\":2,\"float\":3.14,\"string\":\"" STRING "\""
#define T06_TRUE	"\"bool\":true,\"int\":2,\"float\":" PI ",\"string\":\"" STRING "\""

FIXTURE_VARIANT_ADD(wrong, float_not_pi) {
	.at = T06, .call = T06, .flags = "",
	.members = T06_NOT_PI,
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(CALL_OBJ("Test06", "", T05_VALUES),
				  CALL_OBJ("Test06", "", T06_NOT_PI)),
	.resume = T07,
};

FIXTURE_VARIANT_ADD(wrong, bool_in_test06) {
	.at = T06, .call = T06, .flags = "",
	.members = T06_TRUE,
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(CALL_OBJ("Test06", "", T05_VALUES),
				  CALL_OBJ("Test06", "", T06_TRUE)),
	.resume = T07,
};

#define STRUCT_INT3	"{\"bool\":false,\"int\":3,\"float\":" PI ",\"string\":\"" STRING "\"}"

FIXTURE_VARIANT_ADD(wrong, struct) {
	.at = T07, .call = T07, .flags = "", .members = "\"struct\":" STRUCT_INT3,
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(CALL_OBJ("Test07", "", "\"struct\":" STRUCT),
				  CALL_OBJ("Test07", "", "\"struct\":" STRUCT_INT3)),
	.resume = T08,
};

#define MAP_BAR		"{\"foo\":\"Foo\",\"bar\":\"BAR\"}"

FIXTURE_VARIANT_ADD(wrong, map) {
	.at = T08, .call = T08, .flags = "", .members = "\"map\":" MAP_BAR,
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(CALL_OBJ("Test08", "", "\"map\":" MAP),
				  CALL_OBJ("Test08", "", "\"map\":" MAP_BAR)),
	.resume = T09,
};

#define MAP_EXTRA	"{\"foo\":\"Foo\",\"bar\":\"Bar\",\"baz\":\"Baz\"}"

FIXTURE_VARIANT_ADD(wrong, map_extra) {
	.at = T08, .call = T08, .flags = "", .members = "\"map\":" MAP_EXTRA,
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(CALL_OBJ("Test08", "", "\"map\":" MAP),
				  CALL_OBJ("Test08", "", "\"map\":" MAP_EXTRA)),
	.resume = T09,
};

#define SET_TWO		"{\"one\":{},\"two\":{}}"

FIXTURE_VARIANT_ADD(wrong, set) {
	.at = T09, .call = T09, .flags = "", .members = "\"set\":" SET_TWO,
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(CALL_OBJ("Test09", "", "\"set\":" SET),
				  CALL_OBJ("Test09", "", "\"set\":" SET_TWO)),
	.resume = T10,
};

FIXTURE_VARIANT_ADD(wrong, mytype_of_go) {
	.at = T10, .call = T10, .flags = MORE, .members = "\"mytype\":" MYTYPE_GO,
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(CALL_OBJ("Test10", MORE, "\"mytype\":" MYTYPE),
				  CALL_OBJ("Test10", MORE, "\"mytype\":" MYTYPE_GO)),
	.resume = T11,
};

#define MYTYPE_X	MYTYPE_WITH("{\"foo\":\"foo\",\"bar\":\"bar\"}", "\"nullable\":\"x\",")

FIXTURE_VARIANT_ADD(wrong, mytype_nullable_set) {
	.at = T10, .call = T10, .flags = MORE, .members = "\"mytype\":" MYTYPE_X,
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(CALL_OBJ("Test10", MORE, "\"mytype\":" MYTYPE),
				  CALL_OBJ("Test10", MORE, "\"mytype\":" MYTYPE_X)),
	.resume = T11,
};

FIXTURE_VARIANT_ADD(wrong, test11_not_oneway) {
	.at = T11, .call = T11, .flags = "", .members = "\"last_more_replies\":" REPLIES,
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(CALL_OBJ("Test11", ONEWAY, "\"last_more_replies\":" REPLIES),
				  CALL_OBJ("Test11", "", "\"last_more_replies\":" REPLIES)),
	.resume = END,
};

FIXTURE_VARIANT_ADD(wrong, test11_replies) {
	.at = T11, .call = T11, .flags = ONEWAY,
	.members = "\"last_more_replies\":[" R(1) "," R(2) "," R(3) "," R(4) ","
		   R(5) "," R(6) "," R(7) "," R(8) "," R(10) "," R(9) "]",
	.resume = END,
};

FIXTURE_VARIANT_ADD(wrong, test01_oneway) {
	.at = T01, .call = T01, .flags = ONEWAY, .members = "",
	.resume = T02,
};

FIXTURE_VARIANT_ADD(wrong, test02_more) {
	.at = T02, .call = T02, .flags = MORE, .members = "\"bool\":true",
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(CALL_OBJ("Test02", "", "\"bool\":true"),
				  CALL_OBJ("Test02", MORE, "\"bool\":true")),
	.resume = T03,
};

FIXTURE_VARIANT_ADD(wrong, skipped) {
	.at = T02, .call = T03, .flags = "", .members = "\"int\":1",
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(METHOD_OBJ("Test02"), METHOD_OBJ("Test03")),
	.resume = T02,
};

FIXTURE_VARIANT_ADD(wrong, repeated) {
	.at = T03, .call = T02, .flags = "", .members = "\"bool\":true",
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(METHOD_OBJ("Test03"), METHOD_OBJ("Test02")),
	.resume = T03,
};

FIXTURE_VARIANT_ADD(wrong, end_early) {
	.at = T01, .call = END, .flags = "", .members = "",
	.error = CERT_ERROR,
	.error_params = WANTS_GOT(METHOD_OBJ("Test01"), METHOD_OBJ("End")),
	.resume = T01,
};

FIXTURE_SETUP(wrong)
{
	ASSERT_EQ(0, client_open(&self->cl));
}

FIXTURE_TEARDOWN(wrong)
{
	client_close(&self->cl);
}

TEST_F(wrong, noticed)
{
	struct client *cl = &self->cl;
	const char *msg;
	char *text, *want;

	ASSERT_EQ(NULL, client_run(cl, START, variant->at - 1, true)) LOG_MSG(cl->last);
	text = call_text(cl, variant->call, variant->flags, variant->members);
	ASSERT_EQ(0, vt_send(&cl->c, text));
	if (variant->error) {
		ASSERT_EQ(1, vt_recv(&cl->c, VT_TIMEOUT_MS, &msg));
		want = vt_fmt(variant->error_params, cl->id);
		EXPECT_EQ(NULL, reply_problem(msg, variant->error, want, false, NULL))
			TH_LOG("%s\nsent %s\ngot %s\nwanted %s", last_problem, text, msg, want);
		free(want);
	}
	free(text);

	/* on from the method due, with the right values: End says false */
	free(cl->prev);
	cl->prev = NULL;
	EXPECT_EQ(NULL, client_run(cl, variant->resume, END, false)) LOG_MSG(cl->last);
	EXPECT_EQ(-ETIMEDOUT, vt_recv(&cl->c, 200, &msg)) LOG_MSG(msg);
}

#define TEST02_BY_ID							\
	"{\"method\":\"" CERT ".Test02\",\"parameters\":"			\
	"{\"client_id\":\"%s\",\"bool\":true}}"

/* Ids the server never gave: ClientIdError, and no harm to a real one */
TEST(unknown_client_ids)
{
	static const char *const ids[] = {
		"00000000000000000000000000000000", "", "x",
		"0123456789abcdef0123456789abcdef0",
	};
	struct client cl;
	const char *msg;
	char *text, *upper;
	unsigned int i;

	ASSERT_EQ(0, client_open(&cl));
	ASSERT_EQ(NULL, client_run(&cl, START, T01, true)) LOG_MSG(cl.last);
	upper = strdup(cl.id);
	for (i = 0; upper[i]; i++)
		upper[i] = toupper((unsigned char)upper[i]);
	for (i = 0; i <= ARRAY_SIZE(ids); i++) {
		const char *id = i < ARRAY_SIZE(ids) ? ids[i] : upper;

		text = vt_fmt(TEST02_BY_ID, id);
		ASSERT_EQ(1, vt_call(&cl.c, text, &msg));
		EXPECT_EQ(NULL, reply_problem(msg, CLIENT_ID_ERROR, NULL, false, NULL))
			TH_LOG("id '%s': %s; the message: %s", id, last_problem, msg);
		free(text);
	}
	free(upper);
	EXPECT_EQ(NULL, client_run(&cl, T02, END, true)) LOG_MSG(cl.last);
	client_close(&cl);
}

/* Start must be a plain call; empty and null parameters are no parameters */
TEST(start_flags)
{
	struct client cl;
	const char *msg;

	ASSERT_EQ(0, client_open(&cl));
	ASSERT_EQ(1, vt_call(&cl.c, "{\"method\":\"" CERT ".Start\",\"more\":true}", &msg));
	EXPECT_EQ(NULL, reply_problem(msg, CERT_ERROR,
				      WANTS_GOT(METHOD_OBJ("Start"),
						"{\"method\":\"" CERT ".Start\"" MORE "}"),
				      false, NULL)) LOG_MSG(msg);
	/* no reply, and the next one is Start's */
	ASSERT_EQ(0, vt_send(&cl.c, "{\"method\":\"" CERT ".Start\",\"oneway\":true}"));
	ASSERT_EQ(1, vt_call(&cl.c, "{\"method\":\"" CERT ".Start\",\"parameters\":{}}", &msg));
	EXPECT_EQ(NULL, start_problem(&cl, msg)) LOG_MSG(msg);
	ASSERT_EQ(1, vt_call(&cl.c, "{\"method\":\"" CERT ".Start\",\"parameters\":null}", &msg));
	EXPECT_EQ(NULL, start_problem(&cl, msg)) LOG_MSG(msg);
	EXPECT_EQ(NULL, client_run(&cl, T01, END, true)) LOG_MSG(cl.last);
	client_close(&cl);
}

/*
 * Test10 without "more": the core answers ExpectedMore for the provider
 * (VARLINK_MORE_ONLY), whose sequence waits for Test10 still.
 */
TEST(test10_without_more)
{
	struct client cl;
	const char *msg;
	char *members, *text;

	ASSERT_EQ(0, client_open(&cl));
	ASSERT_EQ(NULL, client_run(&cl, START, T09, true)) LOG_MSG(cl.last);
	members = step_members(&cl, T10);
	text = call_text(&cl, T10, "", members);
	ASSERT_EQ(1, vt_call(&cl.c, text, &msg));
	EXPECT_EQ(NULL, reply_problem(msg, "org.varlink.service.ExpectedMore", NULL,
				      false, NULL)) LOG_MSG(msg);
	free(members);
	free(text);
	EXPECT_EQ(NULL, client_run(&cl, T10, END, true)) LOG_MSG(cl.last);
	client_close(&cl);
}

/* A client_id expires: here after a second */
TEST(client_expires)
{
	struct client cl;
	const char *msg;
	char *text;
	int err;

	ASSERT_EQ(0, client_open(&cl));
	ASSERT_EQ(0, set_lifetime("1"));
	err = client_run(&cl, START, START, true) ? -EINVAL : 0;
	vt_sleep_ms(2100);
	ASSERT_EQ(0, set_lifetime("300"));
	ASSERT_EQ(0, err) LOG_MSG(cl.last);
	text = call_text(&cl, T01, "", "");
	ASSERT_EQ(1, vt_call(&cl.c, text, &msg));
	EXPECT_EQ(NULL, reply_problem(msg, CLIENT_ID_ERROR, NULL, false, NULL))
		LOG_MSG(msg);
	free(text);
	/* a new one lives */
	EXPECT_EQ(NULL, client_run(&cl, START, END, true)) LOG_MSG(cl.last);
	client_close(&cl);
}

static int reload(void)
{
	int err = vt_rmmod(CERT_MODULE, 30000);

	return err ? err : vt_insmod(CERT_MODULE);
}

/*
 * The table holds CERT_CLIENTS clients; one more Start gets EBUSY.  The
 * module is loaded again before and after, to start with an empty table
 * and to leave one.
 */
FIXTURE(table) {
	struct client cl;
};

FIXTURE_SETUP(table)
{
	ASSERT_EQ(0, reload());
	ASSERT_EQ(0, client_open(&self->cl));
}

FIXTURE_TEARDOWN(table)
{
	client_close(&self->cl);
}

TEST_F_TIMEOUT(table, full, 120)
{
	struct client *cl = &self->cl;
	const char *msg;
	int i;

	for (i = 0; i < CERT_CLIENTS; i++) {
		ASSERT_EQ(1, vt_call(&cl->c, METHOD_OBJ("Start"), &msg));
		ASSERT_EQ(NULL, start_problem(cl, msg))
			TH_LOG("Start %d: %s; the message: %s", i, last_problem, msg);
	}
	ASSERT_EQ(1, vt_call(&cl->c, METHOD_OBJ("Start"), &msg));
	EXPECT_EQ(NULL, reply_problem(msg, "org.kernel.varlink.SystemError",
				      "{\"errno\":16}", false, NULL)) LOG_MSG(msg);
	/* the clients still work, and End makes room */
	EXPECT_EQ(NULL, client_run(cl, T01, END, true)) LOG_MSG(cl->last);
	ASSERT_EQ(1, vt_call(&cl->c, METHOD_OBJ("Start"), &msg));
	EXPECT_EQ(NULL, start_problem(cl, msg)) LOG_MSG(msg);
	client_close(cl);

	ASSERT_EQ(0, reload());
	ASSERT_EQ(0, client_open(cl));
	EXPECT_EQ(NULL, client_run(cl, START, END, true)) LOG_MSG(cl->last);
}

TEST_HARNESS_MAIN
