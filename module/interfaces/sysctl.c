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
"# \"net/ipv4/conf/eth0.100/forwarding\": a name that holds a \"/\" is taken\n"
"# literally as the path below /proc/sys, any other has dots between its\n"
"# components (systemd-sysctl's rule), so a component with a dot in it\n"
"# needs the slash form.  A component is 1 to 255 of the bytes\n"
"# A-Z a-z 0-9 _ . : @ + -, neither \".\" nor \"..\"; a name has at most 16\n"
"# components and 508 bytes; anything else is InvalidParameter.  A value\n"
"# is the kernel's text without its trailing newline: kernel.printk keeps\n"
"# the tabs between its numbers.\n"
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
"  # The sysctl, with dots, or with slashes when one of its components\n"
"  # holds a dot (\"net/ipv4/conf/eth0.100/forwarding\").\n"
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
"# errno (EAGAIN for one it kept restarting).  A refused call changes\n"
"# nothing.\n"
"method Set(\n"
"  # The sysctl, e.g. \"vm.swappiness\".\n"
"  name: string,\n"
"  # The value to write: at most a page (4096 bytes), written in one go;\n"
"  # \"1\\t4\\t1\\t7\" for kernel.printk, say.\n"
"  value: string\n"
") -> ()\n"
"\n"
"# No sysctl has this name (or it is a directory, for Get and Set), or\n"
"# List found nothing below it; the name as given.\n"
"error NoSuchName (name: string)\n"
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

static bool sysctl_char_ok(char c)
{
	/* not isalnum(): the kernel's ctype knows Latin-1 letters */
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	       c == '@' || c == '+' || c == '-';
}

/**
 * sysctl_path() - the path below procfs of a sysctl's name
 * @name: the name from the client, NUL-terminated
 * @path: receives "sys/" and the name with slashes, SYSCTL_PATH_MAX bytes
 *
 * A name holding a '/' is the path below /proc/sys as it is; any other
 * has dots between its components.  Each component is checked here, as
 * the core does, so that its -EINVAL never stands for a bad name.
 *
 * Return: 0, or -EINVAL for a name that is not one.
 */
static int sysctl_path(const char *name, char *path)
{
	size_t len = strlen(name), i, start = 4;
	bool slashes = strchr(name, '/');
	unsigned int depth = 0;

	if (!len || len > SYSCTL_NAME_MAX)
		return -EINVAL;
	memcpy(path, "sys/", 4);
	for (i = 0; i <= len; i++) {
		char c = name[i];
		size_t clen;

		if (c && c != '/' && (slashes || c != '.')) {
			if (!sysctl_char_ok(c))
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
		path[4 + i] = c ? '/' : '\0';
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

/* End a call with what @err says of the sysctl @name. */
static int sysctl_fail(struct varlink_call *call, const char *name, int err)
{
	switch (err) {
	case -ENOENT:
	case -ENOTDIR:
	case -EISDIR:
	case -ELOOP:
		return sysctl_error_name(call, SYSCTL_ERR("NoSuchName"), name);
	case -EACCES:
	case -EPERM:
		return -EPERM;
	default:
		return err;
	}
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

	if (sysctl_path(p->name, path))
		return varlink_error_invalid_parameter(call, "name");
	if (sysctl_bpf_attached())
		return -EPERM;
	ns = sysctl_ns_of(path + 4);
	if (!sysctl_ns_readable(call, ns))
		return sysctl_error_name(call, SYSCTL_ERR("NotInNamespace"),
					 p->name);
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

static int sysctl_set(struct varlink_call *call, const void *params)
{
	const struct sysctl_set_params *p = params;
	char path[SYSCTL_PATH_MAX];
	size_t len = strlen(p->value);
	enum sysctl_ns ns;
	int err;

	if (sysctl_path(p->name, path))
		return varlink_error_invalid_parameter(call, "name");
	if (len > SYSCTL_SET_MAX)
		return varlink_error_invalid_parameter(call, "value");
	if (sysctl_bpf_attached())
		return -EPERM;
	if (!sysctl_may_set(call, path + 4))
		return -EPERM;
	ns = sysctl_ns_of(path + 4);
	if (!sysctl_ns_writable(call, ns))
		return sysctl_error_name(call, SYSCTL_ERR("NotInNamespace"),
					 p->name);
	err = varlink_file_write(call, VARLINK_PROC, path, p->value, len);
	if (err == -EINVAL)
		return varlink_error_invalid_parameter(call, "value");
	if (err)
		return sysctl_fail(call, p->name, err);
	return varlink_reply(call);
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

/* The name of @rel as List gives it: dotted, unless a component has a
 * dot, which only the slash form can say.
 */
static void sysctl_list_name(const char *rel, char *name)
{
	bool dots = strchr(rel, '.');
	size_t i;

	for (i = 0; rel[i]; i++)
		name[i] = rel[i] == '/' && !dots ? '.' : rel[i];
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

	if (p->prefix && sysctl_path(p->prefix, path))
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
};

static const struct varlink_interface sysctl_iface = {
	.idl = sysctl_idl,
	VARLINK_METHODS(sysctl_methods),
};
module_varlink_interface(sysctl_iface, "org.kernel.sysctl");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("org.kernel.sysctl varlink interface: /proc/sys");
