// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.varlink.test: a provider module that exercises every feature
 * of the varlink core for the selftests.
 *
 * It declares every type of the interface definition language, and has a
 * method for each way a call can go: typed and raw (VARLINK_JSON)
 * parameters echoed back, a reply built with every reply function, a
 * stream of replies from the callback (Count), a stream from a periodic
 * work item that only ends when it is cancelled (Monitor), a reply
 * deferred to a work item (Defer), a callback that sleeps (Slow),
 * capability checks in the initial user namespace (Privileged) and in
 * the owner of the caller's network namespace (NetAdmin), errors from an
 * errno and from the IDL, and a method that is declared but not
 * implemented.  Most methods are VARLINK_INLINE, and so also run in the
 * caller's task; Count, Slow and Big always run in a kworker.
 *
 * It is served in every network namespace (VARLINK_NETNS): who the
 * caller is, it tells as the caller's own namespaces see it.  Its state
 * (Counter, Linger, Status) is the module's, one for all namespaces: a
 * test module's, not a container's to keep to itself.
 *
 * Deferred calls live in test_works, under test_lock.  A cancel callback
 * may run at any time until, and even shortly after, the final reply, and
 * concurrently with the work item: it gets an id, not a pointer, and only
 * acts on an item it still finds on the list.  An item leaves the list
 * before its final reply and is freed by its own work function, after
 * cancelling the run that a cancel callback may have queued in between.
 */
#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>

#include "../compat.h"
#include <linux/varlink.h>

/* Bounds of the parameters, also stated in the IDL */
#define TEST_SLEEP_MAX_MS	5000
#define TEST_INTERVAL_MAX_MS	1000
#define TEST_INTERVAL_DEF_MS	10
#define TEST_COUNT_MAX		SZ_1M
#define TEST_BIG_MAX		SZ_1M

