// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.network (varlink_network.ko): the links of the initial
 * network namespace.  Links are made, changed and deleted here with
 * rtnetlink (dummy and veth), and every value a reply gives is checked
 * against /sys/class/net/NAME (and SIOCGIFFLAGS for IFF_RUNNING), read
 * just before and just after the call: a value that may change on its own
 * (a counter, the operational state of a veth) must lie between the two.
 *
 * MonitorLinks: the "current" replies against /sys/class/net, then the
 * events of links made, changed and deleted while it streams, in order and
 * all with continues; clients that vanish, the bound on streams, the
 * share of each user (its uids in user namespaces of its own included)
 * and the reserve for CAP_NET_ADMIN, and the end of every stream when the
 * module is unloaded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <net/if.h>
#include <netinet/in.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"
#include "rtnl_test.h"

#define NET_IFACE	"org.kernel.network"
#define NET_MODULE	"varlink_network"
#define NET_CALL(name, params)	\
	"{\"method\":\"" NET_IFACE "." name "\",\"parameters\":" params "}"
#define NET_MONITOR	\
	"{\"method\":\"" NET_IFACE ".MonitorLinks\",\"more\":true}"
#define INVALID		"org.varlink.service.InvalidParameter"
#define NOT_FOUND	NET_IFACE ".LinkNotFound"
#define TOO_MANY	"org.kernel.varlink.TooManyStreams"
#define ENDED		NET_IFACE ".MonitorEnded"
#define DESCRIBE	"{\"method\":\"org.varlink.service.GetInterfaceDescription\"," \
			"\"parameters\":{\"interface\":\"" NET_IFACE "\"}}"
#define LIST_MORE	"{\"method\":\"" NET_IFACE ".ListLinks\",\"more\":true}"

/* The links these tests make; whatever is left of them goes at setup. */
static const char *const test_links[] = {
	"vlnet0", "vlnetA", "vlnetB", "vlvethA", "vlvethB",
};

static int link_rename(const char *name, const char *new_name)
{
	struct nl_req r;
	int err = link_change(&r, name);

	if (err)
		return err;
	nl_put_str(&r, IFLA_IFNAME, new_name);
	return nl_talk(&r);
}

static int link_set_mac(const char *name, const unsigned char mac[6])
{
	struct nl_req r;
	int err = link_change(&r, name);

	if (err)
		return err;
	nl_put(&r, IFLA_ADDRESS, mac, 6);
	return nl_talk(&r);
}

static void links_clean(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(test_links); i++)
		link_del(test_links[i]);
}

/* What /sys/class/net/NAME says about a link */
#define N_STATS	8
static const char *const stat_names[N_STATS] = {
	"rx_bytes", "tx_bytes", "rx_packets", "tx_packets",
	"rx_errors", "tx_errors", "rx_dropped", "tx_dropped",
};

struct sys_link {
	char name[IFNAMSIZ];
	unsigned long long ifindex;
	unsigned long long mtu;
	unsigned long long flags;
	bool running;		/* IFF_RUNNING of SIOCGIFFLAGS */
	char operstate[32];
	char address[128];
	unsigned long long stats[N_STATS];
};

/* Read /sys/class/net/@name/@attr without its newline; 0 or -errno. */
static int sys_read(const char *name, const char *attr, char *buf, size_t size)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", name, attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	while (n && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return 0;
}

static int sys_ull(const char *name, const char *attr, unsigned long long *v)
{
	char buf[64], *end;
	int err = sys_read(name, attr, buf, sizeof(buf));

	if (err)
		return err;
	errno = 0;
	*v = strtoull(buf, &end, 0);	/* flags are in hex */
	return errno || end == buf || *end ? -EINVAL : 0;
}

static int sys_link_read(const char *name, struct sys_link *s)
{
	struct ifreq ifr = {};
	char attr[64];
	int i, fd, err;

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	err = sys_ull(name, "ifindex", &s->ifindex);
	if (!err)
		err = sys_ull(name, "mtu", &s->mtu);
	if (!err)
		err = sys_ull(name, "flags", &s->flags);
	if (!err)
		err = sys_read(name, "operstate", s->operstate, sizeof(s->operstate));
	if (!err)
		err = sys_read(name, "address", s->address, sizeof(s->address));
	for (i = 0; !err && i < N_STATS; i++) {
		snprintf(attr, sizeof(attr), "statistics/%s", stat_names[i]);
		err = sys_ull(name, attr, &s->stats[i]);
	}
	if (err)
		return err;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		err = -errno;
	close(fd);
	s->running = ifr.ifr_flags & IFF_RUNNING;
	return err;
}

/* The links of /sys/class/net, at most @max; returns how many. */
static int sys_link_names(char (*names)[IFNAMSIZ], int max)
{
	struct dirent *d;
	char buf[32];
	int n = 0;
	DIR *dir = opendir("/sys/class/net");

	if (!dir)
		return -errno;
	while (n < max && (d = readdir(dir))) {
		/* not bonding_masters and the like: links have an ifindex */
		if (d->d_name[0] == '.' || strlen(d->d_name) >= IFNAMSIZ ||
		    sys_read(d->d_name, "ifindex", buf, sizeof(buf)))
			continue;
		memcpy(names[n++], d->d_name, strlen(d->d_name) + 1);
	}
	closedir(dir);
	return n;
}

