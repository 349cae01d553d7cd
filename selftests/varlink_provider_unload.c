// SPDX-License-Identifier: GPL-2.0
/*
 * Unloading a provider module while clients are connected and its calls
 * are in flight: a slow callback, a deferred reply, a stream.  rmmod
 * either succeeds or fails cleanly (EBUSY, EAGAIN) and is retried; every
 * call in flight then ends with a final reply or error, or its connection
 * is closed, none hangs; new calls get InterfaceNotFound; and once the
 * module is back, the same connections use it again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"

#define M(name)		"\"method\":\"" VT_IFACE "." name "\""
#define NOT_FOUND	"org.varlink.service.InterfaceNotFound"

/*
 * Read the rest of a call that was in flight: replies with continues,
 * then a final reply or error, or the end of the connection.  Returns 1
 * for a final message (in @c->msg), 0 if the connection was closed, or
 * -ETIMEDOUT if the call hangs.
 */
static int call_end(struct vt_conn *c)
{
	const char *msg;
	int ret;

	while ((ret = vt_recv(c, VT_TIMEOUT_MS, &msg)) == 1) {
		if (vt_reply_problem(msg)) {
			fprintf(stderr, "# bad reply: %s\n", msg);
			return -EPROTO;
		}
		if (!vt_continues(msg))
			return 1;
	}
	return ret;
}

static bool interface_listed(struct vt_conn *c)
{
	const char *msg;
	char *name;
	int i;

	if (vt_call(c, "{\"method\":\"org.varlink.service.GetInfo\"}", &msg) != 1)
		return false;
	for (i = 0; (name = vt_json_str(msg, vt_fmt("parameters.interfaces.%d", i))); i++)
		if (!strcmp(name, VT_IFACE))
			return true;
	return false;
}

FIXTURE(unload) {
	struct vt_conn idle, slow, defer, monitor, half;
};

FIXTURE_SETUP(unload)
{
	ASSERT_TRUE(vt_module_loaded(VT_PROVIDER_MODULE));
	ASSERT_EQ(0, vt_open_ready(&self->idle));
	ASSERT_EQ(0, vt_open_ready(&self->slow));
	ASSERT_EQ(0, vt_open_ready(&self->defer));
	ASSERT_EQ(0, vt_open_ready(&self->monitor));
	ASSERT_EQ(0, vt_open_ready(&self->half));
}

FIXTURE_TEARDOWN(unload)
{
	vt_close(&self->idle);
	vt_close(&self->slow);
	vt_close(&self->defer);
	vt_close(&self->monitor);
	vt_close(&self->half);
	/* whatever happened, leave the provider loaded for the next tests */
	if (!vt_module_loaded(VT_PROVIDER_MODULE))
		vt_insmod(VT_PROVIDER_MODULE);
}

