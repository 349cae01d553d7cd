// SPDX-License-Identifier: GPL-2.0
/*
 * A write for a caller honours the caller's own view of the file: where
 * the /proc/sys (or /sys) of the connection's opener or of the call's
 * sender is a read-only mount, sysctl.Set and device.Trigger are refused
 * with EROFS, as write(2) is there.  The callers, as processes of this
 * guest: a Docker-like container (a mount namespace of its own whose
 * /proc/sys is bound read-only, Docker's capabilities and CAP_NET_ADMIN,
 * the host's network), a service with ProtectKernelTunables= (/proc/sys
 * and /sys read-only, CAP_NET_ADMIN only), a container given
 * CAP_SYS_ADMIN without --privileged (/sys read-only), the container as
 * the opener only or the sender only; and those that keep writing: a
 * networkd-like process (the initial mount namespace, CAP_NET_ADMIN
 * only) and one with nothing mounted (PID 1 before it mounts anything,
 * here a chroot of the initial mount namespace into an empty directory).
 * Each child reports its failed checks on stderr and by its exit status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#include "kselftest_harness.h"
#include "kernel_state_test.h"

#define SYSTEM_ERROR	"org.kernel.varlink.SystemError"
#define PORT_START	"net.ipv4.ip_unprivileged_port_start"
#define PORT_START_FILE	"/proc/sys/net/ipv4/ip_unprivileged_port_start"
#define FORWARDING	"net.ipv4.conf.lo.forwarding"
#define FORWARDING_FILE	"/proc/sys/net/ipv4/conf/lo/forwarding"
#define DEVICE		"/devices/virtual/mem/null"
#define UEVENT_FILE	"/sys/devices/virtual/mem/null/uevent"
#define EMPTY_ROOT	"/tmp/varlink-views-empty"

#define CAPBIT(c)	(1ULL << (c))
/* Docker's default capabilities (moby's oci/caps/defaults.go) */
#define DOCKER_CAPS	(CAPBIT(CAP_CHOWN) | CAPBIT(CAP_DAC_OVERRIDE) | \
			 CAPBIT(CAP_FSETID) | CAPBIT(CAP_FOWNER) | \
			 CAPBIT(CAP_MKNOD) | CAPBIT(CAP_NET_RAW) | \
			 CAPBIT(CAP_SETGID) | CAPBIT(CAP_SETUID) | \
			 CAPBIT(CAP_SETFCAP) | CAPBIT(CAP_SETPCAP) | \
			 CAPBIT(CAP_NET_BIND_SERVICE) | CAPBIT(CAP_SYS_CHROOT) | \
			 CAPBIT(CAP_KILL) | CAPBIT(CAP_AUDIT_WRITE))
#define ALL_CAPS	(~0ULL)

static char *set_call(const char *name, const char *value)
{
	return vt_fmt(KS_CALL("org.kernel.sysctl.Set",
			      "{\"name\":\"%s\",\"value\":\"%s\"}"), name, value);
}

static char *trigger_call(const char *syspath)
{
	return vt_fmt(KS_CALL("org.kernel.device.Trigger",
			      "{\"syspath\":\"%s\",\"action\":\"change\"}"), syspath);
}

/* Keep only the capabilities in @keep (of the first 64), in every set */
static int keep_caps(unsigned long long keep)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};
	int cap;

	for (cap = 0; cap < 64; cap++)
		if (!(keep & CAPBIT(cap)) &&
		    prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL)
			return -errno;
	data[0].effective = (unsigned int)keep;
	data[0].permitted = data[0].effective;
	data[1].effective = (unsigned int)(keep >> 32);
	data[1].permitted = data[1].effective;
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

/* @dir bound on itself read-only, in this mount namespace */
static int bind_ro(const char *dir)
{
	if (mount(dir, dir, NULL, MS_BIND | MS_REC, NULL) ||
	    mount(NULL, dir, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL))
		return -errno;
	return 0;
}

/* A mount namespace of our own, whose mounts do not reach the host's */
static int own_mount_ns(void)
{
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -errno;
	return 0;
}

/* What write(2) of @text to @path says here: 0 or an errno */
static int write_errno(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, text, strlen(text)) < 0)
		err = errno;
	close(fd);
	return err;
}

/* What /proc/sys/@path holds, without its newline, in a static buffer */
static const char *value(const char *path)
{
	static char buf[64];
	char *v = ks_read_line(path);

	snprintf(buf, sizeof(buf), "%s", v ? v : "");
	free(v);
	return buf;
}

/* Put back what a refused write may have changed all the same */
static void restore(const char *port_start, const char *forwarding)
{
	if (strcmp(value(PORT_START_FILE), port_start))
		vt_write_file(PORT_START_FILE, port_start);
	if (forwarding && strcmp(value(FORWARDING_FILE), forwarding))
		vt_write_file(FORWARDING_FILE, forwarding);
}

