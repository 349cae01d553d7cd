// SPDX-License-Identifier: GPL-2.0
/*
 * The server while its allocations fail.  Runs in the fault run
 * (guest-init.sh, mode fault, on the debug kernel), where failslab is set
 * up to fail only slab allocations whose stack goes through our modules;
 * this program turns its probability up around the calls, and down again.
 *
 * Under injection every call must end within a deadline with a valid
 * final reply, an error, or its connection closed: never a hang, never a
 * malformed message, never a reply out of order.  Once injection is off,
 * the connections opened before it are still served, new ones are, and
 * the count of connections in the server drops back to what it was.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"

#define DESCRIBE_TEST	"{\"method\":\"org.varlink.service.GetInterfaceDescription\"," \
			"\"parameters\":{\"interface\":\"" VT_IFACE "\"}}"

#define FAILSLAB	"/sys/kernel/debug/failslab/probability"
/* a deferred call under KASAN in TCG, on a machine that is busy */
#define DEADLINE_MS	30000
#define WITNESSES	4

static int set_probability(int percent)
{
	char *text = vt_fmt("%d\n", percent);
	int ret = text ? vt_write_file(FAILSLAB, text) : -ENOMEM;

	free(text);
	return ret;
}

/* How the calls ended */
struct outcome {
	int calls, ok, errors, closed, cut, nomem;
};

/*
 * Read the replies of one call up to its end.  @expect, if not NULL, is
 * the parameters a successful final reply must have.  Returns 1 if the
 * connection is still open, 0 if the server closed it, or -errno: a
 * hang (-ETIMEDOUT), a malformed or unexpected message (-EPROTO).
 */
static int call_end(struct __test_metadata *_metadata, struct vt_conn *c,
		    const char *what, const char *expect, struct outcome *o)
{
	const char *msg, *problem;
	int ret;

	o->calls++;
	for (;;) {
		ret = vt_recv(c, DEADLINE_MS, &msg);
		if (ret == 0) {
			o->closed++;
			return 0;
		}
		if (ret == -EPROTO) {	/* closed in the middle of a message */
			o->cut++;
			return 0;
		}
		if (ret < 0) {
			TH_LOG("%s: %s", what, strerror(-ret));
			return ret;
		}
		problem = vt_reply_problem(msg);
		if (problem) {
			TH_LOG("%s: %s: %s", what, problem, msg);
			return -EPROTO;
		}
		if (vt_json_has(msg, "error")) {
			o->errors++;
			if (vt_json_is(msg, "parameters.errno", "12"))
				o->nomem++;
			return 1;
		}
		if (vt_continues(msg))
			continue;
		if (expect && strcmp(expect, vt_params(msg))) {
			TH_LOG("%s: expected %s, got %s", what, expect, msg);
			return -EPROTO;
		}
		o->ok++;
		return 1;
	}
}

static void report(struct __test_metadata *_metadata, const char *what,
		   const struct outcome *o)
{
	TH_LOG("%s: %d calls: %d ok, %d errors (%d ENOMEM), %d closed, %d cut short",
	       what, o->calls, o->ok, o->errors, o->nomem, o->closed, o->cut);
}

/*
 * For the no_accept variant: the @n clients from @c, with their calls
 * sent, are in the backlog: no reply, no close, and the server counts
 * no new connection.
 */
static void expect_pending(struct __test_metadata *_metadata,
			   struct vt_conn *c, unsigned int n, long connections)
{
	const char *msg;
	unsigned int i;

	vt_sleep_ms(1000);
	for (i = 0; i < n; i++)
		EXPECT_EQ(-ETIMEDOUT, vt_recv(&c[i], 0, &msg)) TH_LOG("client %u", i);
	EXPECT_EQ(connections, vt_stat("connections"));
}

#define CLIENTS		40

FIXTURE(fault) {
	struct vt_conn witness[WITNESSES];
	struct vt_conn c[CLIENTS];	/* the test's; closed by the teardown */
	long connections;
};

/*
 * At 100% no accept can succeed: kernel_accept() allocates the new
 * socket.  A new client then waits in the listener's backlog, neither
 * served nor refused, until memory comes back.
 */
FIXTURE_VARIANT(fault) {
	int probability;	/* percent of the allocations that fail */
	bool no_accept;		/* new connections stay in the backlog */
};

FIXTURE_VARIANT_ADD(fault, p5) { .probability = 5 };
FIXTURE_VARIANT_ADD(fault, p25) { .probability = 25 };
FIXTURE_VARIANT_ADD(fault, p100) { .probability = 100, .no_accept = true };

