// SPDX-License-Identifier: GPL-2.0
/*
 * Paced streams and stream quotas, through the test provider's Replay, a
 * stream the core paces (struct varlink_stream): a client that reads
 * slowly, or not at all for a while, gets every reply and is never
 * closed; one that hangs up, or whose interface goes away, ends the
 * stream at once; and streams are shared out by the core's quotas
 * (max_streams_per_user, max_streams_per_container).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"
#include "kernel_state_test.h"

#define TOO_MANY	"org.kernel.varlink.TooManyStreams"

static long status_replays(void)
{
	struct vt_conn c;
	const char *msg;
	long long v = -1;

	if (vt_open_ready(&c))
		return -1;
	if (vt_call(&c, VT_CALL("Status", "{}"), &msg) == 1)
		ks_json_int(msg, "parameters.replays", &v);
	vt_close(&c);
	return v;
}

/* Wait until Status says @n replays run; returns whether it did. */
static bool replays_reach(long n, int timeout_ms)
{
	long long deadline = vt_now_ms() + timeout_ms;

	do {
		if (status_replays() == n)
			return true;
		vt_sleep_ms(20);
	} while (vt_now_ms() < deadline);
	return false;
}

/* Read the replies of a Replay of @n: index 0 to n - 1 with continues,
 * then the final one with index n; recv() takes one byte at a time for
 * the first @slow bytes, then at most @chunk.  Returns how many were
 * right, -1 on the first wrong one.
 */
static long read_replay(int fd, long n, size_t slow, size_t chunk)
{
	static char buf[1 << 18];
	size_t len = 0, total = 0;
	long i = 0;

	for (;;) {
		ssize_t r = recv(fd, buf + len, total < slow ? 1 : chunk, 0);
		char *msg = buf, *nul;

		if (r <= 0 || len + r + chunk > sizeof(buf))
			return -1;
		len += r;
		total += r;
		while ((nul = memchr(msg, '\0', buf + len - msg))) {
			long long index;

			if (!ks_json_int(msg, "parameters.index", &index) ||
			    index != i)
				return -1;
			if (i == n)
				return vt_continues(msg) || nul + 1 != buf + len ?
				       -1 : i;
			if (!vt_continues(msg))
				return -1;
			i++;
			msg = nul + 1;
		}
		len -= msg - buf;
		memmove(buf, msg, len);
	}
}

static char *replay_call(long n, long size)
{
	return vt_fmt(VT_MORE("Replay", "{\"n\":%ld,\"size\":%ld}"), n, size);
}

/*
 * A replay of ten times max_output to a client that does not read
 * for two seconds and then reads 4 KiB at a time: every reply arrives, in
 * order, and the connection is not closed.
 */
TEST(slow_reader_gets_everything)
{
	long max_output = vt_param("max_output", 0);
	long size = 4096, n = 10 * max_output / size;
	struct vt_conn c;

	ASSERT_GT(max_output, 0);
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, vt_send(&c, replay_call(n, size)));
	vt_sleep_ms(2000);
	/* waiting, not closed: the stream still runs */
	EXPECT_EQ(1, status_replays());
	EXPECT_EQ(n, read_replay(c.fd, n, 0, 4096));
	vt_close(&c);
	EXPECT_TRUE(replays_reach(0, VT_TIMEOUT_MS));
}

/* A replay of twice max_output to a client that reads one byte at a time
 * for the first half of max_output, while the server waits for it: not
 * closed either.
 */
TEST(one_byte_reader)
{
	long max_output = vt_param("max_output", 0);
	long size = 2048, n = 2 * max_output / size;
	struct vt_conn c;

	ASSERT_GT(max_output, 0);
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, vt_send(&c, replay_call(n, size)));
	EXPECT_EQ(n, read_replay(c.fd, n, max_output / 2, 4096));
	vt_close(&c);
}

/*
 * A client that stops reading holds its stream, waiting; when it hangs up
 * the wait ends at once, and the stream with it.
 */
TEST(hangup_ends_the_wait)
{
	long long start;
	struct vt_conn c;

	ASSERT_TRUE(replays_reach(0, VT_TIMEOUT_MS));
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, vt_send(&c, vt_blocking_replay()));
	ASSERT_TRUE(replays_reach(1, VT_TIMEOUT_MS));
	vt_sleep_ms(500);
	EXPECT_EQ(1, status_replays());
	start = vt_now_ms();
	vt_close(&c);
	EXPECT_TRUE(replays_reach(0, 2000));
	TH_LOG("stream ended %lld ms after the hangup", vt_now_ms() - start);
}

