// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.device: the devices of sysfs and their uevents, the kernel
 * half of udev: enumeration, the uevent netlink socket, and coldplug.
 *
 * Devices.  A device is a directory under /sys/devices that holds a
 * "uevent" file; its syspath is that directory's path from the root of
 * sysfs, as uevents name it (DEVPATH).  List walks "devices" of the
 * core's sysfs mount depth first; the class and bus directories are
 * symbolic links into it, which are not followed, and every device is
 * found once there.  "devices" is opened as the caller
 * (varlink_file_open(): a call whose opener and sender cannot be
 * compared is refused there); below it, each directory is looked up in
 * its parent's open file, one component at a time, and opened and read
 * as the kernel: every sysfs directory is 0755 and every uevent file
 * 0644, so the caller may read them all, and a walk that opened each by
 * its whole path from the root of the mount, as the caller, took 45
 * times as long as userspace's.  Get and Trigger go through the core's
 * file helpers as the caller.  Each device's properties are the
 * KEY=VALUE lines of its uevent file.  Its "subsystem" is the name of
 * the target of its symbolic link "subsystem": the link itself, one fixed
 * component below the open directory, is looked up there without
 * following it and read with vfs_get_link().  Its "driver" is DRIVER of
 * its uevent file, which dev_uevent() writes whenever a driver is bound:
 * the name its "driver" link points to, read with the file.
 *
 * Namespaces.  The core's sysfs is that of the initial network
 * namespace, and shows its net devices only.  A caller in another
 * network namespace sees what a sysfs mounted there would show: every
 * device but those net devices, plus the net devices of its own
 * namespace, built from the kernel's struct net_device (the properties
 * their uevent file would hold: DEVTYPE, INTERFACE, IFINDEX).
 *
 * Monitor opens, per stream, a NETLINK_KOBJECT_UEVENT socket in the
 * caller's network namespace bound to the kernel's group, as udev does:
 * it gets exactly what such a socket of the caller would get (in a
 * namespace owned by a user namespace other than the initial one, the
 * kernel sends only that namespace's own net devices' events).  Its
 * sk_data_ready queues the stream's work item on vdev_wq; the work
 * item sends the replies, waiting with varlink_reply_wait() before each,
 * and returns when the socket is empty, so an idle stream holds no
 * worker.  A replay subscribes first, then walks the devices as List
 * does ("exists"), then sends what the socket queued meanwhile: nothing
 * falls between the two.  An overflow of the socket's buffer (ENOBUFS)
 * ends the stream with EventsLost.
 *
 * Lifetime, as in log.c: a stream is on vdev_streams, under
 * vdev_lock, from the call until its final reply.  Only its work item
 * replies and ends it; the cancel callback (the client hung up, or the
 * interface is going away) and module exit set a flag and queue the work.
 * The cancel callback gets the stream's id, not a pointer.  vdev_lock is
 * never held across a call into the core.  The socket is released before
 * the final reply, while the connection still holds the namespace.
 */
#include <linux/capability.h>
#include <linux/ctype.h>
#include <linux/dcache.h>
#include <linux/delayed_call.h>
#include <linux/errno.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/kstrtox.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/net.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/path.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <linux/uio.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <linux/varlink.h>

#include "../compat.h"

#define DEVICE_ERR(name)	"org.kernel.device." name

/* The longest path the core's file helpers take (files.c) */
#define DEVICE_PATH_MAX		512
/* Directory levels below "devices" that List walks */
#define DEVICE_DEPTH_MAX	32
/* Directories a walk lists at most, and bytes of subdirectory names it
 * keeps for one directory
 */
#define DEVICE_DIRS_MAX		BIT(20)
#define DEVICE_NAMES_MAX	(4 << 20)
/* KEY=VALUE pairs of one device or event that are kept */
#define DEVICE_PROPS_MAX	128
/* A uevent file holds at most a page (a sysfs attribute) */
#define DEVICE_UEVENT_SIZE	(PAGE_SIZE + 1)
/* A uevent message: the kernel's are at most 2048 bytes of environment
 * (UEVENT_BUFFER_SIZE) after "ACTION@DEVPATH"
 */
#define DEVICE_MSG_SIZE		8192
/* Monitor's subsystems: how many, and the longest name */
#define DEVICE_FILTER_MAX	64
#define DEVICE_NAME_MAX		64
/* Net devices of one namespace that a walk lists */
#define DEVICE_NETDEVS_MAX	65536

static unsigned int monitor_buffer = 4 << 20;
module_param(monitor_buffer, uint, 0444);
MODULE_PARM_DESC(monitor_buffer,
		 "Receive buffer of each Monitor stream's uevent socket, in bytes (64 KiB-256 MiB, default 4 MiB; without CAP_NET_ADMIN, at most twice net.core.rmem_max)");

