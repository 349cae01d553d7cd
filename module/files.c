// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel state from files: the core's internal mounts of procfs, sysfs
 * and cgroup2, and their files opened, read and written as the caller.
 *
 * The mounts.  procfs takes its pid namespace from the mounting task,
 * sysfs its network namespace, cgroup2 its cgroup namespace; a provider's
 * callback may run in the caller's task, and module init in insmod's,
 * which may be a container's.  So each mount is made on first use, in a
 * kworker of system_unbound_wq, whose namespaces are the initial ones,
 * and stays until varlink.ko is unloaded.  /proc/sys resolves the
 * namespaced tables (net, ipc, uts) through the reading task, a kworker
 * or the caller: a provider of namespaced files answers for the initial
 * namespaces only, and refuses callers of others.
 *
 * The caller.  A file is opened as the lesser of the connection's opener
 * and the call's sender, the one whose capabilities the other holds too
 * (vl_call_lesser_cred()), and the other must pass inode_permission() for
 * the same access: privilege needs both, as everywhere in the core.  The
 * read or write itself runs under the lesser credentials as well, so
 * that a handler's own check (a sysctl that needs CAP_SYS_ADMIN even to
 * be read) sees them, not the kworker's.
 *
 * Names.  A name from a client becomes a path on one of these mounts, so
 * it is checked component by component: relative, no empty, "." or ".."
 * component, only [A-Za-z0-9_.:@+!-]; and it is looked up without
 * following any symbolic link (procfs's "self" and "net" are ones, into
 * the kworker's own process), without leaving the mount or its root.
 *
 * Handlers written for a system call.  A file's handlers run here in a
 * kworker, or in the caller's task inside its sendmsg() (the inline
 * path), never in a system call of their own.  One that wants its
 * system call restarted (restart_syscall(): ipv6's addr_gen_mode and
 * stable_secret while RTNL is busy; an interrupted wait) sets
 * TIF_SIGPENDING and returns -ERESTART*: nothing will restart it, and a
 * kworker left so has signal_pending() true for every later work item
 * of every module it runs.  So each open, read, write and listing is
 * tried again after a restart, VL_FILE_RESTARTS times with a pause that
 * doubles, and a kthread's spurious TIF_SIGPENDING is cleared at once
 * (recalc_sigpending(), which keeps any signal really pending); in the
 * caller's own task it is left for its return to user space, which
 * clears it.  Whatever error is left is one a user program knows
 * (vl_errno_user()): no errno of include/linux/errno.h (512 and above)
 * leaves this file or reaches a reply.
 *
 * The caller's view.  The internal mounts are never read-only, but the
 * caller's own /proc/sys or /sys may be: a container's (Docker mounts
 * them read-only) or a systemd service's with ProtectKernelTunables=.
 * A file opened for writing for a call must be writable in the views of
 * both the opener (its root when the connection was accepted, peer.c)
 * and the sender (its root now): the file's path in that view, "/proc/",
 * "/sys/" or "/sys/fs/cgroup/" and the name below its root, is walked
 * from the dcache alone, mount by mount (nothing is asked of the
 * caller's file systems, which may be a FUSE daemon's that never
 * answers; a directory not in the dcache has nothing mounted below it),
 * to the mount the caller's write(2) would go through.  A read-only one
 * is -EROFS, as write(2) says.  A view that does not reach a file system
 * of that type (nothing mounted there) is no view: a party in the
 * initial mount namespace without one (PID 1 before it mounts anything)
 * writes as its credentials allow, one in another mount namespace (or
 * whose process is gone) writes nothing: -EROFS.
 */
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/minmax.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/nsproxy.h>
#include <linux/path.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/stringhash.h>
#include <linux/workqueue.h>

#include "call.h"
#include "caller.h"
#include "compat.h"
#include "files.h"
#include "peer.h"

/* The longest name varlink_file_open() takes, in bytes */
#define VL_FILE_NAME_MAX	512
/* A handler's restart is tried again so often, after a pause of
 * VL_FILE_RESTART_MS doubled each time: 62 ms in all, at most
 */
