// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.sysctl (varlink_sysctl.ko): Get, List and Set against
 * /proc/sys read and written in the same guest, by the same process:
 * values, names in both forms, the walk of List, the permission matrix
 * (root, nobody, root without CAP_SYS_ADMIN, Docker's default
 * capabilities, root of a user namespace, opener and sender apart both
 * ways), namespaced sysctls from other UTS, ipc and pid namespaces, a
 * BPF_CGROUP_SYSCTL program, bad names, and a List read one byte at a
 * time.  As the tools that write /proc/sys use it: procps's sysctl's
 * names and values (Get of 200 of them), systemd-sysctl's of a sysctl.d
 * list (Apply), Apply's failures and bounds, and kernel.core_pattern
 * from a mount namespace of the caller's own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <limits.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "kselftest_harness.h"
#include "kernel_state_test.h"
#include "rtnl_test.h"

#define IFACE		"org.kernel.sysctl"
#define NO_SUCH		IFACE ".NoSuchName"
#define NOT_IN_NS	IFACE ".NotInNamespace"
#define EXPECTED_MORE	"org.varlink.service.ExpectedMore"
#define PROC_SYS	"/proc/sys/"

/*
 * /proc/sys, opened before any test changes its identity: the guest's
 * root directory is root's alone (0700), so a path from / is no path
 * for nobody.  Paths below are relative to it.
 */
static int proc_sys_fd = -1;

static int sys_fd(void)
{
	if (proc_sys_fd < 0)
		proc_sys_fd = open(PROC_SYS, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return proc_sys_fd;
}

static __attribute__((constructor)) void open_proc_sys(void)
{
	sys_fd();
}

/* access(2) of /proc/sys/@rel, as the effective ids */
static bool proc_may(const char *rel, int mode)
{
	return !faccessat(sys_fd(), rel, mode, AT_EACCESS);
}

/* A dummy link whose name has a dot: only the slash form reaches it */
#define DOT_LINK	"kvs0.100"
#define DOT_LINK_SLASH	"kvs0/100"

/* @s as a JSON string, quotes included, in a new string */
static char *jstr(const char *s)
{
	char *out = malloc(strlen(s) * 6 + 3), *o = out;

	*o++ = '"';
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\') {
			*o++ = '\\';
			*o++ = c;
		} else if (c < 0x20) {
			o += sprintf(o, "\\u%04x", c);
		} else {
			*o++ = c;
		}
	}
	*o++ = '"';
	*o = '\0';
	return out;
}

static char *get_call(const char *name)
{
	return vt_fmt(KS_CALL(IFACE ".Get", "{\"name\":%s}"), jstr(name));
}

static char *set_call(const char *name, const char *value)
{
	return vt_fmt(KS_CALL(IFACE ".Set", "{\"name\":%s,\"value\":%s}"),
		      jstr(name), jstr(value));
}

static char *list_call(const char *prefix, bool more)
{
	return vt_fmt("{\"method\":\"" IFACE ".List\",%s\"parameters\":{%s%s}}",
		      more ? "\"more\":true," : "", prefix ? "\"prefix\":" : "",
		      prefix ? jstr(prefix) : "");
}

/* The path below /proc/sys of a name, by systemd-sysctl's rule: the first
 * separator decides; a dot swaps dots and slashes
 */
static char *rel_of(const char *name)
{
	char *rel = strdup(name + (*name == '/')), *p;

	if (rel[strcspn(rel, "./")] == '.')
		for (p = rel; *p; p++)
			if (*p == '.' || *p == '/')
				*p ^= '.' ^ '/';
	return rel;
}

/*
 * What reading /proc/sys/@rel gives this process: 0 with *@value (without
 * its trailing newline), or -errno.
 */
static int proc_get(const char *rel, char **value)
{
	char buf[16384];
	int fd = openat(sys_fd(), rel, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	*value = NULL;
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	if (len && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	*value = strdup(buf);
	return 0;
}

/* Write @value to /proc/sys/@rel; 0 or -errno */
static int proc_set(const char *rel, const char *value)
{
	int fd = openat(sys_fd(), rel, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) != (ssize_t)strlen(value))
		err = -EIO;
	close(fd);
	return err;
}

static char *proc_value(const char *rel)
{
	char *v;

	return proc_get(rel, &v) ? NULL : v;
}

/* Get @name on @c: 1 and *@value, or 0 with the error reply in *@msg. */
static int get(struct vt_conn *c, const char *name, const char **msg,
	       char **value)
{
	*value = NULL;
	if (vt_call(c, get_call(name), msg) != 1)
		return -1;
	if (!vt_is_ok(*msg))
		return 0;
	*value = vt_json_str(*msg, "parameters.value");
	return *value ? 1 : -1;
}

/*
 * In a child (see ks_run_as()): whether Get of @name on @c agrees with
 * this process's own read of /proc/sys: the same value, or
 * PermissionDenied where /proc says EACCES or EPERM, NoSuchName where it
 * says ENOENT.  @stable: the value does not move between two reads.
 */
static int agrees(struct vt_conn *c, const char *name, bool stable)
{
	char *rel = rel_of(name), *pv, *v;
	int perr = proc_get(rel, &pv), r, failed = 0;
	const char *msg;

	r = get(c, name, &msg, &v);
	if (!perr) {
		failed += !KS_OK(r == 1);
		if (r == 1 && stable && strcmp(pv, v))
			failed += !KS_OK(!strcmp(pv, v));
	} else if (perr == -EACCES || perr == -EPERM) {
		failed += !KS_OK(r == 0 && vt_is_error(msg, KS_DENIED));
	} else if (perr == -ENOENT) {
		failed += !KS_OK(r == 0 && vt_is_error(msg, NO_SUCH));
	} else {
		failed += !KS_OK(r == 0);
	}
	if (failed)
		fprintf(stderr, "# %s: /proc %d '%s', varlink '%s'\n", name, perr,
			pv ? pv : "", msg);
	return failed;
}

/* Sysctls whose permission differs between the callers of the matrix */
static const char *const matrix_names[] = {
	"kernel.ostype",			/* 0444 */
	"kernel.random.boot_id",		/* 0444 */
	"kernel.printk",			/* 0644, tabs */
	"vm.swappiness",			/* 0644 */
	"kernel.usermodehelper.bset",		/* 0600 */
	"vm.drop_caches",			/* 0200: nobody reads it */
	"net.core.bpf_jit_harden",		/* 0600, CAP_SYS_ADMIN to read */
	"kernel/random/uuid",			/* a new one each read */
};

/* What Set of vm.swappiness must do for the caller, and what it writes */
struct who {
	bool may_set;		/* vm.swappiness */
	bool may_set_net;	/* net.ipv4.ip_forward */
	const char *label;
};

/* Set @name to a value it does not have; returns the failures */
static int try_set(struct vt_conn *c, const char *name, bool allowed)
{
	char *rel = rel_of(name), *old = proc_value(rel), *now, *want;
	const char *msg;
	int failed = 0;

	if (!KS_OK(old))
		return 1;
	want = vt_fmt("%d", !atoi(old) ? 1 : 0);
	failed += !KS_OK(vt_call(c, set_call(name, want), &msg) == 1);
	failed += !KS_OK(!vt_reply_problem(msg));
	now = proc_value(rel);
	if (allowed) {
		failed += !KS_OK(vt_is_ok(msg));
		failed += !KS_OK(now && !strcmp(now, want));
		failed += !KS_OK(!proc_set(rel, old));
	} else {
		failed += !KS_OK(vt_is_error(msg, KS_DENIED));
		/* a refusal changes nothing */
		failed += !KS_OK(now && !strcmp(now, old));
	}
	if (failed)
		fprintf(stderr, "# Set %s=%s: %s\n", name, want, msg);
	return failed;
}

/*
 * List of a prefix, for the matrix: value null exactly where /proc says
 * the caller may not read, writable only where Set is allowed.
 */
static int list_agrees(struct vt_conn *c, const char *prefix, bool may_set)
{
	const char *msg;
	char *name, *rel, *pv;
	int failed = 0, n = 0, r;

	failed += !KS_OK(vt_send(c, list_call(prefix, true)) == 0);
	do {
		r = vt_recv(c, VT_TIMEOUT_MS, &msg);
		failed += !KS_OK(r == 1 && vt_is_ok(msg));
		if (r != 1 || !vt_is_ok(msg))
			break;
		n++;
		name = vt_json_str(msg, "parameters.name");
		failed += !KS_OK(name);
		if (!name)
			break;
		rel = rel_of(name);
		if (proc_get(rel, &pv)) {
			failed += !KS_OK(!vt_json_has(msg, "parameters.value") ||
					 vt_json_is(msg, "parameters.value", "null"));
		} else {
			failed += !KS_OK(vt_json_has(msg, "parameters.value"));
		}
		/* a caller without the capability never may */
		if (!may_set)
			failed += !KS_OK(vt_json_is(msg, "parameters.writable", "false"));
		else
			failed += !KS_OK(vt_json_is(msg, "parameters.writable",
						    proc_may(rel, W_OK) ?
						    "true" : "false"));
		if (failed) {
			fprintf(stderr, "# List %s: %s\n", prefix, msg);
			break;
		}
	} while (vt_continues(msg));
	failed += !KS_OK(n > 0);
	return failed;
}

/* The whole matrix for one caller, on a connection it opened itself */
static int matrix(struct vt_conn *c, const struct who *w)
{
	int failed = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(matrix_names); i++)
		failed += agrees(c, matrix_names[i], i < 7);
	failed += try_set(c, "vm.swappiness", w->may_set);
	failed += try_set(c, "net.ipv4.ip_forward", w->may_set_net);
	failed += list_agrees(c, "kernel.usermodehelper", w->may_set);
	failed += list_agrees(c, "vm", w->may_set);
	if (failed)
		fprintf(stderr, "# %d failures as %s\n", failed, w->label);
	return failed;
}

