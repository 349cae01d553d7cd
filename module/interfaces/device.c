// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.device: the devices of sysfs and their uevents, the kernel
 * half of udev: enumeration, attributes, the uevent netlink socket, and
 * coldplug.
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
 * read them all.  Get, GetAttributes and Trigger go through the core's
 * file helpers as the caller.  Each device's properties are the
 * KEY=VALUE lines of its uevent file.  Its "subsystem" is the name of
 * the target of its symbolic link "subsystem", read with vfs_get_link()
 * without following it; its "driver" is DRIVER of its uevent file, which
 * dev_uevent() writes whenever a driver is bound.
 *
 * Subsystems, drivers and modules take uevents too, through the uevent
 * files of /sys/bus/NAME, /sys/bus/NAME/drivers/DRIVER and
 * /sys/module/NAME, write-only: udevadm trigger --type=subsystems walks
 * them, and sd-device names their subsystems "subsystem", "drivers" and
 * "module".  List and replay them so, with no properties.
 *
 * Attributes are the regular files of a device's directory and of its
 * "power" group, each opened as the caller (a 0400 file is root's) and
 * read in one read as the caller's credentials.  sysfs gives a text
 * attribute's file the size of a page and a binary one its own size
 * (sysfs_add_bin_file_mode_ns()): a file of another size is binary
 * without being read, so that no read of a device's registers (a PCI
 * resource) happens behind a caller's back.
 *
 * Namespaces.  The core's sysfs is that of the initial network
 * namespace, and shows its net devices only.  A caller in another
 * network namespace sees what a sysfs mounted there would show: every
 * device but those net devices, plus the net devices of its own
 * namespace, built from the kernel's struct net_device (the properties
 * their uevent file would hold: DEVTYPE, INTERFACE, IFINDEX), which have
 * no attributes and take no Trigger here.
 *
 * Monitor opens, per stream, a NETLINK_KOBJECT_UEVENT socket in the
 * caller's network namespace bound to the kernel's group, as udev does:
 * it gets exactly what such a socket of the caller would get (in a
 * namespace owned by a user namespace other than the initial one, the
 * kernel sends only that namespace's own net devices' events).  Its
 * sk_data_ready kicks the stream, which the core runs paced to its
 * client: an idle stream holds no worker.  The core sends the first
 * reply, {"ready": true}, once the socket is bound (VARLINK_READY).  A
 * replay subscribes first, then walks the devices as List does
 * ("exists"), then sends what the socket queued meanwhile: nothing falls
 * between the two.  An overflow of the socket's buffer (ENOBUFS) ends
 * the stream with EventsLost.  The socket is released with the stream,
 * while its call's connection still holds the namespace.
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
#include <linux/module.h>
#include <linux/moduleparam.h>
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
#include <linux/uuid.h>
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
/* A uevent file or an attribute holds at most a page */
#define DEVICE_UEVENT_SIZE	(PAGE_SIZE + 1)
/* A uevent message: the kernel's are at most 2048 bytes of environment
 * (UEVENT_BUFFER_SIZE) after "ACTION@DEVPATH"
 */
#define DEVICE_MSG_SIZE		(2 * PAGE_SIZE)
/* Monitor's subsystems: how many, and the longest name */
#define DEVICE_FILTER_MAX	64
#define DEVICE_NAME_MAX		64
/* Net devices of one namespace that a walk lists */
#define DEVICE_NETDEVS_MAX	65536
/* GetAttributes: attributes of one call, names given, binary names' bytes */
#define DEVICE_ATTRS_MAX	1024
#define DEVICE_NAMES_MAX	128
#define DEVICE_BINARY_SIZE	PAGE_SIZE
/* Trigger: arguments, and the bytes written (kobject_synth_uevent() adds
 * them to the 2048 bytes of a uevent's environment)
 */
#define DEVICE_ARGS_MAX		32
#define DEVICE_TRIGGER_MAX	1024

static unsigned int monitor_buffer = 4 << 20;
module_param(monitor_buffer, uint, 0444);
MODULE_PARM_DESC(monitor_buffer,
		 "Receive buffer of each Monitor stream's uevent socket, in bytes (64 KiB-256 MiB, default 4 MiB; without CAP_NET_ADMIN, at most twice net.core.rmem_max)");

