// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.log (varlink_log.ko): Read against /dev/kmsg read in the
 * same guest (every record: seq, priority, facility, timestamp, text),
 * "after" and "follow", Write against what /dev/kmsg then shows; who may
 * read and write (root, nobody, root without CAP_SYSLOG, root of a user
 * namespace, another network namespace, opener and sender apart), with
 * the kernel's own verdict (syslog(2)) beside the module's;
 * printk.devkmsg; a client that reads 64 bytes at a time gets a full log
 * buffer, and one user's streams are held to its share.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kernel_state_test.h"

#define IFACE		"org.kernel.log"
#define READ(params)	"{\"method\":\"" IFACE ".Read\",\"more\":true," \
			"\"parameters\":" params "}"
#define WRITE(params)	KS_CALL(IFACE ".Write", params)
#define W_FAC		"{\"priority\":%d,\"facility\":%d,\"message\":\"%s\"}"
#define RATE_LIMITED	IFACE ".RateLimited"
#define TOO_MANY	"org.kernel.varlink.TooManyStreams"

#define RESTRICT	"/proc/sys/kernel/dmesg_restrict"
#define DEVKMSG		"/proc/sys/kernel/printk_devkmsg"

#define SYSLOG_READ_ALL		3
#define SYSLOG_ACTION_CLEAR	5
#define SYSLOG_SIZE_BUFFER	10

/* A record, from /dev/kmsg or from a Read reply */
struct rec {
	long long seq;
	int pri;		/* facility * 8 + priority */
	long long us;		/* timestamp, microseconds; -1 if none */
	long long usec;		/* Read: "usec"; -1 if none */
	long long lost;		/* Read: "lost", or 0 */
	long long cleared;	/* Read: "cleared", or 0 */
	char *msg;
};

struct recs {
	struct rec *r;
	int n;
	long long next;		/* Read: "next" of the final reply */
	bool ended;		/* Read: the final reply came */
};

static void recs_add(struct recs *rs, const struct rec *r)
{
	rs->r = realloc(rs->r, (rs->n + 1) * sizeof(*r));
	rs->r[rs->n++] = *r;
}

static void recs_free(struct recs *rs)
{
	int i;

	for (i = 0; i < rs->n; i++)
		free(rs->r[i].msg);
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}

/* /dev/kmsg's text of a message: "\xNN" for bytes it escapes */
static char *kmsg_unescape(const char *s, size_t len)
{
	char *out = malloc(len + 1), *o = out;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned int c;

		if (s[i] == '\\' && i + 3 < len + 1 && s[i + 1] == 'x' &&
		    sscanf(s + i + 2, "%2x", &c) == 1) {
			*o++ = c;
			i += 3;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

/* /dev/kmsg, to read from its oldest record, or (@end) from the next */
static int kmsg_open(bool end)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && end && lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The records of @fd (kmsg_open()) up to now, oldest first, and @fd
 * closed; false on error.
 */
static bool kmsg_read(int fd, struct recs *rs)
{
	static char buf[16384];

	memset(rs, 0, sizeof(*rs));
	if (fd < 0)
		return false;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		struct rec r = { .lost = 0 };
		char *semi, *nl;

		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten meanwhile */
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		buf[n] = '\0';
		semi = strchr(buf, ';');
		if (!semi || sscanf(buf, "%d,%lld,%lld", &r.pri, &r.seq, &r.us) != 3)
			continue;
		nl = strchr(semi + 1, '\n');
		r.msg = kmsg_unescape(semi + 1, nl ? nl - semi - 1 : strlen(semi + 1));
		recs_add(rs, &r);
	}
	close(fd);
	return true;
}

/* Every record /dev/kmsg has now, oldest first; false on error. */
static bool kmsg_read_all(struct recs *rs)
{
	return kmsg_read(kmsg_open(false), rs);
}

/* The /dev/kmsg record whose text is @msg, or NULL */
static const struct rec *recs_find(const struct recs *rs, const char *msg)
{
	int i;

	for (i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].msg, msg))
			return &rs->r[i];
	return NULL;
}

/* How many records of @fd (kmsg_open(), then closed) have the text @msg */
static int kmsg_count_in(int fd, const char *msg)
{
	struct recs rs;
	int i, n = 0;

	if (!kmsg_read(fd, &rs))
		return -1;
	for (i = 0; i < rs.n; i++)
		n += !strcmp(rs.r[i].msg, msg);
	recs_free(&rs);
	return n;
}

/* Whether /dev/kmsg has a record with the text @msg, and how many */
static int kmsg_count(const char *msg)
{
	return kmsg_count_in(kmsg_open(false), msg);
}

/* Write "<@pri>@msg\n" to /dev/kmsg; 0 or -errno */
static int kmsg_write(int pri, const char *msg)
{
	return vt_write_file("/dev/kmsg", vt_fmt("<%d>%s\n", pri, msg));
}

/*
 * A Read reply into *@r: 1 with an entry, 0 the final reply without one
 * (*@next set), -1 anything else.
 */
static int parse_reply(const char *msg, struct rec *r, long long *next)
{
	long long pri, fac;

	memset(r, 0, sizeof(*r));
	if (vt_reply_problem(msg) || vt_json_has(msg, "error"))
		return -1;
	if (!ks_json_int(msg, "parameters.next", next))
		return -1;
	if (!vt_json_has(msg, "parameters.entry"))
		return vt_continues(msg) ? -1 : 0;
	if (!ks_json_int(msg, "parameters.entry.seq", &r->seq) ||
	    !ks_json_int(msg, "parameters.entry.priority", &pri) ||
	    !ks_json_int(msg, "parameters.entry.facility", &fac))
		return -1;
	r->pri = fac * 8 + pri;
	if (!ks_json_fixed(msg, "parameters.entry.timestamp", 6, &r->us))
		r->us = -1;
	if (!ks_json_int(msg, "parameters.entry.usec", &r->usec))
		r->usec = -1;
	if (!ks_json_int(msg, "parameters.entry.lost", &r->lost))
		r->lost = 0;
	if (!ks_json_int(msg, "parameters.entry.cleared", &r->cleared))
		r->cleared = 0;
	r->msg = vt_json_str(msg, "parameters.entry.message");
	return r->msg ? 1 : -1;
}

/* Read(@params) on @c to its final reply; false on any other end */
static bool read_all(struct vt_conn *c, const char *params, struct recs *rs)
{
	const char *msg;
	struct rec r;
	int ret;

	memset(rs, 0, sizeof(*rs));
	if (vt_send(c, vt_fmt(READ("%s"), params)))
		return false;
	for (;;) {
		if (vt_recv(c, VT_TIMEOUT_MS, &msg) != 1)
			return false;
		ret = parse_reply(msg, &r, &rs->next);
		if (ret < 0) {
			fprintf(stderr, "# reply: %s\n", msg);
			return false;
		}
		if (!ret)
			break;
		recs_add(rs, &r);
	}
	rs->ended = true;
	return true;
}