FIXTURE_SETUP(fault)
{
	const char *msg;
	int i;

	for (i = 0; i < CLIENTS; i++)
		vt_init(&self->c[i]);
	if (access(FAILSLAB, W_OK))
		SKIP(return, "no failslab in this kernel");
	ASSERT_EQ(0, set_probability(0));
	for (i = 0; i < WITNESSES; i++) {
		ASSERT_EQ(0, vt_open_ready(&self->witness[i]));
		/* the witnesses have a call behind them, and one in the pipe */
		ASSERT_EQ(1, vt_call(&self->witness[i],
				     VT_CALL("Echo", "{\"string\":\"w\"}"), &msg));
	}
	self->connections = vt_stat("connections");
	ASSERT_LE(WITNESSES, self->connections);
}

/*
 * Injection off: every witness and a new client are served, and the
 * server counts the connections of before again.
 */
FIXTURE_TEARDOWN(fault)
{
	long long deadline;
	struct vt_conn c;
	const char *msg;
	int i;

	if (_metadata->skip)
		return;
	EXPECT_EQ(0, set_probability(0));
	for (i = 0; i < CLIENTS; i++)
		vt_close(&self->c[i]);
	for (i = 0; i < WITNESSES; i++) {
		EXPECT_EQ(1, vt_call(&self->witness[i], VT_PING, &msg)) TH_LOG("witness %d", i);
		EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("witness %d: %s", i, msg);
	}
	EXPECT_EQ(0, vt_open_ready(&c));
	EXPECT_EQ(1, vt_call(&c, VT_CALL("Echo", "{\"string\":\"after\"}"), &msg));
	EXPECT_STREQ("{\"string\":\"after\"}", vt_params(msg));
	vt_close(&c);
	deadline = vt_now_ms() + DEADLINE_MS;
	while (vt_stat("connections") != self->connections && vt_now_ms() < deadline)
		vt_sleep_ms(50);
	EXPECT_EQ(self->connections, vt_stat("connections"));
	for (i = 0; i < WITNESSES; i++)
		vt_close(&self->witness[i]);
}

/*
 * New connections, each with a pipelined batch of every kind of call:
 * plain, echoed, streamed, deferred, slow, big, the service's, errors.
 * Every fourth client goes away without reading.
 */
TEST_F_TIMEOUT(fault, pipelined_calls, 600)
{
	static const struct {
		const char *call, *expect;
	} batch[] = {
		{ VT_PING, "{}" },
		{ VT_CALL("Echo", "{\"string\":\"x\"}"), "{\"string\":\"x\"}" },
		{ VT_MORE("Count", "{\"n\":3}"), "{\"index\":3}" },
		{ VT_CALL("Defer", "{\"delay_ms\":5,\"value\":\"d\"}"), "{\"value\":\"d\"}" },
		{ VT_CALL("Big", "{\"size\":20000}"), NULL },
		{ "{\"method\":\"org.varlink.service.GetInfo\"}", NULL },
		{ DESCRIBE_TEST, NULL },
		{ VT_MORE("Monitor", "{\"interval_ms\":5,\"count\":3}"), "{\"tick\":3}" },
		{ "{" VT_M("Nope") "}", NULL },
		{ VT_CALL("Slow", "{\"ms\":5}"), "{\"ms\":5}" },
		{ VT_CALL("Fail", "{\"errno\":5}"), NULL },
		{ "{\"method\":\"org.kernel.varlink.GetStatistics\"}", NULL },
	};
	struct vt_conn *c = &self->c[0];
	struct outcome o = {};
	char *all = NULL, *what;
	size_t len = 0, n;
	unsigned int i;
	int round, ret;

	if (_metadata->skip)
		return;

	for (i = 0; i < ARRAY_SIZE(batch); i++) {
		n = strlen(batch[i].call) + 1;
		all = realloc(all, len + n);
		ASSERT_NE(NULL, all);
		memcpy(all + len, batch[i].call, n);
		len += n;
	}
	ASSERT_EQ(0, set_probability(variant->probability));
	if (variant->no_accept) {
		/* once memory is back, the client is accepted and served */
		ASSERT_EQ(0, vt_open(c));
		ASSERT_EQ(0, vt_send_raw(c, all, len));
		expect_pending(_metadata, c, 1, self->connections);
		ASSERT_EQ(0, set_probability(0));
		for (i = 0; i < ARRAY_SIZE(batch); i++)
			ASSERT_EQ(1, call_end(_metadata, c, batch[i].call,
					      batch[i].expect, &o));
		ASSERT_EQ(o.calls, o.ok + o.errors);
	}
	for (round = 0; round < 24 && !variant->no_accept; round++) {
		ASSERT_EQ(0, vt_open(c));
		/* the server may have closed it already */
		ret = vt_send_raw(c, all, len);
		if (ret) {
			ASSERT_TRUE(ret == -EPIPE || ret == -ECONNRESET) TH_LOG("%d", ret);
			o.closed++;
		} else if (round % 4 != 3) {
			for (i = 0; i < ARRAY_SIZE(batch); i++) {
				what = vt_fmt("round %d, call %u: %s", round, i,
					      batch[i].call);
				ret = call_end(_metadata, c, what, batch[i].expect, &o);
				ASSERT_LE(0, ret);
				if (!ret)
					break;
			}
		}
		vt_close(c);
	}
	ASSERT_EQ(0, set_probability(0));
	free(all);
	report(_metadata, "pipelined calls", &o);
}