#define VL_FILE_RESTARTS	5
#define VL_FILE_RESTART_MS	2

static const char *const fs_types[VARLINK_FS_COUNT] = {
	[VARLINK_PROC] = "proc",
	[VARLINK_SYSFS] = "sysfs",
	[VARLINK_CGROUP2] = "cgroup2",
};

static struct vfsmount *fs_mnts[VARLINK_FS_COUNT];
static const struct cred *files_cred;	/* what a NULL call acts as */

struct fs_mount_work {
	struct work_struct work;
	enum varlink_fs fs;
	struct vfsmount *mnt;
};

static void fs_mount_fn(struct work_struct *work)
{
	struct fs_mount_work *mw = container_of(work, struct fs_mount_work,
						work);
	struct file_system_type *type = get_fs_type(fs_types[mw->fs]);

	if (!type) {
		mw->mnt = ERR_PTR(-ENODEV);
		return;
	}
	mw->mnt = kern_mount(type);
	/* put_filesystem() is not exported; it is this */
	module_put(type->owner);
}

/* The internal mount of @fs, made now if it is not yet.  A caller may
 * run this in its own task (the fast path), which a client can keep off
 * the CPU: no lock is held that others would wait on.  Two first users
 * may both mount; the one that publishes second unmounts its own.
 */
static struct vfsmount *fs_mount(enum varlink_fs fs)
{
	struct fs_mount_work mw = { .fs = fs };
	struct vfsmount *mnt;

	if ((unsigned int)fs >= VARLINK_FS_COUNT)
		return ERR_PTR(-EINVAL);
	/* pairs with the release below: the mount is whole when seen */
	mnt = smp_load_acquire(&fs_mnts[fs]);
	if (mnt)
		return mnt;
	INIT_WORK_ONSTACK(&mw.work, fs_mount_fn);
	queue_work(system_unbound_wq, &mw.work);
	flush_work(&mw.work);
	destroy_work_on_stack(&mw.work);
	if (IS_ERR(mw.mnt))
		return mw.mnt;
	/* whole before it is seen: pairs with the acquire */
	mnt = cmpxchg_release(&fs_mnts[fs], NULL, mw.mnt);
	if (!mnt)
		return mw.mnt;
	kern_unmount(mw.mnt);	/* another made it first */
	return mnt;
}

static bool name_char_valid(char c)
{
	return isalnum(c) || c == '_' || c == '.' || c == ':' || c == '@' ||
	       c == '+' || c == '-' || c == '!';
}

/**
 * varlink_file_name_valid() - whether a name is one the file helpers take
 * @name: a path relative to the root of a &enum varlink_fs
 *
 * For a provider that must tell a client's bad name (InvalidParameter)
 * from a file that is not there before it opens anything: the rule of
 * varlink_file_open(), that its lookup applies anyway.
 *
 * Return: whether @name is relative, of components that are not empty,
 * "." or "..", made of ASCII letters, digits and "_.:@+!-" only, at most
 * 512 bytes in all.
 */
bool varlink_file_name_valid(const char *name)
{
	size_t len = 0, comp = 0;
	const char *p;

	for (p = name; ; p++) {
		if (*p == '/' || !*p) {
			if (!comp || (comp == 1 && p[-1] == '.') ||
			    (comp == 2 && p[-1] == '.' && p[-2] == '.'))
				return false;
			if (!*p)
				return true;
			comp = 0;
		} else if (!name_char_valid(*p) || ++comp > NAME_MAX) {
			return false;
		}
		if (++len > VL_FILE_NAME_MAX)
			return false;
	}
}
EXPORT_SYMBOL_GPL(varlink_file_name_valid);