/* A sysctl's value, and setting it */
static char *sysctl_get(const char *path)
{
	return ks_read_line(path);
}

/* with a newline: printk_devkmsg refuses a value without one */
static int sysctl_set(const char *path, const char *v)
{
	return vt_write_file(path, vt_fmt("%s\n", v));
}

/* A text no earlier test wrote: @what, the test's pid and a count */
static char *marker(const char *what)
{
	static int n;

	return vt_fmt("ks-log-%s-%d-%d", what, getpid(), ++n);
}

FIXTURE(log) {
	char *restrict_was;
	char *devkmsg_was;
};

FIXTURE_SETUP(log)
{
	self->restrict_was = sysctl_get(RESTRICT);
	self->devkmsg_was = sysctl_get(DEVKMSG);
	ASSERT_NE(NULL, self->restrict_was);
	ASSERT_NE(NULL, self->devkmsg_was);
	ASSERT_EQ(0, access("/dev/kmsg", R_OK | W_OK));
	ASSERT_EQ(0, sysctl_set(DEVKMSG, "on"));
	ASSERT_EQ(0, sysctl_set(RESTRICT, "0"));
}

FIXTURE_TEARDOWN(log)
{
	sysctl_set(RESTRICT, self->restrict_was);
	sysctl_set(DEVKMSG, self->devkmsg_was);
}

/* Read without follow gives what /dev/kmsg has, record by record. */
TEST_F(log, matches_kmsg)
{
	const char *m1 = marker("match"), *m2 = marker("match");
	const char *m3 = marker("match");
	char *multi = vt_fmt("%s\nsecond line\\ and \ttab", m3);
	struct recs k, v;
	struct vt_conn c;
	int i, j, compared = 0;

	ASSERT_EQ(0, kmsg_write(14, m1));		/* user.info */
	ASSERT_EQ(0, kmsg_write(3 * 8 + 3, m2));	/* daemon.err */
	ASSERT_EQ(0, vt_write_file("/dev/kmsg", vt_fmt("<%d>%s\n", 23 * 8 + 7, multi)));
	ASSERT_TRUE(kmsg_read_all(&k));
	ASSERT_LT(0, k.n);

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_TRUE(read_all(&c, "{}", &v));
	ASSERT_LT(0, v.n);

	/* the same first record, unless overwritten between the two reads */
	EXPECT_LE(k.r[0].seq, v.r[0].seq);
	EXPECT_EQ(0, v.r[0].lost);
	for (i = 0, j = 0; i < v.n; i++) {
		if (i)
			EXPECT_EQ(v.r[i - 1].seq + 1 + v.r[i].lost, v.r[i].seq);
		while (j < k.n && k.r[j].seq < v.r[i].seq)
			j++;
		if (j == k.n)
			break;	/* newer than /dev/kmsg's read */
		if (k.r[j].seq != v.r[i].seq)
			continue;
		EXPECT_EQ(k.r[j].pri, v.r[i].pri) TH_LOG("seq %lld", v.r[i].seq);
		EXPECT_EQ(k.r[j].us, v.r[i].us) TH_LOG("seq %lld", v.r[i].seq);
		EXPECT_EQ(k.r[j].us, v.r[i].usec) TH_LOG("seq %lld", v.r[i].seq);
		EXPECT_STREQ(k.r[j].msg, v.r[i].msg) TH_LOG("seq %lld", v.r[i].seq);
		compared++;
	}
	/* every record /dev/kmsg had from Read's first on */
	for (j = 0; j < k.n && k.r[j].seq < v.r[0].seq; j++)
		;
	EXPECT_EQ(k.n - j, compared);
	EXPECT_EQ(v.r[v.n - 1].seq + 1, v.next);
	EXPECT_GE(v.next, k.r[k.n - 1].seq + 1);

	ASSERT_NE(NULL, recs_find(&v, m1));
	EXPECT_EQ(14, recs_find(&v, m1)->pri);
	ASSERT_NE(NULL, recs_find(&v, m2));
	EXPECT_EQ(27, recs_find(&v, m2)->pri);
	ASSERT_NE(NULL, recs_find(&v, multi));
	EXPECT_EQ(23 * 8 + 7, recs_find(&v, multi)->pri);

	/* the connection goes on */
	recs_free(&v);
	ASSERT_TRUE(read_all(&c, "{\"follow\":false}", &v));
	EXPECT_LT(0, v.n);
	recs_free(&v);
	recs_free(&k);
	vt_close(&c);
}

