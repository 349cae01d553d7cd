// SPDX-License-Identifier: GPL-2.0
/*
 * Limits and misbehaving clients: message size, JSON depth and tokens,
 * connections per user, clients that do not read, many clients at once,
 * and clients that vanish in the middle of a message, a call or a
 * stream.  After each, the server must still serve everybody else.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"

#define M(name)		"\"method\":\"" VT_IFACE "." name "\""
#define STATUS		"{" M("Status") "}"

/* For tests that need more than the default 30 s on the debug kernel */
FIXTURE(slow) {
};

FIXTURE_SETUP(slow)
{
}

FIXTURE_TEARDOWN(slow)
{
}

/* Whether a new client is served, and promptly. */
static int served(long long *ms)
{
	long long t0 = vt_now_ms();
	struct vt_conn c;
	const char *msg;
	int ret;

	ret = vt_open_ready(&c);
	if (!ret)
		ret = vt_call(&c, VT_PING, &msg) == 1 && vt_is_ok(msg) ? 0 : -EPROTO;
	vt_close(&c);
	if (ms)
		*ms = vt_now_ms() - t0;
	return ret;
}

/*
 * Wait until the provider has no Monitor or Defer call left: those of
 * the clients that went away were cancelled or have finished.
 */
static int provider_idle(int timeout_ms)
{
	long long deadline = vt_now_ms() + timeout_ms;
	struct vt_conn c;
	const char *msg = "";

	if (vt_open_ready(&c))
		return -ECONNRESET;
	do {
		if (vt_call(&c, STATUS, &msg) != 1)
			break;
		if (vt_json_is(msg, "parameters.monitors", "0") &&
		    vt_json_is(msg, "parameters.deferred", "0")) {
			vt_close(&c);
			return 0;
		}
		vt_sleep_ms(50);
	} while (vt_now_ms() < deadline);
	fprintf(stderr, "# provider still busy: %s\n", msg);
	vt_close(&c);
	return -EBUSY;
}

/*
 * Message size: max_message_size bytes, NUL included, is the largest
 * message; one byte more closes the connection, as does a stream of bytes
 * with no NUL at all.
 */
FIXTURE(size) {
	struct vt_conn c;
};

FIXTURE_VARIANT(size) {
	int delta;		/* bytes more than the limit */
	int no_nul;		/* never send the NUL */
	int closes;
};

FIXTURE_VARIANT_ADD(size, at_limit) { .delta = 0 };

FIXTURE_VARIANT_ADD(size, under_limit) { .delta = -1 };

FIXTURE_VARIANT_ADD(size, over_limit) { .delta = 1, .closes = 1 };

FIXTURE_VARIANT_ADD(size, far_over_limit) { .delta = 100000, .closes = 1 };

FIXTURE_VARIANT_ADD(size, no_nul) { .delta = 300000, .no_nul = 1, .closes = 1 };

FIXTURE_SETUP(size)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(size)
{
	vt_close(&self->c);
}

