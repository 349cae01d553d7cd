// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.network: the network links of the caller's network namespace,
 * as /sys/class/net shows them there, and a stream of their changes.
 *
 * The caller's namespace is that of the listener it connected to
 * (varlink_call_net()): a container sees its own links, and no other.
 *
 * ListLinks and GetLink read the links under RCU, as /proc/net/dev and
 * /sys/class/net do, not under RTNL: any user can hold RTNL for long (a
 * netlink request in a network namespace of its own), and calls waiting
 * for it would take the server's workers, which all connections share,
 * from everybody.  MonitorLinks needs RTNL (the notifier runs under it),
 * and its streams are bounded by max_monitors.  Replies are written after
 * the links were copied into struct network_link, or under RTNL, never
 * under RCU (writing allocates).
 *
 * MonitorLinks streams from a netdevice notifier, which hears the links of
 * every namespace: each event goes to the streams of the link's namespace
 * only.  Each stream is a struct network_monitor on network_monitors,
 * under network_lock, and is only written to under that lock: its replies
 * have one writer at a time.
 * The lock order is RTNL, network_lock, then the core's own locks:
 * varlink_reply_continues() may sleep briefly on a mutex but never waits
 * for the client, so it is fine in the notifier, which runs under RTNL.
 * A new stream sends the links there are ("current") and becomes live in
 * one section under RTNL, so no change falls between the two: a change
 * made before is in the "current" replies, one made after is an event.
 *
 * MonitorLinks is a VARLINK_STREAM: the core's stream quotas bound it
 * with every other stream of the system.  Within them, a narrower pool
 * of its own, whose parameters and TooManyMonitors are published
 * interface, is shared out under network_lock: the last max_monitors / 8
 * are kept for callers with CAP_NET_ADMIN, and a user without it runs at
 * most max_monitors_per_user, counted by varlink_call_user() in its
 * varlink_call_tenant(), so that the uids it maps into user namespaces of
 * its own are all its own share; a container runs at most
 * max_monitors_per_container, all its users together.
 * The streams are one pool for the whole system, whichever namespace they
 * watch, so CAP_NET_ADMIN is that of the initial user namespace: root of
 * a container, or of a user namespace any user can make, holds it in its
 * own namespace and must not take the host's reserve.
 *
 * A stream ends, with network_lock held and exactly one final reply:
 *  - when a reply fails: the client is gone or does not read (the core
 *    closed its connection), and the final reply is dropped;
 *  - from the cancel callback, which the core runs when the client went
 *    away, or when the interface is unregistered;
 *  - at module exit, before the interface is unregistered, with the error
 *    MonitorEnded.
 * The cancel callback takes network_lock only, never RTNL: it runs in the
 * core's connection work or in varlink_unregister_interface().  It may run
 * at any time, even after the final reply, so it gets the stream's id, not
 * a pointer, and only ends a stream it still finds on the list.
 *
 * A stream's namespace outlives the stream: the client's connection
 * holds a reference on it (an accepted AF_UNIX socket does), and the
 * connection outlives its calls.  So no stream has to end when its
 * namespace dies: a namespace is dismantled, its links moved out or
 * deleted, only once no connection is left in it.  Nor does a stream need
 * a reference of its own: see struct network_monitor.
 */
#include <linux/capability.h>
#include <linux/errno.h>
#include <linux/if.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uidgid.h>
#include <net/net_namespace.h>
#include <linux/varlink.h>

#define NETWORK_ERR(name)	"org.kernel.network." name

/* The highest max_monitors that can be set */
#define NETWORK_MONITORS_MAX	4096

static unsigned int max_monitors = 64;
module_param(max_monitors, uint, 0444);
MODULE_PARM_DESC(max_monitors,
		 "MonitorLinks streams that may run at once (1-4096, default 64)");

static unsigned int max_monitors_per_user = 8;
module_param(max_monitors_per_user, uint, 0444);
MODULE_PARM_DESC(max_monitors_per_user,
		 "MonitorLinks streams of one user without CAP_NET_ADMIN (1-max_monitors, default 8)");

