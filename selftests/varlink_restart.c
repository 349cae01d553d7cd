// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel handlers run where there is no system call.  A /proc/sys or
 * sysfs handler that cannot take RTNL at once (net.ipv6.conf.*.
 * addr_gen_mode and stable_secret, a veth's speed) asks for its system
 * call to be restarted: it sets TIF_SIGPENDING and returns
 * -ERESTARTNOINTR (513).  Read for a caller by the core, in a kworker,
 * nothing restarts it: the caller must get an errno it knows (EAGAIN
 * once the core's tries are spent, or the value), never 513, and the
 * kworker must not be left with a signal pending for the work items it
 * runs next.  RTNL is kept busy by the test provider's HoldRtnl (the
 * sure way), and by link and address dumps of uid 65534 (any user's
 * way).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/if_addr.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "kselftest_harness.h"
#include "kernel_state_test.h"
#include "rtnl_test.h"

#define SYSCTL_GET(name) \
	"{\"method\":\"org.kernel.sysctl.Get\",\"parameters\":{\"name\":\"" name "\"}}"
#define SYSCTL_LIST(name) \
	"{\"method\":\"org.kernel.sysctl.List\",\"parameters\":{\"prefix\":\"" name "\"}}"
#define ADDR_GEN	"net.ipv6.conf.lo.addr_gen_mode"
#define ADDR_GEN_PATH	"sys/net/ipv6/conf/lo/addr_gen_mode"
#define HOLD_RTNL	VT_CALL("HoldRtnl", "{\"ms\":30000}")
#define RELEASE_RTNL	"{\"method\":\"" VT_IFACE ".ReleaseRtnl\"}"
#define READ_SIGNAL(fs, name) \
	VT_CALL("ReadFileSignal", "{\"fs\":\"" fs "\",\"name\":\"" name "\"}")
#define SIGNAL_PENDING	"{\"method\":\"" VT_IFACE ".SignalPending\"}"
/* A veth whose speed sysfs reads under rtnl_trylock() */
#define VETH		"kvr0"
#define VETH_PEER	"kvr1"
#define VETH_SPEED	"devices/virtual/net/" VETH "/speed"
/* Calls made while the others keep RTNL busy */
#define BUSY_CALLS	200
#define BUSY_MS		15000
#define DUMPERS		4
/* Calls that look for a worker left with a signal pending */
#define PROBES		32

/* The errno of a SystemError reply; 0 for another reply, -1 for none */
static long long reply_errno(const char *msg)
{
	long long e;

	if (!msg)
		return -1;
	if (!vt_is_error(msg, "org.kernel.varlink.SystemError"))
		return 0;
	return ks_json_int(msg, "parameters.errno", &e) ? e : -1;
}

/* How many of PROBES calls found their worker with a signal pending */
static int pending_workers(void)
{
	struct vt_conn c;
	const char *msg;
	int i, n = 0;

	if (vt_open_ready(&c))
		return -1;
	for (i = 0; i < PROBES; i++) {
		if (vt_call(&c, SIGNAL_PENDING, &msg) != 1 || !vt_is_ok(msg)) {
			n = -1;
			break;
		}
		n += vt_json_is(msg, "parameters.pending", "true");
	}
	vt_close(&c);
	return n;
}

/* RTNL held by HoldRtnl on @hold until release() */
static int hold(struct vt_conn *hold)
{
	int err = vt_open_ready(hold) ?: vt_send(hold, HOLD_RTNL);

	vt_sleep_ms(300);	/* for it to take RTNL */
	return err;
}

static bool release(struct vt_conn *hold)
{
	struct vt_conn c;
	const char *msg;
	bool ok;

	ok = !vt_open(&c) && vt_call(&c, RELEASE_RTNL, &msg) == 1 &&
	     vt_is_ok(msg) && vt_recv(hold, VT_TIMEOUT_MS, &msg) == 1;
	vt_close(&c);
	vt_close(hold);
	return ok;
}

/*
 * A read in a kworker while RTNL is held.  Where the handler asks for a
 * restart (6.1: rtnl_trylock() or restart_syscall()), the read ends with
 * EAGAIN, not ERESTARTNOINTR, and the kworker has no signal pending
 * after it.  Where it waits for RTNL instead (later kernels, for some of
 * these files), the call waits, bounded by the user's share of workers,
 * and gets the file's own answer once RTNL is free.  Either way, once RTNL is free,
 * the value, and no worker is left with a signal pending.
 */
static void read_while_held(struct __test_metadata *_metadata,
			    struct vt_conn *c, const char *read)
{
	struct vt_conn h;
	const char *msg;
	long long e = -1;

	ASSERT_EQ(0, hold(&h));
	ASSERT_EQ(0, vt_send(c, read));
	if (vt_recv(c, 3000, &msg) == 1) {
		ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
		EXPECT_TRUE(ks_json_int(msg, "parameters.errno", &e) && e == EAGAIN)
			TH_LOG("%s: %s", read, msg);
		EXPECT_TRUE(release(&h));
	} else {
		TH_LOG("%s waits for RTNL on this kernel", read);
		EXPECT_TRUE(release(&h));
		ASSERT_EQ(1, vt_recv(c, VT_TIMEOUT_MS, &msg));
		ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
		/* the file's own answer: veth's speed is EINVAL while down */
		EXPECT_TRUE(ks_json_int(msg, "parameters.errno", &e) &&
			    e >= 0 && e < 512)
			TH_LOG("%s: %s", read, msg);
	}
	EXPECT_TRUE(vt_json_is(msg, "parameters.signal_pending", "false"))
		TH_LOG("%s: %s", read, msg);
}

TEST(read_held_rtnl)
{
	static const char *const reads[] = {
		READ_SIGNAL("proc", ADDR_GEN_PATH),
		READ_SIGNAL("sysfs", VETH_SPEED),
	};
	struct vt_conn c;
	const char *msg;
	unsigned int i;

	link_del(VETH);
	ASSERT_EQ(0, link_add(VETH, "veth", VETH_PEER));
	ASSERT_EQ(0, vt_open_ready(&c));
	for (i = 0; i < ARRAY_SIZE(reads); i++)
		read_while_held(_metadata, &c, reads[i]);
	ASSERT_EQ(1, vt_call(&c, reads[0], &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.errno", "0")) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.signal_pending", "false")) TH_LOG("%s", msg);
	vt_close(&c);
	EXPECT_EQ(0, pending_workers());
	EXPECT_EQ(0, link_del(VETH));
}

/* Get, in a kworker: from a process in a mount namespace of its own,
 * which the inline path leaves to the kworkers.  Its result: the errno
 * of the reply (0 for a value), -1 for no reply.
 */
static int get_in_kworker(void *arg)
{
	struct vt_conn c;
	const char *msg;
	long long e;

	if (unshare(CLONE_NEWNS) || vt_open_ready(&c))
		return 255;
	e = vt_call(&c, SYSCTL_GET(ADDR_GEN), &msg) == 1 ? reply_errno(msg) : -1;
	vt_close(&c);
	return e < 0 || e > 254 ? 254 : e;
}

static int fork_wait(int (*fn)(void *), void *arg)
{
	pid_t pid = fork();
	int status;

	if (!pid)
		_exit(fn(arg));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * sysctl.Get in a kworker and sysctl.List while RTNL is held: Get ends
 * with SystemError EAGAIN, List with no value; no worker is left with a
 * signal pending.
 */
TEST(sysctl_held_rtnl)
{
	struct vt_conn h, c;
	const char *msg;

	ASSERT_EQ(0, hold(&h));
	EXPECT_EQ(EAGAIN, fork_wait(get_in_kworker, NULL));
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, SYSCTL_LIST(ADDR_GEN), &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_FALSE(vt_json_has(msg, "parameters.value")) TH_LOG("%s", msg);
	EXPECT_EQ(0, pending_workers());
	EXPECT_TRUE(release(&h));
	EXPECT_EQ(0, fork_wait(get_in_kworker, NULL));
	ASSERT_EQ(1, vt_call(&c, SYSCTL_LIST(ADDR_GEN), &msg));
	EXPECT_TRUE(vt_json_has(msg, "parameters.value")) TH_LOG("%s", msg);
	vt_close(&c);
}

/* One dump of @type (RTM_GETLINK, RTM_GETADDR), read to its end */
static int dump(int fd, int type)
{
	struct {
		struct nlmsghdr nh;
		struct ifaddrmsg ifa;	/* as long as an rtgenmsg needs */
	} req = {
		.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifa)),
		.nh.nlmsg_type = type,
		.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		.ifa.ifa_family = AF_UNSPEC,
	};
	char buf[16384];
	struct nlmsghdr *nh;
	ssize_t n;

	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n <= 0)
			return n ? -errno : -EPROTO;
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, n);
		     nh = NLMSG_NEXT(nh, n))
			if (nh->nlmsg_type == NLMSG_DONE ||
			    nh->nlmsg_type == NLMSG_ERROR)
				return 0;
	}
}