static const char vdev_idl[] =
"# The devices of the system as sysfs shows them in the caller's network\n"
"# namespace, their uevents as the caller's uevent netlink socket gets\n"
"# them, and synthetic uevents (coldplug): the kernel half of udev.\n"
"interface org.kernel.device\n"
"\n"
"# A device: a directory of /sys/devices that holds a \"uevent\" file.\n"
"type Device (\n"
"  # Its path from the root of sysfs, as uevents name it (DEVPATH), e.g.\n"
"  # \"/devices/virtual/mem/null\".\n"
"  syspath: string,\n"
"  # The name of its subsystem (its class or bus: the target of its\n"
"  # \"subsystem\" link, or SUBSYSTEM of an event), e.g. \"mem\"; null if it\n"
"  # has none.\n"
"  subsystem: ?string,\n"
"  # DEVTYPE, e.g. \"disk\" or \"partition\"; null if it has none.\n"
"  devtype: ?string,\n"
"  # The driver bound to it: DRIVER of its uevent, the name its \"driver\"\n"
"  # link points to; null if none is bound.\n"
"  driver: ?string,\n"
"  # DEVNAME, the node devtmpfs makes under /dev, e.g. \"null\" or\n"
"  # \"input/event0\"; null if it has none.\n"
"  devname: ?string,\n"
"  # Its device number from MAJOR and MINOR: \"b\" for a block device (of\n"
"  # subsystem \"block\"), else \"c\", then major:minor, e.g. \"c1:3\",\n"
"  # \"b254:0\"; null if it has none.\n"
"  devnum: ?string,\n"
"  # IFINDEX of a network interface; null for other devices.\n"
"  ifindex: ?int,\n"
"  # Every KEY=VALUE of its uevent file (of an event: of the event, with\n"
"  # ACTION, DEVPATH, SUBSYSTEM and SEQNUM).  Bytes that are not UTF-8\n"
"  # become U+FFFD.\n"
"  properties: [string]string\n"
")\n"
"\n"
"# A uevent.\n"
"type Event (\n"
"  # ACTION: \"add\", \"remove\", \"change\", \"move\", \"online\", \"offline\",\n"
"  # \"bind\", \"unbind\"; \"exists\" for a device of a replay.\n"
"  action: string,\n"
"  # SEQNUM, the kernel's uevent sequence number; null in a replay.\n"
"  seqnum: ?int,\n"
"  # The device, as the event describes it.\n"
"  device: Device\n"
")\n"
"\n"
"# List the devices, one per reply; call it with \"more\", else\n"
"# org.varlink.service.ExpectedMore.  The devices are those of /sys/devices\n"
"# (read as the caller), in the order of a depth-first walk; a caller in\n"
"# a network namespace other than the initial one sees the net devices of\n"
"# its own namespace instead of the host's, as a sysfs mounted there\n"
"# would show.  \"subsystem\" keeps only the devices of that subsystem.\n"
"# The replies are paced: the server sends each once the client has read\n"
"# most of those before.  An empty list is one reply without device.\n"
"# Each call counts against the server's stream quotas\n"
"# (org.kernel.varlink.TooManyStreams).\n"
"method List(subsystem: ?string) -> (device: ?Device)\n"
"\n"
"# Describe one device, by syspath (\"/devices/...\"), by device number\n"
"# (\"c1:3\", \"b254:0\", as /sys/dev/char and /sys/dev/block name them) or\n"
"# by the index of a network interface of the caller's network namespace.\n"
"# Give exactly one of the three, else org.varlink.service.InvalidParameter\n"
"# names the first one too many, or \"syspath\" if none is given.  A\n"
"# syspath that is not \"/devices/\" and components of [A-Za-z0-9_.:@+-]\n"
"# (no \".\" or \"..\"), at most 500 bytes, or a devnum of another form, is\n"
"# an invalid parameter.\n"
"method Get(syspath: ?string, devnum: ?string, ifindex: ?int) -> (device: Device)\n"
"\n"
"# Stream the uevents the caller's network namespace gets, one reply each;\n"
"# call it with \"more\", else org.varlink.service.ExpectedMore.  In a\n"
"# namespace owned by the initial user namespace these are the events of\n"
"# every device but the net devices of other namespaces; in one owned by\n"
"# another user namespace (a container's), those of its own net devices\n"
"# only.  \"subsystems\" keeps only the events of those subsystems.  With\n"
"# \"replay\", every device List would send comes first, with action\n"
"# \"exists\", then the live events: none is lost between the two (one may\n"
"# be told twice: de-duplicate by syspath and seqnum).  The stream goes on\n"
"# until the client hangs up; it ends with EventsLost when the client read\n"
"# too slowly and the kernel dropped events, and with MonitorEnded when\n"
"# the interface goes away.  Each call counts against the server's stream\n"
"# quotas (org.kernel.varlink.TooManyStreams).  At most 64 subsystems.\n"
"method Monitor(subsystems: ?[]string, replay: ?bool) -> (event: Event)\n"
"\n"
"# Make the kernel send a uevent for a device, as writing \"action\" to its\n"
"# uevent file does (udevadm trigger): \"add\", \"remove\", \"change\",\n"
"# \"move\", \"online\", \"offline\", \"bind\" or \"unbind\".  It needs the\n"
"# write permission of that file and CAP_SYS_ADMIN in the initial user\n"
"# namespace, both for the connection's opener and the call's sender;\n"
"# else org.varlink.service.PermissionDenied.  Where the /sys of either\n"
"# is read-only (a container's, a service's with ProtectKernelTunables=),\n"
"# or, outside the initial mount namespace, is not mounted at all, it is\n"
"# org.kernel.varlink.SystemError errno 30 (EROFS), as write(2) there.\n"
"# Net devices of a network namespace other than the initial one are not\n"
"# found (DeviceNotFound).\n"
"method Trigger(syspath: string, action: string) -> ()\n"
"\n"
"# No device has the syspath, devnum or ifindex given.\n"
"error DeviceNotFound ()\n"
"\n"
"# The end of a Monitor stream: the kernel dropped events for it (its\n"
"# socket's buffer overflowed).  Start again with \"replay\".\n"
"error EventsLost ()\n"
"\n"
"# The end of a Monitor stream: the interface is going away (its module is\n"
"# unloaded).\n"
"error MonitorEnded ()\n";

/**
 * struct vdev_level - a directory of a walk being visited
 * @names: its subdirectories' names, each followed by a NUL
 * @len: bytes of @names
 * @pos: the offset of the next name to visit
 * @plen: the length of the directory's path
 * @dir: the directory, open
 * @device: the directory is a device's (it holds a uevent file)
 */
struct vdev_level {
	char *names;
	size_t len;
	size_t pos;
	size_t plen;
	struct file *dir;
	bool device;
};

/**
 * struct vdev_ctx - what one call or stream works with
 * @call: the call
 * @net: varlink_call_net() of @call
 * @path: the relative path of the current directory of a walk
 * @lv: the directories from "devices" to the current one
 * @depth: index of the current one in @lv, -1 when the walk is done
 * @dirs: directories listed
 * @names: the subdirectories of the directory being listed
 * @names_len: bytes of @names
 * @names_size: bytes allocated for @names
 * @has_uevent: the directory being listed holds a "uevent" file
 * @list_err: an allocation failed while listing
 * @want: for a walk, whether the devices of a subsystem are wanted (NULL:
 *	all of them); the walk reads no further and yields none of the others
 * @want_data: for @want
 * @netdevs: the ifindexes of the net devices of @net, for a walk outside
 *	the initial network namespace
 * @n_netdevs: entries in @netdevs
 * @next_netdev: the next of them to send
 * @buf: the uevent file or message being described
 * @n: entries of @key and @val
 * @key: the properties' keys, in @buf
 * @val: their values, in @buf
 * @subsystem: the device's subsystem
 * @syspath: the device's syspath (DEVICE_PATH_MAX + 2)
 */
struct vdev_ctx {
	struct varlink_call *call;
	struct net *net;
	char path[DEVICE_PATH_MAX + 1];
	struct vdev_level lv[DEVICE_DEPTH_MAX];
	int depth;
	unsigned int dirs;
	char *names;
	size_t names_len;
	size_t names_size;
	bool has_uevent;
	bool list_err;
	bool (*want)(const void *data, const char *subsystem);
	const void *want_data;
	int *netdevs;
	unsigned int n_netdevs;
	unsigned int next_netdev;
	char *buf;
	unsigned int n;
	const char *key[DEVICE_PROPS_MAX];
	const char *val[DEVICE_PROPS_MAX];
	char subsystem[DEVICE_NAME_MAX];
	char syspath[DEVICE_PATH_MAX + 2];
};

static struct vdev_ctx *vdev_ctx_new(struct varlink_call *call)
{
	struct vdev_ctx *c = kzalloc(sizeof(*c), GFP_KERNEL_ACCOUNT);

	if (!c)
		return NULL;
	c->buf = kmalloc(max_t(size_t, DEVICE_UEVENT_SIZE, DEVICE_MSG_SIZE),
			 GFP_KERNEL_ACCOUNT);
	if (!c->buf) {
		kfree(c);
		return NULL;
	}
	c->call = call;
	c->net = varlink_call_net(call);
	c->depth = -1;
	return c;
}

static void vdev_walk_free(struct vdev_ctx *c)
{
	for (; c->depth >= 0; c->depth--) {
		kfree(c->lv[c->depth].names);
		if (c->lv[c->depth].dir)
			fput(c->lv[c->depth].dir);
	}
	kfree(c->names);
	c->names = NULL;
	kvfree(c->netdevs);
	c->netdevs = NULL;
}

static void vdev_ctx_free(struct vdev_ctx *c)
{
	if (!c)
		return;
	vdev_walk_free(c);
	kfree(c->buf);
	kfree(c);
}

/* A key as the kernel makes them: an injected event's may be anything,
 * which could not be told apart once made UTF-8 (U+FFFD).
 */
