// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.system (varlink_system.ko): every value of Describe against
 * what uname(2), /proc and /sys say in the same moment, SetHostname:
 * valid and invalid names, and callers without CAP_SYS_ADMIN, and
 * GetCommandLine against /proc/cmdline and the kernel's way to split it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kernel_state_test.h"

#define IFACE		"org.kernel.system"
#define DESCRIBE	KS_CALL(IFACE ".Describe", "{}")
#define MIB		(1024LL * 1024)

/* A string of the reply's parameters; "(missing)" if there is none. */
static const char *param_str(const char *msg, const char *key)
{
	char path[64];
	char *s;

	snprintf(path, sizeof(path), "parameters.%s", key);
	s = vt_json_str(msg, path);
	return s ? s : "(missing)";
}

/* An integer of the reply's parameters; LLONG_MIN if there is none. */
static long long param_int(const char *msg, const char *key)
{
	char path[64];
	long long v;

	snprintf(path, sizeof(path), "parameters.%s", key);
	return ks_json_int(msg, path, &v) ? v : LLONG_MIN;
}

/* A float of the reply's parameters times 10^@decimals, or LLONG_MIN. */
static long long param_fixed(const char *msg, const char *key,
			     unsigned int decimals)
{
	char path[64];
	long long v;

	snprintf(path, sizeof(path), "parameters.%s", key);
	return ks_json_fixed(msg, path, decimals, &v) ? v : LLONG_MIN;
}

/* /proc/loadavg: the three loads in hundredths, and the thread count. */
struct loadavg {
	long long load[3];
	long long total;
};

static bool read_loadavg(struct loadavg *l)
{
	char *s = ks_read("/proc/loadavg");
	long long i[3], f[3], running;
	int n, k;

	if (!s)
		return false;
	n = sscanf(s, "%lld.%lld %lld.%lld %lld.%lld %lld/%lld", &i[0], &f[0],
		   &i[1], &f[1], &i[2], &f[2], &running, &l->total);
	free(s);
	for (k = 0; k < 3; k++)
		l->load[k] = i[k] * 100 + f[k];
	return n == 8;
}

/* The first number of /proc/uptime, in hundredths of a second. */
static long long uptime_centis(void)
{
	char *s = ks_read("/proc/uptime");
	long long sec = -1, centi = 0;

	if (s && sscanf(s, "%lld.%lld", &sec, &centi) != 2)
		sec = -1;
	free(s);
	return sec < 0 ? -1 : sec * 100 + centi;
}

/* The first line of @path, or "(unreadable)". */
static const char *line(const char *path)
{
	char *s = ks_read_line(path);

	return s ? s : "(unreadable)";
}

static long long min_ll(long long a, long long b)
{
	return a < b ? a : b;
}

static long long max_ll(long long a, long long b)
{
	return a > b ? a : b;
}

FIXTURE(describe) {
	struct vt_conn c;
	const char *msg;
};

/* Each test also runs in a time namespace of its own, a day ahead. */
FIXTURE_VARIANT(describe) {
	bool time_ns;
};

FIXTURE_VARIANT_ADD(describe, host) {};
FIXTURE_VARIANT_ADD(describe, time_ns) { .time_ns = true };

FIXTURE_SETUP(describe)
{
	if (variant->time_ns)
		ASSERT_EQ(0, ks_enter_time_ns(KS_TIME_NS_SECS));
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(describe)
{
	vt_close(&self->c);
}

/* Call Describe into self->msg; the caller reads /proc around it. */
#define CALL_DESCRIBE() do {						\
	ASSERT_EQ(1, vt_call(&self->c, DESCRIBE, &self->msg));		\
	ASSERT_TRUE(vt_is_ok(self->msg)) TH_LOG("%s", self->msg);	\
	ASSERT_EQ(NULL, vt_reply_problem(self->msg));			\
} while (0)

