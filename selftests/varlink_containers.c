// SPDX-License-Identifier: GPL-2.0
/*
 * The providers in containers: org.kernel.network, org.kernel.process and
 * org.kernel.system answer a caller in its own namespaces.
 *
 * The container's side of each test runs in a child that unshares its
 * namespaces, and checks what the replies say against what it sees there;
 * the test, on the host, checks that the host's view is untouched.  A
 * user namespace gets its maps from the test, as newuidmap gives a user
 * its subordinate ids, and the child becomes root of it.  Where privilege
 * matters, the container is made by a user other than root.
 *  - network: a container sees its own links only, by ListLinks,
 *    GetLink and MonitorLinks, while the host changes links of its own
 *    and moves one into it; the host's stream sees nothing of the
 *    container's; root of a container is no admin of the streams' pool;
 *  - pid: numbers are those of the caller's pid namespace: its init is 1
 *    with parent 0, the host's processes are not found, not even by
 *    root; the hidepid rule holds in there, with CAP_SYS_PTRACE counted
 *    in the namespace's own user namespace;
 *  - UTS: Describe gives the container's host and domain names, and
 *    SetHostname is refused there, leaving the host's name as it was;
 *  - the server itself: the host's counters in sysfs are refused to a
 *    container, whichever sysfs it reads, and the listener of a user's
 *    network namespace is the kernel's (SO_PEERCRED pid 0).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"
#include "rtnl_test.h"

#define CALL(method, params)	\
	"{\"method\":\"" method "\",\"parameters\":" params "}"
#define NET_IFACE	"org.kernel.network"
#define NET_MONITOR	"{\"method\":\"" NET_IFACE ".MonitorLinks\",\"more\":true}"
#define LINK_NOT_FOUND	NET_IFACE ".LinkNotFound"
#define TOO_MANY	"org.kernel.varlink.TooManyStreams"
#define NOT_FOUND	"org.kernel.process.ProcessNotFound"
#define DESCRIBE	CALL("org.kernel.system.Describe", "{}")
#define DENIED		"org.varlink.service.PermissionDenied"

/* The users that make containers, one for each test */
#define OWNER_NET	4610
#define OWNER_SHARE	4611
#define OWNER_PID	4612
#define OWNER_UTS	4613

/* Uids and gids 0 to MAP_COUNT - 1 of a user namespace, on the host */
#define MAP_BASE	200000
#define MAP_COUNT	1000

/* A user of the container's, other than its root */
#define MEMBER_UID	5

/* The host's links, and the container's own */
#define HOST0		"vlcHost0"
#define HOST1		"vlcHost1"
#define HOST2		"vlcHost2"
#define VETH_A		"vlcVethA"	/* stays on the host */
#define VETH_B		"vlcVethB"	/* is moved into the container */
#define INSIDE		"vlcInside"

/* The names the containers give themselves */
#define GUEST_NAME	"vlc-guest"
#define GUEST_DOMAIN	"vlc-domain"

/*
 * In a container, where the harness's checks are not at hand: whether
 * @cond holds, with a message on stderr, and @msg (a reply), if it does
 * not.
 */
#define OK(cond, msg)	ok(!!(cond), #cond, __LINE__, msg)

static bool ok(bool cond, const char *what, int line, const char *msg)
{
	if (!cond)
		fprintf(stderr, "# line %d: check failed: %s%s%s\n", line, what,
			msg && *msg ? ": " : "", msg ? msg : "");
	return cond;
}

/* Whether the integer parameter @key of reply @msg is @v */
static bool param_is(const char *msg, const char *key, long long v)
{
	return vt_json_is(msg, vt_fmt("parameters.%s", key), vt_fmt("%lld", v));
}

/* Whether the string at @path of @json is @s */
static bool str_is(const char *json, const char *path, const char *s)
{
	char *v = vt_json_str(json, path);
	bool ret = v && !strcmp(v, s);

	free(v);
	return ret;
}

/* Move link @name into the network namespace of process @pid. */
static int link_move(const char *name, pid_t pid)
{
	__u32 nspid = pid;
	struct nl_req r;
	int err = link_change(&r, name);

	if (err)
		return err;
	nl_put(&r, IFLA_NET_NS_PID, &nspid, sizeof(nspid));
	return nl_talk(&r);
}

static void links_clean(void)
{
	static const char *const links[] = { HOST0, HOST1, HOST2, VETH_A, VETH_B };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(links); i++)
		link_del(links[i]);
}

/* One byte between the test and a container, each way */
static bool sync_tell(int fd)
{
	return write(fd, "", 1) == 1;
}

static bool sync_wait(int fd)
{
	char b;

	return read(fd, &b, 1) == 1;
}

/*
 * A child in namespaces of its own, see ns_start().  What runs in the
 * container returns how many of its checks failed.
 */
typedef int (*ns_fn)(void *arg, int sync);

struct ns_child {
	pid_t pid;	/* the child */
	pid_t init;	/* what runs @fn: the init of a new pid namespace, or the child */
	int sync;	/* the test's end of a socket pair to the container */
};

/*
 * The child of ns_start(): become @uid, unshare @flags and, with a new
 * user namespace, have the test write its maps and become root of it.
 * With a new pid namespace, the child makes its init, tells the test the
 * init's pid, and waits for it; the init dies with the child.
 */