static bool vdev_key_ok(const char *key)
{
	for (; *key; key++)
		if (!isalnum(*key) && *key != '_' && *key != '-' && *key != '.')
			return false;
	return true;
}

/* Split @len bytes of @buf into KEY=VALUE properties, at each @sep. */
static void vdev_parse(struct vdev_ctx *c, char *buf, size_t len, char sep)
{
	char *p = buf, *end = buf + len, *next, *eq;
	unsigned int i;

	c->n = 0;
	for (; p < end; p = next) {
		next = memchr(p, sep, end - p);
		if (!next)
			next = end;
		*next++ = '\0';
		eq = strchr(p, '=');
		if (!eq || eq == p)
			continue;
		*eq = '\0';
		if (!vdev_key_ok(p))
			continue;
		for (i = 0; i < c->n; i++)
			if (!strcmp(c->key[i], p))
				break;
		if (i < c->n || c->n >= DEVICE_PROPS_MAX)
			continue;	/* the first of a key counts */
		c->key[c->n] = p;
		c->val[c->n++] = eq + 1;
	}
}

static const char *vdev_prop(const struct vdev_ctx *c, const char *key)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->key[i], key))
			return c->val[i];
	return NULL;
}

/* Write the Device of @c under @key: @syspath, @subsystem (or
 * NULL) and the properties parsed into @c.
 */
static void vdev_put(struct vdev_ctx *c, const char *key,
		     const char *syspath, const char *subsystem)
{
	struct varlink_call *call = c->call;
	const char *major = vdev_prop(c, "MAJOR");
	const char *minor = vdev_prop(c, "MINOR");
	const char *ifindex = vdev_prop(c, "IFINDEX");
	const char *s;
	unsigned int maj, min;
	char devnum[32];
	int index;
	unsigned int i;

	varlink_open_object(call, key);
	varlink_put_str(call, "syspath", syspath);
	if (subsystem && *subsystem)
		varlink_put_str(call, "subsystem", subsystem);
	s = vdev_prop(c, "DEVTYPE");
	if (s)
		varlink_put_str(call, "devtype", s);
	s = vdev_prop(c, "DRIVER");
	if (s)
		varlink_put_str(call, "driver", s);
	s = vdev_prop(c, "DEVNAME");
	if (s)
		varlink_put_str(call, "devname", s);
	if (major && minor && !kstrtouint(major, 10, &maj) &&
	    !kstrtouint(minor, 10, &min)) {
		snprintf(devnum, sizeof(devnum), "%c%u:%u",
			 subsystem && !strcmp(subsystem, "block") ? 'b' : 'c',
			 maj, min);
		varlink_put_str(call, "devnum", devnum);
	}
	if (ifindex && !kstrtoint(ifindex, 10, &index) && index > 0)
		varlink_put_s64(call, "ifindex", index);
	varlink_open_object(call, "properties");
	for (i = 0; i < c->n; i++)
		varlink_put_str(call, c->key[i], c->val[i]);
	varlink_close_object(call);
	varlink_close_object(call);
}

/* The last component of the target of the symbolic link @name in the
 * directory @dir into @out (DEVICE_NAME_MAX bytes), or "" if there is no
 * such link.  @name is a constant: one component, which cannot leave
 * @dir.
 */
static void vdev_link_name(struct file *dir, const char *name, char *out)
{
	DEFINE_DELAYED_CALL(done);
	const char *target, *base;
	struct path path;

	out[0] = '\0';
	if (vfs_path_lookup(dir->f_path.dentry, dir->f_path.mnt, name, 0,
			    &path))
		return;
	if (d_is_symlink(path.dentry)) {
		target = vfs_get_link(path.dentry, &done);
		if (!IS_ERR(target)) {
			base = strrchr(target, '/');
			strscpy(out, base ? base + 1 : target, DEVICE_NAME_MAX);
		}
		do_delayed_call(&done);
	}
	path_put(&path);
}

/* Read the device at @rel (a path relative to sysfs, "devices/...") as
 * the caller: its subsystem link into @c->subsystem, its uevent file
 * parsed into @c.  Return: 0, -ENOENT if it is no device, or an
 * error of the core's file helpers.
 */
static int vdev_read(struct vdev_ctx *c, const char *rel)
{
	char *name = c->syspath;	/* scratch until the caller sets it */
	struct file *dir;
	ssize_t len;

	dir = varlink_file_open(c->call, VARLINK_SYSFS, rel,
				O_RDONLY | O_DIRECTORY);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	vdev_link_name(dir, "subsystem", c->subsystem);
	fput(dir);

	if (snprintf(name, sizeof(c->syspath), "%s/uevent", rel) >=
	    sizeof(c->syspath))
		return -ENAMETOOLONG;
	len = varlink_file_read(c->call, VARLINK_SYSFS, name, c->buf,
				DEVICE_UEVENT_SIZE);
	if (len < 0)
		return len == -EFBIG ? -EIO : len;
	vdev_parse(c, c->buf, len, '\n');
	return 0;
}

/* A net device of @c->net by index: its uevent's properties built into
 * @c, its syspath into @c->syspath.  Return: 0, or -ENOENT.
 */
static int vdev_netdev(struct vdev_ctx *c, int ifindex)
{
	struct net_device *dev;
	const char *devtype = NULL;
	char name[IFNAMSIZ];
	char *path;
	int len = 0;

	dev = dev_get_by_index(c->net, ifindex);
	if (!dev)
		return -ENOENT;
	if (dev->reg_state != NETREG_REGISTERED) {
		dev_put(dev);
		return -ENOENT;
	}
	path = kobject_get_path(&dev->dev.kobj, GFP_KERNEL);
	rcu_read_lock();
	strscpy(name, dev->name, sizeof(name));
	rcu_read_unlock();
	if (dev->dev.type && dev->dev.type->name)
		devtype = dev->dev.type->name;
	/* the order of dev_uevent(), then net_uevent() */
	if (devtype)
		len = scnprintf(c->buf, DEVICE_UEVENT_SIZE, "DEVTYPE=%s\n",
				devtype);
	len += scnprintf(c->buf + len, DEVICE_UEVENT_SIZE - len,
			 "INTERFACE=%s\nIFINDEX=%d\n", name, dev->ifindex);
	dev_put(dev);
	if (!path)
		return -ENOMEM;
	strscpy(c->syspath, path, sizeof(c->syspath));
	kfree(path);
	strscpy(c->subsystem, "net", sizeof(c->subsystem));
	vdev_parse(c, c->buf, len, '\n');
	return 0;
}

/* Collect the ifindexes of @c->net's net devices into @c->netdevs. */
static int vdev_netdevs(struct vdev_ctx *c)
{
	struct net_device *dev;
	unsigned int n = 0, max = 0;
	int tries;

	for (tries = 0; tries < 3; tries++) {
		max = n + 16;
		if (max > DEVICE_NETDEVS_MAX)
			return -E2BIG;
		kvfree(c->netdevs);
		c->netdevs = kvmalloc_array(max, sizeof(int), GFP_KERNEL_ACCOUNT);
		if (!c->netdevs)
			return -ENOMEM;
		n = 0;
		rcu_read_lock();
		for_each_netdev_rcu(c->net, dev) {
			if (n < max)
				c->netdevs[n] = dev->ifindex;
			n++;
		}
		rcu_read_unlock();
		if (n <= max)
			break;
	}
	c->n_netdevs = min(n, max);
	c->next_netdev = 0;
	return 0;
}