static const char test_idl[] =
"# Test interface of the in-kernel varlink server.\n"
"#\n"
"# Served by varlink_test_provider.ko for the selftests.  It declares every\n"
"# type of the interface definition language and has a method for each way\n"
"# a call can go: echoed parameters, streams, deferred replies, cancelled\n"
"# calls, permission checks and errors.  Nothing it does has an effect\n"
"# outside the module.\n"
"interface org.kernel.varlink.test\n"
"\n"
"# A named enum.\n"
"type Color (red, green, blue)\n"
"\n"
"# A named struct.\n"
"type Point (\n"
"\t# horizontal coordinate\n"
"\tx: int,\n"
"\t# vertical coordinate\n"
"\ty: int\n"
")\n"
"\n"
"# Every type of the language, each in a field of its own.\n"
"type Everything (\n"
"\t# true or false\n"
"\tbool: bool,\n"
"\t# an integer, signed or unsigned 64-bit\n"
"\tint: int,\n"
"\t# a number\n"
"\tfloat: float,\n"
"\t# a string\n"
"\tstring: string,\n"
"\t# any JSON object\n"
"\tobject: object,\n"
"\t# any JSON value but null\n"
"\tany: any,\n"
"\t# an anonymous enum\n"
"\tenum: (one, two, three),\n"
"\t# a named enum\n"
"\tcolor: Color,\n"
"\t# an anonymous struct, with an anonymous struct in it\n"
"\tstruct: (point: Point, inner: (label: string, flag: ?bool)),\n"
"\t# an array\n"
"\tarray: []int,\n"
"\t# a map\n"
"\tmap: [string]string,\n"
"\t# a set of strings\n"
"\tset: [string](),\n"
"\t# a nullable value\n"
"\tmaybe: ?string,\n"
"\t# containers in containers\n"
"\tnested: ?[][string]?Point\n"
")\n"
"\n"
"# Replies at once, with no parameters.\n"
"method Ping() -> ()\n"
"\n"
"# Returns its parameters, decoded into C types and written back: int as\n"
"# a 64-bit signed integer, uint as a 64-bit unsigned one, small as a\n"
"# 32-bit signed one, usmall as a 32-bit unsigned one.\n"
"method EchoScalars(\n"
"\tbool: bool,\n"
"\tint: int,\n"
"\tuint: int,\n"
"\tsmall: int,\n"
"\tusmall: int,\n"
"\tstring: string\n"
") -> (\n"
"\tbool: bool,\n"
"\tint: int,\n"
"\tuint: int,\n"
"\tsmall: int,\n"
"\tusmall: int,\n"
"\tstring: string\n"
")\n"
"\n"
"# Returns the parameters it was given, as they were given; absent or null\n"
"# ones are absent from the reply.\n"
"method Echo(\n"
"\tstring: ?string,\n"
"\tfloat: ?float,\n"
"\tobject: ?object,\n"
"\tany: ?any,\n"
"\tenum: ?(one, two, three),\n"
"\tcolor: ?Color,\n"
"\tpoint: ?Point,\n"
"\tstruct: ?(point: Point, inner: (label: string, flag: ?bool)),\n"
"\tarray: ?[]int,\n"
"\tmap: ?[string]string,\n"
"\tset: ?[string](),\n"
"\tnested: ?[][string]?Point,\n"
"\teverything: ?Everything\n"
") -> (\n"
"\tstring: ?string,\n"
"\tfloat: ?float,\n"
"\tobject: ?object,\n"
"\tany: ?any,\n"
"\tenum: ?(one, two, three),\n"
"\tcolor: ?Color,\n"
"\tpoint: ?Point,\n"
"\tstruct: ?(point: Point, inner: (label: string, flag: ?bool)),\n"
"\tarray: ?[]int,\n"
"\tmap: ?[string]string,\n"
"\tset: ?[string](),\n"
"\tnested: ?[][string]?Point,\n"
"\teverything: ?Everything\n"
")\n"
"\n"
"# Returns a value of every type, written with the reply functions of the\n"
"# provider API.\n"
"method Types() -> (everything: Everything)\n"
"\n"
"# Adds add (0 if absent) to a counter and returns its new value.  Called\n"
"# with oneway, it shows that a call without a reply still runs.\n"
"method Counter(add: ?int) -> (value: int)\n"
"\n"
"# Called with more, replies n times with continues and index 0 to n - 1,\n"
"# then a last time with index n; otherwise replies once with index n.\n"
"# n is 0 to 1048576.  A stream stops early once the client is gone.\n"
"method Count(n: int) -> (index: int)\n"
"\n"
"# Requires more.  Replies from a work item every interval_ms milliseconds\n"
"# (1 to 1000, default 10) with tick 1, 2, 3 and so on: count replies in\n"
"# all, the last one final, or, if count is 0 or absent, until the client\n"
"# goes away.\n"
"method Monitor(interval_ms: ?int, count: ?int) -> (tick: int)\n"
"\n"
"# Replies from a work item after delay_ms milliseconds (0 to 5000), with\n"
"# the value it was given.  Not cancelled when the client goes away.\n"
"method Defer(delay_ms: int, value: ?string) -> (value: ?string)\n"
"\n"
"# Sleeps ms milliseconds (0 to 5000) in the callback, then replies.\n"
"method Slow(ms: int) -> (ms: int)\n"
"\n"
"# Holds the RTNL in the callback, as a long netlink request of any user\n"
"# may, until ReleaseRtnl is called or ms milliseconds (0 to 60000) have\n"
"# passed, then replies.\n"
"method HoldRtnl(ms: int) -> (ms: int)\n"
"\n"
"# Ends HoldRtnl.\n"
"method ReleaseRtnl() -> ()\n"
"\n"
"# Replies with a string of size bytes (0 to 1048576).\n"
"method Big(size: int) -> (data: string)\n"
"\n"
"# Requires CAP_SYS_ADMIN.  Returns the caller's effective user id and\n"
"# process id, as its own user and pid namespaces number them.\n"
"method Privileged() -> (uid: int, pid: int)\n"
"\n"
"# Returns the caller's effective user id and process id, as its own user\n"
"# and pid namespaces number them, and whether it holds CAP_SYS_ADMIN\n"
"# (in the initial user namespace).\n"
"method WhoAmI() -> (uid: int, pid: int, sys_admin: bool)\n"
"\n"
"# Requires CAP_NET_ADMIN in the user namespace that owns the caller's\n"
"# network namespace: root of a container has it for the container's.\n"
"# Returns that network namespace's inode number, as stat(2) of\n"
"# /proc/self/ns/net shows it to the caller.\n"
"method NetAdmin() -> (netns: int)\n"
"\n"
"# The callback returns -errno (errno 1 to 4095, but not EINPROGRESS);\n"
"# another errno is an invalid parameter.\n"
"method Fail(errno: int) -> ()\n"
"\n"
"# Fails with TestError, with the reason and code given.\n"
"method Raise(reason: string, code: int) -> ()\n"
"\n"
"# Declared here, but the module does not implement it.\n"
"method Unimplemented() -> ()\n"
"\n"
"# A call that waits for Finish, called on another connection, with a\n"
"# cancel callback whose data the core frees (a release callback).  One\n"
"# at a time: another gets a SystemError (EBUSY).\n"
"method Linger() -> ()\n"
"\n"
"# Finish the Linger call, if there is one; and how many cancel callbacks\n"
"# of Linger calls ran after their final reply, finding their data intact.\n"
"method Finish() -> (finished: bool, late_cancels: int)\n"
"\n"
"# A paced stream: requires more; replies n times (0 to 1048576) with\n"
"# continues, index 0 to n - 1 and size bytes of data (0 to 65536), each\n"
"# once the client has read most of what it was sent before; then a last\n"
"# time with index n and no data.  It ends early, with that last reply,\n"
"# when the client hangs up or the interface goes away.  A stream of the\n"
"# core's quotas.\n"
"method Replay(n: int, size: ?int) -> (index: int, data: ?string)\n"
"\n"
"# Reads a file of one of the core's internal mounts (fs \"proc\",\n"
"# \"sysfs\" or \"cgroup2\") as the caller, or, with kernel, as the\n"
"# kernel: at most 65535 bytes.  Errors as the core gives them:\n"
"# PermissionDenied, or SystemError with the errno (EINVAL for a name\n"
"# the core refuses, ENOENT, ELOOP, EFBIG...).\n"
"method ReadFile(fs: string, name: string, kernel: ?bool) -> (data: string)\n"
"\n"
"# Writes data to such a file as the caller; errors as ReadFile.\n"
"method WriteFile(fs: string, name: string, data: string) -> ()\n"
"\n"
"# Lists a directory of such a mount as the caller, in its order; at\n"
"# most 256 names.  Errors as ReadFile.\n"
"method ListDir(fs: string, name: string) -> (names: []string)\n"
"\n"
"# Reads such a file as ReadFile does, in a kworker, and tells what the\n"
"# read left: the errno it failed with (0 for none), and whether the\n"
"# kworker has a signal pending after it (a handler asked for a restart).\n"
"method ReadFileSignal(fs: string, name: string) ->\n"
"  (errno: int, signal_pending: bool)\n"
"\n"
"# Whether the task that runs the call has a signal pending as it starts:\n"
"# a kworker that earlier work left so.\n"
"method SignalPending() -> (pending: bool)\n"
"\n"
"# Monitor, Defer and Replay calls not finished yet, and the counter of\n"
"# Counter.\n"
"method Status() -> (monitors: int, deferred: int, counter: int,\n"
"  replays: int)\n"
"\n"
"# What Raise fails with.\n"
"error TestError (reason: string, code: int)\n";

