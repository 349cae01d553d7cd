// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.memory and org.kernel.pressure (varlink_memory.ko and
 * varlink_pressure.ko): Get and
 * GetStatistics against /proc/meminfo and /proc/vmstat read around the
 * call, pressure.Get against /proc/pressure/RESOURCE (or
 * PressureUnavailable where the kernel has no such file), for every kind
 * of caller: root, nobody, root of a user namespace, root in a network
 * namespace of its own, root with Docker's capabilities, and a
 * connection opened by one and used by the other.  Monitor: the kernel's
 * rules for the window (checked against what the kernel itself says to
 * the same caller writing /proc/pressure/cpu), its limits, a trigger
 * that fires under CPU pressure, the server's stream quota, and a stream
 * ended by unloading its module.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kernel_state_test.h"

#define MEMORY		"org.kernel.memory"
#define PRESSURE	"org.kernel.pressure"
#define MODULE		"varlink_pressure"
#define MEM_GET		KS_CALL(MEMORY ".Get", "{}")
#define MEM_STATS	KS_CALL(MEMORY ".GetStatistics", "{}")
#define UNAVAILABLE	PRESSURE ".PressureUnavailable"
#define MIB		(1024LL * 1024)

static const char *const resources[] = { "cpu", "memory", "io", "irq" };

/*
 * /proc, opened by root before a test changes who it is: in the guest
 * "/" is 0700, and nobody may look up nothing under it.
 */
static int proc_fd = -1;

static void open_proc(void)
{
	if (proc_fd < 0)
		proc_fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* The contents of /proc/@name in a new string, or NULL (errno set). */
static char *proc_read(const char *name)
{
	open_proc();
	return ks_read_at(proc_fd, name);
}

/* Whether /proc/@name exists */
static bool proc_has(const char *name)
{
	open_proc();
	return !faccessat(proc_fd, name, F_OK, 0);
}

/* Write @text to /proc/@name; 0 or -errno */
static int proc_write(const char *name, const char *text)
{
	ssize_t n;
	int fd;

	open_proc();
	fd = openat(proc_fd, name, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : n < 0 ? -errno : -EIO;
}

/* A Monitor call with "more"; @params is a JSON object */
#define MONITOR(params) \
	"{\"method\":\"" PRESSURE ".Monitor\",\"more\":true,\"parameters\":" params "}"

static char *monitor_call(const char *res, bool full, long long stall,
			  long long window)
{
	return vt_fmt(MONITOR("{\"resource\":\"%s\",\"full\":%s,\"stall\":%lld,\"window\":%lld}"),
		      res, full ? "true" : "false", stall, window);
}

/* The members of the object at @path of @json, or -1. */
static int json_members(const char *json, const char *path)
{
	const char *p;
	size_t len;
	int n = 0;

	p = vt_json_find(json, path, &len);
	if (!p || *p != '{')
		return -1;
	p = vt_json_ws(p + 1);
	while (*p == '"') {
		p = vt_json_skip_string(p);
		if (!p)
			return -1;
		p = vt_json_ws(p);
		if (*p++ != ':')
			return -1;
		p = vt_json_skip(p, 0);
		if (!p)
			return -1;
		n++;
		p = vt_json_ws(p);
		if (*p == ',')
			p = vt_json_ws(p + 1);
	}
	return *p == '}' ? n : -1;
}

/* The integer at "parameters.@obj.@key", or LLONG_MIN. */
static long long param_int(const char *msg, const char *obj, const char *key)
{
	long long v;

	return ks_json_int(msg, vt_fmt("parameters.%s.%s", obj, key), &v) ?
	       v : LLONG_MIN;
}

/* One line of /proc/meminfo or /proc/vmstat: a name and its value. */
struct kv {
	char name[64];
	long long value;	/* bytes for meminfo's kB lines */
};

/* The lines of /proc/@file (meminfo: "Name:   N kB"; vmstat: "name N"). */
static int read_kv(const char *file, struct kv *kv, int max)
{
	char *text = proc_read(file), *line, *save;
	bool meminfo = !strcmp(file, "meminfo");
	int n = 0;

	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		char unit[8] = "";
		int f;

		if (meminfo)
			f = sscanf(line, "%63[^:]: %lld %7s", kv[n].name,
				   &kv[n].value, unit);
		else
			f = sscanf(line, "%63s %lld", kv[n].name, &kv[n].value);
		if (f < 2) {
			n = -1;
			break;
		}
		if (!strcmp(unit, "kB"))
			kv[n].value *= 1024;
		n++;
	}
	free(text);
	return n;
}

static long long kv_find(const struct kv *kv, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(kv[i].name, name))
			return kv[i].value;
	return LLONG_MIN;
}