static const char vdev_idl[] =
"# The devices of the system as sysfs shows them in the caller's network\n"
"# namespace, their attributes, their uevents as the caller's uevent\n"
"# netlink socket gets them, and synthetic uevents (coldplug): the kernel\n"
"# half of udev.\n"
"interface org.kernel.device\n"
"\n"
"# A device: a directory of /sys/devices that holds a \"uevent\" file; or a\n"
"# subsystem, a driver or a module, which take uevents too.\n"
"type Device (\n"
"  # Its path from the root of sysfs, as uevents name it (DEVPATH), e.g.\n"
"  # \"/devices/virtual/mem/null\"; \"/bus/NAME\" for a subsystem,\n"
"  # \"/bus/NAME/drivers/DRIVER\" for a driver, \"/module/NAME\" for a module.\n"
"  syspath: string,\n"
"  # The name of its subsystem (its class or bus: the target of its\n"
"  # \"subsystem\" link, or SUBSYSTEM of an event), e.g. \"mem\"; as sd-device\n"
"  # names them, \"subsystem\", \"drivers\" and \"module\" for a subsystem, a\n"
"  # driver and a module; null if it has none.\n"
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
"  # ACTION, DEVPATH, SUBSYSTEM and SEQNUM); none for a subsystem, a driver\n"
"  # or a module, whose uevent file is write-only.  Bytes that are not\n"
"  # UTF-8 become U+FFFD.\n"
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
"# would show.  The replies are paced: the server sends each once the\n"
"# client has read most of those before.  An empty list is one reply\n"
"# without device.  Each call counts against the server's stream quotas\n"
"# (org.kernel.varlink.TooManyStreams).\n"
"method List(\n"
"  # Only the devices of this subsystem.\n"
"  subsystem: ?string,\n"
"  # What to list, as udevadm trigger's --type: \"devices\" (if absent),\n"
"  # \"subsystems\": the modules of /sys/module, then the subsystems of\n"
"  # /sys/bus and the drivers of each, or \"all\": the devices, then those.\n"
"  type: ?string\n"
") -> (device: ?Device)\n"
"\n"
"# Describe one device, by syspath (\"/devices/...\", \"/bus/...\" or\n"
"# \"/module/...\"), by device number (\"c1:3\", \"b254:0\", as /sys/dev/char\n"
"# and /sys/dev/block name them) or by the index of a network interface of\n"
"# the caller's network namespace.  Give exactly one of the three, else\n"
"# org.varlink.service.InvalidParameter names the first one too many, or\n"
"# \"syspath\" if none is given.  A syspath of components other than\n"
"# [A-Za-z0-9_.:@+!-] (\".\" and \"..\" neither), over 500 bytes, or a devnum\n"
"# of another form, is an invalid parameter.\n"
"method Get(\n"
"  syspath: ?string,\n"
"  devnum: ?string,\n"
"  ifindex: ?int,\n"
"  # Also give the device's ancestors that are devices, nearest first, as\n"
"  # udevadm info --attribute-walk walks them.\n"
"  parents: ?bool\n"
") -> (\n"
"  device: Device,\n"
"  # With \"parents\": the ancestors (none for a subsystem, a driver or a\n"
"  # module).\n"
"  parents: ?[]Device\n"
")\n"
"\n"
"# A device's sysfs attributes, read as the caller as \"cat\" of each file\n"
"# would be: a file that is the root's only (0400, such as\n"
"# /devices/virtual/dmi/id's product_uuid) is not readable to others.  A\n"
"# syspath as Get takes it; net devices of a network namespace other than\n"
"# the initial one are not found here (DeviceNotFound).  A reply over the\n"
"# server's message size (max_message_size) is\n"
"# org.kernel.varlink.SystemError with errno 90 (EMSGSIZE): ask for fewer.\n"
"method GetAttributes(\n"
"  syspath: string,\n"
"  # The attributes to read, relative to the device's directory, with one\n"
"  # level of subdirectory at most (\"power/control\"); at most 128, each\n"
"  # named once.  Absent: the regular files of the device's directory and\n"
"  # of its \"power\" directory, at most 1024, else SystemError 7 (E2BIG).\n"
"  names: ?[]string\n"
") -> (\n"
"  # Each attribute's value as the file gives it, without its final\n"
"  # newline (bytes that are not UTF-8 become U+FFFD); null for one that\n"
"  # cannot be read (no such file, a directory or a link, not readable to\n"
"  # the caller, or its read fails).\n"
"  attributes: [string]?string,\n"
"  # The binary attributes, left out of \"attributes\": a file sysfs sizes\n"
"  # otherwise than a page (a bin_attribute, which is not read), or a value\n"
"  # over a page or with a NUL byte.  Null if there is none.\n"
"  binary: ?[]string\n"
")\n"
"\n"
"# Stream the uevents the caller's network namespace gets, one reply each;\n"
"# call it with \"more\", else org.varlink.service.ExpectedMore.  The first\n"
"# reply is {\"ready\": true}, sent once the stream is subscribed: an event\n"
"# caused after the client has it (by a Trigger) is not missed.  In a\n"
"# namespace owned by the initial user namespace the events are those of\n"
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
"method Monitor(subsystems: ?[]string, replay: ?bool) -> (\n"
"  # True in the first reply, which has no event.\n"
"  ready: ?bool,\n"
"  event: ?Event\n"
")\n"
"\n"
"# Make the kernel send a uevent for a device, a subsystem, a driver or a\n"
"# module, as udevadm trigger does: writes \"ACTION UUID KEY=VALUE ...\" to\n"
"# its uevent file, and the event carries SYNTH_UUID=UUID and\n"
"# SYNTH_ARG_KEY=VALUE.  It needs the write permission of that file and\n"
"# CAP_SYS_ADMIN in the initial user namespace, both for the connection's\n"
"# opener and the call's sender; else org.varlink.service.PermissionDenied.\n"
"# Where the /sys of either is read-only (a container's, a service's with\n"
"# ProtectKernelTunables=), or, outside the initial mount namespace, is not\n"
"# mounted at all, it is org.kernel.varlink.SystemError errno 30 (EROFS),\n"
"# as write(2) there.  Net devices of a network namespace other than the\n"
"# initial one are not found (DeviceNotFound).\n"
"method Trigger(\n"
"  # A syspath as Get takes it.\n"
"  syspath: string,\n"
"  # \"add\", \"remove\", \"change\", \"move\", \"online\", \"offline\", \"bind\"\n"
"  # or \"unbind\".\n"
"  action: string,\n"
"  # The event's SYNTH_UUID, \"xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx\" of hex\n"
"  # digits; if absent, the server makes a random one.\n"
"  uuid: ?string,\n"
"  # SYNTH_ARG_KEY=VALUE of the event: keys and values of ASCII letters and\n"
"  # digits only, as the kernel takes them, not empty; at most 32, and 1024\n"
"  # bytes with the action and the UUID.\n"
"  arguments: ?[string]string\n"
") -> (\n"
"  # The event's SYNTH_UUID.\n"
"  uuid: string\n"
")\n"
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