/* Every field of the IDL is there, with the type it declares. */
TEST_F(describe, fields)
{
	static const char *const strings[] = {
		"sysname", "nodename", "release", "version", "machine",
		"domainname",
	};
	static const char *const ints[] = {
		"boot_time", "memory_total", "memory_free", "memory_available",
		"memory_buffers", "memory_cached", "memory_shared",
		"swap_total", "swap_free", "tasks_running", "tasks_total",
		"cpus_online", "cpus_present", "cpus_possible",
	};
	char bad[512] = "";
	unsigned int i;

	CALL_DESCRIBE();
	TH_LOG("%s", self->msg);
	for (i = 0; i < ARRAY_SIZE(strings); i++)
		if (!vt_json_str(self->msg, vt_fmt("parameters.%s", strings[i])))
			strcat(bad, vt_fmt(" %s", strings[i]));
	for (i = 0; i < ARRAY_SIZE(ints); i++)
		if (param_int(self->msg, ints[i]) < 0)
			strcat(bad, vt_fmt(" %s", ints[i]));
	EXPECT_STREQ("", bad) TH_LOG("%s", self->msg);
	EXPECT_LE(0, param_fixed(self->msg, "uptime", 6));
	EXPECT_LE(0, param_fixed(self->msg, "load_1", 2));
	EXPECT_LE(0, param_fixed(self->msg, "load_5", 2));
	EXPECT_LE(0, param_fixed(self->msg, "load_15", 2));
}

TEST_F(describe, uname)
{
	struct utsname u;

	CALL_DESCRIBE();
	ASSERT_EQ(0, uname(&u));
	EXPECT_STREQ(u.sysname, param_str(self->msg, "sysname"));
	EXPECT_STREQ(u.nodename, param_str(self->msg, "nodename"));
	EXPECT_STREQ(u.release, param_str(self->msg, "release"));
	EXPECT_STREQ(u.version, param_str(self->msg, "version"));
	EXPECT_STREQ(u.machine, param_str(self->msg, "machine"));
	EXPECT_STREQ(u.domainname, param_str(self->msg, "domainname"));
	EXPECT_STREQ(line("/proc/sys/kernel/ostype"),
		     param_str(self->msg, "sysname"));
	EXPECT_STREQ(line("/proc/sys/kernel/hostname"),
		     param_str(self->msg, "nodename"));
	EXPECT_STREQ(line("/proc/sys/kernel/osrelease"),
		     param_str(self->msg, "release"));
	EXPECT_STREQ(line("/proc/sys/kernel/version"),
		     param_str(self->msg, "version"));
	EXPECT_STREQ(line("/proc/sys/kernel/domainname"),
		     param_str(self->msg, "domainname"));
}

/* Uptime between /proc/uptime before and after; btime of /proc/stat. */
TEST_F(describe, time)
{
	long long before, after, uptime, btime;
	char *stat;

	before = uptime_centis();
	CALL_DESCRIBE();
	after = uptime_centis();
	ASSERT_LE(0, before);
	uptime = param_fixed(self->msg, "uptime", 6);
	/* /proc/uptime truncates to hundredths */
	EXPECT_LE(before * 10000, uptime);
	EXPECT_LT(uptime, (after + 1) * 10000);

	stat = ks_read("/proc/stat");
	ASSERT_NE(NULL, stat);
	btime = ks_field(stat, "btime", 0);
	ASSERT_LT(0, btime);
	EXPECT_LE(btime - 1, param_int(self->msg, "boot_time"));
	EXPECT_GE(btime + 1, param_int(self->msg, "boot_time"));
	free(stat);
}

/*
 * Memory against /proc/meminfo: what does not move exactly, what moves
 * within what it was before and after the call, give or take 16 MiB.
 */