/* Counters of /proc/vmstat that only grow (events, not levels) */
static bool vmstat_grows(const char *name)
{
	static const char *const prefixes[] = {
		"pgpg", "pswp", "pgalloc_", "pgfree", "pgfault", "pgmajfault",
		"pgactivate", "pgdeactivate", "pgrefill", "pgsteal_",
		"pgscan_", "pginodesteal", "pgrotated", "oom_kill",
		"numa_hit", "numa_miss", "numa_foreign", "numa_local",
		"numa_other", "numa_interleave", "allocstall_",
		"thp_fault_alloc", "thp_collapse_alloc", "compact_stall",
		"unevictable_pgs_culled", "workingset_refault_",
		"workingset_activate_", "workingset_restore_",
		"workingset_nodereclaim",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* /proc/pressure/@res: the "some" and "full" lines, avgs in hundredths */
struct stall {
	bool present;
	long long avg[3];
	long long total;
};

/* Returns 0, -ENOENT when the kernel has no such file, or -EIO. */
static int read_pressure(const char *res, struct stall *some,
			 struct stall *full)
{
	char *text = proc_read(vt_fmt("pressure/%s", res)), *line, *save;
	int ret = 0;

	memset(some, 0, sizeof(*some));
	memset(full, 0, sizeof(*full));
	if (!text)
		return errno == ENOENT ? -ENOENT : -EIO;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		long long i[3], f[3], total;
		char kind[8];
		struct stall *s;
		int k;

		if (sscanf(line, "%7s avg10=%lld.%lld avg60=%lld.%lld avg300=%lld.%lld total=%lld",
			   kind, &i[0], &f[0], &i[1], &f[1], &i[2], &f[2],
			   &total) != 8) {
			ret = -EIO;
			break;
		}
		s = !strcmp(kind, "some") ? some : full;
		s->present = true;
		for (k = 0; k < 3; k++)
			s->avg[k] = i[k] * 100 + f[k];
		s->total = total;
	}
	free(text);
	return ret;
}

/* The stall @key of reply @msg, against the file's before and after */
static bool stall_matches(const char *msg, const char *key,
			  const struct stall *before, const struct stall *after)
{
	static const char *const avgs[] = { "avg10", "avg60", "avg300" };
	long long v, t;
	int k;

	if (!before->present || !after->present)
		return !vt_json_has(msg, vt_fmt("parameters.%s", key));
	for (k = 0; k < 3; k++) {
		if (!ks_json_fixed(msg, vt_fmt("parameters.%s.%s", key, avgs[k]),
				   2, &v))
			return false;
		if (v != before->avg[k] && v != after->avg[k])
			return false;
	}
	t = param_int(msg, key, "total");
	return t >= before->total && t <= after->total;
}

/*
 * Who calls.  The harness runs each test in a process of its own, so the
 * setup may change who it is for good.
 */
enum who {
	ROOT,
	NOBODY,
	USERNS_ROOT,	/* root of a new user namespace, nobody outside */
	NETNS_ROOT,	/* root, in a new network namespace */
	DOCKER_ROOT,	/* root with Docker's default capabilities */
	OPENER_ROOT,	/* opened by root, the calls sent as nobody */
	SENDER_ROOT,	/* opened as nobody, the calls sent by root */
};

/* Docker's default capability set (moby's oci/caps/defaults.go) */
static const int docker_caps[] = {
	CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FSETID, CAP_FOWNER, CAP_MKNOD,
	CAP_NET_RAW, CAP_SETGID, CAP_SETUID, CAP_SETFCAP, CAP_SETPCAP,
	CAP_NET_BIND_SERVICE, CAP_SYS_CHROOT, CAP_KILL, CAP_AUDIT_WRITE,
};

/* Keep Docker's capabilities only: bounding, effective, permitted. */
static int docker_capabilities(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = { };
	unsigned int i;
	int cap;

	for (cap = 0; cap <= 63; cap++) {
		bool keep = false;

		for (i = 0; i < ARRAY_SIZE(docker_caps); i++)
			keep |= docker_caps[i] == cap;
		if (!keep && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) &&
		    errno != EINVAL)
			return -errno;
	}
	for (i = 0; i < ARRAY_SIZE(docker_caps); i++) {
		data[CAP_TO_INDEX(docker_caps[i])].effective |=
			CAP_TO_MASK(docker_caps[i]);
		data[CAP_TO_INDEX(docker_caps[i])].permitted |=
			CAP_TO_MASK(docker_caps[i]);
	}
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

/* Become root of a new user namespace that maps it to nobody. */
static int userns_root(void)
{
	int err = vt_become(KS_NOBODY);

	/* else /proc/self is root's, as for any process that changed uid */
	if (!err && prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		err = -errno;
	if (!err && unshare(CLONE_NEWUSER))
		err = -errno;
	if (!err)
		err = proc_write("self/setgroups", "deny");
	if (!err)
		err = proc_write("self/uid_map", "0 65534 1");
	if (!err)
		err = proc_write("self/gid_map", "0 65534 1");
	if (!err && (setresgid(0, 0, 0) || setresuid(0, 0, 0)))
		err = -errno;
	return err;
}

/* Become @who and connect @c (as the opener @who names). */
static int become(enum who who, struct vt_conn *c)
{
	int err = 0;

	switch (who) {
	case ROOT:
		break;
	case NOBODY:
		err = vt_become(KS_NOBODY);
		break;
	case USERNS_ROOT:
		err = userns_root();
		break;
	case NETNS_ROOT:
		if (unshare(CLONE_NEWNET))
			err = -errno;
		break;
	case DOCKER_ROOT:
		err = docker_capabilities();
		break;
	case OPENER_ROOT:
		err = vt_open_ready(c);
		return err ? err : vt_become(KS_NOBODY);
	case SENDER_ROOT:
		/* the saved uid stays 0: no effective capabilities until
		 * the uids are 0 again, which restores them
		 */
		if (setresuid(KS_NOBODY, KS_NOBODY, 0))
			return -errno;
		err = vt_open_ready(c);
		if (!err && setresuid(0, 0, 0))
			err = -errno;
		return err;
	}
	return err ? err : vt_open_ready(c);
}

FIXTURE(caller) {
	struct vt_conn c;
	const char *msg;
};

FIXTURE_VARIANT(caller) {
	enum who who;
	/* Monitor with a 0.5 s window: whether psi takes it from @who */
	bool privileged;
};

FIXTURE_VARIANT_ADD(caller, root) { .who = ROOT, .privileged = true };

FIXTURE_VARIANT_ADD(caller, nobody) { .who = NOBODY };

/* psi looks at the raw capability, in whatever namespace: granted */
FIXTURE_VARIANT_ADD(caller, userns_root) {
	.who = USERNS_ROOT, .privileged = true,
};

FIXTURE_VARIANT_ADD(caller, netns_root) {
	.who = NETNS_ROOT, .privileged = true,
};

FIXTURE_VARIANT_ADD(caller, docker_root) { .who = DOCKER_ROOT };

FIXTURE_VARIANT_ADD(caller, opener_root) { .who = OPENER_ROOT };

FIXTURE_VARIANT_ADD(caller, sender_root) { .who = SENDER_ROOT };

FIXTURE_SETUP(caller)
{
	open_proc();
	vt_init(&self->c);
	ASSERT_TRUE(vt_interface_served(MEMORY));
	ASSERT_EQ(0, become(variant->who, &self->c));
}

FIXTURE_TEARDOWN(caller)
{
	vt_close(&self->c);
}

/*
 * Every line of /proc/meminfo is in "fields", with its scale (kB in
 * bytes, HugePages_* as counts), and nothing else; MemTotal exactly,
 * the others within what the file said before and after the call, give
 * or take 16 MiB; total, free and available are the fields'.
 */
TEST_F(caller, memory_get)
{
	struct kv before[256], after[256];
	int nb, na, i;
	long long v;

	nb = read_kv("meminfo", before, 256);
	ASSERT_EQ(1, vt_call(&self->c, MEM_GET, &self->msg));
	na = read_kv("meminfo", after, 256);
	ASSERT_TRUE(vt_is_ok(self->msg)) TH_LOG("%s", self->msg);
	ASSERT_EQ(NULL, vt_reply_problem(self->msg));
	ASSERT_LT(10, nb);
	ASSERT_EQ(nb, na);
	EXPECT_EQ(nb, json_members(self->msg, "parameters.fields"));

	for (i = 0; i < nb; i++) {
		long long lo, hi, a = kv_find(after, na, before[i].name);
		bool bytes = strncmp(before[i].name, "HugePages_", 10);

		v = param_int(self->msg, "fields", before[i].name);
		ASSERT_NE(LLONG_MIN, v) TH_LOG("no %s", before[i].name);
		lo = before[i].value < a ? before[i].value : a;
		hi = before[i].value > a ? before[i].value : a;
		if (!strcmp(before[i].name, "MemTotal") ||
		    !strcmp(before[i].name, "SwapTotal") || !bytes) {
			EXPECT_EQ(before[i].value, v) TH_LOG("%s", before[i].name);
			continue;
		}
		/* a kB line is a multiple of 1024 */
		EXPECT_EQ(0, v % 1024) TH_LOG("%s: %lld", before[i].name, v);
		EXPECT_LE(lo - 16 * MIB, v)
			TH_LOG("%s: %lld, /proc/meminfo %lld then %lld",
			       before[i].name, v, before[i].value, a);
		EXPECT_GE(hi + 16 * MIB, v)
			TH_LOG("%s: %lld, /proc/meminfo %lld then %lld",
			       before[i].name, v, before[i].value, a);
	}
	EXPECT_EQ(kv_find(before, nb, "MemTotal"),
		  param_int(self->msg, "fields", "MemTotal"));
	ASSERT_TRUE(ks_json_int(self->msg, "parameters.total", &v));
	EXPECT_EQ(param_int(self->msg, "fields", "MemTotal"), v);
	ASSERT_TRUE(ks_json_int(self->msg, "parameters.free", &v));
	EXPECT_EQ(param_int(self->msg, "fields", "MemFree"), v);
	ASSERT_TRUE(ks_json_int(self->msg, "parameters.available", &v));
	EXPECT_EQ(param_int(self->msg, "fields", "MemAvailable"), v);
}

/*
 * Every line of /proc/vmstat is in "counters", and nothing else; event
 * counters are at least what the file said before the call and at most
 * what it said after.
 */
TEST_F(caller, memory_statistics)
{
	static struct kv before[1024], after[1024];
	int nb, na, i, checked = 0;
	long long v;

	nb = read_kv("vmstat", before, 1024);
	ASSERT_EQ(1, vt_call(&self->c, MEM_STATS, &self->msg));
	na = read_kv("vmstat", after, 1024);
	ASSERT_TRUE(vt_is_ok(self->msg)) TH_LOG("%.300s", self->msg);
	ASSERT_EQ(NULL, vt_reply_problem(self->msg));
	ASSERT_LT(50, nb);
	ASSERT_EQ(nb, na);
	EXPECT_EQ(nb, json_members(self->msg, "parameters.counters"));
	for (i = 0; i < nb; i++) {
		v = param_int(self->msg, "counters", before[i].name);
		ASSERT_LE(0, v) TH_LOG("no %s", before[i].name);
		if (!vmstat_grows(before[i].name))
			continue;
		EXPECT_LE(before[i].value, v) TH_LOG("%s", before[i].name);
		EXPECT_GE(kv_find(after, na, before[i].name), v)
			TH_LOG("%s", before[i].name);
		checked++;
	}
	EXPECT_LT(5, checked);
}

/*
 * Each resource against /proc/pressure/RESOURCE read before and after:
 * each average is one of the two (they change every 2 s), the total
 * between them; a line the file lacks is null.  Where the kernel has no
 * such file (irq without CONFIG_IRQ_TIME_ACCOUNTING, or PSI off), the
 * error PressureUnavailable names the resource.
 */
TEST_F(caller, pressure_get)
{
	struct stall some[2], full[2];
	unsigned int i;
	int err, tries;

	for (i = 0; i < ARRAY_SIZE(resources); i++) {
		const char *res = resources[i];
		char *call = vt_fmt(KS_CALL(PRESSURE ".Get",
					    "{\"resource\":\"%s\"}"), res);
		bool ok = false;

		for (tries = 0; tries < 3 && !ok; tries++) {
			err = read_pressure(res, &some[0], &full[0]);
			ASSERT_EQ(1, vt_call(&self->c, call, &self->msg));
			ASSERT_EQ(NULL, vt_reply_problem(self->msg));
			if (err == -ENOENT) {
				EXPECT_TRUE(vt_is_error(self->msg, UNAVAILABLE))
					TH_LOG("%s: %s", res, self->msg);
				EXPECT_TRUE(vt_json_is(self->msg,
						       "parameters.resource",
						       vt_fmt("\"%s\"", res)));
				ok = true;
				break;
			}
			ASSERT_EQ(0, err) TH_LOG("/proc/pressure/%s", res);
			ASSERT_EQ(0, read_pressure(res, &some[1], &full[1]));
			ASSERT_TRUE(vt_is_ok(self->msg)) TH_LOG("%s", self->msg);
			ok = stall_matches(self->msg, "some", &some[0], &some[1]) &&
			     stall_matches(self->msg, "full", &full[0], &full[1]);
		}
		EXPECT_TRUE(ok) TH_LOG("%s: %s", res, self->msg);
		free(call);
	}
}

/*
 * What the kernel says to this caller about a trigger "some STALL
 * WINDOW" written to /proc/pressure/cpu: true if it takes it.
 */
static bool kernel_takes(long long stall, long long window)
{
	char *text = vt_fmt("some %lld %lld", stall, window);
	bool ok;
	int fd;

	open_proc();
	fd = openat(proc_fd, "pressure/cpu", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	ok = write(fd, text, strlen(text) + 1) > 0;
	close(fd);
	free(text);
	return ok;
}

/*
 * Without PSI (no /proc/pressure/@res: psi=0, or irq without
 * CONFIG_IRQ_TIME_ACCOUNTING), what the Monitor tests check instead:
 * Monitor of @res is PressureUnavailable, naming it.
 */
static bool monitor_unavailable(const char *res)
{
	struct vt_conn c;
	const char *msg;
	bool ok;

	if (vt_open_ready(&c))
		return false;
	ok = vt_call(&c, monitor_call(res, false, 100000, 2000000), &msg) == 1 &&
	     vt_is_error(msg, UNAVAILABLE) &&
	     vt_json_is(msg, "parameters.resource", vt_fmt("\"%s\"", res));
	if (!ok)
		fprintf(stderr, "# %s\n", msg);
	vt_close(&c);
	return ok;
}

/*
 * Whether a Monitor call was taken: no error within 0.7 s (nothing is
 * sent when the trigger is set), or a first reply that continues.  The
 * connection is closed after, which ends the stream.
 */
static int monitor_taken(struct vt_conn *c, const char *call,
			 const char **msg)
{
	int ret = vt_send(c, call);

	*msg = "";
	if (ret)
		return ret;
	ret = vt_recv(c, 700, msg);
	if (ret == -ETIMEDOUT)
		return 1;
	if (ret != 1)
		return ret;
	return vt_continues(*msg) ? 1 : 0;
}

/*
 * The window rule: a multiple of 2 s for all, any from 0.5 s to 10 s
 * only with CAP_SYS_RESOURCE, raw, in both the opener and the sender;
 * for a single identity, the kernel's own answer to it is the same.
 * A refused call leaves the connection to the next one.
 */
TEST_F(caller, monitor_window)
{
	bool mixed = variant->who == OPENER_ROOT || variant->who == SENDER_ROOT;
	int ret;

	if (!proc_has("pressure/cpu")) {
		EXPECT_TRUE(monitor_unavailable("cpu"));
		return;
	}
	ret = monitor_taken(&self->c, monitor_call("cpu", false, 100000, 500000),
			    &self->msg);
	if (variant->privileged) {
		EXPECT_EQ(1, ret) TH_LOG("%s", self->msg);
		/* a connection with no stream for the next */
		vt_close(&self->c);
		ASSERT_EQ(0, vt_open_ready(&self->c));
	} else {
		EXPECT_EQ(0, ret) TH_LOG("%s", self->msg);
		EXPECT_TRUE(vt_is_error(self->msg, KS_INVALID)) TH_LOG("%s", self->msg);
		EXPECT_TRUE(vt_json_is(self->msg, "parameters.parameter", "\"window\""))
			TH_LOG("%s", self->msg);
	}
	ret = monitor_taken(&self->c, monitor_call("cpu", false, 100000, 2000000),
			    &self->msg);
	EXPECT_EQ(1, ret) TH_LOG("%s", self->msg);
	if (!mixed) {
		EXPECT_EQ(variant->privileged, kernel_takes(100000, 500000));
		EXPECT_TRUE(kernel_takes(100000, 2000000));
	}
}

/* What psi_trigger_create() refuses is InvalidParameter, named; as root */
FIXTURE(limits) {
	struct vt_conn c;
	bool no_psi;
};

FIXTURE_VARIANT(limits) {
	const char *res;
	bool full;
	long long stall, window;
	const char *bad;	/* the parameter named */
	/* the kernel's version decides: 0.5 s at least before 6.4 */
	bool kernel_decides;
};

FIXTURE_VARIANT_ADD(limits, window_short) {
	.res = "cpu", .stall = 1000, .window = 499999, .bad = "window",
	.kernel_decides = true,
};

FIXTURE_VARIANT_ADD(limits, window_zero) {
	.res = "cpu", .stall = 0, .window = 0, .bad = "window",
};

FIXTURE_VARIANT_ADD(limits, window_long) {
	.res = "memory", .stall = 1000, .window = 10000001, .bad = "window",
};

FIXTURE_VARIANT_ADD(limits, window_negative) {
	.res = "io", .stall = 1000, .window = -2000000, .bad = "window",
};

FIXTURE_VARIANT_ADD(limits, window_huge) {
	.res = "io", .stall = 1000, .window = 4294967296000000LL,
	.bad = "window",
};

FIXTURE_VARIANT_ADD(limits, stall_zero) {
	.res = "cpu", .stall = 0, .window = 1000000, .bad = "stall",
};

FIXTURE_VARIANT_ADD(limits, stall_negative) {
	.res = "cpu", .full = true, .stall = -1, .window = 1000000,
	.bad = "stall",
};

FIXTURE_VARIANT_ADD(limits, stall_over_window) {
	.res = "memory", .stall = 1000001, .window = 1000000, .bad = "stall",
};

FIXTURE_VARIANT_ADD(limits, stall_wraps) {
	.res = "memory", .stall = 4294967296LL + 1000, .window = 1000000,
	.bad = "stall",
};

FIXTURE_SETUP(limits)
{
	self->no_psi = !proc_has(vt_fmt("pressure/%s", variant->res));
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(limits)
{
	vt_close(&self->c);
}

TEST_F(limits, refused)
{
	const char *msg;

	if (self->no_psi) {
		EXPECT_TRUE(monitor_unavailable(variant->res));
		return;
	}
	if (variant->kernel_decides &&
	    kernel_takes(variant->stall, variant->window)) {
		/* as root: psi takes any window, of 1 us and more */
		EXPECT_EQ(1, monitor_taken(&self->c, monitor_call(variant->res, false,
								  variant->stall,
								  variant->window),
					   &msg)) TH_LOG("%s", msg);
		return;
	}
	ASSERT_EQ(1, vt_call(&self->c, monitor_call(variant->res, variant->full,
						    variant->stall,
						    variant->window), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.parameter",
			       vt_fmt("\"%s\"", variant->bad))) TH_LOG("%s", msg);
	/* the kernel refuses the same (within its u32 parameters) */
	if (variant->res[0] == 'c' && variant->stall >= 0 &&
	    variant->window >= 0 && variant->window < 4294967296LL &&
	    !variant->full)
		EXPECT_FALSE(kernel_takes(variant->stall, variant->window));
}

#define MONITOR_PARAMS	"{\"resource\":\"cpu\",\"stall\":1000,\"window\":2000000}"

/* A resource that is not one, and Monitor without "more" */
TEST(bad_calls)
{
	static const char *const bad[] = {
		KS_CALL(PRESSURE ".Get", "{\"resource\":\"disk\"}"),
		KS_CALL(PRESSURE ".Get", "{\"resource\":\"../cpu\"}"),
		KS_CALL(PRESSURE ".Get", "{\"resource\":\"cpu.pressure\"}"),
		KS_CALL(PRESSURE ".Get", "{\"resource\":\"\"}"),
		KS_CALL(PRESSURE ".Get", "{\"resource\":1}"),
		KS_CALL(PRESSURE ".Get", "{}"),
		MONITOR("{\"resource\":\"CPU\",\"stall\":1000,\"window\":2000000}"),
		MONITOR("{\"resource\":\"cpu\",\"stall\":1.5,\"window\":2000000}"),
		MONITOR("{\"resource\":\"cpu\",\"window\":2000000}"),
		KS_CALL(MEMORY ".Get", "{\"x\":1}"),
	};
	struct vt_conn c;
	const char *msg;
	unsigned int i;

	ASSERT_EQ(0, vt_open_ready(&c));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ASSERT_EQ(1, vt_call(&c, bad[i], &msg)) TH_LOG("%s", bad[i]);
		EXPECT_TRUE(vt_is_error(msg, KS_INVALID))
			TH_LOG("%s: %s", bad[i], msg);
	}
	ASSERT_EQ(1, vt_call(&c, KS_CALL(PRESSURE ".Monitor", MONITOR_PARAMS), &msg));
	EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.ExpectedMore")) TH_LOG("%s", msg);
	vt_close(&c);
}

/* irq: only "full", as the kernel has it, or no irq pressure at all */
TEST(irq)
{
	const char *msg;
	struct vt_conn c;
	bool has = proc_has("pressure/irq");

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, monitor_call("irq", false, 100000, 2000000), &msg));
	if (!has) {
		EXPECT_TRUE(vt_is_error(msg, UNAVAILABLE)) TH_LOG("%s", msg);
		EXPECT_TRUE(vt_json_is(msg, "parameters.resource", "\"irq\""));
	} else {
		EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
		EXPECT_TRUE(vt_json_is(msg, "parameters.parameter", "\"full\""));
		vt_close(&c);
		ASSERT_EQ(0, vt_open_ready(&c));
		EXPECT_EQ(1, monitor_taken(&c, monitor_call("irq", true, 100000, 2000000),
					   &msg)) TH_LOG("%s", msg);
	}
	vt_close(&c);
}

/* Processes that spin until killed */
static int spin(pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return -errno;
		if (!pids[i]) {
			/* runnable all the time, in and out of the kernel */
			for (;;)
				getppid();
		}
	}
	return 0;
}

