// SPDX-License-Identifier: GPL-2.0
/*
 * A client that knows its server, and a server that will not load
 * without its name.  A user who binds @org.kernel.varlink in a network
 * namespace before varlink.ko is loaded there keeps it: kvarlinkctl
 * checks that the peer of that address is the kernel (the credentials
 * its listener shows in SO_PEERCRED: pid 0, root of the initial user
 * namespace) and refuses the impostor, which answers like a server,
 * unless told not to check; it takes the kernel's, from any user and
 * user namespace.  In the initial network namespace, varlink.ko does
 * not load while another socket holds the name, and its message names
 * that socket (socket:[INODE]), its owner and the process that made it
 * listen; once the name is free, it loads.  The tests that unload
 * varlink.ko load it back, with every provider.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"

#define IMPOSTOR_INFO	"{\"parameters\":{\"vendor\":\"impostor\",\"product\":\"impostor\"," \
			"\"version\":\"1\",\"url\":\"none\",\"interfaces\":[\"org.varlink.service\"]}}"
#define OTHER_NAME	"kvarlink-test-other"
#define SQUAT_UID	2001

static struct vt_providers providers;

static int core_unload(void)
{
	int err = vt_providers_unload(&providers);

	if (!err)
		err = vt_rmmod(VT_CORE_MODULE, 60000);
	return err == -ENOENT ? 0 : err;
}

static int core_load(void)
{
	return vt_insmod(VT_CORE_MODULE) ?: vt_providers_load(&providers);
}

/* kvarlinkctl, beside this program */
static const char *ctl_path(void)
{
	static char path[PATH_MAX];
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return "kvarlinkctl";
	exe[n] = '\0';
	snprintf(path, sizeof(path), "%s/kvarlinkctl", dirname(exe));
	return path;
}

/* A server on @name that answers each message with IMPOSTOR_INFO until
 * killed; @ready gets its socket's inode (0 on failure).
 */
static void impostor(const char *name, int ready)
{
	struct sockaddr_un addr;
	socklen_t len = vt_addr(&addr, name, 0);
	unsigned long ino = 0;
	struct stat st;
	char buf[4096];
	int fd, c;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&addr, len) &&
	    !listen(fd, 8) && !fstat(fd, &st))
		ino = st.st_ino;
	if (write(ready, &ino, sizeof(ino)) != sizeof(ino) || !ino)
		_exit(1);
	for (;;) {
		c = accept(fd, NULL, NULL);
		if (c < 0)
			continue;
		while (recv(c, buf, sizeof(buf), 0) > 0)
			if (send(c, IMPOSTOR_INFO, sizeof(IMPOSTOR_INFO), MSG_NOSIGNAL) < 0)
				break;
		close(c);
	}
}

struct squatter {
	pid_t pid;
	unsigned long ino;
	int netns;	/* its network namespace, or -1: this one */
};

/* Start an impostor on @name as @uid, in network and user namespaces of
 * its own if @own_netns.
 */
static int squat(struct squatter *s, const char *name, unsigned int uid,
		 bool own_netns)
{
	int ready[2];

	s->netns = -1;
	s->ino = 0;
	if (pipe(ready))
		return -errno;
	s->pid = fork();
	if (s->pid < 0)
		return -errno;
	if (!s->pid) {
		close(ready[0]);
		if (vt_become(uid) ||
		    (own_netns && unshare(CLONE_NEWUSER | CLONE_NEWNET)))
			_exit(1);
		impostor(name, ready[1]);
	}
	close(ready[1]);
	if (read(ready[0], &s->ino, sizeof(s->ino)) != sizeof(s->ino))
		s->ino = 0;
	close(ready[0]);
	if (!s->ino)
		return -EADDRINUSE;
	if (own_netns)
		s->netns = open(vt_fmt("/proc/%d/ns/net", s->pid), O_RDONLY | O_CLOEXEC);
	return own_netns && s->netns < 0 ? -errno : 0;
}

static void squat_end(struct squatter *s)
{
	if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		waitpid(s->pid, NULL, 0);
	}
	if (s->netns >= 0)
		close(s->netns);
	s->pid = 0;
	s->netns = -1;
}

/* How kvarlinkctl ran */
struct run {
	int netns;		/* enter it first, if not -1 */
	int uid;		/* become it, if not -1 */
	bool userns;		/* then a user namespace of its own */
	const char *argv[8];
	int status;		/* its exit status, -1 if it did not exit */
	char out[4096], err[4096];
};

static void read_all(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;

	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
}

/* Run kvarlinkctl as @r says.  It is opened first: the guest's root
 * directory is root's alone (0700), no path for another user.
 */
static void run_ctl(struct run *r)
{
	int out[2], err[2], status, exe;
	const char *argv[10] = { "kvarlinkctl" };
	pid_t pid;
	int i;

	for (i = 0; r->argv[i]; i++)
		argv[i + 1] = r->argv[i];
	r->status = -1;
	exe = open(ctl_path(), O_RDONLY | O_CLOEXEC);
	if (exe < 0 || pipe(out) || pipe(err))
		return;
	pid = fork();
	if (!pid) {
		dup2(out[1], 1);
		dup2(err[1], 2);
		if ((r->netns >= 0 && setns(r->netns, CLONE_NEWNET)) ||
		    (r->uid >= 0 && vt_become(r->uid)) ||
		    (r->userns && unshare(CLONE_NEWUSER)))
			_exit(126);
		syscall(SYS_execveat, exe, "", argv, environ, AT_EMPTY_PATH);
		_exit(127);
	}
	close(exe);
	close(out[1]);
	close(err[1]);
	read_all(out[0], r->out, sizeof(r->out));
	read_all(err[0], r->err, sizeof(r->err));
	close(out[0]);
	close(err[0]);
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		r->status = WEXITSTATUS(status);
}