TEST_F(describe, memory)
{
	static const struct {
		const char *key, *meminfo;
		bool moves;
	} fields[] = {
		{ "memory_total", "MemTotal:", false },
		{ "memory_free", "MemFree:", true },
		{ "memory_available", "MemAvailable:", true },
		{ "memory_buffers", "Buffers:", true },
		{ "memory_cached", "Cached:", true },
		{ "memory_shared", "Shmem:", true },
		{ "swap_total", "SwapTotal:", false },
		{ "swap_free", "SwapFree:", true },
	};
	enum { N = ARRAY_SIZE(fields) };
	long long before[N], after[N], v, total;
	unsigned int i;

	for (i = 0; i < N; i++)
		before[i] = ks_meminfo(fields[i].meminfo);
	CALL_DESCRIBE();
	for (i = 0; i < N; i++)
		after[i] = ks_meminfo(fields[i].meminfo);

	for (i = 0; i < N; i++) {
		ASSERT_LE(0, before[i]) TH_LOG("%s", fields[i].meminfo);
		v = param_int(self->msg, fields[i].key);
		if (!fields[i].moves) {
			EXPECT_EQ(before[i], v) TH_LOG("%s", fields[i].key);
			continue;
		}
		EXPECT_LE(min_ll(before[i], after[i]) - 16 * MIB, v)
			TH_LOG("%s: %lld, /proc/meminfo %lld then %lld",
			       fields[i].key, v, before[i], after[i]);
		EXPECT_GE(max_ll(before[i], after[i]) + 16 * MIB, v)
			TH_LOG("%s: %lld, /proc/meminfo %lld then %lld",
			       fields[i].key, v, before[i], after[i]);
	}
	total = param_int(self->msg, "memory_total");
	EXPECT_LT(0, total);
	EXPECT_GE(total, param_int(self->msg, "memory_free"));
	EXPECT_GE(total, param_int(self->msg, "memory_available"));
	EXPECT_GE(param_int(self->msg, "swap_total"),
		  param_int(self->msg, "swap_free"));
}

/*
 * The loads are those of /proc/loadavg before or after the call (they
 * change every 5 s); the thread count is close to its "/total".
 */
TEST_F(describe, load)
{
	static const char *const keys[] = { "load_1", "load_5", "load_15" };
	struct loadavg before, after;
	long long v, running, total;
	int i;

	ASSERT_TRUE(read_loadavg(&before));
	CALL_DESCRIBE();
	ASSERT_TRUE(read_loadavg(&after));
	for (i = 0; i < 3; i++) {
		v = param_fixed(self->msg, keys[i], 2);
		EXPECT_TRUE(v == before.load[i] || v == after.load[i])
			TH_LOG("%s: %lld hundredths, /proc/loadavg %lld then %lld",
			       keys[i], v, before.load[i], after.load[i]);
	}
	running = param_int(self->msg, "tasks_running");
	total = param_int(self->msg, "tasks_total");
	/* the kworker that counts is running */
	EXPECT_LE(1, running);
	EXPECT_GE(total, running);
	EXPECT_LE(min_ll(before.total, after.total) - 16, total)
		TH_LOG("tasks_total %lld, /proc/loadavg %lld then %lld",
		       total, before.total, after.total);
	EXPECT_GE(max_ll(before.total, after.total) + 16, total)
		TH_LOG("tasks_total %lld, /proc/loadavg %lld then %lld",
		       total, before.total, after.total);
}

TEST_F(describe, cpus)
{
	CALL_DESCRIBE();
	EXPECT_EQ(ks_cpu_list_count("/sys/devices/system/cpu/online"),
		  param_int(self->msg, "cpus_online"));
	EXPECT_EQ(ks_cpu_list_count("/sys/devices/system/cpu/present"),
		  param_int(self->msg, "cpus_present"));
	EXPECT_EQ(ks_cpu_list_count("/sys/devices/system/cpu/possible"),
		  param_int(self->msg, "cpus_possible"));
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_ONLN),
		  param_int(self->msg, "cpus_online"));
}