static struct workqueue_struct *test_wq;
static atomic64_t test_counter = ATOMIC64_INIT(0);
static atomic_t test_monitors_active = ATOMIC_INIT(0);
static atomic_t test_deferred_active = ATOMIC_INIT(0);
static atomic_t test_replays_active = ATOMIC_INIT(0);

/* Deferred calls (Monitor and Defer) that have not sent their final reply */
static DEFINE_SPINLOCK(test_lock);
static LIST_HEAD(test_works);
static unsigned long test_next_id;	/* under test_lock */

/**
 * struct test_work - a call finished later, from a work item
 * @node: on test_works, under test_lock, until the final reply
 * @id: identifies the item to the cancel callback; never reused
 * @call: the call
 * @work: sends the replies
 * @cancelled: under test_lock: send the final reply at the next run
 * @interval: Monitor: jiffies between two replies
 * @count: Monitor: replies to send in all, 0 for no end
 * @tick: Monitor: replies sent so far, only touched by @work
 * @value: Defer: the value to reply with, or NULL
 */
struct test_work {
	struct list_head node;
	unsigned long id;
	struct varlink_call *call;
	struct delayed_work work;
	bool cancelled;
	unsigned long interval;
	s64 count;
	s64 tick;
	char *value;
};

/* Add @tw to test_works, with a new id. */
static void test_work_add(struct test_work *tw)
{
	unsigned long flags;

	spin_lock_irqsave(&test_lock, flags);
	tw->id = ++test_next_id;
	list_add_tail(&tw->node, &test_works);
	spin_unlock_irqrestore(&test_lock, flags);
}

/* Take @tw off test_works, after which no cancel callback finds it, and
 * cancel a run of its work that one queued before.  Called from that work
 * itself, which then may free @tw.
 */
static void test_work_del(struct test_work *tw)
{
	unsigned long flags;

	spin_lock_irqsave(&test_lock, flags);
	list_del(&tw->node);
	spin_unlock_irqrestore(&test_lock, flags);
	cancel_delayed_work(&tw->work);
}

/* The final reply.  Whether it reached the client or not, the call is
 * finished: the callback returns 0.
 */
static int test_reply(struct varlink_call *call)
{
	varlink_reply(call);
	return 0;
}

/* Linger and Finish: the release contract of varlink_call_set_cancel().
 * The data of a Linger call is a struct test_linger that only its
 * release callback frees, so its cancel callback may find it whenever it
 * runs, even after the final reply.  @done, under test_lock, says whether
 * the final reply was sent, by Finish or by the cancel callback.
 */
struct test_linger {
	struct varlink_call *call;
	bool done;
};

static struct test_linger *test_lingering;	/* under test_lock */
static atomic_t test_late_cancels = ATOMIC_INIT(0);

/* Under test_lock: claim the final reply of @tl; true if it is the
 * caller's to send.  Until it is sent, @tl cannot be released.
 */
static bool test_linger_claim(struct test_linger *tl)
{
	bool mine = !tl->done;

	tl->done = true;
	if (test_lingering == tl)
		test_lingering = NULL;
	return mine;
}

static void test_linger_cancel(struct varlink_call *call, void *data)
{
	struct test_linger *tl = data;	/* valid: only the release frees it */
	unsigned long flags;
	bool mine;

	spin_lock_irqsave(&test_lock, flags);
	mine = test_linger_claim(tl);
	spin_unlock_irqrestore(&test_lock, flags);
	if (mine)
		varlink_reply(call);
	else
		atomic_inc(&test_late_cancels);
}

static void test_linger_release(void *data)
{
	kfree(data);
}

static int test_linger(struct varlink_call *call, const void *params)
{
	struct test_linger *tl = kzalloc(sizeof(*tl), GFP_KERNEL);
	unsigned long flags;
	bool busy;

	if (!tl)
		return -ENOMEM;
	tl->call = call;
	spin_lock_irqsave(&test_lock, flags);
	busy = test_lingering;
	if (!busy)
		test_lingering = tl;
	spin_unlock_irqrestore(&test_lock, flags);
	if (busy) {
		kfree(tl);
		return -EBUSY;
	}
	varlink_call_set_cancel(call, test_linger_cancel, test_linger_release, tl);
	return -EINPROGRESS;
}

static int test_finish(struct varlink_call *call, const void *params)
{
	struct test_linger *tl;
	unsigned long flags;

	spin_lock_irqsave(&test_lock, flags);
	tl = test_lingering;
	if (tl && !test_linger_claim(tl))
		tl = NULL;
	spin_unlock_irqrestore(&test_lock, flags);
	/* claimed: @tl stays until this final reply */
	if (tl)
		varlink_reply(tl->call);
	varlink_put_bool(call, "finished", tl);
	varlink_put_s64(call, "late_cancels", atomic_read(&test_late_cancels));
	return test_reply(call);
}

/* Ping() -> () */
static int test_ping(struct varlink_call *call, const void *params)
{
	return test_reply(call);
}

/* Write back each parameter of @table that @params holds. */
static void test_echo_params(struct varlink_call *call,
			     const struct varlink_param *table, unsigned int n,
			     const void *params)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct varlink_param *p = &table[i];
		const void *v = params + p->offset;

		switch (p->type) {
		case VARLINK_BOOL:
			varlink_put_bool(call, p->name, *(const bool *)v);
			break;
		case VARLINK_S64:
			varlink_put_s64(call, p->name, *(const s64 *)v);
			break;
		case VARLINK_U64:
			varlink_put_u64(call, p->name, *(const u64 *)v);
			break;
		case VARLINK_S32:
			varlink_put_s64(call, p->name, *(const s32 *)v);
			break;
		case VARLINK_U32:
			varlink_put_u64(call, p->name, *(const u32 *)v);
			break;
		case VARLINK_STRING:
			if (*(const char * const *)v)
				varlink_put_str(call, p->name,
						*(const char * const *)v);
			break;
		case VARLINK_JSON:
			if (((const struct varlink_json *)v)->text)
				varlink_put_json(call, p->name, v);
			break;
		case VARLINK_OPT_S64:
			if (((const struct varlink_opt_s64 *)v)->present)
				varlink_put_s64(call, p->name,
						((const struct varlink_opt_s64 *)v)->value);
			break;
		}
	}
}