static int matrix_own(void *arg)
{
	struct vt_conn c;
	int failed;

	if (vt_open_ready(&c))
		return 100;
	failed = matrix(&c, arg);
	vt_close(&c);
	return failed;
}

/* Run @fn(@arg) in a child; its exit status (0: no failure). */
static int in_child(int (*fn)(void *), void *arg)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (!pid)
		_exit(fn(arg));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(matrix_root)
{
	struct who w = { true, true, "root" };

	EXPECT_EQ(0, in_child(matrix_own, &w));
}

TEST(matrix_nobody)
{
	struct who w = { false, false, "nobody" };

	EXPECT_EQ(0, ks_run_as(KS_NOBODY, KS_NOBODY, matrix_own, &w));
}

/* Keep only the capabilities in @keep (a mask of the first 64), in every set. */
static int keep_caps(unsigned long long keep)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};
	int cap;

	for (cap = 0; cap < 64; cap++)
		if (!(keep & (1ULL << cap)) &&
		    prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL)
			return -errno;
	data[0].effective = (unsigned int)keep;
	data[0].permitted = data[0].effective;
	data[1].effective = (unsigned int)(keep >> 32);
	data[1].permitted = data[1].effective;
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

#define CAPBIT(c)	(1ULL << (c))
/* Docker's default capabilities (moby's oci/caps/defaults.go) */
#define DOCKER_CAPS	(CAPBIT(CAP_CHOWN) | CAPBIT(CAP_DAC_OVERRIDE) | \
			 CAPBIT(CAP_FSETID) | CAPBIT(CAP_FOWNER) | \
			 CAPBIT(CAP_MKNOD) | CAPBIT(CAP_NET_RAW) | \
			 CAPBIT(CAP_SETGID) | CAPBIT(CAP_SETUID) | \
			 CAPBIT(CAP_SETFCAP) | CAPBIT(CAP_SETPCAP) | \
			 CAPBIT(CAP_NET_BIND_SERVICE) | CAPBIT(CAP_SYS_CHROOT) | \
			 CAPBIT(CAP_KILL) | CAPBIT(CAP_AUDIT_WRITE))

static int as_capped(void *arg)
{
	const struct who *w = arg;
	unsigned long long keep = w->may_set_net ?
		~(CAPBIT(CAP_SYS_ADMIN) | CAPBIT(CAP_SYSLOG)) : DOCKER_CAPS;

	if (keep_caps(keep))
		return 100;
	return matrix_own(arg);
}

/* Root without CAP_SYS_ADMIN and CAP_SYSLOG: net.* still, with CAP_NET_ADMIN */
TEST(matrix_root_without_sys_admin)
{
	struct who w = { false, true, "root without CAP_SYS_ADMIN" };

	EXPECT_EQ(0, in_child(as_capped, &w));
}

/* Root with Docker's default set: no CAP_SYS_ADMIN nor CAP_NET_ADMIN */
TEST(matrix_root_docker_caps)
{
	struct who w = { false, false, "root with Docker's capabilities" };

	EXPECT_EQ(0, in_child(as_capped, &w));
}

/* Root of a user namespace of its own, uid 0 mapped to the host's 0 */
TEST(matrix_user_ns_root)
{
	struct who w = { false, false, "root of a user namespace" };
	int go[2], done[2], status;
	pid_t pid;
	char b;

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(go[1]);
		close(done[0]);
		if (unshare(CLONE_NEWUSER))
			_exit(101);
		if (write(done[1], "u", 1) != 1 || read(go[0], &b, 1) != 1)
			_exit(102);
		if (setresgid(0, 0, 0) || setresuid(0, 0, 0))
			_exit(103);
		_exit(matrix_own(&w));
	}
	close(go[0]);
	close(done[1]);
	ASSERT_EQ(1, read(done[0], &b, 1));
	ASSERT_EQ(0, vt_map_ids(pid, "0 0 1", false));
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * Opener and sender apart: root opens, then becomes nobody and sends; or
 * nobody opens (root kept as its saved uid) and becomes root again to
 * send.  Either way the call is the lesser one's: nobody's, with the
 * other passing /proc/sys's rule too.
 */
static int as_opener_root_sender_nobody(void *arg)
{
	struct vt_conn c;
	int failed;

	if (vt_open_ready(&c) || vt_become(KS_NOBODY))
		return 100;
	failed = matrix(&c, arg);
	vt_close(&c);
	return failed;
}

static int as_opener_nobody_sender_root(void *arg)
{
	struct vt_conn c;
	const char *msg;
	int failed;

	if (setgroups(0, NULL) ||
	    setresgid(KS_NOBODY, KS_NOBODY, 0) ||
	    setresuid(KS_NOBODY, KS_NOBODY, 0))
		return 100;
	if (vt_open_ready(&c))
		return 101;
	if (setresuid(0, 0, 0) || setresgid(0, 0, 0))
		return 102;
	/* root again, with every capability: its /proc reads are root's */
	failed = 0;
	for (unsigned int i = 0; i < ARRAY_SIZE(matrix_names); i++) {
		const char *name = matrix_names[i];
		char *rel = rel_of(name), *pv, *v;
		int perr = proc_get(rel, &pv);
		int r = get(&c, name, &msg, &v);

		/* what nobody may read, the call gets; nothing more */
		if (i < 4 && !perr)
			failed += !KS_OK(r == 1 && !strcmp(v, pv));
		/* bpf_jit_harden: none without CONFIG_BPF_JIT */
		if (i >= 4 && i < 7)
			failed += !KS_OK(r == 0 &&
					 vt_is_error(msg, perr == -ENOENT ? NO_SUCH : KS_DENIED));
	}
	failed += try_set(&c, "vm.swappiness", false);
	failed += try_set(&c, "net.ipv4.ip_forward", false);
	/* root reads it, nobody does not: neither does the call */
	failed += !KS_OK(vt_call(&c, list_call("kernel.usermodehelper.bset", true),
				 &msg) == 1);
	failed += !KS_OK(vt_is_ok(msg));
	failed += !KS_OK(!vt_json_has(msg, "parameters.value") ||
			 vt_json_is(msg, "parameters.value", "null"));
	failed += !KS_OK(vt_json_is(msg, "parameters.writable", "false"));
	vt_close(&c);
	return failed;
}

TEST(opener_root_sender_nobody)
{
	struct who w = { false, false, "opener root, sender nobody" };

	EXPECT_EQ(0, in_child(as_opener_root_sender_nobody, &w));
}

TEST(opener_nobody_sender_root)
{
	EXPECT_EQ(0, in_child(as_opener_nobody_sender_root, NULL));
}

FIXTURE(conn) {
	struct vt_conn c;
};

FIXTURE_SETUP(conn)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(conn)
{
	vt_close(&self->c);
}

/* Values as /proc/sys has them, in both forms of the name */
TEST_F(conn, get_matches_proc)
{
	static const char *const names[] = {
		"kernel.random.boot_id", "kernel/random/boot_id",
		"kernel.ostype", "kernel/ostype", "kernel.osrelease",
		"kernel.printk", "kernel/printk", "vm.swappiness",
		"net.ipv4.ip_forward", "net/ipv4/ip_forward",
		"net.ipv4.conf.lo.forwarding", "net/ipv4/conf/lo/forwarding",
		"kernel.hostname", "kernel.domainname", "fs.file-max",
		"kernel.pid_max",
	};
	const char *msg;
	unsigned int i;
	char *v, *pv;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		pv = proc_value(rel_of(names[i]));
		ASSERT_NE(NULL, pv) TH_LOG("%s", names[i]);
		ASSERT_EQ(1, get(&self->c, names[i], &msg, &v)) TH_LOG("%s: %s", names[i], msg);
		EXPECT_EQ(NULL, vt_reply_problem(msg));
		EXPECT_STREQ(pv, v) TH_LOG("%s", names[i]);
	}
	/* kernel.printk keeps its tabs, and loses its newline */
	ASSERT_EQ(1, get(&self->c, "kernel.printk", &msg, &v));
	EXPECT_NE(NULL, strchr(v, '\t')) TH_LOG("%s", msg);
	EXPECT_EQ(NULL, strchr(v, '\n')) TH_LOG("%s", msg);
	/* a boot id is a UUID */
	ASSERT_EQ(1, get(&self->c, "kernel.random.boot_id", &msg, &v));
	EXPECT_EQ(36, strlen(v));
}