static int ns_child(unsigned int uid, int flags, ns_fn fn, void *arg, int sync)
{
	int go[2], status;
	bool told;
	pid_t pid;

	if (uid && vt_become(uid))
		return 100;
	if (unshare(flags))
		return 101;
	if (flags & CLONE_NEWUSER) {
		if (!sync_tell(sync) || !sync_wait(sync))
			return 102;
		if (setresgid(0, 0, 0) || setresuid(0, 0, 0))
			return 103;
	}
	if (!(flags & CLONE_NEWPID))
		return fn(arg, sync);

	if (pipe(go))
		return 104;
	pid = fork();
	if (pid < 0)
		return 105;
	if (!pid) {
		char b;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(go[1]);
		/* the test has the pid before the init talks to it */
		if (read(go[0], &b, 1))
			_exit(106);
		_exit(fn(arg, sync));
	}
	close(go[0]);
	told = write(sync, &pid, sizeof(pid)) == sizeof(pid);
	close(go[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 107;
	return told ? WEXITSTATUS(status) : 108;
}

/*
 * Start a child that runs @fn(@arg, sync) in new namespaces: it becomes
 * @uid (0: it stays root) and unshares @flags (CLONE_NEW*).  Returns 0,
 * with @c->init and @c->sync set, or -errno.
 */
static int ns_start(struct ns_child *c, unsigned int uid, int flags, ns_fn fn,
		    void *arg)
{
	int sv[2], err = 0;

	c->pid = -1;
	c->init = -1;
	c->sync = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	fflush(NULL);
	c->pid = fork();
	if (!c->pid) {
		close(sv[0]);
		_exit(ns_child(uid, flags, fn, arg, sv[1]));
	}
	if (c->pid < 0)
		err = -errno;
	close(sv[1]);
	c->sync = sv[0];
	c->init = c->pid;
	if (!err && (flags & CLONE_NEWUSER)) {
		if (!sync_wait(c->sync))
			return -EPROTO;
		err = vt_map_ids(c->pid, vt_fmt("0 %d %d\n", MAP_BASE, MAP_COUNT), false);
		if (!err && !sync_tell(c->sync))
			err = -EPIPE;
	}
	if (!err && (flags & CLONE_NEWPID) &&
	    read(c->sync, &c->init, sizeof(c->init)) != sizeof(c->init))
		err = -EPROTO;
	return err;
}

/* Wait for the child to end: its exit status, or -1. */
static int ns_end(struct ns_child *c)
{
	pid_t pid = c->pid;
	int status;

	if (c->sync >= 0)
		close(c->sync);
	c->sync = -1;
	c->pid = -1;
	if (pid <= 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* After a failed check: the child goes, and its pid namespace with it. */
static void ns_kill(struct ns_child *c)
{
	if (c->pid > 0)
		kill(c->pid, SIGKILL);
	ns_end(c);
}

/* Whether reply @msg of GetInfo lists @iface */
static bool listed(const char *msg, const char *iface)
{
	char *name;
	bool found = false;
	int i;

	for (i = 0; !found && (name = vt_json_str(msg, vt_fmt("parameters.interfaces.%d", i)));
	     i++) {
		found = !strcmp(name, iface);
		free(name);
	}
	return found;
}

/*
 * The links of the caller's network namespace, as the kernel tells it
 * there (if_nameindex()), into @names, NULL-terminated: at most @max - 1
 * of them.  Returns how many, or -1.
 */
static int links_here(char **names, int max)
{
	struct if_nameindex *ifs = if_nameindex(), *i;
	int n = 0;

	if (!ifs)
		return -1;
	for (i = ifs; i->if_index && n < max - 1; i++)
		names[n++] = strdup(i->if_name);
	names[n] = NULL;
	if_freenameindex(ifs);
	return n;
}

/* Where @name is in @names (NULL-terminated), or -1 */
static int name_at(char *const *names, const char *name)
{
	int i;

	for (i = 0; names[i]; i++)
		if (name && !strcmp(names[i], name))
			return i;
	return -1;
}

/*
 * What is wrong with ListLinks reply @msg, which must list exactly the
 * links @want (NULL-terminated, at most 32), each with the index it has
 * in the caller's network namespace; NULL if nothing.
 */
static const char *list_problem(const char *msg, char *const *want)
{
	unsigned int seen = 0, i;
	char *name;
	int j;

	if (!vt_is_ok(msg))
		return "not a reply";
	for (i = 0; (name = vt_json_str(msg, vt_fmt("parameters.links.%u.name", i))); i++) {
		j = name_at(want, name);
		if (j < 0)
			return vt_fmt("%s is listed", name);
		if (seen & 1U << j)
			return vt_fmt("%s is listed twice", name);
		seen |= 1U << j;
		if (!vt_json_is(msg, vt_fmt("parameters.links.%u.index", i),
				vt_fmt("%u", if_nametoindex(name))))
			return vt_fmt("%s has another index here", name);
		free(name);
	}
	for (j = 0; want[j]; j++)
		if (!(seen & 1U << j))
			return vt_fmt("%s is not listed", want[j]);
	return NULL;
}

/*
 * The next reply of a stream, which must have "continues"; its event and
 * link name are set (not freed), or it returns false.
 */
static bool next_event(struct vt_conn *c, const char **msg, char **event,
		       char **name)
{
	if (vt_recv(c, VT_TIMEOUT_MS, msg) != 1 || vt_reply_problem(*msg) ||
	    !vt_continues(*msg))
		return false;
	*event = vt_json_str(*msg, "parameters.event");
	*name = vt_json_str(*msg, "parameters.link.name");
	return *event && *name;
}

static bool is(const char *s, const char *t)
{
	return s && t && !strcmp(s, t);
}

/* What the network container is told: the index of a host link */
struct net_ctx {
	unsigned int host_index;	/* of HOST1 */
};

/*
 * In the container: root of its own user namespace, in a network
 * namespace of its own with lo, INSIDE, and the links the kernel makes
 * in every namespace (such as sit0, where IPv6-in-IPv4 is built in).
 * The test changes the host's links while this streams, then moves
 * VETH_B in.
 */
static int net_container(void *arg, int sync)
{
	const struct net_ctx *ctx = arg;
	unsigned int seen = 0;
	char *event, *name;
	const char *msg, *problem;
	struct vt_conn c, s;
	bool added = false;
	int failed = 0, i, j;
	char *own[32];

	failed += !OK(link_set_up("lo", true) == 0, NULL);
	failed += !OK(link_add(INSIDE, "dummy", NULL) == 0, NULL);
	if (!OK(links_here(own, ARRAY_SIZE(own)) > 0, NULL))
		return failed + 1;
	failed += !OK(name_at(own, "lo") >= 0 && name_at(own, INSIDE) >= 0 &&
		      name_at(own, HOST0) < 0 && name_at(own, HOST1) < 0, NULL);
	/* the host's link has an index no link has here */
	for (i = 0; own[i]; i++)
		failed += !OK(ctx->host_index != if_nametoindex(own[i]), own[i]);
	if (!OK(vt_open_ready(&c) == 0 && vt_open_ready(&s) == 0, NULL))
		return failed + 1;

	/* served by the listener of this namespace */
	failed += !OK(vt_call(&c, "{\"method\":\"org.varlink.service.GetInfo\"}", &msg) == 1,
		      NULL);
	failed += !OK(listed(msg, NET_IFACE) && listed(msg, "org.kernel.process") &&
		      listed(msg, "org.kernel.system"), msg);

	failed += !OK(vt_call(&c, CALL(NET_IFACE ".ListLinks", "{}"), &msg) == 1, NULL);
	problem = list_problem(msg, own);
	failed += !OK(!problem, vt_fmt("%s: %s", problem, msg));

	failed += !OK(vt_call(&c, CALL(NET_IFACE ".GetLink", "{\"name\":\"" INSIDE "\"}"),
			      &msg) == 1, NULL);
	failed += !OK(vt_is_ok(msg) &&
		      param_is(msg, "link.index", if_nametoindex(INSIDE)), msg);
	failed += !OK(vt_call(&c, CALL(NET_IFACE ".GetLink", "{\"name\":\"" HOST1 "\"}"),
			      &msg) == 1, NULL);
	failed += !OK(vt_is_error(msg, LINK_NOT_FOUND), msg);
	failed += !OK(vt_call(&c, vt_fmt(CALL(NET_IFACE ".GetLink", "{\"index\":%u}"),
					 ctx->host_index), &msg) == 1, NULL);
	failed += !OK(vt_is_error(msg, LINK_NOT_FOUND), msg);

	/* a stream: this namespace's links, then the changes of its own */
	failed += !OK(vt_send(&s, NET_MONITOR) == 0, NULL);
	for (i = 0; own[i]; i++) {
		failed += !OK(next_event(&s, &msg, &event, &name), msg);
		j = name_at(own, name);
		failed += !OK(is(event, "current") && j >= 0 && !(seen & 1U << j), msg);
		if (j >= 0)
			seen |= 1U << j;
	}
	if (!OK(sync_tell(sync) && sync_wait(sync), "the test went away"))
		return failed + 1;
	/* the host made its changes: they were all before this one */
	failed += !OK(link_set_mtu(INSIDE, 1400) == 0, NULL);
	for (;;) {
		if (!OK(next_event(&s, &msg, &event, &name), msg)) {
			failed++;
			break;
		}
		if (is(name, VETH_B)) {
			/* moved in: "added" first */
			failed += !OK(added || is(event, "added"), msg);
			added = true;
			continue;
		}
		if (!OK(is(name, INSIDE), vt_fmt("not a link of here: %s", msg))) {
			failed++;
			break;
		}
		if (is(event, "changed") && param_is(msg, "link.mtu", 1400))
			break;
	}
	failed += !OK(added, "no event of the link moved in");

	failed += !OK(vt_call(&c, CALL(NET_IFACE ".GetLink", "{\"name\":\"" VETH_B "\"}"),
			      &msg) == 1, NULL);
	failed += !OK(vt_is_ok(msg) &&
		      param_is(msg, "link.index", if_nametoindex(VETH_B)), msg);
	failed += !OK(vt_call(&c, CALL(NET_IFACE ".GetLink", "{\"name\":\"" VETH_A "\"}"),
			      &msg) == 1, NULL);
	failed += !OK(vt_is_error(msg, LINK_NOT_FOUND), msg);
	vt_close(&s);
	vt_close(&c);
	return failed;
}

/* What a container's root may stream: the limits of a user without CAP_NET_ADMIN */
struct share_ctx {
	long max;		/* max_streams less its reserve */
	long per_user;		/* max_streams_per_user */
};

/*
 * In the container: root of its own user and network namespaces holds
 * every capability there, but not CAP_NET_ADMIN of the host: it runs its
 * owner's share of streams, and gets no more.
 */
static int share_container(void *arg, int sync)
{
	const struct share_ctx *ctx = arg;
	struct vt_conn *c = calloc(ctx->per_user + 1, sizeof(*c));
	const char *msg;
	int failed = 0, i;

	if (!OK(c, NULL))
		return 1;
	for (i = 0; i <= ctx->per_user; i++) {
		if (!OK(vt_open_ready(&c[i]) == 0 && vt_send(&c[i], NET_MONITOR) == 0 &&
			vt_recv(&c[i], VT_TIMEOUT_MS, &msg) == 1, NULL)) {
			failed++;
			break;
		}
		if (i < ctx->per_user) {
			/* "current" of lo */
			failed += !OK(vt_continues(msg), msg);
			continue;
		}
		failed += !OK(vt_is_error(msg, TOO_MANY), msg);
		failed += !OK(param_is(msg, "max", ctx->max), msg);
		failed += !OK(param_is(msg, "max_per_user", ctx->per_user), msg);
	}
	for (i = 0; i <= ctx->per_user; i++)
		vt_close(&c[i]);
	free(c);
	return failed;
}

/* The first line of file @path, without its newline, or NULL */
static char *read_line(const char *path)
{
	FILE *f = fopen(path, "re");
	char *s = NULL;
	size_t n = 0;

	if (!f)
		return NULL;
	if (getline(&s, &n, f) < 0) {
		free(s);
		s = NULL;
	}
	fclose(f);
	if (s)
		s[strcspn(s, "\n")] = '\0';
	return s;
}

FIXTURE(net) {
	struct vt_conn c;
	struct ns_child child;
};

FIXTURE_SETUP(net)
{
	vt_init(&self->c);
	self->child.pid = -1;
	self->child.sync = -1;
	links_clean();
	ASSERT_TRUE(vt_interface_served("org.kernel.network"));
}

FIXTURE_TEARDOWN(net)
{
	ns_kill(&self->child);
	vt_close(&self->c);
	links_clean();
}

/*
 * A container sees its own links only, and the host none of the
 * container's: ListLinks, GetLink, and MonitorLinks streams on both sides
 * while the host changes links of its own and moves one into the
 * container, which the host's stream sees leave.
 */
TEST_F_TIMEOUT(net, links, 120)
{
	static const char *const host[] = { HOST0, HOST1, HOST2, VETH_A, VETH_B };
	struct net_ctx ctx;
	struct vt_conn other;
	bool moved = false, done = false;
	char *event, *name;
	const char *msg;
	unsigned int i;

	ASSERT_EQ(0, link_add(HOST0, "dummy", NULL));
	ASSERT_EQ(0, link_add(HOST1, "dummy", NULL));
	ctx.host_index = if_nametoindex(HOST1);
	ASSERT_LT(0, ctx.host_index);
	ASSERT_EQ(0, vt_open_ready(&self->c));
	ASSERT_EQ(0, vt_send(&self->c, NET_MONITOR));

	ASSERT_EQ(0, ns_start(&self->child, OWNER_NET, CLONE_NEWUSER | CLONE_NEWNET,
			      net_container, &ctx));
	/* it streams: change the host's links, then move one in */
	ASSERT_TRUE(sync_wait(self->child.sync));
	ASSERT_EQ(0, link_set_mtu(HOST0, 1300));
	ASSERT_EQ(0, link_set_up(HOST0, true));
	ASSERT_EQ(0, link_add(HOST2, "dummy", NULL));
	ASSERT_EQ(0, link_del(HOST2));
	ASSERT_EQ(0, link_add(VETH_A, "veth", VETH_B));
	ASSERT_EQ(0, link_move(VETH_B, self->child.pid));
	ASSERT_EQ(0, if_nametoindex(VETH_B));
	ASSERT_TRUE(sync_tell(self->child.sync));
	EXPECT_EQ(0, ns_end(&self->child));

	/* the host's stream: the host's links only, up to the last change */
	ASSERT_EQ(0, link_set_mtu(HOST1, 1280));
	while (!done) {
		ASSERT_TRUE(next_event(&self->c, &msg, &event, &name)) TH_LOG("%s", msg);
		if (is(event, "current"))
			continue;
		for (i = 0; i < ARRAY_SIZE(host) && !is(name, host[i]); i++)
			;
		/* not even lo: only the container's lo changed */
		ASSERT_LT(i, ARRAY_SIZE(host)) TH_LOG("not a link of the host's: %s", msg);
		moved |= is(name, VETH_B) && is(event, "removed");
		done = is(name, HOST1) && param_is(msg, "link.mtu", 1280);
	}
	EXPECT_TRUE(moved);

	ASSERT_EQ(0, vt_open_ready(&other));
	ASSERT_EQ(1, vt_call(&other, CALL(NET_IFACE ".GetLink", "{\"name\":\"" VETH_B "\"}"),
			     &msg));
	EXPECT_TRUE(vt_is_error(msg, LINK_NOT_FOUND)) TH_LOG("%s", msg);
	ASSERT_EQ(1, vt_call(&other, CALL(NET_IFACE ".GetLink", "{\"name\":\"" HOST0 "\"}"),
			     &msg));
	EXPECT_TRUE(vt_is_ok(msg) && param_is(msg, "link.mtu", 1300)) TH_LOG("%s", msg);
	vt_close(&other);
}

/*
 * Root of a container made by a user is no admin of the streams, which
 * are one pool for the whole system (the core's stream quotas, which
 * bound MonitorLinks): it runs its owner's share, and the reserve for
 * CAP_SYS_ADMIN is not counted for it.
 */
TEST_F_TIMEOUT(net, container_root_is_no_admin, 120)
{
	struct share_ctx ctx;
	long max = vt_param("max_streams", 0);

	ctx.per_user = vt_param("max_streams_per_user", 0);
	ctx.max = max - max / 8;
	ASSERT_LT(0, ctx.per_user);
	/* the share is what runs out, not the streams of all users */
	ASSERT_LT(ctx.per_user, ctx.max);
	ASSERT_EQ(0, ns_start(&self->child, OWNER_SHARE, CLONE_NEWUSER | CLONE_NEWNET,
			      share_container, &ctx));
	EXPECT_EQ(0, ns_end(&self->child));
}

/* A container root made, and its users' shares of the streams */
#define CT_UIDS		7

struct tenant_ctx {
	long per_user;		/* max_streams_per_user */
	long per_container;	/* max_streams_per_container */
	const char *call;	/* a call that starts a stream */
	const char *too_many;	/* the error past the shares */
};

/*
 * In the container, as its @uid: start streams until one is refused, and
 * say on @counts how many started and whether the refusal was the
 * container's share (max_per_container); hold them until @go ends.
 */
static int tenant_streams_uid(const struct tenant_ctx *ctx, unsigned int uid,
			      int counts, int go)
{
	struct vt_conn *c = calloc(ctx->per_user + 1, sizeof(*c));
	char r[2] = { 0, 0 }, b;
	const char *msg;
	int i;

	if (!c || setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		r[0] = -1;
	for (i = 0; r[0] >= 0 && i <= ctx->per_user; i++) {
		if (!OK(vt_open_ready(&c[i]) == 0 && vt_send(&c[i], ctx->call) == 0 &&
			vt_recv(&c[i], VT_TIMEOUT_MS, &msg) == 1, NULL)) {
			r[0] = -1;
			break;
		}
		if (vt_continues(msg)) {
			r[0]++;
			continue;
		}
		if (!OK(vt_is_error(msg, ctx->too_many), msg))
			r[0] = -1;
		r[1] = param_is(msg, "max_per_container", ctx->per_container);
		break;
	}
	if (write(counts, r, 2) != 2)
		return 1;
	while (read(go, &b, 1) > 0)
		;
	return 0;
}

/*
 * Root of a container that root made: its uids 0 to CT_UIDS - 1 start
 * streams, as many as they are given: max_streams_per_container in all.
 * It tells the test once they run, and holds them until the test is done.
 */
static int tenant_streams(void *arg, int sync)
{
	const struct tenant_ctx *ctx = arg;
	int counts[2], go[2], failed = 0, total = 0, capped = 0, i;
	pid_t pid;
	char r[2];

	if (!OK(!pipe(counts) && !pipe(go), NULL))
		return 1;
	for (i = 0; i < CT_UIDS; i++) {
		pid = fork();
		if (!pid) {
			close(counts[0]);
			close(go[1]);
			_exit(tenant_streams_uid(ctx, i, counts[1], go[0]));
		}
		failed += !OK(pid > 0, NULL);
	}
	close(counts[1]);
	close(go[0]);
	for (i = 0; i < CT_UIDS; i++) {
		if (!OK(read(counts[0], r, 2) == 2 && r[0] >= 0, NULL)) {
			failed++;
			break;
		}
		total += r[0];
		capped += r[1];
	}
	failed += !OK(total == ctx->per_container, vt_fmt("%d streams in all", total));
	failed += !OK(capped, "no refusal for the container's share");
	failed += !OK(sync_tell(sync) && sync_wait(sync), NULL);
	close(go[1]);
	while (wait(NULL) > 0)
		;
	return failed;
}

/* Whether @uid of the host starts a stream with @call, in a child of its
 * own
 */
static bool host_streams_with(unsigned int uid, const char *call)
{
	struct vt_conn c;
	const char *msg = "";
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (!pid)
		_exit(!OK(vt_become(uid) == 0 && vt_open_ready(&c) == 0 &&
			  vt_send(&c, call) == 0 &&
			  vt_recv(&c, VT_TIMEOUT_MS, &msg) == 1 && vt_continues(msg),
			  msg));
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       !WEXITSTATUS(status);
}

static bool host_streams(unsigned int uid)
{
	return host_streams_with(uid, NET_MONITOR);
}

/*
 * A container is one tenant of the streams: all its users together run
 * max_streams_per_container, each of them its share, however many uids
 * it has; without that bound its root could take every stream but the
 * reserve with seven of its uids, and lock every user of the host out.
 * Users of the host start theirs beside it.
 */
TEST_F_TIMEOUT(net, container_is_one_tenant, 120)
{
	struct tenant_ctx ctx = {
		.per_user = vt_param("max_streams_per_user", 0),
		.per_container = vt_param("max_streams_per_container", 0),
		.call = NET_MONITOR,
		.too_many = TOO_MANY,
	};
	long max = vt_param("max_streams", 0);

	ASSERT_LT(0, ctx.per_user);
	EXPECT_LT(ctx.per_user, ctx.per_container);
	/* the container's uids alone could take every stream but the reserve */
	ASSERT_LE(max - max / 8, CT_UIDS * ctx.per_user);
	ASSERT_EQ(0, ns_start(&self->child, 0, CLONE_NEWUSER | CLONE_NEWNET,
			      tenant_streams, &ctx));
	ASSERT_TRUE(sync_wait(self->child.sync));
	EXPECT_TRUE(host_streams(65534));
	EXPECT_TRUE(host_streams(1000));
	ASSERT_TRUE(sync_tell(self->child.sync));
	EXPECT_EQ(0, ns_end(&self->child));
}

/*
 * The same for the core's own stream quotas, which every VARLINK_STREAM
 * method shares: a container's users together run
 * max_streams_per_container, each its max_streams_per_user, and host
 * users start theirs beside them.
 */
TEST_F_TIMEOUT(net, container_is_one_stream_tenant, 120)
{
	struct tenant_ctx ctx = {
		.per_user = vt_param("max_streams_per_user", 0),
		.per_container = vt_param("max_streams_per_container", 0),
		.call = vt_blocking_replay(),
		.too_many = "org.kernel.varlink.TooManyStreams",
	};
	long max = vt_param("max_streams", 0);

	ASSERT_LT(0, ctx.per_user);
	EXPECT_LT(ctx.per_user, ctx.per_container);
	ASSERT_LE(ctx.per_container + 2, max - max / 8);
	ASSERT_LE(ctx.per_container, CT_UIDS * ctx.per_user);
	ASSERT_EQ(0, ns_start(&self->child, 0, CLONE_NEWUSER | CLONE_NEWNET,
			      tenant_streams, &ctx));
	ASSERT_TRUE(sync_wait(self->child.sync));
	EXPECT_TRUE(host_streams_with(65534, ctx.call));
	EXPECT_TRUE(host_streams_with(1000, ctx.call));
	ASSERT_TRUE(sync_tell(self->child.sync));
	EXPECT_EQ(0, ns_end(&self->child));
}

/* What the pid namespace's init is told: the test's pid on the host */
struct pid_ctx {
	pid_t test;
};

static int get_process(struct vt_conn *c, long long pid, const char **msg)
{
	return vt_call(c, vt_fmt(CALL("org.kernel.process.GetProcess", "{\"pid\":%lld}"),
				 pid), msg);
}

/*
 * The member of the pid namespace: pid 2, uid MEMBER_UID, dumpable, and
 * without capabilities.  It finds itself in the namespace's numbers, and
 * not its init, another user's.  It says on @ready that it is done, and
 * lives until @go ends.
 */
static int pid_member(int ready, int go)
{
	struct vt_conn c;
	const char *msg;
	int failed = 0;
	char b = 0;

	/* no supplementary groups: none in a user namespace, root's else */
	if (!OK((getgroups(0, NULL) == 0 || !setgroups(0, NULL)) &&
		!setresgid(MEMBER_UID, MEMBER_UID, MEMBER_UID) &&
		!setresuid(MEMBER_UID, MEMBER_UID, MEMBER_UID) &&
		!prctl(PR_SET_DUMPABLE, 1), NULL))
		return 1;
	failed += !OK(getpid() == 2 && getppid() == 1, NULL);
	if (!OK(vt_open_ready(&c) == 0, NULL))
		return failed + 1;
	failed += !OK(get_process(&c, getpid(), &msg) == 1, NULL);
	failed += !OK(vt_is_ok(msg) && param_is(msg, "pid", 2) &&
		      param_is(msg, "ppid", 1) && param_is(msg, "uid", MEMBER_UID) &&
		      param_is(msg, "gid", MEMBER_UID), msg);
	/* the hidepid rule: root's process is not found */
	failed += !OK(get_process(&c, 1, &msg) == 1, NULL);
	failed += !OK(vt_is_error(msg, NOT_FOUND) && param_is(msg, "pid", 1), msg);
	vt_close(&c);
	if (write(ready, &b, 1) != 1)
		failed++;
	while (read(go, &b, 1) > 0)
		;
	return failed;
}

/*
 * The init of a new pid namespace, root of it (and of a user namespace
 * of its own, if it has one).  It finds itself as pid 1 with parent 0,
 * not the test's process outside, and the member it forks as pid 2: root
 * of the namespace holds CAP_SYS_PTRACE over the member's user namespace.
 * Then it tells the test, which looks at it from the host, and waits.
 */
static int pid_init(void *arg, int sync)
{
	const struct pid_ctx *ctx = arg;
	int ready[2], go[2], status, failed = 0;
	char comm[16] = "";
	struct vt_conn c;
	const char *msg;
	pid_t member;
	char b;

	failed += !OK(getpid() == 1 && getppid() == 0, NULL);
	failed += !OK(!prctl(PR_GET_NAME, comm), NULL);
	if (!OK(vt_open_ready(&c) == 0, NULL))
		return failed + 1;
	failed += !OK(get_process(&c, 1, &msg) == 1, NULL);
	failed += !OK(vt_is_ok(msg) && param_is(msg, "pid", 1) &&
		      param_is(msg, "ppid", 0) && param_is(msg, "uid", 0) &&
		      str_is(msg, "parameters.comm", comm), msg);
	/* a process outside is not found, whatever the caller's privilege */
	failed += !OK(ctx->test > 2, NULL);
	failed += !OK(get_process(&c, ctx->test, &msg) == 1, NULL);
	failed += !OK(vt_is_error(msg, NOT_FOUND) && param_is(msg, "pid", ctx->test), msg);

	if (!OK(!pipe(ready) && !pipe(go), NULL))
		return failed + 1;
	member = fork();
	if (!member) {
		close(ready[0]);
		close(go[1]);
		_exit(pid_member(ready[1], go[0]));
	}
	close(ready[1]);
	close(go[0]);
	failed += !OK(member == 2, NULL);
	if (OK(read(ready[0], &b, 1) == 1, "the member went away")) {
		failed += !OK(get_process(&c, 2, &msg) == 1, NULL);
		failed += !OK(vt_is_ok(msg) && param_is(msg, "ppid", 1) &&
			      param_is(msg, "uid", MEMBER_UID), msg);
	} else {
		failed++;
	}
	close(go[1]);
	if (member > 0 && waitpid(member, &status, 0) == member)
		failed += !OK(WIFEXITED(status) && !WEXITSTATUS(status), NULL);
	else
		failed++;
	vt_close(&c);

	/* alive while the test looks from the host */
	failed += !OK(sync_tell(sync) && sync_wait(sync), NULL);
	return failed;
}

FIXTURE(pid) {
	struct vt_conn c;
	struct ns_child child;
};

FIXTURE_VARIANT(pid) {
	unsigned int owner;	/* makes the namespaces: 0 or a user */
	int flags;
	unsigned int host_uid;	/* the init's uid on the host */
};

/* root in a new pid namespace: it still sees nothing outside */
FIXTURE_VARIANT_ADD(pid, root) {
	.owner = 0,
	.flags = CLONE_NEWPID,
	.host_uid = 0,
};

/* a user's container: new user and pid namespaces */
FIXTURE_VARIANT_ADD(pid, user) {
	.owner = OWNER_PID,
	.flags = CLONE_NEWUSER | CLONE_NEWPID,
	.host_uid = MAP_BASE,
};

FIXTURE_SETUP(pid)
{
	vt_init(&self->c);
	self->child.pid = -1;
	self->child.sync = -1;
}

FIXTURE_TEARDOWN(pid)
{
	ns_kill(&self->child);
	vt_close(&self->c);
}

/*
 * Pids in a pid namespace are its own, and the same process seen from the
 * host has the host's numbers.
 */
TEST_F_TIMEOUT(pid, numbers, 60)
{
	struct pid_ctx ctx = { .test = getpid() };
	const char *msg;

	ASSERT_EQ(0, ns_start(&self->child, variant->owner, variant->flags,
			      pid_init, &ctx));
	ASSERT_TRUE(sync_wait(self->child.sync));
	ASSERT_NE(self->child.pid, self->child.init);
	ASSERT_EQ(0, vt_open_ready(&self->c));
	ASSERT_EQ(1, get_process(&self->c, self->child.init, &msg));
	ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_TRUE(param_is(msg, "pid", self->child.init)) TH_LOG("%s", msg);
	EXPECT_TRUE(param_is(msg, "ppid", self->child.pid)) TH_LOG("%s", msg);
	EXPECT_TRUE(param_is(msg, "uid", variant->host_uid)) TH_LOG("%s", msg);
	ASSERT_TRUE(sync_tell(self->child.sync));
	EXPECT_EQ(0, ns_end(&self->child));
}

/*
 * In the container: it names itself, and finds its names in Describe; it
 * may not set the host name through varlink, whatever it holds, and its
 * own name stays.
 */
static int uts_container(void *arg, int sync)
{
	static const char set[] = CALL("org.kernel.system.SetHostname",
				       "{\"hostname\":\"vlc-hijack\"}");
	struct utsname u;
	struct vt_conn c;
	const char *msg;
	int failed = 0;

	failed += !OK(!sethostname(GUEST_NAME, strlen(GUEST_NAME)), NULL);
	failed += !OK(!setdomainname(GUEST_DOMAIN, strlen(GUEST_DOMAIN)), NULL);
	if (!OK(!uname(&u) && vt_open_ready(&c) == 0, NULL))
		return failed + 1;
	failed += !OK(vt_call(&c, DESCRIBE, &msg) == 1, NULL);
	failed += !OK(vt_is_ok(msg) && str_is(msg, "parameters.nodename", GUEST_NAME) &&
		      str_is(msg, "parameters.domainname", GUEST_DOMAIN) &&
		      str_is(msg, "parameters.sysname", u.sysname) &&
		      str_is(msg, "parameters.release", u.release) &&
		      str_is(msg, "parameters.machine", u.machine), msg);
	failed += !OK(vt_call(&c, set, &msg) == 1, NULL);
	failed += !OK(vt_is_error(msg, DENIED), msg);
	failed += !OK(!uname(&u) && !strcmp(u.nodename, GUEST_NAME), u.nodename);
	vt_close(&c);
	return failed;
}

FIXTURE(uts) {
	struct vt_conn c;
	struct ns_child child;
	struct utsname host;
};

FIXTURE_VARIANT(uts) {
	unsigned int owner;
	int flags;
};

/*
 * root in a UTS namespace of its own, with CAP_SYS_ADMIN of the host:
 * SetHostname would set the host's name, not its own
 */
FIXTURE_VARIANT_ADD(uts, root) {
	.owner = 0,
	.flags = CLONE_NEWUTS,
};

/* a user's container, root in it, served by its own listener */
FIXTURE_VARIANT_ADD(uts, user) {
	.owner = OWNER_UTS,
	.flags = CLONE_NEWUSER | CLONE_NEWUTS | CLONE_NEWNET,
};

FIXTURE_SETUP(uts)
{
	vt_init(&self->c);
	self->child.pid = -1;
	self->child.sync = -1;
	ASSERT_EQ(0, uname(&self->host));
	ASSERT_STRNE(GUEST_NAME, self->host.nodename);
}

FIXTURE_TEARDOWN(uts)
{
	struct utsname now;

	ns_kill(&self->child);
	vt_close(&self->c);
	if (uname(&now))
		return;
	if (strcmp(now.nodename, self->host.nodename))
		sethostname(self->host.nodename, strlen(self->host.nodename));
	if (strcmp(now.domainname, self->host.domainname))
		setdomainname(self->host.domainname, strlen(self->host.domainname));
}

/*
 * Describe gives the container's names to the container, the host's to
 * the host; SetHostname from the container changes neither.
 */
TEST_F_TIMEOUT(uts, names, 60)
{
	struct utsname now;
	const char *msg;
	char *name;

	ASSERT_EQ(0, ns_start(&self->child, variant->owner, variant->flags,
			      uts_container, NULL));
	EXPECT_EQ(0, ns_end(&self->child));

	ASSERT_EQ(0, uname(&now));
	EXPECT_STREQ(self->host.nodename, now.nodename);
	EXPECT_STREQ(self->host.domainname, now.domainname);
	name = read_line("/proc/sys/kernel/hostname");
	ASSERT_NE(NULL, name);
	EXPECT_STREQ(self->host.nodename, name);
	free(name);

	ASSERT_EQ(0, vt_open_ready(&self->c));
	ASSERT_EQ(1, vt_call(&self->c, DESCRIBE, &msg));
	EXPECT_TRUE(str_is(msg, "parameters.nodename", self->host.nodename)) TH_LOG("%s", msg);
	EXPECT_TRUE(str_is(msg, "parameters.domainname", self->host.domainname))
		TH_LOG("%s", msg);
}

/*
 * The host's counters, /sys/module/varlink/statistics/, as
 * org.kernel.varlink.GetStatistics: for readers in the initial network
 * namespace only.  /sys/module is not namespaced, so a container can
 * read the host's sysfs, or mount one of its own; either way a counter
 * opens (the files are 0444) and its read() fails with EACCES.  /sys and
 * a directory to mount on are opened by the test, as root: the
 * container's user may not walk there by path.
 */
#define STATS_FILE	"module/varlink/statistics/bytes_in"
#define OVERFLOW_ID	65534	/* what a user namespace shows of an unmapped id */

static int sys_dir = -1;	/* the host's /sys */
static int mnt_dir = -1;	/* with an empty "sys" in it, to mount on */
static int proc_dir = -1;	/* the host's /proc */

/*
 * Read the counter at @path below @dir: 0 if a number came, the -errno
 * of read() if it failed, 1 if it could not be opened, 2 if it was empty.
 */
static int counter_read(int dir, const char *path)
{
	int fd = openat(dir, path, O_RDONLY | O_CLOEXEC), err;
	char buf[32];
	ssize_t n;

	if (fd < 0) {
		fprintf(stderr, "# open %s: %s\n", path, strerror(errno));
		return 1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	err = n < 0 ? -errno : n ? 0 : 2;
	close(fd);
	return err;
}

/* Root of a user's container: the counters are refused, by either sysfs. */
static int stats_container(void *arg, int sync)
{
	int failed = 0, ret;

	ret = counter_read(sys_dir, STATS_FILE);
	failed += !OK(ret == -EACCES, vt_fmt("the host's sysfs: %d", ret));

	/* a sysfs of its own: the cwd follows into the new mount namespace */
	if (!OK(!fchdir(mnt_dir), strerror(errno)) ||
	    !OK(!unshare(CLONE_NEWNS), strerror(errno)) ||
	    !OK(!mount("sysfs", "sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL),
		strerror(errno)))
		return failed + 1;
	ret = counter_read(AT_FDCWD, "sys/" STATS_FILE);
	failed += !OK(ret == -EACCES, vt_fmt("its own sysfs: %d", ret));
	return failed;
}

/* A user of the initial network namespace reads them. */
static int stats_host(void *arg, int sync)
{
	int ret = counter_read(sys_dir, STATS_FILE);

	return !OK(ret == 0, vt_fmt("%d", ret));
}

FIXTURE(stats) {
	struct ns_child child;
	char dir[32];
};

FIXTURE_SETUP(stats)
{
	self->child.pid = -1;
	self->child.sync = -1;
	strcpy(self->dir, "/tmp/vlc-sysfs-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_EQ(0, mkdir(vt_fmt("%s/sys", self->dir), 0755));
	ASSERT_EQ(0, chmod(self->dir, 0755));
	mnt_dir = open(self->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, mnt_dir);
	sys_dir = open("/sys", O_PATH | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, sys_dir);
	ASSERT_EQ(0, counter_read(sys_dir, STATS_FILE));
}

FIXTURE_TEARDOWN(stats)
{
	ns_kill(&self->child);
	close(sys_dir);
	close(mnt_dir);
	rmdir(vt_fmt("%s/sys", self->dir));
	rmdir(self->dir);
}

TEST_F_TIMEOUT(stats, host_only, 60)
{
	ASSERT_EQ(0, ns_start(&self->child, 65534, CLONE_NEWUSER | CLONE_NEWNET,
			      stats_container, NULL));
	EXPECT_EQ(0, ns_end(&self->child));
	ASSERT_EQ(0, ns_start(&self->child, 65534, 0, stats_host, NULL));
	EXPECT_EQ(0, ns_end(&self->child));
}

/*
 * The listener of a network namespace a user made is the kernel's too:
 * its SO_PEERCRED is pid 0, not that of the namespace's creator (this
 * very process), with the kernel's uid and gid 0, which this user
 * namespace does not map; and /proc/net/varlink there says it listens.
 */
static int peer_container(void *arg, int sync)
{
	struct ucred cred = { .pid = -1 };
	socklen_t len = sizeof(cred);
	int fd = vt_connect(), failed = 0;
	FILE *f;

	if (!OK(fd >= 0, strerror(errno)) ||
	    !OK(!getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len), strerror(errno)))
		return 1;
	close(fd);
	failed += !OK(cred.pid == 0, vt_fmt("pid %d; this process is %d", cred.pid, getpid()));
	failed += !OK(cred.uid == OVERFLOW_ID && cred.gid == OVERFLOW_ID,
		      vt_fmt("uid %u gid %u", cred.uid, cred.gid));

	fd = openat(proc_dir, "self/net/varlink", O_RDONLY | O_CLOEXEC);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!OK(f, strerror(errno)))
		return failed + 1;
	failed += !OK(vt_net_varlink_value(f, "listening") == 1,
		      "/proc/net/varlink: not listening 1");
	return failed;
}

TEST(peer_is_the_kernel)
{
	struct ns_child child;

	proc_dir = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, proc_dir);
	ASSERT_EQ(0, ns_start(&child, 65534, CLONE_NEWUSER | CLONE_NEWNET,
			      peer_container, NULL));
	EXPECT_EQ(0, ns_end(&child));
	close(proc_dir);
}

TEST_HARNESS_MAIN
