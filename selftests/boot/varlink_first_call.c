// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of the built-in kernel's test VM: before anything is mounted, and
 * before any other process runs, call org.varlink.service.GetInfo and
 * org.kernel.system.Describe on @org.kernel.varlink and check the
 * replies.  Nothing can be printed yet (there is no /dev/console in the
 * initramfs): the results go to /first-call.tap, in TAP, and then the
 * VM's init script runs (guest-init.sh, mode builtin), which mounts what
 * it needs and reports them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define SOCKET_NAME	"org.kernel.varlink"
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static char tap[8192];
static size_t tap_len;
static int tests, failed;

static void say(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tap + tap_len, sizeof(tap) - tap_len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(tap) - tap_len)
		n = sizeof(tap) - tap_len - 1;
	tap_len += n;
}

static void result(int ok, const char *name)
{
	tests++;
	failed += !ok;
	say("%sok %d %s\n", ok ? "" : "not ", tests, name);
}

/* One call on a new connection: the reply, NUL excluded, in @buf. */
static int call(const char *msg, char *buf, size_t size)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	socklen_t len = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(SOCKET_NAME);
	size_t got = 0;
	int fd, err = -1;

	memcpy(sa.sun_path + 1, SOCKET_NAME, strlen(SOCKET_NAME));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		say("# socket: %s\n", strerror(errno));
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&sa, len) < 0) {
		say("# connect to @%s: %s\n", SOCKET_NAME, strerror(errno));
		goto out;
	}
	len = strlen(msg) + 1;
	if (send(fd, msg, len, MSG_NOSIGNAL) != (ssize_t)len) {
		say("# send: %s\n", strerror(errno));
		goto out;
	}
	while (got < size - 1) {
		ssize_t n = recv(fd, buf + got, size - 1 - got, 0);

		if (n <= 0) {
			say("# recv: %s\n", n ? strerror(errno) : "connection closed");
			goto out;
		}
		got += n;
		if (memchr(buf + got - n, '\0', n)) {
			err = 0;
			goto out;
		}
	}
	say("# reply longer than %zu bytes\n", size);
out:
	buf[got < size ? got : size - 1] = '\0';
	close(fd);
	return err;
}

/* The string value of "@key" in a reply (no escapes expected), or "". */
static const char *string_of(const char *reply, const char *key,
			     char *val, size_t size)
{
	char pat[64];
	const char *p, *end;

	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	val[0] = '\0';
	p = strstr(reply, pat);
	if (!p)
		return val;
	p += strlen(pat);
	end = strchr(p, '"');
	if (end && (size_t)(end - p) < size) {
		memcpy(val, p, end - p);
		val[end - p] = '\0';
	}
	return val;
}

/* Nothing is mounted on /proc, /sys or /dev: they are on the rootfs. */
static int nothing_mounted(void)
{
	static const char * const dir[] = { "/proc", "/sys", "/dev" };
	struct stat root, st;
	unsigned int i;

	if (stat("/", &root))
		return 0;
	for (i = 0; i < ARRAY_SIZE(dir); i++) {
		if (stat(dir[i], &st) == 0 && st.st_dev != root.st_dev) {
			say("# %s is a mount\n", dir[i]);
			return 0;
		}
	}
	return stat("/proc/self", &st) != 0;
}

int main(void)
{
	static char reply[65536];
	char val[256];
	struct utsname u;
	struct timespec t;
	const char *iface;
	int fd, ok;

	clock_gettime(CLOCK_BOOTTIME, &t);
	/* first of all: the calls */
	ok = call("{\"method\":\"org.varlink.service.GetInfo\"}", reply, sizeof(reply)) == 0;
	say("TAP version 13\n1..9\n");
	say("# PID %d, %ld.%03ld s after boot\n", getpid(), (long)t.tv_sec, t.tv_nsec / 1000000);
	result(nothing_mounted(),
	       "nothing is mounted on /proc, /sys or /dev");
	result(ok && strstr(reply, "\"parameters\":{") && !strstr(reply, "\"error\""),
	       "GetInfo answers with parameters");
	say("# %s\n", reply);
	ok = 1;
	iface = "org.varlink.service\0org.kernel.varlink\0org.kernel.system\0";
	for (; *iface; iface += strlen(iface) + 1) {
		snprintf(val, sizeof(val), "\"%s\"", iface);
		if (!strstr(reply, val)) {
			say("# %s is not among the interfaces\n", iface);
			ok = 0;
		}
	}
	result(ok && strstr(reply, "\"interfaces\":["),
	       "GetInfo lists org.varlink.service, org.kernel.varlink and org.kernel.system");
	result(*string_of(reply, "vendor", val, sizeof(val)), "GetInfo names a vendor");

	ok = call("{\"method\":\"org.kernel.system.Describe\"}", reply, sizeof(reply)) == 0;
	result(ok && strstr(reply, "\"parameters\":{") && !strstr(reply, "\"error\""),
	       "Describe answers with parameters");
	say("# %s\n", reply);
	uname(&u);
	result(!strcmp(string_of(reply, "sysname", val, sizeof(val)), u.sysname),
	       "Describe: sysname is uname's");
	result(!strcmp(string_of(reply, "release", val, sizeof(val)), u.release),
	       "Describe: release is uname's");
	result(!strcmp(string_of(reply, "machine", val, sizeof(val)), u.machine),
	       "Describe: machine is uname's");
	result(nothing_mounted(), "still nothing mounted after the calls");
	say("# exit=%d\n", failed ? 1 : 0);

	fd = open("/first-call.tap", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, tap, tap_len) != (ssize_t)tap_len)
			tap_len = 0;
		close(fd);
	}
	execl("/bin/busybox", "sh", "/guest-init.sh", (char *)NULL);
	return 1;
}
