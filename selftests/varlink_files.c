// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel files read and written as the caller (the core's files.c),
 * through the test provider's ReadFile, WriteFile and ListDir: the
 * values are those of /proc and /sys; a name is taken only as plain
 * components below the mount's root, with no symbolic link on the way;
 * and the file admits the call only if it admits both the connection's
 * opener and the call's sender, as root, uid 65534, root without
 * CAP_SYS_ADMIN and root of a user namespace.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"
#include "kernel_state_test.h"

#define SYSTEM_ERROR	"org.kernel.varlink.SystemError"
/* root only, 0600: the pid that gets ctrl-alt-del */
#define ROOT_ONLY	"sys/kernel/cad_pid"
/* kernel.dmesg_restrict set to the character given */
#define WRITE_DMESG_RESTRICT						\
	VT_CALL("WriteFile", "{\"fs\":\"proc\",\"data\":\"%c\","	\
		"\"name\":\"sys/kernel/dmesg_restrict\"}")

static char *read_call(const char *fs, const char *name, bool kernel)
{
	return vt_fmt(VT_CALL("ReadFile", "{\"fs\":\"%s\",\"name\":\"%s\"%s}"),
		      fs, name, kernel ? ",\"kernel\":true" : "");
}

/* ReadFile on @c: the data in a new string, or NULL with the reply's
 * error (or "") in @err.
 */
static char *read_on(struct vt_conn *c, const char *fs, const char *name,
		     char **err)
{
	const char *msg;

	*err = strdup("");
	if (vt_call(c, read_call(fs, name, false), &msg) != 1)
		return NULL;
	if (!vt_is_ok(msg)) {
		free(*err);
		*err = strdup(msg);
		return NULL;
	}
	return vt_json_str(msg, "parameters.data");
}

static char *read_file(const char *fs, const char *name, char **err)
{
	struct vt_conn c;
	char *data;

	if (vt_open_ready(&c)) {
		*err = strdup("no connection");
		return NULL;
	}
	data = read_on(&c, fs, name, err);
	vt_close(&c);
	return data;
}

static bool is_errno(const char *msg, int e)
{
	long long v;

	return vt_is_error(msg, SYSTEM_ERROR) &&
	       ks_json_int(msg, "parameters.errno", &v) && v == e;
}

/* The value of /proc/sys/kernel/ostype and of a sysfs and a cgroup2 file,
 * as the files show them.
 */
TEST(values_are_the_files)
{
	static const struct { const char *fs, *name, *path; } files[] = {
		{ "proc", "sys/kernel/ostype", "/proc/sys/kernel/ostype" },
		{ "proc", "sys/kernel/random/boot_id",
		  "/proc/sys/kernel/random/boot_id" },
		{ "proc", "sys/net/ipv4/conf/lo/forwarding",
		  "/proc/sys/net/ipv4/conf/lo/forwarding" },
		{ "sysfs", "devices/system/cpu/possible",
		  "/sys/devices/system/cpu/possible" },
		{ "sysfs", "devices/virtual/mem/null/dev",
		  "/sys/devices/virtual/mem/null/dev" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char *err, *data = read_file(files[i].fs, files[i].name, &err);
		char *want = ks_read(files[i].path);

		ASSERT_NE(NULL, want) TH_LOG("%s", files[i].path);
		ASSERT_NE(NULL, data) TH_LOG("%s: %s", files[i].name, err);
		EXPECT_STREQ(want, data);
	}
}

/* The root cgroup's files, as a mount of cgroup2 here shows them */
TEST(cgroup2_root)
{
	char *err, *data = read_file("cgroup2", "cgroup.controllers", &err);
	const char *dir = "/tmp/varlink_files.cgroup2";
	char *want;

	ASSERT_EQ(0, mkdir(dir, 0700) && errno != EEXIST ? -errno : 0);
	ASSERT_EQ(0, mount("cgroup2", dir, "cgroup2", 0, NULL));
	want = ks_read(vt_fmt("%s/cgroup.controllers", dir));
	umount(dir);
	rmdir(dir);
	ASSERT_NE(NULL, want);
	ASSERT_NE(NULL, data) TH_LOG("%s", err);
	EXPECT_STREQ(want, data);
}

/* Names the core refuses, and the errno each gets. */
TEST(names)
{
	static const struct { const char *name; int err; } names[] = {
		{ "", EINVAL },
		{ "/sys/kernel/ostype", EINVAL },
		{ "sys/kernel/ostype/", EINVAL },
		{ "sys//kernel/ostype", EINVAL },
		{ "sys/kernel/../kernel/ostype", EINVAL },
		{ "sys/./kernel/ostype", EINVAL },
		{ "..", EINVAL },
		{ "sys/kernel/os type", EINVAL },
		{ "sys/kernel/ost\\u00fcpe", EINVAL },
		{ "sys/kernel/ostype\\n", EINVAL },
		/* procfs's own links, into the reading kworker */
		{ "self/status", ELOOP },
		{ "net/dev", ELOOP },
		{ "thread-self/status", ELOOP },
		{ "sys/kernel/no_such_sysctl", ENOENT },
		{ "sys/kernel", EISDIR },
	};
	unsigned int i;
	char *long_name;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char *err, *data = read_file("proc", names[i].name, &err);

		EXPECT_EQ(NULL, data) TH_LOG("%s read", names[i].name);
		EXPECT_TRUE(is_errno(err, names[i].err))
			TH_LOG("%s: %s", names[i].name, err);
	}
	/* 513 bytes: one too many */
	long_name = malloc(514);
	ASSERT_NE(NULL, long_name);
	memset(long_name, 'a', 513);
	long_name[513] = '\0';
	for (i = 8; i < 513; i += 9)
		long_name[i] = '/';
	{
		char *err, *data = read_file("proc", long_name, &err);

		EXPECT_EQ(NULL, data);
		EXPECT_TRUE(is_errno(err, EINVAL)) TH_LOG("%s", err);
	}
}

