// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of the built-in kernel's test VM (rdinit=/varlink_boot_root):
 * the early boot of a real init done over varlink, with nothing mounted,
 * no /dev/console and no /proc.  It
 *  - raises the console's log level with org.kernel.sysctl.Set
 *    ("kernel.printk"), as the VM's "quiet loglevel=4" keeps info lines
 *    off the console, and writes its start line, "kvarlink-boot: up ...",
 *    with org.kernel.log.Write (priority 6): the line reaches the serial
 *    console (scripts/vm.sh checks that on the host);
 *  - reads its own record back with org.kernel.log.Read;
 *  - takes the root disk from root= (root=vda or root=/dev/vda) of
 *    org.kernel.system.GetCommandLine;
 *  - waits for that disk with org.kernel.device.Monitor (block devices,
 *    replay on), takes its devnum, makes the node with mknod() in the
 *    initramfs root, mounts it read-only (ext2) on /newroot, checks the
 *    marker file that scripts/boot-disk.sh put there, and unmounts it;
 *  - reads kernel.random.boot_id with org.kernel.sysctl.Get;
 *  - checks that /proc, /sys and /dev are still not mounted;
 *  - reports its results through org.kernel.log.Write too, puts the
 *    console's level back, writes TAP to /boot-root.tap and execs /init
 *    (varlink_first_call), so that the usual run goes on.
 * Every wait is bounded; every failure is a "not ok" with its reason.
 */
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>

#include "boot_call.h"

#define UP		"kvarlink-boot: up"
#define NEWROOT		"/newroot"
#define MARKER_FILE	NEWROOT "/kvarlink-marker"
/* what scripts/boot-disk.sh writes into the marker file */
#define MARKER		"kvarlink early-boot root disk\n"
#define EXT2_MAGIC	0xef53
/* how long the root disk may take to appear, and a log read */
#define ROOT_WAIT_MS	30000
#define READ_WAIT_MS	20000
/* the message of one log.Write: 990 bytes at most */
#define LOG_LINE_MAX	900
#define NEXT_INIT	"/init"

static char reply[65536];
static char text[4096];
static char msg[8192];
static struct vconn conn;
static char printk_saved[64];
static char up_line[128];
static char root[32];
static unsigned int root_major, root_minor;

/* When a step starts, in the TAP. */
static void stamp(const char *what)
{
	long long ms = ms_on(CLOCK_BOOTTIME);

	say("# %lld.%03lld s after boot: %s\n", ms / 1000, ms % 1000, what);
}

/* One call on a new connection, its reply in reply[]: whether it was
 * answered without error (else a diagnostic says what came).
 */
static int call_ok(const char *method, const char *params)
{
	char err[256];

	snprintf(msg, sizeof(msg), "{\"method\":\"%s\",\"parameters\":%s}", method, params);
	if (call(msg, reply, sizeof(reply))) {
		say("# %s: no reply\n", method);
		return 0;
	}
	if (!reply_error(reply, err, sizeof(err))) {
		say("# %s: %s\n", method, reply);
		return 0;
	}
	return 1;
}

/* A call with "more" on conn, which the caller then reads. */
static int stream_call(const char *method, const char *params)
{
	snprintf(msg, sizeof(msg), "{\"method\":\"%s\",\"parameters\":%s,\"more\":true}",
		 method, params);
	return vconn_send(&conn, msg);
}

/* org.kernel.log.Write(priority 6, @message). */
static int log_write(const char *message)
{
	char params[2 * LOG_LINE_MAX + 64];
	static char esc[2 * LOG_LINE_MAX];

	snprintf(params, sizeof(params), "{\"priority\":6,\"message\":\"%s\"}",
		 json_escape(message, esc, sizeof(esc)));
	return call_ok("org.kernel.log.Write", params);
}

/* The console shows records below its level: raise it to 7, so that the
 * info (6) lines of log.Write reach it, once the old value is known.
 */
static int console_level_raise(void)
{
	char esc[128];

	if (!call_ok("org.kernel.sysctl.Get", "{\"name\":\"kernel.printk\"}"))
		return 0;
	if (json_get_string(reply, "value", printk_saved, sizeof(printk_saved)) ||
	    !printk_saved[0]) {
		say("# kernel.printk: no value in %s\n", reply);
		return 0;
	}
	say("# kernel.printk was \"%s\"\n", json_escape(printk_saved, esc, sizeof(esc)));
	return call_ok("org.kernel.sysctl.Set",
		       "{\"name\":\"kernel.printk\",\"value\":\"7\"}");
}

static int console_level_restore(void)
{
	char params[256], esc[128];

	if (!printk_saved[0]) {
		say("# kernel.printk was not read\n");
		return 0;
	}
	snprintf(params, sizeof(params), "{\"name\":\"kernel.printk\",\"value\":\"%s\"}",
		 json_escape(printk_saved, esc, sizeof(esc)));
	return call_ok("org.kernel.sysctl.Set", params);
}

