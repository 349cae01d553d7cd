// SPDX-License-Identifier: GPL-2.0
/*
 * Unloading the core, varlink.ko, with clients connected; it runs last.
 *
 * While a provider is loaded, the core refuses to go (EBUSY or EAGAIN)
 * and keeps serving.  With the providers gone, it unloads with clients
 * connected, idle, in the middle of a message or with replies unread:
 * each sees its connection closed, and the name is free again.  Then the
 * core and every provider are loaded again and serve new clients.  A
 * process that takes the name in a network namespace meanwhile keeps it,
 * and the namespace shows it is not the kernel's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"

#define M(name)		"\"method\":\"" VT_IFACE "." name "\""

/* Every provider module: they use the core, and must go first */
static struct vt_providers providers;

FIXTURE(core) {
	struct vt_conn idle, half, monitor, pipelined;
};

FIXTURE_SETUP(core)
{
	int i;

	ASSERT_TRUE(vt_module_loaded(VT_CORE_MODULE));
	vt_providers_find(&providers);
	for (i = 0; i < providers.n; i++)
		TH_LOG("provider: %s", providers.name[i]);
	ASSERT_TRUE(vt_module_loaded(VT_PROVIDER_MODULE));
	ASSERT_EQ(0, vt_open_ready(&self->idle));
	ASSERT_EQ(0, vt_open_ready(&self->half));
	ASSERT_EQ(0, vt_open_ready(&self->monitor));
	ASSERT_EQ(0, vt_open_ready(&self->pipelined));
}

FIXTURE_TEARDOWN(core)
{
	vt_close(&self->idle);
	vt_close(&self->half);
	vt_close(&self->monitor);
	vt_close(&self->pipelined);
	/* leave everything loaded, as the guest expects */
	if (!vt_module_loaded(VT_CORE_MODULE))
		vt_insmod(VT_CORE_MODULE);
	vt_providers_load(&providers);
}

TEST_F_TIMEOUT(core, unload_with_clients, 120)
{
	struct vt_conn c;
	const char *msg;
	int ret, fd;

	/* a provider depends on the core: the core stays, and serves */
	ret = vt_delete_module(VT_CORE_MODULE);
	EXPECT_TRUE(ret == -EBUSY || ret == -EAGAIN) TH_LOG("%s", strerror(-ret));
	ASSERT_EQ(1, vt_call(&self->idle, VT_PING, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);

	ASSERT_EQ(0, vt_send(&self->monitor, VT_MORE("Monitor", "{\"interval_ms\":20}")));
	ASSERT_EQ(1, vt_recv(&self->monitor, VT_TIMEOUT_MS, &msg));
	ASSERT_TRUE(vt_continues(msg)) TH_LOG("%s", msg);
	ASSERT_EQ(0, vt_providers_unload(&providers));

	/* the stream ended: a final reply, an error, or a closed connection */
	while ((ret = vt_recv(&self->monitor, VT_TIMEOUT_MS, &msg)) == 1 &&
	       vt_continues(msg))
		;
	EXPECT_LE(0, ret) TH_LOG("the stream hangs");

	/* clients idle, in the middle of a message, with replies unread */
	ASSERT_EQ(0, vt_send_raw(&self->half, "{\"method\":\"org.var", 18));
	for (ret = 0; ret < 3; ret++)
		ASSERT_EQ(0, vt_send(&self->pipelined,
				     "{\"method\":\"org.varlink.service.GetInfo\"}"));
	vt_sleep_ms(200);	/* replies wait, unread */
	ASSERT_EQ(0, vt_rmmod(VT_CORE_MODULE, 60000));
	ASSERT_FALSE(vt_module_loaded(VT_CORE_MODULE));

	/* every connection is closed, the name is free */
	EXPECT_EQ(1, vt_closed(&self->idle, VT_TIMEOUT_MS));
	EXPECT_EQ(1, vt_closed(&self->half, VT_TIMEOUT_MS));
	while ((ret = vt_recv(&self->pipelined, VT_TIMEOUT_MS, &msg)) == 1)
		EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_EQ(0, ret);
	vt_close(&self->monitor);
	EXPECT_FALSE(vt_socket_listed());
	fd = vt_connect();
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(ECONNREFUSED, errno);
	if (fd >= 0)
		close(fd);

	/* and back */
	ASSERT_EQ(0, vt_insmod(VT_CORE_MODULE));
	ASSERT_TRUE(vt_socket_listed());
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, VT_PING, &msg));
	EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.InterfaceNotFound"))
		TH_LOG("%s", msg);
	ASSERT_EQ(0, vt_providers_load(&providers));
	ASSERT_EQ(1, vt_call(&c, VT_PING, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	vt_close(&c);
}

/*
 * Unload while a client's task is still in the core's code: its call was
 * served in its own sendmsg() (the fast path), and it lingers there
 * (test_sender_delay_ms, a debugfs knob of test builds).  Unload waits for it to leave; it gets its
 * reply, and nothing crashes.
 */
#define DELAY_PARAM	"/sys/kernel/debug/varlink/test_sender_delay_ms"

TEST_F_TIMEOUT(core, unload_racing_a_sender, 120)
{
	long long t0, waited;
	int status, out[2];
	struct vt_conn c;
	const char *msg;
	pid_t pid;
	char b;

	vt_close(&self->idle);
	ASSERT_EQ(0, vt_providers_unload(&providers));
	ASSERT_EQ(0, vt_write_file(DELAY_PARAM, "1500"));
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, pipe(out));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* returns once the sender has left conn_data_ready() */
		if (vt_send(&c, "{\"method\":\"org.varlink.service.GetInfo\"}"))
			_exit(1);
		if (write(out[1], "", 1) != 1)
			_exit(2);
		_exit(vt_recv(&c, VT_TIMEOUT_MS, &msg) == 1 && vt_is_ok(msg) ? 0 : 3);
	}
	vt_sleep_ms(300);	/* the child is in its delay now */
	t0 = vt_now_ms();
	ASSERT_EQ(0, vt_rmmod(VT_CORE_MODULE, 60000));
	waited = vt_now_ms() - t0;
	ASSERT_FALSE(vt_module_loaded(VT_CORE_MODULE));
	/* unload returned only after the sender left */
	ASSERT_EQ(1, read(out[0], &b, 1));
	TH_LOG("unload took %lld ms", waited);
	EXPECT_LT(800, waited);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	/* it was served before it lingered: its reply is there */
	EXPECT_EQ(0, status);
	vt_close(&c);
}

