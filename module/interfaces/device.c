// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.device: the devices of sysfs and their uevents, the kernel
 * half of udev: enumeration, the uevent netlink socket, and coldplug.
 *
 * Devices.  A device is a directory under /sys/devices that holds a
 * "uevent" file; its syspath is that directory's path from the root of
 * sysfs, as uevents name it (DEVPATH).  List walks "devices" of the
 * core's sysfs mount depth first (varlink_walk_start()); the class and
 * bus directories are symbolic links into it, which are not followed,
 * and every device is found once there.  "devices" is opened as the
 * caller (a call whose opener and sender cannot be compared is refused
 * there); below it, each directory is opened and read as the kernel,
 * looked up in its parent's open directory (VARLINK_WALK_KERNEL): every
 * sysfs directory is 0755 and every uevent file 0644, so the caller may
 * read them all.  Get and Trigger go through the core's file helpers as
 * the caller.  Each device's properties are the KEY=VALUE lines of its
 * uevent file.  Its "subsystem" is the name of the target of its
 * symbolic link "subsystem": the link itself, one fixed component below
 * the open directory, is looked up there without following it and read
 * with vfs_get_link().  Its "driver" is DRIVER of its uevent file, which
 * dev_uevent() writes whenever a driver is bound.
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
 * sk_data_ready kicks the stream, which the core runs paced to its
 * client: an idle stream holds no worker.  A replay subscribes first,
 * then walks the devices as List does ("exists"), then sends what the
 * socket queued meanwhile: nothing falls between the two.  An overflow
 * of the socket's buffer (ENOBUFS) ends the stream with EventsLost.  The
 * socket is released with the stream, while its call's connection still
 * holds the namespace.
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
 * struct vdev_ctx - what one call or stream works with
 * @call: the call
 * @net: the network namespace of @call's caller
 * @walk: a walk of "devices" in progress, or NULL
 * @devices: bit N: the directory at depth N of @walk is a device's
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
 * @path: the device's path relative to sysfs, for Get and Trigger
 * @syspath: the device's syspath (DEVICE_PATH_MAX + 2)
 */
struct vdev_ctx {
	struct varlink_call *call;
	struct net *net;
	struct varlink_walk *walk;
	u64 devices;
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
	char path[DEVICE_PATH_MAX + 1];
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
	c->net = varlink_call_caller(call)->net;
	return c;
}