static bool vdev_list_actor(void *data, const char *name, unsigned int len,
			    unsigned int d_type)
{
	struct vdev_ctx *c = data;
	size_t size;
	char *p;

	if (d_type == DT_REG && len == 6 && !memcmp(name, "uevent", 6)) {
		c->has_uevent = true;
		return true;
	}
	if (d_type != DT_DIR)
		return true;
	if (c->names_len + len + 1 > c->names_size) {
		size = max_t(size_t, 256, 2 * (c->names_len + len + 1));
		if (size > DEVICE_NAMES_MAX) {
			c->list_err = true;
			return false;
		}
		p = krealloc(c->names, size, GFP_KERNEL_ACCOUNT);
		if (!p) {
			c->list_err = true;
			return false;
		}
		c->names = p;
		c->names_size = size;
	}
	memcpy(c->names + c->names_len, name, len);
	c->names[c->names_len + len] = '\0';
	c->names_len += len + 1;
	return true;
}

struct vdev_dir_ctx {
	struct dir_context ctx;
	struct vdev_ctx *c;
};

static bool vdev_filldir(struct dir_context *ctx, const char *name, int len,
			 loff_t off, u64 ino, unsigned int d_type)
{
	struct vdev_dir_ctx *dc = container_of(ctx, struct vdev_dir_ctx, ctx);

	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return true;
	return vdev_list_actor(dc->c, name, len, d_type);
}

/* List the open directory @dir into @c->names. */
static int vdev_list_dir(struct vdev_ctx *c, struct file *dir)
{
	struct vdev_dir_ctx dc = {
		.ctx.actor = vdev_filldir,
		.c = c,
	};
	int err;

	c->names = NULL;
	c->names_len = 0;
	c->names_size = 0;
	c->has_uevent = false;
	c->list_err = false;
	if (++c->dirs > DEVICE_DIRS_MAX)
		return -E2BIG;
	err = iterate_dir(dir, &dc.ctx);
	if (!err && c->list_err)
		err = -ENOMEM;
	if (err) {
		kfree(c->names);
		c->names = NULL;
	}
	return err;
}

/* Open @name, one component, in the open directory @dir, as the kernel:
 * a directory with O_DIRECTORY in @flags, else a regular file.
 */
static struct file *vdev_open_at(struct file *dir, const char *name,
				 int flags)
{
	struct path path;
	struct file *f;
	int err;

	err = vfs_path_lookup(dir->f_path.dentry, dir->f_path.mnt, name, 0,
			      &path);
	if (err)
		return ERR_PTR(err);
	if ((flags & O_DIRECTORY) ? !d_is_dir(path.dentry) :
				    !d_is_reg(path.dentry))
		f = ERR_PTR(-ENOENT);
	else
		f = dentry_open(&path, flags | O_LARGEFILE, current_cred());
	path_put(&path);
	return f;
}

/* Read the device whose directory is open as @dir: as vdev_read(). */
static int vdev_read_at(struct vdev_ctx *c, struct file *dir)
{
	struct file *f;
	size_t len = 0;
	loff_t pos = 0;
	ssize_t n;

	vdev_link_name(dir, "subsystem", c->subsystem);
	if (c->want && !c->want(c->want_data, c->subsystem))
		return -ENOENT;
	f = vdev_open_at(dir, "uevent", O_RDONLY);
	if (IS_ERR(f))
		return PTR_ERR(f);
	while (len < DEVICE_UEVENT_SIZE - 1) {
		n = kernel_read(f, c->buf + len, DEVICE_UEVENT_SIZE - 1 - len,
				&pos);
		if (n <= 0)
			break;
		len += n;
	}
	fput(f);
	vdev_parse(c, c->buf, len, '\n');
	return 0;
}

/* Start a walk: open and list "devices" as the caller. */
static int vdev_walk_start(struct vdev_ctx *c)
{
	struct file *dir;
	int err;

	strscpy(c->path, "devices", sizeof(c->path));
	c->dirs = 0;
	dir = varlink_file_open(c->call, VARLINK_SYSFS, c->path,
				O_RDONLY | O_DIRECTORY);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	err = vdev_list_dir(c, dir);
	if (err) {
		fput(dir);
		return err;
	}
	c->lv[0] = (struct vdev_level){
		.names = c->names, .len = c->names_len, .plen = strlen(c->path),
		.dir = dir,
	};
	c->names = NULL;
	c->depth = 0;
	if (!net_eq(c->net, &init_net))
		return vdev_netdevs(c);
	return 0;
}

/* The next device of a walk, of a subsystem @c->want wants: 1 with it
 * read into @c (@c->syspath set), 0 at the end, or a negative errno.
 * Devices that vanish meanwhile are left out.
 */
static int vdev_walk_next(struct vdev_ctx *c)
{
	struct vdev_level *l;
	const char *name;
	struct file *dir;
	bool pushed;
	size_t nlen;
	int err;

	while (c->depth >= 0) {
		l = &c->lv[c->depth];
		if (l->pos >= l->len) {
			kfree(l->names);
			l->names = NULL;
			fput(l->dir);
			l->dir = NULL;
			c->depth--;
			continue;
		}
		name = l->names + l->pos;
		nlen = strlen(name);
		l->pos += nlen + 1;
		if (l->plen + 1 + nlen >= sizeof(c->path))
			continue;
		/* with CONFIG_PM, every device has the attribute group "power"
		 * (dpm_sysfs_add() in device_add()), so no child of that name
		 */
		if (IS_ENABLED(CONFIG_PM) && l->device && !strcmp(name, "power"))
			continue;
		dir = vdev_open_at(l->dir, name, O_RDONLY | O_DIRECTORY);
		if (IS_ERR(dir)) {
			if (PTR_ERR(dir) == -ENOMEM)
				return -ENOMEM;
			continue;	/* gone meanwhile */
		}
		c->path[l->plen] = '/';
		memcpy(c->path + l->plen + 1, name, nlen + 1);
		err = vdev_list_dir(c, dir);
		if (err) {
			fput(dir);
			if (err == -ENOMEM || err == -E2BIG)
				return err;
			continue;
		}
		pushed = c->depth + 1 < DEVICE_DEPTH_MAX;
		if (pushed) {
			c->depth++;
			c->lv[c->depth] = (struct vdev_level){
				.names = c->names, .len = c->names_len,
				.plen = strlen(c->path), .dir = dir,
				.device = c->has_uevent,
			};
		} else {
			kfree(c->names);
		}
		c->names = NULL;
		err = c->has_uevent ? vdev_read_at(c, dir) : -ENOENT;
		if (!pushed)
			fput(dir);
		if (err == -ENOMEM)
			return err;
		if (err)
			continue;
		/* the host's net devices are not the caller's */
		if (!net_eq(c->net, &init_net) && !strcmp(c->subsystem, "net"))
			continue;
		snprintf(c->syspath, sizeof(c->syspath), "/%s", c->path);
		return 1;
	}
	/* then, outside the initial namespace, the caller's net devices */
	if (c->want && !c->want(c->want_data, "net"))
		return 0;
	while (c->netdevs && c->next_netdev < c->n_netdevs) {
		if (!vdev_netdev(c, c->netdevs[c->next_netdev++]))
			return 1;
	}
	return 0;
}

