// SPDX-License-Identifier: GPL-2.0
/*
 * org.varlink.certification: the varlink certification service, served
 * as the reference servers of the Python, Rust and Go bindings serve it,
 * so that the well-known clients can certify the kernel's server.
 *
 * A client calls Start, Test01 to Test11 and End, in this order, each
 * with the values the previous reply gave it; Test10 streams ten replies
 * ("more") and Test11 is "oneway".  The values are those of the Python
 * server, the reference.  Every argument of every call is checked: typed
 * parameters directly, structured ones with varlink_json_equal().  A
 * wrong value, wrong flags or a call out of order get CertificationError,
 * with the call expected in "wants" and the call received (or, out of
 * order, just the methods) in "got", and spoil the client's result: End
 * then answers all_ok: false.  After a wrong value the sequence goes on
 * with the next method (the Python server forgets the client instead,
 * which leaves End nothing to report); a call out of order leaves it
 * where it was.  An unknown client_id gets ClientIdError.  Test10 without
 * "more" is answered by the core (ExpectedMore, VARLINK_MORE_ONLY) and
 * does not reach this module.
 *
 * Clients live in a table of CERT_CLIENTS_MAX slots, under cert_lock,
 * keyed by a random 128-bit id in hex.  End frees a slot; so does the
 * end of the client's lifetime (client_lifetime seconds after its Start,
 * as the parameter was then): Start sweeps expired slots, and an expired
 * id is unknown.  With every slot taken, Start fails with EBUSY
 * (org.kernel.varlink.SystemError).
 */
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/string.h>

#include <linux/varlink.h>
#include "../compat.h"
#include "certification_idl.h"

#define CERT_IFACE		"org.varlink.certification"
#define CERT_CLIENTS_MAX	100
#define CERT_ID_BYTES		16

static unsigned int client_lifetime = 300;
module_param(client_lifetime, uint, 0644);
MODULE_PARM_DESC(client_lifetime,
		 "seconds a client_id stays valid after its Start (default 300)");

/* The values of the test, as JSON for the checks */
#define CERT_PI			"3.141592653589793"
#define CERT_PI_FIXED		3141592653589793LL
#define CERT_PI_DECIMALS	15
#define CERT_STRING		"a lot of string"
#define CERT_STRUCT_JSON						\
	"{\"bool\":false,\"int\":2,\"float\":" CERT_PI ","		\
	"\"string\":\"" CERT_STRING "\"}"
#define CERT_MAP_JSON		"{\"foo\":\"Foo\",\"bar\":\"Bar\"}"
#define CERT_SET_JSON		"{\"one\":{},\"two\":{},\"three\":{}}"
/* Null members may be absent: varlink_json_equal() takes them so. */
#define CERT_MYTYPE_JSON						\
	"{\"object\":{\"method\":\"" CERT_IFACE ".Test09\","		\
	"\"parameters\":{\"map\":" CERT_MAP_JSON "}},"			\
	"\"enum\":\"two\","						\
	"\"struct\":{\"first\":1,\"second\":\"2\"},"			\
	"\"array\":[\"one\",\"two\",\"three\"],"			\
	"\"dictionary\":" CERT_MAP_JSON ","				\
	"\"stringset\":" CERT_SET_JSON ","				\
	"\"nullable\":null,"						\
	"\"nullable_array_struct\":null,"				\
	"\"interface\":{"						\
	"\"foo\":[null,{\"foo\":\"foo\",\"bar\":\"bar\"},null,"		\
	"{\"one\":\"foo\",\"two\":\"bar\"}],"				\
	"\"anon\":{\"foo\":true,\"bar\":false}}}"
#define CERT_REPLIES		10
#define CERT_REPLY(n)		"\"Reply number " #n "\""
#define CERT_REPLIES_JSON						\
	"[" CERT_REPLY(1) "," CERT_REPLY(2) "," CERT_REPLY(3) ","	\
	CERT_REPLY(4) "," CERT_REPLY(5) "," CERT_REPLY(6) ","		\
	CERT_REPLY(7) "," CERT_REPLY(8) "," CERT_REPLY(9) ","		\
	CERT_REPLY(10) "]"

/* The methods, in the order a client calls them */
enum cert_step {
	CERT_START,
	CERT_TEST01,
	CERT_TEST02,
	CERT_TEST03,
	CERT_TEST04,
	CERT_TEST05,
	CERT_TEST06,
	CERT_TEST07,
	CERT_TEST08,
	CERT_TEST09,
	CERT_TEST10,
	CERT_TEST11,
	CERT_END,
	CERT_STEPS
};