FIXTURE(reload) {
	struct squatter s;
};

FIXTURE_SETUP(reload)
{
	ASSERT_TRUE(vt_module_loaded(VT_CORE_MODULE));
	vt_providers_find(&providers);
	self->s.netns = -1;
}

FIXTURE_TEARDOWN(reload)
{
	squat_end(&self->s);
	if (!vt_module_loaded(VT_CORE_MODULE))
		EXPECT_EQ(0, core_load());
	EXPECT_TRUE(vt_module_loaded(VT_PROVIDER_MODULE));
}

/*
 * An unprivileged user's network namespace, whose name the user took
 * while varlink.ko was away: kvarlinkctl there refuses the impostor, and
 * talks to it only when told not to check; on the host it takes the
 * kernel, as root, as a user and in a user namespace of its own.
 */
TEST_F_TIMEOUT(reload, kvarlinkctl_refuses_impostor, 180)
{
	struct run r = { .netns = -1, .uid = -1, .argv = { "info" } };

	ASSERT_EQ(0, core_unload());
	ASSERT_EQ(0, squat(&self->s, VARLINK_SOCKET_NAME, SQUAT_UID, true));
	ASSERT_EQ(0, core_load());

	/* the kernel, as anybody on the host */
	run_ctl(&r);
	EXPECT_EQ(0, r.status) TH_LOG("root: %s%s", r.out, r.err);
	EXPECT_NE(NULL, strstr(r.out, "Linux")) TH_LOG("%s", r.out);
	r.uid = 65534;
	run_ctl(&r);
	EXPECT_EQ(0, r.status) TH_LOG("nobody: %s%s", r.out, r.err);
	r.userns = true;
	run_ctl(&r);
	EXPECT_EQ(0, r.status) TH_LOG("nobody's user namespace: %s%s", r.out, r.err);

	/* the impostor, in its namespace */
	r.netns = self->s.netns;
	r.uid = -1;
	r.userns = false;
	run_ctl(&r);
	EXPECT_EQ(1, r.status) TH_LOG("%s%s", r.out, r.err);
	EXPECT_EQ(NULL, strstr(r.out, "impostor")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.err, "not the kernel")) TH_LOG("%s", r.err);
	/* told not to check */
	r.argv[0] = "--no-peer-check";
	r.argv[1] = "info";
	run_ctl(&r);
	EXPECT_EQ(0, r.status) TH_LOG("%s%s", r.out, r.err);
	EXPECT_NE(NULL, strstr(r.out, "impostor")) TH_LOG("%s", r.out);
}

/*
 * Another address said to be the kernel's (--kernel): checked the same
 * way; without --kernel, another address is any server's.
 */
TEST_F(reload, kvarlinkctl_kernel_address)
{
	struct run r = { .netns = -1, .uid = -1,
			 .argv = { "--kernel", "info", "@" OTHER_NAME } };

	ASSERT_EQ(0, squat(&self->s, OTHER_NAME, 65534, false));
	run_ctl(&r);
	EXPECT_EQ(1, r.status) TH_LOG("%s%s", r.out, r.err);
	EXPECT_NE(NULL, strstr(r.err, "not the kernel")) TH_LOG("%s", r.err);
	r.argv[0] = "info";
	r.argv[1] = "@" OTHER_NAME;
	r.argv[2] = NULL;
	run_ctl(&r);
	EXPECT_EQ(0, r.status) TH_LOG("%s%s", r.out, r.err);
	EXPECT_NE(NULL, strstr(r.out, "impostor")) TH_LOG("%s", r.out);
	r.argv[0] = "--kernel";
	r.argv[1] = "info";
	r.argv[2] = "@" VARLINK_SOCKET_NAME;
	run_ctl(&r);
	EXPECT_EQ(0, r.status) TH_LOG("%s%s", r.out, r.err);
}

/* The kernel log's records since @fd was opened at its end */
static char *kmsg_since(int fd)
{
	static char log[65536];
	size_t len = 0;
	ssize_t n;

	while (len < sizeof(log) - 1 &&
	       (n = read(fd, log + len, sizeof(log) - 1 - len)) > 0)
		len += n;
	log[len] = '\0';
	return log;
}

/*
 * The name taken in the initial network namespace, by uid 65534:
 * varlink.ko does not load (EADDRINUSE), and says whose socket it is;
 * with the name free again, it loads and serves.
 */
TEST_F_TIMEOUT(reload, load_fails_when_squatted, 180)
{
	char want[128];
	const char *log;
	struct vt_conn c;
	int kmsg;

	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, core_unload());
	ASSERT_EQ(0, squat(&self->s, VARLINK_SOCKET_NAME, 65534, false));
	lseek(kmsg, 0, SEEK_END);
	EXPECT_EQ(-EADDRINUSE, vt_insmod(VT_CORE_MODULE));
	EXPECT_FALSE(vt_module_loaded(VT_CORE_MODULE));
	log = kmsg_since(kmsg);
	snprintf(want, sizeof(want), "socket:[%lu] of uid 65534, pid %d (",
		 self->s.ino, self->s.pid);
	EXPECT_NE(NULL, strstr(log, want)) TH_LOG("'%s' not in: %s", want, log);
	close(kmsg);

	squat_end(&self->s);
	ASSERT_EQ(0, core_load());
	ASSERT_EQ(0, vt_open_ready(&c));
	vt_close(&c);
}

TEST_HARNESS_MAIN