/*
 * Values longer than a first short read: a list of reserved ports (whose
 * handler gives nothing past offset 0) of lengths around 255 bytes and
 * of about 1200, each whole in Get and in List.
 */
TEST_F(conn, long_value)
{
	static const char rel[] = "net/ipv4/ip_local_reserved_ports";
	static const unsigned int ports[] = { 42, 43, 44, 45, 200 };
	char *old = proc_value(rel), list[2048], *v, *pv;
	const char *msg;
	unsigned int i, p;
	size_t len;

	ASSERT_NE(NULL, old);
	for (i = 0; i < ARRAY_SIZE(ports); i++) {
		/* "10001,10003,...": 6 bytes a port */
		len = 0;
		for (p = 0; p < ports[i]; p++)
			len += snprintf(list + len, sizeof(list) - len, "%s%u",
					p ? "," : "", 10001 + 2 * p);
		ASSERT_EQ(0, proc_set(rel, list));
		pv = proc_value(rel);
		ASSERT_NE(NULL, pv);
		EXPECT_STREQ(list, pv);
		ASSERT_EQ(1, get(&self->c, "net.ipv4.ip_local_reserved_ports",
				 &msg, &v)) TH_LOG("%s", msg);
		EXPECT_STREQ(pv, v) TH_LOG("%zu bytes", strlen(pv));
		ASSERT_EQ(1, vt_call(&self->c, list_call("net.ipv4.ip_local_reserved_ports",
							 false), &msg));
		EXPECT_TRUE(vt_json_is(msg, "parameters.value", jstr(pv)))
			TH_LOG("%zu bytes: %.80s", strlen(pv), msg);
	}
	EXPECT_EQ(0, proc_set(rel, *old ? old : "\n"));
}

/*
 * A link whose name has a dot: its sysctls are named as systemd-sysctl
 * and procps name them, the dot a slash ("net.ipv4.conf.kvs0/100.x"), or
 * by the path; List gives them so.  All dots is another name.
 */
TEST_F(conn, dot_in_component)
{
	const char *slash = "net/ipv4/conf/" DOT_LINK "/forwarding", *msg;
	const char *dotted = "net.ipv4.conf." DOT_LINK_SLASH ".forwarding";
	char *v, *pv, *name;
	int n = 0;

	ASSERT_EQ(0, link_add(DOT_LINK, "dummy", NULL));
	pv = proc_value(slash);
	ASSERT_NE(NULL, pv);
	ASSERT_EQ(1, get(&self->c, slash, &msg, &v)) TH_LOG("%s", msg);
	EXPECT_STREQ(pv, v);
	ASSERT_EQ(1, get(&self->c, dotted, &msg, &v)) TH_LOG("%s", msg);
	EXPECT_STREQ(pv, v);
	ASSERT_EQ(1, get(&self->c, vt_fmt("/%s", slash), &msg, &v)) TH_LOG("%s", msg);
	EXPECT_STREQ(pv, v);
	ASSERT_EQ(0, get(&self->c, "net.ipv4.conf." DOT_LINK ".forwarding", &msg, &v));
	EXPECT_TRUE(vt_is_error(msg, NO_SUCH)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.name",
			       "\"net.ipv4.conf." DOT_LINK ".forwarding\""));

	ASSERT_EQ(0, vt_send(&self->c, list_call("net.ipv4.conf." DOT_LINK_SLASH, true)));
	do {
		ASSERT_EQ(1, vt_recv(&self->c, VT_TIMEOUT_MS, &msg));
		ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
		name = vt_json_str(msg, "parameters.name");
		ASSERT_NE(NULL, name);
		EXPECT_EQ(0, strncmp(name, "net.ipv4.conf." DOT_LINK_SLASH ".", 23))
			TH_LOG("%s", name);
		n++;
	} while (vt_continues(msg));
	EXPECT_LT(10, n);
	ASSERT_EQ(1, vt_call(&self->c, list_call("net/ipv4/conf/lo/forwarding", false), &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.name", "\"net.ipv4.conf.lo.forwarding\""))
		TH_LOG("%s", msg);
	EXPECT_EQ(0, link_del(DOT_LINK));
}

/* The walk of /proc/sys below @rel as List does it: depth first, readdir order */
struct entry {
	char *rel;
	char *before;	/* NULL: not readable */
	bool writable;
};

struct walk {
	struct entry *e;
	size_t n, cap;
};

static void walk_dir(struct walk *w, const char *rel)
{
	DIR *d = opendir(vt_fmt(PROC_SYS "%s", rel));
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = *rel ? vt_fmt("%s/%s", rel, de->d_name) : strdup(de->d_name);
		if (de->d_type == DT_DIR) {
			walk_dir(w, sub);
			continue;
		}
		if (w->n == w->cap) {
			w->cap = w->cap ? w->cap * 2 : 1024;
			w->e = realloc(w->e, w->cap * sizeof(*w->e));
		}
		w->e[w->n].rel = sub;
		w->e[w->n].before = proc_value(sub);
		w->e[w->n].writable = proc_may(sub, W_OK);
		w->n++;
	}
	closedir(d);
}

/* @rel as List names it, as sysctl -a does: dots and slashes swapped */
static char *list_name(const char *rel)
{
	char *s = strdup(rel), *p;

	for (p = s; *p; p++)
		if (*p == '.' || *p == '/')
			*p ^= '.' ^ '/';
	return s;
}

/* Sysctls that change by themselves, or because a List opens files */
static bool volatile_name(const char *rel)
{
	static const char *const names[] = {
		"fs/dentry-state", "fs/file-nr", "fs/inode-nr", "fs/inode-state",
		"kernel/random/entropy_avail", "kernel/random/uuid",
		"kernel/ns_last_pid", "kernel/pty/nr", "fs/aio-nr",
		"net/netfilter/nf_conntrack_count",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strncmp(rel, names[i], strlen(names[i])))
			return true;
	return false;
}

static void list_vs_walk(struct __test_metadata *_metadata, struct vt_conn *c,
			 const char *prefix, const char *rel)
{
	struct walk w = { 0 };
	const char *msg;
	size_t i = 0, bad = 0;

	walk_dir(&w, rel);
	ASSERT_LT(0, w.n);
	ASSERT_EQ(0, vt_send(c, list_call(prefix, true)));
	do {
		char *name, *v, *after;
		struct entry *e;

		ASSERT_EQ(1, vt_recv(c, VT_TIMEOUT_MS, &msg));
		ASSERT_EQ(NULL, vt_reply_problem(msg));
		ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
		ASSERT_GT(w.n, i) TH_LOG("more than %zu: %s", w.n, msg);
		e = &w.e[i++];
		name = vt_json_str(msg, "parameters.name");
		ASSERT_NE(NULL, name);
		ASSERT_STREQ(list_name(e->rel), name);
		v = vt_json_str(msg, "parameters.value");
		after = proc_value(e->rel);
		EXPECT_EQ(!!e->before, !!v) TH_LOG("%s: %s", e->rel, msg);
		if (v && e->before && strcmp(v, e->before) &&
		    (!after || strcmp(v, after)) && !volatile_name(e->rel)) {
			bad++;
			TH_LOG("%s: '%s', /proc '%s' then '%s'", e->rel, v, e->before,
			       after ? after : "(error)");
		}
		EXPECT_TRUE(vt_json_is(msg, "parameters.writable",
				       e->writable ? "true" : "false"))
			TH_LOG("%s: %s", e->rel, msg);
	} while (vt_continues(msg));
	EXPECT_EQ(w.n, i);
	EXPECT_EQ(0, bad);
	TH_LOG("%s: %zu sysctls", rel, i);
}

/*
 * Every sysctl, each a file opened as the caller: about 900 of them, 24 ms
 * each on a debug kernel (KASAN, TCG), more on a busy host, where the
 * harness's 30 s ran out in a cold make check
 */
TEST_F_TIMEOUT(conn, list_all, 180)
{
	list_vs_walk(_metadata, &self->c, NULL, "");
}