static const char * const cert_names[CERT_STEPS] = {
	[CERT_START] = CERT_IFACE ".Start",
	[CERT_TEST01] = CERT_IFACE ".Test01",
	[CERT_TEST02] = CERT_IFACE ".Test02",
	[CERT_TEST03] = CERT_IFACE ".Test03",
	[CERT_TEST04] = CERT_IFACE ".Test04",
	[CERT_TEST05] = CERT_IFACE ".Test05",
	[CERT_TEST06] = CERT_IFACE ".Test06",
	[CERT_TEST07] = CERT_IFACE ".Test07",
	[CERT_TEST08] = CERT_IFACE ".Test08",
	[CERT_TEST09] = CERT_IFACE ".Test09",
	[CERT_TEST10] = CERT_IFACE ".Test10",
	[CERT_TEST11] = CERT_IFACE ".Test11",
	[CERT_END] = CERT_IFACE ".End",
};

/**
 * struct cert_client - one certification run
 * @id: the client_id, 32 hex digits; "" when the slot is free
 * @expires: jiffies when the id stops being valid
 * @next: the method due next
 * @failed: a call was wrong or out of order
 */
struct cert_client {
	char id[2 * CERT_ID_BYTES + 1];
	unsigned long expires;
	enum cert_step next;
	bool failed;
};

static DEFINE_MUTEX(cert_lock);
static struct cert_client cert_clients[CERT_CLIENTS_MAX];	/* cert_lock */

/* The parameters of every method; each method decodes its own. */
struct cert_params {
	const char *client_id;
	bool b;
	s64 i;
	struct varlink_json f;	/* float */
	const char *s;
	struct varlink_json v;	/* struct, map, set, mytype or an array */
};

#define CERT_PARAM(_name, _member) \
	VARLINK_PARAM(_name, struct cert_params, _member)
#define CERT_ID		CERT_PARAM("client_id", client_id)
#define CERT_BOOL	CERT_PARAM("bool", b)
#define CERT_INT	CERT_PARAM("int", i)
#define CERT_FLOAT	CERT_PARAM("float", f)
#define CERT_STR	CERT_PARAM("string", s)

static const struct varlink_param cert_p_id[] = { CERT_ID };
static const struct varlink_param cert_p_bool[] = { CERT_ID, CERT_BOOL };
static const struct varlink_param cert_p_int[] = { CERT_ID, CERT_INT };
static const struct varlink_param cert_p_float[] = { CERT_ID, CERT_FLOAT };
static const struct varlink_param cert_p_string[] = { CERT_ID, CERT_STR };
static const struct varlink_param cert_p_test06[] = {
	CERT_ID, CERT_BOOL, CERT_INT, CERT_FLOAT, CERT_STR,
};

static const struct varlink_param cert_p_struct[] = {
	CERT_ID, CERT_PARAM("struct", v),
};

static const struct varlink_param cert_p_map[] = {
	CERT_ID, CERT_PARAM("map", v),
};

static const struct varlink_param cert_p_set[] = {
	CERT_ID, CERT_PARAM("set", v),
};

static const struct varlink_param cert_p_mytype[] = {
	CERT_ID, CERT_PARAM("mytype", v),
};

static const struct varlink_param cert_p_replies[] = {
	CERT_ID, CERT_PARAM("last_more_replies", v),
};

static int cert_call(struct varlink_call *call, const void *params);

#define CERT_METHOD(_name, _params, _flags) {				\
	.name = (_name),						\
	.call = cert_call,						\
	VARLINK_PARAMS(_params, struct cert_params),			\
	.flags = (_flags),						\
}

/* Indexed by enum cert_step */
static const struct varlink_method cert_methods[CERT_STEPS] = {
	[CERT_START] = {
		.name = "Start",
		.call = cert_call,
		.params_size = sizeof(struct cert_params),
	},
	[CERT_TEST01] = CERT_METHOD("Test01", cert_p_id, 0),
	[CERT_TEST02] = CERT_METHOD("Test02", cert_p_bool, 0),
	[CERT_TEST03] = CERT_METHOD("Test03", cert_p_int, 0),
	[CERT_TEST04] = CERT_METHOD("Test04", cert_p_float, 0),
	[CERT_TEST05] = CERT_METHOD("Test05", cert_p_string, 0),
	[CERT_TEST06] = CERT_METHOD("Test06", cert_p_test06, 0),
	[CERT_TEST07] = CERT_METHOD("Test07", cert_p_struct, 0),
	[CERT_TEST08] = CERT_METHOD("Test08", cert_p_map, 0),
	[CERT_TEST09] = CERT_METHOD("Test09", cert_p_set, 0),
	[CERT_TEST10] = CERT_METHOD("Test10", cert_p_mytype,
				    VARLINK_MORE_ONLY),
	[CERT_TEST11] = CERT_METHOD("Test11", cert_p_replies, 0),
	[CERT_END] = CERT_METHOD("End", cert_p_id, 0),
};

