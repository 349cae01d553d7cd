// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.device (varlink_device.ko): Get and List against /sys in the
 * same guest (the mem class's null, zero and kmsg, block devices, lo and
 * a dummy link); Monitor's events (a uevent written to a device's uevent
 * file, a dummy link added and removed, a loop device set up), a replay
 * then live events with none lost between, a slow reader of a replay;
 * what a client in a network namespace of its own, or of a user
 * namespace's, sees; Trigger's permission matrix and bad names; the
 * stream quota.  As udevadm uses it: Monitor's ready reply, then Triggers
 * with UUIDs and arguments settled; subsystems, drivers and modules;
 * attributes equal to cat of the files, the root's only ones refused;
 * Get's parents; bad input of each new parameter.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <limits.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/loop.h>

#include "kselftest_harness.h"
#include "kernel_state_test.h"
#include "rtnl_test.h"

#define IFACE		"org.kernel.device"
#define NOT_FOUND	IFACE ".DeviceNotFound"
#define TOO_MANY	"org.kernel.varlink.TooManyStreams"
#define MORE(method, params) \
	"{\"method\":\"" IFACE "." method "\",\"more\":true,\"parameters\":" params "}"

static const char *const mem_devices[][2] = {
	{ "null", "c1:3" }, { "zero", "c1:5" }, { "kmsg", "c1:11" },
};

/* The last component of the link @path points to, or NULL */
static char *link_base(const char *path)
{
	static char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	char *s;

	if (n < 0)
		return NULL;
	buf[n] = '\0';
	s = strrchr(buf, '/');
	return strdup(s ? s + 1 : buf);
}

/* The syspath the link @path (/sys/class/x/y) points to, or NULL */
static char *link_syspath(const char *path)
{
	char real[PATH_MAX];

	if (!realpath(path, real) || strncmp(real, "/sys/", 5))
		return NULL;
	return strdup(real + 4);
}

static char *str_at(const char *msg, const char *path)
{
	return vt_json_str(msg, path);
}

/* The members of the object at @path of @json, or -1 */
static int count_members(const char *json, const char *path)
{
	size_t len;
	const char *p = vt_json_find(json, path, &len);
	int m = 0;

	if (!p || *p != '{')
		return -1;
	p = vt_json_ws(p + 1);
	while (p && *p == '"') {
		p = vt_json_skip_string(p);
		p = p ? vt_json_ws(p) : NULL;
		if (!p || *p != ':')
			return -1;
		p = vt_json_skip(p + 1, 0);
		p = p ? vt_json_ws(p) : NULL;
		m++;
		if (p && *p == ',')
			p = vt_json_ws(p + 1);
	}
	return m;
}

/*
 * Whether the Device at @at of @msg is what /sys says of @syspath: every
 * KEY=VALUE of its uevent file, subsystem and driver from its links,
 * devnum from its "dev" file.  Logs what differs; returns the failures.
 */
static int matches_sys(const char *msg, const char *at, const char *syspath)
{
	char *uevent = ks_read(vt_fmt("/sys%s/uevent", syspath));
	char *sub = link_base(vt_fmt("/sys%s/subsystem", syspath));
	char *drv = link_base(vt_fmt("/sys%s/driver", syspath));
	char *dev = ks_read_line(vt_fmt("/sys%s/dev", syspath));
	char *line, *save = NULL, *v;
	int failed = 0, n = 0;

	failed += !KS_OK(uevent);
	if (!uevent)
		return failed;
	v = str_at(msg, vt_fmt("%s.syspath", at));
	failed += !KS_OK(v && !strcmp(v, syspath));
	v = str_at(msg, vt_fmt("%s.subsystem", at));
	failed += !KS_OK(sub ? v && !strcmp(v, sub) : !v);
	v = str_at(msg, vt_fmt("%s.driver", at));
	failed += !KS_OK(drv ? v && !strcmp(v, drv) : !v);
	v = str_at(msg, vt_fmt("%s.devnum", at));
	if (dev)
		failed += !KS_OK(v && !strcmp(v, vt_fmt("%c%s", sub && !strcmp(sub, "block") ?
							   'b' : 'c', dev)));
	else
		failed += !KS_OK(!v);
	for (line = strtok_r(uevent, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (!eq)
			continue;
		*eq = '\0';
		v = str_at(msg, vt_fmt("%s.properties.%s", at, line));
		failed += !KS_OK(v && !strcmp(v, eq + 1));
		if (!strcmp(line, "DEVNAME")) {
			v = str_at(msg, vt_fmt("%s.devname", at));
			failed += !KS_OK(v && !strcmp(v, eq + 1));
		}
		if (!strcmp(line, "DEVTYPE")) {
			v = str_at(msg, vt_fmt("%s.devtype", at));
			failed += !KS_OK(v && !strcmp(v, eq + 1));
		}
		if (!strcmp(line, "IFINDEX"))
			failed += !KS_OK(vt_json_is(msg, vt_fmt("%s.ifindex", at), eq + 1));
		n++;
	}
	/* no property more than the file's */
	failed += !KS_OK(count_members(msg, vt_fmt("%s.properties", at)) == n);
	if (failed)
		fprintf(stderr, "# %s vs %s: %s\n", syspath, at, msg);
	return failed;
}

static int get(struct vt_conn *c, const char *params, const char **msg)
{
	return vt_call(c, vt_fmt(KS_CALL(IFACE ".Get", "%s"), params), msg);
}

/*
 * Every test walks /sys/devices at least once, which on the debug kernels
 * (KASAN, lockdep) under TCG takes tens of seconds: a fixture for the
 * harness's per-test timeout, and waits for events that end as soon as
 * the event comes.
 */
#define DEV_TIMEOUT	300
#define EVENT_MS	60000

FIXTURE(dev) {};
FIXTURE_SETUP(dev) {}
FIXTURE_TEARDOWN(dev) {}

TEST_F_TIMEOUT(dev, get_mem, DEV_TIMEOUT)
{
	struct vt_conn c;
	const char *msg;
	unsigned int i;

	ASSERT_EQ(0, vt_open_ready(&c));
	for (i = 0; i < ARRAY_SIZE(mem_devices); i++) {
		const char *syspath = vt_fmt("/devices/virtual/mem/%s", mem_devices[i][0]);

		ASSERT_EQ(1, get(&c, vt_fmt("{\"syspath\":\"%s\"}", syspath), &msg));
		EXPECT_EQ(0, matches_sys(msg, "parameters.device", syspath));
		EXPECT_TRUE(vt_json_is(msg, "parameters.device.subsystem", "\"mem\""));
		EXPECT_TRUE(vt_json_is(msg, "parameters.device.devnum",
				       vt_fmt("\"%s\"", mem_devices[i][1])));
		EXPECT_TRUE(vt_json_is(msg, "parameters.device.devname",
				       vt_fmt("\"%s\"", mem_devices[i][0])));
		ASSERT_EQ(1, get(&c, vt_fmt("{\"devnum\":\"%s\"}", mem_devices[i][1]), &msg));
		EXPECT_EQ(0, matches_sys(msg, "parameters.device", syspath));
	}
	vt_close(&c);
}

/* Every block device there is (loop0 if the kernel has loop), by devnum */
TEST_F_TIMEOUT(dev, get_block, DEV_TIMEOUT)
{
	struct vt_conn c;
	const char *msg;
	struct dirent *d;
	DIR *dir;
	int n = 0;

	ASSERT_EQ(0, vt_open_ready(&c));
	dir = opendir("/sys/class/block");
	while (dir && (d = readdir(dir))) {
		char *syspath, *dev;

		if (d->d_name[0] == '.')
			continue;
		syspath = link_syspath(vt_fmt("/sys/class/block/%s", d->d_name));
		dev = ks_read_line(vt_fmt("/sys/class/block/%s/dev", d->d_name));
		ASSERT_TRUE(syspath && dev);
		ASSERT_EQ(1, get(&c, vt_fmt("{\"devnum\":\"b%s\"}", dev), &msg));
		EXPECT_EQ(0, matches_sys(msg, "parameters.device", syspath));
		ASSERT_EQ(1, get(&c, vt_fmt("{\"syspath\":\"%s\"}", syspath), &msg));
		EXPECT_EQ(0, matches_sys(msg, "parameters.device", syspath));
		n++;
	}
	if (dir)
		closedir(dir);
	ASSERT_EQ(1, get(&c, "{\"syspath\":\"/devices/virtual/block/loop0\"}", &msg));
	if (access("/sys/devices/virtual/block/loop0", F_OK)) {
		EXPECT_TRUE(vt_is_error(msg, NOT_FOUND)) TH_LOG("%s", msg);
	} else {
		EXPECT_EQ(0, matches_sys(msg, "parameters.device",
					 "/devices/virtual/block/loop0"));
		EXPECT_TRUE(vt_json_is(msg, "parameters.device.devtype", "\"disk\""));
	}
	TH_LOG("%d block devices", n);
	vt_close(&c);
}

TEST_F_TIMEOUT(dev, get_net, DEV_TIMEOUT)
{
	struct vt_conn c;
	const char *msg;
	char *idx;

	ASSERT_EQ(0, vt_open_ready(&c));
	idx = ks_read_line("/sys/class/net/lo/ifindex");
	ASSERT_NE(NULL, idx);
	ASSERT_EQ(1, get(&c, vt_fmt("{\"ifindex\":%s}", idx), &msg));
	EXPECT_EQ(0, matches_sys(msg, "parameters.device", "/devices/virtual/net/lo"));
	EXPECT_TRUE(vt_json_is(msg, "parameters.device.properties.INTERFACE", "\"lo\""));

	link_del("vdget0");
	ASSERT_EQ(0, link_add("vdget0", "dummy", NULL));
	idx = ks_read_line("/sys/class/net/vdget0/ifindex");
	ASSERT_NE(NULL, idx);
	ASSERT_EQ(1, get(&c, vt_fmt("{\"ifindex\":%s}", idx), &msg));
	EXPECT_EQ(0, matches_sys(msg, "parameters.device", "/devices/virtual/net/vdget0"));
	EXPECT_TRUE(vt_json_is(msg, "parameters.device.ifindex", idx));
	EXPECT_EQ(0, link_del("vdget0"));
	ASSERT_EQ(1, get(&c, vt_fmt("{\"ifindex\":%s}", idx), &msg));
	EXPECT_TRUE(vt_is_error(msg, NOT_FOUND)) TH_LOG("%s", msg);
	vt_close(&c);
}

/* The syspaths of the devices /sys/devices holds: directories with uevent */
static char **walk_paths;
static int walk_n;

static int walk_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	if (type == FTW_D && !access(vt_fmt("%s/uevent", path), F_OK) &&
	    strcmp(path, "/sys/devices")) {
		walk_paths = realloc(walk_paths, (walk_n + 1) * sizeof(*walk_paths));
		walk_paths[walk_n++] = strdup(path + 4);
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read a List stream to its end; its syspaths, sorted, in *@out. */
static int list_all(struct vt_conn *c, const char *params, char ***out,
		    const char *check_subsystem)
{
	const char *msg;
	char **paths = NULL;
	int n = 0;

	if (vt_send(c, vt_fmt(MORE("List", "%s"), params)))
		return -1;
	do {
		char *p;

		if (vt_recv(c, 2 * EVENT_MS, &msg) != 1 || !vt_is_ok(msg))
			return fprintf(stderr, "# %s\n", msg), -1;
		p = str_at(msg, "parameters.device.syspath");
		if (!p)
			continue;
		if (check_subsystem &&
		    !vt_json_is(msg, "parameters.device.subsystem",
				vt_fmt("\"%s\"", check_subsystem)))
			return fprintf(stderr, "# %s\n", msg), -1;
		paths = realloc(paths, (n + 1) * sizeof(*paths));
		paths[n++] = strdup(p);
	} while (vt_continues(msg));
	qsort(paths, n, sizeof(*paths), cmp_str);
	*out = paths;
	return n;
}

TEST_F_TIMEOUT(dev, list_vs_sys, DEV_TIMEOUT)
{
	struct vt_conn c;
	char **paths;
	int n, i;

	ASSERT_EQ(0, vt_open_ready(&c));
	walk_n = 0;
	ASSERT_EQ(0, nftw("/sys/devices", walk_one, 64, FTW_PHYS));
	qsort(walk_paths, walk_n, sizeof(*walk_paths), cmp_str);
	n = list_all(&c, "{}", &paths, NULL);
	ASSERT_EQ(walk_n, n);
	for (i = 0; i < n; i++)
		EXPECT_STREQ(walk_paths[i], paths[i]);
	TH_LOG("%d devices", n);

	/* the mem class: exactly its links */
	n = list_all(&c, "{\"subsystem\":\"mem\"}", &paths, "mem");
	walk_n = 0;
	{
		DIR *dir = opendir("/sys/class/mem");
		struct dirent *d;

		while (dir && (d = readdir(dir)))
			if (d->d_name[0] != '.') {
				walk_paths = realloc(walk_paths, (walk_n + 1) * sizeof(char *));
				walk_paths[walk_n++] = link_syspath(vt_fmt("/sys/class/mem/%s",
									   d->d_name));
			}
		if (dir)
			closedir(dir);
	}
	qsort(walk_paths, walk_n, sizeof(*walk_paths), cmp_str);
	ASSERT_EQ(walk_n, n);
	for (i = 0; i < n; i++)
		EXPECT_STREQ(walk_paths[i], paths[i]);

	/* none: one reply without device */
	n = list_all(&c, "{\"subsystem\":\"no-such-subsystem\"}", &paths, NULL);
	EXPECT_EQ(0, n);
	vt_close(&c);
}

TEST_F_TIMEOUT(dev, list_needs_more, DEV_TIMEOUT)
{
	struct vt_conn c;
	const char *msg;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, KS_CALL(IFACE ".List", "{}"), &msg));
	EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.ExpectedMore")) TH_LOG("%s", msg);
	ASSERT_EQ(1, vt_call(&c, KS_CALL(IFACE ".Monitor", "{}"), &msg));
	EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.ExpectedMore")) TH_LOG("%s", msg);
	vt_close(&c);
}