/**
 * vl_errno_user() - an errno a user program knows, for one of the kernel's
 * @err: a negative errno, from a kernel function
 *
 * The errnos of include/linux/errno.h (512 and above) are the kernel's
 * own: a system call never returns them.  A restart (the system call
 * would have been tried again) is -EAGAIN, try again; the others are
 * what the system-call layer or the file systems make of them (NFSv3's
 * "not supported", 524, is -EOPNOTSUPP), and -EIO for any other.
 *
 * Return: @err, or the errno that stands for it.
 */
int vl_errno_user(int err)
{
	if (err > -ERESTARTSYS)
		return err;
	switch (-err) {
	case ERESTARTSYS:
	case ERESTARTNOINTR:
	case ERESTARTNOHAND:
	case ERESTART_RESTARTBLOCK:
	case EPROBE_DEFER:
	case EJUKEBOX:
	case ERECALLCONFLICT:
		return -EAGAIN;
	case ENOIOCTLCMD:
		return -ENOTTY;
	case EOPENSTALE:
	case EBADHANDLE:
		return -ESTALE;
	case ETOOSMALL - 1:	/* NFSv3's "not supported" */
		return -EOPNOTSUPP;
	case ENOPARAM:
	case EBADCOOKIE:
	case ETOOSMALL:
	case EBADTYPE:
		return -EINVAL;
	case ESERVERFAULT:
		return -EREMOTEIO;
	default:
		return -EIO;
	}
}

/**
 * vl_kthread_unsignal() - clear a kthread's spurious TIF_SIGPENDING
 *
 * A handler that asked for its system call to be restarted, where there
 * is none, left it set: in a kworker, every later work item would see
 * signal_pending().  recalc_sigpending() clears it unless a signal is
 * really pending.  Nothing is done in a user task (the caller's own, on
 * the inline path): its return to user space clears it, and delivers
 * what is pending.
 *
 * Context: process context.
 */
void vl_kthread_unsignal(void)
{
	struct sighand_struct *sighand;

	if (!(current->flags & PF_KTHREAD) || !signal_pending(current))
		return;
	/* a task's own sighand does not change under it */
	sighand = rcu_dereference_protected(current->sighand, true);
	spin_lock_irq(&sighand->siglock);
	recalc_sigpending();
	spin_unlock_irq(&sighand->siglock);
}

/**
 * vl_file_restart() - whether to try a file's operation again
 * @err: what it failed with
 * @n: the restarts so far, counted here
 *
 * Only a restart, so often, after a pause (see the top of files.c).
 *
 * Return: true to try again.
 */
bool vl_file_restart(long err, unsigned int *n)
{
	if (err != -ERESTARTSYS && err != -ERESTARTNOINTR &&
	    err != -ERESTARTNOHAND && err != -ERESTART_RESTARTBLOCK)
		return false;
	vl_kthread_unsignal();
	if (*n >= VL_FILE_RESTARTS || fatal_signal_pending(current))
		return false;
	msleep(VL_FILE_RESTART_MS << (*n)++);
	return true;
}

/* Where each mount's files are in a caller's view of the file system */
static const char *const fs_view_dirs[VARLINK_FS_COUNT] = {
	[VARLINK_PROC] = "proc",
	[VARLINK_SYSFS] = "sys",
	[VARLINK_CGROUP2] = "sys/fs/cgroup",
};

/* Cross the mounts stacked on @path: mounts only, never ->d_manage() */
static void view_cross(struct path *path)
{
	while (d_mountpoint(path->dentry) && follow_down_one(path))
		;
}

/* Go down @path by the components of @rel, of the dcache only, as far as
 * they are there and no symbolic link; crossing each mount on the way.
 * Only a file system's ->d_hash() and ->d_compare() run, which never
 * sleep.
 */