struct test_scalars {
	bool b;
	s64 i;
	u64 u;
	s32 small;
	u32 usmall;
	const char *string;
};

static const struct varlink_param test_scalars_params[] = {
	VARLINK_PARAM("bool", struct test_scalars, b),
	VARLINK_PARAM("int", struct test_scalars, i),
	VARLINK_PARAM("uint", struct test_scalars, u),
	VARLINK_PARAM("small", struct test_scalars, small),
	VARLINK_PARAM("usmall", struct test_scalars, usmall),
	VARLINK_PARAM("string", struct test_scalars, string),
};

static int test_echo_scalars(struct varlink_call *call, const void *params)
{
	test_echo_params(call, test_scalars_params,
			 ARRAY_SIZE(test_scalars_params), params);
	return test_reply(call);
}

enum {
	ECHO_FLOAT,
	ECHO_OBJECT,
	ECHO_ANY,
	ECHO_ENUM,
	ECHO_COLOR,
	ECHO_POINT,
	ECHO_STRUCT,
	ECHO_ARRAY,
	ECHO_MAP,
	ECHO_SET,
	ECHO_NESTED,
	ECHO_EVERYTHING,
	ECHO_N
};

struct test_echo {
	const char *string;
	struct varlink_json json[ECHO_N];
};

#define ECHO_JSON(_name, _i) \
	VARLINK_PARAM(_name, struct test_echo, json[_i])

static const struct varlink_param test_echo_params_table[] = {
	VARLINK_PARAM("string", struct test_echo, string),
	ECHO_JSON("float", ECHO_FLOAT),
	ECHO_JSON("object", ECHO_OBJECT),
	ECHO_JSON("any", ECHO_ANY),
	ECHO_JSON("enum", ECHO_ENUM),
	ECHO_JSON("color", ECHO_COLOR),
	ECHO_JSON("point", ECHO_POINT),
	ECHO_JSON("struct", ECHO_STRUCT),
	ECHO_JSON("array", ECHO_ARRAY),
	ECHO_JSON("map", ECHO_MAP),
	ECHO_JSON("set", ECHO_SET),
	ECHO_JSON("nested", ECHO_NESTED),
	ECHO_JSON("everything", ECHO_EVERYTHING),
};

static int test_echo(struct varlink_call *call, const void *params)
{
	test_echo_params(call, test_echo_params_table,
			 ARRAY_SIZE(test_echo_params_table), params);
	return test_reply(call);
}

static void test_put_point(struct varlink_call *call, const char *key,
			   s64 x, s64 y)
{
	varlink_open_object(call, key);
	varlink_put_s64(call, "x", x);
	varlink_put_s64(call, "y", y);
	varlink_close_object(call);
}

/* Types() -> (everything: Everything), see the selftests for the text */
static int test_types(struct varlink_call *call, const void *params)
{
	static const char tricky[] = "quote\" backslash\\ tab\t nl\n e-acute \xc3\xa9";

	varlink_open_object(call, "everything");
	varlink_put_bool(call, "bool", true);
	varlink_put_s64(call, "int", S64_MIN);
	varlink_put_fixed(call, "float", -314159, 5);
	varlink_put_str_len(call, "string", tricky, sizeof(tricky) - 1);

	varlink_open_object(call, "object");
	varlink_put_str(call, "key", "value");
	varlink_close_object(call);

	varlink_open_array(call, "any");
	varlink_put_u64(call, NULL, U64_MAX);
	varlink_put_null(call, NULL);
	varlink_put_bool(call, NULL, false);
	varlink_close_array(call);

	varlink_put_str(call, "enum", "two");
	varlink_put_str(call, "color", "blue");

	varlink_open_object(call, "struct");
	test_put_point(call, "point", -1, 2);
	varlink_open_object(call, "inner");
	varlink_put_str(call, "label", "in");
	varlink_put_null(call, "flag");
	varlink_close_object(call);
	varlink_close_object(call);

	varlink_open_array(call, "array");
	varlink_put_s64(call, NULL, S64_MIN);
	varlink_put_s64(call, NULL, 0);
	varlink_put_u64(call, NULL, U64_MAX);
	varlink_close_array(call);

	varlink_open_object(call, "map");
	varlink_put_str(call, "a", "1");
	varlink_put_str(call, "b", "");
	varlink_close_object(call);

	varlink_open_object(call, "set");
	varlink_open_object(call, "x");
	varlink_close_object(call);
	varlink_close_object(call);

	varlink_put_null(call, "maybe");

	varlink_open_array(call, "nested");
	varlink_open_object(call, NULL);
	test_put_point(call, "p", 3, 4);
	varlink_put_null(call, "q");
	varlink_close_object(call);
	varlink_open_object(call, NULL);
	varlink_close_object(call);
	varlink_close_array(call);

	varlink_close_object(call);
	return test_reply(call);
}

struct test_counter_params {
	s64 add;
};

static const struct varlink_param test_counter_params[] = {
	VARLINK_PARAM("add", struct test_counter_params, add),
};

