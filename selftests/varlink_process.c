// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.process (varlink_process.ko): GetProcess against
 * /proc/PID/stat and /proc/PID/status, for a child made to be easy to
 * recognise (its name, ids, threads and memory), a zombie, pid 1 and
 * kthreadd; which processes a caller without CAP_SYS_PTRACE may see;
 * and the ids that are no process.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kernel_state_test.h"

#define IFACE		"org.kernel.process"
#define NOT_FOUND	IFACE ".ProcessNotFound"
#define MIB		(1024LL * 1024)

/* The child's name and ids: real and effective differ on purpose. */
#define CHILD_COMM	"ks-child"
#define CHILD_UID	4321
#define CHILD_EUID	4322
#define CHILD_GID	1234
#define CHILD_EGID	1235
#define CHILD_THREADS	3
#define CHILD_MEMORY	(8 * MIB)

static char *get_process_call(long long pid)
{
	return vt_fmt(KS_CALL(IFACE ".GetProcess", "{\"pid\":%lld}"), pid);
}

/* Call GetProcess(@pid) on @c; returns vt_call()'s result. */
static int get_process(struct vt_conn *c, long long pid, const char **msg)
{
	return vt_call(c, get_process_call(pid), msg);
}

static long long param_int(const char *msg, const char *key)
{
	char path[64];
	long long v;

	snprintf(path, sizeof(path), "parameters.%s", key);
	return ks_json_int(msg, path, &v) ? v : LLONG_MIN;
}

static const char *param_str(const char *msg, const char *key)
{
	char path[64];
	char *s;

	snprintf(path, sizeof(path), "parameters.%s", key);
	s = vt_json_str(msg, path);
	return s ? s : "(missing)";
}

/* ProcessState for the letter in field 3 of /proc/PID/stat. */
static const char *state_name(const char *letter)
{
	static const char *const names[][2] = {
		{ "R", "running" }, { "S", "sleeping" }, { "D", "disk_sleep" },
		{ "T", "stopped" }, { "t", "tracing_stop" }, { "X", "dead" },
		{ "Z", "zombie" }, { "P", "parked" }, { "I", "idle" },
	};
	unsigned int i;

	for (i = 0; letter && i < ARRAY_SIZE(names); i++)
		if (!strcmp(letter, names[i][0]))
			return names[i][1];
	return "(unknown)";
}

/*
 * Compare a reply about @pid with /proc/@pid/stat and status, for the
 * fields that do not move while the process waits; its state is the one
 * /proc showed before the call (@state_before) or after it.
 */
static void expect_matches_proc(struct __test_metadata *_metadata,
				const char *msg, int pid,
				const char *state_before)
{
	const char *state = param_str(msg, "state");

	long long tick_ns = 1000000000LL / sysconf(_SC_CLK_TCK);
	char path[64];

	EXPECT_EQ(pid, param_int(msg, "pid"));
	EXPECT_EQ(ks_stat_num(pid, 4), param_int(msg, "ppid"));
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	EXPECT_STREQ(ks_read_line(path), param_str(msg, "comm"));
	EXPECT_TRUE(!strcmp(state, state_name(state_before)) ||
		    !strcmp(state, state_name(ks_stat_field(pid, 3))))
		TH_LOG("state %s, /proc/%d/stat %s then %s", state, pid,
		       state_before, ks_stat_field(pid, 3));
	EXPECT_EQ(ks_status_num(pid, "Uid:", 0), param_int(msg, "uid"));
	EXPECT_EQ(ks_status_num(pid, "Uid:", 1), param_int(msg, "euid"));
	EXPECT_EQ(ks_status_num(pid, "Gid:", 0), param_int(msg, "gid"));
	EXPECT_EQ(ks_status_num(pid, "Gid:", 1), param_int(msg, "egid"));
	EXPECT_EQ(ks_status_num(pid, "Threads:", 0), param_int(msg, "threads"));
	/* field 22: start time in clock ticks since boot */
	EXPECT_EQ(ks_stat_num(pid, 22), param_int(msg, "start_time") / tick_ns)
		TH_LOG("start_time %lld ns, /proc/%d/stat %lld ticks of %lld ns",
		       param_int(msg, "start_time"), pid, ks_stat_num(pid, 22),
		       tick_ns);
}