static void *dumper(void *arg)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	long i;

	/* until the process is killed */
	for (i = 0; fd >= 0; i++)
		if (dump(fd, i % 2 ? RTM_GETADDR : RTM_GETLINK))
			break;
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* uid 65534 keeping RTNL busy with dumps until killed */
static void dumpers(void)
{
	pthread_t t[DUMPERS];
	int i;

	if (vt_become(KS_NOBODY))
		_exit(1);
	for (i = 0; i < DUMPERS; i++)
		pthread_create(&t[i], NULL, dumper, NULL);
	for (i = 0; i < DUMPERS; i++)
		pthread_join(t[i], NULL);
	_exit(0);
}

struct busy {
	int calls, values, errors, internal;
	long long worst;
};

/* Get in a kworker, and List as nobody, while the dumps go on */
static int busy_calls(void *arg)
{
	struct busy b = {};
	struct vt_conn g, l;
	long long start = vt_now_ms(), e;
	const char *msg;
	int fd = *(int *)arg;

	if (unshare(CLONE_NEWNS) || vt_open_ready(&g))
		return 1;
	while (b.calls < BUSY_CALLS && vt_now_ms() - start < BUSY_MS) {
		if (vt_call(&g, SYSCTL_GET(ADDR_GEN), &msg) != 1)
			return 2;
		e = reply_errno(msg);
		b.calls++;
		b.values += !e;
		b.errors += !!e;
		b.internal += e >= 512 || e < 0;
		if (e > b.worst)
			b.worst = e;
	}
	vt_close(&g);
	if (vt_become(KS_NOBODY) || vt_open_ready(&l))
		return 3;
	while (b.calls < 2 * BUSY_CALLS && vt_now_ms() - start < 2 * BUSY_MS) {
		if (vt_call(&l, SYSCTL_LIST(ADDR_GEN), &msg) != 1 || !vt_is_ok(msg))
			return 4;
		b.calls++;
		b.values += vt_json_has(msg, "parameters.value");
	}
	vt_close(&l);
	return write(fd, &b, sizeof(b)) == sizeof(b) ? 0 : 5;
}

/*
 * Any user keeping RTNL busy (uid 65534's link and address dumps) while
 * Get and List read addr_gen_mode in kworkers: no reply carries an errno
 * of the kernel's own, and no worker is left with a signal pending.
 */
FIXTURE(busy) {
	int unused;
};

FIXTURE_SETUP(busy)
{
}

FIXTURE_TEARDOWN(busy)
{
}

TEST_F_TIMEOUT(busy, sysctl_busy_rtnl, 120)
{
	struct busy b = {};
	int fds[2];
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		dumpers();
	vt_sleep_ms(200);
	EXPECT_EQ(0, fork_wait(busy_calls, &fds[1]));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	ASSERT_EQ(sizeof(b), read(fds[0], &b, sizeof(b)));
	close(fds[0]);
	close(fds[1]);
	TH_LOG("%d calls: %d values, %d Get errors, worst errno %lld",
	       b.calls, b.values, b.errors, b.worst);
	EXPECT_EQ(0, b.internal);
	EXPECT_LT(0, b.values);
	EXPECT_EQ(0, pending_workers());
}

TEST_HARNESS_MAIN