/* Read what is queued for @fd until the final reply (no "continues"),
 * which must carry "index"; returns 1 if it came, 0 if the connection
 * ended first, -1 on a reply without index.
 */
static int read_to_final(int fd)
{
	struct vt_conn c = { .fd = fd };
	const char *msg;
	int ret;

	while ((ret = vt_recv(&c, VT_TIMEOUT_MS, &msg)) == 1) {
		if (vt_continues(msg))
			continue;
		return vt_json_has(msg, "parameters.index") ? 1 : -1;
	}
	return 0;
}

/*
 * A paced stream waiting for a client that does not read pins nothing:
 * unloading its provider ends it at once, with its final reply, which
 * the client finds after the replies it had not read.  The module then
 * comes back.
 */
TEST(unload_ends_the_paced_stream)
{
	struct vt_conn c;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, vt_send(&c, vt_blocking_replay()));
	ASSERT_TRUE(replays_reach(1, VT_TIMEOUT_MS));
	vt_sleep_ms(200);	/* paused: the client reads nothing */
	EXPECT_EQ(0, vt_rmmod(VT_PROVIDER_MODULE, VT_TIMEOUT_MS));
	EXPECT_EQ(1, read_to_final(c.fd));
	vt_close(&c);
	ASSERT_EQ(0, vt_insmod(VT_PROVIDER_MODULE));
	EXPECT_TRUE(replays_reach(0, VT_TIMEOUT_MS));
}

/*
 * Streams kicked every millisecond by their own timers (Monitor), whose
 * clients hang up, stop reading or read on, while the provider is
 * unloaded: the kicks race the ends, and every client that reads gets
 * its final reply; the module goes and comes back, nothing left over.
 */
TEST(unload_races_the_kicks)
{
	enum { N = 12 };
	int i, round, finals, ret;
	struct vt_conn c[N];
	const char *monitor = VT_MORE("Monitor", "{\"interval_ms\":1}");
	const char *msg;

	for (round = 0; round < 3; round++) {
		for (i = 0; i < N; i++) {
			ASSERT_EQ(0, vt_open_ready(&c[i]));
			ASSERT_EQ(0, vt_send(&c[i], monitor));
			ASSERT_EQ(1, vt_recv(&c[i], VT_TIMEOUT_MS, &msg));
		}
		for (i = 0; i < N; i += 3)
			vt_close(&c[i]);	/* hung up */
		vt_sleep_ms(20);
		EXPECT_EQ(0, vt_rmmod(VT_PROVIDER_MODULE, VT_TIMEOUT_MS));
		finals = 0;
		for (i = 1; i < N; i++) {
			if (i % 3 == 0)
				continue;
			while ((ret = vt_recv(&c[i], VT_TIMEOUT_MS, &msg)) == 1 &&
			       vt_continues(msg))
				;
			finals += ret == 1 && vt_json_has(msg, "parameters.tick");
			vt_close(&c[i]);
		}
		EXPECT_EQ(N - N / 3, finals);
		ASSERT_EQ(0, vt_insmod(VT_PROVIDER_MODULE));
	}
}

/* Start streams on @fds that block (a client that does not read);
 * returns how many started, the reply to the first refused in @refused.
 */
static int start_streams(int *fds, int max, char *refused, size_t size)
{
	int i;

	refused[0] = '\0';
	for (i = 0; i < max; i++) {
		struct vt_conn c;
		const char *msg;
		int ret;

		if (vt_open_ready(&c))
			break;
		ret = vt_call(&c, vt_blocking_replay(), &msg);
		if (ret == 1 && !vt_continues(msg)) {
			snprintf(refused, size, "%s", msg);
			vt_close(&c);
			break;
		}
		fds[i] = c.fd;
		c.fd = -1;
		vt_close(&c);
	}
	return i;
}

static void close_all(int *fds, int n)
{
	while (n--)
		close(fds[n]);
}

struct share_ctx {
	long per_user;
};

/* As uid 65534: its share, then TooManyStreams naming it. */
static int nobody_share(void *arg)
{
	const struct share_ctx *ctx = arg;
	long long max_per_user = -1;
	char refused[512];
	int fds[64];
	int n, bad = 0;

	n = start_streams(fds, ctx->per_user + 1, refused, sizeof(refused));
	bad += !KS_OK(n == ctx->per_user);
	bad += !KS_OK(vt_is_error(refused, TOO_MANY));
	bad += !KS_OK(ks_json_int(refused, "parameters.max_per_user",
				  &max_per_user) &&
		      max_per_user == ctx->per_user);
	bad += !KS_OK(!vt_json_has(refused, "parameters.max_per_container"));
	close_all(fds, n);
	/* the streams end with their clients: the share is whole again */
	bad += !KS_OK(replays_reach(0, VT_TIMEOUT_MS));
	n = start_streams(fds, 1, refused, sizeof(refused));
	bad += !KS_OK(n == 1);
	close_all(fds, n);
	return bad;
}