struct vdev_list_params {
	const char *subsystem;
};

static const struct varlink_param vdev_list_params[] = {
	VARLINK_PARAM("subsystem", VARLINK_STRING, struct vdev_list_params,
		      subsystem),
};

static bool vdev_list_wants(const void *data, const char *subsystem)
{
	return !strcmp(data, subsystem);
}

/* List(subsystem: ?string) -> (device: ?Device) */
static int vdev_list(struct varlink_call *call, const void *params)
{
	const struct vdev_list_params *p = params;
	struct vdev_ctx *c;
	bool pending = false;
	int err;

	if (!varlink_call_more(call))
		return varlink_error(call, "org.varlink.service.ExpectedMore");
	c = vdev_ctx_new(call);
	if (!c)
		return -ENOMEM;
	if (p->subsystem) {
		c->want = vdev_list_wants;
		c->want_data = p->subsystem;
	}
	err = vdev_walk_start(c);
	while (!err) {
		err = vdev_walk_next(c);
		if (err <= 0)
			break;
		err = 0;
		if (pending) {
			err = varlink_reply_wait(call);
			if (!err)
				err = varlink_reply_continues(call);
			if (err) {
				/* the client is gone: the written reply ends it */
				vdev_ctx_free(c);
				varlink_reply(call);
				return 0;
			}
		}
		vdev_put(c, "device", c->syspath, c->subsystem);
		pending = true;
	}
	vdev_ctx_free(c);
	if (err && pending && !varlink_reply_continues(call))
		pending = false;
	if (err && !pending)
		return err;
	varlink_reply(call);
	return 0;
}

/* A syspath from a client into the relative path @rel ("devices/..."):
 * 0, or -EINVAL.
 */
static int vdev_syspath(const char *syspath, char *rel, size_t size)
{
	size_t comp = 0;
	const char *p;

	if (strncmp(syspath, "/devices/", 9) || strlen(syspath) >= size ||
	    strlen(syspath) > 500)
		return -EINVAL;
	/* components as the core takes them: see varlink_file_open() */
	for (p = syspath + 1; ; p++) {
		if (*p == '/' || !*p) {
			if (!comp || (comp == 1 && p[-1] == '.') ||
			    (comp == 2 && p[-1] == '.' && p[-2] == '.'))
				return -EINVAL;
			if (!*p)
				break;
			comp = 0;
		} else {
			if (!isalnum(*p) && !strchr("_.:@+-", *p))
				return -EINVAL;
			comp++;
		}
	}
	strscpy(rel, syspath + 1, size);
	return 0;
}

/* Find the net device of @c->net whose syspath is "/" @c->path into @c. */
static int vdev_netdev_by_path(struct vdev_ctx *c)
{
	unsigned int i;
	int err;

	err = vdev_netdevs(c);
	if (err)
		return err;
	for (i = 0; i < c->n_netdevs; i++)
		if (!vdev_netdev(c, c->netdevs[i]) &&
		    !strcmp(c->syspath + 1, c->path))
			return 0;
	return -ENOENT;
}

/* Read the device @c->path (relative) as Get does; @c->syspath set. */
static int vdev_get_path(struct vdev_ctx *c)
{
	int err;

	if (!net_eq(c->net, &init_net) && !vdev_netdev_by_path(c))
		return 0;
	err = vdev_read(c, c->path);
	if (err)
		return err;
	if (!net_eq(c->net, &init_net) && !strcmp(c->subsystem, "net"))
		return -ENOENT;
	snprintf(c->syspath, sizeof(c->syspath), "/%s", c->path);
	return 0;
}

/* Resolve the link @name in the directory @dir ("dev/char") into
 * @c->path, relative to the root of sysfs.
 */
static int vdev_resolve(struct vdev_ctx *c, const char *dir,
			const char *name)
{
	DEFINE_DELAYED_CALL(done);
	const char *target, *t;
	struct file *f;
	struct path path;
	size_t len;
	int err;

	f = varlink_file_open(c->call, VARLINK_SYSFS, dir,
			      O_RDONLY | O_DIRECTORY);
	if (IS_ERR(f))
		return PTR_ERR(f);
	err = vfs_path_lookup(f->f_path.dentry, f->f_path.mnt, name, 0, &path);
	fput(f);
	if (err)
		return err;
	if (!d_is_symlink(path.dentry)) {
		path_put(&path);
		return -ENOENT;
	}
	strscpy(c->path, dir, sizeof(c->path));
	target = vfs_get_link(path.dentry, &done);
	err = PTR_ERR_OR_ZERO(target);
	for (t = target; !err && *t; ) {
		len = strcspn(t, "/");
		if (len == 2 && t[0] == '.' && t[1] == '.') {
			char *slash = strrchr(c->path, '/');

			if (!c->path[0]) {
				err = -ENOENT;	/* above the root */
				break;
			}
			if (slash)
				*slash = '\0';
			else
				c->path[0] = '\0';
		} else if (len && !(len == 1 && t[0] == '.')) {
			size_t plen = strlen(c->path);

			if (plen + 1 + len >= sizeof(c->path)) {
				err = -ENAMETOOLONG;
				break;
			}
			if (plen)
				c->path[plen++] = '/';
			memcpy(c->path + plen, t, len);
			c->path[plen + len] = '\0';
		}
		t += len;
		if (*t == '/')
			t++;
	}
	do_delayed_call(&done);
	path_put(&path);
	if (!err && strncmp(c->path, "devices/", 8))
		err = -ENOENT;
	return err;
}

struct vdev_get_params {
	const char *syspath;
	const char *devnum;
	struct varlink_json ifindex;
};

static const struct varlink_param vdev_get_params[] = {
	VARLINK_PARAM("syspath", VARLINK_STRING, struct vdev_get_params,
		      syspath),
	VARLINK_PARAM("devnum", VARLINK_STRING, struct vdev_get_params,
		      devnum),
	VARLINK_PARAM("ifindex", VARLINK_JSON, struct vdev_get_params,
		      ifindex),
};

/* An "int" parameter's JSON text as an ifindex, or 0 if none can be it */
static int vdev_json_ifindex(const struct varlink_json *j)
{
	char buf[24];
	s64 v;

	if (!j->len || j->len >= sizeof(buf))
		return 0;
	memcpy(buf, j->text, j->len);
	buf[j->len] = '\0';
	if (kstrtos64(buf, 10, &v) || v <= 0 || v > INT_MAX)
		return 0;
	return v;
}

/* "c1:3" into the name of its link in /sys/dev: "char" and "1:3" */
static int vdev_devnum(const char *devnum, const char **dir, char *name,
		       size_t size)
{
	unsigned int maj, min;
	char extra;

	if (devnum[0] != 'c' && devnum[0] != 'b')
		return -EINVAL;
	if (!isdigit(devnum[1]) ||
	    sscanf(devnum + 1, "%u:%u%c", &maj, &min, &extra) != 2 ||
	    maj >= (1U << 12) || min >= (1U << 20))
		return -EINVAL;
	*dir = devnum[0] == 'b' ? "dev/block" : "dev/char";
	snprintf(name, size, "%u:%u", maj, min);
	return 0;
}