TEST_F(size, message)
{
	size_t len = vt_param("max_message_size", VARLINK_MESSAGE_SIZE_DEFAULT) +
		     variant->delta;
	static const char head[] = "{" M("Ping");
	const char *msg;
	char *buf;
	int err;

	/* the call, padded with spaces, then its NUL */
	buf = malloc(len);
	ASSERT_NE(NULL, buf);
	memset(buf, ' ', len);
	memcpy(buf, head, strlen(head));
	buf[len - 2] = '}';
	buf[len - 1] = variant->no_nul ? ' ' : '\0';
	err = vt_send_raw(&self->c, buf, len);
	free(buf);
	if (variant->closes) {
		/* the server may close before it has read everything */
		EXPECT_TRUE(!err || err == -EPIPE || err == -ECONNRESET);
		ASSERT_EQ(1, vt_closed(&self->c, VT_TIMEOUT_MS))
			TH_LOG("reply: %.200s", self->c.msg);
		return;
	}
	ASSERT_EQ(0, err);
	ASSERT_EQ(1, vt_recv(&self->c, VT_TIMEOUT_MS, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	ASSERT_EQ(1, vt_call(&self->c, VT_PING, &msg));
}

/* JSON nesting and token limits of one message. */
FIXTURE(json_limits) {
	struct vt_conn c;
};

FIXTURE_VARIANT(json_limits) {
	int depth;	/* arrays nested in "any": 0 for a long flat array */
	int delta;	/* nesting or tokens beyond the limit */
	int closes;
};

/*
 * {"method":..,"parameters":{"any":[[...]]}}: the envelope and the
 * parameters are two levels of nesting, each array one more.
 */
FIXTURE_VARIANT_ADD(json_limits, depth_at_limit) { .depth = 1, .delta = 0 };

FIXTURE_VARIANT_ADD(json_limits, depth_over_limit) { .depth = 1, .delta = 1, .closes = 1 };

FIXTURE_VARIANT_ADD(json_limits, depth_far_over) { .depth = 1, .delta = 5000, .closes = 1 };
/*
 * The envelope has 7 tokens (object, key, method, key, parameters, key,
 * array), each array element one more.
 */
FIXTURE_VARIANT_ADD(json_limits, tokens_at_limit) { .delta = 0 };

FIXTURE_VARIANT_ADD(json_limits, tokens_over_limit) { .delta = 1, .closes = 1 };

FIXTURE_SETUP(json_limits)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(json_limits)
{
	vt_close(&self->c);
}

TEST_F(json_limits, message)
{
	long n;
	char *buf, *p;
	const char *msg;
	long i;

	if (variant->depth)
		n = vt_param("max_depth", VARLINK_JSON_DEPTH_DEFAULT) - 2 + variant->delta;
	else
		n = vt_param("max_tokens", VARLINK_JSON_TOKENS_DEFAULT) - 7 + variant->delta;
	buf = malloc(4 * n + 100);
	ASSERT_NE(NULL, buf);
	p = buf + sprintf(buf, "{" M("Echo") ",\"parameters\":{\"any\":");
	if (variant->depth) {
		memset(p, '[', n);
		memset(p + n, ']', n);
		p += 2 * n;
	} else {
		*p++ = '[';
		for (i = 0; i < n; i++)
			p += sprintf(p, i ? ",0" : "0");
		*p++ = ']';
	}
	strcpy(p, "}}");
	ASSERT_EQ(0, vt_send(&self->c, buf));
	if (variant->closes) {
		ASSERT_EQ(1, vt_closed(&self->c, VT_TIMEOUT_MS))
			TH_LOG("reply: %.200s", self->c.msg);
		return;
	}
	ASSERT_EQ(1, vt_recv(&self->c, VT_TIMEOUT_MS, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%.200s", msg);
	p = strstr(buf, "\"parameters\":");
	p += strlen("\"parameters\":");
	p[strlen(p) - 1] = '\0';
	EXPECT_STREQ(p, vt_params(msg));
}

#define TOO_MANY	"org.kernel.varlink.TooManyConnections"

/*
 * max_connections_per_uid connections of one user are served, the next
 * one is refused with TooManyConnections, other users are not affected,
 * and closing one makes room again.
 */
static int per_uid_child(int limit, int ready_fd, int go_fd)
{
	struct vt_conn *c = calloc(limit + 1, sizeof(*c));
	const char *msg;
	char b = 0;
	int i;

	if (!c || vt_become(4242))
		return 10;
	for (i = 0; i < limit; i++) {
		if (vt_open(&c[i]))
			return 11;
		if (vt_call(&c[i], VT_PING, &msg) != 1 || !vt_is_ok(msg)) {
			fprintf(stderr, "# connection %d of %d not served\n", i, limit);
			return 12;
		}
	}
	/* one too many: accepted by the socket, told, and closed */
	if (vt_open(&c[limit]))
		return 13;
	if (vt_refused(&c[limit], limit))
		return 14;
	vt_close(&c[limit]);

	/* the others go on, and root is served meanwhile */
	if (vt_call(&c[0], VT_PING, &msg) != 1)
		return 15;
	if (write(ready_fd, &b, 1) != 1 || read(go_fd, &b, 1) != 1)
		return 16;

	/* one closed, one new: served once the server has seen the close */
	vt_close(&c[0]);
	if (vt_open_ready(&c[0]))
		return 17;
	return 0;
}

TEST_F_TIMEOUT(slow, connections_per_uid, 120)
{
	int limit = vt_param("max_connections_per_uid", 128);
	int ready[2], go[2], status;
	pid_t pid;
	char b = 0;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(per_uid_child(limit, ready[1], go[0]));
	close(ready[1]);
	close(go[0]);
	if (read(ready[0], &b, 1) == 1) {
		EXPECT_EQ(0, served(NULL));
		ASSERT_EQ(1, write(go[1], &b, 1));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * The uids an unprivileged user maps into a user namespace of its own
 * are all that user's: three of them share one max_connections_per_uid.
 * The namespace's owner is uid 4343; root writes its maps (0-99 to
 * 200000-200099), as newuidmap does for a user's subordinate ids.
 */
static int userns_uid(int uid, int n, int ready_fd, int go_fd)
{
	struct vt_conn *c = calloc(n, sizeof(*c));
	const char *msg;
	char served = 0;
	int i;

	if (!c || setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		served = -1;
	for (i = 0; served >= 0 && i < n; i++) {
		/* a refused one may be closed before the call is sent */
		if (vt_open(&c[i]) || (vt_send(&c[i], VT_PING), 0) ||
		    vt_recv(&c[i], VT_TIMEOUT_MS, &msg) != 1)
			served = -2;
		else if (vt_is_ok(msg))
			served++;
		else if (!vt_is_error(msg, TOO_MANY))
			served = -3;
	}
	/* always tell, then hold the connections until told to go */
	if (write(ready_fd, &served, 1) != 1 || read(go_fd, &served, 1) != 0)
		return 23;
	return 0;
}

static int userns_owner(int per_uid, int sync_fd, int ready_fd, int go_fd)
{
	int i, status, bad = 0;
	pid_t pids[3];
	char b;

	if (vt_become(4343) || unshare(CLONE_NEWUSER))
		return 30;
	/* the maps are written by root, then we are root of the namespace */
	if (write(sync_fd, "", 1) != 1 || read(sync_fd, &b, 1) != 1)
		return 31;
	for (i = 0; i < 3; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return 32;
		if (!pids[i])
			_exit(userns_uid(i + 1, per_uid * 2 / 3, ready_fd, go_fd));
	}
	close(go_fd);
	for (i = 0; i < 3; i++)
		bad |= waitpid(pids[i], &status, 0) != pids[i] || status;
	return bad ? 33 : 0;
}

TEST_F_TIMEOUT(slow, connections_user_namespace, 120)
{
	int limit = vt_param("max_connections_per_uid", 128);
	int sync[2], ready[2], go[2], status, total = 0, i;
	pid_t pid;
	char b;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sync));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(go[1]);
		_exit(userns_owner(limit, sync[1], ready[1], go[0]));
	}
	close(go[0]);
	close(ready[1]);
	ASSERT_EQ(1, read(sync[0], &b, 1));
	ASSERT_EQ(0, vt_map_ids(pid, "0 200000 100\n", false));
	ASSERT_EQ(1, write(sync[0], "", 1));

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(1, read(ready[0], &b, 1));
		EXPECT_LE(0, b) TH_LOG("uid %d of the namespace failed", i + 1);
		total += b;
	}
	/* two thirds of the limit each: not one share each */
	EXPECT_EQ(limit, total);
	/* and root is served meanwhile */
	EXPECT_EQ(0, served(NULL));
	close(go[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
}

/*
 * max_connections in all: unprivileged users get all but the last
 * sixteenth, which is kept for openers with CAP_SYS_ADMIN; over either,
 * a connection is refused with TooManyConnections, and closing some
 * makes room.  The connections come from users of their own, 100 each,
 * to stay under the per-user limit.
 */
#define TOTAL_PER_CHILD	100

static int total_child(int user, int n, int ready_fd, int go_fd)
{
	struct vt_conn *c = calloc(n, sizeof(*c));
	const char *msg;
	char ret = 0;
	int i;

	if (!c || vt_become(6000 + user))
		ret = 10;
	for (i = 0; !ret && i < n; i++) {
		if (vt_open(&c[i]) || vt_send(&c[i], VT_PING))
			ret = 11;
	}
	for (i = 0; !ret && i < n; i++) {
		if (vt_recv(&c[i], 60000, &msg) != 1 || !vt_is_ok(msg)) {
			fprintf(stderr, "# user %d, connection %d: '%s'\n", user, i, msg);
			ret = 12;
		}
	}
	/* tell how it went, then hold the connections until told to go */
	if (write(ready_fd, &ret, 1) != 1 || read(go_fd, &ret, 1) != 0)
		return 13;
	return 0;
}

TEST_F_TIMEOUT(slow, connections_total, 300)
{
	long max = vt_param("max_connections", 4096), now;
	long shared = max - max / 16;
	int ready[2], go[2], status, children = 0, i;
	long refused_before = vt_stat("refused");
	struct vt_conn c, *mine;
	pid_t pids[128];
	char b;

	ASSERT_LE(0, vt_stat("connections"));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	/* unprivileged users up to their share; others may still be closing */
	while ((now = vt_stat("connections")) < shared) {
		int n = shared - now < TOTAL_PER_CHILD ? shared - now : TOTAL_PER_CHILD;

		ASSERT_GT(ARRAY_SIZE(pids), children);
		pids[children] = fork();
		ASSERT_LE(0, pids[children]);
		if (!pids[children]) {
			close(ready[0]);
			close(go[1]);
			_exit(total_child(children, n, ready[1], go[0]));
		}
		children++;
		ASSERT_EQ(1, read(ready[0], &b, 1));
		ASSERT_EQ(0, b) TH_LOG("user %d", children - 1);
	}
	TH_LOG("%ld connections, from %d users", now, children);
	EXPECT_EQ(shared, now);

	/* one more of a new unprivileged user: refused */
	pids[children] = fork();
	ASSERT_LE(0, pids[children]);
	if (!pids[children]) {
		if (vt_become(7777) || vt_open(&c))
			_exit(1);
		_exit(vt_refused(&c, shared) ? 2 : 0);
	}
	ASSERT_EQ(pids[children], waitpid(pids[children], &status, 0));
	EXPECT_EQ(0, status);

	/* root takes the reserve, to the last one, and no more */
	mine = calloc(max - shared + 1, sizeof(*mine));
	ASSERT_NE(NULL, mine);
	for (i = 0; vt_stat("connections") < max; i++) {
		const char *msg;

		ASSERT_GE(max - shared, i);
		ASSERT_EQ(0, vt_open(&mine[i]));
		ASSERT_EQ(1, vt_call(&mine[i], VT_PING, &msg));
		ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%d: %s", i, msg);
	}
	ASSERT_EQ(0, vt_open(&c));
	EXPECT_EQ(0, vt_refused(&c, max));
	vt_close(&c);
	EXPECT_LT(refused_before + 1, vt_stat("refused"));
	while (i--)
		vt_close(&mine[i]);
	free(mine);

	/* everybody goes, and there is room again */
	close(go[1]);
	for (i = 0; i < children; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) TH_LOG("child %d", i);
	}
	EXPECT_EQ(0, served(NULL));
}

/*
 * Kernel memory a client makes the server hold is charged to its memory
 * cgroup: nobody, in a cgroup with memory.max = 2 MiB, opens 120
 * connections and sends each 60 KiB of a message it never ends.  The
 * server would hold 7.5 MiB of input buffers: the cgroup reaches its
 * limit, and the connections are closed or the client is killed by the
 * cgroup's OOM killer; root is served throughout.  The same when the
 * client's main thread has exited and another does the work: the
 * process has no thread group leader with memory left, and is charged
 * all the same.  That one runs with fast_path=0, so that the server reads
 * in its kworker: in the client's task (the fast path), what is read
 * would be charged to the client's cgroup anyway.
 */
#define CG_ROOT		"/sys/fs/cgroup"
#define CG		CG_ROOT "/vt-memcg"
#define CG_CONNS	120
#define VT_FAST_PATH	"/sys/module/varlink/parameters/fast_path"
#define CG_BYTES	60000

struct memcg_args {
	int ready_fd;
	int go_fd;
	int leader_exits;	/* the work is done by a thread */
};

/* Cleared by the kernel when the thread group leader has released its
 * memory on its way out (set_tid_address(2)), the other threads going on.
 */
static int leader_tid = 1;

static int memcg_work(const struct memcg_args *a)
{
	static char pad[CG_BYTES];
	struct vt_conn *c = calloc(CG_CONNS, sizeof(*c));
	char open_conns = 0, b;
	int i = 0;

	if (!c)
		return 40;
	while (a->leader_exits && __atomic_load_n(&leader_tid, __ATOMIC_ACQUIRE)) {
		if (i++ == 500)
			return 43;
		vt_sleep_ms(10);
	}
	/* and it is done exiting its memory: the leader has none */
	if (a->leader_exits)
		vt_sleep_ms(100);
	memset(pad, ' ', sizeof(pad));
	pad[0] = '{';
	for (i = 0; i < CG_CONNS; i++) {
		if (vt_open(&c[i]))
			return 41;
		/* the server may close it any time: a write error is fine */
		vt_send_raw(&c[i], pad, sizeof(pad));
	}
	vt_sleep_ms(2000);
	for (i = 0; i < CG_CONNS; i++)
		open_conns += recv(c[i].fd, &b, 1, MSG_DONTWAIT | MSG_PEEK) < 0 &&
			      errno == EAGAIN;
	if (write(a->ready_fd, &open_conns, 1) != 1 || read(a->go_fd, &b, 1) != 0)
		return 42;
	return 0;
}

/* The thread that does the work once the leader has exited; its exit
 * status is the process's.
 */
static void *memcg_thread(void *arg)
{
	_exit(memcg_work(arg));
}

static int memcg_child(struct memcg_args *a)
{
	pthread_t t;

	if (vt_write_file(CG "/cgroup.procs", "0") || vt_become(65534))
		return 40;
	if (!a->leader_exits)
		return memcg_work(a);
	if (pthread_create(&t, NULL, memcg_thread, a))
		return 44;
	/* only this thread exits: the process goes on without its leader */
	syscall(SYS_set_tid_address, &leader_tid);
	syscall(SYS_exit, 0);
	return 45;
}

static long cg_value(const char *file, const char *key)
{
	char buf[4096], *p;
	int fd = open(file, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	if (!key)
		return atol(buf);
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, strlen(key)) && p[strlen(key)] == ' ')
			return atol(p + strlen(key) + 1);
	return -1;
}

static void memory_cgroup_test(struct __test_metadata *_metadata,
			       int leader_exits)
{
	struct memcg_args args = { .leader_exits = leader_exits };
	long fast_path = vt_param("fast_path", 1);
	int ready[2], go[2], status;
	char open_conns = -1;
	long events, killed;
	pid_t pid;

	if (access(CG_ROOT "/cgroup.controllers", F_OK))
		ASSERT_EQ(0, mount("cgroup2", CG_ROOT, "cgroup2", 0, NULL));
	ASSERT_EQ(0, vt_write_file(CG_ROOT "/cgroup.subtree_control", "+memory"));
	ASSERT_EQ(0, mkdir(CG, 0755) && errno != EEXIST ? -errno : 0);
	ASSERT_EQ(0, vt_write_file(CG "/memory.max", "2M"));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	if (leader_exits)
		ASSERT_EQ(0, vt_write_file(VT_FAST_PATH, "0"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(ready[0]);
		close(go[1]);
		args.ready_fd = ready[1];
		args.go_fd = go[0];
		_exit(memcg_child(&args));
	}
	close(ready[1]);
	close(go[0]);
	/* no report if the OOM killer took it */
	if (read(ready[0], &open_conns, 1) != 1)
		open_conns = -1;
	if (leader_exits)
		EXPECT_EQ(0, vt_write_file(VT_FAST_PATH, fast_path ? "1" : "0"));
	events = cg_value(CG "/memory.events", "max");
	killed = cg_value(CG "/memory.events", "oom_kill");
	TH_LOG("open %d of %d, memory.events max %ld oom_kill %ld, memory.peak %ld",
	       open_conns, CG_CONNS, events, killed, cg_value(CG "/memory.peak", NULL));
	EXPECT_LT(0, events);
	EXPECT_TRUE(open_conns < CG_CONNS || killed > 0);
	EXPECT_EQ(0, served(NULL));
	close(go[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(killed > 0 || (WIFEXITED(status) && !WEXITSTATUS(status)))
		TH_LOG("status %d", status);
	EXPECT_EQ(0, rmdir(CG));
}

TEST_F_TIMEOUT(slow, memory_cgroup, 120)
{
	memory_cgroup_test(_metadata, 0);
}

TEST_F_TIMEOUT(slow, memory_cgroup_leader_exited, 120)
{
	memory_cgroup_test(_metadata, 1);
}

/*
 * A client that writes calls and never reads: the server stops reading
 * it once its replies fill the socket (the client's writes then block),
 * serves everybody else meanwhile, and loses nothing once it reads again.
 */
TEST_F_TIMEOUT(slow, client_not_reading, 120)
{
	static const char big[] = "{" M("Echo") ",\"parameters\":{\"string\":\"";
	size_t len = sizeof(big) - 1 + 4000 + 4, sent = 0, off = 0;
	long long ms;
	struct vt_conn c;
	const char *msg;
	int calls = 0, replies, flags;
	char *call;

	call = malloc(len);
	ASSERT_NE(NULL, call);
	memcpy(call, big, sizeof(big) - 1);
	memset(call + sizeof(big) - 1, 'y', 4000);
	memcpy(call + len - 4, "\"}}", 4);	/* and the NUL */

	ASSERT_EQ(0, vt_open_ready(&c));
	flags = fcntl(c.fd, F_GETFL);
	ASSERT_EQ(0, fcntl(c.fd, F_SETFL, flags | O_NONBLOCK));
	for (;;) {
		ssize_t n = send(c.fd, call + off, len - off, MSG_NOSIGNAL);

		if (n < 0 && errno == EAGAIN) {
			/* give the server time to catch up, then try again */
			struct pollfd pfd = { .fd = c.fd, .events = POLLOUT };

			if (poll(&pfd, 1, 1000) == 0)
				break;
			continue;
		}
		ASSERT_LT(0, n) TH_LOG("send: %s", strerror(errno));
		sent += n;
		off += n;
		if (off == len) {
			off = 0;
			calls++;
		}
		/* the server must stop reading long before this */
		ASSERT_GT(64 << 20, sent);
	}
	TH_LOG("the server stopped reading after %d calls, %zu bytes", calls, sent);
	EXPECT_LT(10, calls);

	/* everybody else is still served, promptly */
	EXPECT_EQ(0, served(&ms));
	EXPECT_GT(VT_TIMEOUT_MS / 2, ms);

	/* finish the call that was cut, then read every reply */
	ASSERT_EQ(0, fcntl(c.fd, F_SETFL, flags));
	if (off) {
		ASSERT_EQ(0, vt_send_raw(&c, call + off, len - off));
		calls++;
	}
	for (replies = 0; replies < calls; replies++) {
		ASSERT_EQ(1, vt_recv(&c, VT_TIMEOUT_MS, &msg)) TH_LOG("reply %d", replies);
		ASSERT_TRUE(vt_is_ok(msg));
		ASSERT_EQ(4000 + strlen("{\"parameters\":{\"string\":\"\"}}"), strlen(msg));
	}
	ASSERT_EQ(1, vt_call(&c, VT_PING, &msg));
	EXPECT_TRUE(vt_is_ok(msg));
	vt_close(&c);
}

/*
 * A stream to a client that does not read piles up in the server; past
 * max_output the server closes the connection, and the provider learns
 * that nobody listens.
 */
TEST_F_TIMEOUT(slow, stream_not_read, 120)
{
	struct vt_conn c;
	const char *msg;
	int n = 0, ret;
	struct pollfd pfd = { .events = POLLRDHUP };

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, vt_send(&c, VT_MORE("Count", "{\"n\":1048576}")));
	/* without reading anything, wait for the server to hang up */
	pfd.fd = c.fd;
	ASSERT_EQ(1, poll(&pfd, 1, 60000));
	ASSERT_TRUE(pfd.revents & (POLLRDHUP | POLLHUP));
	/* what was sent before the close arrives, then the end, no final reply */
	while ((ret = vt_recv(&c, VT_TIMEOUT_MS, &msg)) == 1) {
		ASSERT_TRUE(vt_continues(msg)) TH_LOG("%s", msg);
		n++;
	}
	/* the close may cut the last message short */
	EXPECT_TRUE(ret == 0 || ret == -EPROTO) TH_LOG("%d", ret);
	EXPECT_GT(1048576, n);
	TH_LOG("%d replies before the connection was closed", n);
	vt_close(&c);
	EXPECT_EQ(0, served(NULL));
}

/*
 * 500 clients at once: 5 users with 100 connections each, all connected
 * before any sends its call.
 */
#define CLIENT_USERS	5
#define CLIENTS_PER_USER 100

static int clients_child(int user, int ready_fd, int go_fd)
{
	struct vt_conn *c = calloc(CLIENTS_PER_USER, sizeof(*c));
	const char *msg;
	char b = 0;
	int i;

	if (!c || vt_become(5000 + user))
		return 10;
	for (i = 0; i < CLIENTS_PER_USER; i++)
		if (vt_open(&c[i]))
			return 11;
	if (write(ready_fd, &b, 1) != 1 || read(go_fd, &b, 1) != 0)
		return 12;
	for (i = 0; i < CLIENTS_PER_USER; i++) {
		char *call = vt_fmt(VT_CALL("Echo", "{\"string\":\"%d-%d\"}"), user, i);

		if (vt_send(&c[i], call))
			return 13;
		free(call);
	}
	for (i = 0; i < CLIENTS_PER_USER; i++) {
		char *want = vt_fmt("{\"string\":\"%d-%d\"}", user, i);

		if (vt_recv(&c[i], 60000, &msg) != 1 || strcmp(want, vt_params(msg))) {
			fprintf(stderr, "# client %d-%d: '%s'\n", user, i, msg);
			return 14;
		}
		free(want);
		vt_close(&c[i]);
	}
	return 0;
}

TEST_F_TIMEOUT(slow, many_clients, 300)
{
	pid_t pids[CLIENT_USERS];
	int ready[2], go[2], status, i;
	char b;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	for (i = 0; i < CLIENT_USERS; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i]) {
			close(go[1]);
			close(ready[0]);
			_exit(clients_child(i, ready[1], go[0]));
		}
	}
	close(ready[1]);
	close(go[0]);
	for (i = 0; i < CLIENT_USERS; i++)
		if (read(ready[0], &b, 1) != 1)
			break;
	EXPECT_EQ(CLIENT_USERS, i);
	close(go[1]);	/* go */
	for (i = 0; i < CLIENT_USERS; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("user %d", i);
	}
	EXPECT_EQ(0, served(NULL));
}

/*
 * Clients that go away at the worst moment.  Afterwards, the server
 * serves others promptly, and the provider's calls have all ended:
 * cancelled streams and deferred replies that reached nobody.
 */
FIXTURE(vanish) {
	struct vt_conn c;
};

FIXTURE_VARIANT(vanish) {
	const char *data;	/* sent, then the client closes */
	size_t len;
	int read_replies;	/* replies read before closing */
	int half_close;		/* shutdown(SHUT_WR) first, read until the end */
	int final_replies;	/* replies without continues then */
};

#define DATA(s)	.data = (s), .len = sizeof(s) - 1

FIXTURE_VARIANT_ADD(vanish, mid_message) {
	DATA("{\"method\":\"" VT_IFACE ".Pi"),
};

FIXTURE_VARIANT_ADD(vanish, before_nul) {
	DATA(VT_PING),
};

FIXTURE_VARIANT_ADD(vanish, monitor) {
	DATA("{" M("Monitor") ",\"more\":true,\"parameters\":{\"interval_ms\":5}}\0"),
	.read_replies = 3,
};

FIXTURE_VARIANT_ADD(vanish, monitor_unread) {
	DATA("{" M("Monitor") ",\"more\":true,\"parameters\":{\"interval_ms\":1}}\0"),
};

FIXTURE_VARIANT_ADD(vanish, monitor_then_calls) {
	DATA("{" M("Monitor") ",\"more\":true,\"parameters\":{\"interval_ms\":5}}\0"
	     VT_PING "\0" VT_PING "\0"),
	.read_replies = 2,
};

FIXTURE_VARIANT_ADD(vanish, stream) {
	DATA("{" M("Count") ",\"more\":true,\"parameters\":{\"n\":1048576}}\0"),
	.read_replies = 10,
};

FIXTURE_VARIANT_ADD(vanish, stream_unread) {
	DATA("{" M("Count") ",\"more\":true,\"parameters\":{\"n\":1048576}}\0"),
};

FIXTURE_VARIANT_ADD(vanish, deferred) {
	DATA("{" M("Defer") ",\"parameters\":{\"delay_ms\":300,\"value\":\"lost\"}}\0"),
};

FIXTURE_VARIANT_ADD(vanish, deferred_then_calls) {
	DATA("{" M("Defer") ",\"parameters\":{\"delay_ms\":200}}\0" VT_PING "\0"),
};

FIXTURE_VARIANT_ADD(vanish, slow) {
	DATA("{" M("Slow") ",\"parameters\":{\"ms\":300}}\0"),
};

FIXTURE_VARIANT_ADD(vanish, replies_unread) {
	DATA(VT_PING "\0" VT_PING "\0" VT_PING "\0" VT_PING "\0" VT_PING "\0"
	     "{" M("Big") ",\"parameters\":{\"size\":100000}}\0"
	     "{" M("Big") ",\"parameters\":{\"size\":100000}}\0"
	     "{" M("Big") ",\"parameters\":{\"size\":100000}}\0"),
};

/* Half-closed: what was sent is answered, then the server closes. */
FIXTURE_VARIANT_ADD(vanish, half_close_mid_message) {
	DATA("{\"method\":\"" VT_IFACE ".Pi"),
	.half_close = 1,
};

FIXTURE_VARIANT_ADD(vanish, half_close_after_calls) {
	DATA(VT_PING "\0" VT_PING "\0" VT_PING "\0"),
	.half_close = 1,
	.final_replies = 3,
};

FIXTURE_VARIANT_ADD(vanish, half_close_deferred) {
	DATA("{" M("Defer") ",\"parameters\":{\"delay_ms\":200}}\0" VT_PING "\0"),
	.half_close = 1,
	.final_replies = 2,
};

FIXTURE_VARIANT_ADD(vanish, half_close_stream) {
	DATA("{" M("Count") ",\"more\":true,\"parameters\":{\"n\":100}}\0"),
	.half_close = 1,
	.final_replies = 1,
};

FIXTURE_SETUP(vanish)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(vanish)
{
	vt_close(&self->c);
}

TEST_F_TIMEOUT(vanish, others_served, 60)
{
	int finals = 0, ret;
	const char *msg;
	long long ms;
	int i;

	ASSERT_EQ(0, vt_send_raw(&self->c, variant->data, variant->len));
	for (i = 0; i < variant->read_replies; i++) {
		ASSERT_EQ(1, vt_recv(&self->c, VT_TIMEOUT_MS, &msg));
		ASSERT_TRUE(vt_continues(msg)) TH_LOG("%s", msg);
	}
	if (variant->half_close) {
		ASSERT_EQ(0, shutdown(self->c.fd, SHUT_WR));
		while ((ret = vt_recv(&self->c, VT_TIMEOUT_MS, &msg)) == 1)
			finals += !vt_continues(msg);
		EXPECT_EQ(0, ret);
		EXPECT_EQ(variant->final_replies, finals);
	}
	vt_close(&self->c);

	EXPECT_EQ(0, served(&ms));
	EXPECT_GT(VT_TIMEOUT_MS / 2, ms);
	EXPECT_EQ(0, provider_idle(VT_TIMEOUT_MS));
}

/* Many clients vanishing in every way at once, twice. */
TEST_F_TIMEOUT(slow, vanish_storm, 120)
{
	static const char *const calls[] = {
		"{" M("Monitor") ",\"more\":true,\"parameters\":{\"interval_ms\":1}}",
		"{" M("Count") ",\"more\":true,\"parameters\":{\"n\":100000}}",
		"{" M("Defer") ",\"parameters\":{\"delay_ms\":50}}",
		"{" M("Slow") ",\"parameters\":{\"ms\":20}}",
		"{\"method\":\"org.varlink.service.GetInfo\"}",
		"{\"method\":\"" VT_IFACE,
	};
	struct vt_conn c[48];
	int round, i;

	for (round = 0; round < 2; round++) {
		for (i = 0; i < ARRAY_SIZE(c); i++) {
			ASSERT_EQ(0, vt_open(&c[i]));
			const char *call = calls[i % ARRAY_SIZE(calls)];
			size_t len = strlen(call);

			/* a call with its NUL, or half a one without; over the
			 * per-user limit, the server closes at once
			 */
			vt_send_raw(&c[i], call, call[len - 1] == '}' ? len + 1 : len);
		}
		vt_sleep_ms(50);
		for (i = 0; i < ARRAY_SIZE(c); i++)
			vt_close(&c[i]);
		EXPECT_EQ(0, served(NULL));
	}
	EXPECT_EQ(0, provider_idle(VT_TIMEOUT_MS));
}

/*
 * A varlink client never sends descriptors, and the server refuses any:
 * since 6.16 the client's sendmsg() fails (EPERM), before it the server
 * closes the connection at once.  A descriptor the server left queued
 * while a call is in flight (here a Monitor stream the client does not
 * read) would keep it until the server reads again; the connection's
 * own descriptor, a cycle through the server's kernel socket that the
 * unix garbage collector does not see, would keep the connection open
 * after its client is gone, until the module is unloaded.  Sent by
 * nobody, in a child that exits then; with a call in flight or on an
 * idle connection; the connection's own descriptor or a pipe's.
 */
FIXTURE(passed_fd) {
};

FIXTURE_VARIANT(passed_fd) {
	int in_flight;		/* a stream the client does not read */
	int own;		/* the connection's descriptor, else a pipe's */
};

FIXTURE_VARIANT_ADD(passed_fd, in_flight_own) { .in_flight = 1, .own = 1 };

FIXTURE_VARIANT_ADD(passed_fd, in_flight_pipe) { .in_flight = 1 };

FIXTURE_VARIANT_ADD(passed_fd, idle_own) { .own = 1 };

FIXTURE_VARIANT_ADD(passed_fd, idle_pipe) { };

FIXTURE_SETUP(passed_fd)
{
}

FIXTURE_TEARDOWN(passed_fd)
{
}

/* Send @msg with its NUL, and @fd along with it.  Returns 0 or -errno. */
static int send_with_fd(struct vt_conn *c, const char *msg, int fd)
{
	char ctl[CMSG_SPACE(sizeof(int))] = {};
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = strlen(msg) + 1 };
	struct msghdr mh = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = ctl,
		.msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(c->fd, &mh, MSG_NOSIGNAL) == (ssize_t)iov.iov_len ? 0 : -errno;
}

/* The child: 0 if the server closed the connection, 1 if sendmsg() was
 * refused, 2 if the connection stayed open; more on other errors.
 */
static int passed_fd_child(int in_flight, int pipe_fd)
{
	const char *msg;
	struct vt_conn c;
	int err;

	if (vt_become(65534) || vt_open_ready(&c))
		return 40;
	if (in_flight) {
		if (vt_send(&c, VT_MORE("Monitor", "{\"interval_ms\":200}")) ||
		    vt_recv(&c, VT_TIMEOUT_MS, &msg) != 1 || !vt_continues(msg))
			return 41;
	}
	err = send_with_fd(&c, VT_PING, pipe_fd >= 0 ? pipe_fd : c.fd);
	if (err == -EPERM)
		return 1;
	if (err)
		return 42;
	if (in_flight)
		return 0;	/* and the server is not reading */
	switch (vt_closed(&c, 3000)) {
	case 1:
		return 0;
	case 0:
		fprintf(stderr, "# answered: %s\n", c.msg);
		return 2;
	default:
		return 2;
	}
}

TEST_F_TIMEOUT(passed_fd, refused, 60)
{
	long before = vt_stat("connections"), now = before;
	long errors = vt_stat("protocol_errors");
	long long deadline;
	int p[2] = { -1, -1 }, status;
	struct pollfd pfd;
	pid_t pid;

	ASSERT_LE(0, before);
	ASSERT_NE(SIG_ERR, signal(SIGPIPE, SIG_IGN));
	if (!variant->own)
		ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (p[1] >= 0)
			close(p[1]);
		_exit(passed_fd_child(variant->in_flight, p[0]));
	}
	if (p[0] >= 0)
		close(p[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("status %d", status);
	TH_LOG("%s", WEXITSTATUS(status) == 1 ? "sendmsg() refused the descriptor" :
	       WEXITSTATUS(status) ? "the connection stayed open" :
	       variant->in_flight ? "sent, the client exited" :
	       "the server closed the connection");
	ASSERT_GT(2, WEXITSTATUS(status)) TH_LOG("child %d", WEXITSTATUS(status));

	/* the connection is gone within a couple of seconds */
	deadline = vt_now_ms() + 3000;
	while ((now = vt_stat("connections")) > before && vt_now_ms() < deadline)
		vt_sleep_ms(20);
	EXPECT_GE(before, now) TH_LOG("connections %ld, before %ld", now, before);
	/* and the pipe's read end with it: its write end has no reader */
	if (p[1] >= 0) {
		pfd = (struct pollfd){ .fd = p[1], .events = POLLOUT };
		while (poll(&pfd, 1, 0) == 1 && !(pfd.revents & POLLERR) &&
		       vt_now_ms() < deadline)
			vt_sleep_ms(20);
		EXPECT_TRUE(pfd.revents & POLLERR) TH_LOG("the pipe is still read");
		close(p[1]);
	}
	/* a protocol error when the server closed it */
	if (!WEXITSTATUS(status))
		EXPECT_LT(errors, vt_stat("protocol_errors"));
	EXPECT_EQ(0, served(NULL));
}

/*
 * A descriptor that a read of the server finds before its writer's check
 * does: the writer lingers before the check (test_fds_delay_ms, a
 * debugfs knob of test builds), a call in flight ends meanwhile, and the
 * server reads on.  The call that came with the descriptor is not
 * served: the connection is closed, as a protocol error, and the
 * descriptor released.
 */
#define FDS_DELAY	"/sys/kernel/debug/varlink/test_fds_delay_ms"

TEST(passed_fd_read_first)
{
	long errors = vt_stat("protocol_errors");
	long long deadline;
	int p[2], err, replies = 0;
	struct pollfd pfd;
	struct vt_conn c;
	const char *msg;

	ASSERT_NE(SIG_ERR, signal(SIGPIPE, SIG_IGN));
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, vt_write_file(FDS_DELAY, "1500"));
	/* served in this task once it lingered; it ends 100 ms later */
	err = vt_send(&c, "{" VT_M("Defer") ",\"parameters\":{\"delay_ms\":100}}");
	/* the server reads this while this task lingers */
	if (!err)
		err = send_with_fd(&c, VT_PING, p[0]);
	close(p[0]);
	ASSERT_EQ(0, vt_write_file(FDS_DELAY, "0"));
	if (err == -EPERM) {
		TH_LOG("sendmsg() refused the descriptor");
		return;
	}
	ASSERT_EQ(0, err);
	while ((err = vt_recv(&c, VT_TIMEOUT_MS, &msg)) == 1)
		replies++;
	/* Defer's reply at most, then the end */
	EXPECT_EQ(0, err);
	EXPECT_GE(1, replies) TH_LOG("the call with the descriptor was served");
	EXPECT_LT(errors, vt_stat("protocol_errors"));
	/* the pipe's read end is released: its write end has no reader */
	pfd = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	deadline = vt_now_ms() + 3000;
	while (poll(&pfd, 1, 0) == 1 && !(pfd.revents & POLLERR) &&
	       vt_now_ms() < deadline)
		vt_sleep_ms(20);
	EXPECT_TRUE(pfd.revents & POLLERR) TH_LOG("the pipe is still read");
	close(p[1]);
	vt_close(&c);
	EXPECT_EQ(0, served(NULL));
}

TEST_HARNESS_MAIN