/* A non-negative integer of a reply, at @path */
static bool json_ull(const char *json, const char *path, unsigned long long *v)
{
	char buf[32], *end;
	const char *p;
	size_t len;

	p = json ? vt_json_find(json, path, &len) : NULL;
	if (!p || !len || len >= sizeof(buf) || *p < '0' || *p > '9')
		return false;
	memcpy(buf, p, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return !errno && !*end;
}

static bool json_bool(const char *json, const char *path, bool *v)
{
	if (vt_json_is(json, path, "true"))
		*v = true;
	else if (vt_json_is(json, path, "false"))
		*v = false;
	else
		return false;
	return true;
}

/*
 * What is wrong with @link, a Link of a reply, given what sysfs said
 * before (@a) and after (@b) the call; NULL if nothing.  Each value must
 * be one of the two, each counter between the two.
 */
static const char *link_problem(const char *link, const struct sys_link *a,
				const struct sys_link *b)
{
	unsigned long long v;
	char *s;
	bool f;
	int i;

	if (!link || *link != '{')
		return "not an object";
	s = vt_json_str(link, "name");
	if (!s || strcmp(s, a->name))
		return vt_fmt("name %s, not %s", s ? s : "(none)", a->name);
	if (!json_ull(link, "index", &v) || v != a->ifindex || v != b->ifindex)
		return vt_fmt("index, not %llu", a->ifindex);
	if (!json_ull(link, "mtu", &v) || (v != a->mtu && v != b->mtu))
		return vt_fmt("mtu, not %llu", a->mtu);
	if (!json_bool(link, "up", &f) ||
	    (f != !!(a->flags & IFF_UP) && f != !!(b->flags & IFF_UP)))
		return vt_fmt("up, flags are %#llx", a->flags);
	if (!json_bool(link, "running", &f) ||
	    (f != a->running && f != b->running))
		return vt_fmt("running, SIOCGIFFLAGS says %d", a->running);
	s = vt_json_str(link, "operstate");
	if (!s || (strcmp(s, a->operstate) && strcmp(s, b->operstate)))
		return vt_fmt("operstate, not %s", a->operstate);
	s = vt_json_str(link, "mac");
	if (!s || (strcmp(s, a->address) && strcmp(s, b->address)))
		return vt_fmt("mac, not \"%s\"", a->address);
	for (i = 0; i < N_STATS; i++) {
		if (!json_ull(link, stat_names[i], &v) || v < a->stats[i] ||
		    v > b->stats[i])
			return vt_fmt("%s, not within %llu..%llu", stat_names[i],
				      a->stats[i], b->stats[i]);
	}
	return NULL;
}

/* The text of the Link at @path of @msg, or NULL */
static char *link_at(const char *msg, const char *path)
{
	const char *p;
	size_t len;

	p = vt_json_find(msg, path, &len);
	return p ? strndup(p, len) : NULL;
}

/* Some traffic on lo: datagrams to a port nobody listens on */
static int lo_traffic(int n)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(9),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int i, err = 0;

	if (fd < 0)
		return -errno;
	for (i = 0; i < n && !err; i++)
		if (sendto(fd, "varlink", 7, 0, (struct sockaddr *)&sin,
			   sizeof(sin)) < 0 && errno != ECONNREFUSED)
			err = -errno;
	close(fd);
	return err;
}

/* Read the next reply of a stream: it must carry continues. */
static int stream_next(struct vt_conn *c, const char **msg)
{
	int ret = vt_recv(c, VT_TIMEOUT_MS, msg);

	if (ret == 1 && (vt_reply_problem(*msg) || !vt_continues(*msg)))
		return -EPROTO;
	return ret;
}

/* Start a stream; returns as vt_send(). */
static int monitor_start(struct vt_conn *c)
{
	return vt_send(c, NET_MONITOR);
}

FIXTURE(net) {
	struct vt_conn c;
};

FIXTURE_SETUP(net)
{
	links_clean();
	ASSERT_TRUE(vt_module_loaded(NET_MODULE));
	ASSERT_EQ(0, vt_open_ready(&self->c));
	ASSERT_EQ(0, link_set_up("lo", true));
}

FIXTURE_TEARDOWN(net)
{
	vt_close(&self->c);
	links_clean();
	if (!vt_module_loaded(NET_MODULE))
		vt_insmod(NET_MODULE);
}

/* GetLink of @params; the Link of its reply, checked against sysfs. */
static const char *get_link_problem(struct vt_conn *c, const char *params,
				    const char *name)
{
	struct sys_link a, b;
	const char *msg, *problem;
	int err;

	err = sys_link_read(name, &a);
	if (err)
		return vt_fmt("sysfs of %s: %s", name, strerror(-err));
	if (vt_call(c, vt_fmt(NET_CALL("GetLink", "%s"), params), &msg) != 1)
		return "no reply";
	err = sys_link_read(name, &b);
	if (err)
		return vt_fmt("sysfs of %s: %s", name, strerror(-err));
	if (vt_reply_problem(msg) || !vt_is_ok(msg) || vt_continues(msg))
		return vt_fmt("reply %s", msg);
	problem = link_problem(link_at(msg, "parameters.link"), &a, &b);
	return problem ? vt_fmt("%s: %s", problem, msg) : NULL;
}

/* The interface is there and describes itself. */
TEST_F(net, describe)
{
	const char *msg;
	char *idl, *name;
	bool listed = false;
	int i;

	ASSERT_EQ(1, vt_call(&self->c, DESCRIBE, &msg));
	idl = vt_json_str(msg, "parameters.description");
	ASSERT_NE(NULL, idl) TH_LOG("%s", msg);
	EXPECT_NE(NULL, strstr(idl, "\ninterface " NET_IFACE "\n"));
	EXPECT_NE(NULL, strstr(idl, "\nmethod MonitorLinks() -> (\n"));
	EXPECT_NE(NULL, strstr(idl, "\ntype Link (\n"));
	/* flat enough for systemd's parser: no map, no nested array */
	EXPECT_EQ(NULL, strstr(idl, "[string]"));
	EXPECT_EQ(NULL, strstr(idl, "[]["));
	EXPECT_EQ(NULL, strstr(idl, "[]?["));

	ASSERT_EQ(1, vt_call(&self->c, "{\"method\":\"org.varlink.service.GetInfo\"}",
			     &msg));
	for (i = 0; (name = vt_json_str(msg, vt_fmt("parameters.interfaces.%d", i))); i++)
		listed |= !strcmp(name, NET_IFACE);
	EXPECT_TRUE(listed) TH_LOG("%s", msg);
}

/* GetLink of lo, by name and by index, with traffic on its counters. */
TEST_F(net, get_link_lo)
{
	unsigned long long ifindex, v;
	const char *problem, *msg;

	ASSERT_EQ(0, lo_traffic(10));
	problem = get_link_problem(&self->c, "{\"name\":\"lo\"}", "lo");
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);

	ASSERT_EQ(0, sys_ull("lo", "ifindex", &ifindex));
	problem = get_link_problem(&self->c, vt_fmt("{\"index\":%llu}", ifindex), "lo");
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
	/* null is absent */
	problem = get_link_problem(&self->c, "{\"name\":\"lo\",\"index\":null}", "lo");
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);

	/* the counters are the link's: the traffic is in them */
	ASSERT_EQ(1, vt_call(&self->c, NET_CALL("GetLink", "{\"name\":\"lo\"}"), &msg));
	ASSERT_TRUE(json_ull(msg, "parameters.link.tx_packets", &v)) TH_LOG("%s", msg);
	EXPECT_LE(10, v);
	EXPECT_TRUE(json_ull(msg, "parameters.link.rx_bytes", &v));
	EXPECT_LE(70, v);
	EXPECT_TRUE(vt_json_is(msg, "parameters.link.mac", "\"00:00:00:00:00:00\""));
	EXPECT_TRUE(vt_json_is(msg, "parameters.link.up", "true"));
	EXPECT_TRUE(vt_json_is(msg, "parameters.link.running", "true"));
}