/* The IDL is served, and flat: no arrays or maps that sd-varlink rejects. */
TEST_F(describe, idl)
{
	char *idl;

	ASSERT_EQ(1, vt_call(&self->c, KS_CALL("org.varlink.service.GetInterfaceDescription",
					       "{\"interface\":\"" IFACE "\"}"), &self->msg));
	idl = vt_json_str(self->msg, "parameters.description");
	ASSERT_NE(NULL, idl) TH_LOG("%s", self->msg);
	EXPECT_NE(NULL, strstr(idl, "interface " IFACE "\n"));
	EXPECT_NE(NULL, strstr(idl, "method Describe() -> ("));
	EXPECT_NE(NULL, strstr(idl, "method SetHostname("));
	EXPECT_NE(NULL, strstr(idl, "method GetCommandLine() -> ("));
	/* one array, of strings: nothing nested */
	EXPECT_NE(NULL, strstr(idl, "arguments: []string\n"));
	EXPECT_EQ(strchr(idl, '['), strrchr(idl, '['));
	free(idl);
}

#define CMDLINE		KS_CALL(IFACE ".GetCommandLine", "{}")

/* White space as the kernel's isspace(): Latin-1's no-break space too */
static bool kernel_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

/*
 * The arguments of @line as the kernel's next_arg() cuts them (written
 * anew from its description, not copied): into @out, NUL-separated;
 * returns their number.  At white space outside quotes; a quote that
 * starts the argument goes, with the last character if a quote; so does
 * one right after the first "=" (not at the start), with the last
 * character if a quote.
 */
static int split_like_kernel(const char *line, char *out)
{
	char *arg = strdup(line), *p = arg;
	int n = 0;

	while (kernel_space(*p))
		p++;
	while (*p) {
		bool quoted = *p == '"', in_quote;
		size_t i, equals = 0;
		char *param, *val = NULL, *next;

		p += quoted;
		in_quote = quoted;
		for (i = 0; p[i]; i++) {
			if (kernel_space(p[i]) && !in_quote)
				break;
			if (!equals && i && p[i] == '=')
				equals = i;
			if (p[i] == '"')
				in_quote = !in_quote;
		}
		next = p[i] ? p + i + 1 : p + i;
		param = p;
		if (equals) {
			p[equals] = '\0';
			val = p + equals + 1;
			if (*val == '"') {
				val++;
				if (p[i - 1] == '"')
					p[i - 1] = '\0';
			}
		}
		if (quoted && i && p[i - 1] == '"')
			p[i - 1] = '\0';
		p[i] = '\0';
		out += sprintf(out, "%s%s%s", param, val ? "=" : "", val ? val : "") + 1;
		n++;
		p = next;
		while (kernel_space(*p))
			p++;
	}
	free(arg);
	return n;
}

/* The split itself, on lines the test kernel's command line lacks */
TEST(command_line_split)
{
	static const struct {
		const char *line;
		const char *args[4];
	} cases[] = {
		{ "  a b=c  ", { "a", "b=c" } },
		{ "a=\"b c\" d", { "a=b c", "d" } },
		{ "\"x y\" z", { "x y", "z" } },
		{ "a=\"b c\"d", { "a=b c\"d" } },
		{ "=a b", { "=a", "b" } },
		{ "a==b", { "a==b" } },
		{ "-- init arg", { "--", "init", "arg" } },
		{ "a=\"", { "a=" } },
		{ "\"", { "" } },
		{ "a\tb\nc", { "a", "b", "c" } },
	};
	char out[256];
	unsigned int i;
	int n, k;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *o = out;

		n = split_like_kernel(cases[i].line, out);
		for (k = 0; k < 4 && cases[i].args[k]; k++) {
			EXPECT_STREQ(cases[i].args[k], o) TH_LOG("%s", cases[i].line);
			o += strlen(o) + 1;
		}
		EXPECT_EQ(k, n) TH_LOG("%s", cases[i].line);
	}
}

/*
 * GetCommandLine against /proc/cmdline (@text, read by root: in the
 * guest, nobody may not look up anything under "/", which is 0700) and
 * its split; 0 if it matches.
 */