static enum cert_step cert_step_of(struct varlink_call *call)
{
	const char *name = varlink_call_method(call);
	enum cert_step step;

	/* the core calls only methods of the table: not found is End */
	for (step = CERT_START; step < CERT_END; step++)
		if (!strcmp(name, cert_methods[step].name))
			break;
	return step;
}

/* The values, written with the reply functions */

static void cert_put_map(struct varlink_call *call, const char *key)
{
	varlink_open_object(call, key);
	varlink_put_str(call, "foo", "Foo");
	varlink_put_str(call, "bar", "Bar");
	varlink_close_object(call);
}

static void cert_put_set(struct varlink_call *call, const char *key)
{
	static const char * const members[] = { "one", "two", "three" };
	unsigned int i;

	varlink_open_object(call, key);
	for (i = 0; i < ARRAY_SIZE(members); i++) {
		varlink_open_object(call, members[i]);
		varlink_close_object(call);
	}
	varlink_close_object(call);
}

static void cert_put_pair(struct varlink_call *call, const char *k1,
			  const char *v1, const char *k2, const char *v2)
{
	varlink_open_object(call, NULL);
	varlink_put_str(call, k1, v1);
	varlink_put_str(call, k2, v2);
	varlink_close_object(call);
}

/* CERT_MYTYPE_JSON */
static void cert_put_mytype(struct varlink_call *call, const char *key)
{
	varlink_open_object(call, key);

	varlink_open_object(call, "object");
	varlink_put_str(call, "method", CERT_IFACE ".Test09");
	varlink_open_object(call, "parameters");
	cert_put_map(call, "map");
	varlink_close_object(call);
	varlink_close_object(call);

	varlink_put_str(call, "enum", "two");
	varlink_open_object(call, "struct");
	varlink_put_s64(call, "first", 1);
	varlink_put_str(call, "second", "2");
	varlink_close_object(call);
	varlink_open_array(call, "array");
	varlink_put_str(call, NULL, "one");
	varlink_put_str(call, NULL, "two");
	varlink_put_str(call, NULL, "three");
	varlink_close_array(call);
	cert_put_map(call, "dictionary");
	cert_put_set(call, "stringset");
	varlink_put_null(call, "nullable");
	varlink_put_null(call, "nullable_array_struct");

	varlink_open_object(call, "interface");
	varlink_open_array(call, "foo");
	varlink_put_null(call, NULL);
	cert_put_pair(call, "foo", "foo", "bar", "bar");
	varlink_put_null(call, NULL);
	cert_put_pair(call, "one", "foo", "two", "bar");
	varlink_close_array(call);
	varlink_open_object(call, "anon");
	varlink_put_bool(call, "foo", true);
	varlink_put_bool(call, "bar", false);
	varlink_close_object(call);
	varlink_close_object(call);

	varlink_close_object(call);
}

static void cert_put_reply_string(struct varlink_call *call, const char *key,
				  int n)
{
	char s[sizeof("Reply number 2147483647")];

	snprintf(s, sizeof(s), "Reply number %d", n);
	varlink_put_str(call, key, s);
}

/* The parameters of the reply to @step, but client_id: what the method
 * after it expects, but Test11 and End.
 */
static void cert_put_result(struct varlink_call *call, enum cert_step step)
{
	int n;

	switch (step) {
	case CERT_TEST01:
		varlink_put_bool(call, "bool", true);
		break;
	case CERT_TEST02:
		varlink_put_s64(call, "int", 1);
		break;
	case CERT_TEST03:
		varlink_put_fixed(call, "float", 10, 1);	/* 1.0 */
		break;
	case CERT_TEST04:
		varlink_put_str(call, "string", "ping");
		break;
	case CERT_TEST06:
		varlink_open_object(call, "struct");
		fallthrough;
	case CERT_TEST05:
		varlink_put_bool(call, "bool", false);
		varlink_put_s64(call, "int", 2);
		varlink_put_fixed(call, "float", CERT_PI_FIXED,
				  CERT_PI_DECIMALS);
		varlink_put_str(call, "string", CERT_STRING);
		if (step == CERT_TEST06)
			varlink_close_object(call);
		break;
	case CERT_TEST07:
		cert_put_map(call, "map");
		break;
	case CERT_TEST08:
		cert_put_set(call, "set");
		break;
	case CERT_TEST09:
		cert_put_mytype(call, "mytype");
		break;
	case CERT_TEST10:	/* what Test11 expects */
		varlink_open_array(call, "last_more_replies");
		for (n = 1; n <= CERT_REPLIES; n++)
			cert_put_reply_string(call, NULL, n);
		varlink_close_array(call);
		break;
	default:
		break;
	}
}