static void unspin(pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
		}
	}
}

/* As nobody: a 2 s trigger on CPU "some", 10 ms stalled, fires */
static int fires(void *arg)
{
	const char *msg = "";
	struct vt_conn c;
	int failed = 0, ret;
	long long v;

	failed += !KS_OK(vt_open_ready(&c) == 0);
	failed += !KS_OK(vt_send(&c, monitor_call("cpu", false, 10000, 2000000)) == 0);
	/* psi's averages worker looks every 2 s */
	ret = vt_recv(&c, 15000, &msg);
	failed += !KS_OK(ret == 1);
	failed += !KS_OK(vt_continues(msg));
	failed += !KS_OK(!vt_reply_problem(msg));
	failed += !KS_OK(ks_json_fixed(msg, "parameters.some.avg10", 2, &v));
	failed += !KS_OK(ks_json_int(msg, "parameters.some.total", &v) && v > 0);
	failed += !KS_OK(vt_json_has(msg, "parameters.full"));
	if (failed)
		fprintf(stderr, "# %s\n", msg);
	/* a second firing, a window later at least */
	ret = vt_recv(&c, 15000, &msg);
	failed += !KS_OK(ret == 1 && vt_continues(msg));
	vt_close(&c);
	return failed;
}

TEST(monitor_fires)
{
	int n = 2 * sysconf(_SC_NPROCESSORS_ONLN) + 2;
	pid_t pids[n];

	if (!proc_has("pressure/cpu")) {
		EXPECT_TRUE(monitor_unavailable("cpu"));
		return;
	}
	memset(pids, 0, sizeof(pids));
	ASSERT_EQ(0, spin(pids, n));
	EXPECT_EQ(0, ks_run_as(KS_NOBODY, KS_NOBODY, fires, NULL));
	unspin(pids, n);
}