/*
 * The child: named CHILD_COMM, with CHILD_* ids, CHILD_THREADS threads
 * and CHILD_MEMORY of touched memory.  Each thread, the leader last,
 * reports its id on @report (in no particular order), then all wait
 * until @hold is closed.
 */
struct child_ctx {
	int report, hold;
};

static void *child_thread(void *arg)
{
	struct child_ctx *ctx = arg;
	pid_t tid = syscall(SYS_gettid);
	char c;

	if (write(ctx->report, &tid, sizeof(tid)) != sizeof(tid))
		_exit(3);
	while (read(ctx->hold, &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

static void child_main(struct child_ctx *ctx)
{
	pthread_t threads[CHILD_THREADS - 1];
	char *mem;
	int i;

	if (prctl(PR_SET_NAME, CHILD_COMM) ||
	    setresgid(CHILD_GID, CHILD_EGID, 0) ||
	    setresuid(CHILD_UID, CHILD_EUID, 0))
		_exit(1);
	mem = malloc(CHILD_MEMORY);
	if (!mem)
		_exit(2);
	memset(mem, 0x5a, CHILD_MEMORY);
	for (i = 0; i < CHILD_THREADS - 1; i++)
		if (pthread_create(&threads[i], NULL, child_thread, ctx))
			_exit(4);
	child_thread(ctx);
	_exit(mem[CHILD_MEMORY - 1] == 0x5a ? 0 : 5);
}

FIXTURE(child) {
	struct vt_conn c;
	pid_t pid;
	pid_t tids[CHILD_THREADS];
	int hold;
};

/* Each test also runs in a time namespace of its own, a day ahead. */
FIXTURE_VARIANT(child) {
	bool time_ns;
};

FIXTURE_VARIANT_ADD(child, host) {};
FIXTURE_VARIANT_ADD(child, time_ns) { .time_ns = true };

FIXTURE_SETUP(child)
{
	struct child_ctx ctx;
	int report[2], hold[2], i;

	self->pid = -1;
	self->hold = -1;
	if (variant->time_ns)
		ASSERT_EQ(0, ks_enter_time_ns(KS_TIME_NS_SECS));
	ASSERT_EQ(0, pipe(report));
	ASSERT_EQ(0, pipe(hold));
	self->pid = fork();
	ASSERT_LE(0, self->pid);
	if (!self->pid) {
		close(report[0]);
		close(hold[1]);
		ctx.report = report[1];
		ctx.hold = hold[0];
		child_main(&ctx);
	}
	close(report[1]);
	close(hold[0]);
	self->hold = hold[1];
	for (i = 0; i < CHILD_THREADS; i++)
		ASSERT_EQ(sizeof(pid_t), read(report[0], &self->tids[i], sizeof(pid_t)));
	close(report[0]);
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(child)
{
	if (self->pid > 0) {
		kill(self->pid, SIGKILL);
		waitpid(self->pid, NULL, 0);
	}
	if (self->hold >= 0)
		close(self->hold);
	vt_close(&self->c);
}

/* Wait until every thread of @pid sleeps: they are on their way there. */
static bool wait_sleeping(int pid)
{
	long long deadline = vt_now_ms() + VT_TIMEOUT_MS;
	char *state;

	do {
		state = ks_stat_field(pid, 3);
		if (state && !strcmp(state, "S") &&
		    ks_status_num(pid, "Threads:", 0) == CHILD_THREADS)
			return true;
		vt_sleep_ms(10);
	} while (vt_now_ms() < deadline);
	return false;
}

TEST_F(child, matches_proc)
{
	long long rss, vmrss;
	const char *msg;

	ASSERT_TRUE(wait_sleeping(self->pid));
	ASSERT_EQ(1, get_process(&self->c, self->pid, &msg));
	ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	ASSERT_EQ(NULL, vt_reply_problem(msg));
	TH_LOG("%s", msg);

	/* what the child made itself to be */
	EXPECT_EQ(self->pid, param_int(msg, "pid"));
	EXPECT_EQ(getpid(), param_int(msg, "ppid"));
	EXPECT_STREQ(CHILD_COMM, param_str(msg, "comm"));
	EXPECT_STREQ("sleeping", param_str(msg, "state"));
	EXPECT_EQ(CHILD_UID, param_int(msg, "uid"));
	EXPECT_EQ(CHILD_EUID, param_int(msg, "euid"));
	EXPECT_EQ(CHILD_GID, param_int(msg, "gid"));
	EXPECT_EQ(CHILD_EGID, param_int(msg, "egid"));
	EXPECT_EQ(CHILD_THREADS, param_int(msg, "threads"));
	rss = param_int(msg, "rss");
	EXPECT_LE(CHILD_MEMORY, rss);

	/* and what /proc says */
	expect_matches_proc(_metadata, msg, self->pid, "S");
	vmrss = ks_status_num(self->pid, "VmRSS:", 0) * 1024;
	EXPECT_LE(vmrss - MIB, rss) TH_LOG("rss %lld, VmRSS %lld", rss, vmrss);
	EXPECT_GE(vmrss + MIB, rss) TH_LOG("rss %lld, VmRSS %lld", rss, vmrss);
}

/* The ids of the child's other threads are not processes. */
TEST_F(child, thread_id_not_found)
{
	const char *msg;
	int i;

	int n = 0;

	for (i = 0; i < CHILD_THREADS; i++) {
		if (self->tids[i] == self->pid)
			continue;
		n++;
		ASSERT_EQ(1, get_process(&self->c, self->tids[i], &msg));
		EXPECT_TRUE(vt_is_error(msg, NOT_FOUND)) TH_LOG("%s", msg);
		EXPECT_EQ(self->tids[i], param_int(msg, "pid"));
	}
	EXPECT_EQ(CHILD_THREADS - 1, n);
}

/* An exited child not yet waited for; once it is, it is not found. */
TEST(zombie)
{
	struct vt_conn c;
	const char *msg;
	siginfo_t info;
	pid_t pid;

	ASSERT_EQ(0, vt_open_ready(&c));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(7);
	/* wait for its exit, but leave it a zombie */
	ASSERT_EQ(0, waitid(P_PID, pid, &info, WEXITED | WNOWAIT));
	ASSERT_EQ(1, get_process(&c, pid, &msg));
	ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_STREQ("zombie", param_str(msg, "state"));
	EXPECT_EQ(0, param_int(msg, "rss"));
	EXPECT_EQ(getpid(), param_int(msg, "ppid"));
	expect_matches_proc(_metadata, msg, pid, "Z");

	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	ASSERT_EQ(1, get_process(&c, pid, &msg));
	EXPECT_TRUE(vt_is_error(msg, NOT_FOUND)) TH_LOG("%s", msg);
	EXPECT_EQ(NULL, vt_reply_problem(msg));
	EXPECT_EQ(pid, param_int(msg, "pid"));
	vt_close(&c);
}

/* pid 1 and kthreadd, which the kernel started: no parent. */
TEST(init_and_kthreadd)
{
	struct vt_conn c;
	const char *msg;
	char *state;
	int pid;

	ASSERT_EQ(0, vt_open_ready(&c));
	for (pid = 1; pid <= 2; pid++) {
		state = ks_stat_field(pid, 3);
		ASSERT_EQ(1, get_process(&c, pid, &msg));
		ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
		EXPECT_EQ(0, param_int(msg, "ppid"));
		EXPECT_EQ(0, param_int(msg, "uid"));
		expect_matches_proc(_metadata, msg, pid, state);
	}
	/* kthreadd is a kernel thread: no memory of its own */
	EXPECT_STREQ("kthreadd", param_str(msg, "comm"));
	EXPECT_EQ(0, param_int(msg, "rss"));
	vt_close(&c);
}

/*
 * Without CAP_SYS_PTRACE, as nobody: its own process is fine; pid 1 and
 * its root parent are not found, exactly as a pid nobody has: the answer
 * tells nothing about which pids exist.
 */
static int as_nobody(void *arg)
{
	pid_t parent = *(pid_t *)arg;
	struct vt_conn c;
	const char *msg;
	int failed = 0;

	failed += !KS_OK(getppid() == parent);
	failed += !KS_OK(vt_open_ready(&c) == 0);

	failed += !KS_OK(get_process(&c, getpid(), &msg) == 1);
	failed += !KS_OK(vt_is_ok(msg));
	failed += !KS_OK(param_int(msg, "pid") == getpid());
	failed += !KS_OK(param_int(msg, "ppid") == parent);
	failed += !KS_OK(param_int(msg, "uid") == KS_NOBODY);
	failed += !KS_OK(param_int(msg, "euid") == KS_NOBODY);
	failed += !KS_OK(param_int(msg, "gid") == KS_NOBODY);
	failed += !KS_OK(param_int(msg, "threads") == 1);

	failed += !KS_OK(get_process(&c, 1, &msg) == 1);
	failed += !KS_OK(!vt_reply_problem(msg));
	failed += !KS_OK(vt_is_error(msg, NOT_FOUND));
	failed += !KS_OK(param_int(msg, "pid") == 1);

	failed += !KS_OK(get_process(&c, parent, &msg) == 1);
	failed += !KS_OK(vt_is_error(msg, NOT_FOUND));
	failed += !KS_OK(param_int(msg, "pid") == parent);

	failed += !KS_OK(get_process(&c, 2147483647, &msg) == 1);
	failed += !KS_OK(vt_is_error(msg, NOT_FOUND));
	failed += !KS_OK(param_int(msg, "pid") == 2147483647);
	vt_close(&c);
	return failed;
}

TEST(unprivileged)
{
	pid_t parent = getpid();

	EXPECT_EQ(0, ks_run_as(KS_NOBODY, KS_NOBODY, as_nobody, &parent));
}

/*
 * What nobody finds is what a /proc mounted with hidepid=invisible shows
 * it: pid 1, kthreadd, the test, and a process of nobody's uids that is
 * not dumpable (saved uid 0, as a set-user-ID
 * program that dropped to nobody leaves it), which ptrace_may_access()
 * denies to nobody.
 */
#define HIDEPID_DIR	"/tmp/ks-hidepid"

struct visible {
	pid_t pids[8];
	int n;
};

static int as_nobody_visible(void *arg)
{
	struct visible *v = arg;
	struct vt_conn c;
	const char *msg;
	int failed = 0, i;

	failed += !KS_OK(vt_open_ready(&c) == 0);
	for (i = 0; i < v->n; i++) {
		bool shown = !access(vt_fmt(HIDEPID_DIR "/%d/stat", v->pids[i]), F_OK);
		bool found;

		failed += !KS_OK(get_process(&c, v->pids[i], &msg) == 1);
		found = vt_is_ok(msg);
		if (!found)
			failed += !KS_OK(vt_is_error(msg, NOT_FOUND));
		if (found != shown)
			fprintf(stderr, "# pid %d: /proc %s it, varlink %s: %s\n",
				v->pids[i], shown ? "shows" : "hides",
				found ? "found it" : "did not", msg);
		failed += found != shown;
	}
	vt_close(&c);
	return failed;
}

TEST(hidepid_invisible)
{
	struct visible v = { .pids = { 1, 2, getpid() }, .n = 3 };
	int go[2], status;
	pid_t child;
	char b;

	ASSERT_EQ(0, mkdir(HIDEPID_DIR, 0755) && errno != EEXIST ? -1 : 0);
	ASSERT_EQ(0, mount("proc", HIDEPID_DIR, "proc", 0, "hidepid=invisible"));
	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		/* ruid = euid = nobody, saved uid 0: not dumpable */
		if (setresgid(KS_NOBODY, KS_NOBODY, KS_NOBODY) ||
		    setresuid(KS_NOBODY, KS_NOBODY, 0))
			_exit(1);
		close(go[1]);
		_exit(read(go[0], &b, 1) == 0 ? 0 : 2);
	}
	close(go[0]);
	v.pids[v.n++] = child;
	EXPECT_EQ(0, ks_run_as(KS_NOBODY, KS_NOBODY, as_nobody_visible, &v));
	close(go[1]);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, status);
	EXPECT_EQ(0, umount(HIDEPID_DIR));
}

/* A pid that was just freed, and one beyond any pid_max. */
TEST(not_found)
{
	static const long long beyond = 2147483647;
	struct vt_conn c;
	const char *msg;
	pid_t pid;

	ASSERT_EQ(0, vt_open_ready(&c));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(0);
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));

	ASSERT_EQ(1, get_process(&c, pid, &msg));
	EXPECT_EQ(NULL, vt_reply_problem(msg));
	EXPECT_TRUE(vt_is_error(msg, NOT_FOUND)) TH_LOG("%s", msg);
	EXPECT_EQ(pid, param_int(msg, "pid"));

	ASSERT_EQ(1, get_process(&c, beyond, &msg));
	EXPECT_TRUE(vt_is_error(msg, NOT_FOUND)) TH_LOG("%s", msg);
	EXPECT_EQ(beyond, param_int(msg, "pid"));
	vt_close(&c);
}