/* Get(syspath: ?string, devnum: ?string, ifindex: ?int) -> (device) */
static int vdev_get(struct varlink_call *call, const void *params)
{
	const struct vdev_get_params *p = params;
	struct vdev_ctx *c;
	const char *dir;
	char name[24];
	int given = !!p->syspath + !!p->devnum + !!p->ifindex.text;
	int err, ifindex;
	char *path;

	if (given != 1)
		return varlink_error_invalid_parameter(call,
			!given ? "syspath" : p->syspath && p->devnum ?
			"devnum" : "ifindex");
	c = vdev_ctx_new(call);
	if (!c)
		return -ENOMEM;
	if (p->syspath) {
		err = vdev_syspath(p->syspath, c->path, sizeof(c->path));
		if (err) {
			vdev_ctx_free(c);
			return varlink_error_invalid_parameter(call, "syspath");
		}
		strscpy(c->syspath, p->syspath, sizeof(c->syspath));
		err = vdev_get_path(c);
	} else if (p->devnum) {
		if (vdev_devnum(p->devnum, &dir, name, sizeof(name))) {
			vdev_ctx_free(c);
			return varlink_error_invalid_parameter(call, "devnum");
		}
		err = vdev_resolve(c, dir, name);
		if (!err) {
			snprintf(c->syspath, sizeof(c->syspath), "/%s", c->path);
			err = vdev_get_path(c);
		}
	} else {
		ifindex = vdev_json_ifindex(&p->ifindex);
		err = ifindex ? 0 : -ENOENT;
		if (!err && !net_eq(c->net, &init_net)) {
			err = vdev_netdev(c, ifindex);
		} else if (!err) {
			struct net_device *dev = dev_get_by_index(c->net,
								  ifindex);

			path = NULL;
			if (dev) {
				path = kobject_get_path(&dev->dev.kobj,
							GFP_KERNEL);
				dev_put(dev);
			}
			err = dev ? (path ? 0 : -ENOMEM) : -ENOENT;
			if (!err && strlen(path) >= sizeof(c->path))
				err = -ENOENT;
			if (!err) {
				strscpy(c->path, path + 1, sizeof(c->path));
				err = vdev_read(c, c->path);
				snprintf(c->syspath, sizeof(c->syspath), "%s",
					 path);
			}
			kfree(path);
		}
	}
	if (!err) {
		vdev_put(c, "device", c->syspath, c->subsystem);
		varlink_reply(call);
	} else if (err == -ENOENT || err == -ENOTDIR || err == -ELOOP ||
		   err == -EINVAL || err == -ENAMETOOLONG) {
		/* -EINVAL: a component the core refuses, which no device has */
		varlink_error(call, DEVICE_ERR("DeviceNotFound"));
	} else {
		vdev_ctx_free(c);
		return err;
	}
	vdev_ctx_free(c);
	return 0;
}

struct vdev_trigger_params {
	const char *syspath;
	const char *action;
};

static const struct varlink_param vdev_trigger_params[] = {
	VARLINK_PARAM("syspath", VARLINK_STRING, struct vdev_trigger_params,
		      syspath),
	VARLINK_PARAM("action", VARLINK_STRING, struct vdev_trigger_params,
		      action),
};

/* What kobject_synth_uevent() takes (kobject_action_type()) */
static const char *const vdev_actions[] = {
	"add", "remove", "change", "move", "online", "offline", "bind",
	"unbind",
};

/* Trigger(syspath: string, action: string) -> () */
static int vdev_trigger(struct varlink_call *call, const void *params)
{
	const struct vdev_trigger_params *p = params;
	struct vdev_ctx *c;
	int err;

	if (match_string(vdev_actions, ARRAY_SIZE(vdev_actions),
			 p->action) < 0)
		return varlink_error_invalid_parameter(call, "action");
	c = vdev_ctx_new(call);
	if (!c)
		return -ENOMEM;
	if (vdev_syspath(p->syspath, c->path, sizeof(c->path))) {
		vdev_ctx_free(c);
		return varlink_error_invalid_parameter(call, "syspath");
	}
	if (!varlink_call_capable(call, CAP_SYS_ADMIN)) {
		vdev_ctx_free(c);
		return -EPERM;
	}
	/* a device, readable by the caller, and not a net device of the
	 * host seen from another namespace
	 */
	err = vdev_read(c, c->path);
	if (!err && !net_eq(c->net, &init_net) && !strcmp(c->subsystem, "net"))
		err = -ENOENT;
	if (!err) {
		strlcat(c->path, "/uevent", sizeof(c->path));
		err = varlink_file_write(call, VARLINK_SYSFS, c->path,
					 p->action, strlen(p->action));
	}
	vdev_ctx_free(c);
	if (err == -ENOENT || err == -ENOTDIR || err == -ELOOP ||
	    err == -EINVAL || err == -ENAMETOOLONG)
		return varlink_error(call, DEVICE_ERR("DeviceNotFound"));
	if (err)
		return err;
	return varlink_reply(call);
}

/**
 * struct vdev_stream - a Monitor call
 * @node: on vdev_streams until the final reply
 * @id: identifies the stream to the cancel callback; never reused
 * @work: receives and sends; queued by the socket, the cancel callback
 *	and module exit
 * @sock: the uevent socket, until the final reply
 * @c: the call and what the work item works with
 * @n_filter: entries of @filter; 0 for every subsystem
 * @filter: the subsystems wanted
 * @replay: the replay is still to be sent
 * @started: its cancel callback is set
 * @cancelled: the cancel callback ran, or the module is going away
 * @ended: the final reply was sent; the next run of @work frees it
 *
 * @sock, @c, @filter and @replay belong to @work; the rest is under
 * vdev_lock.
 */
struct vdev_stream {
	struct list_head node;
	unsigned long id;
	struct work_struct work;
	struct socket *sock;
	struct vdev_ctx *c;
	unsigned int n_filter;
	char filter[DEVICE_FILTER_MAX][DEVICE_NAME_MAX];
	bool replay;
	bool started;
	bool cancelled;
	bool ended;
};

static DEFINE_MUTEX(vdev_lock);
static LIST_HEAD(vdev_streams);
static unsigned long vdev_next_id;
static bool vdev_stopping;
static struct workqueue_struct *vdev_wq;

static struct vdev_stream *vdev_stream_find(unsigned long id)
{
	struct vdev_stream *s;

	lockdep_assert_held(&vdev_lock);
	list_for_each_entry(s, &vdev_streams, node)
		if (s->id == id)
			return s;
	return NULL;
}

static void vdev_data_ready(struct sock *sk)
{
	struct vdev_stream *s;

	read_lock_bh(&sk->sk_callback_lock);
	s = sk->sk_user_data;
	if (s)
		queue_work(vdev_wq, &s->work);
	read_unlock_bh(&sk->sk_callback_lock);
}

static void vdev_sock_release(struct vdev_stream *s)
{
	struct sock *sk;

	if (!s->sock)
		return;
	sk = s->sock->sk;
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = NULL;
	write_unlock_bh(&sk->sk_callback_lock);
	sock_release(s->sock);
	s->sock = NULL;
}

static void vdev_stream_free(struct vdev_stream *s)
{
	vdev_sock_release(s);
	vdev_ctx_free(s->c);
	kfree(s);
}

/* Free @s, which was never on vdev_streams: its socket may have
 * queued its work already.
 */