static int write_up(void)
{
	long long ms = ms_on(CLOCK_BOOTTIME);

	snprintf(up_line, sizeof(up_line),
		 UP ", PID %d, %lld.%03lld s after boot, nothing mounted",
		 getpid(), ms / 1000, ms % 1000);
	return log_write(up_line);
}

/* Read the log to its end: the start line must be there, as a record of
 * facility 1 (user), priority 6; show the disk's probe lines on the way.
 */
static int read_back(void)
{
	long long deadline = ms_on(CLOCK_MONOTONIC) + READ_WAIT_MS;
	long long prio, fac, seq = -1;
	int records = 0, found = 0, probe = 0;
	const char *r;
	char err[256];

	if (vconn_open(&conn))
		return 0;
	if (stream_call("org.kernel.log.Read", "{}"))
		goto out;
	while ((r = vconn_recv(&conn, deadline))) {
		if (!reply_error(r, err, sizeof(err))) {
			say("# log.Read: %s\n", r);
			break;
		}
		if (!json_get_string(r, "message", text, sizeof(text))) {
			records++;
			if (!strcmp(text, up_line) &&
			    !json_get_int(r, "facility", &fac) && fac == 1 &&
			    !json_get_int(r, "priority", &prio) && prio == 6 &&
			    !json_get_int(r, "seq", &seq))
				found++;
			if (strstr(text, "virtio_blk") && probe++ < 2)
				say("# log: %s\n", text);
		}
		if (!reply_continues(r)) {
			say("# log.Read: %d records, the start line's seq %lld\n", records, seq);
			break;
		}
	}
out:
	vconn_close(&conn);
	return found == 1;
}