static int test_counter_call(struct varlink_call *call, const void *params)
{
	const struct test_counter_params *p = params;

	varlink_put_s64(call, "value", atomic64_add_return(p->add, &test_counter));
	return test_reply(call);
}

struct test_count {
	s64 n;
};

static const struct varlink_param test_count_params[] = {
	VARLINK_PARAM("n", struct test_count, n),
};

/* Count(n: int) -> (index: int): a stream sent from the callback.  It
 * stops early when a reply fails: the client is gone, or did not read and
 * its connection was closed.  The final reply is still due.
 */
static int test_count(struct varlink_call *call, const void *params)
{
	const struct test_count *p = params;
	int err = 0;
	s64 i = 0;

	if (p->n < 0 || p->n > TEST_COUNT_MAX)
		return varlink_error_invalid_parameter(call, "n");
	if (!varlink_call_more(call))
		i = p->n;
	for (; i < p->n; i++) {
		varlink_put_s64(call, "index", i);
		err = varlink_reply_continues(call);
		if (err)
			break;
		cond_resched();
	}
	/* as in test_monitor_work(): a cancelled call kept its parameters */
	if (err != -ECANCELED)
		varlink_put_s64(call, "index", i);
	return test_reply(call);
}

struct test_monitor_params {
	s64 interval_ms;
	s64 count;
};

static const struct varlink_param test_monitor_params[] = {
	VARLINK_PARAM("interval_ms", struct test_monitor_params,
		      interval_ms),
	VARLINK_PARAM("count", struct test_monitor_params, count),
};

/**
 * struct test_monitor - a Monitor stream, ticked by its own timer
 * @stream: the core's
 * @tick_work: kicks the stream every @interval
 * @interval: jiffies between two replies
 * @count: replies to send in all, 0 for no end
 * @tick: replies sent so far
 */
struct test_monitor {
	struct varlink_stream stream;
	struct delayed_work tick_work;
	unsigned long interval;
	s64 count;
	s64 tick;
};

static void test_monitor_tick(struct work_struct *work)
{
	struct test_monitor *m = container_of(to_delayed_work(work),
					      struct test_monitor, tick_work);

	varlink_stream_kick(&m->stream);
}

/* One run per tick: the next reply, the count-th one final. */
static int test_monitor_run(struct varlink_stream *stream)
{
	struct test_monitor *m = container_of(stream, struct test_monitor,
					      stream);
	int err;

	if (delayed_work_pending(&m->tick_work))
		return 0;	/* kicked by something else */
	m->tick++;
	varlink_put_s64(stream->call, "tick", m->tick);
	if (m->count && m->tick >= m->count)
		return test_reply(stream->call);
	err = varlink_stream_reply(stream);
	if (err && err != -EAGAIN)
		return err;
	queue_delayed_work(test_wq, &m->tick_work, m->interval);
	return 0;
}

static int test_monitor_stop(struct varlink_stream *stream)
{
	struct test_monitor *m = container_of(stream, struct test_monitor,
					      stream);

	varlink_put_s64(stream->call, "tick", m->tick);
	return test_reply(stream->call);
}

static void test_monitor_release(struct varlink_stream *stream)
{
	struct test_monitor *m = container_of(stream, struct test_monitor,
					      stream);

	cancel_delayed_work_sync(&m->tick_work);
	atomic_dec(&test_monitors_active);
	kfree(m);
}

static const struct varlink_stream_ops test_monitor_ops = {
	.run = test_monitor_run,
	.stop = test_monitor_stop,
	.release = test_monitor_release,
};

static int test_monitor(struct varlink_call *call, const void *params)
{
	const struct test_monitor_params *p = params;
	s64 interval = p->interval_ms ? p->interval_ms : TEST_INTERVAL_DEF_MS;
	struct test_monitor *m;

	if (interval < 1 || interval > TEST_INTERVAL_MAX_MS)
		return varlink_error_invalid_parameter(call, "interval_ms");
	if (p->count < 0)
		return varlink_error_invalid_parameter(call, "count");
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->interval = msecs_to_jiffies(interval);
	m->count = p->count;
	INIT_DELAYED_WORK(&m->tick_work, test_monitor_tick);
	varlink_stream_init(&m->stream, &test_monitor_ops);
	atomic_inc(&test_monitors_active);
	return varlink_stream_start(call, &m->stream);
}

struct test_defer_params {
	u32 delay_ms;
	const char *value;
};

static const struct varlink_param test_defer_params[] = {
	VARLINK_PARAM("delay_ms", struct test_defer_params,
		      delay_ms),
	VARLINK_PARAM("value", struct test_defer_params,
		      value),
};

/* The reply of a Defer call; it has no cancel callback but module exit's. */
static void test_defer_work(struct work_struct *work)
{
	struct test_work *tw = container_of(to_delayed_work(work),
					    struct test_work, work);

	test_work_del(tw);
	if (tw->value)
		varlink_put_str(tw->call, "value", tw->value);
	varlink_reply(tw->call);
	atomic_dec(&test_deferred_active);
	kfree(tw->value);
	kfree(tw);
}

static int test_defer(struct varlink_call *call, const void *params)
{
	const struct test_defer_params *p = params;
	struct test_work *tw;

	if (p->delay_ms > TEST_SLEEP_MAX_MS)
		return varlink_error_invalid_parameter(call, "delay_ms");
	tw = kzalloc(sizeof(*tw), GFP_KERNEL);
	if (!tw)
		return -ENOMEM;
	if (p->value) {
		tw->value = kstrdup(p->value, GFP_KERNEL);
		if (!tw->value) {
			kfree(tw);
			return -ENOMEM;
		}
	}
	tw->call = call;
	INIT_DELAYED_WORK(&tw->work, test_defer_work);

	atomic_inc(&test_deferred_active);
	test_work_add(tw);
	queue_delayed_work(test_wq, &tw->work, msecs_to_jiffies(p->delay_ms));
	return -EINPROGRESS;
}