/* 0 until loaded: the default, within the two above */
#define NETWORK_CONTAINER_DEFAULT	16U
static unsigned int max_monitors_per_container;
module_param(max_monitors_per_container, uint, 0444);
MODULE_PARM_DESC(max_monitors_per_container,
		 "MonitorLinks streams of one container, its users together (max_monitors_per_user-max_monitors, default 16)");

static const char network_idl[] =
"# The network links (interfaces) of the caller's network namespace (that\n"
"# of the socket it connected to), as \"ip -s link\" and /sys/class/net\n"
"# show them there, and a stream of their changes; the links of other\n"
"# namespaces are never seen.  Values are read when the reply is made;\n"
"# reading them needs no privilege.\n"
"interface org.kernel.network\n"
"\n"
"# A network link, as /sys/class/net/NAME describes it.\n"
"type Link (\n"
"  # The name, e.g. \"eth0\"; bytes that are not UTF-8 become U+FFFD.\n"
"  name: string,\n"
"  # The interface index (ifindex), unique while the link exists.\n"
"  index: int,\n"
"  # The MTU in bytes (mtu).\n"
"  mtu: int,\n"
"  # Administratively up: IFF_UP in flags (\"ip link set NAME up\").\n"
"  up: bool,\n"
"  # Up and operational: IFF_RUNNING as SIOCGIFFLAGS and \"ip link\" report\n"
"  # it, that is up with operstate \"up\" or \"unknown\".\n"
"  running: bool,\n"
"  # The operational state of RFC 2863 (operstate): \"unknown\",\n"
"  # \"notpresent\", \"down\", \"lowerlayerdown\", \"testing\", \"dormant\" or\n"
"  # \"up\"; \"down\" whenever the link is not up.\n"
"  operstate: string,\n"
"  # The hardware address (address): its bytes in lower-case hex, separated\n"
"  # by colons, e.g. \"02:00:00:00:00:01\" for Ethernet; \"\" if it has none.\n"
"  mac: string,\n"
"  # Bytes received (statistics/rx_bytes).  The counters are the driver's,\n"
"  # plus what the core dropped, as dev_get_stats() adds them up.\n"
"  rx_bytes: int,\n"
"  # Bytes sent (statistics/tx_bytes).\n"
"  tx_bytes: int,\n"
"  # Packets received (statistics/rx_packets).\n"
"  rx_packets: int,\n"
"  # Packets sent (statistics/tx_packets).\n"
"  tx_packets: int,\n"
"  # Receive errors (statistics/rx_errors).\n"
"  rx_errors: int,\n"
"  # Transmit errors (statistics/tx_errors).\n"
"  tx_errors: int,\n"
"  # Packets received but dropped (statistics/rx_dropped).\n"
"  rx_dropped: int,\n"
"  # Packets dropped on their way out (statistics/tx_dropped).\n"
"  tx_dropped: int\n"
")\n"
"\n"
"# List the links, in the kernel's order (that in which they came).  A list\n"
"# too long for the server's max_output fails with\n"
"# org.kernel.varlink.SystemError (errno 90, EMSGSIZE).\n"
"method ListLinks() -> (links: []Link)\n"
"\n"
"# Describe one link, by name (or alternative name) or by index.  Give\n"
"# exactly one of the two, else org.varlink.service.InvalidParameter names\n"
"# \"name\" (neither given) or \"index\" (both given).\n"
"method GetLink(name: ?string, index: ?int) -> (link: Link)\n"
"\n"
"# Stream the links and their changes; call it with \"more\", else\n"
"# org.varlink.service.ExpectedMore.  The first replies describe the links\n"
"# there are, one reply each, with event \"current\"; then each change gets\n"
"# one reply, in the order they happen: nothing is missed or told twice\n"
"# between the two.  Every reply has \"continues\": the stream goes on until\n"
"# the client hangs up, or its connection is closed because it does not\n"
"# read its replies, or the interface goes away (MonitorEnded).  At most\n"
"# max_monitors streams run at once in the whole system (a parameter of\n"
"# varlink_network.ko, 64 by default), the last max_monitors / 8 of them\n"
"# (8 by default) only for callers with CAP_NET_ADMIN in the initial user\n"
"# namespace; a user without it runs at most max_monitors_per_user (8 by\n"
"# default), those of the uids it maps into user namespaces of its own\n"
"# included, and a container (a user namespace root made, or a network\n"
"# namespace of the initial user namespace) at most\n"
"# max_monitors_per_container (16 by default), all its users together.\n"
"# One more fails with TooManyMonitors.  Each stream counts against the\n"
"# server's stream quotas too (org.kernel.varlink.GetLimits' max_streams\n"
"# and its shares, larger by default), past which the call fails with\n"
"# org.kernel.varlink.TooManyStreams.\n"
"method MonitorLinks() -> (\n"
"  # \"current\": a link there was when the call was made; \"added\": a link\n"
"  # was created, or moved into the namespace; \"removed\": one was deleted,\n"
"  # or moved out; \"changed\": one went up or down, or changed its\n"
"  # operational state, carrier, MTU, name or address (counters alone are\n"
"  # no change).\n"
"  event: string,\n"
"  # The link after the change; for \"removed\", as it was last.\n"
"  link: Link\n"
")\n"
"\n"
"# No link has the name or index given, which is echoed.\n"
"error LinkNotFound (name: ?string, index: ?int)\n"
"\n"
"# As many MonitorLinks streams as allowed are running.  \"max\" is how many\n"
"# may run in all when the caller starts one: max_monitors with\n"
"# CAP_NET_ADMIN, else max_monitors less the max_monitors / 8 kept for\n"
"# such callers.  \"max_per_user\" is given when the caller has no\n"
"# CAP_NET_ADMIN and its user runs its whole share already: it is that\n"
"# share, max_monitors_per_user; \"max_per_container\" likewise when its\n"
"# container runs its whole share, max_monitors_per_container.\n"
"error TooManyMonitors (max: int, max_per_user: ?int, max_per_container: ?int)\n"
"\n"
"# The end of a MonitorLinks stream: the interface is going away (its module\n"
"# is unloaded).\n"
"error MonitorEnded ()\n";