static void view_walk(struct path *path, const char *rel)
{
	const char *end;
	struct dentry *d;
	struct qstr q;

	view_cross(path);
	for (; *rel; rel = *end ? end + 1 : end) {
		end = strchrnul(rel, '/');
		/* as d_hash_and_lookup(), which 6.x had and 7.x does not */
		q = (struct qstr)QSTR_INIT(rel, end - rel);
		q.hash = full_name_hash(path->dentry, q.name, q.len);
		if ((path->dentry->d_flags & DCACHE_OP_HASH) &&
		    path->dentry->d_op->d_hash(path->dentry, &q) < 0)
			return;
		d = d_lookup(path->dentry, &q);
		if (!d)
			return;
		if (d_really_is_negative(d) || d_is_symlink(d)) {
			dput(d);
			return;
		}
		dput(path->dentry);
		path->dentry = d;
		view_cross(path);
	}
}

/**
 * view_writable() - whether a party's view lets it write a file
 * @root: the party's root directory, or an empty path if it has none
 * @init_mnt: whether it is in the initial mount namespace
 * @mnt: the internal mount the file is on
 * @fs: which one
 * @name: its path there, checked by varlink_file_name_valid()
 *
 * See "The caller's view" at the top.
 *
 * Return: 0, or -EROFS.
 */
static int view_writable(const struct path *root, bool init_mnt,
			 const struct vfsmount *mnt, enum varlink_fs fs,
			 const char *name)
{
	struct file_system_type *type = mnt->mnt_sb->s_type;
	struct path path;
	int err;

	if (!root->mnt)
		return init_mnt ? 0 : -EROFS;
	path = *root;
	path_get(&path);
	view_walk(&path, fs_view_dirs[fs]);
	if (path.mnt->mnt_sb->s_type == type)
		view_walk(&path, name);
	if (path.mnt->mnt_sb->s_type != type)
		err = init_mnt ? 0 : -EROFS;
	else
		err = __mnt_is_readonly(path.mnt) ? -EROFS : 0;
	path_put(&path);
	return err;
}

/* The root and mount namespace of @pid's process, from any of its
 * threads that has them; false once it has exited.
 */
static bool process_view(struct pid *pid, struct path *root, bool *init_mnt)
{
	struct task_struct *leader, *t;
	bool found = false;

	rcu_read_lock();
	leader = pid_task(pid, PIDTYPE_TGID);
	if (leader) {
		for_each_thread(leader, t) {
			task_lock(t);
			if (t->fs && t->nsproxy) {
				get_fs_root(t->fs, root);
				*init_mnt = t->nsproxy->mnt_ns ==
					    init_task.nsproxy->mnt_ns;
				found = true;
			}
			task_unlock(t);
			if (found)
				break;
		}
	}
	rcu_read_unlock();
	return found;
}

/* Whether @call's opener and sender may both write @name of @fs (on
 * @mnt), as their own views of the file system show it: 0, or -EROFS.
 */
static int call_view_writable(const struct varlink_call *call,
			      const struct vfsmount *mnt, enum varlink_fs fs,
			      const char *name)
{
	const struct vl_peer *peer = call->peer;
	struct path root;
	bool init_mnt;
	int err;

	err = view_writable(&peer->root, peer->init_ns & CLONE_NEWNS, mnt, fs,
			    name);
	if (err)
		return err;
	if (!call->sender_pid || !process_view(call->sender_pid, &root,
					       &init_mnt))
		return -EROFS;
	err = view_writable(&root, init_mnt, mnt, fs, name);
	path_put(&root);
	return err;
}

/* What the other party may do to the inode, as @cred */
static int permission_as(const struct cred *cred, const struct path *path,
			 int mask)
{
	const struct cred *old = override_creds(cred);
	int err = vl_inode_permission(path->mnt, d_inode(path->dentry), mask);

	revert_creds(old);
	return err;
}

/* Open @name on @fs as @cred, which must be allowed @flags' access,
 * and so must @other unless it is NULL; and, for writing, the views of
 * @call's parties allow it, unless @call is NULL.
 */
