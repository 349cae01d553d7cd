// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.network: the network links of the caller's network namespace,
 * as /sys/class/net shows them there, and a stream of their changes.
 *
 * The caller's namespace is that of the listener it connected to
 * (&varlink_caller.net): a container sees its own links, and no other.
 *
 * ListLinks and GetLink read the links under RCU, as /proc/net/dev and
 * /sys/class/net do, not under RTNL: any user can hold RTNL for long (a
 * netlink request in a network namespace of its own), and calls waiting
 * for it would take the server's workers, which all connections share,
 * from everybody.  MonitorLinks needs RTNL (the notifier runs under it),
 * and its streams are bounded by the core's stream quotas.  Replies are
 * written after the links were copied into struct network_link, or under
 * RTNL, never under RCU (writing allocates).
 *
 * MonitorLinks streams from a netdevice notifier, which hears the links of
 * every namespace: each event goes, through varlink_stream_for_each(), to
 * the streams of the link's namespace only, as it happens.  A new stream
 * sends the links there are ("current") and starts in one section under
 * RTNL, so no change falls between the two: a change made before is in
 * the "current" replies, one made after is an event.  The lock order is
 * RTNL, then the core's: a reply never waits for the client, so it is
 * fine in the notifier.
 *
 * A stream's namespace outlives the stream: the client's connection holds
 * a reference on it (an accepted AF_UNIX socket does), and the connection
 * outlives its calls.  So no stream has to end when its namespace dies.
 */
#include <linux/errno.h>
#include <linux/if.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/net_namespace.h>
#include <linux/varlink.h>

#define NETWORK_ERR(name)	"org.kernel.network." name

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
"# read its replies, or the interface goes away (MonitorEnded).  Each\n"
"# stream counts against the server's stream quotas (the parameters\n"
"# max_streams, max_streams_per_user and max_streams_per_container of\n"
"# varlink.ko, see org.kernel.varlink.GetLimits), past which the call\n"
"# fails with org.kernel.varlink.TooManyStreams.\n"
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
	struct net *net = varlink_call_caller(call)->net;
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
	VARLINK_PARAM("name", struct network_get_params, name),
	VARLINK_PARAM("index", struct network_get_params, index),
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
	struct net *net = varlink_call_caller(call)->net;
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
 * @stream: the core's
 * @net: the namespace whose links it watches: its client's, which its
 *	connection holds
 */
struct network_monitor {
	struct varlink_stream stream;
	struct net *net;
};

/* The link an event or a "current" reply describes, under RTNL */
static struct network_link network_snap;

/* Send one event, or one link there is ("current"), under RTNL. */
static int network_monitor_send(struct varlink_stream *stream,
				const char *event)
{
	int err;

	varlink_put_str(stream->call, "event", event);
	network_put_link(stream->call, "link", &network_snap);
	/* an event is told as it happens: a client that does not read is
	 * closed at max_output, not paced
	 */
	err = varlink_stream_reply(stream);
	return err == -EAGAIN ? 0 : err;
}

/* Everything is sent as it happens, from the notifier. */
static int network_monitor_run(struct varlink_stream *stream)
{
	return 0;
}

static int network_monitor_stop(struct varlink_stream *stream)
{
	return varlink_error(stream->call, NETWORK_ERR("MonitorEnded"));
}

static void network_monitor_release(struct varlink_stream *stream)
{
	kfree(container_of(stream, struct network_monitor, stream));
}

static const struct varlink_stream_ops network_monitor_ops = {
	.run = network_monitor_run,
	.stop = network_monitor_stop,
	.release = network_monitor_release,
};

/* MonitorLinks() -> (event: string, link: Link) */
static int network_monitor_links(struct varlink_call *call, const void *params)
{
	struct network_monitor *m;
	struct net_device *dev;
	int ret;

	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	m->net = varlink_call_caller(call)->net;
	varlink_stream_init(&m->stream, &network_monitor_ops);

	rtnl_lock();
	for_each_netdev(m->net, dev) {
		network_link_read(dev, &network_snap);
		varlink_put_str(call, "event", "current");
		network_put_link(call, "link", &network_snap);
		/* a client gone, or not reading: its stream ends at once */
		if (varlink_reply_continues(call))
			break;
	}
	ret = varlink_stream_start(call, &m->stream);
	rtnl_unlock();
	return ret;
}

struct network_event {
	struct net_device *dev;
	const char *what;
	bool read;
};

/* For each stream, under RTNL: the event, to those of its namespace */
static int network_event_send(struct varlink_stream *stream, void *data)
{
	struct network_monitor *m = container_of(stream, struct network_monitor,
						 stream);
	struct network_event *ev = data;

	if (!net_eq(m->net, dev_net(ev->dev)))
		return 0;
	if (!ev->read) {
		network_link_read(ev->dev, &network_snap);
		ev->read = true;
	}
	return network_monitor_send(stream, ev->what);
}

static const struct varlink_interface network_iface;

/* The netdevice notifier: under RTNL, in process context. */
static int network_event(struct notifier_block *nb, unsigned long event,
			 void *ptr)
{
	struct network_event ev = { .dev = netdev_notifier_info_to_dev(ptr) };

	switch (event) {
	case NETDEV_REGISTER:
		ev.what = "added";
		break;
	case NETDEV_UNREGISTER:
		ev.what = "removed";
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
	case NETDEV_CHANGEMTU:
	case NETDEV_CHANGENAME:
	case NETDEV_CHANGEADDR:
		ev.what = "changed";
		break;
	default:
		return NOTIFY_DONE;
	}
	/* A link moving between namespaces is unregistered in the old one,
	 * then registered in the new one: "removed" there, "added" here.
	 */
	varlink_stream_for_each(&network_iface, network_event_send, &ev);
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
		.flags = VARLINK_MORE_ONLY | VARLINK_STREAM,
	},
};

static const struct varlink_interface network_iface = {
	.idl = network_idl,
	VARLINK_METHODS(network_methods),
	.flags = VARLINK_NETNS,
};

static int __init network_init(void)
{
	int err;

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
	/* ends every stream with MonitorEnded, and waits for them */
	varlink_unregister_interface(&network_iface);
	/* replays "down" and "unregister" for every link: no stream hears it */
	unregister_netdevice_notifier(&network_nb);
}

module_init(network_init);
module_exit(network_exit);

MODULE_LICENSE("GPL");
MODULE_ALIAS_VARLINK_INTERFACE("org.kernel.network");
MODULE_DESCRIPTION("org.kernel.network varlink interface: network links");
MODULE_AUTHOR("The kvarlink authors");
