// SPDX-License-Identifier: GPL-2.0
/*
 * No client stalls the server's shared workers, and no container takes
 * more than its share of them.
 *
 * A call served in the client's own task (the fast path) holds the
 * connection while it runs, and a client can keep its task off the CPU
 * there (a CPU quota, SCHED_IDLE, plain contention): the workers that
 * every connection and the listener share must not wait for it.  Kernel
 * code a call runs may wait on a lock a user keeps busy (RTNL): the
 * work items of one container must not fill the workqueue.  Meanwhile a
 * host user's new connections and calls served in a kworker keep their
 * latency:
 *  - inline_holder: hundreds of connections whose senders linger in the
 *    fast path, holding their connection (test_inline_delay_ms, a debugfs
 *    knob of test builds), while a second writer on each queues its
 *    connection's work;
 *  - rtnl_waiters: a container (a network namespace of its own, five
 *    uids) with hundreds of calls waiting for the RTNL that another call
 *    holds;
 *  - cpu_quota: that container's clients (300 connections of five
 *    uids, two writers each) looping on a call served inline under
 *    cpu.max 1000 100000, and without it.
 * Each prints the latency it measured, worst and median.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"

#define INLINE_DELAY	"/sys/kernel/debug/varlink/test_inline_delay_ms"
#define STALL_MS	4000
/* What a probe may take, a new connection and a kworker-served call:
 * tens of ms here, under TCG (each test prints its figures); the bounds
 * leave room for a loaded host, and acf2b2f's module, whose workqueue
 * the container filled, did not answer in 10 s.
 */
#define PROBE_MAX_MS	5000
#define PROBE_MEDIAN_MAX_MS	1000
#define PROBES		10
#define MEMORY_GET	"{\"method\":\"org.kernel.memory.Get\"}"

/* One probe of the host's root: connect, then a call served in a
 * kworker (Slow of 0 ms), answered; its time in ms, or -1.
 */