/* "after" starts after the record it names. */
TEST_F(log, after)
{
	const char *m = marker("after");
	const struct rec *r;
	struct recs k, v;
	struct vt_conn c;
	const char *msg;
	long long seq;

	ASSERT_EQ(0, kmsg_write(13, m));
	ASSERT_TRUE(kmsg_read_all(&k));
	r = recs_find(&k, m);
	ASSERT_NE(NULL, r);
	seq = r->seq;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_TRUE(read_all(&c, vt_fmt("{\"after\":%lld}", seq - 1), &v));
	ASSERT_LT(0, v.n);
	EXPECT_EQ(seq, v.r[0].seq);
	EXPECT_STREQ(m, v.r[0].msg);
	EXPECT_EQ(0, v.r[0].lost);
	recs_free(&v);

	ASSERT_TRUE(read_all(&c, vt_fmt("{\"after\":%lld}", seq), &v));
	if (v.n)
		EXPECT_LT(seq, v.r[0].seq);
	EXPECT_EQ(NULL, recs_find(&v, m));
	recs_free(&v);

	/* beyond the newest: nothing, and where the next one will be */
	ASSERT_TRUE(read_all(&c, "{\"after\":9223372036854775807}", &v));
	EXPECT_EQ(0, v.n);
	EXPECT_LT(seq, v.next);
	EXPECT_GT(seq + 1000, v.next);
	recs_free(&v);

	/* -1 is the start, as absent: after the last "dmesg -C" (the debug
	 * kernels' guest clears the log), so at or after /dev/kmsg's first
	 */
	ASSERT_TRUE(read_all(&c, "{\"after\":-1}", &v));
	ASSERT_LT(0, v.n);
	EXPECT_LE(k.r[0].seq, v.r[0].seq);
	seq = v.r[0].seq;
	recs_free(&v);
	ASSERT_TRUE(read_all(&c, "{}", &v));
	ASSERT_LT(0, v.n);
	EXPECT_EQ(seq, v.r[0].seq);
	recs_free(&v);

	ASSERT_EQ(1, vt_call(&c, READ("{\"after\":-2}"), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.parameter", "\"after\""));
	ASSERT_EQ(1, vt_call(&c, READ("{\"after\":\"1\"}"), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	/* without "more" */
	ASSERT_EQ(1, vt_call(&c, KS_CALL(IFACE ".Read", "{}"), &msg));
	EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.ExpectedMore"))
		TH_LOG("%s", msg);
	recs_free(&k);
	vt_close(&c);
}

/* Wait on a follow stream for the record @text; false if it never came */
static bool follow_until(struct __test_metadata *_metadata, struct vt_conn *c,
			 const char *text, long long *last)
{
	long long deadline = vt_now_ms() + VT_TIMEOUT_MS, next;
	const char *msg;
	struct rec r;

	while (vt_now_ms() < deadline) {
		if (vt_recv(c, VT_TIMEOUT_MS, &msg) != 1)
			return false;
		EXPECT_TRUE(vt_continues(msg)) TH_LOG("%s", msg);
		if (parse_reply(msg, &r, &next) != 1) {
			TH_LOG("%s", msg);
			return false;
		}
		if (*last >= 0)
			EXPECT_EQ(*last + 1 + r.lost, r.seq);
		*last = r.seq;
		if (!strcmp(r.msg, text)) {
			free(r.msg);
			return true;
		}
		free(r.msg);
	}
	return false;
}

/* "follow" goes on with records written after the call. */
TEST_F(log, follow)
{
	const char *m1 = marker("follow"), *m2 = marker("follow");
	const char *m3 = marker("follow");
	struct vt_conn c, w;
	const char *msg;
	long long last = -1;

	ASSERT_EQ(0, kmsg_write(14, m1));
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, vt_open_ready(&w));
	ASSERT_EQ(0, vt_send(&c, READ("{\"follow\":true}")));
	EXPECT_TRUE(follow_until(_metadata, &c, m1, &last));
	/* idle, with nothing new: no reply, no end */
	vt_sleep_ms(300);
	ASSERT_EQ(0, kmsg_write(14, m2));
	EXPECT_TRUE(follow_until(_metadata, &c, m2, &last));
	ASSERT_EQ(1, vt_call(&w, vt_fmt(WRITE("{\"priority\":6,\"message\":\"%s\"}"), m3),
			     &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_TRUE(follow_until(_metadata, &c, m3, &last));
	vt_close(&w);
	vt_close(&c);
}

/* Write's record is in /dev/kmsg, as "<N>text" written there would be. */
TEST_F(log, write)
{
	const char *m1 = marker("write"), *m2 = marker("write");
	char *m3 = vt_fmt("%s\nline two", marker("write"));
	char *m3json = vt_fmt("%.*s\\nline two", (int)strcspn(m3, "\n"), m3);
	char *longest = malloc(991);
	struct vt_conn c;
	const char *msg;
	struct recs k;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, vt_fmt(WRITE("{\"priority\":5,\"message\":\"%s\"}"), m1),
			     &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_STREQ("{}", vt_params(msg));
	ASSERT_EQ(1, vt_call(&c, vt_fmt(WRITE(W_FAC), 2, 16, m2), &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	ASSERT_EQ(1, vt_call(&c, vt_fmt(WRITE(W_FAC), 7, 255, m3json), &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	/* the longest: 990 bytes, the newline and the NUL of LOG_LINE_MAX */
	memset(longest, 'x', 990);
	memcpy(longest, m1, strlen(m1));
	longest[990] = '\0';
	ASSERT_EQ(1, vt_call(&c, vt_fmt(WRITE("{\"priority\":7,\"message\":\"%s\"}"),
					longest), &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);

	ASSERT_TRUE(kmsg_read_all(&k));
	ASSERT_NE(NULL, recs_find(&k, m1));
	EXPECT_EQ(1 * 8 + 5, recs_find(&k, m1)->pri);
	ASSERT_NE(NULL, recs_find(&k, m2));
	EXPECT_EQ(16 * 8 + 2, recs_find(&k, m2)->pri);
	ASSERT_NE(NULL, recs_find(&k, m3));
	EXPECT_EQ(255 * 8 + 7, recs_find(&k, m3)->pri);
	ASSERT_NE(NULL, recs_find(&k, longest));
	EXPECT_EQ(15, recs_find(&k, longest)->pri);
	recs_free(&k);
	vt_close(&c);
}

/* Parameters Write refuses, and a refused Write writes nothing. */
FIXTURE(bad_write) {
	char *devkmsg_was;
};

FIXTURE_VARIANT(bad_write) {
	const char *params;	/* "%s" is the message */
	const char *parameter;	/* the one named, or NULL: any */
	int length;		/* the message padded to this length */
};

FIXTURE_VARIANT_ADD(bad_write, priority_8) {
	.params = "{\"priority\":8,\"message\":\"%s\"}", .parameter = "priority",
};

FIXTURE_VARIANT_ADD(bad_write, priority_negative) {
	.params = "{\"priority\":-1,\"message\":\"%s\"}", .parameter = "priority",
};

FIXTURE_VARIANT_ADD(bad_write, priority_missing) {
	.params = "{\"message\":\"%s\"}",
};

FIXTURE_VARIANT_ADD(bad_write, facility_kernel) {
	.params = "{\"priority\":6,\"facility\":0,\"message\":\"%s\"}",
	.parameter = "facility",
};

FIXTURE_VARIANT_ADD(bad_write, facility_256) {
	.params = "{\"priority\":6,\"facility\":256,\"message\":\"%s\"}",
	.parameter = "facility",
};

FIXTURE_VARIANT_ADD(bad_write, facility_huge) {
	.params = "{\"priority\":6,\"facility\":184467440737095516160,\"message\":\"%s\"}",
};

FIXTURE_VARIANT_ADD(bad_write, nul) {
	.params = "{\"priority\":6,\"message\":\"%s\\u0000after\"}",
};

FIXTURE_VARIANT_ADD(bad_write, too_long) {
	.params = "{\"priority\":6,\"message\":\"%s\"}", .parameter = "message",
	.length = 991,	/* one more than the 990 it takes */
};

FIXTURE_SETUP(bad_write)
{
	self->devkmsg_was = sysctl_get(DEVKMSG);
	ASSERT_NE(NULL, self->devkmsg_was);
	ASSERT_EQ(0, sysctl_set(DEVKMSG, "on"));
}

FIXTURE_TEARDOWN(bad_write)
{
	sysctl_set(DEVKMSG, self->devkmsg_was);
}

TEST_F(bad_write, refused)
{
	char *m = marker("bad"), *text = m;
	struct vt_conn c;
	const char *msg;
	struct recs k;
	int i;

	if (variant->length) {
		text = malloc(variant->length + 1);
		memset(text, '.', variant->length);
		memcpy(text, m, strlen(m));
		text[variant->length] = '\0';
	}
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, vt_fmt(WRITE("%s"), vt_fmt(variant->params, text)),
			     &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	if (variant->parameter)
		EXPECT_TRUE(vt_json_is(msg, "parameters.parameter",
				       vt_fmt("\"%s\"", variant->parameter)))
			TH_LOG("%s", msg);
	ASSERT_TRUE(kmsg_read_all(&k));
	for (i = 0; i < k.n; i++)
		EXPECT_EQ(NULL, strstr(k.r[i].msg, m)) TH_LOG("%s", k.r[i].msg);
	recs_free(&k);
	vt_close(&c);
}

/*
 * Who may read and write.  A child takes the identity, connects (the
 * opener), maybe takes another (the sender), and calls; it also asks the
 * kernel itself, syslog(2) READ_ALL, where the module mirrors it.
 */
enum who {
	ROOT,
	NOBODY,
	NO_SYSLOG,		/* root without CAP_SYSLOG, CAP_SYS_ADMIN */
	ADMIN_NO_SYSLOG,	/* root without CAP_SYSLOG */
	USERNS_ROOT,		/* root of a new user namespace, mapped to 0 */
	NETNS_ROOT,		/* root in a new network namespace */
	NETNS_NOBODY,
	OPENER_ROOT,		/* opened by root, sent by nobody */
	OPENER_NOBODY,		/* opened by nobody, sent by root */
};

enum { ALLOWED, DENIED, OTHER };

static int drop_caps(const int *caps, int n)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	int i;

	for (i = 0; i < n; i++)
		if (prctl(PR_CAPBSET_DROP, caps[i], 0, 0, 0))
			return -errno;
	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	for (i = 0; i < n; i++) {
		data[CAP_TO_INDEX(caps[i])].effective &= ~CAP_TO_MASK(caps[i]);
		data[CAP_TO_INDEX(caps[i])].permitted &= ~CAP_TO_MASK(caps[i]);
		data[CAP_TO_INDEX(caps[i])].inheritable &= ~CAP_TO_MASK(caps[i]);
	}
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

static int become_opener(enum who who)
{
	static const int syslog_admin[] = { CAP_SYSLOG, CAP_SYS_ADMIN };

	switch (who) {
	case NOBODY:
		return vt_become(KS_NOBODY);
	case NO_SYSLOG:
		return drop_caps(syslog_admin, 2);
	case ADMIN_NO_SYSLOG:
		return drop_caps(syslog_admin, 1);
	case USERNS_ROOT:
		if (unshare(CLONE_NEWUSER))
			return -errno;
		return vt_map_ids(getpid(), "0 0 1", false);
	case NETNS_ROOT:
		return unshare(CLONE_NEWNET) ? -errno : 0;
	case NETNS_NOBODY:
		if (unshare(CLONE_NEWNET))
			return -errno;
		return vt_become(KS_NOBODY);
	case OPENER_NOBODY:
		/* effective nobody, real and saved root: root again later */
		return setresuid(0, KS_NOBODY, 0) ? -errno : 0;
	default:
		return 0;
	}
}

static int become_sender(enum who who)
{
	switch (who) {
	case OPENER_ROOT:
		return vt_become(KS_NOBODY);
	case OPENER_NOBODY:
		return setresuid(0, 0, 0) ? -errno : 0;
	default:
		return 0;
	}
}

/* The verdict of a first reply */
static int verdict(const char *msg)
{
	if (vt_is_error(msg, KS_DENIED))
		return DENIED;
	if (!vt_reply_problem(msg) && !vt_json_has(msg, "error"))
		return ALLOWED;
	fprintf(stderr, "# reply: %s\n", msg);
	return OTHER;
}

/*
 * In a child as @who: Read's and Write's (with @text) verdicts, and
 * syslog(2)'s, in its exit status: read | write << 2 | kernel << 4.
 */
static int perm_child(enum who who, const char *text)
{
	static char buf[65536];
	int read_v, write_v, kernel_v;
	struct vt_conn c;
	const char *msg;

	if (become_opener(who)) {
		perror("become");
		_exit(255);
	}
	if (vt_open(&c))
		_exit(254);
	if (become_sender(who))
		_exit(253);
	if (vt_call(&c, READ("{}"), &msg) != 1)
		_exit(252);
	read_v = verdict(msg);
	vt_close(&c);

	if (become_opener(ROOT) || vt_open(&c))
		_exit(251);
	/* a second connection, as the same opener and sender */
	if (who == OPENER_ROOT || who == OPENER_NOBODY)
		write_v = OTHER;
	else if (vt_call(&c, vt_fmt(WRITE("{\"priority\":6,\"message\":\"%s\"}"),
				    text), &msg) != 1)
		_exit(250);
	else
		write_v = verdict(msg);
	vt_close(&c);

	kernel_v = klogctl(SYSLOG_READ_ALL, buf, sizeof(buf)) >= 0 ? ALLOWED :
		   errno == EPERM ? DENIED : OTHER;
	_exit(read_v | write_v << 2 | kernel_v << 4);
}

/* Write as opener root, sender nobody or the other way: on one connection */
static int write_child(enum who who, const char *text)
{
	struct vt_conn c;
	const char *msg;

	if (become_opener(who) || vt_open(&c) || become_sender(who))
		_exit(255);
	if (vt_call(&c, vt_fmt(WRITE("{\"priority\":6,\"message\":\"%s\"}"), text),
		    &msg) != 1)
		_exit(254);
	_exit(verdict(msg));
}

FIXTURE(perm) {
	char *restrict_was;
	char *devkmsg_was;
	int kmsg;	/* what is logged from the start of the test */
};

FIXTURE_VARIANT(perm) {
	enum who who;
	const char *dmesg_restrict;
	int read;
	int write;
	bool kernel;	/* syslog(2) says the same as Read */
};

FIXTURE_VARIANT_ADD(perm, root_restrict_0) {
	.who = ROOT, .dmesg_restrict = "0", .read = ALLOWED, .write = ALLOWED,
	.kernel = true,
};

FIXTURE_VARIANT_ADD(perm, root_restrict_1) {
	.who = ROOT, .dmesg_restrict = "1", .read = ALLOWED, .write = ALLOWED,
	.kernel = true,
};

FIXTURE_VARIANT_ADD(perm, nobody_restrict_0) {
	.who = NOBODY, .dmesg_restrict = "0", .read = ALLOWED, .write = DENIED,
	.kernel = true,
};

FIXTURE_VARIANT_ADD(perm, nobody_restrict_1) {
	.who = NOBODY, .dmesg_restrict = "1", .read = DENIED, .write = DENIED,
	.kernel = true,
};

FIXTURE_VARIANT_ADD(perm, no_syslog_restrict_0) {
	.who = NO_SYSLOG, .dmesg_restrict = "0", .read = ALLOWED, .write = DENIED,
	.kernel = true,
};

FIXTURE_VARIANT_ADD(perm, no_syslog_restrict_1) {
	.who = NO_SYSLOG, .dmesg_restrict = "1", .read = DENIED, .write = DENIED,
	.kernel = true,
};

/* before 6.9 the kernel took CAP_SYS_ADMIN for CAP_SYSLOG, to read */
FIXTURE_VARIANT_ADD(perm, admin_no_syslog_restrict_1) {
	.who = ADMIN_NO_SYSLOG, .dmesg_restrict = "1", .read = -1, .write = DENIED,
	.kernel = true,
};

FIXTURE_VARIANT_ADD(perm, userns_root_restrict_0) {
	.who = USERNS_ROOT, .dmesg_restrict = "0", .read = ALLOWED, .write = DENIED,
	.kernel = true,
};

FIXTURE_VARIANT_ADD(perm, userns_root_restrict_1) {
	.who = USERNS_ROOT, .dmesg_restrict = "1", .read = DENIED, .write = DENIED,
	.kernel = true,
};

FIXTURE_VARIANT_ADD(perm, netns_root_restrict_1) {
	.who = NETNS_ROOT, .dmesg_restrict = "1", .read = ALLOWED, .write = ALLOWED,
	.kernel = true,
};

/* stricter than syslog(2): another netns is held to dmesg_restrict 1 */
FIXTURE_VARIANT_ADD(perm, netns_nobody_restrict_0) {
	.who = NETNS_NOBODY, .dmesg_restrict = "0", .read = DENIED, .write = DENIED,
	.kernel = false,
};

FIXTURE_VARIANT_ADD(perm, opener_root_sender_nobody_restrict_0) {
	.who = OPENER_ROOT, .dmesg_restrict = "0", .read = ALLOWED, .write = DENIED,
	.kernel = false,
};

FIXTURE_VARIANT_ADD(perm, opener_root_sender_nobody_restrict_1) {
	.who = OPENER_ROOT, .dmesg_restrict = "1", .read = DENIED, .write = DENIED,
	.kernel = false,
};

FIXTURE_VARIANT_ADD(perm, opener_nobody_sender_root_restrict_1) {
	.who = OPENER_NOBODY, .dmesg_restrict = "1", .read = DENIED, .write = DENIED,
	.kernel = false,
};

FIXTURE_VARIANT_ADD(perm, opener_nobody_sender_root_restrict_0) {
	.who = OPENER_NOBODY, .dmesg_restrict = "0", .read = ALLOWED, .write = DENIED,
	.kernel = false,
};

FIXTURE_SETUP(perm)
{
	self->kmsg = -1;
	self->restrict_was = sysctl_get(RESTRICT);
	self->devkmsg_was = sysctl_get(DEVKMSG);
	ASSERT_NE(NULL, self->restrict_was);
	ASSERT_NE(NULL, self->devkmsg_was);
	ASSERT_EQ(0, sysctl_set(DEVKMSG, "on"));
	ASSERT_EQ(0, sysctl_set(RESTRICT, variant->dmesg_restrict));
	/* not all of the log: slow to read on a debug kernel */
	self->kmsg = kmsg_open(true);
	ASSERT_LE(0, self->kmsg);
}

FIXTURE_TEARDOWN(perm)
{
	sysctl_set(RESTRICT, self->restrict_was);
	sysctl_set(DEVKMSG, self->devkmsg_was);
	if (self->kmsg >= 0)
		close(self->kmsg);
}

TEST_F(perm, read_and_write)
{
	const char *m = marker("perm");
	int status, v;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		perm_child(variant->who, m);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	v = WEXITSTATUS(status);
	ASSERT_GT(64, v) TH_LOG("the child failed: %d", v);
	/* -1: as syslog(2) says */
	if (variant->read >= 0)
		EXPECT_EQ(variant->read, v & 3);
	if (variant->kernel)
		EXPECT_EQ(v >> 4 & 3, v & 3) TH_LOG("syslog(2) says otherwise");
	if (variant->read < 0)
		TH_LOG("Read and syslog(2): %s", (v & 3) == ALLOWED ? "allowed" : "denied");

	if (variant->who == OPENER_ROOT || variant->who == OPENER_NOBODY) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid)
			write_child(variant->who, m);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		v = WEXITSTATUS(status) << 2;
	}
	EXPECT_EQ(variant->write, v >> 2 & 3);
	/* a refused Write writes nothing */
	EXPECT_EQ(variant->write == ALLOWED, kmsg_count_in(self->kmsg, m));
	self->kmsg = -1;
}

/* printk.devkmsg=off refuses Write, as it refuses opening /dev/kmsg. */
TEST_F(log, devkmsg_off)
{
	const char *m = marker("off");
	struct vt_conn c;
	const char *msg;
	int fd;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, sysctl_set(DEVKMSG, "off"));
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EPERM, errno);
	if (fd >= 0)
		close(fd);
	ASSERT_EQ(1, vt_call(&c, vt_fmt(WRITE("{\"priority\":6,\"message\":\"%s\"}"), m),
			     &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_DENIED)) TH_LOG("%s", msg);
	ASSERT_EQ(0, sysctl_set(DEVKMSG, "on"));
	EXPECT_EQ(0, kmsg_count(m));
	vt_close(&c);
}

/*
 * printk.devkmsg=ratelimit: 10 writes in 5 seconds, as /dev/kmsg takes
 * from one open file; the rest are RateLimited.  "on" has no limit.
 */
TEST_F(log, devkmsg_ratelimit)
{
	const char *m = marker("rate");
	int i, ok = 0, limited = 0, fd;
	struct vt_conn c;
	const char *msg;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, sysctl_set(DEVKMSG, "ratelimit"));
	/* the kernel's, from one open file */
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	for (i = 0; i < 15; i++) {
		char *line = vt_fmt("<14>%s-kmsg\n", m);

		EXPECT_EQ((ssize_t)strlen(line), write(fd, line, strlen(line)));
	}
	close(fd);
	EXPECT_EQ(10, kmsg_count(vt_fmt("%s-kmsg", m)));

	/* a window of Write's own: none of the 5 seconds is left */
	vt_sleep_ms(5100);
	for (i = 0; i < 15; i++) {
		ASSERT_EQ(1, vt_call(&c, vt_fmt(WRITE("{\"priority\":6,\"message\":\"%s\"}"),
						m), &msg));
		if (vt_is_ok(msg))
			ok++;
		else if (vt_is_error(msg, RATE_LIMITED))
			limited++;
		else
			TH_LOG("%s", msg);
	}
	EXPECT_EQ(10, ok);
	EXPECT_EQ(5, limited);
	EXPECT_EQ(10, kmsg_count(m));

	ASSERT_EQ(0, sysctl_set(DEVKMSG, "on"));
	for (i = 0; i < 15; i++) {
		ASSERT_EQ(1, vt_call(&c, vt_fmt(WRITE("{\"priority\":6,\"message\":\"%s\"}"),
						m), &msg));
		EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	}
	EXPECT_EQ(25, kmsg_count(m));
	vt_close(&c);
}

static long long slab_kib(void)
{
	char *text = ks_read("/proc/meminfo");
	long long v = text ? ks_field(text, "Slab:", 0) : -1;

	free(text);
	return v;
}

/*
 * printk.time off: no record shows a timestamp (the kernel prints them
 * by printk.time as it reads them, whenever they were stored), and a
 * text that looks like one stays text.  On again, they are back.
 */
#define PRINTK_TIME	"/sys/module/printk/parameters/time"

TEST_F(log, printk_time_off)
{
	const char *m1 = marker("time"), *m2 = marker("time");
	char *fake = vt_fmt("[   12.345678] %s", m2);
	char *was = sysctl_get(PRINTK_TIME);
	const struct rec *r;
	struct vt_conn c;
	struct recs k, v;
	long long seq;

	ASSERT_NE(NULL, was);
	ASSERT_EQ(0, kmsg_write(14, m1));
	ASSERT_EQ(0, vt_write_file(PRINTK_TIME, "N"));
	EXPECT_EQ(0, kmsg_write(14, fake));
	ASSERT_TRUE(kmsg_read_all(&k));
	r = recs_find(&k, m1);
	ASSERT_NE(NULL, r);
	seq = r->seq;
	ASSERT_EQ(0, vt_open_ready(&c));
	EXPECT_TRUE(read_all(&c, vt_fmt("{\"after\":%lld}", seq - 1), &v));
	vt_write_file(PRINTK_TIME, was);
	ASSERT_LE(2, v.n);
	EXPECT_STREQ(m1, v.r[0].msg);
	/* printk.time is what the text has: none for any record now,
	 * though /dev/kmsg gives it
	 */
	EXPECT_EQ(-1, v.r[0].us);
	EXPECT_EQ(-1, v.r[0].usec);
	EXPECT_LE(0, r->us);
	ASSERT_NE(NULL, recs_find(&v, fake));
	EXPECT_EQ(-1, recs_find(&v, fake)->us);
	EXPECT_EQ(r->pri, v.r[0].pri);
	recs_free(&v);
	/* on again: the timestamps are back, as /dev/kmsg has them */
	EXPECT_TRUE(read_all(&c, vt_fmt("{\"after\":%lld}", seq - 1), &v));
	ASSERT_LE(1, v.n);
	EXPECT_EQ(r->us, v.r[0].us);
	EXPECT_EQ(r->us, v.r[0].usec);
	ASSERT_NE(NULL, recs_find(&v, fake));
	recs_free(&v);
	recs_free(&k);
	vt_close(&c);
}

/* journald's reader side by side with /dev/kmsg's: SIDE_BURSTS bursts of
 * SIDE_BURST records of SIDE_LEN bytes, both read after each
 */
#define SIDE_BURSTS	100
#define SIDE_BURST	100
#define SIDE_LEN	200

/* The next record of a follow stream into *@r: 1, or 0 */
static int follow_next(struct vt_conn *c, struct rec *r)
{
	const char *msg;
	long long next;

	if (vt_recv(c, VT_TIMEOUT_MS, &msg) != 1 || !vt_continues(msg) ||
	    parse_reply(msg, r, &next) != 1)
		return fprintf(stderr, "# %s\n", msg), 0;
	return 1;
}

/* The next record of the /dev/kmsg reader @fd into *@r: 1, 0 for none,
 * or -1 after EPIPE (overwritten: the next read gives the oldest there is)
 */
static int kmsg_next(int fd, struct rec *r)
{
	static char buf[8192];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	char *semi, *nl;

	memset(r, 0, sizeof(*r));
	if (n < 0 && errno == EPIPE)
		return -1;
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	semi = strchr(buf, ';');
	if (!semi || sscanf(buf, "%d,%lld,%lld", &r->pri, &r->seq, &r->us) != 3)
		return 0;
	nl = strchr(semi + 1, '\n');
	r->msg = kmsg_unescape(semi + 1, nl ? nl - semi - 1 : strlen(semi + 1));
	return 1;
}

/* A record of SIDE_LEN bytes: @tag and its number */
static int side_write(int fd, const char *tag, int i)
{
	char line[SIDE_LEN + 16];
	int n = snprintf(line, sizeof(line), "<15>%s %6d %0*d\n", tag, i,
			 SIDE_LEN - 8 - (int)strlen(tag), 0);

	return write(fd, line, n) == n ? 0 : -1;
}

/*
 * As journald reads /dev/kmsg: Read(after, follow) and a /dev/kmsg reader
 * side by side over 10,000 records, each burst read by both before the
 * next: the same consecutive records, none lost, and "usec" /dev/kmsg's
 * field 3 for each.
 */
TEST_F_TIMEOUT(log, journald_side_by_side, 600)
{
	int k = kmsg_open(true), w = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	const char *tag = marker("side");
	struct rec kr, vr;
	struct vt_conn c;
	long long first;
	int b, i, compared = 0;

	ASSERT_LE(0, k);
	ASSERT_LE(0, w);
	ASSERT_EQ(0, side_write(w, tag, -1));
	do {
		ASSERT_EQ(1, kmsg_next(k, &kr));
	} while (!strstr(kr.msg, tag));
	first = kr.seq;
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, vt_send(&c, vt_fmt(READ("{\"after\":%lld,\"follow\":true}"), first)));
	for (b = 0; b < SIDE_BURSTS; b++) {
		for (i = 0; i < SIDE_BURST; i++)
			ASSERT_EQ(0, side_write(w, tag, b * SIDE_BURST + i));
		/* both, up to the burst's last: the same records */
		do {
			ASSERT_EQ(1, kmsg_next(k, &kr)) TH_LOG("burst %d", b);
			ASSERT_EQ(1, follow_next(&c, &vr)) TH_LOG("burst %d", b);
			ASSERT_EQ(first + 1, vr.seq) TH_LOG("lost %lld", vr.lost);
			ASSERT_EQ(kr.seq, vr.seq);
			EXPECT_EQ(0, vr.lost);
			EXPECT_EQ(0, vr.cleared);
			EXPECT_EQ(kr.us, vr.usec) TH_LOG("seq %lld", vr.seq);
			EXPECT_EQ(kr.pri, vr.pri);
			EXPECT_STREQ(kr.msg, vr.msg);
			first = vr.seq;
			compared += !!strstr(vr.msg, tag);
			free(kr.msg);
			free(vr.msg);
		} while (compared < (b + 1) * SIDE_BURST);
	}
	EXPECT_EQ(SIDE_BURSTS * SIDE_BURST, compared);
	close(w);
	close(k);
	vt_close(&c);
}

/*
 * Both readers stopped while twice the log buffer is written: the first
 * record each reads after is the same, and "lost" is the jump /dev/kmsg's
 * reader sees after its EPIPE.  Then "dmesg -C" behind a reader that
 * lags: every record is read, lost or cleared.
 */
TEST_F_TIMEOUT(log, overrun_and_clear, 600)
{
	int size = klogctl(SYSLOG_SIZE_BUFFER, NULL, 0), n, i, ret;
	int k = kmsg_open(true), w = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	long long kfirst, knext, vnext, start, delivered = 0, lost = 0;
	long long cleared = 0;
	const char *tag = marker("overrun");
	struct rec kr, vr;
	struct vt_conn c;

	ASSERT_LT(0, size);
	ASSERT_LE(0, k);
	ASSERT_LE(0, w);
	ASSERT_EQ(0, side_write(w, tag, -1));
	ASSERT_EQ(1, kmsg_next(k, &kr));
	knext = kr.seq + 1;
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, vt_send(&c, vt_fmt(READ("{\"after\":%lld,\"follow\":true}"), kr.seq)));
	n = 2 * size / SIDE_LEN + 100;
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, side_write(w, tag, i));
	/* /dev/kmsg: EPIPE, then the oldest record there is */
	ASSERT_EQ(-1, kmsg_next(k, &kr));
	ASSERT_EQ(1, kmsg_next(k, &kr));
	kfirst = kr.seq;
	TH_LOG("/dev/kmsg's jump: %lld records", kfirst - knext);
	/* the stream: what it had sent before it paused, then the jump */
	vnext = knext;
	do {
		ASSERT_EQ(1, follow_next(&c, &vr));
		ASSERT_EQ(vnext + vr.lost, vr.seq);
		vnext = vr.seq + 1;
		free(vr.msg);
	} while (!vr.lost);
	EXPECT_EQ(kfirst, vr.seq);
	EXPECT_EQ(kfirst - (vr.seq - vr.lost), vr.lost);
	TH_LOG("the stream's: %lld records lost after %lld", vr.lost,
	       vr.seq - vr.lost);
	/* read both to the end of the fill */
	knext = kfirst + 1;
	while ((ret = kmsg_next(k, &kr)) == 1) {
		knext = kr.seq + 1;
		free(kr.msg);
	}
	while (vnext < knext) {
		ASSERT_EQ(1, follow_next(&c, &vr));
		EXPECT_EQ(vnext, vr.seq);
		vnext = vr.seq + 1;
		free(vr.msg);
	}

	/* a lagging reader: more than its connection holds written, and
	 * cleared behind it; then a last record
	 */
	start = vnext;
	n = size / 2 / SIDE_LEN;
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, side_write(w, tag, i));
	vt_sleep_ms(500);
	ASSERT_EQ(0, klogctl(SYSLOG_ACTION_CLEAR, NULL, 0));
	ASSERT_EQ(0, side_write(w, tag, n));
	for (;;) {
		ASSERT_EQ(1, follow_next(&c, &vr));
		EXPECT_EQ(vnext + vr.lost + vr.cleared, vr.seq);
		delivered++;
		lost += vr.lost;
		cleared += vr.cleared;
		vnext = vr.seq + 1;
		ret = !!strstr(vr.msg, vt_fmt("%s %6d ", tag, n));
		free(vr.msg);
		if (ret)
			break;
	}
	TH_LOG("%lld delivered, %lld lost, %lld cleared of %lld", delivered, lost,
	       cleared, vr.seq - start + 1);
	EXPECT_EQ(vr.seq - start + 1, delivered + lost + cleared);
	EXPECT_LT(0, cleared);
	EXPECT_EQ(0, lost);
	close(w);
	close(k);
	vt_close(&c);
}

