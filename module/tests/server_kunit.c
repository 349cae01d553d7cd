// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the listener: the address is the exact abstract name,
 * and it accepts connections.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/un.h>
#include <net/net_namespace.h>

#include "../compat.h"
#include "../dispatch.h"
#include "../json.h"
#include "../server.h"

static int abstract_addr(struct sockaddr_un *addr, const char *name)
{
	size_t len = strlen(name);

	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	memcpy(addr->sun_path + 1, name, len);
	return offsetof(struct sockaddr_un, sun_path) + 1 + len;
}

static int connect_to(struct kunit *test, const char *name, int extra)
{
	struct sockaddr_un addr;
	struct socket *sock;
	int len, err;

	err = sock_create_kern(&init_net, AF_UNIX, SOCK_STREAM, 0, &sock);
	KUNIT_ASSERT_EQ(test, err, 0);
	len = abstract_addr(&addr, name) + extra;
	err = kernel_connect(sock, (struct sockaddr *)&addr, len, 0);
	sock_release(sock);
	return err;
}

static void server_test_connect_exact_name(struct kunit *test)
{
	/* Arrange: the name the module listens on */
	const char *name = vl_server_name();

	/* Act, Assert */
	KUNIT_EXPECT_EQ_MSG(test, connect_to(test, name, 0), 0, "@%s", name);
}

static void server_test_no_trailing_nul(struct kunit *test)
{
	/* A trailing NUL makes another abstract name: nobody listens there. */
	KUNIT_EXPECT_EQ(test, connect_to(test, vl_server_name(), 1),
			-ECONNREFUSED);
}

static void server_test_name_is_taken(struct kunit *test)
{
	struct sockaddr_un addr;
	struct socket *sock;
	int len, err;

	err = sock_create_kern(&init_net, AF_UNIX, SOCK_STREAM, 0, &sock);
	KUNIT_ASSERT_EQ(test, err, 0);
	len = abstract_addr(&addr, vl_server_name());
	err = kernel_bind(sock, (struct sockaddr_unsized *)&addr, len);
	sock_release(sock);
	KUNIT_EXPECT_EQ(test, err, -EADDRINUSE);
}

static void server_test_many_connections(struct kunit *test)
{
	int i;

	for (i = 0; i < 64; i++)
		KUNIT_ASSERT_EQ(test, connect_to(test, vl_server_name(), 0), 0);
}

static struct kunit_case server_test_cases[] = {
	KUNIT_CASE(server_test_connect_exact_name),
	KUNIT_CASE(server_test_no_trailing_nul),
	KUNIT_CASE(server_test_name_is_taken),
	KUNIT_CASE(server_test_many_connections),
	{}
};

static struct kunit_suite server_test_suite = {
	.name = "varlink_server",
	.test_cases = server_test_cases,
};

kunit_test_suite(server_test_suite);

MODULE_IMPORT_NS(VL_NS(EXPORTED_FOR_KUNIT_TESTING));
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of the varlink core");