static struct file *open_as(const struct varlink_call *call,
			    const struct cred *cred, const struct cred *other,
			    enum varlink_fs fs, const char *name, int flags)
{
	unsigned int lookup = LOOKUP_NO_SYMLINKS | LOOKUP_NO_MAGICLINKS |
			      LOOKUP_NO_XDEV | LOOKUP_BENEATH;
	int acc = flags & O_ACCMODE;
	int mask = (acc != O_WRONLY ? MAY_READ : 0) |
		   (acc != O_RDONLY ? MAY_WRITE : 0);
	unsigned int restarts = 0;
	const struct cred *old;
	struct vfsmount *mnt;
	struct file *f;
	struct path path;
	int err;

	if (!varlink_file_name_valid(name) || acc == O_ACCMODE)
		return ERR_PTR(-EINVAL);
	mnt = fs_mount(fs);
	if (IS_ERR(mnt))
		return ERR_CAST(mnt);
	if (flags & O_DIRECTORY)
		lookup |= LOOKUP_DIRECTORY;

	/* the lookup checks @cred's search permission on the way */
	old = override_creds(cred);
	err = vfs_path_lookup(mnt->mnt_root, mnt, name, lookup, &path);
	revert_creds(old);
	if (err)
		return ERR_PTR(vl_errno_user(err));
	if (!(flags & O_DIRECTORY) && d_is_dir(path.dentry))
		err = -EISDIR;
	if (!err)
		err = permission_as(cred, &path, mask);
	if (!err && other)
		err = permission_as(other, &path, mask);
	if (!err && call && acc != O_RDONLY)
		err = call_view_writable(call, mnt, fs, name);
	if (err) {
		f = ERR_PTR(err);
	} else {
		/* as @cred: an ->open() may check the current task's */
		old = override_creds(cred);
		do {
			f = dentry_open(&path, (flags & (O_ACCMODE |
							 O_DIRECTORY)) |
					O_LARGEFILE, cred);
		} while (IS_ERR(f) && vl_file_restart(PTR_ERR(f), &restarts));
		revert_creds(old);
		if (IS_ERR(f))
			f = ERR_PTR(vl_errno_user(PTR_ERR(f)));
	}
	path_put(&path);
	return f;
}

/* The credentials to act as for @call, a reference, and in *@other the
 * party's that must be allowed too, or NULL.  As the kernel for NULL.
 */
static const struct cred *call_cred(const struct varlink_call *call,
				    const struct cred **other)
{
	*other = NULL;
	if (!call)
		return get_cred(files_cred);
	return vl_call_lesser_cred(call, other);
}

/**
 * varlink_file_open_cred() - open a file of an internal mount as somebody
 * @cred: the credentials to open it with, which become its f_cred
 * @fs: the mount
 * @name: the path relative to its root, e.g. "sys/kernel/ostype", checked
 *	as varlink_file_open() checks it
 * @flags: O_RDONLY, O_WRONLY or O_RDWR, and O_DIRECTORY for a directory
 *
 * For a provider that decides itself whose credentials a file is opened
 * with (a file whose f_cred the kernel judges later).  @cred must be
 * allowed the access by the file's permission.
 *
 * Context: process context, may sleep.
 * Return: the file (fput() it), or an ERR_PTR(): -EINVAL for a name
 * varlink_file_open() refuses, -ENOENT, -ELOOP for a symbolic link on
 * the way, -EISDIR, -ENOTDIR, -EACCES, -EPERM, or -ENODEV when the
 * kernel has no such file system.
 */
struct file *varlink_file_open_cred(const struct cred *cred,
				    enum varlink_fs fs, const char *name,
				    int flags)
{
	return open_as(NULL, cred, NULL, fs, name, flags);
}
EXPORT_SYMBOL_GPL(varlink_file_open_cred);