/* The parts of a walk, in order: see vdev_walk_start() */
enum vdev_part {
	VDEV_DEVICES,	/* /sys/devices */
	VDEV_NETDEVS,	/* the caller's net devices, outside the initial netns */
	VDEV_MODULES,	/* /sys/module */
	VDEV_BUSES,	/* /sys/bus, and the drivers of each */
	VDEV_DONE,
};

/* What one call or stream works with */
struct vdev_ctx {
	struct varlink_call *call;
	struct net *net;		/* the caller's */
	struct varlink_walk *walk;	/* a walk of sysfs, or NULL */
	enum vdev_part part, last;	/* the walk's part, its last */
	u64 devices;			/* bit N: depth N of @walk is a device */
	/* the subsystems a walk yields (every one for none): it reads no
	 * further into the others
	 */
	const char (*filter)[DEVICE_NAME_MAX];
	unsigned int n_filter;
	/* a walk's net devices of @net, outside the initial netns */
	int *netdevs;
	unsigned int n_netdevs, next_netdev;
	/* the device: its properties, parsed in @buf */
	unsigned int n;
	const char *key[DEVICE_PROPS_MAX];
	const char *val[DEVICE_PROPS_MAX];
	char subsystem[DEVICE_NAME_MAX];
	char path[DEVICE_PATH_MAX + 1];		/* below sysfs: "devices/..." */
	char syspath[DEVICE_PATH_MAX + 2];
	char buf[DEVICE_MSG_SIZE];	/* a uevent file, message, attribute */
};

static struct vdev_ctx *vdev_ctx_new(struct varlink_call *call)
{
	struct vdev_ctx *c = kvzalloc(sizeof(*c), GFP_KERNEL_ACCOUNT);

	if (c) {
		c->call = call;
		c->net = varlink_call_caller(call)->net;
	}
	return c;
}

