// SPDX-License-Identifier: GPL-2.0
/*
 * The wire protocol (UAPI.20): NUL framing, the call envelope and what
 * closes the connection, the errors of org.varlink.service, oneway, more
 * and continues, pipelining, org.varlink.service itself, and the core's
 * org.kernel.varlink (its counters and limits against sysfs).
 *
 * The methods called are those of org.kernel.varlink.test, served by
 * varlink_test_provider.ko, which the guest always loads.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "kselftest_harness.h"
#include "varlink_test.h"

#define M(name)		VT_M(name)
#define SVC_M(name)	"\"method\":\"org.varlink.service." name "\""
#define DESCRIBE(iface)	"{\"method\":\"org.varlink.service.GetInterfaceDescription\"," \
			"\"parameters\":{\"interface\":\"" iface "\"}}"
#define ECHO_STR(s)	"{" M("Echo") ",\"parameters\":{\"string\":\"" s "\"}}"

/* Framing: how the bytes of the messages are cut into writes. */
FIXTURE(framing) {
	struct vt_conn c;
};

FIXTURE_VARIANT(framing) {
	const char *data;	/* messages, each with its NUL */
	size_t len;
	size_t chunk;		/* bytes per write; 0: all in one write */
	int replies;
	const char *expect[4];	/* the parameters of each reply */
};

#define DATA(s)	.data = (s), .len = sizeof(s) - 1

FIXTURE_VARIANT_ADD(framing, one_message) {
	DATA(VT_PING "\0"),
	.replies = 1,
	.expect = { "{}" },
};

FIXTURE_VARIANT_ADD(framing, byte_by_byte) {
	DATA(ECHO_STR("split") "\0"),
	.chunk = 1,
	.replies = 1,
	.expect = { "{\"string\":\"split\"}" },
};

FIXTURE_VARIANT_ADD(framing, three_in_one_write) {
	DATA(VT_PING "\0" ECHO_STR("a") "\0" ECHO_STR("b") "\0"),
	.replies = 3,
	.expect = { "{}", "{\"string\":\"a\"}", "{\"string\":\"b\"}" },
};

FIXTURE_VARIANT_ADD(framing, three_byte_by_byte) {
	DATA(ECHO_STR("a") "\0" VT_PING "\0" ECHO_STR("c") "\0"),
	.chunk = 1,
	.replies = 3,
	.expect = { "{\"string\":\"a\"}", "{}", "{\"string\":\"c\"}" },
};

FIXTURE_VARIANT_ADD(framing, cut_across_nul) {
	DATA(ECHO_STR("a") "\0" ECHO_STR("b") "\0" ECHO_STR("c") "\0"),
	.chunk = 7,
	.replies = 3,
	.expect = { "{\"string\":\"a\"}", "{\"string\":\"b\"}",
		    "{\"string\":\"c\"}" },
};

FIXTURE_VARIANT_ADD(framing, whitespace) {
	DATA(" \t\r\n{ \"method\" : \"" VT_IFACE ".Echo\" ,\n"
	     "\t\"parameters\" : { \"string\" : \"w s\" } } \r\n\0"
	     "\n\n" VT_PING "\n\0"),
	.replies = 2,
	.expect = { "{\"string\":\"w s\"}", "{}" },
};

FIXTURE_VARIANT_ADD(framing, whitespace_byte_by_byte) {
	DATA("  {\"method\": \"" VT_IFACE ".Echo\", \"parameters\": {\"string\": \"py\"}}  \0"),
	.chunk = 1,
	.replies = 1,
	.expect = { "{\"string\":\"py\"}" },
};

FIXTURE_SETUP(framing)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(framing)
{
	vt_close(&self->c);
}

TEST_F(framing, replies)
{
	size_t chunk = variant->chunk ? variant->chunk : variant->len;
	const char *msg;
	size_t off;
	int i;

	for (off = 0; off < variant->len; off += chunk) {
		size_t n = variant->len - off < chunk ? variant->len - off : chunk;

		ASSERT_EQ(0, vt_send_raw(&self->c, variant->data + off, n));
		if (variant->chunk)
			usleep(200);
	}
	for (i = 0; i < variant->replies; i++) {
		ASSERT_EQ(1, vt_recv(&self->c, VT_TIMEOUT_MS, &msg));
		EXPECT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
		EXPECT_STREQ(variant->expect[i], vt_params(msg));
	}
	/* and nothing more */
	EXPECT_EQ(-ETIMEDOUT, vt_recv(&self->c, 200, &msg)) TH_LOG("%s", msg);
}

/* The envelope: what closes the connection and what is accepted. */
FIXTURE(envelope) {
	struct vt_conn c;
};

FIXTURE_VARIANT(envelope) {
	const char *msg;
	int closes;
};