/**
 * varlink_file_open() - open a file of an internal mount as the caller
 * @call: the call, or NULL to open it as the kernel (for a world-readable
 *	file, or once the provider has checked the caller's permission)
 * @fs: the mount
 * @name: the path relative to its root, e.g. "sys/kernel/ostype"
 * @flags: O_RDONLY, O_WRONLY or O_RDWR, and O_DIRECTORY for a directory
 *
 * @name may come from a client: it must be relative, of components that
 * are not empty, "." or "..", made of ASCII letters, digits and
 * "_.:@+!-" only, at most 512 bytes in all; and it is looked up without
 * following a symbolic link anywhere, nor leaving the mount.
 *
 * The file is opened as the lesser of the connection's opener and the
 * call's sender, the one whose capabilities the other holds too, which
 * becomes its f_cred; the other must be allowed the access by
 * inode_permission() too.  A call without a sender, or whose two
 * credentials cannot be ordered so, gets -EACCES.  Opened for writing,
 * the file must be writable in both parties' own views of the file
 * system too: where the opener's or the sender's /proc, /sys or
 * /sys/fs/cgroup shows it on a read-only mount (a container's, a
 * service's with ProtectKernelTunables=), or, in a mount namespace other
 * than the initial one, does not show it at all, -EROFS (see the top of
 * files.c).  Reads and writes of the file run with the current task's
 * credentials: for /proc/sys, whose handlers check them, and whose
 * handlers may ask for a restart, use varlink_file_read() and
 * varlink_file_write().
 *
 * Context: process context, may sleep.
 * Return: the file (fput() it), or an ERR_PTR(), see
 * varlink_file_open_cred(); -EROFS for a write the caller's view
 * refuses.
 */
struct file *varlink_file_open(struct varlink_call *call, enum varlink_fs fs,
			       const char *name, int flags)
{
	const struct cred *cred, *other;
	struct file *f;

	cred = call_cred(call, &other);
	if (IS_ERR(cred))
		return ERR_CAST(cred);
	f = open_as(call, cred, other, fs, name, flags);
	put_cred(cred);
	return f;
}
EXPORT_SYMBOL_GPL(varlink_file_open);

/**
 * varlink_file_read() - read a file of an internal mount as the caller
 * @call: the call, or NULL to read as the kernel, see varlink_file_open()
 * @fs: the mount
 * @name: the path relative to its root, see varlink_file_open()
 * @buf: where to read it to
 * @size: bytes of @buf, the NUL that ends what is read included
 *
 * Opens @name read-only as varlink_file_open() does and reads it from its
 * start to its end, as the same credentials.  A read the file's handler
 * wants restarted (restart_syscall()) is tried again a few times, with a
 * pause between: see the top of files.c.
 *
 * Context: process context, may sleep.
 * Return: the bytes read, less than @size, with a NUL after them;
 * -EFBIG if the file holds @size - 1 bytes or more (@buf then holds the
 * first of them); an error of varlink_file_open(), or of the read:
 * -EAGAIN for a handler that still wanted a restart, never an errno of
 * the kernel's own (vl_errno_user()).
 */