static int check_command_line(struct vt_conn *c, const char *text)
{
	char *file = text ? strdup(text) : NULL, *out, *cmdline;
	const char *msg, *o;
	int failed = 0, n, k;
	size_t len;

	if (!KS_OK(file) || !KS_OK(vt_call(c, CMDLINE, &msg) == 1))
		return 1;
	failed += !KS_OK(vt_is_ok(msg));
	failed += !KS_OK(!vt_reply_problem(msg));
	len = strlen(file);
	failed += !KS_OK(len && file[len - 1] == '\n');
	if (len && file[len - 1] == '\n')
		file[--len] = '\0';
	cmdline = vt_json_str(msg, "parameters.cmdline");
	failed += !KS_OK(cmdline && !strcmp(cmdline, file));
	out = malloc(2 * len + 2);
	n = split_like_kernel(file, out);
	failed += !KS_OK(n > 1);
	for (k = 0, o = out; k < n; k++, o += strlen(o) + 1) {
		char *arg = vt_json_str(msg, vt_fmt("parameters.arguments.%d", k));

		if (!KS_OK(arg && !strcmp(arg, o))) {
			fprintf(stderr, "# argument %d: '%s', expected '%s'\n",
				k, arg ? arg : "(none)", o);
			failed++;
		}
		free(arg);
	}
	failed += !KS_OK(!vt_json_has(msg, vt_fmt("parameters.arguments.%d", n)));
	if (failed)
		fprintf(stderr, "# %s\n", msg);
	free(cmdline);
	free(out);
	free(file);
	return failed;
}

TEST(command_line)
{
	char *text = ks_read("/proc/cmdline");
	struct vt_conn c;

	ASSERT_NE(NULL, text);
	ASSERT_EQ(0, vt_open_ready(&c));
	EXPECT_EQ(0, check_command_line(&c, text));
	vt_close(&c);
	free(text);
}

static int command_line_nobody(void *arg)
{
	struct vt_conn c;
	int failed;

	if (!KS_OK(vt_open_ready(&c) == 0))
		return 1;
	failed = check_command_line(&c, arg);
	vt_close(&c);
	return failed;
}

/* Anybody may read it, as /proc/cmdline (0444) */
TEST(command_line_unprivileged)
{
	char *text = ks_read("/proc/cmdline");

	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, ks_run_as(KS_NOBODY, KS_NOBODY, command_line_nobody, text));
	free(text);
}

/*
 * SetHostname, as root.  The host name is put back with sethostname(2)
 * after each test: the one the guest boots with, "(none)", is not one
 * SetHostname accepts.
 */
FIXTURE(hostname) {
	struct vt_conn c;
	char *old;
};

FIXTURE_VARIANT(hostname) {
	const char *json;	/* the parameters */
	const char *name;	/* the name it sets, NULL if invalid */
};

FIXTURE_VARIANT_ADD(hostname, simple) {
	.json = "{\"hostname\":\"kvarlink-test\"}",
	.name = "kvarlink-test",
};

FIXTURE_VARIANT_ADD(hostname, dotted) {
	.json = "{\"hostname\":\"Guest-1.example.ORG\"}",
	.name = "Guest-1.example.ORG",
};

FIXTURE_VARIANT_ADD(hostname, one_char) {
	.json = "{\"hostname\":\"a\"}",
	.name = "a",
};

FIXTURE_VARIANT_ADD(hostname, digit_first) {
	.json = "{\"hostname\":\"0host-\"}",
	.name = "0host-",
};

#define C16	"abcdefghij012345"
FIXTURE_VARIANT_ADD(hostname, longest) {
	.json = "{\"hostname\":\"" C16 C16 C16 C16 "\"}",
	.name = C16 C16 C16 C16,
};

FIXTURE_VARIANT_ADD(hostname, too_long) {
	.json = "{\"hostname\":\"" C16 C16 C16 C16 "x\"}",
};