/*
 * A full log buffer (1 MiB in the VMs), replayed to a client that reads
 * SLOW_READ bytes at a time, at first: far more than max_output of
 * replies, which the server sends as the client reads them, so it gets
 * every record without being closed, and the server holds no more than
 * its queue.
 */
#define FILL_LEN	900
#define SLOW_READ	64

TEST_F_TIMEOUT(log, slow_reader_gets_all, 300)
{
	long long max_output = vt_param("max_output", 262144);
	long long slab_before, slab_peak = 0, received = 0, next = -1;
	int size = klogctl(SYSLOG_SIZE_BUFFER, NULL, 0);
	int i, n, fd, entries = 0, rcvbuf = 4096;
	long long first = -1, last = -1, lost = 0;
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	struct vt_conn c;
	static char chunk[4096];
	struct recs k;
	bool final = false;

	ASSERT_LT(0, size);
	/* long records, more than the buffer holds; debug, so that the
	 * console keeps quiet
	 */
	n = size / FILL_LEN + 100;
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	for (i = 0; i < n; i++) {
		char line[FILL_LEN + 16];
		int l = snprintf(line, sizeof(line), "<15>fill %7d %0*d\n", i,
				 FILL_LEN - 13, 0);

		ASSERT_EQ(l, write(fd, line, l));
	}
	close(fd);

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, setsockopt(c.fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)));
	slab_before = slab_kib();
	ASSERT_EQ(0, vt_send(&c, READ("{}")));
	while (!final) {
		/* a part of a record at a time, the first 4 * max_output:
		 * the server would have closed a client this slow long
		 * before; then faster.  A byte at a time was a million
		 * recv() calls, minutes of a debug kernel, for no more
		 * waiting of the server's: its queue is full either way.
		 */
		size_t want = received < 4 * max_output ? SLOW_READ : sizeof(chunk);
		ssize_t r = recv(c.fd, chunk, want, 0);
		ssize_t j;

		if (r < 0 && errno == EINTR)
			continue;
		ASSERT_LT(0, r) TH_LOG("closed after %lld bytes, %d entries", received,
				       entries);
		received += r;
		for (j = 0; j < r && !final; j++) {
			struct rec rec;
			int ret;

			if (len + 1 == cap)
				buf = realloc(buf, cap *= 2);
			buf[len++] = chunk[j];
			if (chunk[j])
				continue;
			ret = parse_reply(buf, &rec, &next);
			ASSERT_LE(0, ret) TH_LOG("%s", buf);
			if (ret) {
				if (first < 0)
					first = rec.seq;
				else
					EXPECT_EQ(last + 1 + rec.lost, rec.seq);
				lost += rec.lost;
				last = rec.seq;
				entries++;
				free(rec.msg);
			} else {
				final = true;
			}
			len = 0;
			if (!(entries % 64)) {
				long long sl = slab_kib();

				if (sl > slab_peak)
					slab_peak = sl;
			}
		}
	}
	EXPECT_LT(max_output, received)
		TH_LOG("a replay of %lld bytes proves no pacing", received);
	EXPECT_EQ(last + 1, next);
	/* all but what was overwritten while it was read */
	ASSERT_TRUE(kmsg_read_all(&k));
	EXPECT_LE(k.r[0].seq, last);
	EXPECT_LT(n / 2, entries);
	TH_LOG("%d entries, %lld lost, %lld bytes; slab %lld kB, at most %lld kB",
	       entries, lost, received, slab_before, slab_peak);
	/* the server held what one connection may queue, not the replay */
	EXPECT_GT(slab_before + 32 * 1024, slab_peak);
	recs_free(&k);
	free(buf);
	vt_close(&c);
}