TEST_F(conn, list_prefix)
{
	const char *msg;

	list_vs_walk(_metadata, &self->c, "kernel.random", "kernel/random");
	list_vs_walk(_metadata, &self->c, "net/ipv4/conf/lo", "net/ipv4/conf/lo");
	list_vs_walk(_metadata, &self->c, "vm", "vm");

	/* one sysctl: one final reply, with "more" or without */
	ASSERT_EQ(1, vt_call(&self->c, list_call("kernel.ostype", true), &msg));
	EXPECT_TRUE(vt_is_ok(msg) && !vt_continues(msg)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.name", "\"kernel.ostype\""));
	EXPECT_STREQ(proc_value("kernel/ostype"), vt_json_str(msg, "parameters.value"));
	ASSERT_EQ(1, vt_call(&self->c, list_call("kernel/ostype", false), &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.name", "\"kernel.ostype\"")) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.writable", "false"));
	/* a directory needs "more" */
	ASSERT_EQ(1, vt_call(&self->c, list_call("kernel.random", false), &msg));
	EXPECT_TRUE(vt_is_error(msg, EXPECTED_MORE)) TH_LOG("%s", msg);
	ASSERT_EQ(1, vt_call(&self->c, list_call(NULL, false), &msg));
	EXPECT_TRUE(vt_is_error(msg, EXPECTED_MORE)) TH_LOG("%s", msg);
	/* nothing there */
	ASSERT_EQ(1, vt_call(&self->c, list_call("kernel.no_such_dir", true), &msg));
	EXPECT_TRUE(vt_is_error(msg, NO_SUCH)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.name", "\"kernel.no_such_dir\""));
}