static void vdev_stream_discard(struct vdev_stream *s)
{
	vdev_sock_release(s);
	cancel_work_sync(&s->work);
	vdev_stream_free(s);
}

/* End @s with its final reply: @error, or, with NULL, the reply whose
 * parameters are written (one that failed with -ECANCELED).
 */
static void vdev_stream_end(struct vdev_stream *s, const char *error)
{
	bool queued;

	vdev_sock_release(s);
	if (error)
		varlink_error(s->c->call, error);
	else
		varlink_reply(s->c->call);

	mutex_lock(&vdev_lock);
	list_del(&s->node);
	s->ended = true;
	queued = work_pending(&s->work);
	mutex_unlock(&vdev_lock);
	if (!queued)
		vdev_stream_free(s);
}

static bool vdev_wanted(const struct vdev_stream *s, const char *subsystem)
{
	unsigned int i;

	if (!s->n_filter)
		return true;
	for (i = 0; i < s->n_filter; i++)
		if (subsystem && !strcmp(s->filter[i], subsystem))
			return true;
	return false;
}

/* Send the event written: 0, or what ended the stream (@s then freed) */
static int vdev_stream_send(struct vdev_stream *s)
{
	int err = varlink_reply_continues(s->c->call);

	if (err)
		vdev_stream_end(s, err == -ECANCELED ? NULL :
				  DEVICE_ERR("MonitorEnded"));
	return err;
}

/* Wait for the client: 0, or what ended the stream (@s then freed) */
static int vdev_stream_wait(struct vdev_stream *s)
{
	int err = varlink_reply_wait(s->c->call);

	if (err)
		vdev_stream_end(s, DEVICE_ERR("MonitorEnded"));
	return err;
}

static bool vdev_stream_stop(struct vdev_stream *s)
{
	bool stop;

	mutex_lock(&vdev_lock);
	stop = s->cancelled || vdev_stopping;
	mutex_unlock(&vdev_lock);
	return stop;
}

static bool vdev_stream_wants(const void *data, const char *subsystem)
{
	return vdev_wanted(data, subsystem);
}

/* The replay: 0, or an error that ended the stream (@s then freed) */
static int vdev_replay(struct vdev_stream *s)
{
	struct vdev_ctx *c = s->c;
	int err;

	c->want = vdev_stream_wants;
	c->want_data = s;
	err = vdev_walk_start(c);
	while (!err) {
		err = vdev_walk_next(c);
		if (err <= 0)
			break;
		err = 0;
		if (vdev_stream_stop(s)) {
			vdev_walk_free(c);
			vdev_stream_end(s, DEVICE_ERR("MonitorEnded"));
			return -ECANCELED;
		}
		if (vdev_stream_wait(s))
			return -ECANCELED;
		varlink_open_object(c->call, "event");
		varlink_put_str(c->call, "action", "exists");
		vdev_put(c, "device", c->syspath, c->subsystem);
		varlink_close_object(c->call);
		if (vdev_stream_send(s))
			return -ECANCELED;
	}
	vdev_walk_free(c);
	if (err) {
		varlink_put_s64(c->call, "errno", -err);
		vdev_stream_end(s, "org.kernel.varlink.SystemError");
	}
	return err;
}

/* Describe the uevent message of @len bytes in @c->buf into @c: 0, or
 * -EINVAL if it is none ("ACTION@DEVPATH", then KEY=VALUE strings, with
 * ACTION and DEVPATH among them).
 */
static int vdev_event_parse(struct vdev_ctx *c, size_t len)
{
	char *at, *end;

	c->buf[len] = '\0';
	end = memchr(c->buf, '\0', len);
	at = memchr(c->buf, '@', end ? end - c->buf : len);
	if (!end || !at)
		return -EINVAL;
	end++;
	vdev_parse(c, end, len - (end - c->buf), '\0');
	if (!vdev_prop(c, "ACTION") || !vdev_prop(c, "DEVPATH"))
		return -EINVAL;
	return 0;
}

/* Send the live events queued: 0 once the socket is empty, or an error
 * that ended the stream (@s then freed).
 */
static int vdev_live(struct vdev_stream *s)
{
	struct vdev_ctx *c = s->c;
	struct sockaddr_nl from;
	struct msghdr msg;
	struct kvec iov;
	const char *seq;
	u64 seqnum;
	int n;

	for (;;) {
		if (vdev_stream_stop(s)) {
			vdev_stream_end(s, DEVICE_ERR("MonitorEnded"));
			return -ECANCELED;
		}
		memset(&msg, 0, sizeof(msg));
		memset(&from, 0, sizeof(from));
		msg.msg_name = &from;
		msg.msg_namelen = sizeof(from);
		iov.iov_base = c->buf;
		iov.iov_len = DEVICE_MSG_SIZE - 1;
		n = kernel_recvmsg(s->sock, &msg, &iov, 1, iov.iov_len,
				   MSG_DONTWAIT);
		if (n == -EAGAIN)
			return 0;
		if (n == -ENOBUFS) {
			vdev_stream_end(s, DEVICE_ERR("EventsLost"));
			return n;
		}
		if (n < 0) {
			varlink_put_s64(c->call, "errno", -n);
			vdev_stream_end(s, "org.kernel.varlink.SystemError");
			return n;
		}
		/* the kernel's only: no multicast of another socket */
		if ((msg.msg_flags & MSG_TRUNC) || from.nl_pid ||
		    vdev_event_parse(c, n))
			continue;
		if (!vdev_wanted(s, vdev_prop(c, "SUBSYSTEM")))
			continue;
		if (vdev_stream_wait(s))
			return -ECANCELED;
		varlink_open_object(c->call, "event");
		varlink_put_str(c->call, "action", vdev_prop(c, "ACTION"));
		seq = vdev_prop(c, "SEQNUM");
		if (seq && !kstrtou64(seq, 10, &seqnum))
			varlink_put_u64(c->call, "seqnum", seqnum);
		vdev_put(c, "device", vdev_prop(c, "DEVPATH"),
			 vdev_prop(c, "SUBSYSTEM"));
		varlink_close_object(c->call);
		if (vdev_stream_send(s))
			return -ECANCELED;
		cond_resched();
	}
}

static void vdev_stream_work(struct work_struct *work)
{
	struct vdev_stream *s = container_of(work, struct vdev_stream,
					       work);
	bool started;

	mutex_lock(&vdev_lock);
	if (s->ended) {
		mutex_unlock(&vdev_lock);
		vdev_stream_free(s);
		return;
	}
	started = s->started;
	mutex_unlock(&vdev_lock);
	if (!started)
		return;	/* vdev_monitor() queues it again */
	if (s->replay) {
		s->replay = false;
		if (vdev_replay(s))
			return;
	}
	vdev_live(s);
}

static void vdev_stream_cancel(struct varlink_call *call, void *data)
{
	struct vdev_stream *s;

	mutex_lock(&vdev_lock);
	s = vdev_stream_find((unsigned long)data);
	if (s) {
		s->cancelled = true;
		queue_work(vdev_wq, &s->work);
	}
	mutex_unlock(&vdev_lock);
}

/* The subsystems parameter, a JSON array of strings the core validated,
 * into @s->filter: 0, or -EINVAL for too many or too long a name.
 */