/*
 * One user's streams are held to max_streams_per_user: clients that do
 * not read at all, from nobody.  Each replays the log until its output
 * is half full, and the user's work items run max_workers_per_user at a
 * time: on a slow kernel (KCSAN under TCG) the last call waits for them
 * longer than a call usually may.
 */
static int streams_child(void *arg)
{
	int max = *(int *)arg, i, failed = 0;
	struct vt_conn *c = calloc(max + 1, sizeof(*c));
	const char *msg;

	for (i = 0; i <= max; i++) {
		failed += !KS_OK(vt_open(&c[i]) == 0);
		failed += !KS_OK(vt_send(&c[i], READ("{\"follow\":true}")) == 0);
		failed += !KS_OK(vt_recv(&c[i], 6 * VT_TIMEOUT_MS, &msg) == 1);
		if (i < max) {
			failed += !KS_OK(vt_continues(msg));
			continue;
		}
		failed += !KS_OK(vt_is_error(msg, TOO_MANY));
		failed += !KS_OK(vt_json_is(msg, "parameters.max_per_user",
					    vt_fmt("%d", max)));
		if (failed)
			fprintf(stderr, "# %s\n", msg);
	}
	/* one ends: there is room for another, once its end has run */
	vt_close(&c[0]);
	for (i = 0; i < 50; i++) {
		vt_sleep_ms(200);
		failed += !KS_OK(vt_open(&c[0]) == 0);
		failed += !KS_OK(vt_send(&c[0], READ("{\"follow\":true}")) == 0);
		failed += !KS_OK(vt_recv(&c[0], 6 * VT_TIMEOUT_MS, &msg) == 1);
		if (!vt_is_error(msg, TOO_MANY))
			break;
		vt_close(&c[0]);
	}
	failed += !KS_OK(vt_continues(msg));
	for (i = 0; i <= max; i++)
		vt_close(&c[i]);
	return failed;
}