FIXTURE_VARIANT_ADD(hostname, empty) {
	.json = "{\"hostname\":\"\"}",
};

FIXTURE_VARIANT_ADD(hostname, leading_dash) {
	.json = "{\"hostname\":\"-host\"}",
};

FIXTURE_VARIANT_ADD(hostname, leading_dot) {
	.json = "{\"hostname\":\".host\"}",
};

FIXTURE_VARIANT_ADD(hostname, space) {
	.json = "{\"hostname\":\"my host\"}",
};

FIXTURE_VARIANT_ADD(hostname, underscore) {
	.json = "{\"hostname\":\"my_host\"}",
};

FIXTURE_VARIANT_ADD(hostname, slash) {
	.json = "{\"hostname\":\"a/b\"}",
};

FIXTURE_VARIANT_ADD(hostname, parentheses) {
	.json = "{\"hostname\":\"(none)\"}",
};

FIXTURE_VARIANT_ADD(hostname, newline) {
	.json = "{\"hostname\":\"host\\n\"}",
};

FIXTURE_VARIANT_ADD(hostname, latin1_letter) {
	.json = "{\"hostname\":\"h\\u00e9te\"}",
};

FIXTURE_SETUP(hostname)
{
	self->old = ks_read_line("/proc/sys/kernel/hostname");
	ASSERT_NE(NULL, self->old);
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(hostname)
{
	char *now = ks_read_line("/proc/sys/kernel/hostname");

	if (self->old && (!now || strcmp(now, self->old)))
		EXPECT_EQ(0, sethostname(self->old, strlen(self->old)));
	vt_close(&self->c);
}

TEST_F(hostname, set)
{
	char *params = vt_fmt(KS_CALL(IFACE ".SetHostname", "%s"), variant->json);
	struct utsname u;
	const char *msg;

	ASSERT_EQ(1, vt_call(&self->c, params, &msg));
	ASSERT_EQ(NULL, vt_reply_problem(msg));
	if (!variant->name) {
		ASSERT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
		EXPECT_TRUE(vt_json_is(msg, "parameters.parameter", "\"hostname\""))
			TH_LOG("%s", msg);
		EXPECT_STREQ(self->old, line("/proc/sys/kernel/hostname"));
		return;
	}
	ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(vt_params(msg), "", "{}")) TH_LOG("%s", msg);
	EXPECT_STREQ(variant->name, line("/proc/sys/kernel/hostname"));
	ASSERT_EQ(0, uname(&u));
	EXPECT_STREQ(variant->name, u.nodename);
	ASSERT_EQ(1, vt_call(&self->c, DESCRIBE, &msg));
	EXPECT_STREQ(variant->name, param_str(msg, "nodename"));
}

/* Without CAP_SYS_ADMIN: Describe works, SetHostname is denied. */
static int as_nobody(void *arg)
{
	static const char set[] = KS_CALL(IFACE ".SetHostname",
					  "{\"hostname\":\"not-allowed\"}");
	struct vt_conn c;
	const char *msg;
	int failed = 0;

	failed += !KS_OK(vt_open_ready(&c) == 0);
	failed += !KS_OK(vt_call(&c, DESCRIBE, &msg) == 1);
	failed += !KS_OK(vt_is_ok(msg));
	failed += !KS_OK(vt_call(&c, set, &msg) == 1);
	failed += !KS_OK(!vt_reply_problem(msg));
	failed += !KS_OK(vt_is_error(msg, KS_DENIED));
	vt_close(&c);
	return failed;
}

TEST(set_hostname_unprivileged)
{
	char *old = ks_read_line("/proc/sys/kernel/hostname");

	ASSERT_NE(NULL, old);
	EXPECT_EQ(0, ks_run_as(KS_NOBODY, KS_NOBODY, as_nobody, NULL));
	EXPECT_STREQ(old, line("/proc/sys/kernel/hostname"));
}

TEST_HARNESS_MAIN