static void vdev_ctx_free(struct vdev_ctx *c)
{
	if (!c)
		return;
	varlink_walk_end(c->walk);
	kvfree(c->netdevs);
	kvfree(c);
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

static bool vdev_wants(const struct vdev_ctx *c, const char *subsystem)
{
	unsigned int i;

	for (i = 0; i < c->n_filter; i++)
		if (!strcmp(c->filter[i], subsystem))
			return true;
	return !c->n_filter;
}

/* Read the device whose directory is open as @dir: its subsystem link
 * into @c->subsystem, its uevent file (0644, read as the kernel, whole in
 * one read as a sysfs text attribute is) parsed into @c.  Return: 0,
 * -ENOENT if it is no device (or of a subsystem not wanted), or an errno.
 */
static int vdev_read_at(struct vdev_ctx *c, struct file *dir)
{
	struct path path;
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	vdev_link_name(dir, "subsystem", c->subsystem);
	if (!vdev_wants(c, c->subsystem))
		return -ENOENT;
	n = vfs_path_lookup(dir->f_path.dentry, dir->f_path.mnt, "uevent", 0,
			    &path);
	if (n)
		return n;
	f = d_is_reg(path.dentry) ? dentry_open(&path, O_RDONLY | O_LARGEFILE,
						current_cred()) :
				    ERR_PTR(-ENOENT);
	path_put(&path);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, c->buf, DEVICE_UEVENT_SIZE - 1, &pos);
	fput(f);
	vdev_parse(c, c->buf, max_t(ssize_t, n, 0), '\n');
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

/* What sd-device calls the subsystem of the objects of sysfs that take
 * uevents but are no devices, by their path @rel: "bus/NAME"
 * ("subsystem"), "bus/NAME/drivers/DRIVER" ("drivers") and
 * "module/NAME" ("module"); NULL for any other path.
 */
static const char *vdev_object(const char *rel)
{
	unsigned int n = 1;
	const char *p;

	for (p = rel; *p; p++)
		n += *p == '/';
	if (!strncmp(rel, "module/", 7))
		return n == 2 ? "module" : NULL;
	if (strncmp(rel, "bus/", 4))
		return NULL;
	if (n == 2)
		return "subsystem";
	p = strchr(rel + 4, '/');
	return n == 4 && !strncmp(p, "/drivers/", 9) ? "drivers" : NULL;
}

/* The object at @rel, of @subsystem, into @c: no properties */
static void vdev_object_set(struct vdev_ctx *c, const char *rel,
			    const char *subsystem)
{
	snprintf(c->syspath, sizeof(c->syspath), "/%s", rel);
	strscpy(c->subsystem, subsystem, sizeof(c->subsystem));
	c->n = 0;
}

/* Start the part @c->part of a walk: NULL @c->walk for nothing to walk */
static int vdev_part_start(struct vdev_ctx *c)
{
	static const char *const dirs[] = {
		[VDEV_DEVICES] = "devices", [VDEV_MODULES] = "module",
		[VDEV_BUSES] = "bus",
	};
	static const unsigned int depths[] = {
		[VDEV_DEVICES] = DEVICE_DEPTH_MAX, [VDEV_MODULES] = 1,
		[VDEV_BUSES] = 3,
	};

	c->devices = 0;
	if (c->part == VDEV_NETDEVS)
		return net_eq(c->net, &init_net) || !vdev_wants(c, "net") ?
		       0 : vdev_netdevs(c);
	if ((c->part == VDEV_MODULES && !vdev_wants(c, "module")) ||
	    (c->part == VDEV_BUSES && !vdev_wants(c, "subsystem") &&
	     !vdev_wants(c, "drivers")))
		return 0;
	c->walk = varlink_walk_start(c->call, VARLINK_SYSFS, dirs[c->part],
				     depths[c->part], VARLINK_WALK_KERNEL);
	if (IS_ERR(c->walk)) {
		int err = PTR_ERR(c->walk);

		c->walk = NULL;
		return err;
	}
	return 0;
}

/* Start a walk of the parts @first to @last, opened as the caller. */
static int vdev_walk_start(struct vdev_ctx *c, enum vdev_part first,
			   enum vdev_part last)
{
	c->part = first;
	c->last = last;
	return vdev_part_start(c);
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

/* The next of the subsystems, drivers and modules of the walk, into @c:
 * 1, 0 at the end, or a negative errno.
 */
static int vdev_next_object(struct vdev_ctx *c)
{
	struct varlink_walk_entry e;
	const char *subsystem;
	int err;

	while ((err = varlink_walk_next(c->walk, &e)) > 0) {
		if (e.type != DT_DIR)
			continue;
		subsystem = vdev_object(e.path);
		/* a bus, then its drivers: one that fails is left out */
		if (c->part == VDEV_BUSES &&
		    (e.depth == 1 ||
		     (e.depth == 2 && !strcmp(e.name, "drivers"))))
			varlink_walk_enter(c->walk);
		if (subsystem && vdev_wants(c, subsystem)) {
			vdev_object_set(c, e.path, subsystem);
			return 1;
		}
	}
	return err;
}

/* The next device of the walk's part in progress: 1 with it read into
 * @c (@c->syspath set), 0 at the end of the part, or a negative errno.
 */
static int vdev_part_next(struct vdev_ctx *c)
{
	struct varlink_walk_entry e;
	int err;

	if (c->part == VDEV_NETDEVS) {
		while (c->netdevs && c->next_netdev < c->n_netdevs)
			if (!vdev_netdev(c, c->netdevs[c->next_netdev++]))
				return 1;
		return 0;
	}
	if (!c->walk)
		return 0;
	if (c->part != VDEV_DEVICES)
		return vdev_next_object(c);
	while ((err = varlink_walk_next(c->walk, &e)) > 0) {
		if (e.type != DT_DIR)
			continue;
		err = vdev_walk_device(c, &e);
		if (err != -ENOENT)
			return err ? err : 1;
	}
	return err;
}

/* The next device of a walk, of a subsystem @c->want wants: 1 with it
 * read into @c (@c->syspath set), 0 at the end, or a negative errno.
 * Devices that vanish meanwhile are left out.
 */
static int vdev_walk_next(struct vdev_ctx *c)
{
	int err;

	while (c->part != VDEV_DONE) {
		err = vdev_part_next(c);
		if (err)
			return err;
		varlink_walk_end(c->walk);
		c->walk = NULL;
		c->part = c->part == c->last ? VDEV_DONE : c->part + 1;
		if (c->part != VDEV_DONE) {
			err = vdev_part_start(c);
			if (err)
				return err;
		}
	}
	return 0;
}

/* What a lookup's error says: no such device.  -EINVAL: a component the
 * core refuses, which no device has.
 */
static bool vdev_not_found(int err)
{
	return err == -ENOENT || err == -ENOTDIR || err == -ELOOP ||
	       err == -EINVAL || err == -ENAMETOOLONG;
}

/* A syspath from a client into the relative path @rel ("devices/...",
 * "bus/...", "module/..."): 0, or -EINVAL.
 */
static int vdev_syspath(const char *syspath, char *rel, size_t size)
{
	if (strlen(syspath) >= size || strlen(syspath) > 500 ||
	    (strncmp(syspath, "/devices/", 9) && !vdev_object(syspath + 1)) ||
	    !varlink_file_name_valid(syspath + 1))
		return -EINVAL;
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

/* The device, subsystem, driver or module at @c->path, read into @c as
 * the caller, and not a net device of the host seen from another
 * namespace: 0, or an errno.
 */
static int vdev_find(struct vdev_ctx *c)
{
	const char *object = vdev_object(c->path);
	struct file *dir;
	int err;

	if (object) {
		dir = varlink_file_open(c->call, VARLINK_SYSFS, c->path,
					O_RDONLY | O_DIRECTORY);
		if (IS_ERR(dir))
			return PTR_ERR(dir);
		fput(dir);
		vdev_object_set(c, c->path, object);
		return 0;
	}
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
	bool parents;
};

static const struct varlink_param vdev_get_params[] = {
	VARLINK_PARAM("syspath", struct vdev_get_params, syspath),
	VARLINK_PARAM("devnum", struct vdev_get_params, devnum),
	VARLINK_PARAM("ifindex", struct vdev_get_params, ifindex),
	VARLINK_PARAM("parents", struct vdev_get_params, parents),
};

/* The device Get names by syspath into @c: 0, -EDOM for a syspath that
 * is none, or an errno.  Outside the initial network namespace, the
 * caller's own net devices first.
 */
static int vdev_get_syspath(struct vdev_ctx *c, const char *syspath)
{
	if (vdev_syspath(syspath, c->path, sizeof(c->path)))
		return -EDOM;
	if (!net_eq(c->net, &init_net) && !vdev_netdev_by_path(c))
		return 0;
	return vdev_find(c);
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
	return err ? err : vdev_find(c);
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
		err = vdev_find(c);
	}
	kfree(path);
	return err;
}

/* The ancestors of the device in @c that are devices, nearest first, as
 * "parents"; @c is theirs then.
 */
static int vdev_put_parents(struct vdev_ctx *c)
{
	char *slash;
	int err = 0;

	varlink_open_array(c->call, "parents");
	strscpy(c->path, c->syspath + 1, sizeof(c->path));
	while (!vdev_object(c->path) && (slash = strrchr(c->path, '/')) &&
	       slash - c->path > strlen("devices")) {
		*slash = '\0';
		err = vdev_find(c);
		if (!err)
			vdev_put(c, NULL, c->syspath, c->subsystem);
		else if (!vdev_not_found(err))
			break;
		err = 0;
	}
	varlink_close_array(c->call);
	return err;
}

/* The reply of a call whose lookup of the device failed with @err */
static int vdev_lookup_failed(struct varlink_call *call, int err,
			      const char *param)
{
	if (err == -EDOM)
		return varlink_error_invalid_parameter(call, param);
	if (vdev_not_found(err))
		return varlink_error(call, DEVICE_ERR("DeviceNotFound"));
	return err;
}

/* Get(syspath: ?string, devnum: ?string, ifindex: ?int, parents: ?bool)
 * -> (device: Device, parents: ?[]Device)
 */
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
		if (p->parents)
			err = vdev_put_parents(c);
	}
	vdev_ctx_free(c);
	if (err)
		return vdev_lookup_failed(call, err,
					  p->syspath ? "syspath" : "devnum");
	return varlink_reply(call);
}