/*
 * The core's stream quota: a user runs max_streams_per_user Monitor
 * streams, one more gets TooManyStreams; one ended makes room.  The
 * calls are served in parallel: which one is refused is not known.
 */
static int quota(void *arg)
{
	long per_user = *(long *)arg;
	struct vt_conn c[per_user + 1];
	bool replied[per_user + 1];
	long long deadline;
	const char *msg = "";
	int failed = 0, i, ret, n = 0, refused = -1;

	for (i = 0; i <= per_user; i++) {
		replied[i] = false;
		failed += !KS_OK(vt_open_ready(&c[i]) == 0);
	}
	for (i = 0; i <= per_user; i++)
		failed += !KS_OK(vt_send(&c[i], monitor_call("memory", false, 100000,
							     2000000)) == 0);
	deadline = vt_now_ms() + 3000;
	while (vt_now_ms() < deadline) {
		for (i = 0; i <= per_user; i++) {
			if (replied[i] || vt_recv(&c[i], 5, &msg) != 1)
				continue;
			replied[i] = true;
			n++;
			refused = i;
			failed += !KS_OK(vt_is_error(msg, "org.kernel.varlink.TooManyStreams"));
			failed += !KS_OK(vt_json_is(msg, "parameters.max_per_user",
						    vt_fmt("%ld", per_user)));
			if (failed)
				fprintf(stderr, "# %s\n", msg);
		}
	}
	failed += !KS_OK(n == 1);
	if (refused < 0)
		refused = per_user;
	/* one less, one more */
	vt_close(&c[refused]);
	vt_close(&c[refused ? 0 : 1]);
	for (ret = -1, i = 0; i < 50 && ret; i++) {
		failed += !KS_OK(vt_open_ready(&c[refused]) == 0);
		ret = monitor_taken(&c[refused],
				    monitor_call("memory", false, 100000, 2000000), &msg);
		ret = ret == 1 ? 0 : -1;
		if (ret) {
			vt_close(&c[refused]);
			vt_sleep_ms(20);
		}
	}
	failed += !KS_OK(ret == 0);
	for (i = 0; i <= per_user; i++)
		vt_close(&c[i]);
	return failed;
}