/**
 * struct network_link - what a reply says about a link, copied under RTNL
 * @name: dev->name
 * @index: the ifindex
 * @mtu: the MTU
 * @up: IFF_UP
 * @running: IFF_RUNNING, as SIOCGIFFLAGS reports it
 * @operstate: as /sys/class/net/NAME/operstate shows it
 * @mac: the hardware address in hex, "" if it has none
 * @stats: dev_get_stats()
 */
struct network_link {
	char name[IFNAMSIZ];
	int index;
	unsigned int mtu;
	bool up;
	bool running;
	const char *operstate;
	char mac[3 * MAX_ADDR_LEN];
	struct rtnl_link_stats64 stats;
};

/* Indexed by IF_OPER_*, as in net/core/net-sysfs.c */
static const char *const network_operstates[] = {
	"unknown", "notpresent", "down", "lowerlayerdown", "testing",
	"dormant", "up",
};

/* Under RTNL or RCU */
static void network_link_read(struct net_device *dev, struct network_link *l)
{
	unsigned char operstate = READ_ONCE(dev->operstate);
	unsigned int addr_len = min_t(unsigned int, dev->addr_len, MAX_ADDR_LEN);

	RCU_LOCKDEP_WARN(!rcu_read_lock_held() && !lockdep_rtnl_is_held(),
			 "needs RTNL or RCU");
	strscpy(l->name, dev->name, sizeof(l->name));
	l->index = dev->ifindex;
	l->mtu = READ_ONCE(dev->mtu);
	l->up = dev->flags & IFF_UP;
	l->running = netif_running(dev) && netif_oper_up(dev);
	if (!netif_running(dev))
		operstate = IF_OPER_DOWN;
	l->operstate = operstate < ARRAY_SIZE(network_operstates) ?
		       network_operstates[operstate] : "unknown";
	l->mac[0] = '\0';
	if (addr_len)
		snprintf(l->mac, sizeof(l->mac), "%*phC", addr_len, dev->dev_addr);
	dev_get_stats(dev, &l->stats);
}