static char *long_syspath(void)
{
	static char buf[700];

	strcpy(buf, "/devices");
	while (strlen(buf) < 600)
		strcat(buf, "/abcdefghij");
	return buf;
}

TEST_F_TIMEOUT(dev, get_bad_names, DEV_TIMEOUT)
{
	static const char *const invalid[][2] = {
		{ "{}", "syspath" },
		{ "{\"syspath\":\"/devices/virtual/mem/null\",\"devnum\":\"c1:3\"}", "devnum" },
		{ "{\"devnum\":\"c1:3\",\"ifindex\":1}", "ifindex" },
		{ "{\"syspath\":\"/devices/../module/loop\"}", "syspath" },
		{ "{\"syspath\":\"/devices/virtual/mem/../../../kernel\"}", "syspath" },
		{ "{\"syspath\":\"/sys/devices/virtual/mem/null\"}", "syspath" },
		{ "{\"syspath\":\"devices/virtual/mem/null\"}", "syspath" },
		{ "{\"syspath\":\"/module\"}", "syspath" },
		{ "{\"syspath\":\"/module/loop/parameters\"}", "syspath" },
		{ "{\"syspath\":\"/bus\"}", "syspath" },
		{ "{\"syspath\":\"/bus/pci/devices\"}", "syspath" },
		{ "{\"syspath\":\"/bus/pci/devices/x\"}", "syspath" },
		{ "{\"syspath\":\"/bus/pci/drivers\"}", "syspath" },
		{ "{\"syspath\":\"/bus/pci/drivers/x/y\"}", "syspath" },
		{ "{\"syspath\":\"/class/mem\"}", "syspath" },
		{ "{\"syspath\":\"/devices//virtual/mem/null\"}", "syspath" },
		{ "{\"syspath\":\"/devices/./virtual/mem/null\"}", "syspath" },
		{ "{\"syspath\":\"/devices/virtual/mem/null/\"}", "syspath" },
		{ "{\"syspath\":\"/devices/virtual/mem/n ull\"}", "syspath" },
		{ "{\"devnum\":\"1:3\"}", "devnum" },
		{ "{\"devnum\":\"c1\"}", "devnum" },
		{ "{\"devnum\":\"c1:3x\"}", "devnum" },
		{ "{\"devnum\":\"c-1:3\"}", "devnum" },
		{ "{\"devnum\":\"x1:3\"}", "devnum" },
		{ "{\"devnum\":\"c99999999999:3\"}", "devnum" },
		/* beyond an IDL int, refused by the core */
		{ "{\"ifindex\":99999999999999999999}", "ifindex" },
	};
	static const char *const not_found[] = {
		"{\"syspath\":\"/devices/virtual/mem/no-such-device\"}",
		"{\"syspath\":\"/devices/virtual/mem\"}",
		"{\"syspath\":\"/devices/virtual/mem/null/power\"}",
		"{\"syspath\":\"/devices/virtual/mem/null/subsystem\"}",
		/* sysfs's names of block devices have "!" for "/" */
		"{\"syspath\":\"/devices/virtual/block/cciss!c0d0\"}",
		"{\"syspath\":\"/module/no_such_module\"}",
		"{\"syspath\":\"/bus/no_such_bus\"}",
		"{\"syspath\":\"/bus/platform/drivers/no_such_driver\"}",
		"{\"devnum\":\"c1:999\"}",
		"{\"devnum\":\"b4095:1048575\"}",
		"{\"ifindex\":0}",
		"{\"ifindex\":-1}",
		"{\"ifindex\":2147483647}",
		"{\"ifindex\":2147483648}",
	};
	struct vt_conn c;
	const char *msg;
	unsigned int i;

	ASSERT_EQ(0, vt_open_ready(&c));
	for (i = 0; i < ARRAY_SIZE(invalid); i++) {
		ASSERT_EQ(1, get(&c, invalid[i][0], &msg));
		EXPECT_TRUE(vt_is_error(msg, KS_INVALID) &&
			    vt_json_is(msg, "parameters.parameter",
				       vt_fmt("\"%s\"", invalid[i][1])))
			TH_LOG("%s: %s", invalid[i][0], msg);
	}
	ASSERT_EQ(1, get(&c, vt_fmt("{\"syspath\":\"%s\"}", long_syspath()), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	for (i = 0; i < ARRAY_SIZE(not_found); i++) {
		ASSERT_EQ(1, get(&c, not_found[i], &msg));
		EXPECT_TRUE(vt_is_error(msg, NOT_FOUND)) TH_LOG("%s: %s", not_found[i], msg);
	}
	vt_close(&c);
}

/* Send a Monitor call on a new connection, its replies not read */
static int monitor_start(struct vt_conn *c, const char *params)
{
	if (vt_open_ready(c))
		return -1;
	return vt_send(c, vt_fmt(MORE("Monitor", "%s"), params));
}

/* Start a Monitor and read its first reply, {"ready": true}: the stream
 * is subscribed then.
 */
static int monitor(struct vt_conn *c, const char *params)
{
	const char *msg;

	if (monitor_start(c, params))
		return -1;
	if (vt_recv(c, EVENT_MS, &msg) != 1 || !vt_continues(msg) ||
	    !vt_json_is(msg, "parameters", "{\"ready\":true}"))
		return fprintf(stderr, "# not ready: %s\n", msg), -1;
	return 0;
}

/*
 * Start a Monitor with a replay of @subsystem's devices (every device for
 * NULL) and wait for its first device.
 */
static int monitor_live(struct vt_conn *c, const char *subsystem)
{
	const char *msg;

	if (monitor(c, subsystem ?
		    vt_fmt("{\"replay\":true,\"subsystems\":[\"%s\"]}", subsystem) :
		    "{\"replay\":true}"))
		return -1;
	if (vt_recv(c, EVENT_MS, &msg) != 1 || !vt_continues(msg) ||
	    !vt_json_is(msg, "parameters.event.action", "\"exists\""))
		return fprintf(stderr, "# %s\n", msg), -1;
	return 0;
}

/* The next live event, the replay skipped: 1, or 0 if none came */
static int next_live(struct vt_conn *c, int ms, const char **msg)
{
	long long deadline = vt_now_ms() + ms;

	while (vt_now_ms() < deadline) {
		int left = deadline - vt_now_ms();

		if (vt_recv(c, left > 0 ? left : 0, msg) != 1 || !vt_continues(*msg))
			return 0;
		if (!vt_json_is(*msg, "parameters.event.action", "\"exists\""))
			return 1;
	}
	return 0;
}

/*
 * Wait for the event of @action on @syspath, skipping others; 1 if it
 * came, 0 if not within @ms, -1 if the stream ended.
 */
static int wait_event(struct vt_conn *c, const char *action,
		      const char *syspath, int ms, const char **msg)
{
	long long deadline = vt_now_ms() + ms;

	while (vt_now_ms() < deadline) {
		int left = deadline - vt_now_ms();

		if (vt_recv(c, left > 0 ? left : 0, msg) != 1)
			return 0;
		if (!vt_continues(*msg))
			return -1;
		if (vt_json_is(*msg, "parameters.event.action", vt_fmt("\"%s\"", action)) &&
		    vt_json_is(*msg, "parameters.event.device.syspath",
			       vt_fmt("\"%s\"", syspath)))
			return 1;
	}
	return 0;
}

TEST_F_TIMEOUT(dev, monitor_change, DEV_TIMEOUT)
{
	struct vt_conn c;
	const char *msg;
	static long long seq;
	char *s;

	ASSERT_EQ(0, monitor_live(&c, "mem"));
	ASSERT_EQ(0, vt_write_file("/sys/devices/virtual/mem/null/uevent", "change"));
	s = ks_read_line("/sys/kernel/uevent_seqnum");
	ASSERT_EQ(1, wait_event(&c, "change", "/devices/virtual/mem/null", EVENT_MS, &msg));
	EXPECT_TRUE(ks_json_int(msg, "parameters.event.seqnum", &seq));
	EXPECT_EQ(atoll(s), seq);
	EXPECT_TRUE(vt_json_is(msg, "parameters.event.device.subsystem", "\"mem\""));
	EXPECT_TRUE(vt_json_is(msg, "parameters.event.device.devnum", "\"c1:3\""));
	EXPECT_TRUE(vt_json_is(msg, "parameters.event.device.properties.ACTION", "\"change\""));
	EXPECT_TRUE(vt_json_is(msg, "parameters.event.device.properties.SEQNUM",
			       vt_fmt("\"%s\"", s)));
	vt_close(&c);
}

TEST_F_TIMEOUT(dev, monitor_link, DEV_TIMEOUT)
{
	struct vt_conn c;
	const char *msg;
	char *idx;

	link_del("vdmon0");
	ASSERT_EQ(0, monitor_live(&c, "net"));
	ASSERT_EQ(0, link_add("vdmon0", "dummy", NULL));
	idx = ks_read_line("/sys/class/net/vdmon0/ifindex");
	ASSERT_EQ(1, wait_event(&c, "add", "/devices/virtual/net/vdmon0", EVENT_MS, &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.event.device.ifindex", idx));
	EXPECT_TRUE(vt_json_is(msg, "parameters.event.device.properties.INTERFACE",
			       "\"vdmon0\""));
	ASSERT_EQ(0, link_del("vdmon0"));
	ASSERT_EQ(1, wait_event(&c, "remove", "/devices/virtual/net/vdmon0", EVENT_MS, &msg));
	vt_close(&c);
}

#define LOOP0	"/devices/virtual/block/loop0"

/* A block node of loop0 and a 1 MiB file to back it: 0, or -1 */
static int loop_files(char *node, char *file)
{
	const char *dir = access("/tmp", W_OK) ? "" : "/tmp";
	int fd;

	sprintf(node, "%s/vdev-loop0-%d", dir, getpid());
	sprintf(file, "%s/vdev-backing-%d", dir, getpid());
	unlink(node);
	if (mknod(node, S_IFBLK | 0600, makedev(7, 0)))
		return -1;
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, 1 << 20))
		return -1;
	close(fd);
	return 0;
}

/*
 * A loop device set up and torn down: its "change" events, as the block
 * layer sends them when its size changes (loop_set_size()), with its
 * devnum and its DEVNAME.  On a kernel without loop (the debug kernels
 * have no block layer), Get says so and nothing more is due.
 */
TEST_F_TIMEOUT(dev, monitor_loop, DEV_TIMEOUT)
{
	char node[64], file[64];
	struct vt_conn c;
	const char *msg;
	int fd, back;

	if (access("/sys" LOOP0, F_OK)) {
		ASSERT_EQ(0, vt_open_ready(&c));
		ASSERT_EQ(1, get(&c, "{\"syspath\":\"" LOOP0 "\"}", &msg));
		EXPECT_TRUE(vt_is_error(msg, NOT_FOUND)) TH_LOG("%s", msg);
		TH_LOG("no loop0: this kernel has no loop devices");
		vt_close(&c);
		return;
	}
	ASSERT_EQ(0, loop_files(node, file));
	ASSERT_EQ(0, monitor_live(&c, "block"));
	fd = open(node, O_RDWR);
	back = open(file, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_LE(0, back);
	ASSERT_EQ(0, ioctl(fd, LOOP_SET_FD, back));
	close(back);
	ASSERT_EQ(1, wait_event(&c, "change", LOOP0, EVENT_MS, &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.event.device.subsystem", "\"block\""));
	EXPECT_TRUE(vt_json_is(msg, "parameters.event.device.devnum", "\"b7:0\""));
	EXPECT_TRUE(vt_json_is(msg, "parameters.event.device.devname", "\"loop0\""));
	EXPECT_TRUE(vt_json_is(msg, "parameters.event.device.properties.DEVTYPE",
			       "\"disk\""));
	/* torn down once the last opener closes, if not at once */
	EXPECT_EQ(0, ioctl(fd, LOOP_CLR_FD));
	close(fd);
	EXPECT_EQ(1, wait_event(&c, "change", LOOP0, EVENT_MS, &msg));
	EXPECT_EQ(0, unlink(node));
	EXPECT_EQ(0, unlink(file));
	vt_close(&c);
}

#define GAP_LINKS	12

/* Replay read slowly while links come: each is "exists" or "add". */
TEST_F_TIMEOUT(dev, replay_no_gap, DEV_TIMEOUT)
{
	bool seen[GAP_LINKS] = {};
	int exists = 0, i, got = 0, list_n;
	struct vt_conn c, l;
	char **paths;
	const char *msg;
	pid_t pid;

	for (i = 0; i < GAP_LINKS; i++)
		link_del(vt_fmt("vdgap%d", i));
	ASSERT_EQ(0, vt_open_ready(&l));
	list_n = list_all(&l, "{}", &paths, NULL);
	vt_close(&l);
	ASSERT_LT(0, list_n);
	ASSERT_EQ(0, monitor(&c, "{\"replay\":true}"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		for (i = 0; i < GAP_LINKS; i++) {
			vt_sleep_ms(20);
			if (link_add(vt_fmt("vdgap%d", i), "dummy", NULL))
				_exit(1);
		}
		_exit(0);
	}
	while (got < GAP_LINKS) {
		char *sp;

		if (vt_recv(&c, EVENT_MS, &msg) != 1 || !vt_continues(msg))
			break;
		if (exists < list_n / 2)
			vt_sleep_ms(2);	/* slowly, while the links come */
		if (vt_json_is(msg, "parameters.event.action", "\"exists\""))
			exists++;
		sp = str_at(msg, "parameters.event.device.syspath");
		for (i = 0; sp && i < GAP_LINKS; i++) {
			if (strcmp(sp, vt_fmt("/devices/virtual/net/vdgap%d", i)))
				continue;
			if (!seen[i] &&
			    (vt_json_is(msg, "parameters.event.action", "\"exists\"") ||
			     vt_json_is(msg, "parameters.event.action", "\"add\"")))
				got++;
			seen[i] = true;
		}
	}
	EXPECT_EQ(GAP_LINKS, got) TH_LOG("last: %s", msg);
	EXPECT_LE(list_n - 2, exists);
	waitpid(pid, NULL, 0);
	for (i = 0; i < GAP_LINKS; i++)
		link_del(vt_fmt("vdgap%d", i));
	vt_close(&c);
}

/*
 * A slow reader, SLOW_READ bytes at a time (less than a reply), gets the
 * whole replay, not closed
 */
#define SLOW_READ	64

TEST_F_TIMEOUT(dev, slow_reader, DEV_TIMEOUT)
{
	struct vt_conn c, l;
	char **paths;
	int list_n, exists = 0, msgs = 0;
	long long deadline;
	static char m[1 << 16];
	char b[SLOW_READ];
	size_t len = 0;

	ASSERT_EQ(0, vt_open_ready(&l));
	list_n = list_all(&l, "{}", &paths, NULL);
	vt_close(&l);
	ASSERT_LT(0, list_n);
	ASSERT_EQ(0, monitor_start(&c, "{\"replay\":true}"));
	vt_sleep_ms(1500);	/* the server fills what it may */
	deadline = vt_now_ms() + 120000;
	while (exists < list_n && vt_now_ms() < deadline) {
		ssize_t n = recv(c.fd, b, sizeof(b), 0), i;
		bool ended = false;

		if (n <= 0)
			break;
		for (i = 0; i < n && !ended; i++) {
			ASSERT_GT(sizeof(m), len + 1) TH_LOG("a reply over %zu bytes", sizeof(m));
			m[len++] = b[i];
			if (b[i])
				continue;
			msgs++;
			len = 0;
			if (!vt_continues(m)) {
				fprintf(stderr, "# ended: %s\n", m);
				ended = true;
			}
			exists += vt_json_is(m, "parameters.event.action", "\"exists\"");
		}
		if (ended)
			break;
	}
	EXPECT_LE(list_n - 2, exists) TH_LOG("%d of %d after %d messages", exists,
					     list_n, msgs);
	vt_close(&c);
}

/* In a network namespace of its own (of the initial user namespace) */
static int in_netns(void *arg)
{
	struct if_nameindex *ifs;
	int ready = *(int *)arg, own;
	struct vt_conn c, l;
	const char *msg;
	char **paths;
	int failed = 0, n, i;
	bool host = false;

	if (unshare(CLONE_NEWNET))
		return 100;
	if (link_add("vdown0", "dummy", NULL))
		return 101;
	if (monitor_live(&c, "net"))
		return 102;
	/* the host's link: not seen */
	if (write(ready, "r", 1) != 1)
		return 105;
	vt_sleep_ms(300);
	if (link_del("vdown0"))
		return 103;
	/* the first event is ours: no host link's came before */
	failed += !KS_OK(next_live(&c, EVENT_MS, &msg) == 1);
	failed += !KS_OK(vt_json_is(msg, "parameters.event.action", "\"remove\""));
	failed += !KS_OK(vt_json_is(msg, "parameters.event.device.syspath",
				    "\"/devices/virtual/net/vdown0\""));
	if (failed)
		fprintf(stderr, "# %s\n", msg);
	if (vt_open_ready(&l))
		return 104;
	n = list_all(&l, "{\"subsystem\":\"net\"}", &paths, "net");
	/* the namespace's own links: lo, and on some kernels the fallback
	 * devices of built-in tunnels (sit0 and the like)
	 */
	ifs = if_nameindex();
	for (own = 0; ifs && ifs[own].if_index; own++)
		;
	if (ifs)
		if_freenameindex(ifs);
	failed += !KS_OK(n == own);
	for (i = 0; i < n; i++)
		host |= !!strstr(paths[i], "vdhost");
	failed += !KS_OK(!host);
	failed += !KS_OK(get(&l, vt_fmt("{\"ifindex\":%d}", if_nametoindex("lo")),
			     &msg) == 1);
	failed += !KS_OK(vt_json_is(msg, "parameters.device.properties.INTERFACE",
				    "\"lo\""));
	failed += !KS_OK(get(&l, "{\"syspath\":\"/devices/virtual/net/vdhost0\"}",
			     &msg) == 1 && vt_is_error(msg, NOT_FOUND));
	failed += !KS_OK(get(&l, "{\"syspath\":\"/devices/virtual/net/lo\"}",
			     &msg) == 1);
	failed += !KS_OK(vt_json_is(msg, "parameters.device.properties.IFINDEX",
				    vt_fmt("\"%d\"", if_nametoindex("lo"))));
	vt_close(&l);
	vt_close(&c);
	return failed;
}

TEST_F_TIMEOUT(dev, netns_own_events, DEV_TIMEOUT)
{
	int ready[2], status;
	pid_t pid;
	char b;

	link_del("vdhost0");
	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(ready[0]);
		_exit(in_netns(&ready[1]));
	}
	close(ready[1]);
	/* the child's stream is subscribed, or the child is gone */
	EXPECT_EQ(1, read(ready[0], &b, 1));
	close(ready[0]);
	EXPECT_EQ(0, link_add("vdhost0", "dummy", NULL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	link_del("vdhost0");
}

/* A network namespace of a user namespace: its own links' events only */
TEST_F_TIMEOUT(dev, userns_netns_events, DEV_TIMEOUT)
{
	int go[2], ready[2], status;
	pid_t pid;
	char b;

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct vt_conn c;
		const char *msg;
		int failed = 0;

		if (unshare(CLONE_NEWUSER))
			_exit(101);
		if (write(ready[1], "u", 1) != 1 || read(go[0], &b, 1) != 1)
			_exit(102);
		if (setresgid(0, 0, 0) || setresuid(0, 0, 0) || unshare(CLONE_NEWNET))
			_exit(103);
		if (monitor_live(&c, NULL))
			_exit(104);
		if (write(ready[1], "m", 1) != 1 || read(go[0], &b, 1) != 1)
			_exit(105);
		/* the host's uevent came: not here, ours does */
		if (link_add("vdns0", "dummy", NULL))
			_exit(106);
		/* its queues' may come first (7.x sends the link's last) */
		do {
			char *sp;

			if (next_live(&c, EVENT_MS, &msg) != 1) {
				failed++;
				break;
			}
			sp = str_at(msg, "parameters.event.device.syspath");
			failed += !KS_OK(sp && !strncmp(sp, "/devices/virtual/net/vdns0",
							strlen("/devices/virtual/net/vdns0")));
		} while (!failed &&
			 !(vt_json_is(msg, "parameters.event.device.syspath",
				      "\"/devices/virtual/net/vdns0\"") &&
			   vt_json_is(msg, "parameters.event.action", "\"add\"")));
		if (failed)
			fprintf(stderr, "# %s\n", msg);
		_exit(failed);
	}
	ASSERT_EQ(1, read(ready[0], &b, 1));
	ASSERT_EQ(0, vt_map_ids(pid, "0 0 1", false));
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(1, read(ready[0], &b, 1));
	ASSERT_EQ(0, vt_write_file("/sys/devices/virtual/mem/null/uevent", "change"));
	link_del("vdhostu0");
	ASSERT_EQ(0, link_add("vdhostu0", "dummy", NULL));
	vt_sleep_ms(300);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	link_del("vdhostu0");
}

static const char *trigger_call(const char *syspath, const char *action)
{
	return vt_fmt(KS_CALL(IFACE ".Trigger", "{\"syspath\":\"%s\",\"action\":\"%s\"}"),
		      syspath, action);
}

TEST_F_TIMEOUT(dev, trigger_root, DEV_TIMEOUT)
{
	struct vt_conn c, m;
	const char *msg;

	ASSERT_EQ(0, monitor_live(&m, "mem"));
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, trigger_call("/devices/virtual/mem/zero", "change"), &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_EQ(1, wait_event(&m, "change", "/devices/virtual/mem/zero", EVENT_MS, &msg));

	ASSERT_EQ(1, vt_call(&c, trigger_call("/devices/virtual/mem/zero", "explode"), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID) &&
		    vt_json_is(msg, "parameters.parameter", "\"action\"")) TH_LOG("%s", msg);
	ASSERT_EQ(1, vt_call(&c, trigger_call("/devices/../module/loop", "change"), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID) &&
		    vt_json_is(msg, "parameters.parameter", "\"syspath\"")) TH_LOG("%s", msg);
	ASSERT_EQ(1, vt_call(&c, trigger_call(long_syspath(), "change"), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	ASSERT_EQ(1, vt_call(&c, trigger_call("/devices/virtual/mem/none", "change"), &msg));
	EXPECT_TRUE(vt_is_error(msg, NOT_FOUND)) TH_LOG("%s", msg);
	ASSERT_EQ(1, vt_call(&c, trigger_call("/devices/virtual/mem", "change"), &msg));
	EXPECT_TRUE(vt_is_error(msg, NOT_FOUND)) TH_LOG("%s", msg);
	vt_close(&c);
	vt_close(&m);
}

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

/* Trigger refused on @c; Get still works.  Returns the failures. */
static int refused(struct vt_conn *c)
{
	const char *msg;
	int failed = 0;

	failed += !KS_OK(vt_call(c, trigger_call("/devices/virtual/mem/null", "change"),
				 &msg) == 1);
	failed += !KS_OK(vt_is_error(msg, KS_DENIED));
	if (failed)
		fprintf(stderr, "# %s\n", msg);
	failed += !KS_OK(get(c, "{\"syspath\":\"/devices/virtual/mem/null\"}", &msg) == 1);
	failed += !KS_OK(vt_is_ok(msg));
	return failed;
}

static int as_own(void *arg)
{
	struct vt_conn c;
	int failed;

	if (arg && keep_caps(~(CAPBIT(CAP_SYS_ADMIN) | CAPBIT(CAP_SYSLOG))))
		return 100;
	if (vt_open_ready(&c))
		return 101;
	failed = refused(&c);
	vt_close(&c);
	return failed;
}

static int opener_root_sender_nobody(void *arg)
{
	struct vt_conn c;
	int failed;

	if (vt_open_ready(&c) || vt_become(KS_NOBODY))
		return 100;
	failed = refused(&c);
	vt_close(&c);
	return failed;
}

static int opener_nobody_sender_root(void *arg)
{
	struct vt_conn c;
	int failed;

	if (setgroups(0, NULL) || setresgid(KS_NOBODY, KS_NOBODY, 0) ||
	    setresuid(KS_NOBODY, KS_NOBODY, 0))
		return 100;
	if (vt_open_ready(&c))
		return 101;
	if (setresuid(0, 0, 0) || setresgid(0, 0, 0))
		return 102;
	failed = refused(&c);
	vt_close(&c);
	return failed;
}

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

/*
 * @fn as root of a user namespace whose uid and gid 0 are @map's host
 * uid ("0 HOST 1"): the host's root, or a container's, an unprivileged
 * user of the host.  Return: @fn's result, -1 if it could not run.
 */
static int userns_root_run(int (*fn)(void *), const char *map)
{
	int go[2], done[2], status;
	pid_t pid;
	char b;

	if (pipe(go) || pipe(done))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (unshare(CLONE_NEWUSER))
			_exit(101);
		if (write(done[1], "u", 1) != 1 || read(go[0], &b, 1) != 1)
			_exit(102);
		if (setresgid(0, 0, 0) || setresuid(0, 0, 0))
			_exit(103);
		_exit(fn(NULL));
	}
	if (read(done[0], &b, 1) != 1 || vt_map_ids(pid, map, false) ||
	    write(go[1], "g", 1) != 1)
		return -1;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Each refused Trigger leaves no uevent: the monitor's next is the fence */
TEST_F_TIMEOUT(dev, trigger_refused, DEV_TIMEOUT)
{
	struct vt_conn m;
	const char *msg;

	ASSERT_EQ(0, monitor_live(&m, "mem"));
	EXPECT_EQ(0, ks_run_as(KS_NOBODY, KS_NOBODY, as_own, NULL));
	EXPECT_EQ(0, in_child(as_own, (void *)1));
	EXPECT_EQ(0, userns_root_run(as_own, "0 0 1"));
	EXPECT_EQ(0, in_child(opener_root_sender_nobody, NULL));
	EXPECT_EQ(0, in_child(opener_nobody_sender_root, NULL));
	ASSERT_EQ(0, vt_write_file("/sys/devices/virtual/mem/zero/uevent", "change"));
	ASSERT_EQ(1, next_live(&m, EVENT_MS, &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.event.device.syspath",
			       "\"/devices/virtual/mem/zero\"")) TH_LOG("%s", msg);
	vt_close(&m);
}

/*
 * A stream whose uevent socket overflows ends with EventsLost.  A caller
 * without CAP_NET_ADMIN gets the buffer its own socket could have, twice
 * net.core.rmem_max, made small here; its client reads nothing while
 * LOST_EVENTS events come, so the stream waits for it, and the socket
 * overflows.
 */
#define LOST_EVENTS	3000

static int lost_client(int go, int done)
{
	struct vt_conn c;
	const char *msg;
	int r;
	char b;

	if (setgroups(0, NULL) || setresgid(KS_NOBODY, KS_NOBODY, KS_NOBODY) ||
	    setresuid(KS_NOBODY, KS_NOBODY, KS_NOBODY))
		return 100;
	if (monitor_live(&c, "mem"))
		return 101;
	if (write(go, "g", 1) != 1 || read(done, &b, 1) != 1)
		return 102;
	do
		r = vt_recv(&c, EVENT_MS, &msg);
	while (r == 1 && vt_continues(msg));
	if (r != 1 || !vt_is_error(msg, IFACE ".EventsLost"))
		return fprintf(stderr, "# %s\n", r == 1 ? msg : "no final reply"), 103;
	vt_close(&c);
	return 0;
}

TEST_F_TIMEOUT(dev, events_lost, DEV_TIMEOUT)
{
	char *rmem = ks_read_line("/proc/sys/net/core/rmem_max");
	int go[2], done[2], status, i;
	pid_t pid;
	char b;

	ASSERT_NE(NULL, rmem);
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	ASSERT_EQ(0, vt_write_file("/proc/sys/net/core/rmem_max", "4096"));
	pid = fork();
	if (!pid)
		_exit(lost_client(go[1], done[0]));
	ASSERT_LT(0, pid);
	EXPECT_EQ(1, read(go[0], &b, 1));
	for (i = 0; i < LOST_EVENTS; i++)
		if (vt_write_file("/sys/devices/virtual/mem/null/uevent", "change"))
			break;
	EXPECT_EQ(LOST_EVENTS, i);
	EXPECT_EQ(1, write(done[1], "d", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, vt_write_file("/proc/sys/net/core/rmem_max", rmem));
}

/* The core's quota: one user's streams, then TooManyStreams */
static int quota(void *arg)
{
	long per_user = *(long *)arg;
	struct vt_conn c[per_user + 1];
	const char *msg;
	int failed = 0, i, refusals = 0;

	for (i = 0; i <= per_user; i++)
		failed += !KS_OK(monitor_start(&c[i], "{\"subsystems\":[\"none\"]}") == 0);
	/* each is ready, but one, refused */
	for (i = 0; i <= per_user; i++) {
		failed += !KS_OK(vt_recv(&c[i], EVENT_MS, &msg) == 1);
		if (vt_continues(msg)) {
			failed += !KS_OK(vt_json_is(msg, "parameters.ready", "true"));
			continue;
		}
		refusals++;
		failed += !KS_OK(vt_is_error(msg, TOO_MANY));
	}
	failed += !KS_OK(refusals == 1);
	for (i = 0; i <= per_user; i++)
		vt_close(&c[i]);
	return failed;
}

TEST_F_TIMEOUT(dev, stream_quota, DEV_TIMEOUT)
{
	long per_user = vt_param("max_streams_per_user", -1);

	ASSERT_LT(0, per_user);
	EXPECT_EQ(0, ks_run_as(KS_NOBODY, KS_NOBODY, quota, &per_user));
}

/* Monitor's first reply is {"ready": true}, before any replay or event */
TEST_F_TIMEOUT(dev, monitor_ready, DEV_TIMEOUT)
{
	struct vt_conn c;
	const char *msg;

	ASSERT_EQ(0, monitor_start(&c, "{\"subsystems\":[\"mem\"],\"replay\":true}"));
	ASSERT_EQ(1, vt_recv(&c, EVENT_MS, &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters", "{\"ready\":true}")) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_continues(msg));
	ASSERT_EQ(1, vt_recv(&c, EVENT_MS, &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.event.action", "\"exists\"")) TH_LOG("%s", msg);
	EXPECT_FALSE(vt_json_has(msg, "parameters.ready"));
	vt_close(&c);
	/* without replay too, at once */
	ASSERT_EQ(0, monitor(&c, "{\"subsystems\":[\"no-such-subsystem\"]}"));
	vt_close(&c);
}

/* A fresh UUID as udevadm makes one (version 4), into @out (37 bytes) */
static void fresh_uuid(char *out)
{
	unsigned char b[16];
	int i, n = 0;

	if (getrandom(b, sizeof(b), 0) != sizeof(b))
		memset(b, 0x5a, sizeof(b));
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	for (i = 0; i < 16; i++)
		n += sprintf(out + n, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ?
			     "-" : "", b[i]);
}

static int trigger(struct vt_conn *c, const char *syspath, const char *uuid,
		   const char *arguments, const char **msg)
{
	return vt_call(c, vt_fmt(KS_CALL(IFACE ".Trigger",
					 "{\"syspath\":\"%s\",\"action\":\"change\"%s%s%s%s%s}"),
				 syspath, uuid ? ",\"uuid\":\"" : "", uuid ?: "",
				 uuid ? "\"" : "", arguments ? ",\"arguments\":" : "",
				 arguments ?: ""), msg);
}

#define SETTLE_MAX	64
/* What the core's file helpers take in a name, "/" between components */
#define NAME_BYTES	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:@+!-/"
#define PROPS		"parameters.event.device.properties."
#define SETTLE_MS	2000

/*
 * As udevadm trigger --settle: after Monitor's ready reply, a Trigger of
 * every mem device and lo with a fresh UUID and arguments; each event
 * comes once, with SYNTH_UUID and SYNTH_ARG_*, within SETTLE_MS, none
 * lost.
 */
TEST_F_TIMEOUT(dev, trigger_settle, DEV_TIMEOUT)
{
	char uuid[SETTLE_MAX][37], **paths;
	int seen[SETTLE_MAX] = {}, n, i, got = 0, again = 0;
	struct vt_conn m, c;
	long long deadline;
	const char *msg;

	ASSERT_EQ(0, monitor(&m, "{\"subsystems\":[\"mem\",\"net\"]}"));
	ASSERT_EQ(0, vt_open_ready(&c));
	n = list_all(&c, "{\"subsystem\":\"mem\"}", &paths, "mem");
	ASSERT_LT(0, n);
	ASSERT_GT(SETTLE_MAX, n);
	paths = realloc(paths, (n + 1) * sizeof(*paths));
	paths[n++] = strdup("/devices/virtual/net/lo");
	for (i = 0; i < n; i++) {
		fresh_uuid(uuid[i]);
		ASSERT_EQ(1, trigger(&c, paths[i], uuid[i],
				     vt_fmt("{\"KVT\":\"1\",\"N\":\"%d\"}", i), &msg));
		ASSERT_TRUE(vt_json_is(msg, "parameters.uuid", vt_fmt("\"%s\"", uuid[i])))
			TH_LOG("%s: %s", paths[i], msg);
	}
	deadline = vt_now_ms() + SETTLE_MS;
	while (got < n && vt_now_ms() < deadline) {
		char *u;

		if (vt_recv(&m, deadline - vt_now_ms(), &msg) != 1)
			break;
		ASSERT_TRUE(vt_continues(msg)) TH_LOG("%s", msg);
		u = str_at(msg, "parameters.event.device.properties.SYNTH_UUID");
		for (i = 0; u && i < n; i++) {
			if (strcmp(u, uuid[i]))
				continue;
			got += !seen[i]++;
			EXPECT_TRUE(vt_json_is(msg, "parameters.event.action", "\"change\""));
			EXPECT_TRUE(vt_json_is(msg, "parameters.event.device.syspath",
					       vt_fmt("\"%s\"", paths[i])));
			EXPECT_TRUE(vt_json_is(msg, PROPS "SYNTH_ARG_KVT", "\"1\""))
				TH_LOG("%s", msg);
			EXPECT_TRUE(vt_json_is(msg, PROPS "SYNTH_ARG_N", vt_fmt("\"%d\"", i)))
				TH_LOG("%s", msg);
		}
	}
	EXPECT_EQ(n, got) TH_LOG("%d of %d events in %d ms", got, n, SETTLE_MS);
	/* once each: no other comes after */
	while (vt_recv(&m, 500, &msg) == 1) {
		char *u = str_at(msg, "parameters.event.device.properties.SYNTH_UUID");

		for (i = 0; u && i < n; i++)
			again += !strcmp(u, uuid[i]);
	}
	EXPECT_EQ(0, again);
	vt_close(&c);
	vt_close(&m);
}

/* The first directory entry of @dir there is, but "." and "..", or NULL */
static char *first_entry(const char *dir, const char *skip)
{
	struct dirent *d;
	char *name = NULL;
	DIR *dp = opendir(dir);

	while (dp && !name && (d = readdir(dp)))
		if (d->d_name[0] != '.' && !strchr(d->d_name, ' ') &&
		    (!skip || strcmp(d->d_name, skip)))
			name = strdup(d->d_name);
	if (dp)
		closedir(dp);
	return name;
}

/* A bus with a driver, its name and the driver's, or false */
static bool bus_driver(char **bus, char **driver)
{
	struct dirent *d;
	DIR *dp = opendir("/sys/bus");

	*driver = NULL;
	while (dp && !*driver && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		*bus = strdup(d->d_name);
		*driver = first_entry(vt_fmt("/sys/bus/%s/drivers", d->d_name), NULL);
	}
	if (dp)
		closedir(dp);
	return *driver;
}

/*
 * A subsystem, a driver and a module take Trigger; Get describes them as
 * sd-device does.  A Trigger without UUID makes one, which its event has.
 */
TEST_F_TIMEOUT(dev, trigger_objects, DEV_TIMEOUT)
{
	static const char *const subsystems[] = { "subsystem", "drivers", "module" };
	struct vt_conn m, c;
	char *bus, *driver, *paths[3], *u;
	const char *msg;
	int i;

	ASSERT_TRUE(bus_driver(&bus, &driver));
	paths[0] = strdup(vt_fmt("/bus/%s", bus));
	paths[1] = strdup(vt_fmt("/bus/%s/drivers/%s", bus, driver));
	paths[2] = "/module/varlink_device";
	ASSERT_EQ(0, monitor(&m, "{}"));
	ASSERT_EQ(0, vt_open_ready(&c));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(1, get(&c, vt_fmt("{\"syspath\":\"%s\",\"parents\":true}", paths[i]),
				 &msg));
		EXPECT_TRUE(vt_json_is(msg, "parameters.device.subsystem",
				       vt_fmt("\"%s\"", subsystems[i]))) TH_LOG("%s", msg);
		EXPECT_TRUE(vt_json_is(msg, "parameters.device.properties", "{}"));
		EXPECT_TRUE(vt_json_is(msg, "parameters.parents", "[]")) TH_LOG("%s", msg);
		ASSERT_EQ(1, trigger(&c, paths[i], NULL, NULL, &msg));
		u = str_at(msg, "parameters.uuid");
		ASSERT_TRUE(u && strlen(u) == 36) TH_LOG("%s", msg);
		ASSERT_EQ(1, wait_event(&m, "change", paths[i], EVENT_MS, &msg));
		EXPECT_TRUE(vt_json_is(msg, "parameters.event.device.properties.SYNTH_UUID",
				       vt_fmt("\"%s\"", u))) TH_LOG("%s", msg);
		TH_LOG("%s: SUBSYSTEM=%s", paths[i],
		       str_at(msg, "parameters.event.device.subsystem") ?: "(none)");
	}
	vt_close(&c);
	vt_close(&m);
}

static char **names_n;
static int names_count;

static void name_add(const char *syspath)
{
	names_n = realloc(names_n, (names_count + 1) * sizeof(*names_n));
	names_n[names_count++] = strdup(syspath);
}

/* The syspaths of udevadm's --type=subsystems, as sysfs lists them */
static void subsystems_of_sys(void)
{
	struct dirent *d, *e;
	DIR *dp, *dd;

	names_count = 0;
	dp = opendir("/sys/module");
	while (dp && (d = readdir(dp)))
		if (d->d_name[0] != '.' && d->d_type == DT_DIR)
			name_add(vt_fmt("/module/%s", d->d_name));
	if (dp)
		closedir(dp);
	dp = opendir("/sys/bus");
	while (dp && (d = readdir(dp))) {
		if (d->d_name[0] == '.' || d->d_type != DT_DIR)
			continue;
		name_add(vt_fmt("/bus/%s", d->d_name));
		dd = opendir(vt_fmt("/sys/bus/%s/drivers", d->d_name));
		while (dd && (e = readdir(dd)))
			if (e->d_name[0] != '.' && e->d_type == DT_DIR)
				name_add(vt_fmt("/bus/%s/drivers/%s", d->d_name, e->d_name));
		if (dd)
			closedir(dd);
	}
	if (dp)
		closedir(dp);
	qsort(names_n, names_count, sizeof(*names_n), cmp_str);
}

TEST_F_TIMEOUT(dev, list_subsystems, DEV_TIMEOUT)
{
	struct vt_conn c;
	const char *msg;
	char **paths;
	int n, i, devices;

	ASSERT_EQ(0, vt_open_ready(&c));
	subsystems_of_sys();
	n = list_all(&c, "{\"type\":\"subsystems\"}", &paths, NULL);
	ASSERT_EQ(names_count, n);
	for (i = 0; i < n; i++)
		EXPECT_STREQ(names_n[i], paths[i]);
	n = list_all(&c, "{\"type\":\"subsystems\",\"subsystem\":\"module\"}", &paths,
		     "module");
	EXPECT_LT(0, n);
	for (i = 0; i < n; i++)
		EXPECT_EQ(0, strncmp(paths[i], "/module/", 8));
	n = list_all(&c, "{\"type\":\"all\",\"subsystem\":\"drivers\"}", &paths, "drivers");
	EXPECT_LT(0, n);
	devices = list_all(&c, "{}", &paths, NULL);
	n = list_all(&c, "{\"type\":\"all\"}", &paths, NULL);
	EXPECT_EQ(devices + names_count, n);
	ASSERT_EQ(1, vt_call(&c, MORE("List", "{\"type\":\"everything\"}"), &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID) &&
		    vt_json_is(msg, "parameters.parameter", "\"type\"")) TH_LOG("%s", msg);
	vt_close(&c);
}

/* The text of attribute @name in GetAttributes' reply @msg (a JSON string
 * or null), or NULL if it is not there
 */
static const char *attr_find(const char *msg, const char *name)
{
	size_t len, nlen = strlen(name);
	const char *p = vt_json_find(msg, "parameters.attributes", &len);

	if (!p || *p != '{')
		return NULL;
	p = vt_json_ws(p + 1);
	while (p && *p == '"') {
		bool match = !strncmp(p + 1, name, nlen) && p[1 + nlen] == '"';

		p = vt_json_skip_string(p);
		p = p ? vt_json_ws(p) : NULL;
		if (!p || *p != ':')
			return NULL;
		p = vt_json_ws(p + 1);
		if (match)
			return p;
		p = vt_json_skip(p, 0);
		p = p ? vt_json_ws(p) : NULL;
		if (p && *p == ',')
			p = vt_json_ws(p + 1);
	}
	return NULL;
}

static bool in_binary(const char *msg, const char *name)
{
	size_t len;
	const char *p = vt_json_find(msg, "parameters.binary", &len);
	char *q = vt_fmt("\"%s\"", name);

	return p && memmem(p, len, q, strlen(q));
}

/*
 * Whether attribute @name of @syspath in @msg is what cat gives, in the
 * caller's process: its value without the final newline, null if the
 * file cannot be read, or among "binary" for a file sysfs sizes otherwise
 * than a page or a value over a page or with a NUL.  Returns the failures.
 */
static int attr_is_cat(const char *msg, const char *syspath, const char *name)
{
	char path[PATH_MAX], buf[8192];
	const char *v = attr_find(msg, name);
	struct stat st;
	ssize_t n = -1, i;
	int fd;

	snprintf(path, sizeof(path), "/sys%s/%s", syspath, name);
	if (!stat(path, &st) && S_ISREG(st.st_mode) && st.st_size != 4096)
		return !KS_OK(in_binary(msg, name) && !v) ? fprintf(stderr, "# %s\n", path) : 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW);
	if (fd >= 0 && S_ISREG(st.st_mode))
		n = read(fd, buf, sizeof(buf));
	if (fd >= 0)
		close(fd);
	if (n > 4096 || (n > 0 && memchr(buf, '\0', n)))
		return !KS_OK(in_binary(msg, name) && !v) ? fprintf(stderr, "# %s\n", path) : 0;
	if (n < 0)
		return !KS_OK(v && !strncmp(v, "null", 4)) ?
		       fprintf(stderr, "# %s: %s\n", path, v ?: "absent") : 0;
	if (n && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	for (i = 0; i < n; i++)
		if (!isprint((unsigned char)buf[i]) && !isspace((unsigned char)buf[i]))
			return 0;	/* not ASCII: U+FFFD here and there */
	return !KS_OK(v && *v == '"' && !strcmp(vt_json_str(v, ""), buf)) ?
	       fprintf(stderr, "# %s: %s, not %s\n", path, v ?: "absent", buf) : 0;
}

static int attrs(struct vt_conn *c, const char *syspath, const char *names,
		 const char **msg)
{
	return vt_call(c, vt_fmt(KS_CALL(IFACE ".GetAttributes", "{\"syspath\":\"%s\"%s%s}"),
				 syspath, names ? ",\"names\":" : "", names ?: ""), msg);
}

/* Every attribute of @syspath, as GetAttributes without names gives them */
static int attrs_all_are_cat(struct vt_conn *c, const char *syspath)
{
	int failed = 0, files = 0, dirfd;
	struct dirent *d;
	const char *msg;
	char *reply;
	DIR *dp;

	failed += !KS_OK(attrs(c, syspath, NULL, &msg) == 1 && vt_is_ok(msg));
	reply = strdup(msg);
	dirfd = open(vt_fmt("/sys%s", syspath), O_RDONLY | O_DIRECTORY);
	dp = fdopendir(dirfd);
	while (dp && (d = readdir(dp))) {
		if (d->d_type == DT_REG) {
			failed += attr_is_cat(reply, syspath, d->d_name);
			files++;
		}
		if (d->d_type != DT_DIR || strcmp(d->d_name, "power"))
			continue;
		DIR *pp = opendir(vt_fmt("/sys%s/power", syspath));
		struct dirent *e;

		while (pp && (e = readdir(pp)))
			if (e->d_type == DT_REG) {
				failed += attr_is_cat(reply, syspath,
						      vt_fmt("power/%s", e->d_name));
				files++;
			}
		if (pp)
			closedir(pp);
	}
	if (dp)
		closedir(dp);
	/* no attribute more than its files */
	failed += !KS_OK(count_members(reply, "parameters.attributes") <= files);
	if (failed)
		fprintf(stderr, "# %s: %s\n", syspath, reply);
	free(reply);
	return failed;
}

/*
 * GetAttributes of 50 devices of List, three names each, equal cat of
 * the files; and every attribute of some, as their files are
 */
TEST_F_TIMEOUT(dev, attributes_vs_cat, DEV_TIMEOUT)
{
	static const char *const names[] = { "uevent", "dev", "power/control" };
	struct vt_conn c;
	const char *msg;
	char **paths, *syspath;
	int n, i, k, step, done = 0;

	ASSERT_EQ(0, vt_open_ready(&c));
	n = list_all(&c, "{}", &paths, NULL);
	ASSERT_LE(50, n);
	step = n / 50;
	for (i = 0; i < n && done < 50; i += step, done++) {
		ASSERT_EQ(1, attrs(&c, paths[i], "[\"uevent\",\"dev\",\"power/control\"]", &msg));
		ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s: %s", paths[i], msg);
		for (k = 0; k < 3; k++)
			EXPECT_EQ(0, attr_is_cat(msg, paths[i], names[k]));
		EXPECT_EQ(3, count_members(msg, "parameters.attributes")) TH_LOG("%s", msg);
	}
	EXPECT_EQ(50, done);
	EXPECT_EQ(0, attrs_all_are_cat(&c, "/devices/virtual/net/lo"));
	EXPECT_EQ(0, attrs_all_are_cat(&c, "/devices/virtual/mem/null"));
	syspath = link_syspath("/sys/class/net/lo/device");
	for (i = 0; i < n; i++)
		if (!strncmp(paths[i], "/devices/pci", 12) && !syspath)
			syspath = paths[i];	/* a PCI device: binary files */
	if (syspath)
		EXPECT_EQ(0, attrs_all_are_cat(&c, syspath));
	EXPECT_EQ(0, attrs_all_are_cat(&c, "/module/varlink"));
	vt_close(&c);
}

#define DMI_ID		"/devices/virtual/dmi/id"

/* A root's only attribute, its path from /sys: see attributes_root_only */
static const char *root_only;

/* The attribute root_only as @arg expects it: the value (root) or null,
 * as cat of it, which is refused then; and one for everyone (0444) read
 */
static int uuid_as_expected(void *arg)
{
	const char *want = arg, *msg, *v, *slash = strrchr(root_only, '/');
	struct vt_conn c;
	int failed = 0;

	if (!want)
		failed += !KS_OK(access(vt_fmt("/sys%s", root_only), R_OK) &&
				 errno == EACCES);
	if (vt_open_ready(&c))
		return 100;
	failed += !KS_OK(attrs(&c, strndup(root_only, slash - root_only),
			       vt_fmt("[\"%s\",\"uevent\"]", slash + 1), &msg) == 1);
	v = attr_find(msg, slash + 1);
	failed += !KS_OK(v && (want ? *v == '"' && !strcmp(vt_json_str(v, ""), want) :
			       !strncmp(v, "null", 4)));
	v = attr_find(msg, "uevent");
	failed += !KS_OK(v && *v == '"');
	if (failed)
		fprintf(stderr, "# %s\n", msg);
	vt_close(&c);
	return failed;
}

/*
 * The root's only: product_uuid (0400), to root, not to uid 1000 or a user
 * namespace's root (a container's, mapped to nobody), as cat of it.  A
 * kernel without DMI (the debug kernels) has none: /dev/null's "dev" is
 * made the root's only for the test, which the kernel's sysfs allows
 * (kernfs_iop_setattr()).
 */
TEST_F_TIMEOUT(dev, attributes_root_only, DEV_TIMEOUT)
{
	bool dmi = !access("/sys" DMI_ID "/product_uuid", F_OK);
	char *value;
	struct stat st;

	root_only = dmi ? DMI_ID "/product_uuid" : "/devices/virtual/mem/null/dev";
	if (!dmi)
		ASSERT_EQ(0, chmod("/sys/devices/virtual/mem/null/dev", 0400));
	TH_LOG("%s", root_only);
	value = ks_read_line(vt_fmt("/sys%s", root_only));
	ASSERT_EQ(0, stat(vt_fmt("/sys%s", root_only), &st));
	EXPECT_EQ(0400, st.st_mode & 0777);
	ASSERT_NE(NULL, value);
	EXPECT_EQ(0, uuid_as_expected(value));
	EXPECT_EQ(0, ks_run_as(1000, 1000, uuid_as_expected, NULL));
	/* a container's root: an unprivileged user of the host */
	EXPECT_EQ(0, userns_root_run(uuid_as_expected,
				     vt_fmt("0 %d 1", KS_NOBODY)));
	if (!dmi)
		EXPECT_EQ(0, chmod("/sys/devices/virtual/mem/null/dev", 0444));
}

/* The deepest device List gives, and its ancestors with a uevent file */
TEST_F_TIMEOUT(dev, get_parents, DEV_TIMEOUT)
{
	char **paths, *deepest = NULL, *up, *slash;
	int n, i, depth = 0, k = 0;
	struct vt_conn c;
	const char *msg;

	ASSERT_EQ(0, vt_open_ready(&c));
	n = list_all(&c, "{}", &paths, NULL);
	for (i = 0; i < n; i++) {
		int d = 0;
		const char *p;

		for (p = paths[i]; *p; p++)
			d += *p == '/';
		if (d > depth) {
			depth = d;
			deepest = paths[i];
		}
	}
	ASSERT_NE(NULL, deepest);
	ASSERT_EQ(1, get(&c, vt_fmt("{\"syspath\":\"%s\",\"parents\":true}", deepest), &msg));
	ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_EQ(0, matches_sys(msg, "parameters.device", deepest));
	up = strdup(deepest);
	while ((slash = strrchr(up, '/')) && slash - up > (int)strlen("/devices")) {
		*slash = '\0';
		if (access(vt_fmt("/sys%s/uevent", up), F_OK))
			continue;
		EXPECT_EQ(0, matches_sys(msg, vt_fmt("parameters.parents.%d", k), up));
		k++;
	}
	EXPECT_FALSE(vt_json_has(msg, vt_fmt("parameters.parents.%d", k))) TH_LOG("%s", msg);
	TH_LOG("%s: %d parents", deepest, k);
	ASSERT_EQ(1, get(&c, vt_fmt("{\"syspath\":\"%s\"}", deepest), &msg));
	EXPECT_FALSE(vt_json_has(msg, "parameters.parents"));
	vt_close(&c);
}

/* Bad input of each new parameter, refused; every attribute of every
 * device read, for the debug kernel to see
 */
TEST_F_TIMEOUT(dev, bad_input, DEV_TIMEOUT)
{
	static const char *const names[] = {
		"[\"../uevent\"]", "[\"power/../uevent\"]", "[\"a/b/c\"]", "[\"\"]",
		"[\"..\"]", "[\"power/\"]", "[\"/uevent\"]", "[\"uev ent\"]",
		"[\"dev\",\"dev\"]", "[\"d\\u0065v\",\"dev\"]",
	};
	static const char *const uuids[] = {
		"", "0", "1234", "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
		"01234567-89ab-cdef-0123-456789abcdef0",
		"01234567-89ab-cdef-0123-456789abcde",
		"0123456789abcdef0123456789abcdef0123", "01234567-89ab-cdef-0123-456789abcdeg",
		"01234567 89ab-cdef-0123-456789abcdef",
	};
	static const char *const arguments[] = {
		"{\"\":\"1\"}", "{\"A\":\"\"}", "{\"A-B\":\"1\"}", "{\"A\":\"1 2\"}",
		"{\"A\":\"x=y\"}", "{\"\\u00e9\":\"1\"}", "{\"A\":\"\\u00e9\"}",
		"{\"A\":\"\\u0000\"}",
	};
	char big[4096], **paths;
	struct vt_conn c;
	const char *msg;
	unsigned int i;
	int n, len;

	ASSERT_EQ(0, vt_open_ready(&c));
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		ASSERT_EQ(1, attrs(&c, "/devices/virtual/mem/null", names[i], &msg));
		EXPECT_TRUE(vt_is_error(msg, KS_INVALID) &&
			    vt_json_is(msg, "parameters.parameter", "\"names\""))
			TH_LOG("%s: %s", names[i], msg);
	}
	/* 129 names; a name of 600 bytes */
	len = sprintf(big, "[");
	for (i = 0; i < 129; i++)
		len += sprintf(big + len, "%s\"a%u\"", i ? "," : "", i);
	sprintf(big + len, "]");
	ASSERT_EQ(1, attrs(&c, "/devices/virtual/mem/null", big, &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	sprintf(big, "[\"%0600d\"]", 0);
	ASSERT_EQ(1, attrs(&c, "/devices/virtual/mem/null", big, &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	ASSERT_EQ(1, attrs(&c, "/devices/virtual/mem/no-such", NULL, &msg));
	EXPECT_TRUE(vt_is_error(msg, NOT_FOUND)) TH_LOG("%s", msg);
	ASSERT_EQ(1, attrs(&c, "/devices/../kernel", NULL, &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	ASSERT_EQ(1, attrs(&c, "/devices/virtual/mem/null",
			   "[\"no_such\",\"power\",\"subsystem\"]", &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.attributes",
			       "{\"no_such\":null,\"power\":null,\"subsystem\":null}"))
		TH_LOG("%s", msg);

	for (i = 0; i < ARRAY_SIZE(uuids); i++) {
		ASSERT_EQ(1, trigger(&c, "/devices/virtual/mem/null", uuids[i], NULL, &msg));
		EXPECT_TRUE(vt_is_error(msg, KS_INVALID) &&
			    vt_json_is(msg, "parameters.parameter", "\"uuid\""))
			TH_LOG("%s: %s", uuids[i], msg);
	}
	for (i = 0; i < ARRAY_SIZE(arguments); i++) {
		ASSERT_EQ(1, trigger(&c, "/devices/virtual/mem/null", NULL, arguments[i], &msg));
		EXPECT_TRUE(vt_is_error(msg, KS_INVALID) &&
			    vt_json_is(msg, "parameters.parameter", "\"arguments\""))
			TH_LOG("%s: %s", arguments[i], msg);
	}
	/* 33 arguments; 1024 bytes of them */
	len = sprintf(big, "{");
	for (i = 0; i < 33; i++)
		len += sprintf(big + len, "%s\"K%u\":\"1\"", i ? "," : "", i);
	sprintf(big + len, "}");
	ASSERT_EQ(1, trigger(&c, "/devices/virtual/mem/null", NULL, big, &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	sprintf(big, "{\"K\":\"%01000d\"}", 0);
	ASSERT_EQ(1, trigger(&c, "/devices/virtual/mem/null", NULL, big, &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	/* of types the IDL refuses */
	ASSERT_EQ(1, trigger(&c, "/devices/virtual/mem/null", NULL, "{\"A\":1}", &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	ASSERT_EQ(1, trigger(&c, "/devices/virtual/mem/null", NULL, "[\"A\"]", &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
	ASSERT_EQ(1, attrs(&c, "/devices/virtual/mem/null", "[1]", &msg));
	EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);

	/* every attribute of every device, read once */
	n = list_all(&c, "{\"type\":\"all\"}", &paths, NULL);
	ASSERT_LT(0, n);
	for (i = 0; i < (unsigned int)n; i++) {
		ASSERT_EQ(1, attrs(&c, paths[i], NULL, &msg));
		/* a name of other bytes than the core's ("i8042 kbd") */
		if (strspn(paths[i], NAME_BYTES) != strlen(paths[i])) {
			EXPECT_TRUE(vt_is_error(msg, KS_INVALID)) TH_LOG("%s", msg);
		} else {
			EXPECT_TRUE(vt_is_ok(msg) || vt_is_error(msg, NOT_FOUND))
				TH_LOG("%s: %s", paths[i], msg);
		}
	}
	vt_close(&c);
}

TEST_F_TIMEOUT(dev, idl, DEV_TIMEOUT)
{
	struct vt_conn c;
	const char *msg;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, vt_fmt(VT_DESCRIBE_FMT, IFACE), &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	vt_close(&c);
}

TEST_HARNESS_MAIN