/* Read the attribute @name of the open directory @dir, at @rel below
 * sysfs, as the caller (varlink_file_read()) into @buf,
 * DEVICE_UEVENT_SIZE + 1 bytes: its length without a final newline,
 * -ENODATA for a binary one, or an errno.  sysfs sizes a binary
 * attribute's file otherwise than a page: looked up in @dir (all 0755),
 * such a file is not read.
 */
static ssize_t vdev_attr_read(struct varlink_call *call, struct file *dir,
			      const char *name, const char *rel, char *buf)
{
	struct path path;
	bool binary;
	ssize_t n;

	if (!vfs_path_lookup(dir->f_path.dentry, dir->f_path.mnt, name, 0,
			     &path)) {
		binary = d_is_reg(path.dentry) &&
			 i_size_read(d_inode(path.dentry)) != PAGE_SIZE;
		path_put(&path);
		if (binary)
			return -ENODATA;
	}
	n = varlink_file_read(call, VARLINK_SYSFS, rel, buf,
			      DEVICE_UEVENT_SIZE + 1);
	if (n == -EFBIG || (n > 0 && memchr(buf, '\0', n)))
		return -ENODATA;
	if (n < 0)
		return n;
	return n && buf[n - 1] == '\n' ? n - 1 : n;
}

/**
 * struct vdev_attrs - a GetAttributes call
 * @c: the device, and the buffer values are read into
 * @dir: the device's directory, open as the caller
 * @binary: the names of the binary attributes, each with its NUL
 * @binary_len: bytes of @binary
 * @n: attributes so far
 */
struct vdev_attrs {
	struct vdev_ctx *c;
	struct file *dir;
	char *binary;
	size_t binary_len;
	unsigned int n;
};

/* One attribute, @name of the device, at @rel, found as @lookup in @dir,
 * into the reply
 */
static int vdev_attr_put(struct vdev_attrs *a, struct file *dir,
			 const char *lookup, const char *rel, const char *name)
{
	struct varlink_call *call = a->c->call;
	size_t len = strlen(name) + 1;
	ssize_t n;

	if (++a->n > DEVICE_ATTRS_MAX)
		return -E2BIG;
	n = vdev_attr_read(call, dir, lookup, rel, a->c->buf);
	cond_resched();
	if (n == -ENOMEM ||
	    (n == -ENODATA && a->binary_len + len > DEVICE_BINARY_SIZE))
		return n == -ENOMEM ? n : -E2BIG;
	if (n >= 0)
		varlink_put_str_len(call, name, a->c->buf, n);
	else if (n != -ENODATA)
		varlink_put_null(call, name);
	else
		a->binary_len += strscpy(a->binary + a->binary_len, name,
					 len) + 1;
	return 0;
}

/* Every regular file of the device's directory and of its "power" */
static int vdev_attrs_all(struct vdev_attrs *a)
{
	size_t skip = strlen(a->c->path) + 1;
	struct varlink_walk_entry e;
	struct varlink_walk *w;
	int err;

	w = varlink_walk_start(a->c->call, VARLINK_SYSFS, a->c->path, 2,
			       VARLINK_WALK_KERNEL);
	if (IS_ERR(w))
		return PTR_ERR(w);
	while ((err = varlink_walk_next(w, &e)) > 0) {
		if (e.type == DT_DIR && e.depth == 1 &&
		    !strcmp(e.name, "power"))
			varlink_walk_enter(w);
		else if (e.type == DT_REG)
			err = vdev_attr_put(a, e.dir, e.name, e.path, e.path + skip);
		if (err < 0)
			break;
	}
	varlink_walk_end(w);
	return err;
}

/* Whether the name of @val, one of @names, comes before it */
static bool vdev_name_seen(const struct varlink_json *names,
			   const struct varlink_json *val, const char *name,
			   char *buf)
{
	struct varlink_json key, v;
	struct varlink_json_iter it;

	varlink_json_iter_init(&it, names);
	while (varlink_json_iter_next(&it, &key, &v) > 0 && v.text != val->text)
		if (varlink_json_str(&v, buf, DEVICE_PATH_MAX) >= 0 &&
		    !strcmp(buf, name))
			return true;
	return false;
}

/* The attributes @names names: -EDOM for a name that is none */
static int vdev_attrs_named(struct vdev_attrs *a,
			    const struct varlink_json *names)
{
	char name[DEVICE_PATH_MAX], *rel = a->c->syspath, *seen = a->c->buf;
	size_t len = strlen(a->c->path);
	struct varlink_json key, val;
	struct varlink_json_iter it;
	unsigned int n = 0;
	int err;

	err = varlink_json_iter_init(&it, names);
	while (!err && (err = varlink_json_iter_next(&it, &key, &val)) > 0) {
		if (++n > DEVICE_NAMES_MAX ||
		    varlink_json_str(&val, name, sizeof(name)) < 0 ||
		    !varlink_file_name_valid(name) ||
		    strchr(name, '/') != strrchr(name, '/') ||
		    len + 1 + strlen(name) >= sizeof(a->c->syspath) ||
		    vdev_name_seen(names, &val, name, seen))
			return -EDOM;
		memcpy(rel, a->c->path, len);
		rel[len] = '/';
		strscpy(rel + len + 1, name, sizeof(a->c->syspath) - len - 1);
		err = vdev_attr_put(a, a->dir, name, rel, name);
	}
	return err;
}