/* root= of the command line, the name of a disk: "vda" or "/dev/vda". */
static int root_arg(void)
{
	static char arg[4096];
	const char *p, *name = NULL;
	size_t i;

	if (!call_ok("org.kernel.system.GetCommandLine", "{}"))
		return 0;
	p = json_member(reply, "arguments");
	if (!p || *p++ != '[') {
		say("# no arguments in %s\n", reply);
		return 0;
	}
	while (*p == '"') {
		p = json_string(p, arg, sizeof(arg));
		if (!p)
			break;
		if (!strncmp(arg, "root=", 5)) {
			name = arg + 5;
			break;
		}
		if (*p == ',')
			p++;
	}
	if (!name) {
		say("# no root= in the arguments: %s\n", reply);
		return 0;
	}
	say("# root=%s\n", name);
	if (!strncmp(name, "/dev/", 5))
		name += 5;
	for (i = 0; name[i]; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9')))
			break;
	if (!i || name[i] || i >= sizeof(root)) {
		say("# root= does not name a disk by its name (vda or /dev/vda)\n");
		return 0;
	}
	memcpy(root, name, i + 1);
	return 1;
}

/* Wait for the root disk among the block devices that Monitor replays or
 * announces, and take its devnum ("b254:0").
 */
static int wait_root(void)
{
	long long deadline = ms_on(CLOCK_MONOTONIC) + ROOT_WAIT_MS;
	char err[256], name[64], action[32], devnum[32], extra;
	const char *r, *dev;
	int events = 0, ok = 0;

	if (vconn_open(&conn))
		return 0;
	if (stream_call("org.kernel.device.Monitor",
			"{\"subsystems\":[\"block\"],\"replay\":true}"))
		goto out;
	while ((r = vconn_recv(&conn, deadline))) {
		if (!reply_error(r, err, sizeof(err))) {
			say("# device.Monitor: %s\n", r);
			break;
		}
		if (strstr(r, "\"ready\":true") && reply_continues(r))
			continue;	/* the first reply: subscribed */
		events++;
		if (json_get_string(r, "action", action, sizeof(action)))
			say("# an event without action: %s\n", r);
		if (!json_get_string(r, "devname", name, sizeof(name))) {
			dev = strncmp(name, "/dev/", 5) ? name : name + 5;
			if (!strcmp(dev, root) && strcmp(action, "remove")) {
				say("# event %d: %s\n", events, r);
				if (json_get_string(r, "devnum", devnum, sizeof(devnum)) ||
				    sscanf(devnum, "b%u:%u%c", &root_major, &root_minor,
					   &extra) != 2) {
					say("# %s: no block devnum\n", root);
					break;
				}
				say("# root=%s devnum=%s action=%s\n", root, devnum, action);
				ok = 1;
				break;
			}
		}
		if (!reply_continues(r)) {
			say("# device.Monitor: the stream ended\n");
			break;
		}
	}
	if (!ok)
		say("# %s not seen in %d events\n", root, events);
out:
	vconn_close(&conn);
	return ok;
}

/* The node in the initramfs root, mounted read-only on /newroot. */
static int mount_root(char *node, size_t size)
{
	struct statvfs sv;
	struct statfs sf;

	snprintf(node, size, "/%s", root);
	unlink(node);
	if (mknod(node, S_IFBLK | 0600, makedev(root_major, root_minor))) {
		say("# mknod %s: %s\n", node, strerror(errno));
		return 0;
	}
	if (mkdir(NEWROOT, 0755) && errno != EEXIST) {
		say("# mkdir %s: %s\n", NEWROOT, strerror(errno));
		return 0;
	}
	if (mount(node, NEWROOT, "ext2", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		say("# mount %s on %s: %s\n", node, NEWROOT, strerror(errno));
		return 0;
	}
	if (statfs(NEWROOT, &sf) || sf.f_type != EXT2_MAGIC ||
	    statvfs(NEWROOT, &sv) || !(sv.f_flag & ST_RDONLY)) {
		say("# %s is not a read-only ext2 mount\n", NEWROOT);
		return 0;
	}
	return 1;
}

static int check_marker(void)
{
	ssize_t n;
	int fd;

	fd = open(MARKER_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		say("# open %s: %s\n", MARKER_FILE, strerror(errno));
		return 0;
	}
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n < 0) {
		say("# read %s: %s\n", MARKER_FILE, strerror(errno));
		return 0;
	}
	text[n] = '\0';
	if (strcmp(text, MARKER)) {
		char want[128];

		say("# %s holds \"%.64s\", not \"%s\"\n", MARKER_FILE,
		    json_escape(text, msg, sizeof(msg)),
		    json_escape(MARKER, want, sizeof(want)));
		return 0;
	}
	return 1;
}

/* Unmount /newroot and take away what mount_root() made. */
static int unmount_root(const char *node)
{
	int ok = 1;

	if (umount2(NEWROOT, 0) && errno != EINVAL) {
		say("# umount %s: %s\n", NEWROOT, strerror(errno));
		ok = 0;
	}
	if (rmdir(NEWROOT) && errno != ENOENT) {
		say("# rmdir %s: %s\n", NEWROOT, strerror(errno));
		ok = 0;
	}
	if (node[0])
		unlink(node);
	return ok;
}

/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower-case hex */
static int get_boot_id(void)
{
	char id[64];
	int i;

	if (!call_ok("org.kernel.sysctl.Get", "{\"name\":\"kernel.random.boot_id\"}"))
		return 0;
	if (json_get_string(reply, "value", id, sizeof(id)) || strlen(id) != 36) {
		say("# no boot id in %s\n", reply);
		return 0;
	}
	for (i = 0; i < 36; i++) {
		int dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? id[i] != '-' :
		    !((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f'))) {
			say("# not a boot id: %s\n", id);
			return 0;
		}
	}
	say("# kernel.random.boot_id=%s\n", id);
	return 1;
}

/* The results (not the diagnostics) through log.Write, a few lines a
 * record, each line led by "kvarlink-boot: ".
 */
static int log_results(void)
{
	static char out[LOG_LINE_MAX + 1];
	const char *line = tap, *end;
	size_t n = 0;
	int ok = 1;

	for (; line < tap + tap_len; line = end + 1) {
		size_t len;

		end = memchr(line, '\n', tap + tap_len - line);
		if (!end)
			break;
		len = end - line;
		if (line[0] == '#' || len > 200)
			continue;
		if (n && n + len + 20 > LOG_LINE_MAX) {
			ok &= log_write(out);
			n = 0;
		}
		n += snprintf(out + n, sizeof(out) - n, "%skvarlink-boot: %.*s",
			      n ? "\n" : "", (int)len, line);
	}
	if (n)
		ok &= log_write(out);
	return ok;
}

int main(void)
{
	static char node[64];
	int ok, have_root, have_dev = 0, mounted = 0;
	ssize_t written;
	int fd;

	say("TAP version 13\n1..10\n");
	stamp("PID 1 starts");
	result(console_level_raise(),
	       "sysctl.Set kernel.printk: console level 7, for the info lines");
	stamp("log.Write");
	result(write_up(), "log.Write: the start line");
	stamp("log.Read");
	result(read_back(), "log.Read: the start line is in the log (facility 1, priority 6)");
	stamp("system.GetCommandLine");
	have_root = root_arg();
	result(have_root, "system.GetCommandLine: root= names a disk");
	stamp("device.Monitor");
	if (have_root)
		have_dev = wait_root();
	result(have_dev, "device.Monitor: the root disk, and its devnum");
	stamp("mount");
	if (have_dev)
		mounted = mount_root(node, sizeof(node));
	result(mounted, "mknod, and mount read-only (ext2) on " NEWROOT);
	ok = mounted && check_marker();
	if (have_dev)
		ok &= unmount_root(node);
	result(ok, "the marker file is on it; unmounted");
	stamp("sysctl.Get");
	result(get_boot_id(), "sysctl.Get: kernel.random.boot_id");
	result(nothing_mounted() && access(NEWROOT, F_OK),
	       "nothing mounted on /proc, /sys or /dev, and " NEWROOT " gone");
	stamp("results to the log");
	ok = log_results();
	result(ok && console_level_restore(),
	       "log.Write of the results, and kernel.printk back");
	stamp("exec " NEXT_INIT);
	say("# exit=%d\n", failed ? 1 : 0);

	fd = open("/boot-root.tap", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		written = write(fd, tap, tap_len);
		close(fd);
		(void)written;
	}
	execl(NEXT_INIT, NEXT_INIT, (char *)NULL);
	return 1;
}