FIXTURE_VARIANT_ADD(envelope, empty) {
	.msg = "", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, whitespace_only) {
	.msg = "\n\t", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, truncated_json) {
	.msg = "{\"method\":", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, bad_token) {
	.msg = "{\"method\":\"" VT_IFACE ".Ping\",}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, single_quotes) {
	.msg = "{'method':'" VT_IFACE ".Ping'}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, trailing_garbage) {
	.msg = VT_PING " x", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, two_objects) {
	.msg = VT_PING VT_PING, .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, duplicate_method) {
	.msg = "{" M("Ping") "," M("Ping") "}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, invalid_utf8) {
	.msg = "{" M("Echo") ",\"parameters\":{\"string\":\"\xff\"}}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, control_char) {
	.msg = "{" M("Echo") ",\"parameters\":{\"string\":\"\x01\"}}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, leading_zero) {
	.msg = "{" M("Slow") ",\"parameters\":{\"ms\":01}}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, just_an_array) {
	.msg = "[]", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, just_a_string) {
	.msg = "\"" VT_IFACE ".Ping\"", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, just_a_number) {
	.msg = "1", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, null_value) {
	.msg = "null", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, boolean) {
	.msg = "true", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, no_method) {
	.msg = "{\"parameters\":{}}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, method_number) {
	.msg = "{\"method\":1}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, method_null) {
	.msg = "{\"method\":null}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, method_object) {
	.msg = "{\"method\":{}}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, method_array) {
	.msg = "{\"method\":[\"" VT_IFACE ".Ping\"]}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, parameters_array) {
	.msg = "{" M("Ping") ",\"parameters\":[]}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, parameters_string) {
	.msg = "{" M("Ping") ",\"parameters\":\"\"}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, parameters_number) {
	.msg = "{" M("Ping") ",\"parameters\":0}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, parameters_bool) {
	.msg = "{" M("Ping") ",\"parameters\":false}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, oneway_number) {
	.msg = "{" M("Ping") ",\"oneway\":1}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, oneway_string) {
	.msg = "{" M("Ping") ",\"oneway\":\"true\"}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, more_number) {
	.msg = "{" M("Ping") ",\"more\":0}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, more_null) {
	.msg = "{" M("Ping") ",\"more\":null}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, upgrade_string) {
	.msg = "{" M("Ping") ",\"upgrade\":\"no\"}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, upgrade_object) {
	.msg = "{" M("Ping") ",\"upgrade\":{}}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, oneway_and_more) {
	.msg = "{" M("Ping") ",\"oneway\":true,\"more\":true}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, more_and_upgrade) {
	.msg = "{" M("Ping") ",\"more\":true,\"upgrade\":true}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, oneway_and_upgrade) {
	.msg = "{" M("Ping") ",\"oneway\":true,\"upgrade\":true}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, all_three) {
	.msg = "{" M("Ping") ",\"oneway\":true,\"more\":true,\"upgrade\":true}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, unknown_key) {
	.msg = "{" M("Ping") ",\"foo\":1}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, unknown_key_first) {
	.msg = "{\"foo\":null," M("Ping") "}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, key_case) {
	.msg = "{\"Method\":\"" VT_IFACE ".Ping\"}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, key_parameter) {
	.msg = "{" M("Ping") ",\"parameter\":{}}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, key_continues) {
	.msg = "{" M("Ping") ",\"continues\":true}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, key_error) {
	.msg = "{" M("Ping") ",\"error\":\"x.y\"}", .closes = 1,
};

FIXTURE_VARIANT_ADD(envelope, plain) {
	.msg = VT_PING,
};

FIXTURE_VARIANT_ADD(envelope, parameters_null) {
	.msg = "{" M("Ping") ",\"parameters\":null}",
};

FIXTURE_VARIANT_ADD(envelope, parameters_empty) {
	.msg = "{" M("Ping") ",\"parameters\":{}}",
};

FIXTURE_VARIANT_ADD(envelope, parameters_first) {
	.msg = "{\"parameters\":{}," M("Ping") "}",
};

FIXTURE_VARIANT_ADD(envelope, flags_false) {
	.msg = "{" M("Ping") ",\"oneway\":false,\"more\":false,\"upgrade\":false}",
};

FIXTURE_VARIANT_ADD(envelope, more_and_false) {
	.msg = "{" M("Ping") ",\"oneway\":false,\"more\":true,\"upgrade\":false}",
};

FIXTURE_VARIANT_ADD(envelope, vendor_object) {
	.msg = "{" M("Ping") ",\"org.example\":{\"x\":[1]}}",
};

FIXTURE_VARIANT_ADD(envelope, vendor_scalar) {
	.msg = "{\"com.example.flag\":true," M("Ping") "}",
};

FIXTURE_VARIANT_ADD(envelope, vendor_escaped_dot) {
	.msg = "{" M("Ping") ",\"org\\u002eexample\":1}",
};

FIXTURE_VARIANT_ADD(envelope, escaped_method) {
	.msg = "{\"method\":\"org.kernel.varlink.test\\u002ePing\"}",
};

FIXTURE_SETUP(envelope)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(envelope)
{
	vt_close(&self->c);
}