/* Whether the call came with the flags @step needs. */
static bool cert_flags_ok(struct varlink_call *call, enum cert_step step)
{
	bool more = varlink_call_more(call), oneway = varlink_call_oneway(call);

	if (step == CERT_TEST10)
		return more && !oneway;
	if (step == CERT_TEST11)
		return oneway && !more;
	return !more && !oneway;
}

static int cert_json_ok(const struct varlink_json *v, const char *json)
{
	return varlink_json_equal(v, json);
}

/* Whether the parameters but client_id are those @step expects: 1 if so,
 * 0 if not, or -errno if they could not be compared.
 */
static int cert_values_ok(enum cert_step step, const struct cert_params *p)
{
	switch (step) {
	case CERT_TEST02:
		return p->b;
	case CERT_TEST03:
		return p->i == 1;
	case CERT_TEST04:
		return cert_json_ok(&p->f, "1.0");
	case CERT_TEST05:
		return p->s && !strcmp(p->s, "ping");
	case CERT_TEST06:
		if (p->b || p->i != 2 || !p->s || strcmp(p->s, CERT_STRING))
			return 0;
		return cert_json_ok(&p->f, CERT_PI);
	case CERT_TEST07:
		return cert_json_ok(&p->v, CERT_STRUCT_JSON);
	case CERT_TEST08:
		return cert_json_ok(&p->v, CERT_MAP_JSON);
	case CERT_TEST09:
		return cert_json_ok(&p->v, CERT_SET_JSON);
	case CERT_TEST10:
		return cert_json_ok(&p->v, CERT_MYTYPE_JSON);
	case CERT_TEST11:
		return cert_json_ok(&p->v, CERT_REPLIES_JSON);
	default:
		return 1;
	}
}

/* The call @step expects, e.g. {"method": ..., "parameters": {...}}. */
static void cert_put_wants(struct varlink_call *call, enum cert_step step,
			   const char *client_id)
{
	varlink_open_object(call, "wants");
	varlink_put_str(call, "method", cert_names[step]);
	if (step == CERT_TEST10)
		varlink_put_bool(call, "more", true);
	if (step == CERT_TEST11)
		varlink_put_bool(call, "oneway", true);
	if (step != CERT_START) {
		varlink_open_object(call, "parameters");
		varlink_put_str(call, "client_id", client_id);
		cert_put_result(call, step - 1);
		varlink_close_object(call);
	}
	varlink_close_object(call);
}

/* The call as it came, its parameters written back. */
static void cert_put_got(struct varlink_call *call, enum cert_step step,
			 const struct cert_params *p)
{
	const struct varlink_method *m = &cert_methods[step];
	unsigned int i;

	varlink_open_object(call, "got");
	varlink_put_str(call, "method", cert_names[step]);
	if (varlink_call_more(call))
		varlink_put_bool(call, "more", true);
	if (varlink_call_oneway(call))
		varlink_put_bool(call, "oneway", true);
	if (m->n_params)
		varlink_open_object(call, "parameters");
	for (i = 0; i < m->n_params; i++) {
		const struct varlink_param *param = &m->params[i];
		const void *val = (const void *)p + param->offset;

		switch (param->type) {
		case VARLINK_BOOL:
			varlink_put_bool(call, param->name, *(const bool *)val);
			break;
		case VARLINK_S64:
			varlink_put_s64(call, param->name, *(const s64 *)val);
			break;
		case VARLINK_STRING:
			if (*(const char * const *)val)
				varlink_put_str(call, param->name,
						*(const char * const *)val);
			break;
		case VARLINK_JSON:
			varlink_put_json(call, param->name, val);
			break;
		default:
			break;
		}
	}
	if (m->n_params)
		varlink_close_object(call);
	varlink_close_object(call);
}

static int cert_error(struct varlink_call *call)
{
	varlink_error(call, CERT_IFACE ".CertificationError");
	return 0;
}

/* A call with wrong values or flags: what was expected, what came. */
static int cert_wrong(struct varlink_call *call, enum cert_step step,
		      const struct cert_params *p)
{
	cert_put_wants(call, step, p->client_id);
	cert_put_got(call, step, p);
	return cert_error(call);
}