/*
 * A user runs max_streams_per_user streams, one more is refused with
 * TooManyStreams and max_per_user; root (CAP_SYS_ADMIN) is not held to
 * it meanwhile.
 */
TEST(per_user_share)
{
	struct share_ctx ctx = { .per_user = vt_param("max_streams_per_user", 0) };
	char refused[512];
	int fds[2];

	ASSERT_GT(ctx.per_user, 0);
	ASSERT_LE(ctx.per_user, 64);
	ASSERT_TRUE(replays_reach(0, VT_TIMEOUT_MS));
	EXPECT_EQ(0, ks_run_as(KS_NOBODY, KS_NOBODY, nobody_share, &ctx));
	EXPECT_TRUE(replays_reach(0, VT_TIMEOUT_MS));
	/* root holds CAP_SYS_ADMIN: no share */
	EXPECT_EQ(2, start_streams(fds, 2, refused, sizeof(refused)));
	close_all(fds, 2);
	EXPECT_TRUE(replays_reach(0, VT_TIMEOUT_MS));
}

/*
 * The replies a callback sends in a loop go out in batches: 400 short
 * replies of Replay (paced) and of Count (not) take a few writes to the
 * socket each (statistics/sends), not one each, and arrive whole and in
 * order.  Nothing else runs meanwhile, but a write or two more may count.
 */
TEST(callback_replies_batched)
{
	static const char *const calls[] = {
		VT_MORE("Replay", "{\"n\":400,\"size\":0}"),
		VT_MORE("Count", "{\"n\":400}"),
	};
	struct vt_conn c;
	unsigned int k;
	long sends;

	for (k = 0; k < 2; k++) {
		ASSERT_EQ(0, vt_open_ready(&c));
		sends = vt_stat("sends");
		ASSERT_LE(0, sends);
		ASSERT_EQ(0, vt_send(&c, calls[k]));
		EXPECT_EQ(400, read_replay(c.fd, 400, 0, 4096)) TH_LOG("%s", calls[k]);
		sends = vt_stat("sends") - sends;
		EXPECT_LE(2, sends);
		EXPECT_GE(20, sends) TH_LOG("%s", calls[k]);
		vt_close(&c);
	}
}

/*
 * A stream that replies from its own work (Monitor) is not held back:
 * its ticks, one a second, arrive one by one, the first at once.
 */
TEST(work_replies_not_held)
{
	struct vt_conn c;
	const char *msg;
	long long start;

	ASSERT_EQ(0, vt_open_ready(&c));
	start = vt_now_ms();
	ASSERT_EQ(0, vt_send(&c, VT_MORE("Monitor", "{\"interval_ms\":1000}")));
	ASSERT_EQ(1, vt_recv(&c, 5000, &msg));
	EXPECT_TRUE(vt_continues(msg)) TH_LOG("%s", msg);
	EXPECT_GT(5000, vt_now_ms() - start);
	ASSERT_EQ(1, vt_recv(&c, 5000, &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.tick", "2")) TH_LOG("%s", msg);
	vt_close(&c);
}

/* Without "more" Replay is refused before anything counts. */
TEST(needs_more)
{
	struct vt_conn c;
	const char *msg;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, VT_CALL("Replay", "{\"n\":1}"), &msg));
	EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.ExpectedMore"));
	vt_close(&c);
}

/* The limits are listed by GetLimits as the parameters say. */
TEST(limits_listed)
{
	static const char *const names[] = {
		"max_streams", "max_streams_per_user",
		"max_streams_per_container",
	};
	struct vt_conn c;
	const char *msg;
	unsigned int i;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, "{\"method\":\"org.kernel.varlink.GetLimits\"}",
			     &msg));
	for (i = 0; i < 3; i++) {
		long long v = -1;

		EXPECT_TRUE(ks_json_int(msg, vt_fmt("parameters.%s", names[i]), &v));
		EXPECT_EQ(vt_param(names[i], -2), v);
	}
	vt_close(&c);
}

TEST_HARNESS_MAIN