static void network_put_link(struct varlink_call *call, const char *key,
			     const struct network_link *l)
{
	const struct rtnl_link_stats64 *s = &l->stats;

	varlink_open_object(call, key);
	varlink_put_str(call, "name", l->name);
	varlink_put_s64(call, "index", l->index);
	varlink_put_s64(call, "mtu", l->mtu);
	varlink_put_bool(call, "up", l->up);
	varlink_put_bool(call, "running", l->running);
	varlink_put_str(call, "operstate", l->operstate);
	varlink_put_str(call, "mac", l->mac);
	varlink_put_u64(call, "rx_bytes", s->rx_bytes);
	varlink_put_u64(call, "tx_bytes", s->tx_bytes);
	varlink_put_u64(call, "rx_packets", s->rx_packets);
	varlink_put_u64(call, "tx_packets", s->tx_packets);
	varlink_put_u64(call, "rx_errors", s->rx_errors);
	varlink_put_u64(call, "tx_errors", s->tx_errors);
	varlink_put_u64(call, "rx_dropped", s->rx_dropped);
	varlink_put_u64(call, "tx_dropped", s->tx_dropped);
	varlink_close_object(call);
}

/* Links there may be at most in a namespace, for ListLinks to copy at
 * once (its reply would be far over the largest max_output before), and
 * how often it counts them again when more came while it copied.
 */
#define NETWORK_LINKS_MAX	65536
#define NETWORK_LIST_TRIES	3

/* Copy the links of @net into @links, at most @max; how many there are,
 * under one RCU section: the list of one moment.
 */
static unsigned int network_links_copy(struct net *net,
				       struct network_link *links,
				       unsigned int max)
{
	struct net_device *dev;
	unsigned int n = 0;

	rcu_read_lock();
	for_each_netdev_rcu(net, dev) {
		if (n < max)
			network_link_read(dev, &links[n]);
		n++;
	}
	rcu_read_unlock();
	return n;
}

/* ListLinks() -> (links: []Link) */
static int network_list_links(struct varlink_call *call, const void *params)
{
	struct net *net = varlink_call_net(call);
	struct network_link *links = NULL;
	unsigned int max, n = 0, i;
	int tries;

	for (tries = 0; tries < NETWORK_LIST_TRIES; tries++) {
		max = n + 16;	/* a few more, for those added meanwhile */
		if (max > NETWORK_LINKS_MAX)
			return -E2BIG;
		kvfree(links);
		links = kvmalloc_array(max, sizeof(*links), GFP_KERNEL_ACCOUNT);
		if (!links)
			return -ENOMEM;
		n = network_links_copy(net, links, max);
		if (n <= max)
			break;
	}
	if (n > max) {
		kvfree(links);
		return -EAGAIN;
	}
	varlink_open_array(call, "links");
	for (i = 0; i < n; i++)
		network_put_link(call, NULL, &links[i]);
	varlink_close_array(call);
	kvfree(links);
	/* a list over max_output becomes SystemError (EMSGSIZE) */
	varlink_reply(call);
	return 0;
}

struct network_get_params {
	const char *name;
	struct varlink_json index;
};

static const struct varlink_param network_get_params[] = {
	VARLINK_PARAM("name", VARLINK_STRING, struct network_get_params, name),
	VARLINK_PARAM("index", VARLINK_JSON, struct network_get_params, index),
};

/* The index parameter, which the core validated as an IDL int: a JSON
 * integer, possibly beyond s64.  Return: the ifindex, or 0 if no link can
 * have it.
 */
