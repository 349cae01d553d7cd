// SPDX-License-Identifier: GPL-2.0
/*
 * Unloading the core, varlink.ko, with clients connected; it runs last.
 *
 * While a provider is loaded, the core refuses to go (EBUSY or EAGAIN)
 * and keeps serving.  With the providers gone, it unloads with clients
 * connected, idle, in the middle of a message or with replies unread:
 * each sees its connection closed, and the name is free again.  Then the
 * core and every provider are loaded again and serve new clients.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
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

TEST_HARNESS_MAIN
