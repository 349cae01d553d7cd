// SPDX-License-Identifier: GPL-2.0
/*
 * The fast path: a VARLINK_INLINE method is served in the task that sent
 * the call.  Whatever way the bytes arrive (send, MSG_DONTWAIT, several
 * threads on one connection, splice, sendfile), every call gets its reply
 * in order; the debug kernel proves it lockdep-, KASAN- and
 * might_sleep-clean.  With fast_path=0 the same calls go to a kworker.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sendfile.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "varlink_test.h"

#define PING "{\"method\":\"" VT_IFACE ".Ping\"}"
#define CALLS 200
#define ECHO_INTS "\"int\":-5,\"uint\":5,\"small\":-7,\"usmall\":7"
#define ECHO_ARGS "{\"bool\":true," ECHO_INTS ",\"string\":\"caf\\u00e9\"}"
#define ECHO_SCALARS "{\"method\":\"" VT_IFACE ".EchoScalars\",\"parameters\":" ECHO_ARGS "}"

static long long stat_read(const char *name)
{
	char path[128], buf[32] = "";
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/varlink/statistics/%s", name);
	f = fopen(path, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			v = atoll(buf);
		fclose(f);
	}
	return v;
}

static int set_fast_path(int on)
{
	int fd = open("/sys/module/varlink/parameters/fast_path", O_WRONLY);
	int ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, on ? "Y" : "N", 1) == 1 ? 0 : -errno;
	close(fd);
	return ret;
}

/* Read @n replies to Ping, each a success. */
static int expect_pings(struct vt_conn *c, int n)
{
	const char *msg;
	int i;

	for (i = 0; i < n; i++) {
		if (vt_recv(c, VT_TIMEOUT_MS, &msg) != 1 || !vt_is_ok(msg))
			return -1;
	}
	return 0;
}

FIXTURE(fast) {
	struct vt_conn c;
	long long inline_before;
};

FIXTURE_VARIANT(fast) {
	int fast_path;
};

FIXTURE_VARIANT_ADD(fast, on) {
	.fast_path = 1,
};

FIXTURE_VARIANT_ADD(fast, off) {
	.fast_path = 0,
};

FIXTURE_SETUP(fast)
{
	ASSERT_EQ(0, set_fast_path(variant->fast_path));
	ASSERT_EQ(0, vt_open_ready(&self->c));
	self->inline_before = stat_read("calls_inline");
	ASSERT_LE(0, self->inline_before);
}

FIXTURE_TEARDOWN(fast)
{
	vt_close(&self->c);
	set_fast_path(1);
}

/*
 * Calls served in the caller's task since setup: most of them with the
 * fast path on, none with it off.  The fast path yields to the
 * connection's kworker whenever that is queued or running, which a
 * loaded host makes more frequent: on an idle VM nearly every call is
 * served inline, so half leaves room for scheduling and still tells a
 * working fast path from a broken one.
 */
#define EXPECT_INLINE(calls) do {					\
	long long served = stat_read("calls_inline") - self->inline_before; \
									\
	if (variant->fast_path) {					\
		EXPECT_LE((calls) / 2, served);				\
	} else {							\
		EXPECT_EQ(0, served);					\
	}								\
} while (0)

TEST_F(fast, sequential)
{
	const char *msg;
	int i;

	for (i = 0; i < CALLS; i++) {
		ASSERT_EQ(1, vt_call(&self->c, PING, &msg));
		ASSERT_TRUE(vt_is_ok(msg));
	}
	EXPECT_INLINE(CALLS);
}

/*
 * Calls that fit what a call carries inline (tokens, parameters, reply)
 * allocate nothing once the per-CPU caches are warm: a few allocations
 * for the first calls on each CPU, none per call after.  On two CPUs, a
 * worker of the unbound workqueue (fast path off) that moves between a
 * call's allocation and its free leaves one CPU's slots empty and the
 * other's full, an allocation now and then: at most one call in ten,
 * where one per call (the slab allocator every time) is ten times that.
 */
TEST_F(fast, no_allocation_per_call)
{
	static const char *const calls[] = {
		PING,
		ECHO_SCALARS,
		"{\"method\":\"org.varlink.service.GetInfo\"}",
	};
	long long before;
	const char *msg;
	unsigned int k;
	int i;

	for (k = 0; k < ARRAY_SIZE(calls); k++) {
		for (i = 0; i < 10; i++) {	/* warm up */
			ASSERT_EQ(1, vt_call(&self->c, calls[k], &msg));
			ASSERT_TRUE(vt_is_ok(msg));
		}
		before = stat_read("allocations");
		ASSERT_LE(0, before);
		for (i = 0; i < CALLS; i++) {
			ASSERT_EQ(1, vt_call(&self->c, calls[k], &msg));
			ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
		}
		EXPECT_GE(CALLS / 10, stat_read("allocations") - before)
			TH_LOG("%s", calls[k]);
	}
}