static int vdev_filter(struct vdev_stream *s, const struct varlink_json *j)
{
	const char *p = j->text, *end = j->text + j->len;
	unsigned int len;
	char *out;

	while (p < end && *p != '[')
		p++;
	for (p++; p < end; p++) {
		if (*p != '"')
			continue;
		if (s->n_filter >= DEVICE_FILTER_MAX)
			return -EINVAL;
		out = s->filter[s->n_filter++];
		len = 0;
		for (p++; p < end && *p != '"'; p++) {
			char ch = *p;

			if (ch == '\\' && p + 1 < end) {
				p++;
				switch (*p) {
				case 'b':
					ch = '\b';
					break;
				case 'f':
					ch = '\f';
					break;
				case 'n':
					ch = '\n';
					break;
				case 'r':
					ch = '\r';
					break;
				case 't':
					ch = '\t';
					break;
				case 'u':
					/* no subsystem has such a name */
					ch = '\x7f';
					p += min_t(size_t, 4, end - p - 1);
					break;
				default:	/* " \ / */
					ch = *p;
				}
			}
			if (len + 1 >= DEVICE_NAME_MAX)
				return -EINVAL;
			out[len++] = ch;
		}
		out[len] = '\0';
	}
	return 0;
}

struct vdev_monitor_params {
	struct varlink_json subsystems;
	bool replay;
};

static const struct varlink_param vdev_monitor_params[] = {
	VARLINK_PARAM("subsystems", VARLINK_JSON, struct vdev_monitor_params,
		      subsystems),
	VARLINK_PARAM("replay", VARLINK_BOOL, struct vdev_monitor_params,
		      replay),
};

/* Half the receive buffer of a stream's socket (sock_set_rcvbuf() doubles
 * it): what SO_RCVBUF would give the caller's own uevent socket, at most
 * net.core.rmem_max, unless it could force more (SO_RCVBUFFORCE needs
 * CAP_NET_ADMIN); monitor_buffer in any case.  The buffer is not charged
 * to the caller's memory cgroup, so an unprivileged user's streams hold
 * no more than its own sockets could.
 */
static int vdev_rcvbuf(struct varlink_call *call)
{
	unsigned int half = monitor_buffer / 2;

	if (!varlink_call_capable(call, CAP_NET_ADMIN))
		half = min_t(unsigned int, half, READ_ONCE(sysctl_rmem_max));
	return half;
}

/* The stream's uevent socket in the caller's namespace, subscribed */
static int vdev_sock_open(struct vdev_stream *s)
{
	struct sockaddr_nl nl = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1,
	};
	struct socket *sock;
	struct sock *sk;
	int err;

	err = sock_create_kern(s->c->net, AF_NETLINK, SOCK_DGRAM,
			       NETLINK_KOBJECT_UEVENT, &sock);
	if (err)
		return err;
	sk = sock->sk;
	sock_set_rcvbuf(sk, vdev_rcvbuf(s->c->call));
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = s;
	sk->sk_data_ready = vdev_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
	err = kernel_bind(sock, (struct sockaddr_unsized *)&nl, sizeof(nl));
	if (err) {
		write_lock_bh(&sk->sk_callback_lock);
		sk->sk_user_data = NULL;
		write_unlock_bh(&sk->sk_callback_lock);
		sock_release(sock);
		cancel_work_sync(&s->work);
		return err;
	}
	s->sock = sock;
	return 0;
}

/* Monitor(subsystems: ?[]string, replay: ?bool) -> (event: Event) */
static int vdev_monitor(struct varlink_call *call, const void *params)
{
	const struct vdev_monitor_params *p = params;
	struct vdev_stream *s;
	unsigned long id;
	int err;

	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s)
		return -ENOMEM;
	INIT_WORK(&s->work, vdev_stream_work);
	s->replay = p->replay;
	if (p->subsystems.text && vdev_filter(s, &p->subsystems)) {
		kfree(s);
		return varlink_error_invalid_parameter(call, "subsystems");
	}
	s->c = vdev_ctx_new(call);
	if (!s->c) {
		kfree(s);
		return -ENOMEM;
	}
	/* subscribed before the replay: no event falls between the two */
	err = vdev_sock_open(s);
	if (err) {
		vdev_stream_discard(s);
		return err;
	}

	mutex_lock(&vdev_lock);
	if (vdev_stopping) {
		mutex_unlock(&vdev_lock);
		vdev_stream_discard(s);
		return varlink_error(call, DEVICE_ERR("MonitorEnded"));
	}
	id = ++vdev_next_id;
	s->id = id;
	list_add_tail(&s->node, &vdev_streams);
	mutex_unlock(&vdev_lock);

	/* Not started: the socket queues the work, which does nothing but
	 * send; nothing ends the stream before the cancel callback is set,
	 * which runs it right away if the client is gone already.
	 */
	varlink_call_set_cancel(call, vdev_stream_cancel, NULL, (void *)id);
	mutex_lock(&vdev_lock);
	s = vdev_stream_find(id);
	if (s) {
		s->started = true;
		queue_work(vdev_wq, &s->work);
	}
	mutex_unlock(&vdev_lock);
	return -EINPROGRESS;
}

static const struct varlink_method vdev_methods[] = {
	{
		.name = "List", .call = vdev_list,
		VARLINK_PARAMS(vdev_list_params, struct vdev_list_params),
		.flags = VARLINK_MORE | VARLINK_STREAM,
	},
	{
		.name = "Get", .call = vdev_get,
		VARLINK_PARAMS(vdev_get_params, struct vdev_get_params),
	},
	{
		.name = "Monitor", .call = vdev_monitor,
		VARLINK_PARAMS(vdev_monitor_params,
			       struct vdev_monitor_params),
		.flags = VARLINK_MORE | VARLINK_MORE_ONLY | VARLINK_STREAM,
	},
	{
		.name = "Trigger", .call = vdev_trigger,
		VARLINK_PARAMS(vdev_trigger_params,
			       struct vdev_trigger_params),
	},
};

static const struct varlink_interface vdev_iface = {
	.idl = vdev_idl,
	.methods = vdev_methods,
	.n_methods = ARRAY_SIZE(vdev_methods),
	.flags = VARLINK_NETNS,
};

static int __init vdev_init(void)
{
	int err;

	if (monitor_buffer < (64 << 10) || monitor_buffer > (256 << 20)) {
		pr_err("monitor_buffer must be 64 KiB to 256 MiB\n");
		return -EINVAL;
	}
	vdev_wq = alloc_workqueue("varlink_device", WQ_UNBOUND, 0);
	if (!vdev_wq)
		return -ENOMEM;
	err = varlink_register_interface(&vdev_iface);
	if (err)
		destroy_workqueue(vdev_wq);
	return err;
}

static void __exit vdev_exit(void)
{
	struct vdev_stream *s;

	/* Every stream ends with MonitorEnded; none starts. */
	mutex_lock(&vdev_lock);
	vdev_stopping = true;
	list_for_each_entry(s, &vdev_streams, node)
		if (s->started)
			queue_work(vdev_wq, &s->work);
	mutex_unlock(&vdev_lock);

	/* waits for the final reply of every call */
	varlink_unregister_interface(&vdev_iface);
	/* runs what is queued: the frees of ended streams */
	destroy_workqueue(vdev_wq);
	WARN_ON(!list_empty(&vdev_streams));
}

module_init(vdev_init);
module_exit(vdev_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("org.kernel.device varlink interface: devices and uevents");
MODULE_AUTHOR("The kvarlink authors");