/* A dummy link: MTU, address, up and down. */
TEST_F(net, get_link_dummy)
{
	static const unsigned char mac[6] = { 0x02, 0x00, 0x5e, 0x10, 0xab, 0xcd };
	unsigned long long ifindex;
	const char *problem, *msg;

	ASSERT_EQ(0, link_add("vlnet0", "dummy", NULL));
	problem = get_link_problem(&self->c, "{\"name\":\"vlnet0\"}", "vlnet0");
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);

	ASSERT_EQ(0, link_set_mtu("vlnet0", 1400));
	ASSERT_EQ(0, link_set_mac("vlnet0", mac));
	ASSERT_EQ(0, link_set_up("vlnet0", true));
	ASSERT_EQ(0, sys_ull("vlnet0", "ifindex", &ifindex));
	problem = get_link_problem(&self->c, vt_fmt("{\"index\":%llu}", ifindex),
				   "vlnet0");
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
	ASSERT_EQ(1, vt_call(&self->c, NET_CALL("GetLink", "{\"name\":\"vlnet0\"}"), &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.link.mtu", "1400")) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.link.mac", "\"02:00:5e:10:ab:cd\""));
	EXPECT_TRUE(vt_json_is(msg, "parameters.link.up", "true"));
	/* a dummy has no carrier state: "unknown", which counts as running */
	EXPECT_TRUE(vt_json_is(msg, "parameters.link.operstate", "\"unknown\""));
	EXPECT_TRUE(vt_json_is(msg, "parameters.link.running", "true"));

	ASSERT_EQ(0, link_set_up("vlnet0", false));
	problem = get_link_problem(&self->c, "{\"name\":\"vlnet0\"}", "vlnet0");
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
	ASSERT_EQ(1, vt_call(&self->c, NET_CALL("GetLink", "{\"name\":\"vlnet0\"}"), &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.link.up", "false")) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.link.running", "false"));
	EXPECT_TRUE(vt_json_is(msg, "parameters.link.operstate", "\"down\""));
}

/*
 * A veth pair: one end up has no carrier (lowerlayerdown), both up are
 * "up" once the kernel's link watch has run.
 */
TEST_F(net, get_link_veth)
{
	long long deadline;
	const char *problem, *msg;
	bool up = false;

	ASSERT_EQ(0, link_add("vlvethA", "veth", "vlvethB"));
	ASSERT_EQ(0, link_set_up("vlvethA", true));
	deadline = vt_now_ms() + VT_TIMEOUT_MS;
	while (!up && vt_now_ms() < deadline) {
		problem = get_link_problem(&self->c, "{\"name\":\"vlvethA\"}", "vlvethA");
		ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
		ASSERT_EQ(1, vt_call(&self->c,
				     NET_CALL("GetLink", "{\"name\":\"vlvethA\"}"), &msg));
		up = vt_json_is(msg, "parameters.link.operstate", "\"lowerlayerdown\"") &&
		     vt_json_is(msg, "parameters.link.running", "false") &&
		     vt_json_is(msg, "parameters.link.up", "true");
		if (!up)
			vt_sleep_ms(50);
	}
	EXPECT_TRUE(up) TH_LOG("%s", msg);

	up = false;
	ASSERT_EQ(0, link_set_up("vlvethB", true));
	deadline = vt_now_ms() + VT_TIMEOUT_MS;
	while (!up && vt_now_ms() < deadline) {
		problem = get_link_problem(&self->c, "{\"name\":\"vlvethA\"}", "vlvethA");
		ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
		problem = get_link_problem(&self->c, "{\"name\":\"vlvethB\"}", "vlvethB");
		ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
		ASSERT_EQ(1, vt_call(&self->c,
				     NET_CALL("GetLink", "{\"name\":\"vlvethB\"}"), &msg));
		up = vt_json_is(msg, "parameters.link.operstate", "\"up\"") &&
		     vt_json_is(msg, "parameters.link.running", "true");
		if (!up)
			vt_sleep_ms(50);
	}
	EXPECT_TRUE(up) TH_LOG("%s", msg);
}

/* ListLinks: every link of /sys/class/net, once, each as sysfs says. */
TEST_F(net, list_links)
{
	char names[64][IFNAMSIZ];
	struct sys_link a[64], b[64];
	bool seen[64] = {};
	const char *msg, *problem;
	int i, j, n;
	char *link;

	ASSERT_EQ(0, link_add("vlnet0", "dummy", NULL));
	ASSERT_EQ(0, link_add("vlvethA", "veth", "vlvethB"));
	n = sys_link_names(names, 64);
	ASSERT_LE(4, n);
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, sys_link_read(names[i], &a[i]));
	ASSERT_EQ(1, vt_call(&self->c, NET_CALL("ListLinks", "{}"), &msg));
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, sys_link_read(names[i], &b[i]));
	ASSERT_EQ(NULL, vt_reply_problem(msg));
	ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	ASSERT_FALSE(vt_continues(msg));

	for (i = 0; (link = link_at(msg, vt_fmt("parameters.links.%d", i))); i++) {
		char *name = vt_json_str(link, "name");

		ASSERT_NE(NULL, name) TH_LOG("%s", link);
		for (j = 0; j < n && strcmp(names[j], name); j++)
			;
		ASSERT_LT(j, n) TH_LOG("%s is not in /sys/class/net", name);
		ASSERT_FALSE(seen[j]) TH_LOG("%s twice", name);
		seen[j] = true;
		problem = link_problem(link, &a[j], &b[j]);
		EXPECT_EQ(NULL, problem) TH_LOG("%s: %s", problem, link);
		free(link);
	}
	EXPECT_EQ(n, i) TH_LOG("%d links listed, %d in /sys/class/net", i, n);
}

/* More links than ListLinks first makes room for, added and listed. */
#define MANY_LINKS	40

static void many_links_clean(void)
{
	int i;

	for (i = 0; i < MANY_LINKS; i++)
		link_del(vt_fmt("vlmany%d", i));
}

TEST_F(net, list_links_many)
{
	char names[MANY_LINKS + 64][IFNAMSIZ];
	const char *msg;
	char *link;
	int i, n;

	many_links_clean();
	for (i = 0; i < MANY_LINKS; i++)
		ASSERT_EQ(0, link_add(vt_fmt("vlmany%d", i), "dummy", NULL));
	n = sys_link_names(names, ARRAY_SIZE(names));
	ASSERT_LE(MANY_LINKS + 1, n);
	ASSERT_EQ(1, vt_call(&self->c, NET_CALL("ListLinks", "{}"), &msg));
	ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	for (i = 0; (link = link_at(msg, vt_fmt("parameters.links.%d", i))); i++)
		free(link);
	EXPECT_EQ(n, i) TH_LOG("%d links listed, %d in /sys/class/net", i, n);
	many_links_clean();
}

/*
 * Any user can hold RTNL for long (a netlink request in a network
 * namespace of its own); the test provider's HoldRtnl holds it until
 * ReleaseRtnl.  Meanwhile ListLinks and GetLink on more connections than
 * the server has workers (256) are answered, and a new connection is
 * served, and then the release: they do not wait for RTNL, which would
 * take every worker from everybody.
 * With fast_path=0, every call needs a worker.
 */