ssize_t varlink_file_read(struct varlink_call *call, enum varlink_fs fs,
			  const char *name, char *buf, size_t size)
{
	const struct cred *cred, *other, *old;
	unsigned int restarts = 0;
	size_t len = 0;
	ssize_t n = 0;
	struct file *f;
	loff_t pos = 0;
	char c;

	if (!size)
		return -EINVAL;
	cred = call_cred(call, &other);
	if (IS_ERR(cred))
		return PTR_ERR(cred);
	f = open_as(call, cred, other, fs, name, O_RDONLY);
	if (IS_ERR(f)) {
		put_cred(cred);
		return PTR_ERR(f);
	}
	old = override_creds(cred);
	while (len < size - 1) {
		n = kernel_read(f, buf + len, size - 1 - len, &pos);
		if (n < 0 && vl_file_restart(n, &restarts))
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	/* full: is that all there is? */
	if (len == size - 1 && kernel_read(f, &c, 1, &pos) > 0)
		n = -EFBIG;
	vl_kthread_unsignal();
	revert_creds(old);
	fput(f);
	put_cred(cred);
	buf[len] = '\0';
	return n < 0 ? vl_errno_user(n) : len;
}
EXPORT_SYMBOL_GPL(varlink_file_read);

/**
 * varlink_file_read_alloc() - read a whole file of an internal mount into
 *	a buffer of its size
 * @call: the call, or NULL to read as the kernel, see varlink_file_read()
 * @fs: the mount
 * @name: the path relative to its root, see varlink_file_open()
 * @size: what the file most likely fits in, the size tried first
 * @max: the largest buffer to try, the NUL included
 * @len: set to the bytes read
 *
 * As varlink_file_read(), into a buffer that doubles from @size until the
 * file fits: it is not made larger than it needs to be, as kernels that
 * zero what they allocate (init_on_alloc) would zero it all.
 *
 * Context: process context, may sleep.
 * Return: the text, NUL-terminated, to be freed with kvfree(); or an
 * ERR_PTR(): -EFBIG for a file of @max - 1 bytes or more, or an error of
 * varlink_file_read().
 */
char *varlink_file_read_alloc(struct varlink_call *call, enum varlink_fs fs,
			      const char *name, size_t size, size_t max,
			      size_t *len)
{
	ssize_t n;
	char *buf;

	for (size = clamp(size, 2, max);; size = min(2 * size, max)) {
		buf = kvmalloc(size, GFP_KERNEL_ACCOUNT);
		if (!buf)
			return ERR_PTR(-ENOMEM);
		n = varlink_file_read(call, fs, name, buf, size);
		if (n >= 0) {
			*len = n;
			return buf;
		}
		kvfree(buf);
		if (n != -EFBIG || size >= max)
			return ERR_PTR(n);
	}
}
EXPORT_SYMBOL_GPL(varlink_file_read_alloc);

/**
 * varlink_file_write() - write a file of an internal mount as the caller
 * @call: the call, or NULL to write as the kernel, see varlink_file_open()
 * @fs: the mount
 * @name: the path relative to its root, see varlink_file_open()
 * @buf: what to write
 * @len: bytes of @buf
 *
 * Opens @name write-only as varlink_file_open() does (the caller's own
 * views of the file system must let it write there) and writes @buf at
 * its start, in one write, as the same credentials; a write the
 * handler wants restarted is tried again, as varlink_file_read() does.
 *
 * Context: process context, may sleep.
 * Return: 0; -EIO if the file took less than @len bytes; an error of
 * varlink_file_open() (-EROFS where the caller's view is read-only), or
 * of the write (-EAGAIN for one still restarted).
 */
int varlink_file_write(struct varlink_call *call, enum varlink_fs fs,
		       const char *name, const char *buf, size_t len)
{
	const struct cred *cred, *other, *old;
	unsigned int restarts = 0;
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	cred = call_cred(call, &other);
	if (IS_ERR(cred))
		return PTR_ERR(cred);
	f = open_as(call, cred, other, fs, name, O_WRONLY);
	if (IS_ERR(f)) {
		put_cred(cred);
		return PTR_ERR(f);
	}
	old = override_creds(cred);
	do {
		n = kernel_write(f, buf, len, &pos);
	} while (n < 0 && vl_file_restart(n, &restarts));
	vl_kthread_unsignal();
	revert_creds(old);
	fput(f);
	put_cred(cred);
	if (n < 0)
		return vl_errno_user(n);
	return n == len ? 0 : -EIO;
}
EXPORT_SYMBOL_GPL(varlink_file_write);

/**
 * vl_files_kernel_cred() - the credentials the core acts as the kernel with
 *
 * Return: the kernel's credentials (init_task's), while varlink.ko is
 * loaded.
 */
const struct cred *vl_files_kernel_cred(void)
{
	return files_cred;
}

int vl_files_init(void)
{
	files_cred = prepare_kernel_cred(&init_task);
	return files_cred ? 0 : -ENOMEM;
}

void vl_files_exit(void)
{
	int i;

	for (i = 0; i < VARLINK_FS_COUNT; i++)
		if (fs_mnts[i])
			kern_unmount(fs_mnts[i]);
	put_cred(files_cred);
}