static long long probe(void)
{
	long long start = vt_now_ms();
	struct vt_conn c;
	const char *msg;
	int ret;

	ret = vt_open(&c);
	if (ret) {
		ksft_print_msg("%s: connect: %s\n", __func__, strerror(-ret));
		return -1;
	}
	ret = vt_call(&c, VT_CALL("Slow", "{\"ms\":0}"), &msg);
	vt_close(&c);
	if (ret == 1 && vt_is_ok(msg))
		return vt_now_ms() - start;
	ksft_print_msg("%s: no answer after %lld ms\n", __func__,
		       vt_now_ms() - start);
	return -1;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* @n probes, a tenth of a second apart: the worst, the median in *@med */
static long long probes(int n, long long *med)
{
	long long t[PROBES];
	int i;

	*med = -1;
	for (i = 0; i < n && i < PROBES; i++) {
		t[i] = probe();
		if (t[i] < 0)
			return -1;
		vt_sleep_ms(100);
	}
	qsort(t, i, sizeof(t[0]), cmp_ll);
	*med = t[i / 2];
	return t[i - 1];
}

struct holder {
	struct vt_conn c;
	pthread_t sender, second;
};

/* A sender served inline, lingering in its sendmsg() (the knob) */
static void *hold_send(void *arg)
{
	struct holder *h = arg;

	vt_send(&h->c, VT_PING);
	return NULL;
}

/* A second writer on the connection, while the first holds it */
static void *hold_second(void *arg)
{
	struct holder *h = arg;

	vt_sleep_ms(STALL_MS / 4);
	vt_send(&h->c, VT_PING);
	return NULL;
}

FIXTURE(stall) {
};

FIXTURE_SETUP(stall)
{
}

FIXTURE_TEARDOWN(stall)
{
}

TEST_F_TIMEOUT(stall, inline_holder, 120)
{
	enum { N = 300 };
	struct holder *h = calloc(N, sizeof(*h));
	long long worst, med;
	int i;

	ASSERT_NE(NULL, h);
	ASSERT_EQ(0, vt_write_file(INLINE_DELAY, vt_fmt("%d", STALL_MS)));
	for (i = 0; i < N; i++) {
		ASSERT_EQ(0, vt_open(&h[i].c));
		ASSERT_EQ(0, pthread_create(&h[i].sender, NULL, hold_send, &h[i]));
		ASSERT_EQ(0, pthread_create(&h[i].second, NULL, hold_second, &h[i]));
	}
	vt_sleep_ms(STALL_MS / 2);
	worst = probes(5, &med);
	ASSERT_EQ(0, vt_write_file(INLINE_DELAY, "0"));
	for (i = 0; i < N; i++) {
		pthread_join(h[i].sender, NULL);
		pthread_join(h[i].second, NULL);
		vt_close(&h[i].c);
	}
	free(h);
	TH_LOG("%d connections held for %d ms: probes worst %lld ms, median %lld ms",
	       N, STALL_MS, worst, med);
	ASSERT_LE(0, worst);
	EXPECT_GT(PROBE_MAX_MS, worst);
	EXPECT_GT(PROBE_MEDIAN_MAX_MS, med);
}

/* A client of the container, forked: @call again and again on @c, once
 * @go is closed (every client of the container is there); a second
 * writer (@writer) sends without reading, so that a call often comes
 * while the first writer's is served in its own task, holding the
 * connection
 */
static void loop_call(struct vt_conn *c, const char *call, int go, bool writer)
{
	const char *msg;
	char b;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	while (read(go, &b, 1) > 0)
		;
	while (writer && !vt_send(c, call))
		;
	while (vt_recv(c, VT_TIMEOUT_MS, &msg) == 1 && !vt_send(c, call))
		;
	_exit(0);
}

/* One uid of the container: @per connections that call @call (once, or
 * in a loop if @loop); @ready gets a byte, 0 once all are sent.
 */
static void container_uid(uid_t uid, int per, const char *call, bool loop,
			  int ready, int go)
{
	struct vt_conn *c = calloc(per, sizeof(*c));
	char ok = 1;
	int i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (!c || vt_become(uid))
		_exit(!write(ready, &ok, 1));
	for (i = 0; i < per; i++)
		if (vt_open(&c[i]) || vt_send(&c[i], call))
			break;
	if (i == per) {
		ok = 0;
		for (i = 0; loop && i < 2 * per; i++) {
			if (!fork()) {
				close(ready);
				loop_call(&c[i / 2], call, go, i % 2);
			}
		}
	}
	if (write(ready, &ok, 1) != 1 || ok)
		_exit(1);
	close(ready);
	pause();
	_exit(0);
}

/* In a child: a container without a user namespace, a network namespace
 * of its own, whose @uids each open @per connections (container_uid())
 */
static void container(int uids, int per, const char *call, bool loop, int ready,
		      int go)
{
	int u;

	if (unshare(CLONE_NEWNET))
		_exit(1);
	for (u = 0; u < uids; u++)
		if (!fork())
			container_uid(60000 + u, per, call, loop, ready, go);
	close(ready);
	pause();
	_exit(0);
}

/* Start a container of @uids; wait until each uid has sent its calls,
 * then let its clients loop
 */
static pid_t container_start(int uids, int per, const char *call, bool loop)
{
	int p[2], go[2], n = 0;
	struct pollfd pfd;
	pid_t pid;
	char b;

	if (pipe(p))
		return -1;
	if (pipe(go)) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	pid = fork();
	if (!pid) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[0]);
		close(go[1]);
		container(uids, per, call, loop, p[1], go[0]);
	}
	close(p[1]);
	close(go[0]);
	pfd = (struct pollfd){ .fd = p[0], .events = POLLIN };
	while (n < uids && poll(&pfd, 1, 60000) == 1 && read(p[0], &b, 1) == 1 &&
	       !b)
		n++;
	close(p[0]);
	close(go[1]);
	if (n == uids)
		return pid;
	kill(-pid, SIGKILL);
	return -1;
}