TEST_F(envelope, one_message)
{
	const char *msg;

	ASSERT_EQ(0, vt_send(&self->c, variant->msg));
	if (variant->closes) {
		ASSERT_EQ(1, vt_closed(&self->c, VT_TIMEOUT_MS))
			TH_LOG("reply: %s", self->c.msg);
		return;
	}
	ASSERT_EQ(1, vt_recv(&self->c, VT_TIMEOUT_MS, &msg));
	EXPECT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_FALSE(vt_continues(msg)) TH_LOG("%s", msg);
	/* the connection is still usable */
	ASSERT_EQ(1, vt_call(&self->c, VT_PING, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
}

/* A bad message after good ones: they are answered, then it closes. */
TEST_F(envelope, after_good_ones)
{
	char *data;
	const char *msg;
	size_t a = strlen(VT_PING) + 1, b = strlen(variant->msg) + 1;

	data = malloc(2 * a + b);
	ASSERT_NE(NULL, data);
	memcpy(data, VT_PING, a);
	memcpy(data + a, variant->msg, b);
	memcpy(data + a + b, VT_PING, a);
	ASSERT_EQ(0, vt_send_raw(&self->c, data, 2 * a + b));
	free(data);

	ASSERT_EQ(1, vt_recv(&self->c, VT_TIMEOUT_MS, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	if (variant->closes) {
		ASSERT_EQ(1, vt_closed(&self->c, VT_TIMEOUT_MS))
			TH_LOG("reply: %s", self->c.msg);
		return;
	}
	ASSERT_EQ(1, vt_recv(&self->c, VT_TIMEOUT_MS, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	ASSERT_EQ(1, vt_recv(&self->c, VT_TIMEOUT_MS, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
}

/* Each error the core produces, with its parameters. */
FIXTURE(errors) {
	struct vt_conn c;
};

FIXTURE_VARIANT(errors) {
	const char *msg;
	const char *error;
	const char *path;	/* a member of the reply to check, or NULL */
	const char *value;	/* its JSON text */
};

#define SVC(e)	"org.varlink.service." e
#define SYSERR	"org.kernel.varlink.SystemError"

FIXTURE_VARIANT_ADD(errors, interface_not_found) {
	.msg = "{\"method\":\"org.kernel.varlink.nope.Ping\"}",
	.error = SVC("InterfaceNotFound"),
	.path = "parameters.interface", .value = "\"org.kernel.varlink.nope\"",
};

FIXTURE_VARIANT_ADD(errors, interface_prefix) {
	.msg = "{\"method\":\"org.kernel.varlink.tes.Ping\"}",
	.error = SVC("InterfaceNotFound"),
	.path = "parameters.interface", .value = "\"org.kernel.varlink.tes\"",
};

FIXTURE_VARIANT_ADD(errors, interface_longer) {
	.msg = "{\"method\":\"org.kernel.varlink.testx.Ping\"}",
	.error = SVC("InterfaceNotFound"),
	.path = "parameters.interface", .value = "\"org.kernel.varlink.testx\"",
};

FIXTURE_VARIANT_ADD(errors, method_not_found) {
	.msg = "{" M("Nope") "}",
	.error = SVC("MethodNotFound"),
	.path = "parameters.method", .value = "\"Nope\"",
};

FIXTURE_VARIANT_ADD(errors, method_lower_case) {
	.msg = "{" M("ping") "}",
	.error = SVC("MethodNotFound"),
	.path = "parameters.method", .value = "\"ping\"",
};

FIXTURE_VARIANT_ADD(errors, method_is_a_type) {
	.msg = "{" M("Color") "}",
	.error = SVC("MethodNotFound"),
	.path = "parameters.method", .value = "\"Color\"",
};

FIXTURE_VARIANT_ADD(errors, method_is_an_error) {
	.msg = "{" M("TestError") "}",
	.error = SVC("MethodNotFound"),
	.path = "parameters.method", .value = "\"TestError\"",
};

FIXTURE_VARIANT_ADD(errors, method_not_implemented) {
	.msg = "{" M("Unimplemented") "}",
	.error = SVC("MethodNotImplemented"),
	.path = "parameters.method", .value = "\"Unimplemented\"",
};

FIXTURE_VARIANT_ADD(errors, upgrade) {
	.msg = "{" M("Ping") ",\"upgrade\":true}",
	.error = SVC("MethodNotImplemented"),
	.path = "parameters.method", .value = "\"Ping\"",
};

FIXTURE_VARIANT_ADD(errors, expected_more) {
	.msg = "{" M("Monitor") "}",
	.error = SVC("ExpectedMore"),
};

FIXTURE_VARIANT_ADD(errors, expected_more_false) {
	.msg = "{" M("Monitor") ",\"more\":false,\"parameters\":{\"count\":1}}",
	.error = SVC("ExpectedMore"),
};

FIXTURE_VARIANT_ADD(errors, unknown_parameter) {
	.msg = "{" M("Ping") ",\"parameters\":{\"x\":1}}",
	.error = SVC("InvalidParameter"),
	.path = "parameters.parameter", .value = "\"x\"",
};

FIXTURE_VARIANT_ADD(errors, wrong_type) {
	.msg = "{" M("Slow") ",\"parameters\":{\"ms\":\"1\"}}",
	.error = SVC("InvalidParameter"),
	.path = "parameters.parameter", .value = "\"ms\"",
};

FIXTURE_VARIANT_ADD(errors, missing_parameter) {
	.msg = "{" M("Slow") ",\"parameters\":{}}",
	.error = SVC("InvalidParameter"),
	.path = "parameters.parameter", .value = "\"ms\"",
};

FIXTURE_VARIANT_ADD(errors, absent_parameters) {
	.msg = "{" M("Slow") "}",
	.error = SVC("InvalidParameter"),
	.path = "parameters.parameter", .value = "\"ms\"",
};

FIXTURE_VARIANT_ADD(errors, null_parameter) {
	.msg = "{" M("Slow") ",\"parameters\":{\"ms\":null}}",
	.error = SVC("InvalidParameter"),
	.path = "parameters.parameter", .value = "\"ms\"",
};

FIXTURE_VARIANT_ADD(errors, negative_unsigned) {
	.msg = "{" M("Slow") ",\"parameters\":{\"ms\":-1}}",
	.error = SVC("InvalidParameter"),
	.path = "parameters.parameter", .value = "\"ms\"",
};

/* a value the IDL allows but the method refuses: named by the provider */
FIXTURE_VARIANT_ADD(errors, callback_invalid) {
	.msg = "{" M("Slow") ",\"parameters\":{\"ms\":5001}}",
	.error = SVC("InvalidParameter"),
	.path = "parameters.parameter", .value = "\"ms\"",
};

/* a bare -EINVAL names no parameter: it is an errno like any other */
FIXTURE_VARIANT_ADD(errors, errno_einval) {
	.msg = "{" M("Fail") ",\"parameters\":{\"errno\":22}}",
	.error = SYSERR,
	.path = "parameters.errno", .value = "22",
};

FIXTURE_VARIANT_ADD(errors, errno_eperm) {
	.msg = "{" M("Fail") ",\"parameters\":{\"errno\":1}}",
	.error = SVC("PermissionDenied"),
};

FIXTURE_VARIANT_ADD(errors, errno_eacces) {
	.msg = "{" M("Fail") ",\"parameters\":{\"errno\":13}}",
	.error = SVC("PermissionDenied"),
};

FIXTURE_VARIANT_ADD(errors, errno_eopnotsupp) {
	.msg = "{" M("Fail") ",\"parameters\":{\"errno\":95}}",
	.error = SVC("MethodNotImplemented"),
	.path = "parameters.method", .value = "\"Fail\"",
};

FIXTURE_VARIANT_ADD(errors, errno_eio) {
	.msg = "{" M("Fail") ",\"parameters\":{\"errno\":5}}",
	.error = SYSERR,
	.path = "parameters.errno", .value = "5",
};

FIXTURE_VARIANT_ADD(errors, errno_enoent) {
	.msg = "{" M("Fail") ",\"parameters\":{\"errno\":2}}",
	.error = SYSERR,
	.path = "parameters.errno", .value = "2",
};

FIXTURE_VARIANT_ADD(errors, errno_enomem) {
	.msg = "{" M("Fail") ",\"parameters\":{\"errno\":12}}",
	.error = SYSERR,
	.path = "parameters.errno", .value = "12",
};

/* the kernel's own errnos (512 and above) never reach a client */
FIXTURE_VARIANT_ADD(errors, errno_restart) {
	.msg = "{" M("Fail") ",\"parameters\":{\"errno\":513}}",
	.error = SYSERR,
	.path = "parameters.errno", .value = "11",
};

FIXTURE_VARIANT_ADD(errors, errno_notsupp) {
	.msg = "{" M("Fail") ",\"parameters\":{\"errno\":524}}",
	.error = SYSERR,
	.path = "parameters.errno", .value = "95",
};

FIXTURE_VARIANT_ADD(errors, errno_max) {
	.msg = "{" M("Fail") ",\"parameters\":{\"errno\":4095}}",
	.error = SYSERR,
	.path = "parameters.errno", .value = "5",
};

FIXTURE_VARIANT_ADD(errors, declared_error) {
	.msg = "{" M("Raise") ",\"parameters\":{\"reason\":\"because\",\"code\":-7}}",
	.error = VT_IFACE ".TestError",
	.path = "parameters", .value = "{\"reason\":\"because\",\"code\":-7}",
};

FIXTURE_VARIANT_ADD(errors, declared_error_more) {
	.msg = "{" M("Raise") ",\"more\":true,\"parameters\":{\"reason\":\"\",\"code\":0}}",
	.error = VT_IFACE ".TestError",
	.path = "parameters", .value = "{\"reason\":\"\",\"code\":0}",
};

FIXTURE_VARIANT_ADD(errors, errno_more) {
	.msg = "{" M("Fail") ",\"more\":true,\"parameters\":{\"errno\":5}}",
	.error = SYSERR,
	.path = "parameters.errno", .value = "5",
};

FIXTURE_VARIANT_ADD(errors, stream_invalid) {
	.msg = "{" M("Count") ",\"more\":true,\"parameters\":{\"n\":-1}}",
	.error = SVC("InvalidParameter"),
	.path = "parameters.parameter", .value = "\"n\"",
};

FIXTURE_VARIANT_ADD(errors, reply_too_big) {
	.msg = "{" M("Big") ",\"parameters\":{\"size\":1048576}}",
	.error = SYSERR,
	.path = "parameters.errno", .value = "90",	/* EMSGSIZE */
};

FIXTURE_VARIANT_ADD(errors, description_not_found) {
	.msg = DESCRIBE("org.kernel.varlink.nope"),
	.error = SVC("InterfaceNotFound"),
	.path = "parameters.interface", .value = "\"org.kernel.varlink.nope\"",
};

FIXTURE_VARIANT_ADD(errors, description_no_parameter) {
	.msg = "{\"method\":\"org.varlink.service.GetInterfaceDescription\"}",
	.error = SVC("InvalidParameter"),
	.path = "parameters.parameter", .value = "\"interface\"",
};

FIXTURE_VARIANT_ADD(errors, service_method_not_found) {
	.msg = "{\"method\":\"org.varlink.service.Nope\"}",
	.error = SVC("MethodNotFound"),
	.path = "parameters.method", .value = "\"Nope\"",
};

FIXTURE_SETUP(errors)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(errors)
{
	vt_close(&self->c);
}

TEST_F(errors, reply)
{
	const char *msg;

	ASSERT_EQ(1, vt_call(&self->c, variant->msg, &msg));
	EXPECT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_is_error(msg, variant->error)) TH_LOG("%s", msg);
	EXPECT_FALSE(vt_json_has(msg, "continues")) TH_LOG("%s", msg);
	if (variant->path)
		EXPECT_TRUE(vt_json_is(msg, variant->path, variant->value))
			TH_LOG("%s: want %s", msg, variant->value);
	/* an error never closes the connection */
	ASSERT_EQ(1, vt_call(&self->c, VT_PING, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
}

/*
 * The same call with "oneway": no reply at all, not even an error; but
 * oneway with more or upgrade is no call at all: the connection closes.
 */
TEST_F(errors, oneway)
{
	char *oneway = vt_fmt("{\"oneway\":true,%s", variant->msg + 1);
	const char *msg;

	ASSERT_EQ(0, vt_send(&self->c, oneway));
	if (strstr(variant->msg, "\"more\":true") ||
	    strstr(variant->msg, "\"upgrade\":true")) {
		ASSERT_EQ(1, vt_closed(&self->c, VT_TIMEOUT_MS))
			TH_LOG("reply: %s", self->c.msg);
		return;
	}
	ASSERT_EQ(1, vt_call(&self->c, ECHO_STR("after"), &msg));
	EXPECT_STREQ("{\"string\":\"after\"}", vt_params(msg));
}

/* oneway: the call runs, nothing comes back. */
FIXTURE(oneway) {
	struct vt_conn c;
};

FIXTURE_VARIANT(oneway) {
	const char *msg;
};

FIXTURE_VARIANT_ADD(oneway, ping) {
	.msg = "{" M("Ping") ",\"oneway\":true}",
};

FIXTURE_VARIANT_ADD(oneway, oneway_first) {
	.msg = "{\"oneway\":true," M("Ping") "}",
};

FIXTURE_VARIANT_ADD(oneway, stream) {
	.msg = "{" M("Count") ",\"oneway\":true,\"parameters\":{\"n\":5}}",
};

FIXTURE_VARIANT_ADD(oneway, monitor) {
	.msg = "{" M("Monitor") ",\"oneway\":true,\"parameters\":{\"count\":2}}",
};

FIXTURE_VARIANT_ADD(oneway, deferred) {
	.msg = "{" M("Defer") ",\"oneway\":true,\"parameters\":{\"delay_ms\":100}}",
};

FIXTURE_VARIANT_ADD(oneway, slow) {
	.msg = "{" M("Slow") ",\"oneway\":true,\"parameters\":{\"ms\":100}}",
};

FIXTURE_VARIANT_ADD(oneway, get_info) {
	.msg = "{\"method\":\"org.varlink.service.GetInfo\",\"oneway\":true}",
};

FIXTURE_VARIANT_ADD(oneway, method_without_dot) {
	.msg = "{\"method\":\"Ping\",\"oneway\":true}",
};

FIXTURE_SETUP(oneway)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(oneway)
{
	vt_close(&self->c);
}

TEST_F(oneway, no_reply)
{
	const char *msg;

	ASSERT_EQ(0, vt_send(&self->c, variant->msg));
	ASSERT_EQ(0, vt_send(&self->c, variant->msg));
	ASSERT_EQ(1, vt_call(&self->c, ECHO_STR("after"), &msg));
	EXPECT_STREQ("{\"string\":\"after\"}", vt_params(msg));
	EXPECT_EQ(-ETIMEDOUT, vt_recv(&self->c, 300, &msg)) TH_LOG("%s", msg);
}

/* A oneway call is still made: its effect shows in the next call. */
TEST(oneway_runs)
{
	const char *msg;
	struct vt_conn c;
	char *before;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, "{" M("Counter") "}", &msg));
	before = vt_params(msg);
	ASSERT_EQ(0, vt_send(&c, VT_ONEWAY("Counter", "{\"add\":5}")));
	ASSERT_EQ(0, vt_send(&c, VT_ONEWAY("Counter", "{\"add\":-2}")));
	ASSERT_EQ(1, vt_call(&c, "{" M("Counter") ",\"parameters\":{\"add\":0}}",
			     &msg));
	EXPECT_STREQ(vt_fmt("{\"value\":%lld}",
			    strtoll(before + strlen("{\"value\":"), NULL, 10) + 3),
		     vt_params(msg));
	vt_close(&c);
}

/* more: replies with "continues", then a final one; never otherwise. */
FIXTURE(more) {
	struct vt_conn c;
};

FIXTURE_VARIANT(more) {
	const char *msg;
	int continues;		/* replies with continues before the final */
	const char *key;	/* each reply's parameter, counting */
	int first;		/* its value in the first reply */
	const char *final;	/* parameters of the final reply */
};

FIXTURE_VARIANT_ADD(more, count) {
	.msg = "{" M("Count") ",\"more\":true,\"parameters\":{\"n\":3}}",
	.continues = 3, .key = "index", .first = 0,
	.final = "{\"index\":3}",
};

FIXTURE_VARIANT_ADD(more, count_many) {
	.msg = "{" M("Count") ",\"more\":true,\"parameters\":{\"n\":1000}}",
	.continues = 1000, .key = "index", .first = 0,
	.final = "{\"index\":1000}",
};

FIXTURE_VARIANT_ADD(more, count_zero) {
	.msg = "{" M("Count") ",\"more\":true,\"parameters\":{\"n\":0}}",
	.final = "{\"index\":0}",
};

FIXTURE_VARIANT_ADD(more, count_without_more) {
	.msg = "{" M("Count") ",\"parameters\":{\"n\":3}}",
	.final = "{\"index\":3}",
};

FIXTURE_VARIANT_ADD(more, count_more_false) {
	.msg = "{" M("Count") ",\"more\":false,\"parameters\":{\"n\":3}}",
	.final = "{\"index\":3}",
};

FIXTURE_VARIANT_ADD(more, monitor) {
	.msg = VT_MORE("Monitor", "{\"interval_ms\":1,\"count\":4}"),
	.continues = 3, .key = "tick", .first = 1,
	.final = "{\"tick\":4}",
};

FIXTURE_VARIANT_ADD(more, monitor_one) {
	.msg = "{" M("Monitor") ",\"more\":true,\"parameters\":{\"count\":1}}",
	.final = "{\"tick\":1}",
};

FIXTURE_VARIANT_ADD(more, not_streaming) {
	.msg = "{" M("Ping") ",\"more\":true}",
	.final = "{}",
};

FIXTURE_VARIANT_ADD(more, deferred) {
	.msg = VT_MORE("Defer", "{\"delay_ms\":50,\"value\":\"v\"}"),
	.final = "{\"value\":\"v\"}",
};

FIXTURE_VARIANT_ADD(more, service) {
	.msg = "{\"more\":true,\"parameters\":{\"interface\":\"org.kernel.varlink\"},"
	       SVC_M("GetInterfaceDescription") "}",
	.final = NULL,
};

FIXTURE_SETUP(more)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(more)
{
	vt_close(&self->c);
}

TEST_F(more, replies)
{
	const char *msg;
	int i;

	ASSERT_EQ(0, vt_send(&self->c, variant->msg));
	for (i = 0; i < variant->continues; i++) {
		ASSERT_EQ(1, vt_recv(&self->c, VT_TIMEOUT_MS, &msg));
		ASSERT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
		ASSERT_TRUE(vt_continues(msg)) TH_LOG("reply %d: %s", i, msg);
		ASSERT_STREQ(vt_fmt("{\"%s\":%d}", variant->key,
				    variant->first + i), vt_params(msg));
	}
	ASSERT_EQ(1, vt_recv(&self->c, VT_TIMEOUT_MS, &msg));
	EXPECT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_FALSE(vt_json_has(msg, "continues")) TH_LOG("%s", msg);
	if (variant->final)
		EXPECT_STREQ(variant->final, vt_params(msg));
	/* the call is over: the next one is answered */
	ASSERT_EQ(1, vt_call(&self->c, ECHO_STR("next"), &msg));
	EXPECT_STREQ("{\"string\":\"next\"}", vt_params(msg));
}

/* Replies come in the order of the calls, however each call replies. */
TEST(pipelining_order)
{
	static const char *const calls[] = {
		"{" M("Slow") ",\"parameters\":{\"ms\":300}}",
		ECHO_STR("b"),
		"{" M("Defer") ",\"parameters\":{\"delay_ms\":200,\"value\":\"c\"}}",
		"{" M("Count") ",\"more\":true,\"parameters\":{\"n\":2}}",
		"{" M("Nope") "}",
		"{" M("Ping") ",\"oneway\":true}",
		"{" M("Monitor") ",\"more\":true,\"parameters\":{\"count\":2}}",
		"{" M("Defer") ",\"parameters\":{\"delay_ms\":0,\"value\":\"h\"}}",
		"{\"method\":\"org.varlink.service.GetInfo\"}",
		ECHO_STR("j"),
	};
	static const char *const expect[] = {
		"{\"ms\":300}",
		"{\"string\":\"b\"}",
		"{\"value\":\"c\"}",
		"C{\"index\":0}",
		"C{\"index\":1}",
		"{\"index\":2}",
		"E" SVC("MethodNotFound"),
		"C{\"tick\":1}",
		"{\"tick\":2}",
		"{\"value\":\"h\"}",
		"I",
		"{\"string\":\"j\"}",
	};
	struct vt_conn c;
	const char *msg;
	char *all = NULL;
	size_t len = 0, n;
	unsigned int i;

	ASSERT_EQ(0, vt_open_ready(&c));
	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		n = strlen(calls[i]) + 1;
		all = realloc(all, len + n);
		ASSERT_NE(NULL, all);
		memcpy(all + len, calls[i], n);
		len += n;
	}
	ASSERT_EQ(0, vt_send_raw(&c, all, len));
	for (i = 0; i < ARRAY_SIZE(expect); i++) {
		const char *e = expect[i];

		ASSERT_EQ(1, vt_recv(&c, VT_TIMEOUT_MS, &msg)) TH_LOG("reply %u", i);
		ASSERT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
		switch (e[0]) {
		case 'E':
			EXPECT_TRUE(vt_is_error(msg, e + 1))
				TH_LOG("reply %u: %s", i, msg);
			break;
		case 'I':
			EXPECT_TRUE(vt_json_has(msg, "parameters.interfaces"))
				TH_LOG("reply %u: %s", i, msg);
			break;
		case 'C':
			EXPECT_TRUE(vt_continues(msg)) TH_LOG("reply %u: %s", i, msg);
			EXPECT_STREQ(e + 1, vt_params(msg)) TH_LOG("reply %u", i);
			break;
		default:
			EXPECT_FALSE(vt_continues(msg)) TH_LOG("reply %u: %s", i, msg);
			EXPECT_STREQ(e, vt_params(msg)) TH_LOG("reply %u", i);
		}
	}
	EXPECT_EQ(-ETIMEDOUT, vt_recv(&c, 300, &msg)) TH_LOG("%s", msg);
	vt_close(&c);
}

/* Two connections are served independently: a slow call blocks only its own. */
TEST(connections_in_parallel)
{
	struct vt_conn a, b;
	const char *msg;
	long long t0;

	ASSERT_EQ(0, vt_open_ready(&a));
	ASSERT_EQ(0, vt_open_ready(&b));
	ASSERT_EQ(0, vt_send(&a, "{" M("Slow") ",\"parameters\":{\"ms\":3000}}"));
	vt_sleep_ms(100);
	t0 = vt_now_ms();
	ASSERT_EQ(1, vt_call(&b, VT_PING, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_GT(2500, vt_now_ms() - t0);
	ASSERT_EQ(1, vt_recv(&a, VT_TIMEOUT_MS, &msg));
	EXPECT_STREQ("{\"ms\":3000}", vt_params(msg));
	vt_close(&a);
	vt_close(&b);
}

TEST(get_info)
{
	static const char *const keys[] = { "vendor", "product", "version", "url" };
	const char *msg, *p;
	char *prev = NULL, *name;
	bool service = false, test = false;
	char version[128];
	struct utsname u;
	struct vt_conn c;
	unsigned int i;
	size_t len;
	FILE *f;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, "{\"method\":\"org.varlink.service.GetInfo\"}",
			     &msg));
	ASSERT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
	ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *key = keys[i];

		EXPECT_NE(NULL, vt_json_str(msg, vt_fmt("parameters.%s", key)))
			TH_LOG("not a string: %s", key);
	}
	p = vt_json_find(msg, "parameters.interfaces", &len);
	ASSERT_NE(NULL, p) TH_LOG("%s", msg);
	ASSERT_EQ('[', *p);
	for (i = 0; (name = vt_json_str(msg, vt_fmt("parameters.interfaces.%u", i))); i++) {
		if (prev)
			EXPECT_GT(0, strcmp(prev, name)) TH_LOG("not sorted: %s", msg);
		service |= !strcmp(name, "org.varlink.service");
		test |= !strcmp(name, VT_IFACE);
		prev = name;
	}
	EXPECT_TRUE(service) TH_LOG("%s", msg);
	EXPECT_TRUE(test) TH_LOG("%s", msg);
	/* built out of tree, the project's version, modinfo's too; in a
	 * kernel tree, the kernel's release
	 */
	f = fopen("/sys/module/varlink/version", "re");
	if (f) {
		ASSERT_NE(NULL, fgets(version, sizeof(version), f));
		fclose(f);
		version[strcspn(version, "\n")] = '\0';
	} else {
		ASSERT_EQ(0, uname(&u));
		snprintf(version, sizeof(version), "%s", u.release);
	}
	EXPECT_STREQ(version, vt_json_str(msg, "parameters.version"));
	vt_close(&c);
}

/*
 * org.kernel.varlink: the core's counters and limits, as sysfs shows
 * them.  The replies must have exactly these members, and sysfs exactly
 * these files: a counter or a limit added to one but not the other fails.
 */
#define KERNEL_CALL(name)	"{\"method\":\"org.kernel.varlink." name "\"}"
#define SYSFS_DIR		"/sys/module/varlink/"

static const char *const stat_keys[] = {
	"connections", "connections_total", "refused", "calls",
	"calls_inline", "errors", "protocol_errors", "bytes_in", "bytes_out",
	"sends", "allocations",
};

static const char *const limit_keys[] = {
	"socket_name", "max_message_size", "max_output", "max_connections",
	"max_connections_per_uid", "max_connections_per_netns", "max_streams",
	"max_streams_per_user", "max_streams_per_container",
	"max_workers_per_user", "max_workers_per_container", "init_net_only",
	"max_depth", "max_tokens", "fast_path",
};

/* The index of @key in @keys, or -1 */
static int key_index(const char *const *keys, int n, const char *key,
		     size_t len)
{
	int i;

	for (i = 0; i < n; i++)
		if (strlen(keys[i]) == len && !memcmp(keys[i], key, len))
			return i;
	return -1;
}

/*
 * What is wrong with the members of the object at @path in @msg, or NULL:
 * exactly @keys, each once, in any order.
 */
static const char *members_problem(const char *msg, const char *path,
				   const char *const *keys, int n)
{
	unsigned long long seen = 0;
	const char *p, *end;
	size_t len;
	int i;

	p = vt_json_find(msg, path, &len);
	if (!p || *p != '{')
		return "not an object";
	p = vt_json_ws(p + 1);
	while (*p == '"') {
		end = vt_json_skip_string(p);
		if (!end)
			return "bad member name";
		i = key_index(keys, n, p + 1, end - p - 2);
		if (i < 0)
			return vt_fmt("unknown member %.*s", (int)(end - p), p);
		if (seen & 1ULL << i)
			return vt_fmt("member %s twice", keys[i]);
		seen |= 1ULL << i;
		p = vt_json_ws(end);
		if (*p != ':')
			return "no colon";
		p = vt_json_skip(p + 1, 0);
		if (!p)
			return "bad value";
		p = vt_json_ws(p);
		if (*p == ',')
			p = vt_json_ws(p + 1);
	}
	if (*p != '}')
		return "not closed";
	for (i = 0; i < n; i++)
		if (!(seen & 1ULL << i))
			return vt_fmt("no member %s", keys[i]);
	return NULL;
}

/* The int at @path in @msg: an integer lexeme, nothing else. */
static bool json_int(const char *msg, const char *path, long long *v)
{
	const char *p;
	char *end;
	size_t len;

	p = vt_json_find(msg, path, &len);
	if (!p || !len || (*p != '-' && (*p < '0' || *p > '9')))
		return false;
	errno = 0;
	*v = strtoll(p, &end, 10);
	return !errno && end == p + len;
}

/* Files in @dir, "." and ".." not counted; -1 if it cannot be read */
static int count_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* A parameter of varlink.ko as text, its newline dropped, or NULL */
static char *param_text(const char *name)
{
	char buf[256];
	size_t n;
	FILE *f;

	f = fopen(vt_fmt(SYSFS_DIR "parameters/%s", name), "re");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return strdup(buf);
}

TEST(kernel_statistics)
{
	enum { N = ARRAY_SIZE(stat_keys) };
	long before[N], after[N];
	const char *msg, *problem;
	struct vt_conn c;
	long long v[N];
	int i;

	ASSERT_EQ(N, count_files(SYSFS_DIR "statistics"));
	ASSERT_EQ(0, vt_open_ready(&c));
	for (i = 0; i < N; i++) {
		before[i] = vt_stat(stat_keys[i]);
		ASSERT_LE(0, before[i]) TH_LOG("no counter %s in sysfs", stat_keys[i]);
	}
	ASSERT_EQ(1, vt_call(&c, KERNEL_CALL("GetStatistics"), &msg));
	for (i = 0; i < N; i++)
		after[i] = vt_stat(stat_keys[i]);
	ASSERT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
	ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	problem = members_problem(msg, "parameters", stat_keys, N);
	ASSERT_EQ(NULL, problem) TH_LOG("%s: %s", problem, msg);
	for (i = 0; i < N; i++) {
		const char *key = stat_keys[i];

		ASSERT_TRUE(json_int(msg, vt_fmt("parameters.%s", key), &v[i]))
			TH_LOG("%s is not an int: %s", key, msg);
		if (!strcmp(key, "connections")) {
			/* not a counter: connections closing may still count */
			EXPECT_LE(1, v[i]) TH_LOG("this one is open");
			EXPECT_GE(vt_param("max_connections", 0), v[i]);
			continue;
		}
		EXPECT_LE(before[i], v[i]) TH_LOG("%s: sysfs before, reply", key);
		EXPECT_GE(after[i], v[i]) TH_LOG("%s: sysfs after, reply", key);
	}
	/* this call and its bytes were counted before its method ran */
	i = key_index(stat_keys, N, "calls", strlen("calls"));
	EXPECT_LT(before[i], v[i]) TH_LOG("calls");
	i = key_index(stat_keys, N, "bytes_in", strlen("bytes_in"));
	EXPECT_LE(before[i] + (long)sizeof(KERNEL_CALL("GetStatistics")), v[i])
		TH_LOG("bytes_in");
	vt_close(&c);
}

TEST(kernel_limits)
{
	enum { N = ARRAY_SIZE(limit_keys) };
	const char *msg, *problem;
	char *name, *fast, *net_only;
	struct vt_conn c;
	int i;

	ASSERT_EQ(N, count_files(SYSFS_DIR "parameters"));
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, KERNEL_CALL("GetLimits"), &msg));
	ASSERT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
	ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	problem = members_problem(msg, "parameters", limit_keys, N);
	ASSERT_EQ(NULL, problem) TH_LOG("%s: %s", problem, msg);

	/* the name this client connected to */
	name = vt_json_str(msg, "parameters.socket_name");
	ASSERT_NE(NULL, name) TH_LOG("%s", msg);
	EXPECT_STREQ(VARLINK_SOCKET_NAME, name);
	EXPECT_STREQ(param_text("socket_name"), name);

	/* Y or N, as fast_path below */
	net_only = param_text("init_net_only");
	ASSERT_NE(NULL, net_only);
	EXPECT_TRUE(vt_json_is(msg, "parameters.init_net_only",
			       !strcmp(net_only, "Y") ? "true" : "false"))
		TH_LOG("init_net_only=%s in sysfs: %s", net_only, msg);

	/* root may change it while loaded: Y or N */
	fast = param_text("fast_path");
	ASSERT_NE(NULL, fast);
	EXPECT_TRUE(vt_json_is(msg, "parameters.fast_path",
			       !strcmp(fast, "Y") ? "true" : "false"))
		TH_LOG("fast_path=%s in sysfs: %s", fast, msg);

	for (i = 0; i < N; i++) {
		const char *key = limit_keys[i];
		long long v;
		long want;

		if (!strncmp(key, "max_", 4)) {
			want = vt_param(key, -1);
			ASSERT_LT(0, want) TH_LOG("no parameter %s in sysfs", key);
			ASSERT_TRUE(json_int(msg, vt_fmt("parameters.%s", key), &v))
				TH_LOG("%s is not an int: %s", key, msg);
			EXPECT_EQ(want, v) TH_LOG("%s", key);
		}
	}
	vt_close(&c);
}

/* The description comes back verbatim, doc comments included. */
FIXTURE(description) {
	struct vt_conn c;
};

FIXTURE_VARIANT(description) {
	const char *interface;
	const char *contains[4];
};

FIXTURE_VARIANT_ADD(description, test) {
	.interface = VT_IFACE,
	.contains = {
		"# Test interface of the in-kernel varlink server.\n",
		"\ninterface org.kernel.varlink.test\n",
		"\n# A named enum.\ntype Color (red, green, blue)\n",
		"\nerror TestError (reason: string, code: int)\n",
	},
};

FIXTURE_VARIANT_ADD(description, service) {
	.interface = "org.varlink.service",
	.contains = {
		"interface org.varlink.service\n",
		"method GetInfo() -> (\n",
		"error ExpectedMore ()\n",
		"error PermissionDenied ()\n",
	},
};

FIXTURE_VARIANT_ADD(description, kernel) {
	.interface = "org.kernel.varlink",
	.contains = {
		"\ninterface org.kernel.varlink\n",
		"\nmethod GetStatistics() -> (\n",
		"\nmethod GetLimits() -> (\n",
		"\nerror SystemError (errno: int)\n",
	},
};

FIXTURE_SETUP(description)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(description)
{
	vt_close(&self->c);
}

TEST_F(description, text)
{
	const char *msg;
	char *text;
	int i;

	ASSERT_EQ(1, vt_call(&self->c, vt_fmt(DESCRIBE("%s"), variant->interface), &msg));
	ASSERT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
	text = vt_json_str(msg, "parameters.description");
	ASSERT_NE(NULL, text) TH_LOG("%s", msg);
	for (i = 0; i < 4 && variant->contains[i]; i++)
		EXPECT_NE(NULL, strstr(text, variant->contains[i]))
			TH_LOG("no '%s' in:\n%s", variant->contains[i], text);
}

TEST_HARNESS_MAIN