/*
 * A burst of clients connected before any sends: the accept path under
 * injection; then one call on each.
 */
TEST_F_TIMEOUT(fault, burst_of_clients, 600)
{
	struct vt_conn *c = self->c;
	struct outcome o = {};
	unsigned int i;
	int ret;

	if (_metadata->skip)
		return;

	ASSERT_EQ(0, set_probability(variant->probability));
	for (i = 0; i < CLIENTS; i++)
		ASSERT_EQ(0, vt_open(&c[i]));
	if (variant->no_accept) {
		for (i = 0; i < CLIENTS; i++)
			ASSERT_EQ(0, vt_send(&c[i], VT_CALL("Echo", "{\"string\":\"burst\"}")));
		expect_pending(_metadata, c, CLIENTS, self->connections);
		/* the backlog drains once memory is back */
		ASSERT_EQ(0, set_probability(0));
	}
	for (i = 0; i < CLIENTS; i++) {
		if (variant->no_accept) {
			ASSERT_EQ(1, call_end(_metadata, &c[i], vt_fmt("client %u", i),
					      "{\"string\":\"burst\"}", &o));
			ASSERT_EQ(o.calls, o.ok);
			continue;
		}
		ret = vt_send(&c[i], VT_CALL("Echo", "{\"string\":\"burst\"}"));
		if (ret) {
			ASSERT_TRUE(ret == -EPIPE || ret == -ECONNRESET) TH_LOG("%d", ret);
			o.calls++;
			o.closed++;
			continue;
		}
		ASSERT_LE(0, call_end(_metadata, &c[i], vt_fmt("client %u", i),
				      "{\"string\":\"burst\"}", &o));
	}
	ASSERT_EQ(0, set_probability(0));
	report(_metadata, "burst of clients", &o);
}

/* Long streams on several connections at once, read as they come. */
TEST_F_TIMEOUT(fault, streams, 600)
{
	static const char *const streams[] = {
		VT_MORE("Count", "{\"n\":300}"),
		VT_MORE("Count", "{\"n\":300}"),
		VT_MORE("Monitor", "{\"interval_ms\":2,\"count\":60}"),
		VT_MORE("Monitor", "{\"interval_ms\":2,\"count\":60}"),
	};
	static const char *const expect[] = {
		"{\"index\":300}", "{\"index\":300}", "{\"tick\":60}", "{\"tick\":60}",
	};
	struct vt_conn *c = self->c;
	struct outcome o = {};
	unsigned int i;
	int ret;

	if (_metadata->skip)
		return;

	for (i = 0; i < ARRAY_SIZE(streams); i++)
		ASSERT_EQ(0, vt_open_ready(&c[i]));
	ASSERT_EQ(0, set_probability(variant->probability));
	for (i = 0; i < ARRAY_SIZE(streams); i++) {
		ret = vt_send(&c[i], streams[i]);
		ASSERT_TRUE(!ret || ret == -EPIPE || ret == -ECONNRESET) TH_LOG("%d", ret);
	}
	for (i = 0; i < ARRAY_SIZE(streams); i++)
		ASSERT_LE(0, call_end(_metadata, &c[i], streams[i], expect[i], &o));
	ASSERT_EQ(0, set_probability(0));
	report(_metadata, "streams", &o);
}

TEST_HARNESS_MAIN