/* A write-only sysctl: nobody reads it, not even root; root writes it */
TEST_F(conn, write_only)
{
	const char *msg;
	char *v;

	ASSERT_FALSE(proc_may("vm/drop_caches", R_OK));
	ASSERT_EQ(0, get(&self->c, "vm.drop_caches", &msg, &v));
	EXPECT_TRUE(vt_is_error(msg, KS_DENIED)) TH_LOG("%s", msg);
	ASSERT_EQ(1, vt_call(&self->c, list_call("vm.drop_caches", true), &msg));
	ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_FALSE(vt_json_has(msg, "parameters.value") &&
		     !vt_json_is(msg, "parameters.value", "null")) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.writable", "true")) TH_LOG("%s", msg);
	/* "3": drop the caches, harmless */
	ASSERT_EQ(1, vt_call(&self->c, set_call("vm.drop_caches", "3"), &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
}

/* Set, read back, and set back; the tabs of kernel.printk too */
TEST_F(conn, set_read_back)
{
	static const char *const names[] = {
		"vm.swappiness", "net.ipv4.ip_forward", "kernel/printk",
		"net.ipv4.conf.lo.forwarding",
	};
	const char *msg;
	unsigned int i;
	char *old, *want, *v;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char *rel = rel_of(names[i]);

		old = proc_value(rel);
		ASSERT_NE(NULL, old);
		if (!strcmp(rel, "kernel/printk"))
			want = strcmp(old, "4\t4\t1\t7") ? "4\t4\t1\t7" : "5\t4\t1\t7";
		else if (!strcmp(rel, "vm/swappiness"))
			want = atoi(old) == 33 ? "34" : "33";
		else
			want = atoi(old) ? "0" : "1";
		ASSERT_EQ(1, vt_call(&self->c, set_call(names[i], want), &msg));
		EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s: %s", names[i], msg);
		EXPECT_TRUE(vt_json_is(vt_params(msg), "", "{}")) TH_LOG("%s", msg);
		EXPECT_STREQ(want, proc_value(rel));
		ASSERT_EQ(1, get(&self->c, names[i], &msg, &v));
		EXPECT_STREQ(want, v);
		ASSERT_EQ(1, vt_call(&self->c, set_call(names[i], old), &msg));
		EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
		EXPECT_STREQ(old, proc_value(rel));
	}
	/* a value the sysctl refuses: nothing changes */
	old = proc_value("vm/swappiness");
	ASSERT_EQ(1, vt_call(&self->c, set_call("vm.swappiness", "lots"), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.parameter", "\"value\""));
	EXPECT_STREQ(old, proc_value("vm/swappiness"));
	/* a value over a page */
	v = malloc(4098);
	memset(v, '1', 4097);
	v[4097] = '\0';
	ASSERT_EQ(1, vt_call(&self->c, set_call("vm.swappiness", v), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.parameter", "\"value\""));
	EXPECT_STREQ(old, proc_value("vm/swappiness"));
	/* read-only, for root too */
	ASSERT_EQ(1, vt_call(&self->c, set_call("kernel.ostype", "Plan9"), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_DENIED)) TH_LOG("%s", msg);
	EXPECT_STREQ("Linux", proc_value("kernel/ostype"));
}

/* Names that are not names: the same answer from each method */
FIXTURE(bad_name) {
	struct vt_conn c;
};

FIXTURE_VARIANT(bad_name) {
	const char *json;	/* the name as JSON */
	const char *error;	/* NULL: InvalidParameter */
};

FIXTURE_VARIANT_ADD(bad_name, dotdot) { .json = "\"..\"" };
FIXTURE_VARIANT_ADD(bad_name, dot) { .json = "\".\"" };
FIXTURE_VARIANT_ADD(bad_name, up_and_back) { .json = "\"kernel/../kernel/ostype\"" };
FIXTURE_VARIANT_ADD(bad_name, dot_component) { .json = "\"kernel/./ostype\"" };
FIXTURE_VARIANT_ADD(bad_name, two_slashes) { .json = "\"//kernel/ostype\"" };
FIXTURE_VARIANT_ADD(bad_name, dot_swapped) { .json = "\"kernel./.ostype\"" };
FIXTURE_VARIANT_ADD(bad_name, trailing_slash) { .json = "\"kernel/ostype/\"" };
FIXTURE_VARIANT_ADD(bad_name, double_dot) { .json = "\"kernel..ostype\"" };
FIXTURE_VARIANT_ADD(bad_name, leading_dot) { .json = "\".kernel.ostype\"" };
FIXTURE_VARIANT_ADD(bad_name, empty) { .json = "\"\"" };
FIXTURE_VARIANT_ADD(bad_name, space) { .json = "\"kernel.os type\"" };
FIXTURE_VARIANT_ADD(bad_name, newline) { .json = "\"kernel.ostype\\n\"" };
FIXTURE_VARIANT_ADD(bad_name, star) { .json = "\"kernel.*\"" };
FIXTURE_VARIANT_ADD(bad_name, latin1) { .json = "\"k\\u00e9rnel.ostype\"" };
FIXTURE_VARIANT_ADD(bad_name, nul) { .json = "\"kernel\\u0000.ostype\"" };
FIXTURE_VARIANT_ADD(bad_name, not_a_string) { .json = "5" };
FIXTURE_VARIANT_ADD(bad_name, no_such) {
	.json = "\"kernel.no_such_sysctl\"", .error = NO_SUCH,
};

FIXTURE_VARIANT_ADD(bad_name, below_a_file) {
	.json = "\"kernel.ostype.more\"", .error = NO_SUCH,
};

FIXTURE_SETUP(bad_name)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(bad_name)
{
	vt_close(&self->c);
}

static void expect_bad(struct __test_metadata *_metadata, const char *msg,
		       const char *error, const char *param, const char *json)
{
	EXPECT_EQ(NULL, vt_reply_problem(msg));
	if (error) {
		EXPECT_TRUE(vt_is_error(msg, error)) TH_LOG("%s", msg);
		EXPECT_TRUE(vt_json_is(msg, "parameters.name", json)) TH_LOG("%s", msg);
	} else {
		EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
		EXPECT_TRUE(vt_json_is(msg, "parameters.parameter", param))
			TH_LOG("%s", msg);
	}
}

TEST_F(bad_name, each_method)
{
	char *swappiness = proc_value("vm/swappiness");
	const char *msg;

	ASSERT_EQ(1, vt_call(&self->c, vt_fmt(KS_CALL(IFACE ".Get", "{\"name\":%s}"),
					      variant->json), &msg));
	expect_bad(_metadata, msg, variant->error, "\"name\"", variant->json);
	ASSERT_EQ(1, vt_call(&self->c, vt_fmt(KS_CALL(IFACE ".Set",
						      "{\"name\":%s,\"value\":\"10\"}"),
					      variant->json), &msg));
	expect_bad(_metadata, msg, variant->error, "\"name\"", variant->json);
#define LIST_MORE	"{\"method\":\"" IFACE ".List\",\"more\":true,\"parameters\":"
	ASSERT_EQ(1, vt_call(&self->c, vt_fmt(LIST_MORE "{\"prefix\":%s}}",
					      variant->json), &msg));
	expect_bad(_metadata, msg, variant->error, "\"prefix\"", variant->json);
	EXPECT_STREQ(swappiness, proc_value("vm/swappiness"));
}

/* Bounds: 508 bytes, 255 per component, 16 components */
TEST_F(conn, bounds)
{
	char name[700], *s;
	const char *msg;
	int i;

	/* 509 bytes of dotted components */
	memset(name, 'a', 509);
	for (i = 100; i < 509; i += 100)
		name[i] = '.';
	name[509] = '\0';
	ASSERT_EQ(1, vt_call(&self->c, get_call(name), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	/* 508 are fine: no such name */
	name[508] = '\0';
	ASSERT_EQ(1, vt_call(&self->c, get_call(name), &msg));
	EXPECT_TRUE(vt_is_error(msg, NO_SUCH)) TH_LOG("%s", msg);
	/* a component of 256 bytes, of 255 */
	memset(name, 'b', 256);
	name[256] = '\0';
	ASSERT_EQ(1, vt_call(&self->c, get_call(name), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	name[255] = '\0';
	ASSERT_EQ(1, vt_call(&self->c, get_call(name), &msg));
	EXPECT_TRUE(vt_is_error(msg, NO_SUCH)) TH_LOG("%s", msg);
	/* 17 components, 16 */
	s = name;
	for (i = 0; i < 17; i++)
		s += sprintf(s, "%sx", i ? "." : "");
	ASSERT_EQ(1, vt_call(&self->c, get_call(name), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	name[strlen(name) - 2] = '\0';
	ASSERT_EQ(1, vt_call(&self->c, get_call(name), &msg));
	EXPECT_TRUE(vt_is_error(msg, NO_SUCH)) TH_LOG("%s", msg);
	/* a directory is no sysctl */
	ASSERT_EQ(1, vt_call(&self->c, get_call("kernel"), &msg));
	EXPECT_TRUE(vt_is_error(msg, NO_SUCH)) TH_LOG("%s", msg);
	ASSERT_EQ(1, vt_call(&self->c, set_call("kernel/random", "1"), &msg));
	EXPECT_TRUE(vt_is_error(msg, NO_SUCH)) TH_LOG("%s", msg);
}

/* A name that is not UTF-8: the bytes as they are in the JSON text */
TEST_F(conn, not_utf8)
{
	static const char call[] =
		KS_CALL(IFACE ".Get", "{\"name\":\"kernel.\xff\xfe\"}");
	const char *msg;
	int r;

	/* the core takes it for no JSON at all, and closes the connection */
	r = vt_call(&self->c, call, &msg);
	EXPECT_EQ(0, r) TH_LOG("reply: %s", msg);
}

/* The host name of the caller's UTS namespace; set from the initial one only */
static int in_new_uts(void *arg)
{
	const char *msg;
	struct vt_conn c;
	int failed = 0;
	char *v, *host = arg;

	if (unshare(CLONE_NEWUTS) || sethostname("kvs-uts", 7) ||
	    setdomainname("kvs-domain", 10))
		return 100;
	if (vt_open_ready(&c))
		return 101;
	failed += !KS_OK(get(&c, "kernel.hostname", &msg, &v) == 1);
	failed += !KS_OK(v && !strcmp(v, "kvs-uts"));
	failed += !KS_OK(v && !strcmp(v, proc_value("kernel/hostname")));
	failed += !KS_OK(get(&c, "kernel/domainname", &msg, &v) == 1);
	failed += !KS_OK(v && !strcmp(v, "kvs-domain"));
	failed += !KS_OK(vt_call(&c, list_call("kernel.hostname", false), &msg) == 1);
	failed += !KS_OK(vt_json_is(msg, "parameters.value", "\"kvs-uts\""));
	failed += !KS_OK(vt_json_is(msg, "parameters.writable", "false"));
	failed += !KS_OK(vt_call(&c, set_call("kernel.hostname", "kvs-not"), &msg) == 1);
	failed += !KS_OK(vt_is_error(msg, NOT_IN_NS));
	failed += !KS_OK(vt_json_is(msg, "parameters.name", "\"kernel.hostname\""));
	failed += !KS_OK(!strcmp(proc_value("kernel/hostname"), "kvs-uts"));
	vt_close(&c);
	(void)host;
	return failed;
}

TEST(uts_ns)
{
	char *host = proc_value("kernel/hostname");
	struct vt_conn c;
	const char *msg;
	char *v;

	ASSERT_NE(NULL, host);
	EXPECT_EQ(0, in_child(in_new_uts, host));
	EXPECT_STREQ(host, proc_value("kernel/hostname"));
	/* from the initial one: the host's, and settable */
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, get(&c, "kernel.hostname", &msg, &v));
	EXPECT_STREQ(host, v);
	ASSERT_EQ(1, vt_call(&c, set_call("kernel.hostname", "kvs-host"), &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_STREQ("kvs-host", proc_value("kernel/hostname"));
	ASSERT_EQ(0, sethostname(host, strlen(host)));
	vt_close(&c);
}

/* The ipc sysctls, from a new ipc namespace: never the host's */
static const char *const ipc_names[] = {
	"kernel.shmmax", "kernel.shmall", "kernel.msgmax", "kernel.sem",
	"kernel.msg_next_id", "fs.mqueue.msg_max", "fs/mqueue/queues_max",
};

static int in_new_ipc(void *arg)
{
	struct vt_conn c;
	const char *msg;
	unsigned int i;
	int failed = 0;
	char *v;

	if (unshare(CLONE_NEWIPC))
		return 100;
	/* this namespace's own value, unlike the host's */
	proc_set("kernel/shmmax", "12345678");
	if (vt_open_ready(&c))
		return 101;
	for (i = 0; i < ARRAY_SIZE(ipc_names); i++) {
		failed += !KS_OK(get(&c, ipc_names[i], &msg, &v) == 0);
		failed += !KS_OK(vt_is_error(msg, NOT_IN_NS));
		failed += !KS_OK(vt_json_is(msg, "parameters.name", jstr(ipc_names[i])));
		failed += !KS_OK(vt_call(&c, list_call(ipc_names[i], false), &msg) == 1);
		failed += !KS_OK(vt_is_ok(msg));
		failed += !KS_OK(!vt_json_has(msg, "parameters.value") ||
				 vt_json_is(msg, "parameters.value", "null"));
		failed += !KS_OK(vt_json_is(msg, "parameters.writable", "false"));
	}
	failed += !KS_OK(vt_call(&c, set_call("kernel.shmmax", "4242"), &msg) == 1);
	failed += !KS_OK(vt_is_error(msg, NOT_IN_NS));
	failed += !KS_OK(!strcmp(proc_value("kernel/shmmax"), "12345678"));
	/* the rest is answered */
	failed += agrees(&c, "kernel.ostype", true);
	vt_close(&c);
	return failed;
}

TEST(ipc_ns)
{
	char *host = proc_value("kernel/shmmax");
	struct vt_conn c;
	unsigned int i;

	if (access("/proc/self/ns/ipc", F_OK)) {
		/* no ipc namespaces in this kernel (the debug ones): there
		 * is no other to be in, and the host's are answered
		 */
		pid_t pid = fork();
		int status;

		if (!pid)
			_exit(unshare(CLONE_NEWIPC) ? errno : 0);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_EQ(EINVAL, WEXITSTATUS(status));
	} else {
		EXPECT_EQ(0, in_child(in_new_ipc, NULL));
		EXPECT_STREQ(host, proc_value("kernel/shmmax"));
	}
	ASSERT_EQ(0, vt_open_ready(&c));
	for (i = 0; i < ARRAY_SIZE(ipc_names); i++) {
		const char *name = ipc_names[i];

		EXPECT_EQ(0, agrees(&c, name, i != 4)) TH_LOG("%s", name);
	}
	vt_close(&c);
}

/* kernel.ns_last_pid, from a new pid namespace */
static int in_new_pid(void *arg)
{
	struct vt_conn c;
	const char *msg;
	int failed = 0;
	char *v;
	pid_t pid;
	int status;

	if (unshare(CLONE_NEWPID))
		return 100;
	pid = fork();
	if (pid < 0)
		return 101;
	if (!pid) {
		if (vt_open_ready(&c))
			_exit(102);
		failed += !KS_OK(get(&c, "kernel.ns_last_pid", &msg, &v) == 0);
		failed += !KS_OK(vt_is_error(msg, NOT_IN_NS));
		failed += !KS_OK(vt_call(&c, set_call("kernel.ns_last_pid", "300"), &msg) == 1);
		failed += !KS_OK(vt_is_error(msg, NOT_IN_NS));
		failed += agrees(&c, "kernel.ostype", true);
		vt_close(&c);
		_exit(failed);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 103;
	return WEXITSTATUS(status);
}

TEST(pid_ns)
{
	struct vt_conn c;
	const char *msg;
	long long before, after;
	char *v;

	EXPECT_EQ(0, in_child(in_new_pid, NULL));
	ASSERT_EQ(0, vt_open_ready(&c));
	v = proc_value("kernel/ns_last_pid");
	if (!v) {
		/* a kernel without CONFIG_CHECKPOINT_RESTORE has none */
		ASSERT_EQ(0, get(&c, "kernel.ns_last_pid", &msg, &v));
		EXPECT_TRUE(vt_is_error(msg, NO_SUCH)) TH_LOG("%s", msg);
		vt_close(&c);
		return;
	}
	before = atoll(v);
	ASSERT_EQ(1, get(&c, "kernel.ns_last_pid", &msg, &v)) TH_LOG("%s", msg);
	after = atoll(proc_value("kernel/ns_last_pid"));
	EXPECT_LE(before, atoll(v));
	EXPECT_GE(after, atoll(v));
	vt_close(&c);
}

/*
 * A connection opened in the initial network namespace, and a call sent
 * from a new one: the opener's namespace answers.  Get may run in the
 * sending task (the core's fast path) only while that task is in the
 * initial namespaces: /proc/sys would answer for its own otherwise.
 */
static int in_new_net_sender(void *arg)
{
	long inline_before;
	const char *host = arg;
	char own[32], *v;
	struct vt_conn c;
	const char *msg;
	int failed = 0;

	if (vt_open_ready(&c))
		return 100;
	if (unshare(CLONE_NEWNET))
		return 101;
	snprintf(own, sizeof(own), "%lld", atoll(host) + 1);
	if (proc_set("net/core/somaxconn", own))
		return 102;
	failed += !KS_OK(!strcmp(proc_value("net/core/somaxconn"), own));
	inline_before = vt_stat("calls_inline");
	failed += !KS_OK(get(&c, "net.core.somaxconn", &msg, &v) == 1);
	failed += !KS_OK(v && !strcmp(v, host));
	failed += !KS_OK(vt_stat("calls_inline") == inline_before);
	vt_close(&c);
	return failed;
}

TEST(sender_in_other_netns)
{
	char *host = proc_value("net/core/somaxconn");
	long before = vt_stat("calls_inline");
	struct vt_conn c;
	const char *msg;
	int i;
	char *v;

	ASSERT_NE(NULL, host);
	ASSERT_LE(0, before);
	EXPECT_EQ(0, in_child(in_new_net_sender, host));
	EXPECT_STREQ(host, proc_value("net/core/somaxconn"));

	/* from the initial namespaces, it does run in the sending task */
	ASSERT_EQ(0, vt_open_ready(&c));
	before = vt_stat("calls_inline");
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(1, get(&c, "net.core.somaxconn", &msg, &v));
		EXPECT_STREQ(host, v);
	}
	EXPECT_LT(before, vt_stat("calls_inline"));
	vt_close(&c);
}

/* A BPF_CGROUP_SYSCTL program on the root cgroup: every call refused */
static int bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

TEST_F(conn, bpf_sysctl_program)
{
	struct bpf_insn insns[] = {
		/* r0 = 1 (allow); exit */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 1 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char *swappiness = proc_value("vm/swappiness");
	union bpf_attr attr;
	int prog, cg, err;
	const char *msg;
	char *v;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_CGROUP_SYSCTL;
	attr.expected_attach_type = BPF_CGROUP_SYSCTL;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = ARRAY_SIZE(insns);
	attr.license = (unsigned long)"GPL";
	prog = bpf(BPF_PROG_LOAD, &attr);
	cg = open("/sys/fs/cgroup", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (prog < 0 || cg < 0) {
		/* no such programs in this kernel: nothing is refused */
		TH_LOG("no BPF_CGROUP_SYSCTL program: %s", strerror(errno));
		ASSERT_EQ(1, get(&self->c, "kernel.ostype", &msg, &v));
		return;
	}
	memset(&attr, 0, sizeof(attr));
	attr.target_fd = cg;
	attr.attach_bpf_fd = prog;
	attr.attach_type = BPF_CGROUP_SYSCTL;
	attr.attach_flags = BPF_F_ALLOW_MULTI;
	err = bpf(BPF_PROG_ATTACH, &attr);
	ASSERT_EQ(0, err) TH_LOG("attach: %s", strerror(errno));

	/* no ASSERT until it is detached: it would stay attached */
	EXPECT_EQ(0, get(&self->c, "kernel.ostype", &msg, &v));
	EXPECT_TRUE(vt_is_error(msg, KS_DENIED)) TH_LOG("%s", msg);
	EXPECT_EQ(1, vt_call(&self->c, set_call("vm.swappiness", "31"), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_DENIED)) TH_LOG("%s", msg);
	EXPECT_STREQ(swappiness, proc_value("vm/swappiness"));
	EXPECT_EQ(1, vt_call(&self->c, list_call("kernel.random", true), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_DENIED)) TH_LOG("%s", msg);

	attr.attach_flags = 0;
	ASSERT_EQ(0, bpf(BPF_PROG_DETACH, &attr)) TH_LOG("detach: %s", strerror(errno));
	close(prog);
	close(cg);
	ASSERT_EQ(1, get(&self->c, "kernel.ostype", &msg, &v)) TH_LOG("%s", msg);
	EXPECT_STREQ("Linux", v);
}

/*
 * A List longer than the server may hold for a connection (max_output,
 * plus what the socket holds): a fifth longer, net.ipv4 with dummy
 * links, each with its conf and neigh directories, about LINK_REPLIES
 * bytes of replies.  The connection is made while net.core.wmem_default
 * is SOCKET_BUFFER, so that the server's end of it buffers little
 * (SOCKET_HOLDS at most): its default of 208 KiB would make the List
 * twice as long.  The client waits 2 s, then reads SLOW_READ bytes (less
 * than a reply) at a time for the first max_output bytes, then 4 KiB at
 * a time: the replies must wait for it, and it is not closed for being
 * slow.  Each sysctl of the List is a file opened as the caller, tens of
 * milliseconds on a debug kernel: no more of them than that (62 links
 * at the default max_output, about 350 KB of replies).
 */
#define LINK_REPLIES	5632
#define SOCKET_BUFFER	16384
#define SOCKET_HOLDS	(2 * SOCKET_BUFFER)
#define SLOW_READ	64

TEST_F_TIMEOUT(conn, list_paced, 240)
{
	long max_output = vt_param("max_output", 262144);
	int paced = (max_output + SOCKET_HOLDS) * 6 / 5 / LINK_REPLIES;
	long long bytes = 0, deadline;
	char *msg = malloc(65536), in[4096];
	int replies = 0, i, links = 0, ret;
	bool final = false, bad = false;
	char *wmem;
	size_t len = 0;

	for (i = 0; i < paced; i++)
		links += !link_add(vt_fmt("kvsp%d", i), "dummy", NULL);
	ASSERT_EQ(paced, links);
	wmem = proc_value("net/core/wmem_default");
	ASSERT_NE(NULL, wmem);
	vt_close(&self->c);
	ASSERT_EQ(0, proc_set("net/core/wmem_default", vt_fmt("%d", SOCKET_BUFFER)));
	ret = vt_open_ready(&self->c);
	ASSERT_EQ(0, proc_set("net/core/wmem_default", wmem));
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, vt_send(&self->c, list_call("net.ipv4", true)));
	vt_sleep_ms(2000);
	deadline = vt_now_ms() + 240000;
	while (!final && !bad) {
		ssize_t n = recv(self->c.fd, in, bytes < max_output ? SLOW_READ : sizeof(in), 0);

		if (n <= 0 || vt_now_ms() > deadline)
			break;
		for (i = 0; i < n && !final && !bad; i++) {
			bytes++;
			bad = len == 65536;
			msg[len++] = in[i];
			if (bad || in[i])
				continue;
			bad = !vt_is_ok(msg);
			replies += !bad;
			final = !bad && !vt_continues(msg);
			len = 0;
		}
	}
	for (i = 0; i < paced; i++)
		link_del(vt_fmt("kvsp%d", i));
	TH_LOG("%lld bytes in %d replies, max_output %ld, %d links", bytes,
	       replies, max_output, paced);
	EXPECT_TRUE(final && !bad) TH_LOG("last: %.*s", (int)len, msg);
	EXPECT_LT(max_output + SOCKET_HOLDS, bytes);
	free(msg);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int count_in(const char *s, const char *needle)
{
	int n = 0;

	for (s = strstr(s, needle); s; s = strstr(s + 1, needle))
		n++;
	return n;
}

/* A program of the bundle beside this test (varlinkctl.mk): procps's
 * "sysctl", "systemd-sysctl"; NULL if there is none
 */
static char *bundled(const char *name)
{
	char self[PATH_MAX], *slash, *p;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return NULL;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	p = vt_fmt("%s/varlinkctl/%s", self, name);
	return access(p, X_OK) ? NULL : strdup(p);
}

/* The output of the shell command @cmd, its last newline gone, into
 * *@out (a new string); its exit status, or -1
 */
static int run_out(const char *cmd, char **out)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	FILE *f = popen(cmd, "r");
	size_t n;
	int status;

	*out = NULL;
	if (!f || !buf)
		return -1;
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (len + 1 == cap)
			buf = realloc(buf, cap *= 2);
	}
	status = pclose(f);
	if (len && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	*out = buf;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define PARITY_NAMES	200

/*
 * As procps's sysctl: Get of PARITY_NAMES names of "sysctl -N -a", one of
 * a VLAN-style link with a dot in its name among them, equals "sysctl -n
 * NAME" (or fails where it fails); List names every sysctl it names so.
 */
TEST_F_TIMEOUT(conn, procps_parity, 600)
{
	const char *vlan = "net.ipv4.conf." DOT_LINK_SLASH ".forwarding", *msg;
	char *sysctl = bundled("sysctl"), *all, *name, *save, *out, *v;
	char **names = NULL, **listed = NULL;
	int n = 0, i, step, compared = 0, listed_n = 0, status, r;
	bool have_vlan = false;

	ASSERT_NE(NULL, sysctl) TH_LOG("no procps sysctl beside the test");
	link_del(DOT_LINK);
	ASSERT_EQ(0, link_add(DOT_LINK, "dummy", NULL));
	ASSERT_EQ(0, run_out(vt_fmt("%s -N -a 2>/dev/null", sysctl), &all));
	for (name = strtok_r(all, "\n", &save); name; name = strtok_r(NULL, "\n", &save)) {
		names = realloc(names, (n + 1) * sizeof(*names));
		names[n++] = name;
		have_vlan |= !strcmp(name, vlan);
	}
	ASSERT_TRUE(have_vlan) TH_LOG("sysctl -N -a has no %s", vlan);
	ASSERT_LT(PARITY_NAMES, n);
	step = n / (PARITY_NAMES - 1);
	for (i = 0; compared < PARITY_NAMES; i += step) {
		name = compared == PARITY_NAMES - 1 || i >= n ? (char *)vlan : names[i];
		status = run_out(vt_fmt("%s -n '%s' 2>/dev/null", sysctl, name), &out);
		r = get(&self->c, name, &msg, &v);
		if (!status && !volatile_name(rel_of(name))) {
			EXPECT_TRUE(r == 1 && !strcmp(out, v))
				TH_LOG("%s: sysctl -n '%s', Get %s", name, out, msg);
		} else if (status) {
			EXPECT_EQ(0, r) TH_LOG("%s: sysctl -n fails, Get %s", name, msg);
		}
		compared++;
	}
	/* List names them as sysctl -a does */
	ASSERT_EQ(0, vt_send(&self->c, list_call(NULL, true)));
	do {
		ASSERT_EQ(1, vt_recv(&self->c, VT_TIMEOUT_MS, &msg));
		ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
		listed = realloc(listed, (listed_n + 1) * sizeof(*listed));
		listed[listed_n++] = vt_json_str(msg, "parameters.name");
	} while (vt_continues(msg));
	qsort(listed, listed_n, sizeof(*listed), cmp_str);
	for (i = 0; i < n; i++)
		EXPECT_NE(NULL, bsearch(&names[i], listed, listed_n, sizeof(*listed),
					cmp_str)) TH_LOG("%s not listed", names[i]);
	TH_LOG("%d names of sysctl -N -a, %d compared, %d listed", n, compared, listed_n);
	EXPECT_EQ(0, link_del(DOT_LINK));
}

/* The values of every sysctl below the directories @dirs, by path */
struct snap {
	char **rel;
	char **value;
	int n;
};

static void snap_dir(struct snap *s, const char *rel)
{
	DIR *d = opendir(vt_fmt(PROC_SYS "%s", rel));
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *sub = vt_fmt("%s/%s", rel, de->d_name);

		if (de->d_name[0] == '.')
			continue;
		if (de->d_type == DT_DIR) {
			snap_dir(s, strdup(sub));
			continue;
		}
		s->rel = realloc(s->rel, (s->n + 1) * sizeof(*s->rel));
		s->value = realloc(s->value, (s->n + 1) * sizeof(*s->value));
		s->rel[s->n] = strdup(sub);
		s->value[s->n++] = proc_value(sub);
	}
	if (d)
		closedir(d);
}

static void snap_take(struct snap *s, const char *const *dirs)
{
	memset(s, 0, sizeof(*s));
	for (; *dirs; dirs++)
		snap_dir(s, *dirs);
}

/* Write back what @s holds where it changed; the sysctls that differ */
static int snap_restore(const struct snap *s)
{
	int i, changed = 0;

	for (i = 0; i < s->n; i++) {
		char *now = proc_value(s->rel[i]);

		if (!s->value[i] || !now || !strcmp(now, s->value[i]))
			continue;
		proc_set(s->rel[i], s->value[i]);
		changed++;
	}
	return changed;
}

/* sysctl.d lines: globs, a "-" setting that fails, an explicit one a glob
 * also matches, a link with a dot
 */
static const char *const apply_lines[] = {
	"net.ipv4.conf." DOT_LINK_SLASH ".forwarding = 1",
	"net.ipv4.conf.*.accept_source_route = 1",
	"-net.ipv4.conf.lo.accept_source_route = 0",
	"net.ipv4.neigh.*.retrans_time_ms = 1200",
	"net.ipv?.conf.lo.hop_limit = 41",
	"-kernel.no_such_sysctl = 1",
	"-net.ipv4.conf.all.forwarding = banana",
	"net/ipv6/conf/" DOT_LINK "/hop_limit = 42",
	"kernel.domainname = kvs.test",
	"net.ipv4.tcp_no_such_* = 1",
};

static const char *const apply_dirs[] = {
	"net/ipv4/conf", "net/ipv4/neigh", "net/ipv6/conf", "kernel/domainname", NULL,
};

/* apply_lines as Apply's settings, parsed as systemd-sysctl parses them */
static char *apply_settings(void)
{
	size_t len = 0, cap = 8192, i;
	char *out = malloc(cap);

	len += sprintf(out, "[");
	for (i = 0; i < ARRAY_SIZE(apply_lines); i++) {
		const char *l = apply_lines[i], *eq = strchr(l, '=');
		bool ignore = *l == '-';
		char *key = strndup(l + ignore, eq - l - ignore);

		key[strcspn(key, " ")] = '\0';
		len += sprintf(out + len, "%s{\"name\":\"%s\",\"value\":\"%s\"%s}",
			       i ? "," : "", key, eq + 2,
			       ignore ? ",\"ignore_failure\":true" : "");
		free(key);
	}
	sprintf(out + len, "]");
	return out;
}

/*
 * Apply of a sysctl.d list writes what systemd-sysctl writes of it: the
 * same values after each, everything else as it was.
 */
TEST_F_TIMEOUT(conn, apply_like_systemd_sysctl, 300)
{
	char *prog = bundled("systemd-sysctl"), *args = strdup(""), *out;
	struct snap before, by_systemd, by_apply;
	const char *msg;
	unsigned int i;
	int j, differ = 0;

	ASSERT_NE(NULL, prog) TH_LOG("no systemd-sysctl beside the test");
	link_del(DOT_LINK);
	ASSERT_EQ(0, link_add(DOT_LINK, "dummy", NULL));
	snap_take(&before, apply_dirs);
	for (i = 0; i < ARRAY_SIZE(apply_lines); i++)
		args = vt_fmt("%s '%s'", args, apply_lines[i]);
	EXPECT_EQ(0, run_out(vt_fmt("%s --inline --%s 2>&1", prog, args), &out))
		TH_LOG("systemd-sysctl: %s", out);
	snap_take(&by_systemd, apply_dirs);
	EXPECT_LT(0, snap_restore(&before));
	ASSERT_EQ(1, vt_call(&self->c, vt_fmt(KS_CALL(IFACE ".Apply", "{\"settings\":%s}"),
					      apply_settings()), &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	snap_take(&by_apply, apply_dirs);
	snap_restore(&before);
	ASSERT_EQ(by_systemd.n, by_apply.n);
	for (j = 0; j < by_apply.n; j++) {
		const char *a = by_apply.value[j] ?: "(none)", *b = by_systemd.value[j] ?: "(none)";

		if (strcmp(a, b) && !volatile_name(by_apply.rel[j])) {
			differ++;
			TH_LOG("%s: systemd-sysctl '%s', Apply '%s'", by_apply.rel[j], b, a);
		}
	}
	EXPECT_EQ(0, differ);
	/* what it wrote, in order: the glob left lo to its own setting */
	EXPECT_EQ(1, count_in(msg, "\"net.ipv4.conf." DOT_LINK_SLASH ".forwarding\","))
		TH_LOG("%s", msg);
	EXPECT_EQ(1, count_in(msg, "\"net.ipv4.conf.lo.accept_source_route\""))
		TH_LOG("%s", msg);
	EXPECT_EQ(0, link_del(DOT_LINK));
}

/* An Apply call of the settings @settings, JSON objects with commas */
static char *apply_call(const char *settings)
{
	return vt_fmt(KS_CALL(IFACE ".Apply", "{\"settings\":[%s]}"), settings);
}

/* A Setting as JSON: "" for @ignore absent */
static char *setting(const char *name, const char *value, const char *ignore)
{
	return vt_fmt("{\"name\":\"%s\",\"value\":\"%s\"%s%s}", name, value,
		      *ignore ? ",\"ignore_failure\":" : "", ignore);
}

/* A failure not ignored ends Apply there, naming the setting */
TEST_F(conn, apply_failed)
{
	char *was = proc_value("vm/swappiness");
	const char *msg;

	ASSERT_NE(NULL, was);
	ASSERT_EQ(1, vt_call(&self->c,
			     apply_call(vt_fmt("%s,%s,%s", setting("vm.swappiness", "33", ""),
					       setting("kernel.no_such_sysctl", "1", "false"),
					       setting("vm.swappiness", "34", ""))), &msg));
	EXPECT_TRUE(vt_is_error(msg, IFACE ".ApplyFailed")) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.applied", "[\"vm.swappiness\"]"));
	EXPECT_TRUE(vt_json_is(msg, "parameters.setting", "1"));
	EXPECT_TRUE(vt_json_is(msg, "parameters.name", "\"kernel.no_such_sysctl\""));
	EXPECT_TRUE(vt_json_is(msg, "parameters.error", "\"" NO_SUCH "\""));
	EXPECT_FALSE(vt_json_has(msg, "parameters.errno"));
	EXPECT_STREQ("33", proc_value("vm/swappiness"));
	/* a value the sysctl refuses */
	ASSERT_EQ(1, vt_call(&self->c, apply_call(setting("vm/swappiness", "x", "")), &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.error", "\"" KS_INVALID "\"")) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.applied", "[]"));
	EXPECT_EQ(0, proc_set("vm/swappiness", was));
	/* none: nothing written */
	ASSERT_EQ(1, vt_call(&self->c, apply_call(""), &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.applied", "[]")) TH_LOG("%s", msg);
}

/* As nobody: each write refused as Set's, or passed over */
static int apply_nobody(void *arg)
{
	struct vt_conn c;
	const char *msg;
	int failed = 0;

	if (vt_open_ready(&c))
		return 100;
	failed += !KS_OK(vt_call(&c, apply_call(setting("vm.swappiness", "33", "")),
				 &msg) == 1);
	failed += !KS_OK(vt_is_error(msg, IFACE ".ApplyFailed") &&
			 vt_json_is(msg, "parameters.error", "\"" KS_DENIED "\""));
	/* thousands of matches, each refused and passed over, at once */
	failed += !KS_OK(vt_call(&c, apply_call(vt_fmt("%s,%s",
						       setting("*.*.*.*.*", "", "true"),
						       setting("*/*/*", "0", "true"))),
				 &msg) == 1);
	failed += !KS_OK(vt_is_ok(msg) && vt_json_is(msg, "parameters.applied", "[]"));
	if (failed)
		fprintf(stderr, "# %s\n", msg);
	vt_close(&c);
	return failed;
}

#define APPLY_LINKS	35

/* Apply's bounds: settings, names, values, sysctls written */
TEST_F_TIMEOUT(conn, apply_bounds, 300)
{
	static const char *const bad[] = {
		"[{\"name\":\"kernel.[ab]\",\"value\":\"1\"}]",
		"[{\"name\":\"kernel..ostype\",\"value\":\"1\"}]",
		"[{\"name\":\"kernel.ostype\",\"value\":\"a\\u0000b\"}]",
		"[{\"name\":\"kernel.\\u00e9\",\"value\":\"1\"}]",
		"[{\"name\":\"\",\"value\":\"1\"}]",
	};
	char *big = malloc(8192), *p;
	const char *msg;
	unsigned int i;
	int n;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ASSERT_EQ(1, vt_call(&self->c, vt_fmt(KS_CALL(IFACE ".Apply", "{\"settings\":%s}"),
						      bad[i]), &msg));
		EXPECT_TRUE(vt_is_error(msg, KS_INVALID) &&
			    vt_json_is(msg, "parameters.parameter", "\"settings\""))
			TH_LOG("%s: %s", bad[i], msg);
	}
	/* a value of 4097 bytes; 1025 settings */
	memset(big, '1', 4097);
	big[4097] = '\0';
	ASSERT_EQ(1, vt_call(&self->c, apply_call(setting("vm.swappiness", big, "")), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	p = setting("k.x", "1", "true");
	for (i = 1; i < 1025; i++)
		p = vt_fmt("%s,%s", p, setting("k.x", "1", "true"));
	ASSERT_EQ(1, vt_call(&self->c, apply_call(p), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%.200s", msg);

	/* more sysctls written than one call may: E2BIG, after a limit */
	for (i = 0; i < APPLY_LINKS; i++)
		link_add(vt_fmt("kvsa%u", i), "dummy", NULL);
	p = setting("net.ipv4.neigh.kvsa*.retrans_time_ms", "1000", "");
	for (i = 1; i < 30; i++)
		p = vt_fmt("%s,%s", p, setting("net.ipv4.neigh.kvsa*.retrans_time_ms", "1000", ""));
	ASSERT_EQ(1, vt_call(&self->c, apply_call(p), &msg));
	EXPECT_TRUE(vt_is_error(msg, IFACE ".ApplyFailed") &&
		    vt_json_is(msg, "parameters.errno", "7")) TH_LOG("%.300s", msg);
	for (n = 0, p = strstr(msg, "retrans_time_ms"); p; p = strstr(p + 1, "retrans_time_ms"))
		n++;
	/* what was written, and the name of the one not written */
	EXPECT_LT(800, n);
	EXPECT_GE(1024 + 1, n);
	TH_LOG("%d sysctls written before E2BIG", n - 1);
	for (i = 0; i < APPLY_LINKS; i++)
		link_del(vt_fmt("kvsa%u", i));
	EXPECT_EQ(0, ks_run_as(KS_NOBODY, KS_NOBODY, apply_nobody, NULL));
	free(big);
}

/* kernel.core_pattern as a socket ("@/..."): what the file does from a
 * mount namespace of its own (refused on 6.16 and later), Set does too
 */
static int core_pattern_mntns(void *arg)
{
	const char *old = arg, *msg;
	struct vt_conn c;
	int failed = 0, ferr;

	if (unshare(CLONE_NEWNS))
		return 100;
	ferr = proc_set("kernel/core_pattern", "@/run/kvs.sock");
	if (!ferr)
		proc_set("kernel/core_pattern", old);
	if (vt_open_ready(&c))
		return 101;
	failed += !KS_OK(vt_call(&c, set_call("kernel.core_pattern", "@/run/kvs.sock"),
				 &msg) == 1);
	failed += !KS_OK(ferr ? vt_is_error(msg, KS_INVALID) &&
				vt_json_is(msg, "parameters.parameter", "\"value\"") :
				vt_is_ok(msg));
	failed += !KS_OK(vt_call(&c, apply_call(setting("kernel.core_pattern",
							 "@/run/kvs.sock", "")),
				 &msg) == 1);
	failed += !KS_OK(ferr ? vt_json_is(msg, "parameters.error", "\"" KS_INVALID "\"") :
				vt_is_ok(msg));
	fprintf(stderr, "# from a mount namespace of its own: the file %s, Set %s\n",
		ferr ? strerror(-ferr) : "takes it", msg);
	proc_set("kernel/core_pattern", old);
	vt_close(&c);
	return failed;
}

TEST_F(conn, core_pattern_mount_ns)
{
	char *old = proc_value("kernel/core_pattern");
	const char *msg;

	if (access("/proc/sys/kernel/core_pattern", F_OK)) {
		/* no CONFIG_COREDUMP (the debug kernels): no such sysctl */
		ASSERT_EQ(ENOENT, errno);
		ASSERT_EQ(1, vt_call(&self->c, set_call("kernel.core_pattern", "@/run/kvs.sock"),
				     &msg));
		EXPECT_TRUE(vt_is_error(msg, NO_SUCH)) TH_LOG("%s", msg);
		return;
	}
	ASSERT_NE(NULL, old);
	EXPECT_EQ(0, in_child(core_pattern_mntns, old));
	/* from the initial one: taken, as by the file */
	ASSERT_EQ(1, vt_call(&self->c, set_call("kernel.core_pattern", "@/run/kvs.sock"), &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_STREQ("@/run/kvs.sock", proc_value("kernel/core_pattern"));
	EXPECT_EQ(0, proc_set("kernel/core_pattern", old));
}

TEST_F(conn, idl)
{
	const char *msg;
	char *idl;

	ASSERT_EQ(1, vt_call(&self->c, KS_CALL("org.varlink.service.GetInterfaceDescription",
					       "{\"interface\":\"" IFACE "\"}"), &msg));
	idl = vt_json_str(msg, "parameters.description");
	ASSERT_NE(NULL, idl) TH_LOG("%s", msg);
	EXPECT_NE(NULL, strstr(idl, "interface " IFACE "\n"));
	EXPECT_NE(NULL, strstr(idl, "method Get(\n"));
	EXPECT_NE(NULL, strstr(idl, "method List(\n"));
	EXPECT_NE(NULL, strstr(idl, "method Set(\n"));
	EXPECT_NE(NULL, strstr(idl, "error NoSuchName (name: string)\n"));
	EXPECT_NE(NULL, strstr(idl, "error NotInNamespace (name: string)\n"));
	EXPECT_NE(NULL, strstr(idl, "method Apply(\n"));
	EXPECT_NE(NULL, strstr(idl, "  settings: []Setting\n"));
	EXPECT_NE(NULL, strstr(idl, "error ApplyFailed (\n"));
	free(idl);
}

TEST_HARNESS_MAIN