/* Load and unload the core a few times, with a client each time. */
TEST_F_TIMEOUT(core, cycles, 120)
{
	struct vt_conn c;
	const char *msg;
	int i;

	vt_close(&self->idle);
	vt_close(&self->half);
	vt_close(&self->monitor);
	vt_close(&self->pipelined);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, vt_providers_unload(&providers));
		ASSERT_EQ(0, vt_open_ready(&c));
		ASSERT_EQ(0, vt_rmmod(VT_CORE_MODULE, 60000));
		EXPECT_EQ(1, vt_closed(&c, VT_TIMEOUT_MS));
		vt_close(&c);
		ASSERT_EQ(0, vt_insmod(VT_CORE_MODULE));
		ASSERT_EQ(0, vt_providers_load(&providers));
		ASSERT_EQ(0, vt_open_ready(&c));
		ASSERT_EQ(1, vt_call(&c, "{\"method\":\"org.varlink.service.GetInfo\"}",
				     &msg));
		EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
		vt_close(&c);
	}
}

/*
 * A squatter: a process that binds @org.kernel.varlink in a network
 * namespace of its own while the core is unloaded keeps the name when
 * the core loads again.  Its namespace is then unserved, and it shows:
 * /proc/net/varlink there says "listening 0", a client's SO_PEERCRED
 * names the squatter (a process, never pid 0), and the kernel log has a
 * warning that names the namespace as net:[INODE].
 */
static int squat(int ready, int go)
{
	struct sockaddr_un addr;
	socklen_t len = vt_addr(&addr, VARLINK_SOCKET_NAME, 0);
	char ret = 0, b;
	int fd;

	/* the socket is of the namespace it is made in */
	fd = unshare(CLONE_NEWNET) ? -1 : socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 ||
	    bind(fd, (struct sockaddr *)&addr, len) || listen(fd, 8))
		ret = 1;
	if (write(ready, &ret, 1) != 1 || ret)
		return 1;
	/* connections wait in the backlog, unaccepted, until EOF on go */
	return read(go, &b, 1) ? 2 : 0;
}

/* The value of line "@key N" of /proc/@pid/net/varlink, or -1 */
static long proc_net_varlink(pid_t pid, const char *key)
{
	return vt_net_varlink_value(fopen(vt_fmt("/proc/%d/net/varlink", pid), "re"),
				    key);
}

/* Whether a record of /dev/kmsg from @fd's position on has @text */
static bool kmsg_has(int fd, const char *text)
{
	char rec[1024];
	ssize_t n;

	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;	/* overwritten before it was read */
		rec[n] = '\0';
		if (strstr(rec, text)) {
			fprintf(stderr, "# %s", strchr(rec, ';') ? strchr(rec, ';') + 1 : rec);
			return true;
		}
	}
	return false;
}

