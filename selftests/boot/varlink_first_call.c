// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of the built-in kernel's test VM, as /init (in the VM of
 * scripts/vm.sh, exec'd by varlink_boot_root): with nothing mounted, and
 * before any other process runs, call org.varlink.service.GetInfo and
 * org.kernel.system.Describe on @org.kernel.varlink and check the
 * replies.  Nothing can be printed yet (there is no /dev/console in the
 * initramfs): the results go to /first-call.tap, in TAP, and then the
 * VM's init script runs (guest-init.sh, mode builtin), which mounts what
 * it needs and reports them.
 */
#include <fcntl.h>
#include <sys/utsname.h>

#include "boot_call.h"

/* The string value of "@key" in a reply, or "". */
static const char *string_of(const char *reply, const char *key,
			     char *val, size_t size)
{
	json_get_string(reply, key, val, size);
	return val;
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