TEST_F_TIMEOUT(unload, calls_in_flight, 120)
{
	long long t0;
	const char *msg;
	int ret, busy = 0;

	ASSERT_EQ(0, vt_send(&self->monitor, VT_MORE("Monitor", "{\"interval_ms\":20}")));
	ASSERT_EQ(1, vt_recv(&self->monitor, VT_TIMEOUT_MS, &msg));
	ASSERT_TRUE(vt_continues(msg)) TH_LOG("%s", msg);
	ASSERT_EQ(0, vt_send(&self->slow, "{" M("Slow") ",\"parameters\":{\"ms\":1500}}"));
	ASSERT_EQ(0, vt_send(&self->defer,
			     VT_CALL("Defer", "{\"delay_ms\":1000,\"value\":\"d\"}")));
	ASSERT_EQ(0, vt_send_raw(&self->half, "{\"method\":", 10));
	vt_sleep_ms(200);	/* the calls are in the provider now */

	/* unload; while it is busy, it may refuse: try again */
	t0 = vt_now_ms();
	for (;;) {
		ret = vt_delete_module(VT_PROVIDER_MODULE);
		if (ret != -EAGAIN && ret != -EBUSY)
			break;
		busy++;
		ASSERT_GT(60000, vt_now_ms() - t0) TH_LOG("still busy");
		vt_sleep_ms(20);
	}
	ASSERT_EQ(0, ret) TH_LOG("delete_module: %s", strerror(-ret));
	TH_LOG("unloaded after %lld ms, %d refusals", vt_now_ms() - t0, busy);
	ASSERT_FALSE(vt_module_loaded(VT_PROVIDER_MODULE));

	/* every call in flight has ended, none hangs */
	ret = call_end(&self->slow);
	EXPECT_LE(0, ret);
	if (ret == 1)
		TH_LOG("slow: %s", self->slow.msg);
	ret = call_end(&self->defer);
	EXPECT_LE(0, ret);
	if (ret == 1)
		TH_LOG("deferred: %s", self->defer.msg);
	ret = call_end(&self->monitor);
	EXPECT_LE(0, ret);
	if (ret == 1)
		TH_LOG("monitor: %s", self->monitor.msg);

	/* the interface is gone for every connection */
	ASSERT_EQ(1, vt_call(&self->idle, VT_PING, &msg));
	EXPECT_TRUE(vt_is_error(msg, NOT_FOUND)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.interface", "\"" VT_IFACE "\""))
		TH_LOG("%s", msg);
	EXPECT_FALSE(interface_listed(&self->idle));
	ASSERT_EQ(0, vt_send(&self->half, "\"" VT_IFACE ".Ping\"}"));
	ASSERT_EQ(1, vt_recv(&self->half, VT_TIMEOUT_MS, &msg));
	EXPECT_TRUE(vt_is_error(msg, NOT_FOUND)) TH_LOG("%s", msg);

	/* and back: the same connections use it again */
	ASSERT_EQ(0, vt_insmod(VT_PROVIDER_MODULE));
	ASSERT_EQ(1, vt_call(&self->idle, VT_PING, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_TRUE(interface_listed(&self->idle));
	ASSERT_EQ(1, vt_call(&self->half, VT_PING, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	if (self->slow.fd >= 0 && vt_call(&self->slow, VT_PING, &msg) == 1)
		EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
}

/*
 * The provider unloaded and loaded again while clients hammer it: each
 * call gets its reply, InterfaceNotFound, or (a stream) a closed
 * connection, after which the client connects again.  A call that hangs
 * is a failure.
 */
static int hammer(bool stream)
{
	struct vt_conn c;
	const char *msg;
	int ret;

	if (vt_open_ready(&c))
		return 10;
	for (;;) {
		if (stream)
			ret = vt_send(&c, VT_MORE("Monitor", "{\"interval_ms\":1,\"count\":20}"));
		else
			ret = vt_send(&c, "{" M("Echo") ",\"parameters\":{\"string\":\"h\"}}");
		if (!ret) {
			while ((ret = vt_recv(&c, VT_TIMEOUT_MS, &msg)) == 1 &&
			       vt_continues(msg))
				;
		}
		if (ret == 0 || ret == -EPIPE || ret == -ECONNRESET) {
			vt_close(&c);
			if (vt_open_ready(&c))
				return 11;
			continue;
		}
		if (ret != 1) {
			fprintf(stderr, "# %s: %s\n", stream ? "stream" : "call",
				strerror(-ret));
			return 12;
		}
		if (vt_reply_problem(msg)) {
			fprintf(stderr, "# bad reply: %s\n", msg);
			return 13;
		}
		/* a call that raced with the unload may fail otherwise */
		if (!vt_is_ok(msg) && !vt_is_error(msg, NOT_FOUND))
			fprintf(stderr, "# error: %s\n", msg);
	}
}

TEST_F_TIMEOUT(unload, reload_under_load, 120)
{
	pid_t pids[4];
	int i, status;

	for (i = 0; i < 4; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i])
			_exit(hammer(i % 2));
	}
	vt_sleep_ms(200);
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(0, vt_rmmod(VT_PROVIDER_MODULE, 30000));
		vt_sleep_ms(50);
		ASSERT_EQ(0, vt_insmod(VT_PROVIDER_MODULE));
		vt_sleep_ms(100);
	}
	for (i = 0; i < 4; i++) {
		/* a child that exited on its own found a problem */
		EXPECT_EQ(0, waitpid(pids[i], &status, WNOHANG));
		kill(pids[i], SIGKILL);
		waitpid(pids[i], &status, 0);
		if (WIFEXITED(status))
			TH_LOG("client %d exited with %d", i, WEXITSTATUS(status));
	}
}

TEST_HARNESS_MAIN