struct vdev_attrs_params {
	const char *syspath;
	struct varlink_json names;
};

static const struct varlink_param vdev_attrs_params[] = {
	VARLINK_PARAM("syspath", struct vdev_attrs_params, syspath),
	VARLINK_PARAM("names", struct vdev_attrs_params, names),
};

/* The binary attributes' names, if any, as "binary" */
static void vdev_put_binary(struct vdev_attrs *a)
{
	const char *p;

	if (!a->binary_len)
		return;
	varlink_open_array(a->c->call, "binary");
	for (p = a->binary; p < a->binary + a->binary_len; p += strlen(p) + 1)
		varlink_put_str(a->c->call, NULL, p);
	varlink_close_array(a->c->call);
}

/* GetAttributes(syspath: string, names: ?[]string)
 * -> (attributes: [string]?string, binary: ?[]string)
 */
static int vdev_get_attributes(struct varlink_call *call, const void *params)
{
	const struct vdev_attrs_params *p = params;
	const char *bad = "syspath";
	struct vdev_attrs a = {};
	int err = -ENOMEM;

	a.c = vdev_ctx_new(call);
	a.binary = kmalloc(DEVICE_BINARY_SIZE, GFP_KERNEL_ACCOUNT);
	if (a.c && a.binary)
		err = vdev_syspath(p->syspath, a.c->path, sizeof(a.c->path)) ?
		      -EDOM : vdev_find(a.c);
	if (!err) {
		a.dir = varlink_file_open(call, VARLINK_SYSFS, a.c->path,
					  O_RDONLY | O_DIRECTORY);
		err = PTR_ERR_OR_ZERO(a.dir);
	}
	if (!err) {
		bad = "names";
		varlink_open_object(call, "attributes");
		err = p->names.text ? vdev_attrs_named(&a, &p->names) :
				      vdev_attrs_all(&a);
		varlink_close_object(call);
		vdev_put_binary(&a);
		fput(a.dir);
	}
	vdev_ctx_free(a.c);
	kfree(a.binary);
	if (err)
		return vdev_lookup_failed(call, err, bad);
	return varlink_reply(call);
}

struct vdev_trigger_params {
	const char *syspath;
	const char *action;
	const char *uuid;
	struct varlink_json arguments;
};

static const struct varlink_param vdev_trigger_params[] = {
	VARLINK_PARAM("syspath", struct vdev_trigger_params, syspath),
	VARLINK_PARAM("action", struct vdev_trigger_params, action),
	VARLINK_PARAM("uuid", struct vdev_trigger_params, uuid),
	VARLINK_PARAM("arguments", struct vdev_trigger_params, arguments),
};

/* What kobject_synth_uevent() takes (kobject_action_type()) */
static const char *const vdev_actions[] = {
	"add", "remove", "change", "move", "online", "offline", "bind",
	"unbind",
};

/* Decode the JSON string @v to the end of @line (@len bytes so far), as
 * kobject_action_args() takes a key or a value: ASCII letters and digits,
 * not empty.  Return: the new length, or -EDOM.
 */
static int vdev_arg_word(char *line, int len, const struct varlink_json *v)
{
	int n = varlink_json_str(v, line + len, DEVICE_TRIGGER_MAX + 1 - len);
	int i;

	if (n <= 0)
		return -EDOM;
	for (i = len; i < len + n; i++)
		if (!isascii(line[i]) || !isalnum(line[i]))
			return -EDOM;
	return len + n;
}

/* "ACTION UUID KEY=VALUE ..." into @line, DEVICE_TRIGGER_MAX + 1 bytes:
 * its length, or -EDOM for arguments that cannot be written.
 */
static int vdev_trigger_line(char *line, const char *action,
			     const char *uuid, const struct varlink_json *args)
{
	int len = scnprintf(line, DEVICE_TRIGGER_MAX + 1, "%s %s", action,
			    uuid);
	struct varlink_json key, val;
	struct varlink_json_iter it;
	unsigned int n = 0;
	int ret;

	ret = varlink_json_iter_init(&it, args);
	while (!ret && (ret = varlink_json_iter_next(&it, &key, &val)) > 0) {
		if (++n > DEVICE_ARGS_MAX || len + 4 > DEVICE_TRIGGER_MAX)
			return -EDOM;
		line[len++] = ' ';
		len = vdev_arg_word(line, len, &key);
		if (len < 0 || len + 2 > DEVICE_TRIGGER_MAX)
			return -EDOM;
		line[len++] = '=';
		len = vdev_arg_word(line, len, &val);
		if (len < 0)
			return -EDOM;
		ret = 0;
	}
	return ret < 0 ? -EDOM : len;
}

/* Trigger(syspath: string, action: string, uuid: ?string,
 *	   arguments: ?[string]string) -> (uuid: string)
 */
