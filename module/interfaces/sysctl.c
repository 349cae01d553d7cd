// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.sysctl: the kernel's parameters under /proc/sys, read,
 * listed and set as the caller may through /proc/sys, without /proc.
 *
 * Every file is read and written through the core's files API
 * (varlink_file_read(), varlink_file_write()), on its internal procfs
 * mount, as the lesser of the connection's opener and the call's sender,
 * the other one passing inode_permission() too: that is /proc/sys's own
 * rule (sysctl_perm(), the tables' permissions() hooks) and the handlers'
 * own checks, for both.  What the kernel cannot judge for the caller
 * from a kworker is refused or answered otherwise:
 *  - a BPF_CGROUP_SYSCTL program would judge the kworker, in the root
 *    cgroup: while any is attached anywhere, every call is refused;
 *  - /proc/sys answers for the reader's namespaces (current->nsproxy),
 *    the kworker's, the initial ones (Get, VARLINK_INLINE, runs in the
 *    caller's task only when that task's are the initial ones too: the
 *    core's rule for such interfaces).  The interface is served in the
 *    initial network namespace only, so net.* is the caller's; the host
 *    and domain names are answered from the caller's UTS namespace and
 *    set only from the initial one; the ipc and pid ones are answered
 *    only to callers in the initial ipc or pid namespace, others get
 *    NotInNamespace: never the host's value;
 *  - Set needs a capability on top (CAP_SYS_ADMIN, for net.* also
 *    CAP_NET_ADMIN), and the core refuses a write where the caller's own
 *    /proc/sys is read-only (EROFS, files.c): a container's or a
 *    ProtectKernelTunables= service's could otherwise write through here;
 *  - a handler that wants its read restarted (ipv6's addr_gen_mode under
 *    RTNL contention) is tried again by the core, then is EAGAIN.
 */
#include <linux/bpf-cgroup.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/jhash.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <linux/varlink.h>

#include "../compat.h"

#define SYSCTL_ERR(name)	"org.kernel.sysctl." name

/* A name: at most this many bytes (the core takes paths of 512 bytes,
 * "sys/" included), components and bytes per component
 */
#define SYSCTL_NAME_MAX		508
#define SYSCTL_DEPTH_MAX	16
#define SYSCTL_COMPONENT_MAX	255
/* "sys/" and the name with its NUL */
#define SYSCTL_PATH_MAX		(4 + SYSCTL_NAME_MAX + 1)
/* A value read: at most two pages, its NUL included */
#define SYSCTL_VALUE_SIZE	(2 * PAGE_SIZE)
/* A value read first: most are shorter (see sysctl_read()) */
#define SYSCTL_SHORT_SIZE	256
/* A value written: at most a page */
#define SYSCTL_SET_MAX		PAGE_SIZE

static const char sysctl_idl[] =
"# The kernel's parameters, the files under /proc/sys (sysctl(8)): read,\n"
"# list and set them.  A name is written with dots, as in\n"
"# \"kernel.random.boot_id\", or with slashes, as in\n"
"# \"kernel/random/boot_id\", by systemd-sysctl's rule: its first separator\n"
"# decides.  If it is a dot, dots and slashes swap, so that\n"
"# \"net.ipv4.conf.eth0/100.forwarding\" names the file\n"
"# net/ipv4/conf/eth0.100/forwarding, as sysctl -a prints it; else the\n"
"# name is the path below /proc/sys as it is.  A leading \"/\" is dropped.\n"
"# A component is 1 to 255 of the bytes A-Z a-z 0-9 _ . : @ + -, neither\n"
"# \".\" nor \"..\"; a name has at most 16 components and 508 bytes;\n"
"# anything else is InvalidParameter.  A value is the kernel's text\n"
"# without its trailing newline: kernel.printk keeps the tabs between its\n"
"# numbers.\n"
"#\n"
"# Who may do what is what /proc/sys allows both the task that opened the\n"
"# connection and the one that sent the call: the file's mode (for uid 0\n"
"# the owner's bits: no capability overrides them), the rules of the\n"
"# network, ipc and user tables and each sysctl's own checks (some need\n"
"# CAP_SYS_ADMIN even to read), applied as the lesser of the two; else\n"
"# org.varlink.service.PermissionDenied.  While a BPF_CGROUP_SYSCTL\n"
"# program is attached to any cgroup, every call gets PermissionDenied:\n"
"# such a program would judge the server, not the caller.\n"
"#\n"
"# The interface is served in the initial network namespace only, where\n"
"# net.* is the caller's own.  Values are the initial namespaces', except:\n"
"# kernel.hostname and kernel.domainname, read from the caller's UTS\n"
"# namespace and set only from the initial one; the ipc ones\n"
"# (kernel.msg*, kernel.sem*, kernel.shm*,\n"
"# kernel.auto_msgmni and fs.mqueue.*), only for a caller in the initial\n"
"# ipc namespace; kernel.ns_last_pid, vm.memfd_noexec and (kernels 6.14\n"
"# and later) kernel.pid_max, only for one in the initial pid namespace;\n"
"# user.*, those of the caller's user namespace.  A caller in another\n"
"# namespace gets NotInNamespace, never the host's value.\n"
"interface org.kernel.sysctl\n"
"\n"
"# Read a sysctl, as \"cat /proc/sys/NAME\" would.  A name that is a\n"
"# directory or does not exist is NoSuchName; a value over 8 KiB is\n"
"# org.kernel.varlink.SystemError (errno 27, EFBIG), and a sysctl whose\n"
"# read fails (net.ipv6.conf.all.stable_secret before it is set, EIO)\n"
"# gives SystemError with that errno.  A read its handler would have\n"
"# restarted (net.ipv6.conf.*.addr_gen_mode while the network\n"
"# configuration lock is busy) is tried again a few times, then is\n"
"# SystemError errno 11 (EAGAIN): try again.\n"
"method Get(\n"
"  # The sysctl, e.g. \"kernel.random.boot_id\".\n"
"  name: string\n"
") -> (\n"
"  # Its value.\n"
"  value: string\n"
")\n"
"\n"
"# List the sysctls below a directory, or one sysctl, as \"sysctl -a\" or\n"
"# \"sysctl -a PREFIX\" would: one reply each, in the order of the\n"
"# directories (as readdir(3) on /proc/sys), a directory's sysctls where\n"
"# it comes.  Call it with \"more\"; without it, only a prefix that names\n"
"# one sysctl is answered, anything else is org.varlink.service.ExpectedMore.\n"
"# Replies are sent as fast as the client reads them.  A directory with no\n"
"# sysctl in it gets NoSuchName.  A call with \"more\" is a stream of the\n"
"# server's, counted against its limits (org.kernel.varlink.TooManyStreams).\n"
"method List(\n"
"  # The directory or the sysctl to list, e.g. \"net.ipv4\"; everything\n"
"  # when not given.\n"
"  prefix: ?string\n"
") -> (\n"
"  # The sysctl, with dots, as sysctl -a prints it: a dot within a\n"
"  # component becomes a slash (\"net.ipv4.conf.eth0/100.forwarding\").\n"
"  name: string,\n"
"  # Its value, as Get gives it; null when the caller may not read it (a\n"
"  # write-only sysctl such as vm.drop_caches, one that needs a capability\n"
"  # to read), when its namespace is not the caller's (see above), or when\n"
"  # reading it fails (EIO for an unset stable_secret) or it is over 8 KiB.\n"
"  value: ?string,\n"
"  # Whether Set of it would be allowed to the caller: the mode and rules\n"
"  # of /proc/sys for writing, the capability Set needs, the namespace and\n"
"  # the caller's own view of /proc/sys (not read-only).\n"
"  writable: bool\n"
")\n"
"\n"
"# Write a sysctl, as \"echo VALUE > /proc/sys/NAME\" would (without the\n"
"# newline).  On top of what /proc/sys allows (see above), the caller\n"
"# needs CAP_SYS_ADMIN in the initial user namespace, or for a net.* one\n"
"# CAP_NET_ADMIN or CAP_SYS_ADMIN there, both the task that opened the\n"
"# connection and the one that sent the call, else PermissionDenied.\n"
"# Where the /proc/sys of either of them is read-only (a container's, a\n"
"# service's with ProtectKernelTunables=), or, outside the initial mount\n"
"# namespace, has no /proc at all, the write is\n"
"# org.kernel.varlink.SystemError errno 30 (EROFS), as write(2) there.\n"
"# A value the sysctl refuses (EINVAL) is InvalidParameter \"value\"; other\n"
"# refusals of its handler are org.kernel.varlink.SystemError with their\n"
"# errno (EAGAIN for one it kept restarting).  A value the sysctl would\n"
"# refuse from the caller's mount namespace is refused as the file refuses\n"
"# it: on kernels 6.16 and later, a kernel.core_pattern of a socket\n"
"# (\"@...\") from one other than the initial one (InvalidParameter\n"
"# \"value\").  A refused call changes\n"
"# nothing.\n"
"method Set(\n"
"  # The sysctl, e.g. \"vm.swappiness\".\n"
"  name: string,\n"
"  # The value to write: at most a page (4096 bytes), written in one go;\n"
"  # \"1\\t4\\t1\\t7\" for kernel.printk, say.\n"
"  value: string\n"
") -> ()\n"
"\n"
"# One setting of Apply: write \"value\" to the sysctl \"name\" names, or to\n"
"# each that it matches, if it holds \"*\" (any bytes) or \"?\" (one byte)\n"
"# within its components, as systemd-sysctl takes them.\n"
"type Setting (\n"
"  # A name as Get takes it, or a pattern, e.g. \"net.ipv4.conf.*.rp_filter\".\n"
"  name: string,\n"
"  # The value, as Set takes it.\n"
"  value: string,\n"
"  # A failure of this setting is passed over (\"-\" before a name in\n"
"  # sysctl.d).\n"
"  ignore_failure: ?bool\n"
")\n"
"\n"
"# Write many sysctls in one call, in order, as systemd-sysctl applies a\n"
"# sysctl.d directory: each setting as Set writes it, with Set's\n"
"# permission rule for each sysctl written.  A pattern's matches are the\n"
"# sysctls there are when it comes, in the order of the directories (as\n"
"# sysctl -a), and it passes over a sysctl that a setting without pattern\n"
"# names (that one is written with its own value); a pattern that matches\n"
"# none writes nothing.  The first failure not ignored ends the call with\n"
"# ApplyFailed, and nothing after it is written.  Settings the server\n"
"# cannot take (a name or value Set refuses as such, other globs than \"*\"\n"
"# and \"?\", over 1024 settings) are InvalidParameter \"settings\", and\n"
"# nothing is written.  At most 1024 sysctls are written, with 32 KiB of\n"
"# names in \"applied\": past that, ApplyFailed with errno 7 (E2BIG).\n"
"method Apply(\n"
"  # The settings, in the order to write them, at most 1024.\n"
"  settings: []Setting\n"
") -> (\n"
"  # The sysctls written, as List names them, in order.\n"
"  applied: []string\n"
")\n"
"\n"
"# No sysctl has this name (or it is a directory, for Get and Set), or\n"
"# List found nothing below it; the name as given.\n"
"error NoSuchName (name: string)\n"
"\n"
"# Apply stopped at a setting: what it wrote before (\"applied\"), the\n"
"# index of the setting in \"settings\", the sysctl it failed to write (as\n"
"# List names it), and the error Set would have ended with: its name,\n"
"# and for org.kernel.varlink.SystemError, its errno.\n"
"error ApplyFailed (\n"
"  applied: []string,\n"
"  setting: int,\n"
"  name: string,\n"
"  error: string,\n"
"  errno: ?int\n"
")\n"
"\n"
"# The sysctl belongs to a namespace of the caller's (UTS, ipc or pid)\n"
"# other than the initial one, which this server cannot read or write; the\n"
"# name as given.\n"
"error NotInNamespace (name: string)\n";

/* Which namespace a sysctl's value is of, when not the initial net's */
enum sysctl_ns {
	SYSCTL_NS_NONE,
	SYSCTL_NS_UTS,
	SYSCTL_NS_IPC,
	SYSCTL_NS_PID,
};

static bool sysctl_char_ok(char c, bool glob)
{
	/* not isalnum(): the kernel's ctype knows Latin-1 letters */
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	       c == '@' || c == '+' || c == '-' ||
	       (glob && (c == '*' || c == '?'));
}

/**
 * sysctl_path() - the path below procfs of a sysctl's name
 * @name: the name from the client, NUL-terminated
 * @path: receives "sys/" and the path, SYSCTL_PATH_MAX bytes
 * @glob: whether "*" and "?" may stand in a component (Apply)
 *
 * systemd-sysctl's rule (sysctl_normalize()): the first separator
 * decides; if it is a dot, dots and slashes swap, else the name is the
 * path as it is.  A leading slash is dropped.  Each component is checked
 * here, as the core does, so that its -EINVAL never stands for a bad
 * name.
 *
 * Return: 0, or -EINVAL for a name that is not one.
 */
static int sysctl_path(const char *name, char *path, bool glob)
{
	size_t len, i, start = 4;
	unsigned int depth = 0;
	bool swap;

	name += *name == '/';
	len = strlen(name);
	if (!len || len > SYSCTL_NAME_MAX)
		return -EINVAL;
	swap = name[strcspn(name, "./")] == '.';
	memcpy(path, "sys/", 4);
	for (i = 0; i <= len; i++) {
		char c = swap && (name[i] == '.' || name[i] == '/') ?
			 name[i] ^ '.' ^ '/' : name[i];
		size_t clen;

		if (c && c != '/') {
			if (!sysctl_char_ok(c, glob))
				return -EINVAL;
			path[4 + i] = c;
			continue;
		}
		/* the end of a component */
		clen = 4 + i - start;
		if (!clen || clen > SYSCTL_COMPONENT_MAX ||
		    ++depth > SYSCTL_DEPTH_MAX)
			return -EINVAL;
		if (path[start] == '.' &&
		    (clen == 1 || (clen == 2 && path[start + 1] == '.')))
			return -EINVAL;
		path[4 + i] = c;
		start = 4 + i + 1;
	}
	return 0;
}

/* Component @i (0 the first) of @rel ("kernel/random/boot_id"): whether
 * it is @s.
 */
static bool sysctl_component_is(const char *rel, unsigned int i,
				const char *s)
{
	size_t len = strlen(s);

	for (; i; i--) {
		rel = strchr(rel, '/');
		if (!rel)
			return false;
		rel++;
	}
	return !strncmp(rel, s, len) && (rel[len] == '/' || !rel[len]);
}

/**
 * sysctl_ns_of() - the namespace a sysctl is of
 * @rel: its path below /proc/sys, e.g. "kernel/hostname"
 *
 * The UTS (kernel/utsname_sysctl.c), ipc (ipc/ipc_sysctl.c,
 * ipc/mq_sysctl.c) and pid (kernel/pid_namespace.c, kernel/pid.c) tables,
 * which /proc/sys looks up in current->nsproxy: ours are the initial
 * ones.  net.* is the initial network namespace's, which is the caller's
 * (the interface is served there only); user.* follows the credentials,
 * which are the caller's.
 *
 * Return: the namespace, SYSCTL_NS_NONE for one of the whole system.
 */
static enum sysctl_ns sysctl_ns_of(const char *rel)
{
	const char *leaf;

	if (sysctl_component_is(rel, 0, "fs") &&
	    sysctl_component_is(rel, 1, "mqueue"))
		return SYSCTL_NS_IPC;
	if (!strcmp(rel, "vm/memfd_noexec"))
		return SYSCTL_NS_PID;
	if (strncmp(rel, "kernel/", 7))
		return SYSCTL_NS_NONE;
	leaf = rel + 7;
	if (strchr(leaf, '/'))
		return SYSCTL_NS_NONE;
	if (!strcmp(leaf, "hostname") || !strcmp(leaf, "domainname"))
		return SYSCTL_NS_UTS;
	if (!strcmp(leaf, "ns_last_pid") ||
	    (VL_PID_MAX_PER_PIDNS && !strcmp(leaf, "pid_max")))
		return SYSCTL_NS_PID;
	/* msg*, sem* and shm* include their *_next_id */
	if (!strncmp(leaf, "msg", 3) || !strncmp(leaf, "shm", 3) ||
	    !strncmp(leaf, "sem", 3) || !strcmp(leaf, "auto_msgmni"))
		return SYSCTL_NS_IPC;
	return SYSCTL_NS_NONE;
}

/* Whether the caller is in the namespace of a sysctl of @ns; for
 * SYSCTL_NS_UTS, whether it may read it (setting it is for the initial
 * UTS namespace only, see sysctl_ns_writable()).
 */
static bool sysctl_ns_readable(struct varlink_call *call, enum sysctl_ns ns)
{
	switch (ns) {
	case SYSCTL_NS_UTS:
		return !!varlink_call_caller(call)->uts_ns;
	case SYSCTL_NS_IPC:
		return varlink_caller_in_init_ns(varlink_call_caller(call), CLONE_NEWIPC);
	case SYSCTL_NS_PID:
		return varlink_caller_in_init_ns(varlink_call_caller(call), CLONE_NEWPID);
	default:
		return true;
	}
}

static bool sysctl_ns_writable(struct varlink_call *call, enum sysctl_ns ns)
{
	if (ns == SYSCTL_NS_UTS)
		return varlink_caller_in_init_ns(varlink_call_caller(call), CLONE_NEWUTS);
	return sysctl_ns_readable(call, ns);
}

/* The capability Set needs, of both parties (see the IDL) */
static bool sysctl_may_set(struct varlink_call *call, const char *rel)
{
	if (varlink_call_capable(call, CAP_SYS_ADMIN))
		return true;
	return sysctl_component_is(rel, 0, "net") &&
	       varlink_call_capable(call, CAP_NET_ADMIN);
}

/* A BPF_CGROUP_SYSCTL program, attached anywhere, would judge our kworker
 * in the root cgroup rather than the caller (or, for Get, the task that
 * sent the call, not the opener): refuse while there is one.
 */
static bool sysctl_bpf_attached(void)
{
	return cgroup_bpf_enabled(CGROUP_SYSCTL);
}

/* The caller's host or domain name, for @rel of SYSCTL_NS_UTS, into @buf.
 * uts_sem is not exported: a name being changed could show half written
 * here, never unterminated, as in system.c.
 */
static void sysctl_uts_value(struct varlink_call *call, const char *rel,
			     char *buf)
{
	const struct new_utsname *uts = &varlink_call_caller(call)->uts_ns->name;
	const char *field = strcmp(rel, "kernel/hostname") ?
			    uts->domainname : uts->nodename;
	size_t len = strnlen(field, __NEW_UTS_LEN);

	memcpy(buf, field, len);
	buf[len] = '\0';
}

/* Read @path into @size bytes of @buf; -EFBIG if the value fills them */
static ssize_t sysctl_read_whole(struct varlink_call *call, const char *path,
				 char *buf, size_t size)
{
	ssize_t n = varlink_file_read(call, VARLINK_PROC, path, buf, size);

	/* the handler may have cut it, and most give nothing past 0 */
	return n >= 0 && (size_t)n == size - 1 ? -EFBIG : n;
}

/**
 * sysctl_read() - a sysctl's value, as the caller
 * @call: the call
 * @path: "sys/..."
 * @ns: the namespace of the sysctl, which the caller must be in
 * @buf: receives the value, NUL-terminated, without its trailing newline
 * @size: bytes of @buf, at most SYSCTL_VALUE_SIZE
 *
 * A /proc/sys handler formats the whole value again for each read, into a
 * zeroed buffer of the read's size: a short value is read with a short
 * read, and only one that fills it is read again with @size.
 *
 * Return: 0 or a negative errno: -EISDIR for a directory, -EFBIG for a
 * value of @size - 1 bytes or more.
 */
static int sysctl_read(struct varlink_call *call, const char *path,
		       enum sysctl_ns ns, char *buf, size_t size)
{
	ssize_t n;

	n = sysctl_read_whole(call, path, buf,
			      min_t(size_t, size, SYSCTL_SHORT_SIZE));
	if (n == -EFBIG && size > SYSCTL_SHORT_SIZE)
		n = sysctl_read_whole(call, path, buf, size);
	if (n < 0)
		return n;
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	/* read for its permission; the value is the caller's namespace's */
	if (ns == SYSCTL_NS_UTS)
		sysctl_uts_value(call, path + 4, buf);
	return 0;
}

/* Reply NoSuchName or NotInNamespace with @name. */
static int sysctl_error_name(struct varlink_call *call, const char *error,
			     const char *name)
{
	varlink_put_str(call, "name", name);
	return varlink_error(call, error);
}

/* sysctl_write()'s error for a sysctl of a namespace of the caller's
 * other than the initial one.  No file returns it: ENOPARAM is the
 * kernel's own, for a mount option it does not know.
 */
#define SYSCTL_ENOTNS		(-ENOPARAM)

/* The error of this interface that a read or write of a sysctl failed
 * with @err ends a call with; NULL where the core's errno rule says it
 * (PermissionDenied, SystemError).
 */
static const char *sysctl_error_of(int err)
{
	switch (err) {
	case -ENOENT:
	case -ENOTDIR:
	case -EISDIR:
	case -ELOOP:
		return SYSCTL_ERR("NoSuchName");
	case SYSCTL_ENOTNS:
		return SYSCTL_ERR("NotInNamespace");
	default:
		return NULL;
	}
}

/* End a call with what @err says of the sysctl @name. */
static int sysctl_fail(struct varlink_call *call, const char *name, int err)
{
	const char *error = sysctl_error_of(err);

	return error ? sysctl_error_name(call, error, name) : err;
}

struct sysctl_name_params {
	const char *name;
};

static const struct varlink_param sysctl_get_params[] = {
	VARLINK_PARAM("name", struct sysctl_name_params, name),
};

static int sysctl_get(struct varlink_call *call, const void *params)
{
	const struct sysctl_name_params *p = params;
	char path[SYSCTL_PATH_MAX], small[SYSCTL_SHORT_SIZE], *buf = small;
	enum sysctl_ns ns;
	int err;

	if (sysctl_path(p->name, path, false))
		return varlink_error_invalid_parameter(call, "name");
	if (sysctl_bpf_attached())
		return -EPERM;
	ns = sysctl_ns_of(path + 4);
	if (!sysctl_ns_readable(call, ns))
		return sysctl_fail(call, p->name, SYSCTL_ENOTNS);
	err = sysctl_read(call, path, ns, small, sizeof(small));
	if (err == -EFBIG) {
		buf = kmalloc(SYSCTL_VALUE_SIZE, GFP_KERNEL_ACCOUNT);
		if (!buf)
			return -ENOMEM;
		err = sysctl_read(call, path, ns, buf, SYSCTL_VALUE_SIZE);
	}
	if (!err)
		varlink_put_str(call, "value", buf);
	if (buf != small)
		kfree(buf);
	return err ? sysctl_fail(call, p->name, err) : varlink_reply(call);
}

struct sysctl_set_params {
	const char *name;
	const char *value;
};

static const struct varlink_param sysctl_set_params[] = {
	VARLINK_PARAM("name", struct sysctl_set_params, name),
	VARLINK_PARAM("value", struct sysctl_set_params,
		      value),
};

/* Whether the sysctl's handler would refuse @value from the caller's
 * mount namespace: it looks at current's, a kworker's here.  See
 * VL_COREDUMP_SOCKET.
 */
static bool sysctl_mnt_ns_refuses(struct varlink_call *call, const char *rel,
				  const char *value)
{
	return VL_COREDUMP_SOCKET && value[0] == '@' &&
	       !strcmp(rel, "kernel/core_pattern") &&
	       !varlink_caller_in_init_ns(varlink_call_caller(call),
					  CLONE_NEWNS);
}

/* Write @value to the sysctl at @path ("sys/...") with every check of
 * Set: 0, SYSCTL_ENOTNS, or a negative errno (-EINVAL: the sysctl refuses
 * the value).
 */
static int sysctl_write(struct varlink_call *call, const char *path,
			const char *value)
{
	const char *rel = path + 4;

	if (sysctl_bpf_attached() || !sysctl_may_set(call, rel))
		return -EPERM;
	if (!sysctl_ns_writable(call, sysctl_ns_of(rel)))
		return SYSCTL_ENOTNS;
	if (sysctl_mnt_ns_refuses(call, rel, value))
		return -EINVAL;
	return varlink_file_write(call, VARLINK_PROC, path, value,
				  strlen(value));
}

static int sysctl_set(struct varlink_call *call, const void *params)
{
	const struct sysctl_set_params *p = params;
	char path[SYSCTL_PATH_MAX];
	int err;

	if (sysctl_path(p->name, path, false))
		return varlink_error_invalid_parameter(call, "name");
	if (strlen(p->value) > SYSCTL_SET_MAX)
		return varlink_error_invalid_parameter(call, "value");
	err = sysctl_write(call, path, p->value);
	if (err == -EINVAL)
		return varlink_error_invalid_parameter(call, "value");
	return err ? sysctl_fail(call, p->name, err) : varlink_reply(call);
}

/**
 * struct sysctl_list - a List stream
 * @stream: the core's
 * @walk: the walk of /proc/sys below the prefix
 * @pending: an entry is written, not yet sent: the last one is the final
 *	reply
 * @may_set: the caller has Set's capability for any sysctl
 * @may_set_net: ... for those of net.*
 * @prefix: the prefix, as the caller gave it, for NoSuchName
 * @name: the name of an entry, as List gives it
 * @value: its value (SYSCTL_VALUE_SIZE bytes)
 */
struct sysctl_list {
	struct varlink_stream stream;
	struct varlink_walk *walk;
	bool pending;
	bool may_set, may_set_net;
	char prefix[SYSCTL_NAME_MAX + 1];
	char name[SYSCTL_NAME_MAX + 1];
	char value[SYSCTL_VALUE_SIZE];
};

/* The name of @rel as List gives it, as procps's sysctl -a prints it:
 * dots and slashes swapped.
 */
static void sysctl_list_name(const char *rel, char *name)
{
	size_t i;

	for (i = 0; rel[i]; i++)
		name[i] = rel[i] == '/' || rel[i] == '.' ? rel[i] ^ '.' ^ '/' :
			  rel[i];
	name[i] = '\0';
}

/**
 * sysctl_entry() - one reply of List, for the sysctl at @path
 * @l: the listing
 * @call: its call
 * @path: "sys/..."
 *
 * The entry before it, written but not sent, goes first, so that the
 * last one can be the final reply.  The value is read before, into
 * @l->value: nothing is written into the reply until the previous one is
 * sent.
 *
 * Return: 0; -EAGAIN, the entry written, once the client is to read
 * before more is sent; or a negative errno that ends the call.
 */
static int sysctl_entry(struct sysctl_list *l, struct varlink_call *call,
			const char *path)
{
	const char *rel = path + 4;
	enum sysctl_ns ns = sysctl_ns_of(rel);
	bool in_ns, readable, may_set, writable = false;
	struct file *f;
	int err = 0;

	if (sysctl_bpf_attached())
		return -EPERM;
	in_ns = sysctl_ns_readable(call, ns);
	readable = in_ns && !sysctl_read(call, path, ns, l->value,
					 SYSCTL_VALUE_SIZE);
	may_set = sysctl_component_is(rel, 0, "net") ? l->may_set_net :
						      l->may_set;
	if (ns == SYSCTL_NS_UTS)
		in_ns = sysctl_ns_writable(call, ns);
	if (may_set && in_ns) {
		/* what open(2) for writing checks, without writing */
		f = varlink_file_open(call, VARLINK_PROC, path, O_WRONLY);
		writable = !IS_ERR(f);
		if (writable)
			fput(f);
	}
	if (l->pending) {
		err = varlink_stream_reply(&l->stream);
		if (err && err != -EAGAIN)
			return err;
	}
	sysctl_list_name(rel, l->name);
	varlink_put_str(call, "name", l->name);
	if (readable)
		varlink_put_str(call, "value", l->value);
	varlink_put_bool(call, "writable", writable);
	l->pending = true;
	return err;
}

/* Every sysctl below the prefix, depth first, as the client reads them. */
static int sysctl_list_run(struct varlink_stream *stream)
{
	struct sysctl_list *l = container_of(stream, struct sysctl_list,
					     stream);
	struct varlink_walk_entry e;
	struct file *dir;
	int err;

	while ((err = varlink_walk_next(l->walk, &e)) > 0) {
		if (e.type == DT_DIR) {
			dir = varlink_walk_enter(l->walk);
			err = IS_ERR(dir) ? PTR_ERR(dir) : 0;
		} else {
			err = sysctl_entry(l, stream->call, e.path);
		}
		if (err)
			break;
		cond_resched();
	}
	if (err == -EACCES || err == -EPERM)
		return -EPERM;
	if (err)
		return err;
	if (!l->pending)
		return sysctl_error_name(stream->call,
					 SYSCTL_ERR("NoSuchName"), l->prefix);
	return varlink_reply(stream->call);
}

static void sysctl_list_release(struct varlink_stream *stream)
{
	struct sysctl_list *l = container_of(stream, struct sysctl_list,
					     stream);

	varlink_walk_end(l->walk);
	kvfree(l);
}

static const struct varlink_stream_ops sysctl_list_ops = {
	.run = sysctl_list_run,
	.release = sysctl_list_release,
};

struct sysctl_list_params {
	const char *prefix;
};

static const struct varlink_param sysctl_list_params[] = {
	VARLINK_PARAM("prefix", struct sysctl_list_params, prefix),
};

/* Whether the file at @path exists, whether the caller may read it or not:
 * 0, or the errno of a name that is none.
 */
static int sysctl_file_exists(struct varlink_call *call, const char *path)
{
	struct file *f = varlink_file_open(call, VARLINK_PROC, path, O_RDONLY);
	int err;

	if (!IS_ERR(f)) {
		fput(f);
		return 0;
	}
	err = PTR_ERR(f);
	return err == -EACCES || err == -EPERM ? 0 : err;
}

/* List of one sysctl: its one reply */
static int sysctl_list_one(struct sysctl_list *l, struct varlink_call *call,
			   const char *path)
{
	int err = sysctl_file_exists(call, path);

	if (!err)
		err = sysctl_entry(l, call, path);
	if (err)
		return sysctl_fail(call, l->prefix, err);
	return varlink_reply(call);
}

static int sysctl_list(struct varlink_call *call, const void *params)
{
	const struct sysctl_list_params *p = params;
	char path[SYSCTL_PATH_MAX] = "sys";
	struct sysctl_list *l;
	int err;

	if (p->prefix && sysctl_path(p->prefix, path, false))
		return varlink_error_invalid_parameter(call, "prefix");
	if (sysctl_bpf_attached())
		return -EPERM;
	l = kvzalloc(sizeof(*l), GFP_KERNEL_ACCOUNT);
	if (!l)
		return -ENOMEM;
	strscpy(l->prefix, p->prefix ?: "", sizeof(l->prefix));
	l->may_set = varlink_call_capable(call, CAP_SYS_ADMIN);
	l->may_set_net = l->may_set ||
			 varlink_call_capable(call, CAP_NET_ADMIN);
	varlink_stream_init(&l->stream, &sysctl_list_ops);

	/* a directory, or else one sysctl (ENOTDIR says either is a file) */
	l->walk = varlink_walk_start(call, VARLINK_PROC, path,
				     SYSCTL_DEPTH_MAX, 0);
	err = PTR_ERR_OR_ZERO(l->walk);
	if (err == -ENOTDIR || err == -EACCES || err == -EPERM)
		err = sysctl_list_one(l, call, path);
	else if (err)
		err = sysctl_fail(call, l->prefix, err);
	else if (!varlink_call_more(call))
		err = varlink_error(call, "org.varlink.service.ExpectedMore");
	else
		return varlink_stream_start(call, &l->stream);
	varlink_walk_end(l->walk);
	kvfree(l);
	return err;
}

/* Apply: settings of one call, sysctls written, bytes of their names in
 * "applied", and entries of /proc/sys its patterns look at
 */
#define SYSCTL_APPLY_SETTINGS	1024
#define SYSCTL_APPLY_WRITES	1024
#define SYSCTL_APPLY_NAMES	(32 << 10)
#define SYSCTL_APPLY_ENTRIES	BIT(18)

/**
 * struct sysctl_apply - an Apply call
 * @call: the call
 * @index: the setting being applied
 * @ignore: its failures are passed over
 * @writes: sysctls written so far
 * @names: bytes of their names in "applied"
 * @entries: entries of /proc/sys looked at for patterns so far
 * @n_explicit: entries of @explicit
 * @explicit: the hashes of the paths that settings without a pattern name
 * @value: the setting's value
 * @pattern: the setting's path, a pattern or not
 * @name: the setting's name, then the List name of a sysctl it writes
 */
struct sysctl_apply {
	struct varlink_call *call;
	unsigned int index;
	bool ignore;
	unsigned int writes;
	size_t names;
	unsigned int entries;
	unsigned int n_explicit;
	u64 explicit[SYSCTL_APPLY_SETTINGS];
	char value[SYSCTL_SET_MAX + 1];
	char pattern[SYSCTL_PATH_MAX];
	char name[SYSCTL_NAME_MAX + 1];
};

/* A path's hash, to find the sysctls settings without a pattern name */
static u64 sysctl_hash(const char *path)
{
	u32 len = strlen(path);

	return (u64)jhash(path, len, 0) << 32 | jhash(path, len, 1);
}

static bool sysctl_explicit(const struct sysctl_apply *a, const char *path)
{
	u64 hash = sysctl_hash(path);
	unsigned int i;

	for (i = 0; i < a->n_explicit; i++)
		if (a->explicit[i] == hash)
			return true;
	return false;
}

/* The Setting @v into @a: 0, or -EINVAL for one Set would refuse as such,
 * or a pattern of other globs than "*" and "?"
 */
static int sysctl_setting(struct sysctl_apply *a, const struct varlink_json *v)
{
	struct varlink_json key, val;
	struct varlink_json_iter it;
	bool name = false, value = false;
	char k[16];
	int err;

	a->ignore = false;
	err = varlink_json_iter_init(&it, v);
	while (!err && (err = varlink_json_iter_next(&it, &key, &val)) > 0) {
		err = 0;
		if (varlink_json_str(&key, k, sizeof(k)) < 0)
			continue;	/* none of ours: the core checked them */
		if (!strcmp(k, "name")) {
			name = varlink_json_str(&val, a->name,
						sizeof(a->name)) >= 0 &&
			       !sysctl_path(a->name, a->pattern, true);
		} else if (!strcmp(k, "value")) {
			value = varlink_json_str(&val, a->value,
						 sizeof(a->value)) >= 0;
		} else if (!strcmp(k, "ignore_failure")) {
			a->ignore = val.len == 4 && !memcmp(val.text, "true", 4);
		}
	}
	return err || !name || !value ? -EINVAL : 0;
}

/* Every setting checked before anything is written: 0, or -EINVAL */
static int sysctl_apply_check(struct sysctl_apply *a,
			      const struct varlink_json *settings)
{
	struct varlink_json key, val;
	struct varlink_json_iter it;
	int err;

	err = varlink_json_iter_init(&it, settings);
	while (!err && (err = varlink_json_iter_next(&it, &key, &val)) > 0) {
		if (a->index++ == SYSCTL_APPLY_SETTINGS ||
		    sysctl_setting(a, &val))
			return -EINVAL;
		if (!strpbrk(a->pattern, "*?"))
			a->explicit[a->n_explicit++] = sysctl_hash(a->pattern);
		err = 0;
	}
	return err;
}

/* End the call with ApplyFailed for the sysctl @a->name, failed with
 * @err.  Return: 1, for the call ended.
 */
static int sysctl_apply_failed(struct sysctl_apply *a, int err)
{
	const char *error = sysctl_error_of(err);

	if (!error)
		error = err == -EPERM || err == -EACCES ?
			"org.varlink.service.PermissionDenied" :
			err == -EINVAL ? "org.varlink.service.InvalidParameter" :
			"org.kernel.varlink.SystemError";
	varlink_close_array(a->call);
	varlink_put_s64(a->call, "setting", a->index);
	varlink_put_str(a->call, "name", a->name);
	varlink_put_str(a->call, "error", error);
	if (!strcmp(error, "org.kernel.varlink.SystemError"))
		varlink_put_s64(a->call, "errno", -err);
	varlink_error(a->call, SYSCTL_ERR("ApplyFailed"));
	return 1;
}

/* Write the setting's value to the sysctl at @path: 0, or 1 once the call
 * ended with ApplyFailed.
 */
static int sysctl_apply_one(struct sysctl_apply *a, const char *path)
{
	size_t len = strlen(path + 4);
	bool full = a->writes == SYSCTL_APPLY_WRITES ||
		    a->names + len > SYSCTL_APPLY_NAMES;
	int err = full ? -E2BIG : sysctl_write(a->call, path, a->value);

	sysctl_list_name(path + 4, a->name);
	if (!err) {
		a->writes++;
		a->names += len;
		varlink_put_str(a->call, NULL, a->name);
	}
	return !err || (a->ignore && !full) ? 0 : sysctl_apply_failed(a, err);
}

/* Whether the component @name matches @pat, of @len bytes, of "*" (any
 * bytes) and "?" (any one) and others (themselves): the last "*" seen
 * takes one byte more each time the rest does not match.
 */
static bool sysctl_glob_match(const char *pat, size_t len, const char *name)
{
	const char *p = pat, *end = pat + len, *star = NULL, *retry = NULL;

	while (*name) {
		if (p < end && (*p == '?' || *p == *name)) {
			p++;
			name++;
		} else if (p < end && *p == '*') {
			star = ++p;
			retry = name;
		} else if (star) {
			p = star;
			name = ++retry;
		} else {
			return false;
		}
	}
	while (p < end && *p == '*')
		p++;
	return p == end;
}

/* Whether the entry @e of a pattern's walk matches the pattern's
 * component of its depth in @rest, the pattern from the walk's start.
 */
static bool sysctl_glob_entry(const char *rest,
			      const struct varlink_walk_entry *e)
{
	unsigned int i;

	for (i = 1; i < e->depth; i++)
		rest = strchr(rest, '/') + 1;
	return sysctl_glob_match(rest, strchrnul(rest, '/') - rest, e->name);
}

/* The sysctls the setting's pattern matches, each written unless a
 * setting without pattern names it: the walk starts in the directory
 * before the pattern's first component with a glob.  Return: 0, or 1
 * once the call ended.
 */
static int sysctl_apply_glob(struct sysctl_apply *a)
{
	char *slash = strpbrk(a->pattern, "*?");
	struct varlink_walk_entry e;
	unsigned int depth = 1;
	struct varlink_walk *w;
	const char *p;
	int err;

	while (*slash != '/')
		slash--;
	for (p = slash + 1; *p; p++)
		depth += *p == '/';
	*slash = '\0';
	w = varlink_walk_start(a->call, VARLINK_PROC, a->pattern, depth, 0);
	*slash = '/';
	err = PTR_ERR_OR_ZERO(w);
	if (err == -ENOENT || err == -ENOTDIR)
		return 0;	/* no match, as glob(3) */
	while (!err && (err = varlink_walk_next(w, &e)) > 0) {
		err = ++a->entries > SYSCTL_APPLY_ENTRIES ? -E2BIG : 0;
		if (err || !sysctl_glob_entry(slash + 1, &e))
			continue;
		if (e.depth < depth && e.type == DT_DIR)
			varlink_walk_enter(w);
		else if (e.depth == depth && e.type != DT_DIR &&
			 !sysctl_explicit(a, e.path))
			err = sysctl_apply_one(a, e.path);
		cond_resched();
	}
	varlink_walk_end(w);
	if (err >= 0 || (a->ignore && a->entries <= SYSCTL_APPLY_ENTRIES))
		return err > 0 ? err : 0;
	sysctl_list_name(a->pattern + 4, a->name);
	return sysctl_apply_failed(a, err);
}

/* Every setting, in order: 0, or 1 once the call ended */
static int sysctl_apply_all(struct sysctl_apply *a,
			    const struct varlink_json *settings)
{
	struct varlink_json key, val;
	struct varlink_json_iter it;
	int err;

	varlink_json_iter_init(&it, settings);
	for (a->index = 0; varlink_json_iter_next(&it, &key, &val) > 0;
	     a->index++) {
		sysctl_setting(a, &val);	/* checked */
		err = strpbrk(a->pattern, "*?") ? sysctl_apply_glob(a) :
		      sysctl_apply_one(a, a->pattern);
		if (err)
			return err;
	}
	return 0;
}

struct sysctl_apply_params {
	struct varlink_json settings;
};

static const struct varlink_param sysctl_apply_params[] = {
	VARLINK_PARAM("settings", struct sysctl_apply_params, settings),
};

/* Apply(settings: []Setting) -> (applied: []string) */
static int sysctl_apply(struct varlink_call *call, const void *params)
{
	const struct sysctl_apply_params *p = params;
	struct sysctl_apply *a;
	int err;

	a = kvzalloc(sizeof(*a), GFP_KERNEL_ACCOUNT);
	if (!a)
		return -ENOMEM;
	a->call = call;
	err = sysctl_apply_check(a, &p->settings);
	if (!err) {
		varlink_open_array(call, "applied");
		err = sysctl_apply_all(a, &p->settings);
	}
	kvfree(a);
	if (err < 0)
		return varlink_error_invalid_parameter(call, "settings");
	if (err)
		return 0;	/* ApplyFailed */
	varlink_close_array(call);
	return varlink_reply(call);
}

static const struct varlink_method sysctl_methods[] = {
	{
		.name = "Get",
		.call = sysctl_get,
		VARLINK_PARAMS(sysctl_get_params, struct sysctl_name_params),
		.flags = VARLINK_INLINE,
	},
	{
		.name = "List",
		.call = sysctl_list,
		VARLINK_PARAMS(sysctl_list_params, struct sysctl_list_params),
		.flags = VARLINK_STREAM,
	},
	{
		.name = "Set",
		.call = sysctl_set,
		VARLINK_PARAMS(sysctl_set_params, struct sysctl_set_params),
	},
	{
		.name = "Apply",
		.call = sysctl_apply,
		VARLINK_PARAMS(sysctl_apply_params, struct sysctl_apply_params),
	},
};

static const struct varlink_interface sysctl_iface = {
	.idl = sysctl_idl,
	VARLINK_METHODS(sysctl_methods),
};
module_varlink_interface(sysctl_iface, "org.kernel.sysctl");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("org.kernel.sysctl varlink interface: /proc/sys");