static void vdev_walk_free(struct vdev_ctx *c)
{
	varlink_walk_end(c->walk);
	c->walk = NULL;
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

/* Read the device whose directory is open as @dir: its subsystem link
 * into @c->subsystem, its uevent file (0644, read as the kernel) parsed
 * into @c.  Return: 0, -ENOENT if it is no device (or not one @c->want
 * wants), or an errno of the file.
 */
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

/* Read the device at @rel (a path relative to sysfs, "devices/..."),
 * its directory opened as the caller, as vdev_read_at().
 */
static int vdev_read(struct vdev_ctx *c, const char *rel)
{
	struct file *dir;
	int err;

	dir = varlink_file_open(c->call, VARLINK_SYSFS, rel,
				O_RDONLY | O_DIRECTORY);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	err = vdev_read_at(c, dir);
	fput(dir);
	return err;
}

/* Start a walk of "devices", opened as the caller. */
static int vdev_walk_start(struct vdev_ctx *c)
{
	c->walk = varlink_walk_start(c->call, VARLINK_SYSFS, "devices",
				     DEVICE_DEPTH_MAX, VARLINK_WALK_KERNEL);
	if (IS_ERR(c->walk)) {
		int err = PTR_ERR(c->walk);

		c->walk = NULL;
		return err;
	}
	c->devices = 0;
	if (!net_eq(c->net, &init_net))
		return vdev_netdevs(c);
	return 0;
}

/* The device of the walk's entry @e, a directory, into @c: 0, or
 * -ENOENT for none, or one of another namespace or not wanted.
 */
static int vdev_walk_device(struct vdev_ctx *c,
			    const struct varlink_walk_entry *e)
{
	struct file *dir;
	int err;

	/* with CONFIG_PM, every device has the attribute group "power"
	 * (dpm_sysfs_add() in device_add()), so no child of that name
	 */
	if (IS_ENABLED(CONFIG_PM) && (c->devices & BIT_ULL(e->depth)) &&
	    !strcmp(e->name, "power"))
		return -ENOENT;
	dir = varlink_walk_enter(c->walk);
	if (IS_ERR(dir))
		return PTR_ERR(dir) == -ENOMEM ? -ENOMEM : -ENOENT;
	err = vdev_read_at(c, dir);
	if (err)
		c->devices &= ~BIT_ULL(e->depth + 1);
	else
		c->devices |= BIT_ULL(e->depth + 1);
	if (err)
		return err == -ENOMEM ? err : -ENOENT;
	/* the host's net devices are not the caller's */
	if (!net_eq(c->net, &init_net) && !strcmp(c->subsystem, "net"))
		return -ENOENT;
	snprintf(c->syspath, sizeof(c->syspath), "/%s", e->path);
	return 0;
}

/* The next device of a walk, of a subsystem @c->want wants: 1 with it
 * read into @c (@c->syspath set), 0 at the end, or a negative errno.
 * Devices that vanish meanwhile are left out.
 */
static int vdev_walk_next(struct vdev_ctx *c)
{
	struct varlink_walk_entry e;
	int err;

	while ((err = varlink_walk_next(c->walk, &e)) > 0) {
		if (e.type != DT_DIR)
			continue;
		err = vdev_walk_device(c, &e);
		if (err != -ENOENT)
			return err ? err : 1;
	}
	if (err)
		return err;
	/* then, outside the initial namespace, the caller's net devices */
	if (c->want && !c->want(c->want_data, "net"))
		return 0;
	while (c->netdevs && c->next_netdev < c->n_netdevs) {
		if (!vdev_netdev(c, c->netdevs[c->next_netdev++]))
			return 1;
	}
	return 0;
}

/* Send the device @c holds, after the one written before: the last one
 * is the final reply.  Return: as varlink_stream_reply(), and 0 for the
 * first.
 */
static int vdev_send_pending(struct varlink_stream *stream, bool *pending)
{
	int err = *pending ? varlink_stream_reply(stream) : 0;

	*pending = true;
	return err;
}

/**
 * struct vdev_list - a List stream
 * @stream: the core's
 * @c: the walk
 * @pending: a device is written, not yet sent
 * @subsystem: the subsystem wanted, or ""
 */
struct vdev_list {
	struct varlink_stream stream;
	struct vdev_ctx *c;
	bool pending;
	char subsystem[DEVICE_NAME_MAX];
};

static int vdev_list_run(struct varlink_stream *stream)
{
	struct vdev_list *l = container_of(stream, struct vdev_list, stream);
	int err;

	while ((err = vdev_walk_next(l->c)) > 0) {
		err = vdev_send_pending(stream, &l->pending);
		if (err && err != -EAGAIN)
			return err;
		vdev_put(l->c, "device", l->c->syspath, l->c->subsystem);
		if (err)
			return err;
		cond_resched();
	}
	if (err && l->pending)
		varlink_stream_reply(stream);	/* then the error */
	if (err)
		return err;
	return varlink_reply(stream->call);
}

static void vdev_list_release(struct varlink_stream *stream)
{
	struct vdev_list *l = container_of(stream, struct vdev_list, stream);

	vdev_ctx_free(l->c);
	kfree(l);
}

static const struct varlink_stream_ops vdev_list_ops = {
	.run = vdev_list_run,
	.release = vdev_list_release,
};

struct vdev_list_params {
	const char *subsystem;
};

static const struct varlink_param vdev_list_params[] = {
	VARLINK_PARAM("subsystem", struct vdev_list_params, subsystem),
};

static bool vdev_list_wants(const void *data, const char *subsystem)
{
	return !strcmp(data, subsystem);
}

/* List(subsystem: ?string) -> (device: ?Device) */
static int vdev_list(struct varlink_call *call, const void *params)
{
	const struct vdev_list_params *p = params;
	struct vdev_list *l;
	int err;

	l = kzalloc(sizeof(*l), GFP_KERNEL_ACCOUNT);
	if (!l)
		return -ENOMEM;
	l->c = vdev_ctx_new(call);
	if (!l->c) {
		kfree(l);
		return -ENOMEM;
	}
	if (p->subsystem) {
		strscpy(l->subsystem, p->subsystem, sizeof(l->subsystem));
		l->c->want = vdev_list_wants;
		l->c->want_data = l->subsystem;
	}
	err = vdev_walk_start(l->c);
	if (err) {
		vdev_ctx_free(l->c);
		kfree(l);
		return err;
	}
	varlink_stream_init(&l->stream, &vdev_list_ops);
	return varlink_stream_start(call, &l->stream);
}

/* What a lookup's error says: no such device.  -EINVAL: a component the
 * core refuses, which no device has.
 */
static bool vdev_not_found(int err)
{
	return err == -ENOENT || err == -ENOTDIR || err == -ELOOP ||
	       err == -EINVAL || err == -ENAMETOOLONG;
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
 * @c->path, relative to the root of sysfs: "devices/...".  The directory
 * is opened as the caller; the link is followed from the core's sysfs
 * mount's root, within it, whose single tree holds its target ("..": at
 * most to that root), and the path is the target's from that root.
 */
static int vdev_resolve(struct vdev_ctx *c, const char *dir,
			const char *name)
{
	struct path path;
	struct file *f;
	char *p;
	int err;

	f = varlink_file_open(c->call, VARLINK_SYSFS, dir,
			      O_RDONLY | O_DIRECTORY);
	if (IS_ERR(f))
		return PTR_ERR(f);
	snprintf(c->path, sizeof(c->path), "%s/%s", dir, name);
	err = vfs_path_lookup(f->f_path.mnt->mnt_root, f->f_path.mnt, c->path,
			      LOOKUP_FOLLOW | LOOKUP_NO_XDEV, &path);
	fput(f);
	if (err)
		return err;
	p = dentry_path_raw(path.dentry, c->syspath, sizeof(c->syspath));
	path_put(&path);
	if (IS_ERR(p))
		return PTR_ERR(p);
	if (strncmp(p, "/devices/", 9))
		return -ENOENT;
	strscpy(c->path, p + 1, sizeof(c->path));
	return 0;
}

struct vdev_get_params {
	const char *syspath;
	const char *devnum;
	struct varlink_opt_s64 ifindex;
};

static const struct varlink_param vdev_get_params[] = {
	VARLINK_PARAM("syspath", struct vdev_get_params, syspath),
	VARLINK_PARAM("devnum", struct vdev_get_params, devnum),
	VARLINK_PARAM("ifindex", struct vdev_get_params, ifindex),
};

/* The device Get names by syspath into @c: 0, -EDOM for a syspath that
 * is none, or an errno.
 */
static int vdev_get_syspath(struct vdev_ctx *c, const char *syspath)
{
	if (vdev_syspath(syspath, c->path, sizeof(c->path)))
		return -EDOM;
	strscpy(c->syspath, syspath, sizeof(c->syspath));
	return vdev_get_path(c);
}

/* ... by device number, "c1:3" (its link in /sys/dev/char, "1:3") */
static int vdev_get_devnum(struct vdev_ctx *c, const char *devnum)
{
	unsigned int maj, min;
	char extra, name[24];
	int err;

	if ((devnum[0] != 'c' && devnum[0] != 'b') || !isdigit(devnum[1]) ||
	    sscanf(devnum + 1, "%u:%u%c", &maj, &min, &extra) != 2 ||
	    maj >= (1U << 12) || min >= (1U << 20))
		return -EDOM;
	snprintf(name, sizeof(name), "%u:%u", maj, min);
	err = vdev_resolve(c, devnum[0] == 'b' ? "dev/block" : "dev/char",
			   name);
	if (err)
		return err;
	snprintf(c->syspath, sizeof(c->syspath), "/%s", c->path);
	return vdev_get_path(c);
}

/* ... by the index of a net device of the caller's namespace */
static int vdev_get_ifindex(struct vdev_ctx *c, s64 ifindex)
{
	struct net_device *dev;
	char *path = NULL;
	int err;

	if (ifindex <= 0 || ifindex > INT_MAX)
		return -ENOENT;
	if (!net_eq(c->net, &init_net))
		return vdev_netdev(c, ifindex);
	dev = dev_get_by_index(c->net, ifindex);
	if (!dev)
		return -ENOENT;
	path = kobject_get_path(&dev->dev.kobj, GFP_KERNEL);
	dev_put(dev);
	err = !path ? -ENOMEM : strlen(path) >= sizeof(c->path) ? -ENOENT : 0;
	if (!err) {
		strscpy(c->path, path + 1, sizeof(c->path));
		strscpy(c->syspath, path, sizeof(c->syspath));
		err = vdev_read(c, c->path);
	}
	kfree(path);
	return err;
}

/* Get(syspath: ?string, devnum: ?string, ifindex: ?int) -> (device) */
static int vdev_get(struct varlink_call *call, const void *params)
{
	const struct vdev_get_params *p = params;
	int given = !!p->syspath + !!p->devnum + p->ifindex.present;
	struct vdev_ctx *c;
	int err;

	if (given != 1)
		return varlink_error_invalid_parameter(call,
			!given ? "syspath" : p->syspath && p->devnum ?
			"devnum" : "ifindex");
	c = vdev_ctx_new(call);
	if (!c)
		return -ENOMEM;
	if (p->syspath)
		err = vdev_get_syspath(c, p->syspath);
	else if (p->devnum)
		err = vdev_get_devnum(c, p->devnum);
	else
		err = vdev_get_ifindex(c, p->ifindex.value);
	if (!err) {
		vdev_put(c, "device", c->syspath, c->subsystem);
		err = varlink_reply(call);
	} else if (err == -EDOM) {
		err = varlink_error_invalid_parameter(call, p->syspath ?
						      "syspath" : "devnum");
	} else if (vdev_not_found(err)) {
		err = varlink_error(call, DEVICE_ERR("DeviceNotFound"));
	}
	vdev_ctx_free(c);
	return err;
}

struct vdev_trigger_params {
	const char *syspath;
	const char *action;
};

static const struct varlink_param vdev_trigger_params[] = {
	VARLINK_PARAM("syspath", struct vdev_trigger_params,
		      syspath),
	VARLINK_PARAM("action", struct vdev_trigger_params,
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
	if (vdev_not_found(err))
		return varlink_error(call, DEVICE_ERR("DeviceNotFound"));
	if (err)
		return err;
	return varlink_reply(call);
}

/**
 * struct vdev_monitor - a Monitor stream
 * @stream: the core's
 * @sock: the uevent socket
 * @c: the replay's walk, and the events received
 * @replay: the replay is not all sent yet
 * @n_filter: entries of @filter; 0 for every subsystem
 * @filter: the subsystems wanted
 */
struct vdev_monitor {
	struct varlink_stream stream;
	struct socket *sock;
	struct vdev_ctx *c;
	bool replay;
	unsigned int n_filter;
	char filter[DEVICE_FILTER_MAX][DEVICE_NAME_MAX];
};

static void vdev_data_ready(struct sock *sk)
{
	struct vdev_monitor *m;

	read_lock_bh(&sk->sk_callback_lock);
	m = sk->sk_user_data;
	if (m)
		varlink_stream_kick(&m->stream);
	read_unlock_bh(&sk->sk_callback_lock);
}

/* No kick once this returns: the socket's callback is gone with it. */
static void vdev_sock_release(struct vdev_monitor *m)
{
	struct sock *sk;

	if (!m->sock)
		return;
	sk = m->sock->sk;
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = NULL;
	write_unlock_bh(&sk->sk_callback_lock);
	sock_release(m->sock);
	m->sock = NULL;
}

static void vdev_monitor_free(struct vdev_monitor *m)
{
	vdev_sock_release(m);
	vdev_ctx_free(m->c);
	kfree(m);
}

static bool vdev_wanted(const void *data, const char *subsystem)
{
	const struct vdev_monitor *m = data;
	unsigned int i;

	if (!m->n_filter)
		return true;
	for (i = 0; i < m->n_filter; i++)
		if (subsystem && !strcmp(m->filter[i], subsystem))
			return true;
	return false;
}

/* Send the replay's devices: 0 once all are sent, or what stops the run */
static int vdev_replay(struct vdev_monitor *m)
{
	struct vdev_ctx *c = m->c;
	int err;

	while ((err = vdev_walk_next(c)) > 0) {
		varlink_open_object(c->call, "event");
		varlink_put_str(c->call, "action", "exists");
		vdev_put(c, "device", c->syspath, c->subsystem);
		varlink_close_object(c->call);
		err = varlink_stream_reply(&m->stream);
		if (err)
			return err;
		cond_resched();
	}
	vdev_walk_free(c);
	m->replay = false;
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

/* The next uevent of the kernel's into @c: its length, -EAGAIN when there
 * is none, -ENOBUFS for events lost, or another errno.
 */
static int vdev_event_recv(struct vdev_monitor *m)
{
	struct sockaddr_nl from = {};
	struct msghdr msg = {
		.msg_name = &from,
		.msg_namelen = sizeof(from),
	};
	struct kvec iov = {
		.iov_base = m->c->buf,
		.iov_len = DEVICE_MSG_SIZE - 1,
	};
	int n;

	n = kernel_recvmsg(m->sock, &msg, &iov, 1, iov.iov_len, MSG_DONTWAIT);
	if (n < 0)
		return n;
	/* the kernel's only: no multicast of another socket */
	if ((msg.msg_flags & MSG_TRUNC) || from.nl_pid ||
	    vdev_event_parse(m->c, n))
		return 0;
	return n;
}

/* Send the live events queued, until the socket is empty. */
static int vdev_live(struct vdev_monitor *m)
{
	struct vdev_ctx *c = m->c;
	const char *seq;
	u64 seqnum;
	int n;

	for (;;) {
		n = vdev_event_recv(m);
		if (n == -EAGAIN)
			return 0;
		if (n == -ENOBUFS)
			return varlink_error(c->call, DEVICE_ERR("EventsLost"));
		if (n < 0)
			return n;
		if (!n || !vdev_wanted(m, vdev_prop(c, "SUBSYSTEM")))
			continue;
		varlink_open_object(c->call, "event");
		varlink_put_str(c->call, "action", vdev_prop(c, "ACTION"));
		seq = vdev_prop(c, "SEQNUM");
		if (seq && !kstrtou64(seq, 10, &seqnum))
			varlink_put_u64(c->call, "seqnum", seqnum);
		vdev_put(c, "device", vdev_prop(c, "DEVPATH"),
			 vdev_prop(c, "SUBSYSTEM"));
		varlink_close_object(c->call);
		n = varlink_stream_reply(&m->stream);
		if (n)
			return n;
		cond_resched();
	}
}

static int vdev_monitor_run(struct varlink_stream *stream)
{
	struct vdev_monitor *m = container_of(stream, struct vdev_monitor,
					      stream);
	int err = m->replay ? vdev_replay(m) : 0;

	return err ? err : vdev_live(m);
}

static int vdev_monitor_stop(struct varlink_stream *stream)
{
	return varlink_error(stream->call, DEVICE_ERR("MonitorEnded"));
}

static void vdev_monitor_release(struct varlink_stream *stream)
{
	vdev_monitor_free(container_of(stream, struct vdev_monitor, stream));
}

static const struct varlink_stream_ops vdev_monitor_ops = {
	.run = vdev_monitor_run,
	.stop = vdev_monitor_stop,
	.release = vdev_monitor_release,
};

/* The subsystems parameter, a JSON array of strings the core validated,
 * into @s->filter: 0, or -EINVAL for too many or too long a name.
 */
static int vdev_filter(struct vdev_monitor *s, const struct varlink_json *j)
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
	VARLINK_PARAM("subsystems", struct vdev_monitor_params,
		      subsystems),
	VARLINK_PARAM("replay", struct vdev_monitor_params,
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
static int vdev_sock_open(struct vdev_monitor *m)
{
	struct sockaddr_nl nl = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1,
	};
	struct socket *sock;
	struct sock *sk;
	int err;

	err = sock_create_kern(m->c->net, AF_NETLINK, SOCK_DGRAM,
			       NETLINK_KOBJECT_UEVENT, &sock);
	if (err)
		return err;
	sk = sock->sk;
	sock_set_rcvbuf(sk, vdev_rcvbuf(m->c->call));
	m->sock = sock;
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = m;
	sk->sk_data_ready = vdev_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
	return kernel_bind(sock, (struct sockaddr_unsized *)&nl, sizeof(nl));
}

/* Monitor(subsystems: ?[]string, replay: ?bool) -> (event: Event) */
static int vdev_monitor(struct varlink_call *call, const void *params)
{
	const struct vdev_monitor_params *p = params;
	struct vdev_monitor *m;
	int err;

	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	varlink_stream_init(&m->stream, &vdev_monitor_ops);
	m->replay = p->replay;
	if (p->subsystems.text && vdev_filter(m, &p->subsystems)) {
		kfree(m);
		return varlink_error_invalid_parameter(call, "subsystems");
	}
	m->c = vdev_ctx_new(call);
	if (!m->c) {
		kfree(m);
		return -ENOMEM;
	}
	m->c->want = vdev_wanted;
	m->c->want_data = m;
	/* subscribed before the replay: no event falls between the two */
	err = vdev_sock_open(m);
	if (!err && m->replay)
		err = vdev_walk_start(m->c);
	if (err) {
		vdev_monitor_free(m);
		return err;
	}
	return varlink_stream_start(call, &m->stream);
}

static const struct varlink_method vdev_methods[] = {
	{
		.name = "List", .call = vdev_list,
		VARLINK_PARAMS(vdev_list_params, struct vdev_list_params),
		.flags = VARLINK_MORE_ONLY | VARLINK_STREAM,
	},
	{
		.name = "Get", .call = vdev_get,
		VARLINK_PARAMS(vdev_get_params, struct vdev_get_params),
	},
	{
		.name = "Monitor", .call = vdev_monitor,
		VARLINK_PARAMS(vdev_monitor_params,
			       struct vdev_monitor_params),
		.flags = VARLINK_MORE_ONLY | VARLINK_STREAM,
	},
	{
		.name = "Trigger", .call = vdev_trigger,
		VARLINK_PARAMS(vdev_trigger_params,
			       struct vdev_trigger_params),
	},
};

static const struct varlink_interface vdev_iface = {
	.idl = vdev_idl,
	VARLINK_METHODS(vdev_methods),
	.flags = VARLINK_NETNS,
};

static int __init vdev_init(void)
{
	if (monitor_buffer < (64 << 10) || monitor_buffer > (256 << 20)) {
		pr_err("monitor_buffer must be 64 KiB to 256 MiB\n");
		return -EINVAL;
	}
	return varlink_register_interface(&vdev_iface);
}

static void __exit vdev_exit(void)
{
	/* ends every stream with MonitorEnded, and waits for them */
	varlink_unregister_interface(&vdev_iface);
}

module_init(vdev_init);
module_exit(vdev_exit);

MODULE_LICENSE("GPL");
MODULE_ALIAS_VARLINK_INTERFACE("org.kernel.device");
MODULE_DESCRIPTION("org.kernel.device varlink interface: devices and uevents");
MODULE_AUTHOR("The kvarlink authors");