struct test_ms {
	u32 ms;
};

static const struct varlink_param test_slow_params[] = {
	VARLINK_PARAM("ms", struct test_ms, ms),
};

static int test_slow(struct varlink_call *call, const void *params)
{
	const struct test_ms *p = params;

	if (p->ms > TEST_SLEEP_MAX_MS)
		return varlink_error_invalid_parameter(call, "ms");
	msleep(p->ms);
	varlink_put_u64(call, "ms", p->ms);
	return test_reply(call);
}

#define TEST_RTNL_MAX_MS	60000
static DECLARE_WAIT_QUEUE_HEAD(test_rtnl_wait);
static bool test_rtnl_released;

static int test_hold_rtnl(struct varlink_call *call, const void *params)
{
	const struct test_ms *p = params;

	if (p->ms > TEST_RTNL_MAX_MS)
		return varlink_error_invalid_parameter(call, "ms");
	WRITE_ONCE(test_rtnl_released, false);
	rtnl_lock();
	wait_event_timeout(test_rtnl_wait, READ_ONCE(test_rtnl_released),
			   msecs_to_jiffies(p->ms));
	rtnl_unlock();
	varlink_put_u64(call, "ms", p->ms);
	return test_reply(call);
}

static int test_release_rtnl(struct varlink_call *call, const void *params)
{
	WRITE_ONCE(test_rtnl_released, true);
	wake_up(&test_rtnl_wait);
	return test_reply(call);
}

struct test_big {
	u32 size;
};

static const struct varlink_param test_big_params[] = {
	VARLINK_PARAM("size", struct test_big, size),
};