static int vdev_trigger(struct varlink_call *call, const void *params)
{
	const struct vdev_trigger_params *p = params;
	char uuid[UUID_STRING_LEN + 1];
	const char *bad = "syspath";
	struct vdev_ctx *c;
	uuid_t u;
	int err;

	if (match_string(vdev_actions, ARRAY_SIZE(vdev_actions),
			 p->action) < 0)
		return varlink_error_invalid_parameter(call, "action");
	if (p->uuid && (strlen(p->uuid) != UUID_STRING_LEN ||
			!uuid_is_valid(p->uuid)))
		return varlink_error_invalid_parameter(call, "uuid");
	if (p->uuid) {
		strscpy(uuid, p->uuid, sizeof(uuid));
	} else {
		uuid_gen(&u);
		snprintf(uuid, sizeof(uuid), "%pUb", &u);
	}
	c = vdev_ctx_new(call);
	if (!c)
		return -ENOMEM;
	err = vdev_syspath(p->syspath, c->path, sizeof(c->path)) ? -EDOM :
	      !varlink_call_capable(call, CAP_SYS_ADMIN) ? -EPERM :
	      vdev_find(c);
	if (!err) {
		bad = "arguments";
		err = vdev_trigger_line(c->buf, p->action, uuid, &p->arguments);
	}
	if (err >= 0) {
		strlcat(c->path, "/uevent", sizeof(c->path));
		err = varlink_file_write(call, VARLINK_SYSFS, c->path, c->buf,
					 err);
		/* kobject_synth_uevent(): an environment too large for it */
		err = err == -EINVAL ? -EDOM : err;
	}
	vdev_ctx_free(c);
	if (err)
		return vdev_lookup_failed(call, err, bad);
	varlink_put_str(call, "uuid", uuid);
	return varlink_reply(call);
}

/**
 * struct vdev_stream - a List or Monitor stream
 * @stream: the core's
 * @c: the walk (List's, Monitor's replay), and the events received
 * @sock: Monitor's uevent socket; NULL for List
 * @walking: the walk is not done
 * @pending: a device or event of the walk is written, not yet sent: the
 *	last one of List is its final reply
 * @filter: the subsystems wanted, @c->n_filter of them
 */
struct vdev_stream {
	struct varlink_stream stream;
	struct vdev_ctx *c;
	struct socket *sock;
	bool walking;
	bool pending;
	char filter[DEVICE_FILTER_MAX][DEVICE_NAME_MAX];
};

static void vdev_data_ready(struct sock *sk)
{
	struct vdev_stream *s;

	read_lock_bh(&sk->sk_callback_lock);
	s = sk->sk_user_data;
	if (s)
		varlink_stream_kick(&s->stream);
	read_unlock_bh(&sk->sk_callback_lock);
}

/* No kick once this returns: the socket's callback is gone with it. */
static void vdev_stream_free(struct vdev_stream *s)
{
	struct sock *sk;

	if (s->sock) {
		sk = s->sock->sk;
		write_lock_bh(&sk->sk_callback_lock);
		sk->sk_user_data = NULL;
		write_unlock_bh(&sk->sk_callback_lock);
		sock_release(s->sock);
	}
	vdev_ctx_free(s->c);
	kfree(s);
}

/* The event of the device in @c under "event" */
static void vdev_put_event(struct vdev_ctx *c, const char *action,
			   const char *syspath, const char *subsystem)
{
	const char *seq = vdev_prop(c, "SEQNUM");
	u64 seqnum;

	varlink_open_object(c->call, "event");
	varlink_put_str(c->call, "action", action);
	if (seq && !kstrtou64(seq, 10, &seqnum))
		varlink_put_u64(c->call, "seqnum", seqnum);
	vdev_put(c, "device", syspath, subsystem);
	varlink_close_object(c->call);
}

/* Send the walk's devices, each once the next is found: List's, the last
 * its final reply, or Monitor's as "exists" events.  Return: 0 once all
 * are sent, or what stops the run.
 */
static int vdev_replay(struct vdev_stream *s)
{
	struct vdev_ctx *c = s->c;
	int err;

	while ((err = vdev_walk_next(c)) > 0) {
		err = s->pending ? varlink_stream_reply(&s->stream) : 0;
		if (err && err != -EAGAIN)
			return err;
		if (s->sock)
			vdev_put_event(c, "exists", c->syspath, c->subsystem);
		else
			vdev_put(c, "device", c->syspath, c->subsystem);
		s->pending = true;
		if (err)
			return err;
		cond_resched();
	}
	if (err && s->pending)
		varlink_stream_reply(&s->stream);	/* then the error */
	if (err)
		return err;
	s->walking = false;
	if (!s->sock)
		return varlink_reply(c->call);
	s->pending = false;
	return varlink_stream_reply(&s->stream);
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
static int vdev_event_recv(struct vdev_stream *s)
{
	struct sockaddr_nl from = {};
	struct msghdr msg = {
		.msg_name = &from,
		.msg_namelen = sizeof(from),
	};
	struct kvec iov = {
		.iov_base = s->c->buf,
		.iov_len = DEVICE_MSG_SIZE - 1,
	};
	int n;

	n = kernel_recvmsg(s->sock, &msg, &iov, 1, iov.iov_len, MSG_DONTWAIT);
	if (n < 0)
		return n;
	/* the kernel's only: no multicast of another socket */
	if ((msg.msg_flags & MSG_TRUNC) || from.nl_pid ||
	    vdev_event_parse(s->c, n))
		return 0;
	return n;
}

/* Send the live events queued, until the socket is empty. */
static int vdev_live(struct vdev_stream *s)
{
	struct vdev_ctx *c = s->c;
	const char *subsystem;
	int n;

	for (;;) {
		n = vdev_event_recv(s);
		if (n == -EAGAIN)
			return 0;
		if (n == -ENOBUFS)
			return varlink_error(c->call, DEVICE_ERR("EventsLost"));
		if (n < 0)
			return n;
		subsystem = vdev_prop(c, "SUBSYSTEM");
		if (!n || !vdev_wants(c, subsystem ?: ""))
			continue;
		vdev_put_event(c, vdev_prop(c, "ACTION"),
			       vdev_prop(c, "DEVPATH"), subsystem);
		n = varlink_stream_reply(&s->stream);
		if (n)
			return n;
		cond_resched();
	}
}

static int vdev_stream_run(struct varlink_stream *stream)
{
	struct vdev_stream *s = container_of(stream, struct vdev_stream,
					     stream);
	int err = s->walking ? vdev_replay(s) : 0;

	return err || !s->sock ? err : vdev_live(s);
}

static int vdev_stream_stop(struct varlink_stream *stream)
{
	struct vdev_stream *s = container_of(stream, struct vdev_stream,
					     stream);

	if (!s->sock)
		return -ESHUTDOWN;
	return varlink_error(stream->call, DEVICE_ERR("MonitorEnded"));
}

static void vdev_stream_release(struct varlink_stream *stream)
{
	vdev_stream_free(container_of(stream, struct vdev_stream, stream));
}

static const struct varlink_stream_ops vdev_stream_ops = {
	.run = vdev_stream_run,
	.stop = vdev_stream_stop,
	.release = vdev_stream_release,
};

static struct vdev_stream *vdev_stream_new(struct varlink_call *call)
{
	struct vdev_stream *s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);

	if (!s)
		return NULL;
	s->c = vdev_ctx_new(call);
	if (!s->c) {
		kfree(s);
		return NULL;
	}
	s->c->filter = s->filter;
	varlink_stream_init(&s->stream, &vdev_stream_ops);
	return s;
}