static int network_index(const struct varlink_json *v)
{
	char buf[24];
	s64 index;

	if (v->len >= sizeof(buf))
		return 0;
	memcpy(buf, v->text, v->len);
	buf[v->len] = '\0';
	if (kstrtos64(buf, 10, &index) || index <= 0 || index > INT_MAX)
		return 0;
	return index;
}

/* GetLink(name: ?string, index: ?int) -> (link: Link) */
static int network_get_link(struct varlink_call *call, const void *params)
{
	const struct network_get_params *p = params;
	struct net *net = varlink_call_net(call);
	struct net_device *dev = NULL;
	struct network_link l;
	int index = 0;

	/* "index" is raw JSON: absent and null both leave its text NULL */
	if (!p->name == !p->index.text)
		return varlink_error_invalid_parameter(call, p->name ? "index" : "name");
	if (p->index.text)
		index = network_index(&p->index);

	rcu_read_lock();
	if (p->name && strlen(p->name) < IFNAMSIZ)
		dev = dev_get_by_name_rcu(net, p->name);
	else if (index)
		dev = dev_get_by_index_rcu(net, index);
	if (dev)
		network_link_read(dev, &l);
	rcu_read_unlock();

	if (dev) {
		network_put_link(call, "link", &l);
		varlink_reply(call);
	} else {
		if (p->name)
			varlink_put_str(call, "name", p->name);
		else
			varlink_put_json(call, "index", &p->index);
		varlink_error(call, NETWORK_ERR("LinkNotFound"));
	}
	return 0;
}

/**
 * struct network_monitor - a MonitorLinks stream
 * @node: on network_monitors until the stream's final reply
 * @id: identifies the stream to the cancel callback; never reused
 * @call: the call
 * @net: varlink_call_net() of @call, the namespace whose links it watches
 * @user: varlink_call_user() of @call, the user whose share it is
 * @tenant: varlink_call_tenant() of @call, the container whose share it is
 * @live: the "current" replies were sent: changes are sent now
 *
 * All members are under network_lock.  @net needs no reference: the
 * stream is on network_monitors, the only place @net is read from, until
 * its final reply, and varlink_call_net() is valid until then.
 */
struct network_monitor {
	struct list_head node;
	unsigned long id;
	struct varlink_call *call;
	struct net *net;
	kuid_t user;
	const void *tenant;
	bool live;
};

static DEFINE_MUTEX(network_lock);
static LIST_HEAD(network_monitors);
static unsigned int network_n_monitors;
static unsigned long network_next_id;
static bool network_stopping;	/* module exit: no new stream */
/* The link an event or a "current" reply describes */
static struct network_link network_snap;

static struct network_monitor *network_monitor_find(unsigned long id)
{
	struct network_monitor *m;

	lockdep_assert_held(&network_lock);
	list_for_each_entry(m, &network_monitors, node)
		if (m->id == id)
			return m;
	return NULL;
}

/* The streams of @new's user in its container */
static unsigned int network_user_monitors(const struct network_monitor *new)
{
	struct network_monitor *m;
	unsigned int n = 0;

	lockdep_assert_held(&network_lock);
	list_for_each_entry(m, &network_monitors, node)
		n += uid_eq(m->user, new->user) && m->tenant == new->tenant;
	return n;
}

/* The streams of the container @tenant */
static unsigned int network_tenant_monitors(const void *tenant)
{
	struct network_monitor *m;
	unsigned int n = 0;

	lockdep_assert_held(&network_lock);
	list_for_each_entry(m, &network_monitors, node)
		n += m->tenant == tenant;
	return n;
}

/* End a stream with its final reply.  @err is why: 0, or the error of the
 * reply that failed.  -ECANCELED leaves the parameters of that reply
 * written (the core does not discard them), and they are a whole event:
 * they become the final reply, which the IDL allows; any other failure
 * discarded them.  Otherwise the stream ends with MonitorEnded.  Nothing
 * reaches a client that is gone.
 */