#define FAST_PATH	"/sys/module/varlink/parameters/fast_path"
#define HOLD_RTNL	"{\"method\":\"" VT_IFACE ".HoldRtnl\",\"parameters\":{\"ms\":30000}}"
#define RELEASE_RTNL	"{\"method\":\"" VT_IFACE ".ReleaseRtnl\"}"
#define RTNL_CALLS	300

TEST_F_TIMEOUT(net, rtnl_held, 120)
{
	struct vt_conn hold, *c = calloc(RTNL_CALLS + 1, sizeof(*c));
	const char *msg;
	int i;

	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, vt_write_file(FAST_PATH, "0"));
	ASSERT_EQ(0, vt_open_ready(&hold));
	ASSERT_EQ(0, vt_send(&hold, HOLD_RTNL));
	vt_sleep_ms(200);	/* for it to take RTNL */
	for (i = 0; i < RTNL_CALLS; i++) {
		ASSERT_EQ(0, vt_open(&c[i]));
		ASSERT_EQ(0, vt_send(&c[i], i % 2 ? NET_CALL("ListLinks", "{}") :
					       NET_CALL("GetLink", "{\"name\":\"lo\"}")));
	}
	/* somebody else, on a new connection, meanwhile */
	ASSERT_EQ(0, vt_open(&c[RTNL_CALLS]));
	ASSERT_EQ(1, vt_call(&c[RTNL_CALLS], VT_PING, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	for (i = 0; i < RTNL_CALLS; i++) {
		ASSERT_EQ(1, vt_recv(&c[i], VT_TIMEOUT_MS, &msg)) TH_LOG("call %d", i);
		EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("call %d: %s", i, msg);
	}
	/* all of them while RTNL was held */
	EXPECT_EQ(-ETIMEDOUT, vt_recv(&hold, 0, &msg));
	ASSERT_EQ(1, vt_call(&c[RTNL_CALLS], RELEASE_RTNL, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	ASSERT_EQ(1, vt_recv(&hold, VT_TIMEOUT_MS, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	for (i = 0; i <= RTNL_CALLS; i++)
		vt_close(&c[i]);
	vt_close(&hold);
	free(c);
	EXPECT_EQ(0, vt_write_file(FAST_PATH, "1"));
}

/* GetLink with no link, with neither or both parameters, or bad ones. */
TEST_F(net, get_link_errors)
{
	static const struct {
		const char *params;
		const char *error;
		const char *path;	/* of the parameter echoed */
		const char *value;
	} cases[] = {
		{ "{}", INVALID, "parameter", "\"name\"" },
		{ "{\"name\":null,\"index\":null}", INVALID, "parameter", "\"name\"" },
		{ "{\"name\":\"lo\",\"index\":1}", INVALID, "parameter", "\"index\"" },
		{ "{\"index\":\"1\"}", INVALID, "parameter", "\"index\"" },
		{ "{\"name\":1}", INVALID, "parameter", "\"name\"" },
		{ "{\"name\":\"vlnet-none\"}", NOT_FOUND, "name", "\"vlnet-none\"" },
		{ "{\"name\":\"\"}", NOT_FOUND, "name", "\"\"" },
		{ "{\"name\":\"a-name-longer-than-ifnamsiz\"}", NOT_FOUND, "name",
		  "\"a-name-longer-than-ifnamsiz\"" },
		{ "{\"name\":\"lo/x\"}", NOT_FOUND, "name", "\"lo/x\"" },
		{ "{\"index\":2147483647}", NOT_FOUND, "index", "2147483647" },
		{ "{\"index\":2147483648}", NOT_FOUND, "index", "2147483648" },
		{ "{\"index\":0}", NOT_FOUND, "index", "0" },
		{ "{\"index\":-1}", NOT_FOUND, "index", "-1" },
		{ "{\"index\":18446744073709551615}", NOT_FOUND, "index",
		  "18446744073709551615" },
	};
	const char *msg, *other, *problem;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ASSERT_EQ(1, vt_call(&self->c, vt_fmt(NET_CALL("GetLink", "%s"),
						      cases[i].params), &msg));
		EXPECT_EQ(NULL, vt_reply_problem(msg));
		EXPECT_TRUE(vt_is_error(msg, cases[i].error))
			TH_LOG("%s: %s", cases[i].params, msg);
		EXPECT_TRUE(vt_json_is(msg, vt_fmt("parameters.%s", cases[i].path),
				       cases[i].value))
			TH_LOG("%s: %s", cases[i].params, msg);
		/* LinkNotFound echoes the one parameter given, no other */
		if (strcmp(cases[i].error, NOT_FOUND))
			continue;
		other = "parameters.index";
		if (strcmp(cases[i].path, "name"))
			other = "parameters.name";
		EXPECT_FALSE(vt_json_has(msg, other)) TH_LOG("%s", msg);
	}
	/* the connection is fine after all these */
	problem = get_link_problem(&self->c, "{\"name\":\"lo\"}", "lo");
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
}

/* MonitorLinks needs more; ListLinks and GetLink do not stream. */
TEST_F(net, monitor_expected_more)
{
	const char *msg, *problem;

	ASSERT_EQ(1, vt_call(&self->c, NET_CALL("MonitorLinks", "{}"), &msg));
	EXPECT_EQ(NULL, vt_reply_problem(msg));
	EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.ExpectedMore")) TH_LOG("%s", msg);
	EXPECT_FALSE(vt_continues(msg));

	ASSERT_EQ(1, vt_call(&self->c, LIST_MORE, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_FALSE(vt_continues(msg));
	problem = get_link_problem(&self->c, "{\"name\":\"lo\"}", "lo");
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
}

/*
 * Start a stream on @c and read its "current" replies: one per link of
 * /sys/class/net, each as sysfs says.  Returns NULL or what is wrong.
 */
static const char *monitor_current(struct vt_conn *c)
{
	char names[64][IFNAMSIZ];
	struct sys_link a[64], b[64];
	bool seen[64] = {};
	char *links[64];
	const char *msg, *problem;
	int i, j, n, err;

	n = sys_link_names(names, 64);
	if (n <= 0)
		return "no links in /sys/class/net";
	for (i = 0; i < n; i++)
		if (sys_link_read(names[i], &a[i]))
			return vt_fmt("sysfs of %s", names[i]);
	if (monitor_start(c))
		return "send";
	for (i = 0; i < n; i++) {
		err = stream_next(c, &msg);
		if (err != 1)
			return vt_fmt("current reply %d: %s %s", i, strerror(-err), msg);
		if (!vt_json_is(msg, "parameters.event", "\"current\""))
			return vt_fmt("not current: %s", msg);
		links[i] = link_at(msg, "parameters.link");
	}
	for (i = 0; i < n; i++)
		if (sys_link_read(names[i], &b[i]))
			return vt_fmt("sysfs of %s", names[i]);
	for (i = 0; i < n; i++) {
		char *name = vt_json_str(links[i], "name");

		for (j = 0; name && j < n && strcmp(names[j], name); j++)
			;
		if (!name || j == n || seen[j])
			return vt_fmt("unknown or twice: %s", links[i]);
		seen[j] = true;
		problem = link_problem(links[i], &a[j], &b[j]);
		if (problem)
			return vt_fmt("%s: %s", problem, links[i]);
		free(links[i]);
	}
	return NULL;
}

/* One expected event of a link, with the whole state it reports */
struct step {
	const char *event;
	const char *name;
	unsigned long long mtu;
	bool up;
	const char *mac;
};

static bool step_is(const char *msg, const struct step *s)
{
	char *mac = vt_json_str(msg, "parameters.link.mac");
	char *name = vt_json_str(msg, "parameters.link.name");
	unsigned long long mtu;
	bool up, ok;

	ok = vt_json_is(msg, "parameters.event", vt_fmt("\"%s\"", s->event)) &&
	     name && !strcmp(name, s->name) && mac && !strcmp(mac, s->mac) &&
	     json_ull(msg, "parameters.link.mtu", &mtu) && mtu == s->mtu &&
	     json_bool(msg, "parameters.link.up", &up) && up == s->up;
	free(mac);
	free(name);
	return ok;
}

/*
 * Read the events of link @ifindex until @steps were all seen, in order.
 * Another event of that link may only repeat the state of the step before
 * ("changed" again, as the link watch does when the carrier settles).
 * Events of other links are skipped.
 */
static const char *expect_steps(struct vt_conn *c, unsigned long long ifindex,
				const struct step *steps, int n)
{
	unsigned long long index;
	const char *msg;
	int i = 0, err;

	while (i < n) {
		err = stream_next(c, &msg);
		if (err != 1)
			return vt_fmt("step %d (%s): %s %s", i, steps[i].event,
				      strerror(-err), msg);
		if (!json_ull(msg, "parameters.link.index", &index))
			return vt_fmt("no index: %s", msg);
		if (index != ifindex)
			continue;
		if (step_is(msg, &steps[i]))
			i++;
		else if (!i || strcmp(steps[i - 1].event, "changed") ||
			 !step_is(msg, &steps[i - 1]))
			return vt_fmt("step %d (%s %s): %s", i, steps[i].event,
				      steps[i].name, msg);
	}
	return NULL;
}

/*
 * The links there are, then a link made, changed in every way and
 * deleted while the stream goes on: all its events, in order.
 */
TEST_F(net, monitor_events)
{
	static const unsigned char mac[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x01 };
	static const char *const mac_s = "02:00:5e:00:53:01";
	unsigned long long ifindex;
	char addr[64];	/* the address the kernel made up */
	const struct step steps[] = {
		{ "added", "vlnetA", 1500, false, addr },
		{ "changed", "vlnetA", 1300, false, addr },
		{ "changed", "vlnetB", 1300, false, addr },
		{ "changed", "vlnetB", 1300, false, mac_s },
		{ "changed", "vlnetB", 1300, true, mac_s },
		{ "changed", "vlnetB", 1300, false, mac_s },
		{ "removed", "vlnetB", 1300, false, mac_s },
	};
	const struct step added = { "added", "vlnet0", 1500, false, addr };
	const char *problem;

	problem = monitor_current(&self->c);
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);

	/* all the changes first: their events queue up in order */
	ASSERT_EQ(0, link_add("vlnetA", "dummy", NULL));
	ASSERT_EQ(0, sys_ull("vlnetA", "ifindex", &ifindex));
	ASSERT_EQ(0, sys_read("vlnetA", "address", addr, sizeof(addr)));
	ASSERT_EQ(0, link_set_mtu("vlnetA", 1300));
	ASSERT_EQ(0, link_rename("vlnetA", "vlnetB"));
	ASSERT_EQ(0, link_set_mac("vlnetB", mac));
	ASSERT_EQ(0, link_set_up("vlnetB", true));
	ASSERT_EQ(0, link_set_up("vlnetB", false));
	ASSERT_EQ(0, link_del("vlnetB"));
	problem = expect_steps(&self->c, ifindex, steps, ARRAY_SIZE(steps));
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);

	/* still streaming: the next link */
	ASSERT_EQ(0, link_add("vlnet0", "dummy", NULL));
	ASSERT_EQ(0, sys_ull("vlnet0", "ifindex", &ifindex));
	ASSERT_EQ(0, sys_read("vlnet0", "address", addr, sizeof(addr)));
	problem = expect_steps(&self->c, ifindex, &added, 1);
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
}

/*
 * A veth pair: both ends added, their carrier coming up when both are
 * up, and both removed when one is deleted.
 */
TEST_F(net, monitor_veth)
{
	unsigned long long ia = 0, ib = 0, index;
	bool added_a = false, added_b = false, up_a = false, up_b = false;
	bool gone_a = false, gone_b = false;
	const char *problem, *msg;
	struct vt_conn other;
	int err;

	problem = monitor_current(&self->c);
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
	ASSERT_EQ(0, link_add("vlvethA", "veth", "vlvethB"));
	ASSERT_EQ(0, sys_ull("vlvethA", "ifindex", &ia));
	ASSERT_EQ(0, sys_ull("vlvethB", "ifindex", &ib));
	ASSERT_EQ(0, link_set_up("vlvethA", true));
	ASSERT_EQ(0, link_set_up("vlvethB", true));

	while (!up_a || !up_b) {
		err = stream_next(&self->c, &msg);
		ASSERT_EQ(1, err) TH_LOG("%s %s", strerror(-err), msg);
		ASSERT_TRUE(json_ull(msg, "parameters.link.index", &index));
		if (index != ia && index != ib)
			continue;
		if (vt_json_is(msg, "parameters.event", "\"added\"")) {
			added_a |= index == ia;
			added_b |= index == ib;
			continue;
		}
		ASSERT_TRUE(vt_json_is(msg, "parameters.event", "\"changed\"")) TH_LOG("%s", msg);
		/* no change before the link was added */
		ASSERT_TRUE(index == ia ? added_a : added_b) TH_LOG("%s", msg);
		if (vt_json_is(msg, "parameters.link.operstate", "\"up\"") &&
		    vt_json_is(msg, "parameters.link.running", "true")) {
			up_a |= index == ia;
			up_b |= index == ib;
		}
	}
	/* as the stream said, on another connection: this one streams */
	ASSERT_EQ(0, vt_open_ready(&other));
	problem = get_link_problem(&other, "{\"name\":\"vlvethA\"}", "vlvethA");
	vt_close(&other);
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);

	/* deleting one end deletes the other */
	ASSERT_EQ(0, link_del("vlvethA"));
	while (!gone_a || !gone_b) {
		err = stream_next(&self->c, &msg);
		ASSERT_EQ(1, err) TH_LOG("%s %s", strerror(-err), msg);
		ASSERT_TRUE(json_ull(msg, "parameters.link.index", &index));
		if (index != ia && index != ib)
			continue;
		ASSERT_FALSE(index == ia ? gone_a : gone_b) TH_LOG("after removed: %s", msg);
		if (vt_json_is(msg, "parameters.event", "\"removed\"")) {
			gone_a |= index == ia;
			gone_b |= index == ib;
		} else {
			ASSERT_TRUE(vt_json_is(msg, "parameters.event", "\"changed\""))
				TH_LOG("%s", msg);
		}
	}
}

/*
 * Clients that vanish mid-stream, one of them before its stream even
 * started: the server goes on serving the others.
 */
TEST_F(net, monitor_client_vanishes)
{
	struct vt_conn gone, early, other;
	unsigned long long ifindex;
	const char *problem, *msg;
	char addr[64];
	const struct step added = { "added", "vlnetA", 1500, false, addr };
	const struct step removed = { "removed", "vlnetA", 1500, false, addr };

	ASSERT_EQ(0, vt_open_ready(&gone));
	problem = monitor_current(&gone);
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
	vt_close(&gone);
	ASSERT_EQ(0, vt_open_ready(&early));
	ASSERT_EQ(0, monitor_start(&early));
	vt_close(&early);

	ASSERT_EQ(0, vt_open_ready(&other));
	problem = monitor_current(&other);
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);

	/* an event, which the stream of the vanished client cannot take */
	ASSERT_EQ(0, link_add("vlnetA", "dummy", NULL));
	ASSERT_EQ(0, sys_ull("vlnetA", "ifindex", &ifindex));
	ASSERT_EQ(0, sys_read("vlnetA", "address", addr, sizeof(addr)));
	problem = expect_steps(&other, ifindex, &added, 1);
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
	problem = get_link_problem(&self->c, "{\"name\":\"vlnetA\"}", "vlnetA");
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);

	ASSERT_EQ(0, link_del("vlnetA"));
	problem = expect_steps(&other, ifindex, &removed, 1);
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
	ASSERT_EQ(1, vt_call(&self->c, NET_CALL("ListLinks", "{}"), &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	vt_close(&other);
}

/* A parameter of varlink_network.ko */
static int module_param_ull(const char *param, unsigned long long *v)
{
	char path[128], buf[32], *end;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/module/" NET_MODULE "/parameters/%s", param);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	*v = strtoull(buf, &end, 10);
	return end == buf || (*end && *end != '\n') ? -EINVAL : 0;
}

/*
 * Wait until no connection is left but the fixture's: no stream of an
 * earlier test is left then, as the core ends a connection's call before
 * it stops counting the connection.
 */
static int settle(void)
{
	long long deadline = vt_now_ms() + VT_TIMEOUT_MS;

	while (vt_stat("connections") != 1) {
		if (vt_now_ms() > deadline)
			return -ETIMEDOUT;
		vt_sleep_ms(20);
	}
	return 0;
}

static long long json_param(const char *msg, const char *name);

/* Make and delete a link: a stream whose client is gone learns it. */
static int poke(void)
{
	int err = link_add("vlnet0", "dummy", NULL);

	return err ? err : link_del("vlnet0");
}

/*
 * MonitorLinks streams are the core's, bounded by its stream quotas:
 * max_streams at once for root (who has the reserve), one more gets
 * TooManyStreams; once a client has vanished, its place is free again.
 */
TEST_F_TIMEOUT(net, monitor_limit, 180)
{
	unsigned long long max;
	struct vt_conn *conns;
	struct vt_conn extra;
	long long deadline;
	const char *msg, *problem;
	bool started = false;
	unsigned int i;

	ASSERT_EQ(0, settle());	/* no stream of an earlier test is left */
	ASSERT_EQ(0, vt_open_ready(&extra));
	max = vt_param("max_streams", 0);
	ASSERT_LT(0, max);
	conns = calloc(max, sizeof(*conns));
	ASSERT_NE(NULL, conns);

	for (i = 0; i < max; i++) {
		ASSERT_EQ(0, vt_open_ready(&conns[i])) TH_LOG("connection %u", i);
		ASSERT_EQ(0, monitor_start(&conns[i]));
		ASSERT_EQ(1, stream_next(&conns[i], &msg)) TH_LOG("stream %u: %s", i, msg);
	}
	ASSERT_EQ(0, monitor_start(&extra));
	ASSERT_EQ(1, vt_recv(&extra, VT_TIMEOUT_MS, &msg));
	EXPECT_EQ(NULL, vt_reply_problem(msg));
	ASSERT_TRUE(vt_is_error(msg, TOO_MANY)) TH_LOG("%s", msg);
	EXPECT_EQ((long long)max, json_param(msg, "max")) TH_LOG("%s", msg);
	problem = get_link_problem(&extra, "{\"name\":\"lo\"}", "lo");
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);

	/* a client vanishes: its stream ends at the next event */
	vt_close(&conns[0]);
	ASSERT_EQ(0, poke());
	deadline = vt_now_ms() + VT_TIMEOUT_MS;
	while (!started && vt_now_ms() < deadline) {
		ASSERT_EQ(0, monitor_start(&extra));
		ASSERT_EQ(1, vt_recv(&extra, VT_TIMEOUT_MS, &msg));
		ASSERT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
		started = vt_continues(msg);
		if (!started) {
			ASSERT_TRUE(vt_is_error(msg, TOO_MANY)) TH_LOG("%s", msg);
			vt_sleep_ms(50);
			ASSERT_EQ(0, poke());
		}
	}
	ASSERT_TRUE(started);

	for (i = 1; i < max; i++)
		vt_close(&conns[i]);
	vt_close(&extra);
	free(conns);
	ASSERT_EQ(0, poke());	/* the streams of the closed connections end */
}

/*
 * The shares of MonitorLinks streams.  Users other than root are
 * children that open streams one by one until one is refused or they run
 * as many as asked for, tell how it went, and keep their streams until
 * the test lets them go.
 */

/* What opening streams came to */
struct share {
	int started;		/* streams that started */
	bool refused;		/* the one after them got TooManyStreams */
	long long max;		/* its parameters, -1 if absent */
	long long max_per_user;
	char problem[200];	/* what else went wrong, "" if nothing */
};

/* A child that opens streams */
struct sharer {
	pid_t pid;
	struct share s;
};

/* The core's stream quotas, read by check_defaults(), and bounds of the
 * arrays the tests fill (the defaults are 128 and 16)
 */
static int max_streams, per_user, reserve;
#define STREAMS_MAX	1024
#define PER_USER_MAX	64

/* A parameter of a reply, or -1 */
static long long json_param(const char *msg, const char *name)
{
	unsigned long long v;

	return json_ull(msg, vt_fmt("parameters.%s", name), &v) ? (long long)v : -1;
}

/*
 * Start up to @want streams, each on a connection of @c, until one is
 * refused.  In a user namespace (@userns), stream i is that of uid i of
 * the namespace.
 */
static void share_fill(struct vt_conn *c, int want, bool userns, struct share *s)
{
	const char *msg;
	int i, ret;

	memset(s, 0, sizeof(*s));
	s->max = -1;
	s->max_per_user = -1;
	for (i = 0; i < want; i++)
		vt_init(&c[i]);
	for (i = 0; i < want && !s->refused; i++) {
		if (userns && setresuid(-1, i, -1)) {
			snprintf(s->problem, sizeof(s->problem), "seteuid(%d): %m", i);
			return;
		}
		ret = vt_open_ready(&c[i]);
		if (userns && setresuid(-1, 0, -1)) {
			snprintf(s->problem, sizeof(s->problem), "seteuid(0): %m");
			return;
		}
		if (!ret)
			ret = monitor_start(&c[i]);
		if (!ret)
			ret = vt_recv(&c[i], VT_TIMEOUT_MS, &msg);
		if (ret != 1) {
			snprintf(s->problem, sizeof(s->problem), "stream %d: %s", i,
				 strerror(ret ? -ret : ECONNRESET));
			return;
		}
		if (vt_reply_problem(msg)) {
			snprintf(s->problem, sizeof(s->problem), "stream %d: %s: %s",
				 i, vt_reply_problem(msg), msg);
			return;
		}
		if (vt_is_error(msg, TOO_MANY)) {
			s->refused = true;
			s->max = json_param(msg, "max");
			s->max_per_user = json_param(msg, "max_per_user");
		} else if (vt_continues(msg)) {
			s->started++;
		} else {
			snprintf(s->problem, sizeof(s->problem), "stream %d: %s", i, msg);
			return;
		}
	}
}

/*
 * The child of share_start().  In a user namespace, it tells on @report
 * whether it made one (a byte, 0 if so) and waits for its maps on
 * @mapped.  It reports its struct share on @report, then keeps its
 * streams until @go ends.
 */
static int share_child(uid_t uid, int want, bool userns, int report,
		       int mapped, int go)
{
	struct vt_conn *c = calloc(want, sizeof(*c));
	struct share s = { .max = -1, .max_per_user = -1 };
	bool told = false;
	char b = 0;

	if (!c || vt_become(uid)) {
		snprintf(s.problem, sizeof(s.problem), "become %u: %m", uid);
	} else if (userns && unshare(CLONE_NEWUSER)) {
		snprintf(s.problem, sizeof(s.problem), "unshare: %m");
	} else if (!userns) {
		share_fill(c, want, false, &s);
	} else {
		told = true;
		if (write(report, &b, 1) != 1 || read(mapped, &b, 1) != 1)
			snprintf(s.problem, sizeof(s.problem), "no maps");
		else if (setresgid(0, 0, 0) || setresuid(0, 0, 0))
			snprintf(s.problem, sizeof(s.problem),
				 "uid 0 of the namespace: %m");
		else
			share_fill(c, want, true, &s);
	}
	b = 1;	/* it did not get as far as the maps */
	if (userns && !told && write(report, &b, 1) != 1)
		return 1;
	if (write(report, &s, sizeof(s)) != sizeof(s))
		return 1;
	while (read(go, &b, 1) > 0)
		;
	return 0;
}

/*
 * A child of user @uid starts up to @want streams, from uids of a user
 * namespace of its own if @userns, and holds them until @go is closed;
 * returns once @u->s tells how it went, with 0 or -errno.
 */
static int share_start(struct sharer *u, uid_t uid, int want, bool userns,
		       const int go[2])
{
	int report[2], mapped[2], err = 0;
	char b = 1;

	if (pipe(report))
		return -errno;
	if (pipe(mapped)) {
		err = -errno;
		close(report[0]);
		close(report[1]);
		return err;
	}
	u->pid = fork();
	if (!u->pid) {
		close(report[0]);
		close(mapped[1]);
		close(go[1]);
		_exit(share_child(uid, want, userns, report[1], mapped[0], go[0]));
	}
	close(report[1]);
	close(mapped[0]);
	if (u->pid < 0)
		err = -errno;
	if (!err && userns) {
		if (read(report[0], &b, 1) != 1)
			err = -EPROTO;
		else if (!b)
			err = vt_map_ids(u->pid, "0 100000 1000\n", false);
		if (write(mapped[1], &b, 1) != 1 && !err)
			err = -EPIPE;
	}
	if (u->pid > 0 && read(report[0], &u->s, sizeof(u->s)) != sizeof(u->s) && !err)
		err = -EPROTO;
	close(report[0]);
	close(mapped[1]);
	return err;
}

/* Let the children go; 0 if each exited with 0. */
static int share_end(struct sharer *u, int n, int go)
{
	int i, status, err = 0;

	close(go);
	for (i = 0; i < n; i++) {
		if (waitpid(u[i].pid, &status, 0) != u[i].pid ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			err = -ECHILD;
	}
	return err;
}

/* The core's stream quotas in force, within what the tests can fill. */
static void check_defaults(struct __test_metadata *_metadata)
{
	max_streams = vt_param("max_streams", 0);
	per_user = vt_param("max_streams_per_user", 0);
	reserve = max_streams / 8;
	ASSERT_LT(0, per_user);
	ASSERT_GE(PER_USER_MAX, per_user);
	ASSERT_LE(per_user, max_streams);
	ASSERT_GE(STREAMS_MAX, max_streams);
	/* a host user: no container share applies */
}

/*
 * A user without CAP_SYS_ADMIN runs its share of streams, then gets
 * TooManyStreams that says so; another user has a share of its own,
 * and root is not held to a share.
 */
TEST_F_TIMEOUT(net, monitor_per_user, 180)
{
	struct vt_conn root[PER_USER_MAX + 1] = {};
	struct sharer users[2];
	struct share s;
	int go[2], i;

	check_defaults(_metadata);
	ASSERT_EQ(0, settle());
	ASSERT_EQ(0, pipe(go));

	ASSERT_EQ(0, share_start(&users[0], 65534, per_user + 1, false, go));
	s = users[0].s;
	ASSERT_STREQ("", s.problem);
	EXPECT_EQ(per_user, s.started);
	ASSERT_TRUE(s.refused);
	EXPECT_EQ(max_streams - reserve, s.max);
	EXPECT_EQ(per_user, s.max_per_user);

	ASSERT_EQ(0, share_start(&users[1], 65533, 1, false, go));
	s = users[1].s;
	ASSERT_STREQ("", s.problem);
	EXPECT_EQ(1, s.started);

	share_fill(root, per_user + 1, false, &s);
	ASSERT_STREQ("", s.problem);
	EXPECT_EQ(per_user + 1, s.started);
	EXPECT_FALSE(s.refused);

	for (i = 0; i < per_user + 1; i++)
		vt_close(&root[i]);
	EXPECT_EQ(0, share_end(users, 2, go[1]));
	ASSERT_EQ(0, poke());
}

/*
 * The uids of a user namespace that an unprivileged user made are that
 * user's: together with its own streams, they run one share.
 */
TEST_F_TIMEOUT(net, monitor_per_user_userns, 180)
{
	struct sharer users[3];
	struct share s;
	int go[2];

	check_defaults(_metadata);
	ASSERT_EQ(0, settle());
	ASSERT_EQ(0, pipe(go));

	ASSERT_EQ(0, share_start(&users[0], 65534, 3, false, go));
	s = users[0].s;
	ASSERT_STREQ("", s.problem);
	EXPECT_EQ(3, s.started);

	/* from uids 0, 1, 2... of the namespace, each a uid of its own */
	ASSERT_EQ(0, share_start(&users[1], 65534, per_user + 1, true, go));
	s = users[1].s;
	ASSERT_STREQ("", s.problem);
	EXPECT_EQ(per_user - 3, s.started);
	ASSERT_TRUE(s.refused);
	EXPECT_EQ(per_user, s.max_per_user);

	/* which leaves another user its share */
	ASSERT_EQ(0, share_start(&users[2], 65533, per_user, false, go));
	s = users[2].s;
	ASSERT_STREQ("", s.problem);
	EXPECT_EQ(per_user, s.started);

	EXPECT_EQ(0, share_end(users, 3, go[1]));
	ASSERT_EQ(0, poke());
}

/*
 * Users without CAP_SYS_ADMIN fill all but the reserve, each its share,
 * the last one less; then a new user gets nothing, and root gets the
 * reserve, and no more.
 */
TEST_F_TIMEOUT(net, monitor_reserve, 240)
{
	struct sharer users[STREAMS_MAX + 2];
	struct vt_conn root[STREAMS_MAX / 8 + 1] = {};
	int go[2], i, n = 0, total = 0;
	struct share *s;
	struct share r;

	check_defaults(_metadata);
	ASSERT_EQ(0, settle());
	ASSERT_EQ(0, pipe(go));

	do {
		ASSERT_GT((int)ARRAY_SIZE(users) - 1, n);
		ASSERT_EQ(0, share_start(&users[n], 65534 - n, per_user + 1, false, go));
		s = &users[n++].s;
		ASSERT_STREQ("", s->problem);
		ASSERT_TRUE(s->refused) TH_LOG("user %d ran %d streams", n - 1, s->started);
		EXPECT_EQ(max_streams - reserve, s->max);
		if (s->max_per_user >= 0) {
			EXPECT_EQ(per_user, s->max_per_user);
			EXPECT_EQ(per_user, s->started);
		}
		total += s->started;
	} while (s->max_per_user >= 0);
	/* the last user was refused short of its share: all but the reserve run */
	EXPECT_GT(per_user, s->started);
	EXPECT_EQ(max_streams - reserve, total);

	ASSERT_EQ(0, share_start(&users[n], 65534 - n, 1, false, go));
	s = &users[n++].s;
	ASSERT_STREQ("", s->problem);
	EXPECT_EQ(0, s->started);
	ASSERT_TRUE(s->refused);
	EXPECT_EQ(max_streams - reserve, s->max);
	EXPECT_EQ(-1, s->max_per_user);

	share_fill(root, reserve + 1, false, &r);
	ASSERT_STREQ("", r.problem);
	EXPECT_EQ(reserve, r.started);
	ASSERT_TRUE(r.refused);
	EXPECT_EQ(max_streams, r.max);
	EXPECT_EQ(-1, r.max_per_user);

	for (i = 0; i < reserve + 1; i++)
		vt_close(&root[i]);
	EXPECT_EQ(0, share_end(users, n, go[1]));
	ASSERT_EQ(0, poke());
}

/*
 * Unloading the module ends every stream with MonitorEnded, that of a
 * client already gone too; loaded again, it streams again.
 */
TEST_F_TIMEOUT(net, monitor_unload, 120)
{
	struct vt_conn live, gone;
	const char *problem, *msg;
	int err;

	ASSERT_EQ(0, vt_open_ready(&live));
	ASSERT_EQ(0, vt_open_ready(&gone));
	problem = monitor_current(&live);
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
	ASSERT_EQ(0, monitor_start(&gone));
	ASSERT_EQ(1, stream_next(&gone, &msg)) TH_LOG("%s", msg);
	vt_close(&gone);

	err = vt_rmmod(NET_MODULE, 60000);
	ASSERT_EQ(0, err) TH_LOG("rmmod: %s", strerror(-err));
	ASSERT_FALSE(vt_module_loaded(NET_MODULE));

	ASSERT_EQ(1, vt_recv(&live, VT_TIMEOUT_MS, &msg));
	EXPECT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_is_error(msg, ENDED)) TH_LOG("%s", msg);
	EXPECT_FALSE(vt_continues(msg));
	EXPECT_FALSE(vt_json_has(msg, "parameters.event")) TH_LOG("%s", msg);

	/* the connection goes on, without the interface */
	ASSERT_EQ(1, vt_call(&live, NET_CALL("GetLink", "{\"name\":\"lo\"}"), &msg));
	EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.InterfaceNotFound"))
		TH_LOG("%s", msg);

	ASSERT_EQ(0, vt_insmod(NET_MODULE));
	problem = get_link_problem(&live, "{\"name\":\"lo\"}", "lo");
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
	problem = monitor_current(&live);
	ASSERT_EQ(NULL, problem) TH_LOG("%s", problem);
	vt_close(&live);
	ASSERT_EQ(0, poke());
}

/*
 * varlink_network.ko has no stream limits of its own: the core's bound
 * MonitorLinks with every other stream (the parameters max_monitors,
 * max_monitors_per_user and max_monitors_per_container are gone).
 */
TEST_F(net, monitor_params)
{
	unsigned long long v;

	EXPECT_EQ(-ENOENT, module_param_ull("max_monitors", &v));
	EXPECT_EQ(-ENOENT, module_param_ull("max_monitors_per_user", &v));
	EXPECT_EQ(-ENOENT, module_param_ull("max_monitors_per_container", &v));
	EXPECT_LT(0, vt_param("max_streams_per_container", 0));
}

TEST_HARNESS_MAIN