/* Start @s's walk of the parts @first to @last, then the stream */
static int vdev_stream_start(struct vdev_stream *s, enum vdev_part first,
			     enum vdev_part last)
{
	int err = vdev_walk_start(s->c, first, last);

	if (err) {
		vdev_stream_free(s);
		return err;
	}
	s->walking = true;
	return varlink_stream_start(s->c->call, &s->stream);
}

struct vdev_list_params {
	const char *subsystem;
	const char *type;
};

static const struct varlink_param vdev_list_params[] = {
	VARLINK_PARAM("subsystem", struct vdev_list_params, subsystem),
	VARLINK_PARAM("type", struct vdev_list_params, type),
};

/* List(subsystem: ?string, type: ?string) -> (device: ?Device) */
static int vdev_list(struct varlink_call *call, const void *params)
{
	static const char *const types[] = { "devices", "subsystems", "all" };
	const struct vdev_list_params *p = params;
	int type = p->type ? match_string(types, ARRAY_SIZE(types), p->type) : 0;
	struct vdev_stream *s;

	if (type < 0)
		return varlink_error_invalid_parameter(call, "type");
	s = vdev_stream_new(call);
	if (!s)
		return -ENOMEM;
	if (p->subsystem) {
		strscpy(s->filter[0], p->subsystem, DEVICE_NAME_MAX);
		s->c->n_filter = 1;
	}
	/* as udevadm's --type: the devices, the subsystems, or both */
	return vdev_stream_start(s, type == 1 ? VDEV_MODULES : VDEV_DEVICES,
				 type ? VDEV_BUSES : VDEV_NETDEVS);
}

/* The subsystems parameter into @s->filter: 0, or -EINVAL for too many
 * or too long a name.
 */
static int vdev_filter(struct vdev_stream *s, const struct varlink_json *j)
{
	struct varlink_json key, val;
	struct varlink_json_iter it;
	int err;

	err = varlink_json_iter_init(&it, j);
	while (!err && (err = varlink_json_iter_next(&it, &key, &val)) > 0) {
		if (s->c->n_filter == DEVICE_FILTER_MAX ||
		    varlink_json_str(&val, s->filter[s->c->n_filter++],
				     DEVICE_NAME_MAX) <= 0)
			return -EINVAL;
		err = 0;
	}
	return err;
}

struct vdev_monitor_params {
	struct varlink_json subsystems;
	bool replay;
};

static const struct varlink_param vdev_monitor_params[] = {
	VARLINK_PARAM("subsystems", struct vdev_monitor_params, subsystems),
	VARLINK_PARAM("replay", struct vdev_monitor_params, replay),
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
	s->sock = sock;
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = s;
	sk->sk_data_ready = vdev_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
	return kernel_bind(sock, (struct sockaddr_unsized *)&nl, sizeof(nl));
}

/* Monitor(subsystems: ?[]string, replay: ?bool)
 * -> (ready: ?bool, event: ?Event)
 */
static int vdev_monitor(struct varlink_call *call, const void *params)
{
	const struct vdev_monitor_params *p = params;
	struct vdev_stream *s;
	int err;

	s = vdev_stream_new(call);
	if (!s)
		return -ENOMEM;
	if (vdev_filter(s, &p->subsystems)) {
		vdev_stream_free(s);
		return varlink_error_invalid_parameter(call, "subsystems");
	}
	/* subscribed before the replay: no event falls between the two */
	err = vdev_sock_open(s);
	if (!err && !p->replay)
		return varlink_stream_start(call, &s->stream);
	if (!err)
		return vdev_stream_start(s, VDEV_DEVICES, VDEV_NETDEVS);
	vdev_stream_free(s);
	return err;
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
		.name = "GetAttributes", .call = vdev_get_attributes,
		VARLINK_PARAMS(vdev_attrs_params, struct vdev_attrs_params),
	},
	{
		.name = "Monitor", .call = vdev_monitor,
		VARLINK_PARAMS(vdev_monitor_params,
			       struct vdev_monitor_params),
		.flags = VARLINK_MORE_ONLY | VARLINK_STREAM | VARLINK_READY,
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