/* ListDir of /proc/sys/kernel: the names readdir gives, in its order. */
TEST(list)
{
	DIR *d = opendir("/proc/sys/kernel");
	struct dirent *e;
	struct vt_conn c;
	const char *msg;
	int i = 0;

	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, VT_CALL("ListDir", "{\"fs\":\"proc\",\"name\":\"sys/kernel\"}"),
			     &msg));
	ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	while ((e = readdir(d)) && i < 256) {
		char *name;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		name = vt_json_str(msg, vt_fmt("parameters.names.%d", i));
		EXPECT_STREQ(e->d_name, name ? name : "(none)");
		i++;
	}
	EXPECT_GT(i, 10);
	closedir(d);
	vt_close(&c);
}

/* As uid 65534: a root-only file is refused; as the kernel it is read. */
static int nobody_reads(void *arg)
{
	char *err, *data;
	int bad = 0;

	data = read_file("proc", ROOT_ONLY, &err);
	bad += !KS_OK(!data && vt_is_error(err, KS_DENIED));
	data = read_file("proc", "sys/kernel/ostype", &err);
	bad += !KS_OK(data && !strcmp(data, "Linux\n"));
	/* the provider may read it as the kernel: the NULL call */
	{
		struct vt_conn c;
		const char *msg;

		bad += !KS_OK(!vt_open_ready(&c));
		bad += !KS_OK(vt_call(&c, read_call("proc", ROOT_ONLY, true),
				      &msg) == 1 && vt_is_ok(msg));
		vt_close(&c);
	}
	/* another process's environment: ptrace rules, as the caller */
	data = read_file("proc", "1/environ", &err);
	bad += !KS_OK(!data && vt_is_error(err, KS_DENIED));
	return bad;
}

TEST(root_and_nobody)
{
	char *err, *data = read_file("proc", ROOT_ONLY, &err);

	ASSERT_NE(NULL, data) TH_LOG("%s", err);
	EXPECT_STREQ(ks_read("/proc/" ROOT_ONLY), data);
	EXPECT_EQ(0, ks_run_as(KS_NOBODY, KS_NOBODY, nobody_reads, NULL));
}

/*
 * Opener and sender differ.  Connect as one identity, send as the other:
 * uid 65534 with root's capabilities kept in its permitted set (saved
 * uid 0), and root.
 */
static int mixed(bool opener_is_root)
{
	char *err, *data;
	struct vt_conn c;
	int bad = 0;

	if (!opener_is_root && setresuid(KS_NOBODY, KS_NOBODY, 0))
		return 100;
	if (vt_open_ready(&c))
		return 101;
	if (opener_is_root) {
		if (setresuid(KS_NOBODY, KS_NOBODY, 0))
			return 102;
	} else if (setresuid(0, 0, 0)) {
		return 103;
	}
	data = read_on(&c, "proc", ROOT_ONLY, &err);
	bad += !KS_OK(!data && vt_is_error(err, KS_DENIED));
	/* what both may read, both read */
	data = read_on(&c, "proc", "sys/kernel/ostype", &err);
	bad += !KS_OK(data && !strcmp(data, "Linux\n"));
	vt_close(&c);
	return bad;
}

