// SPDX-License-Identifier: GPL-2.0
/*
 * Everything at once, for a while: for the KCSAN kernel, whose race
 * detector samples accesses and so needs many of them to race.  Threads
 * that pipeline calls of every kind on connections of their own, threads
 * that share one connection, clients that come and go mid-call and
 * mid-stream, and readers of the statistics, in sysfs and by call, all
 * at the same time.  Every reply must come, valid and in order; the
 * verdict that matters is the console's, where KCSAN reports races.
 *
 * KCSAN_STRESS_SECONDS sets how long (default 60).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"

#define DESCRIBE_TEST	"{\"method\":\"org.varlink.service.GetInterfaceDescription\"," \
			"\"parameters\":{\"interface\":\"" VT_IFACE "\"}}"

static long long deadline;
static atomic_int failures;
static atomic_long calls;

static bool running(void)
{
	return vt_now_ms() < deadline && !atomic_load(&failures);
}

static void failed(const char *who, const char *what, int ret, const char *msg)
{
	fprintf(stderr, "# %s: %s: %d %s\n", who, what, ret, msg ? msg : "");
	atomic_fetch_add(&failures, 1);
}

/* Read up to the final reply of one call; 1 if it came, else 0. */
static int finish(struct vt_conn *c, const char *who)
{
	const char *msg;
	int ret;

	do {
		ret = vt_recv(c, VT_TIMEOUT_MS, &msg);
		if (ret != 1) {
			failed(who, "no reply", ret, NULL);
			return 0;
		}
		if (vt_reply_problem(msg)) {
			failed(who, vt_reply_problem(msg), 0, msg);
			return 0;
		}
	} while (vt_continues(msg));
	atomic_fetch_add(&calls, 1);
	return 1;
}

/* A connection of its own, pipelined batches of every kind of call. */
static void *pipeliner(void *arg)
{
	static const char *const batch[] = {
		VT_PING,
		VT_CALL("Echo", "{\"string\":\"s\",\"array\":[1,2],\"map\":{\"a\":\"b\"}}"),
		VT_MORE("Count", "{\"n\":4}"),
		VT_CALL("Defer", "{\"delay_ms\":0,\"value\":\"v\"}"),
		"{\"method\":\"org.varlink.service.GetInfo\"}",
		VT_CALL("Counter", "{\"add\":1}"),
		VT_CALL("Slow", "{\"ms\":0}"),
		VT_MORE("Monitor", "{\"interval_ms\":1,\"count\":2}"),
		"{\"method\":\"org.kernel.varlink.GetStatistics\"}",
		VT_CALL("Big", "{\"size\":5000}"),
		"{" VT_M("Nope") "}",
	};
	struct vt_conn c;
	char *all = NULL;
	size_t len = 0, n;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(batch); i++) {
		n = strlen(batch[i]) + 1;
		all = realloc(all, len + n);
		if (!all)
			return NULL;
		memcpy(all + len, batch[i], n);
		len += n;
	}
	if (vt_open_ready(&c)) {
		failed("pipeliner", "connect", errno, NULL);
		return NULL;
	}
	while (running()) {
		if (vt_send_raw(&c, all, len)) {
			failed("pipeliner", "send", errno, NULL);
			break;
		}
		for (i = 0; i < ARRAY_SIZE(batch); i++)
			if (!finish(&c, "pipeliner"))
				goto out;
	}
out:
	vt_close(&c);
	free(all);
	return NULL;
}

/* Threads that write calls on one connection; one reader counts replies. */
static struct vt_conn shared;
static atomic_long shared_sent;

static void *shared_writer(void *arg)
{
	while (running()) {
		/* one message per send(): a stream keeps it whole */
		if (vt_send(&shared, VT_CALL("Counter", "{\"add\":0}"))) {
			failed("shared writer", "send", errno, NULL);
			break;
		}
		atomic_fetch_add(&shared_sent, 1);
		vt_sleep_ms(1);
	}
	return NULL;
}

static void *shared_reader(void *arg)
{
	long got = 0;

	while (running() || got < atomic_load(&shared_sent)) {
		if (!finish(&shared, "shared reader"))
			break;
		got++;
	}
	return NULL;
}

/* Clients that go away mid-call, mid-stream or before a word. */
static void *vanisher(void *arg)
{
	static const char *const calls[] = {
		VT_CALL("Defer", "{\"delay_ms\":3,\"value\":\"gone\"}"),
		VT_MORE("Monitor", "{\"interval_ms\":1}"),
		VT_MORE("Count", "{\"n\":1000}"),
		VT_CALL("Slow", "{\"ms\":2}"),
		VT_CALL("Big", "{\"size\":200000}"),
		DESCRIBE_TEST,
		NULL,
	};
	unsigned int i = 0;
	struct vt_conn c;
	const char *msg;

	while (running()) {
		const char *call = calls[i++ % ARRAY_SIZE(calls)];

		if (vt_open(&c)) {
			failed("vanisher", "connect", errno, NULL);
			break;
		}
		if (call) {
			vt_send(&c, call);
			/* sometimes the first reply, sometimes not even that */
			if (i & 2)
				vt_recv(&c, VT_TIMEOUT_MS, &msg);
		}
		vt_close(&c);
	}
	return NULL;
}

/* The counters, read while they change. */
static void *statistician(void *arg)
{
	static const char *const names[] = {
		"connections", "connections_total", "calls", "calls_inline",
		"errors", "bytes_in", "bytes_out", "sends", "allocations",
	};
	struct vt_conn c;
	unsigned int i;
	const char *msg;
	int ret;

	if (vt_open_ready(&c)) {
		failed("statistician", "connect", errno, NULL);
		return NULL;
	}
	while (running()) {
		for (i = 0; i < ARRAY_SIZE(names); i++)
			vt_stat(names[i]);
		ret = vt_call(&c, "{\"method\":\"org.kernel.varlink.GetStatistics\"}", &msg);
		if (ret != 1 || !vt_is_ok(msg)) {
			failed("statistician", "GetStatistics", ret, msg);
			break;
		}
		ret = vt_call(&c, "{\"method\":\"org.kernel.varlink.GetLimits\"}", &msg);
		if (ret != 1 || !vt_is_ok(msg)) {
			failed("statistician", "GetLimits", ret, msg);
			break;
		}
		vt_sleep_ms(5);
	}
	vt_close(&c);
	return NULL;
}

FIXTURE(stress) {
};

FIXTURE_SETUP(stress)
{
}

FIXTURE_TEARDOWN(stress)
{
}

TEST_F_TIMEOUT(stress, everything_at_once, 900)
{
	static void *(*const roles[])(void *) = {
		pipeliner, pipeliner, pipeliner, pipeliner,
		shared_writer, shared_writer, shared_writer, shared_reader,
		vanisher, vanisher,
		statistician,
	};
	const char *env = getenv("KCSAN_STRESS_SECONDS");
	pthread_t t[ARRAY_SIZE(roles)];
	unsigned int i;

	ASSERT_EQ(0, vt_open_ready(&shared));
	deadline = vt_now_ms() + 1000LL * (env ? atoi(env) : 60);
	for (i = 0; i < ARRAY_SIZE(roles); i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, roles[i], NULL));
	for (i = 0; i < ARRAY_SIZE(roles); i++)
		pthread_join(t[i], NULL);
	vt_close(&shared);
	TH_LOG("%ld calls answered", atomic_load(&calls));
	EXPECT_EQ(0, atomic_load(&failures));
	EXPECT_LT(0, atomic_load(&calls));
}

TEST_HARNESS_MAIN