static void network_monitor_end(struct network_monitor *m, int err)
{
	lockdep_assert_held(&network_lock);
	list_del(&m->node);
	network_n_monitors--;
	if (err == -ECANCELED)
		varlink_reply(m->call);
	else
		varlink_error(m->call, NETWORK_ERR("MonitorEnded"));
	kfree(m);
}

/* Send one event; a failure ends the stream (@m is then freed). */
static int network_monitor_send(struct network_monitor *m, const char *event,
				const struct network_link *l)
{
	int err;

	lockdep_assert_held(&network_lock);
	varlink_put_str(m->call, "event", event);
	network_put_link(m->call, "link", l);
	err = varlink_reply_continues(m->call);
	if (err)
		network_monitor_end(m, err);
	return err;
}

static void network_monitor_cancel(struct varlink_call *call, void *data)
{
	struct network_monitor *m;

	mutex_lock(&network_lock);
	m = network_monitor_find((unsigned long)data);
	if (m)
		network_monitor_end(m, 0);
	mutex_unlock(&network_lock);
}

/* MonitorLinks() -> (event: string, link: Link) */
static int network_monitor_links(struct varlink_call *call, const void *params)
{
	/* the host's admin, not a container's: see the top of the file */
	bool admin = varlink_call_capable(call, CAP_NET_ADMIN);
	/* an admin may take every stream, others all but the reserve */
	unsigned int max = admin ? max_monitors : max_monitors - max_monitors / 8;
	struct network_monitor *m;
	struct net_device *dev;
	bool user_full = false, tenant_full = false;
	unsigned long id;

	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	m->call = call;
	m->net = varlink_call_net(call);
	m->user = varlink_call_user(call);
	m->tenant = varlink_call_tenant(call);

	mutex_lock(&network_lock);
	if (!admin) {
		user_full = network_user_monitors(m) >= max_monitors_per_user;
		tenant_full = m->tenant && network_tenant_monitors(m->tenant) >=
					   max_monitors_per_container;
	}
	if (network_stopping || network_n_monitors >= max || user_full ||
	    tenant_full) {
		bool stopping = network_stopping;

		mutex_unlock(&network_lock);
		kfree(m);
		if (stopping) {
			varlink_error(call, NETWORK_ERR("MonitorEnded"));
		} else {
			varlink_put_s64(call, "max", max);
			if (user_full)
				varlink_put_s64(call, "max_per_user",
						max_monitors_per_user);
			if (tenant_full)
				varlink_put_s64(call, "max_per_container",
						max_monitors_per_container);
			varlink_error(call, NETWORK_ERR("TooManyMonitors"));
		}
		return 0;
	}
	id = ++network_next_id;
	m->id = id;
	list_add_tail(&m->node, &network_monitors);
	network_n_monitors++;
	mutex_unlock(&network_lock);

	/* Not live yet: nothing but the cancel callback and the code below
	 * ends the stream, so the call is still ours to set the callback
	 * on.  It runs right away if the client is gone already.
	 */
	varlink_call_set_cancel(call, network_monitor_cancel, NULL, (void *)id);

	rtnl_lock();
	mutex_lock(&network_lock);
	m = network_monitor_find(id);	/* NULL: ended by the cancel */
	if (m && network_stopping) {
		network_monitor_end(m, 0);
	} else if (m) {
		for_each_netdev(m->net, dev) {
			network_link_read(dev, &network_snap);
			if (network_monitor_send(m, "current", &network_snap)) {
				m = NULL;
				break;
			}
		}
		if (m)
			m->live = true;
	}
	mutex_unlock(&network_lock);
	rtnl_unlock();
	return -EINPROGRESS;
}