TEST_F_TIMEOUT(log, streams_per_user, 300)
{
	int max = vt_param("max_streams_per_user", -1);

	ASSERT_LT(0, max) TH_LOG("varlink.ko has no max_streams_per_user");
	ASSERT_GT(vt_param("max_connections_per_uid", 0), max + 1);
	EXPECT_EQ(0, ks_run_as(KS_NOBODY, KS_NOBODY, streams_child, &max));
}

/*
 * Unloading the module ends every stream with a final reply: one that
 * follows, idle, and one whose client does not read its replay (its
 * work waits in varlink_reply_wait()).  Built in, it cannot be unloaded.
 */
TEST_F_TIMEOUT(log, unload_ends_streams, 120)
{
	struct vt_conn idle, parked;
	long long next = -1;
	const char *msg;
	struct rec r;
	int ret, n = 0;

	if (!vt_module_loaded("varlink_log")) {
		/* built in: served, and no module to unload */
		EXPECT_TRUE(vt_interface_served("org.kernel.log"));
		EXPECT_EQ(-ENOENT, vt_delete_module("varlink_log"));
		return;
	}
	ASSERT_EQ(0, vt_open_ready(&idle));
	ASSERT_EQ(0, vt_open_ready(&parked));
	ASSERT_EQ(0, vt_send(&idle, READ("{\"after\":9223372036854775807,\"follow\":true}")));
	ASSERT_EQ(0, vt_send(&parked, READ("{}")));
	vt_sleep_ms(300);
	ASSERT_EQ(0, vt_rmmod("varlink_log", VT_TIMEOUT_MS));

	ASSERT_EQ(1, vt_recv(&idle, VT_TIMEOUT_MS, &msg));
	EXPECT_EQ(0, parse_reply(msg, &r, &next)) TH_LOG("%s", msg);
	EXPECT_FALSE(vt_continues(msg)) TH_LOG("%s", msg);
	EXPECT_LT(0, next);
	do {
		ASSERT_EQ(1, vt_recv(&parked, VT_TIMEOUT_MS, &msg)) TH_LOG("after %d", n);
		ret = parse_reply(msg, &r, &next);
		ASSERT_LE(0, ret) TH_LOG("%s", msg);
		free(r.msg);
		n++;
	} while (vt_continues(msg));
	TH_LOG("the parked stream ended after %d replies", n);

	ASSERT_EQ(1, vt_call(&idle, READ("{}"), &msg));
	EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.InterfaceNotFound")) TH_LOG("%s", msg);
	ASSERT_EQ(0, vt_insmod("varlink_log"));
	ASSERT_EQ(1, vt_call(&idle, READ("{\"after\":9223372036854775807}"), &msg));
	EXPECT_EQ(0, parse_reply(msg, &r, &next)) TH_LOG("%s", msg);
	vt_close(&idle);
	vt_close(&parked);
}

/* The IDL is served, and flat. */
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
	EXPECT_NE(NULL, strstr(idl, "method Read(\n"));
	EXPECT_NE(NULL, strstr(idl, "method Write(\n"));
	EXPECT_EQ(NULL, strchr(idl, '['));
	free(idl);
	vt_close(&c);
}

TEST_HARNESS_MAIN