static int test_big(struct varlink_call *call, const void *params)
{
	const struct test_big *p = params;
	char *data;

	if (p->size > TEST_BIG_MAX)
		return varlink_error_invalid_parameter(call, "size");
	data = kvmalloc(p->size + 1, GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	memset(data, 'x', p->size);
	varlink_put_str_len(call, "data", data, p->size);
	kvfree(data);
	return test_reply(call);
}

/* The opener's process id as its own pid namespace numbers it.  The core
 * tells its number in the initial pid namespace, which names the opener
 * while it runs; once it has exited, this is 0, or the number of
 * whichever process took that number since.
 */
static pid_t test_caller_pid(struct varlink_call *call)
{
	const struct varlink_caller *caller = varlink_call_caller(call);

	return pid_nr_ns(caller->pid, caller->pid_ns);
}

/* Who called, in the caller's own user and pid namespaces */
static void test_put_caller(struct varlink_call *call)
{
	const struct varlink_caller *caller = varlink_call_caller(call);

	varlink_put_u64(call, "uid",
			from_kuid_munged(caller->user_ns, caller->cred->euid));
	varlink_put_s64(call, "pid", test_caller_pid(call));
}

/* Only reached with CAP_SYS_ADMIN: the core checks VARLINK_CAPABLE. */
static int test_privileged(struct varlink_call *call, const void *params)
{
	test_put_caller(call);
	return test_reply(call);
}

static int test_whoami(struct varlink_call *call, const void *params)
{
	test_put_caller(call);
	varlink_put_bool(call, "sys_admin",
			 varlink_call_capable(call, CAP_SYS_ADMIN));
	return test_reply(call);
}

/* Only reached with CAP_NET_ADMIN over the caller's network namespace */
static int test_net_admin(struct varlink_call *call, const void *params)
{
	varlink_put_u64(call, "netns", varlink_call_caller(call)->net->ns.inum);
	return test_reply(call);
}

struct test_fail {
	s64 err;
};

static const struct varlink_param test_fail_params[] = {
	VARLINK_PARAM("errno", struct test_fail, err),
};

static int test_fail(struct varlink_call *call, const void *params)
{
	const struct test_fail *p = params;

	if (p->err < 1 || p->err > MAX_ERRNO || p->err == EINPROGRESS)
		return varlink_error_invalid_parameter(call, "errno");
	return -p->err;
}

struct test_raise {
	const char *reason;
	s64 code;
};

static const struct varlink_param test_raise_params[] = {
	VARLINK_PARAM("reason", struct test_raise, reason),
	VARLINK_PARAM("code", struct test_raise, code),
};

static int test_raise(struct varlink_call *call, const void *params)
{
	const struct test_raise *p = params;

	varlink_put_str(call, "reason", p->reason);
	varlink_put_s64(call, "code", p->code);
	varlink_error(call, "org.kernel.varlink.test.TestError");
	return 0;
}

struct test_replay {
	s64 n;
	s64 size;
};

static const struct varlink_param test_replay_params[] = {
	VARLINK_PARAM("n", struct test_replay, n),
	VARLINK_PARAM("size", struct test_replay, size),
};

/**
 * struct test_replay_stream - a Replay stream
 * @stream: the core's
 * @n: replies with data to send
 * @i: the next one
 * @data: what each carries
 */
struct test_replay_stream {
	struct varlink_stream stream;
	s64 n;
	s64 i;
	char *data;
};

/* The last reply: where the stream got to */
static int test_replay_stop(struct varlink_stream *stream)
{
	struct test_replay_stream *r = container_of(stream,
						    struct test_replay_stream,
						    stream);

	varlink_put_s64(stream->call, "index", r->i);
	return test_reply(stream->call);
}

/* Replay(n: int, size: ?int) -> (index: int, data: ?string), paced */
static int test_replay_run(struct varlink_stream *stream)
{
	struct test_replay_stream *r = container_of(stream,
						    struct test_replay_stream,
						    stream);
	int err;

	while (r->i < r->n) {
		varlink_put_s64(stream->call, "index", r->i);
		varlink_put_str(stream->call, "data", r->data);
		r->i++;
		err = varlink_stream_reply(stream);
		if (err)
			return err;
	}
	return test_replay_stop(stream);
}

static void test_replay_release(struct varlink_stream *stream)
{
	struct test_replay_stream *r = container_of(stream,
						    struct test_replay_stream,
						    stream);

	kvfree(r->data);
	kfree(r);
	atomic_dec(&test_replays_active);
}

static const struct varlink_stream_ops test_replay_ops = {
	.run = test_replay_run,
	.stop = test_replay_stop,
	.release = test_replay_release,
};

static int test_replay(struct varlink_call *call, const void *params)
{
	const struct test_replay *p = params;
	struct test_replay_stream *r;

	if (p->n < 0 || p->n > TEST_COUNT_MAX)
		return varlink_error_invalid_parameter(call, "n");
	if (p->size < 0 || p->size > SZ_64K)
		return varlink_error_invalid_parameter(call, "size");
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->data = kvmalloc(p->size + 1, GFP_KERNEL);
	if (!r->data) {
		kfree(r);
		return -ENOMEM;
	}
	memset(r->data, 'r', p->size);
	r->data[p->size] = '\0';
	r->n = p->n;
	varlink_stream_init(&r->stream, &test_replay_ops);
	atomic_inc(&test_replays_active);
	return varlink_stream_start(call, &r->stream);
}

struct test_file {
	const char *fs;
	const char *name;
	const char *data;
	bool kernel;
};

static const struct varlink_param test_file_params[] = {
	VARLINK_PARAM("fs", struct test_file, fs),
	VARLINK_PARAM("name", struct test_file, name),
	VARLINK_PARAM("kernel", struct test_file, kernel),
};

static const struct varlink_param test_list_dir_params[] = {
	VARLINK_PARAM("fs", struct test_file, fs),
	VARLINK_PARAM("name", struct test_file, name),
};

static const struct varlink_param test_write_file_params[] = {
	VARLINK_PARAM("fs", struct test_file, fs),
	VARLINK_PARAM("name", struct test_file, name),
	VARLINK_PARAM("data", struct test_file, data),
};

static int test_fs(const char *name)
{
	static const char *const names[VARLINK_FS_COUNT] = {
		[VARLINK_PROC] = "proc",
		[VARLINK_SYSFS] = "sysfs",
		[VARLINK_CGROUP2] = "cgroup2",
	};
	int i;

	for (i = 0; i < VARLINK_FS_COUNT; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -EINVAL;
}

#define TEST_FILE_MAX	SZ_64K

/* ReadFile(fs: string, name: string, kernel: ?bool) -> (data: string) */
static int test_read_file(struct varlink_call *call, const void *params)
{
	const struct test_file *p = params;
	int fs = test_fs(p->fs);
	ssize_t n;
	char *buf;

	if (fs < 0)
		return varlink_error_invalid_parameter(call, "fs");
	buf = kvmalloc(TEST_FILE_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	n = varlink_file_read(p->kernel ? NULL : call, fs, p->name, buf,
			      TEST_FILE_MAX);
	if (n >= 0)
		varlink_put_str_len(call, "data", buf, n);
	kvfree(buf);
	return n < 0 ? n : test_reply(call);
}

/* WriteFile(fs: string, name: string, data: string) -> () */
static int test_write_file(struct varlink_call *call, const void *params)
{
	const struct test_file *p = params;
	int fs = test_fs(p->fs);
	int err;

	if (fs < 0)
		return varlink_error_invalid_parameter(call, "fs");
	err = varlink_file_write(call, fs, p->name, p->data, strlen(p->data));
	return err ? err : test_reply(call);
}

/* ReadFileSignal(fs: string, name: string) -> (errno, signal_pending) */
static int test_read_file_signal(struct varlink_call *call,
				 const void *params)
{
	const struct test_file *p = params;
	int fs = test_fs(p->fs);
	ssize_t n;
	char *buf;

	if (fs < 0)
		return varlink_error_invalid_parameter(call, "fs");
	buf = kvmalloc(TEST_FILE_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	n = varlink_file_read(call, fs, p->name, buf, TEST_FILE_MAX);
	kvfree(buf);
	varlink_put_s64(call, "errno", n < 0 ? -n : 0);
	varlink_put_bool(call, "signal_pending", signal_pending(current));
	return test_reply(call);
}

/* SignalPending() -> (pending: bool) */
static int test_signal_pending(struct varlink_call *call, const void *params)
{
	varlink_put_bool(call, "pending", signal_pending(current));
	return test_reply(call);
}

#define TEST_LIST_MAX	256

/* ListDir(fs: string, name: string) -> (names: []string) */
static int test_list_dir(struct varlink_call *call, const void *params)
{
	const struct test_file *p = params;
	struct varlink_walk_entry e;
	struct varlink_walk *w;
	int fs = test_fs(p->fs);
	int n = 0, err;

	if (fs < 0)
		return varlink_error_invalid_parameter(call, "fs");
	w = varlink_walk_start(call, fs, p->name, 1, 0);
	if (IS_ERR(w))
		return PTR_ERR(w);
	varlink_open_array(call, "names");
	while (n++ < TEST_LIST_MAX && (err = varlink_walk_next(w, &e)) > 0)
		varlink_put_str(call, NULL, e.name);
	varlink_close_array(call);
	varlink_walk_end(w);
	return err < 0 ? err : test_reply(call);
}

static int test_status(struct varlink_call *call, const void *params)
{
	varlink_put_s64(call, "monitors", atomic_read(&test_monitors_active));
	varlink_put_s64(call, "deferred", atomic_read(&test_deferred_active));
	varlink_put_s64(call, "counter", atomic64_read(&test_counter));
	varlink_put_s64(call, "replays", atomic_read(&test_replays_active));
	return test_reply(call);
}

static const struct varlink_method test_methods[] = {
	{ .name = "Ping", .call = test_ping, .flags = VARLINK_INLINE },
	{
		.name = "EchoScalars",
		.call = test_echo_scalars,
		VARLINK_PARAMS(test_scalars_params, struct test_scalars),
		.flags = VARLINK_INLINE,
	},
	{
		.name = "Echo",
		.call = test_echo,
		VARLINK_PARAMS(test_echo_params_table, struct test_echo),
		.flags = VARLINK_INLINE,
	},
	{ .name = "Types", .call = test_types, .flags = VARLINK_INLINE },
	{
		.name = "Counter",
		.call = test_counter_call,
		VARLINK_PARAMS(test_counter_params, struct test_counter_params),
		.flags = VARLINK_INLINE,
	},
	{
		.name = "Count",
		.call = test_count,
		VARLINK_PARAMS(test_count_params, struct test_count),
		.flags = VARLINK_MORE,
	},
	{
		.name = "Monitor",
		.call = test_monitor,
		VARLINK_PARAMS(test_monitor_params, struct test_monitor_params),
		.flags = VARLINK_MORE_ONLY | VARLINK_STREAM,
	},
	{
		.name = "Defer",
		.call = test_defer,
		VARLINK_PARAMS(test_defer_params, struct test_defer_params),
		.flags = VARLINK_INLINE,
	},
	{
		.name = "Slow",
		.call = test_slow,
		VARLINK_PARAMS(test_slow_params, struct test_ms),
	},
	{
		.name = "HoldRtnl",
		.call = test_hold_rtnl,
		VARLINK_PARAMS(test_slow_params, struct test_ms),
	},
	{ .name = "ReleaseRtnl", .call = test_release_rtnl },
	{
		.name = "Big",
		.call = test_big,
		VARLINK_PARAMS(test_big_params, struct test_big),
	},
	{
		.name = "Privileged",
		.call = test_privileged,
		.flags = VARLINK_CAPABLE | VARLINK_INLINE,
		.capability = CAP_SYS_ADMIN,
	},
	{ .name = "WhoAmI", .call = test_whoami, .flags = VARLINK_INLINE },
	{
		.name = "NetAdmin",
		.call = test_net_admin,
		.flags = VARLINK_CAPABLE_NET | VARLINK_INLINE,
		.capability = CAP_NET_ADMIN,
	},
	{
		.name = "Fail",
		.call = test_fail,
		VARLINK_PARAMS(test_fail_params, struct test_fail),
		.flags = VARLINK_INLINE,
	},
	{
		.name = "Raise",
		.call = test_raise,
		VARLINK_PARAMS(test_raise_params, struct test_raise),
		.flags = VARLINK_INLINE,
	},
	{ .name = "Unimplemented", .call = NULL },
	{ .name = "Linger", .call = test_linger },
	{ .name = "Finish", .call = test_finish },
	{
		.name = "Replay",
		.call = test_replay,
		VARLINK_PARAMS(test_replay_params, struct test_replay),
		.flags = VARLINK_MORE_ONLY | VARLINK_STREAM,
	},
	{
		.name = "ReadFile",
		.call = test_read_file,
		VARLINK_PARAMS(test_file_params, struct test_file),
	},
	{
		.name = "WriteFile",
		.call = test_write_file,
		VARLINK_PARAMS(test_write_file_params, struct test_file),
	},
	{
		.name = "ListDir",
		.call = test_list_dir,
		VARLINK_PARAMS(test_list_dir_params, struct test_file),
	},
	{
		.name = "ReadFileSignal",
		.call = test_read_file_signal,
		VARLINK_PARAMS(test_list_dir_params, struct test_file),
	},
	{ .name = "SignalPending", .call = test_signal_pending },
	{ .name = "Status", .call = test_status, .flags = VARLINK_INLINE },
};

static const struct varlink_interface test_iface = {
	.idl = test_idl,
	VARLINK_METHODS(test_methods),
	.flags = VARLINK_NETNS,
};

/* Finish every deferred call at once: the core cancels and waits for
 * them when the interface is unregistered, so normally there are none
 * left; this is for a core that would not.
 */
static void test_finish_all(void)
{
	struct test_work *tw;
	unsigned long flags;

	spin_lock_irqsave(&test_lock, flags);
	list_for_each_entry(tw, &test_works, node) {
		tw->cancelled = true;
		mod_delayed_work(test_wq, &tw->work, 0);
	}
	spin_unlock_irqrestore(&test_lock, flags);
	flush_workqueue(test_wq);
}

static int __init test_init(void)
{
	int err;

	test_wq = alloc_workqueue("varlink_test", WQ_PERCPU, 0);
	if (!test_wq)
		return -ENOMEM;
	err = varlink_register_interface(&test_iface);
	if (err)
		goto err_wq;
	return 0;

err_wq:
	destroy_workqueue(test_wq);
	return err;
}

static void __exit test_exit(void)
{
	varlink_unregister_interface(&test_iface);
	test_finish_all();
	WARN_ON(!list_empty(&test_works));
	/* the work functions may still be returning from their last reply */
	destroy_workqueue(test_wq);
}

module_init(test_init);
module_exit(test_exit);

MODULE_IMPORT_NS(VL_NS(VARLINK_TEST));
MODULE_LICENSE("GPL");
MODULE_ALIAS_VARLINK_INTERFACE("org.kernel.varlink.test");
MODULE_DESCRIPTION("varlink test interface org.kernel.varlink.test");
MODULE_AUTHOR("The kvarlink authors");