static int fork_status(int (*fn)(bool), bool arg)
{
	pid_t pid = fork();
	int status;

	if (!pid)
		_exit(fn(arg));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(opener_root_sender_nobody)
{
	EXPECT_EQ(0, fork_status(mixed, true));
}

TEST(opener_nobody_sender_root)
{
	EXPECT_EQ(0, fork_status(mixed, false));
}

/*
 * Opener uid 65534, sender root without any capability: the sender holds
 * the fewer capabilities and reads as itself (uid 0 may read a 0600 file
 * of root's), but the opener may not read the file, so the call may not.
 */
static int opener_nobody_sender_bare_root(bool unused)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct none[2] = {};
	char *err, *data;
	struct vt_conn c;
	int bad = 0;

	if (setresuid(KS_NOBODY, KS_NOBODY, 0))
		return 100;
	if (vt_open_ready(&c))
		return 101;
	if (setresuid(0, 0, 0) || syscall(SYS_capset, &hdr, none))
		return 102;
	data = read_on(&c, "proc", ROOT_ONLY, &err);
	bad += !KS_OK(!data && vt_is_error(err, KS_DENIED));
	vt_close(&c);
	/* on its own connection, root without capabilities may */
	data = read_file("proc", ROOT_ONLY, &err);
	bad += !KS_OK(data);
	return bad;
}

TEST(opener_nobody_sender_root_without_capabilities)
{
	EXPECT_EQ(0, fork_status(opener_nobody_sender_bare_root, false));
}

/*
 * A handler's own check sees the caller: writing kernel.dmesg_restrict
 * needs CAP_SYS_ADMIN, which root without it lacks though the file's
 * mode lets uid 0 write.  Root writes it (the same value).
 */
static int no_sys_admin(bool unused)
{
	char *value = ks_read("/proc/sys/kernel/dmesg_restrict");
	struct vt_conn c;
	const char *msg;
	int bad = 0;

	if (!value || vt_drop_sys_admin())
		return 100;
	if (vt_open_ready(&c))
		return 101;
	bad += !KS_OK(vt_call(&c, vt_fmt(WRITE_DMESG_RESTRICT, value[0]), &msg) == 1);
	bad += !KS_OK(vt_is_error(msg, KS_DENIED));
	vt_close(&c);
	return bad;
}

TEST(handler_checks_the_caller)
{
	char *value = ks_read("/proc/sys/kernel/dmesg_restrict");
	struct vt_conn c;
	const char *msg;

	ASSERT_NE(NULL, value);
	EXPECT_EQ(0, fork_status(no_sys_admin, false));
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, vt_fmt(WRITE_DMESG_RESTRICT, value[0]), &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	vt_close(&c);
	EXPECT_STREQ(value, ks_read("/proc/sys/kernel/dmesg_restrict"));
}

/* Root of a user namespace uid 65534 made, mapped to it: no more than
 * uid 65534.  The test writes the maps, as newuidmap(1) would.
 */
static int userns_root(int go)
{
	char *err, *data, b;
	int bad = 0;

	if (setgroups(0, NULL) || setresgid(KS_NOBODY, KS_NOBODY, KS_NOBODY) ||
	    setresuid(KS_NOBODY, KS_NOBODY, KS_NOBODY))
		return 100;
	if (unshare(CLONE_NEWUSER))
		return 101;
	/* mapped now: become its root, with every capability there */
	if (write(go, "u", 1) != 1 || read(go, &b, 1) != 1 ||
	    setresgid(0, 0, 0) || setresuid(0, 0, 0))
		return 102;
	data = read_file("proc", ROOT_ONLY, &err);
	bad += !KS_OK(!data && vt_is_error(err, KS_DENIED));
	data = read_file("proc", "sys/kernel/ostype", &err);
	bad += !KS_OK(data && !strcmp(data, "Linux\n"));
	return bad;
}

TEST(user_namespace_root)
{
	int sv[2], status;
	char b;
	pid_t pid;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(sv[0]);
		_exit(userns_root(sv[1]));
	}
	close(sv[1]);
	ASSERT_EQ(1, read(sv[0], &b, 1));
	EXPECT_EQ(0, vt_map_ids(pid, vt_fmt("0 %d 1", KS_NOBODY), false));
	ASSERT_EQ(1, write(sv[0], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	close(sv[0]);
}

TEST_HARNESS_MAIN