TEST_F(fast, dontwait)
{
	int i;

	for (i = 0; i < CALLS; i++) {
		ASSERT_EQ((ssize_t)sizeof(PING),
			  send(self->c.fd, PING, sizeof(PING), MSG_DONTWAIT));
		ASSERT_EQ(0, expect_pings(&self->c, 1));
	}
	EXPECT_INLINE(CALLS);
}

/*
 * 16 calls in one write get their 16 replies in one write too: the
 * replies are held back while the next call is read already.  Another
 * connection's replies may be counted too: twice as many writes pass,
 * one per reply (the batching broken) does not.
 */
TEST_F(fast, pipelined)
{
	char buf[16 * sizeof(PING)];
	long long sends;
	int i;

	for (i = 0; i < 16; i++)
		memcpy(buf + i * sizeof(PING), PING, sizeof(PING));
	sends = stat_read("sends");
	ASSERT_LE(0, sends);
	for (i = 0; i < CALLS / 16; i++) {
		ASSERT_EQ(0, vt_send_raw(&self->c, buf, sizeof(buf)));
		ASSERT_EQ(0, expect_pings(&self->c, 16));
	}
	EXPECT_INLINE(CALLS / 16 * 16);
	EXPECT_GE(2 * (CALLS / 16), stat_read("sends") - sends);
}

struct sender {
	int fd;
	int calls;
	int err;
};

/*
 * Replies held back for a batch are bounded (8 KiB): 32 GetInfo replies
 * of over 300 bytes each go out in more than one write, and in no more
 * than a few, all of them, in order.
 */
TEST_F(fast, pipelined_large_replies)
{
	static const char info[] = "{\"method\":\"org.varlink.service.GetInfo\"}";
	char buf[32 * sizeof(info)];
	long long sends;
	const char *msg;
	size_t first = 0;
	int i, k;

	for (i = 0; i < 32; i++)
		memcpy(buf + i * sizeof(info), info, sizeof(info));
	sends = stat_read("sends");
	ASSERT_LE(0, sends);
	for (k = 0; k < 10; k++) {
		ASSERT_EQ(0, vt_send_raw(&self->c, buf, sizeof(buf)));
		for (i = 0; i < 32; i++) {
			ASSERT_EQ(1, vt_recv(&self->c, VT_TIMEOUT_MS, &msg));
			ASSERT_TRUE(vt_json_has(msg, "parameters")) TH_LOG("%s", msg);
			if (!first)
				first = strlen(msg);
			ASSERT_EQ(first, strlen(msg));
		}
	}
	sends = stat_read("sends") - sends;
	EXPECT_LT(256, first);
	EXPECT_LE(10 * 2, sends);
	EXPECT_GE(10 * 4, sends);
	EXPECT_INLINE(10 * 32);
}

static void *send_pings(void *arg)
{
	struct sender *s = arg;
	int i;

	for (i = 0; i < s->calls; i++) {
		/* one send per message: the stream keeps it whole */
		if (send(s->fd, PING, sizeof(PING), MSG_NOSIGNAL) != sizeof(PING)) {
			s->err = errno;
			break;
		}
	}
	return NULL;
}

TEST_F(fast, threads_on_one_connection)
{
	struct sender s[4];
	pthread_t t[4];
	int i;

	for (i = 0; i < 4; i++) {
		s[i] = (struct sender){ .fd = self->c.fd, .calls = CALLS / 4 };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, send_pings, &s[i]));
	}
	EXPECT_EQ(0, expect_pings(&self->c, CALLS / 4 * 4));
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, s[i].err);
	}
}

TEST_F(fast, splice)
{
	int p[2], i;

	ASSERT_EQ(0, pipe(p));
	for (i = 0; i < CALLS / 20; i++) {
		ASSERT_EQ((ssize_t)(4 * sizeof(PING)),
			  write(p[1], PING "\0" PING "\0" PING "\0" PING,
				4 * sizeof(PING)));
		ASSERT_EQ((ssize_t)(4 * sizeof(PING)),
			  splice(p[0], NULL, self->c.fd, NULL, 4 * sizeof(PING), 0));
		ASSERT_EQ(0, expect_pings(&self->c, 4));
	}
	close(p[0]);
	close(p[1]);
}

TEST_F(fast, sendfile)
{
	char path[] = "/tmp/varlink-fastpath-XXXXXX";
	int fd = mkstemp(path);
	off_t off = 0;
	int i;

	ASSERT_LE(0, fd);
	unlink(path);
	for (i = 0; i < CALLS; i++)
		ASSERT_EQ((ssize_t)sizeof(PING), write(fd, PING, sizeof(PING)));
	ASSERT_EQ((ssize_t)(CALLS * sizeof(PING)),
		  sendfile(self->c.fd, fd, &off, CALLS * sizeof(PING)));
	EXPECT_EQ(0, expect_pings(&self->c, CALLS));
	close(fd);
}

TEST_HARNESS_MAIN