/* Ids that cannot be a pid at all, and a pid that is not an int. */
FIXTURE(invalid) {
	struct vt_conn c;
};

FIXTURE_VARIANT(invalid) {
	const char *params;
};

FIXTURE_VARIANT_ADD(invalid, zero) { .params = "{\"pid\":0}" };
FIXTURE_VARIANT_ADD(invalid, negative) { .params = "{\"pid\":-1}" };
FIXTURE_VARIANT_ADD(invalid, beyond_s32) { .params = "{\"pid\":2147483648}" };
FIXTURE_VARIANT_ADD(invalid, string) { .params = "{\"pid\":\"1\"}" };
FIXTURE_VARIANT_ADD(invalid, fraction) { .params = "{\"pid\":1.5}" };
FIXTURE_VARIANT_ADD(invalid, missing) { .params = "{}" };

FIXTURE_SETUP(invalid)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(invalid)
{
	vt_close(&self->c);
}

TEST_F(invalid, pid)
{
	const char *msg;

	ASSERT_EQ(1, vt_call(&self->c, vt_fmt(KS_CALL(IFACE ".GetProcess", "%s"),
					      variant->params), &msg));
	EXPECT_EQ(NULL, vt_reply_problem(msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.parameter", "\"pid\""))
		TH_LOG("%s", msg);
}

/* The IDL is served, and flat: no arrays or maps that sd-varlink rejects. */
TEST(idl)
{
	struct vt_conn c;
	const char *msg;
	char *idl;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, KS_CALL("org.varlink.service.GetInterfaceDescription",
					 "{\"interface\":\"" IFACE "\"}"), &msg));
	idl = vt_json_str(msg, "parameters.description");
	ASSERT_NE(NULL, idl) TH_LOG("%s", msg);
	EXPECT_NE(NULL, strstr(idl, "interface " IFACE "\n"));
	EXPECT_NE(NULL, strstr(idl, "method GetProcess("));
	EXPECT_NE(NULL, strstr(idl, "error ProcessNotFound (pid: int)\n"));
	EXPECT_EQ(NULL, strchr(idl, '['));
	free(idl);
	vt_close(&c);
}

TEST_HARNESS_MAIN