/* A call out of order: which method was due, which came. */
static int cert_out_of_order(struct varlink_call *call, enum cert_step due,
			     enum cert_step step)
{
	varlink_open_object(call, "wants");
	varlink_put_str(call, "method", cert_names[due]);
	varlink_close_object(call);
	varlink_open_object(call, "got");
	varlink_put_str(call, "method", cert_names[step]);
	varlink_close_object(call);
	return cert_error(call);
}

static bool cert_expired(const struct cert_client *c)
{
	return time_after(jiffies, c->expires);
}

/* The live client of @id, or NULL; frees it if it has expired. */
static struct cert_client *cert_find(const char *id)
{
	unsigned int i;

	lockdep_assert_held(&cert_lock);
	if (!id || strlen(id) != 2 * CERT_ID_BYTES)
		return NULL;
	for (i = 0; i < CERT_CLIENTS_MAX; i++) {
		struct cert_client *c = &cert_clients[i];

		if (strcmp(c->id, id))
			continue;
		if (!cert_expired(c))
			return c;
		c->id[0] = '\0';
		break;
	}
	return NULL;
}

static int cert_start(struct varlink_call *call, const struct cert_params *p)
{
	u8 raw[CERT_ID_BYTES];
	char id[2 * CERT_ID_BYTES + 1];
	struct cert_client *c = NULL;
	unsigned int i;

	/* no client comes of a Start that is not a plain call */
	if (!cert_flags_ok(call, CERT_START))
		return cert_wrong(call, CERT_START, p);

	get_random_bytes(raw, sizeof(raw));
	snprintf(id, sizeof(id), "%*phN", (int)sizeof(raw), raw);

	mutex_lock(&cert_lock);
	for (i = 0; i < CERT_CLIENTS_MAX; i++) {
		struct cert_client *slot = &cert_clients[i];

		if (slot->id[0] && cert_expired(slot))
			slot->id[0] = '\0';
		if (!slot->id[0] && !c)
			c = slot;
	}
	if (c) {
		strscpy(c->id, id, sizeof(c->id));
		c->expires = jiffies + READ_ONCE(client_lifetime) * (unsigned long)HZ;
		c->next = CERT_TEST01;
		c->failed = false;
	}
	mutex_unlock(&cert_lock);
	if (!c)
		return -EBUSY;

	varlink_put_str(call, "client_id", id);
	varlink_reply(call);
	return 0;
}

/* Test10: ten replies, the first nine with "continues". */
static int cert_stream(struct varlink_call *call)
{
	int n;

	for (n = 1; n < CERT_REPLIES; n++) {
		cert_put_reply_string(call, "string", n);
		if (varlink_reply_continues(call))
			break;	/* the client is gone: end the call */
	}
	cert_put_reply_string(call, "string", CERT_REPLIES);
	varlink_reply(call);
	return 0;
}

static int cert_call(struct varlink_call *call, const void *params)
{
	const struct cert_params *p = params;
	enum cert_step step = cert_step_of(call), due;
	struct cert_client *c;
	bool all_ok = false;
	int ok;

	if (step == CERT_START)
		return cert_start(call, p);

	/* checked outside cert_lock: varlink_json_equal() allocates */
	ok = cert_flags_ok(call, step);
	if (ok)
		ok = cert_values_ok(step, p);
	if (ok < 0)
		return ok;

	mutex_lock(&cert_lock);
	c = cert_find(p->client_id);
	if (!c) {
		mutex_unlock(&cert_lock);
		varlink_error(call, CERT_IFACE ".ClientIdError");
		return 0;
	}
	due = c->next;
	if (due != step) {
		c->failed = true;
		mutex_unlock(&cert_lock);
		return cert_out_of_order(call, due, step);
	}
	if (!ok)
		c->failed = true;
	if (step != CERT_END) {
		c->next = step + 1;
	} else if (ok) {
		all_ok = !c->failed;
		c->id[0] = '\0';
	}
	mutex_unlock(&cert_lock);

	if (!ok)
		return cert_wrong(call, step, p);
	switch (step) {
	case CERT_TEST10:
		return cert_stream(call);
	case CERT_END:
		varlink_put_bool(call, "all_ok", all_ok);
		break;
	default:
		cert_put_result(call, step);
		break;
	}
	varlink_reply(call);
	return 0;
}

static const struct varlink_interface cert_iface = {
	.idl = vl_certification_idl,
	VARLINK_METHODS(cert_methods),
};
module_varlink_interface(cert_iface, "org.varlink.certification");

MODULE_IMPORT_NS(VL_NS(VARLINK_TEST));
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("varlink certification interface org.varlink.certification");
MODULE_AUTHOR("The kvarlink authors");
