// SPDX-License-Identifier: GPL-2.0
/*
 * The listening socket: where it is, who owns it, and that nobody else
 * can take its name while the module is loaded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"

FIXTURE(address) {
	int fd;
};

FIXTURE_VARIANT(address) {
	int extra;		/* trailing NUL bytes in the address length */
	int new_netns;		/* connect from a fresh network namespace */
	int err;		/* expected connect() errno, 0 for success */
};

FIXTURE_VARIANT_ADD(address, exact) {
	.extra = 0,
	.err = 0,
};

FIXTURE_VARIANT_ADD(address, trailing_nul) {
	.extra = 1,
	.err = ECONNREFUSED,
};

/* every network namespace has a listener of its own */
FIXTURE_VARIANT_ADD(address, other_netns) {
	.new_netns = 1,
	.err = 0,
};

FIXTURE_SETUP(address)
{
	self->fd = -1;
	if (variant->new_netns)
		ASSERT_EQ(0, unshare(CLONE_NEWNET));
}

FIXTURE_TEARDOWN(address)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(address, connect)
{
	self->fd = vt_connect_name(VARLINK_SOCKET_NAME, variant->extra);
	ASSERT_EQ(variant->err, self->fd < 0 ? errno : 0);
}

/*
 * The listener is the kernel's: a connection's SO_PEERCRED is pid 0 (no
 * process: a process's socket carries its own pid), with the kernel's
 * uid and gid 0, whoever loaded the module.
 */
TEST(peer_is_the_kernel)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int fd = vt_connect();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len));
	EXPECT_EQ(0, cred.pid);
	EXPECT_EQ(0, cred.uid);
	EXPECT_EQ(0, cred.gid);
	close(fd);
}

TEST(name_cannot_be_taken)
{
	struct sockaddr_un addr;
	socklen_t len = vt_addr(&addr, VARLINK_SOCKET_NAME, 0);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(-1, bind(fd, (struct sockaddr *)&addr, len));
	EXPECT_EQ(EADDRINUSE, errno);
	close(fd);
}

TEST(many_connections)
{
	int fds[256];
	int i;

	for (i = 0; i < 256; i++) {
		fds[i] = vt_connect();
		ASSERT_LE(0, fds[i]);
	}
	for (i = 0; i < 256; i++)
		close(fds[i]);
}

TEST_HARNESS_MAIN