TEST(stream_quota)
{
	long per_user = vt_param("max_streams_per_user", -1);

	if (!proc_has("pressure/memory")) {
		EXPECT_TRUE(monitor_unavailable("memory"));
		return;
	}
	ASSERT_LT(0, per_user);
	ASSERT_GE(100, per_user);
	EXPECT_EQ(0, ks_run_as(KS_NOBODY, KS_NOBODY, quota, &per_user));
}

/* Unloading the module ends a live stream with MonitorEnded. */
TEST(unload)
{
	struct vt_conn c;
	const char *msg;

	if (!proc_has("pressure/io")) {
		EXPECT_TRUE(monitor_unavailable("io"));
		return;
	}
	ASSERT_TRUE(vt_interface_served(PRESSURE));
	if (!vt_module_loaded(MODULE)) {
		/* built in: no module to unload */
		EXPECT_EQ(-ENOENT, vt_delete_module(MODULE));
		return;
	}
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, monitor_taken(&c, monitor_call("io", false, 100000, 2000000), &msg));
	ASSERT_EQ(0, vt_rmmod(MODULE, 60000));
	ASSERT_EQ(1, vt_recv(&c, VT_TIMEOUT_MS, &msg));
	EXPECT_TRUE(vt_is_error(msg, PRESSURE ".MonitorEnded")) TH_LOG("%s", msg);
	vt_close(&c);
	ASSERT_EQ(0, vt_insmod(MODULE));
	EXPECT_TRUE(vt_interface_served(PRESSURE));
	/* org.kernel.memory is a module of its own: it stayed */
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, MEM_GET, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	vt_close(&c);
}

/* Both IDLs are served, and flat: one level of map, no nested types. */
TEST(idl)
{
	static const char *const ifaces[] = { MEMORY, PRESSURE };
	struct vt_conn c;
	const char *msg;
	unsigned int i;
	char *idl;

	ASSERT_EQ(0, vt_open_ready(&c));
	for (i = 0; i < ARRAY_SIZE(ifaces); i++) {
		ASSERT_EQ(1, vt_call(&c, vt_fmt(VT_DESCRIBE_FMT, ifaces[i]), &msg));
		idl = vt_json_str(msg, "parameters.description");
		ASSERT_NE(NULL, idl) TH_LOG("%s", msg);
		EXPECT_NE(NULL, strstr(idl, vt_fmt("interface %s\n", ifaces[i])));
		EXPECT_EQ(NULL, strstr(idl, "[]["));
		EXPECT_EQ(NULL, strstr(idl, "]?"));
		EXPECT_EQ(NULL, strstr(idl, "?["));
		EXPECT_EQ(NULL, strstr(idl, ": ("));
		free(idl);
	}
	vt_close(&c);
}

TEST_HARNESS_MAIN