/* The reply to @json on @c is a SystemError EROFS */
static bool erofs(struct vt_conn *c, const char *json)
{
	const char *msg = NULL;
	long long e = 0;

	if (vt_call(c, json, &msg) == 1 && vt_is_error(msg, SYSTEM_ERROR) &&
	    ks_json_int(msg, "parameters.errno", &e) && e == EROFS)
		return true;
	fprintf(stderr, "# %s: %s, not SystemError EROFS\n", json,
		msg ? msg : "no reply");
	return false;
}

static bool ok(struct vt_conn *c, const char *json)
{
	const char *msg = NULL;

	if (vt_call(c, json, &msg) == 1 && vt_is_ok(msg))
		return true;
	fprintf(stderr, "# %s: %s\n", json, msg ? msg : "no reply");
	return false;
}

/* Run @fn in a child; its exit status, -1 if it did not exit */
static int in_child(int (*fn)(void *), void *arg)
{
	pid_t pid = fork();
	int status;

	if (!pid)
		_exit(fn(arg));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* A caller's set-up: its mounts and capabilities */
struct view {
	bool own_ns;		/* a mount namespace of its own */
	bool proc_sys_ro;	/* /proc/sys read-only there */
	bool sys_ro;		/* /sys read-only there */
	bool empty_root;	/* chrooted into an empty directory */
	unsigned long long caps;
};

static int view_enter(const struct view *v)
{
	if (v->own_ns && own_mount_ns())
		return -1;
	if (v->proc_sys_ro && bind_ro("/proc/sys"))
		return -1;
	if (v->sys_ro && bind_ro("/sys"))
		return -1;
	if (v->empty_root && (chroot(EMPTY_ROOT) || chdir("/")))
		return -1;
	return keep_caps(v->caps) ? -1 : 0;
}

/* In the container: write(2) gives EROFS, and so does Set; no change */
static int set_refused(void *arg)
{
	const struct view *v = arg;
	struct vt_conn c;
	int failed = 0;

	if (view_enter(v) || vt_open_ready(&c))
		return 100;
	if (!v->empty_root)
		failed += !KS_OK(write_errno(PORT_START_FILE, "80") == EROFS);
	failed += !erofs(&c, set_call(PORT_START, "80"));
	failed += !erofs(&c, set_call(FORWARDING, "1"));
	vt_close(&c);
	return failed;
}

/* Docker: --network host --cap-add NET_ADMIN, /proc/sys read-only */
TEST(docker_set_refused)
{
	struct view v = { .own_ns = true, .proc_sys_ro = true,
			  .caps = DOCKER_CAPS | CAPBIT(CAP_NET_ADMIN) };
	char *before = strdup(value(PORT_START_FILE));
	char *forwarding = strdup(value(FORWARDING_FILE));

	EXPECT_EQ(0, in_child(set_refused, &v));
	EXPECT_STREQ(before, value(PORT_START_FILE));
	EXPECT_STREQ(forwarding, value(FORWARDING_FILE));
	restore(before, forwarding);
}

/* systemd's ProtectKernelTunables=: /proc/sys and /sys read-only */
TEST(protect_kernel_tunables_set_refused)
{
	struct view v = { .own_ns = true, .proc_sys_ro = true, .sys_ro = true,
			  .caps = CAPBIT(CAP_NET_ADMIN) };
	char *before = strdup(value(PORT_START_FILE));

	char *forwarding = strdup(value(FORWARDING_FILE));

	EXPECT_EQ(0, in_child(set_refused, &v));
	EXPECT_STREQ(before, value(PORT_START_FILE));
	EXPECT_STREQ(forwarding, value(FORWARDING_FILE));
	restore(before, forwarding);
}

/* A mount namespace of its own with nothing at /proc: no view, no write */
TEST(other_ns_no_view_refused)
{
	struct view v = { .own_ns = true, .empty_root = true,
			  .caps = CAPBIT(CAP_NET_ADMIN) };
	char *before = strdup(value(PORT_START_FILE));
	char *forwarding = strdup(value(FORWARDING_FILE));

	mkdir(EMPTY_ROOT, 0755);

	EXPECT_EQ(0, in_child(set_refused, &v));
	EXPECT_STREQ(before, value(PORT_START_FILE));
	EXPECT_STREQ(forwarding, value(FORWARDING_FILE));
	restore(before, forwarding);
}

/* Set, read back and set back, as @arg's view allows */
static int set_allowed(void *arg)
{
	const struct view *v = arg;
	char *old = strdup(value(PORT_START_FILE));
	const char *want = strcmp(old, "1000") ? "1000" : "1001";
	struct vt_conn c;
	int failed = 0;

	if (view_enter(v) || vt_open_ready(&c))
		return 100;
	failed += !ok(&c, set_call(PORT_START, want));
	if (!v->empty_root)
		failed += !KS_OK(!strcmp(value(PORT_START_FILE), want));
	failed += !ok(&c, set_call(PORT_START, old));
	failed += !ok(&c, set_call(FORWARDING, "0"));
	vt_close(&c);
	return failed;
}

/* systemd-networkd: the initial mount namespace, CAP_NET_ADMIN only */
TEST(networkd_set_allowed)
{
	struct view v = { .caps = CAPBIT(CAP_NET_ADMIN) };
	char *before = strdup(value(PORT_START_FILE));

	EXPECT_EQ(0, in_child(set_allowed, &v));
	EXPECT_STREQ(before, value(PORT_START_FILE));
}

/* PID 1 before it mounts anything: the initial mount namespace, no view */
TEST(nothing_mounted_set_allowed)
{
	struct view v = { .empty_root = true, .caps = ALL_CAPS };
	char *before = strdup(value(PORT_START_FILE));

	mkdir(EMPTY_ROOT, 0755);
	EXPECT_EQ(0, in_child(set_allowed, &v));
	EXPECT_STREQ(before, value(PORT_START_FILE));
}

/* Send or receive a descriptor over @sock */
static int send_fd(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = {}, b = 0;
	struct iovec iov = { .iov_base = &b, .iov_len = 1 };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &mh, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = {}, b;
	struct iovec iov = { .iov_base = &b, .iov_len = 1 };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &mh, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&mh);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* The container opens the connection and hands it to the host */
static int open_and_pass(void *arg)
{
	static const struct view v = {
		.own_ns = true, .proc_sys_ro = true,
		.caps = DOCKER_CAPS | CAPBIT(CAP_NET_ADMIN),
	};
	struct vt_conn c;
	int sock = *(int *)arg;

	if (view_enter(&v) || vt_open_ready(&c) || send_fd(sock, c.fd))
		return 100;
	return 0;
}

/*
 * The container as the opener only: the host's root, in the initial
 * mount namespace, writing on a connection the container opened, is
 * refused all the same (privilege needs both).
 */
TEST(container_opener_refused)
{
	char *before = strdup(value(PORT_START_FILE));
	struct vt_conn c;
	int sv[2];

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	ASSERT_EQ(0, in_child(open_and_pass, &sv[1]));
	vt_init(&c);
	c.fd = recv_fd(sv[0]);
	ASSERT_LE(0, c.fd);
	EXPECT_TRUE(erofs(&c, set_call(PORT_START, "80")));
	EXPECT_STREQ(before, value(PORT_START_FILE));
	restore(before, NULL);
	vt_close(&c);
	close(sv[0]);
	close(sv[1]);
}

struct sender {
	struct vt_conn *c;
};

/* The container writes on a connection the host opened */
static int send_from_container(void *arg)
{
	static const struct view v = {
		.own_ns = true, .proc_sys_ro = true,
		.caps = DOCKER_CAPS | CAPBIT(CAP_NET_ADMIN),
	};
	struct sender *s = arg;

	if (view_enter(&v))
		return 100;
	return !erofs(s->c, set_call(PORT_START, "80"));
}

/* The container as the sender only, on the host's connection */
TEST(container_sender_refused)
{
	char *before = strdup(value(PORT_START_FILE));
	struct vt_conn c;
	struct sender s = { .c = &c };
	const char *msg;

	ASSERT_EQ(0, vt_open_ready(&c));
	EXPECT_EQ(0, in_child(send_from_container, &s));
	EXPECT_STREQ(before, value(PORT_START_FILE));
	restore(before, NULL);
	/* the host itself, on its own connection, still writes */
	ASSERT_EQ(1, vt_call(&c, set_call(PORT_START, before), &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	vt_close(&c);
}

/* Trigger: write(2) to the uevent file and the call alike */
static int trigger_as(void *arg)
{
	const struct view *v = arg;
	bool refused = v->sys_ro;
	struct vt_conn c;
	int failed = 0;

	if (view_enter(v) || vt_open_ready(&c))
		return 100;
	failed += !KS_OK(write_errno(UEVENT_FILE, "change") ==
			 (refused ? EROFS : 0));
	if (refused)
		failed += !erofs(&c, trigger_call(DEVICE));
	else
		failed += !ok(&c, trigger_call(DEVICE));
	vt_close(&c);
	return failed;
}

/* Docker's --cap-add SYS_ADMIN without --privileged: /sys read-only */
TEST(docker_trigger_refused)
{
	struct view v = { .own_ns = true, .sys_ro = true, .caps = ALL_CAPS };

	EXPECT_EQ(0, in_child(trigger_as, &v));
}

/* ProtectKernelTunables= with CAP_SYS_ADMIN */
TEST(protect_kernel_tunables_trigger_refused)
{
	struct view v = { .own_ns = true, .proc_sys_ro = true, .sys_ro = true,
			  .caps = CAPBIT(CAP_SYS_ADMIN) };

	EXPECT_EQ(0, in_child(trigger_as, &v));
}

/* A mount namespace of its own whose /sys is writable: udevd's */
TEST(own_ns_writable_trigger_allowed)
{
	struct view v = { .own_ns = true, .caps = ALL_CAPS };

	EXPECT_EQ(0, in_child(trigger_as, &v));
}

/* The host's root, in the initial mount namespace */
TEST(host_trigger_allowed)
{
	struct view v = { .caps = ALL_CAPS };

	EXPECT_EQ(0, in_child(trigger_as, &v));
}

TEST_HARNESS_MAIN