/* The netdevice notifier: under RTNL, in process context. */
static int network_event(struct notifier_block *nb, unsigned long event,
			 void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct network_monitor *m, *tmp;
	bool read = false;
	const char *what;

	switch (event) {
	case NETDEV_REGISTER:
		what = "added";
		break;
	case NETDEV_UNREGISTER:
		what = "removed";
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
	case NETDEV_CHANGEMTU:
	case NETDEV_CHANGENAME:
	case NETDEV_CHANGEADDR:
		what = "changed";
		break;
	default:
		return NOTIFY_DONE;
	}
	/* The streams of the link's namespace only.  A link moving between
	 * namespaces is unregistered in the old one, then registered in the
	 * new one: "removed" there, "added" here.
	 */
	mutex_lock(&network_lock);
	list_for_each_entry_safe(m, tmp, &network_monitors, node) {
		if (!m->live || !net_eq(m->net, dev_net(dev)))
			continue;
		if (!read) {
			network_link_read(dev, &network_snap);
			read = true;
		}
		network_monitor_send(m, what, &network_snap);
	}
	mutex_unlock(&network_lock);
	return NOTIFY_DONE;
}

static struct notifier_block network_nb = {
	.notifier_call = network_event,
};

static const struct varlink_method network_methods[] = {
	{ .name = "ListLinks", .call = network_list_links },
	{
		.name = "GetLink", .call = network_get_link,
		VARLINK_PARAMS(network_get_params, struct network_get_params),
	},
	{
		.name = "MonitorLinks", .call = network_monitor_links,
		.flags = VARLINK_MORE | VARLINK_MORE_ONLY | VARLINK_STREAM,
	},
};

static const struct varlink_interface network_iface = {
	.idl = network_idl,
	.methods = network_methods,
	.n_methods = ARRAY_SIZE(network_methods),
	.flags = VARLINK_NETNS,
};

static int __init network_init(void)
{
	int err;

	if (!max_monitors || max_monitors > NETWORK_MONITORS_MAX) {
		pr_err("max_monitors must be 1 to %u\n", NETWORK_MONITORS_MAX);
		return -EINVAL;
	}
	if (!max_monitors_per_user || max_monitors_per_user > max_monitors) {
		pr_err("max_monitors_per_user must be 1 to max_monitors (%u)\n",
		       max_monitors);
		return -EINVAL;
	}
	if (!max_monitors_per_container)
		max_monitors_per_container = clamp(NETWORK_CONTAINER_DEFAULT,
						   max_monitors_per_user,
						   max_monitors);
	if (max_monitors_per_container < max_monitors_per_user ||
	    max_monitors_per_container > max_monitors) {
		pr_err("max_monitors_per_container must be max_monitors_per_user (%u) to max_monitors (%u)\n",
		       max_monitors_per_user, max_monitors);
		return -EINVAL;
	}
	/* first: a stream must not miss a change made after it started */
	err = register_netdevice_notifier(&network_nb);
	if (err)
		return err;
	err = varlink_register_interface(&network_iface);
	if (err)
		unregister_netdevice_notifier(&network_nb);
	return err;
}

static void __exit network_exit(void)
{
	struct network_monitor *m, *tmp;

	/* End the live streams here, with MonitorEnded, rather than from the
	 * cancel callback that varlink_unregister_interface() would run: a
	 * cancel that comes while an event is being written leaves that
	 * event as the final reply (see network_monitor_end()), and the end
	 * of a stream on unload should say why.  A stream not live yet ends
	 * in network_monitor_links(), and none starts from now on.
	 */
	mutex_lock(&network_lock);
	network_stopping = true;
	list_for_each_entry_safe(m, tmp, &network_monitors, node)
		if (m->live)
			network_monitor_end(m, 0);
	mutex_unlock(&network_lock);

	/* waits for every call; only then may the notifier go */
	varlink_unregister_interface(&network_iface);
	/* replays "down" and "unregister" for every link: no stream hears it */
	unregister_netdevice_notifier(&network_nb);
	WARN_ON(!list_empty(&network_monitors));
}

module_init(network_init);
module_exit(network_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("org.kernel.network varlink interface: network links");
MODULE_AUTHOR("The kvarlink authors");