TEST_F_TIMEOUT(core, squatter, 120)
{
	int ready[2], go[2], netns, here, kmsg, fd, status;
	struct ucred cred = { .pid = -1 };
	socklen_t len = sizeof(cred);
	struct stat st;
	pid_t pid;
	char r = -1;

	vt_close(&self->idle);
	vt_close(&self->half);
	vt_close(&self->monitor);
	vt_close(&self->pipelined);
	ASSERT_EQ(0, vt_providers_unload(&providers));
	ASSERT_EQ(0, vt_rmmod(VT_CORE_MODULE, 60000));

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(ready[0]);
		close(go[1]);
		_exit(squat(ready[1], go[0]));
	}
	close(ready[1]);
	close(go[0]);
	ASSERT_EQ(1, read(ready[0], &r, 1));
	ASSERT_EQ(0, r);
	netns = open(vt_fmt("/proc/%d/ns/net", pid), O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, netns);
	ASSERT_EQ(0, fstat(netns, &st));

	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, kmsg);
	ASSERT_LE(0, lseek(kmsg, 0, SEEK_END));
	ASSERT_EQ(0, vt_insmod(VT_CORE_MODULE));
	ASSERT_EQ(0, vt_providers_load(&providers));

	EXPECT_EQ(1, proc_net_varlink(getpid(), "listening"));
	EXPECT_EQ(0, proc_net_varlink(pid, "listening"));
	EXPECT_TRUE(kmsg_has(kmsg, vt_fmt("net:[%lu]", (unsigned long)st.st_ino)))
		TH_LOG("no warning names net:[%lu]", (unsigned long)st.st_ino);

	/* a client in there talks to the squatter, and can tell */
	here = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, here);
	ASSERT_EQ(0, setns(netns, CLONE_NEWNET));
	fd = vt_connect();
	ASSERT_EQ(0, setns(here, CLONE_NEWNET));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len));
	EXPECT_EQ(pid, cred.pid);
	close(fd);

	close(go[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	close(netns);
	close(here);
	close(kmsg);
}

/*
 * Unload while a client's task is inside one of the core's other socket
 * callbacks, which it runs from its own connect(), close() or recv()
 * (listen_data_ready(), conn_wake(), conn_write_space()), and lingers
 * there (test_callback_delay_ms, a debugfs knob of test builds).  Unload
 * waits for it to leave: the code it runs is not freed under it.
 */
#define CALLBACK_DELAY	"/sys/kernel/debug/varlink/test_callback_delay_ms"

enum callback_action { BY_CONNECT, BY_CLOSE, BY_READ };

FIXTURE(callback) {
};

FIXTURE_VARIANT(callback) {
	enum callback_action action;
};

FIXTURE_VARIANT_ADD(callback, connect) { .action = BY_CONNECT };
FIXTURE_VARIANT_ADD(callback, close) { .action = BY_CLOSE };
FIXTURE_VARIANT_ADD(callback, read) { .action = BY_READ };

FIXTURE_SETUP(callback)
{
	ASSERT_TRUE(vt_module_loaded(VT_CORE_MODULE));
	vt_providers_find(&providers);
}

FIXTURE_TEARDOWN(callback)
{
	if (!vt_module_loaded(VT_CORE_MODULE))
		vt_insmod(VT_CORE_MODULE);
	vt_providers_load(&providers);
}

/* In the child: get ready, say so on @ready, then act, which returns
 * once the callback's delay is over.
 */
static int callback_child(enum callback_action action, int ready)
{
	struct pollfd pfd;
	struct vt_conn c;
	const char *msg;
	char b = 0;

	if (action != BY_CONNECT && vt_open_ready(&c))
		return 1;
	if (action == BY_READ) {
		/* a reply waits to be read: reading it frees the server's skb */
		pfd = (struct pollfd){ .fd = c.fd, .events = POLLIN };
		if (vt_send(&c, "{\"method\":\"org.varlink.service.GetInfo\"}") ||
		    poll(&pfd, 1, VT_TIMEOUT_MS) != 1)
			return 2;
	}
	if (vt_write_file(CALLBACK_DELAY, "1500") || write(ready, &b, 1) != 1)
		return 3;
	switch (action) {
	case BY_CONNECT:
		return vt_connect() < 0 ? 4 : 0;
	case BY_CLOSE:
		return close(c.fd) ? 5 : 0;
	case BY_READ:
		return vt_recv(&c, VT_TIMEOUT_MS, &msg) == 1 ? 0 : 6;
	}
	return 7;
}

TEST_F_TIMEOUT(callback, unload_waits, 120)
{
	long long t0, waited;
	int status, ready[2];
	pid_t pid;
	char b;

	ASSERT_EQ(0, vt_providers_unload(&providers));
	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(callback_child(variant->action, ready[1]));
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &b, 1));
	vt_sleep_ms(300);	/* the child is in the callback now */
	t0 = vt_now_ms();
	ASSERT_EQ(0, vt_rmmod(VT_CORE_MODULE, 60000));
	waited = vt_now_ms() - t0;
	TH_LOG("unload took %lld ms", waited);
	EXPECT_LT(800, waited);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) TH_LOG("status %d", status);
}

TEST_HARNESS_MAIN