static void container_end(pid_t pid)
{
	kill(-pid, SIGKILL);
	while (waitpid(-1, NULL, __WALL) > 0)
		;
}

TEST_F_TIMEOUT(stall, rtnl_waiters, 120)
{
	long long worst, med, calls;
	struct vt_conn holder;
	const char *msg;
	pid_t pid;

	ASSERT_EQ(0, vt_open_ready(&holder));
	ASSERT_EQ(0, vt_send(&holder, VT_CALL("HoldRtnl", "{\"ms\":20000}")));
	vt_sleep_ms(200);
	calls = vt_stat("calls");
	pid = container_start(5, 60, VT_CALL("HoldRtnl", "{\"ms\":1}"), false);
	ASSERT_LT(0, pid);
	vt_sleep_ms(2000);
	/* the container's calls wait for RTNL in the server's workers, as
	 * many as its share lets run
	 */
	calls = vt_stat("calls") - calls;
	TH_LOG("%lld calls of the container reached their method", calls);
	EXPECT_LE(vt_param("max_workers_per_container", 64), calls);
	worst = probes(5, &med);
	{
		struct vt_conn r;

		ASSERT_EQ(0, vt_open(&r));
		EXPECT_EQ(1, vt_call(&r, VT_CALL("ReleaseRtnl", "{}"), &msg));
		vt_close(&r);
	}
	EXPECT_EQ(1, vt_recv(&holder, VT_TIMEOUT_MS * 3, &msg));
	vt_close(&holder);
	container_end(pid);
	TH_LOG("300 calls of a container waiting for RTNL: probes worst %lld ms, median %lld ms",
	       worst, med);
	ASSERT_LE(0, worst);
	EXPECT_GT(PROBE_MAX_MS, worst);
	EXPECT_GT(PROBE_MEDIAN_MAX_MS, med);
}

#define CG	"/sys/fs/cgroup/varlink_stall"

/* The container's clients in a cgroup of @quota ("max": none) */
static void quota_run(struct __test_metadata *_metadata, const char *quota)
{
	long long worst, med;
	pid_t pid;
	int i;

	ASSERT_EQ(0, vt_write_file("/sys/fs/cgroup/cgroup.subtree_control", "+cpu"));
	ASSERT_TRUE(!mkdir(CG, 0755) || errno == EEXIST);
	/* the children inherit the cgroup; the quota once they all run */
	ASSERT_EQ(0, vt_write_file(CG "/cpu.max", "max 100000"));
	ASSERT_EQ(0, vt_write_file(CG "/cgroup.procs", "0"));
	pid = container_start(5, 60, MEMORY_GET, true);
	ASSERT_EQ(0, vt_write_file("/sys/fs/cgroup/cgroup.procs", "0"));
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, vt_write_file(CG "/cpu.max", vt_fmt("%s 100000", quota)));
	vt_sleep_ms(1000);
	worst = probes(PROBES, &med);
	/*
	 * Its tasks end at full speed: throttled, 300 of them would take
	 * minutes to exit, and a reader of RCU that the throttle preempted
	 * (CONFIG_PREEMPT) would hold every grace period that long.
	 */
	ASSERT_EQ(0, vt_write_file(CG "/cpu.max", "max 100000"));
	container_end(pid);
	for (i = 0; rmdir(CG) && errno == EBUSY && i < 100; i++)
		vt_sleep_ms(50);	/* its last tasks are being reaped */
	TH_LOG("300 connections looping on memory.Get, cpu.max %s: %s %lld ms, median %lld ms",
	       quota, "probes worst", worst, med);
	ASSERT_LE(0, worst);
	EXPECT_GT(PROBE_MAX_MS, worst);
	EXPECT_GT(PROBE_MEDIAN_MAX_MS, med);
}

TEST_F_TIMEOUT(stall, cpu_quota, 180)
{
	quota_run(_metadata, "1000");
}

TEST_F_TIMEOUT(stall, no_cpu_quota, 180)
{
	quota_run(_metadata, "max");
}

TEST_HARNESS_MAIN
