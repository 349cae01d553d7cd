// SPDX-License-Identifier: GPL-2.0
/*
 * Containers: a listener in every network namespace, calls answered in
 * the caller's namespaces.
 *
 * A new network namespace has a listener of its own, which serves only
 * the interfaces flagged VARLINK_NETNS.  Root of a container (new user
 * and network namespaces) holds no capability over the host, and
 * CAP_NET_ADMIN over its own network namespace (VARLINK_CAPABLE_NET).
 * Connections are capped per network namespace, and accounted to users
 * across user namespaces.  With init_net_only=1 only the initial
 * namespace is served, and a namespace whose processes hold the name
 * when the core loads is left to them.  Namespaces that come and go with
 * clients calling and streaming in them leave no connection behind, and
 * the core unloads with a client streaming in a namespace that stays.
 *
 * The tests that load varlink.ko with other parameters load it back with
 * the defaults, and every provider with it.  Children in other
 * namespaces report failures on stderr and by their exit status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"

#define SERVICE		"org.varlink.service"
#define KERNEL		"org.kernel.varlink"
#define NOT_FOUND	SERVICE ".InterfaceNotFound"
#define DENIED		SERVICE ".PermissionDenied"
#define TOO_MANY	KERNEL ".TooManyConnections"
#define GET_INFO	"{\"method\":\"" SERVICE ".GetInfo\"}"
#define GET_LIMITS	"{\"method\":\"" KERNEL ".GetLimits\"}"
#define GET_STATS	"{\"method\":\"" KERNEL ".GetStatistics\"}"
#define DESCRIBE	"{\"method\":\"" SERVICE ".GetInterfaceDescription\"," \
			"\"parameters\":{\"interface\":\"%s\"}}"
#define CALL(name)	"{\"method\":\"" VT_IFACE "." name "\"}"
#define SET_HOSTNAME	"{\"method\":\"org.kernel.system.SetHostname\"," \
			"\"parameters\":{\"hostname\":\"container\"}}"

/* A container's ids 0-65535 are the host's from here up, as root maps them */
#define MAP_A		"0 100000 65536\n"
#define MAP_B		"0 300000 65536\n"

/* In a child: whether @ok, said on stderr if not */
static bool ok(bool ok, const char *what)
{
	if (!ok)
		fprintf(stderr, "# %s\n", what);
	return ok;
}

/*
 * In a child: whether @json, called on @c, gets the error @error, or a
 * reply (@error NULL), with @raw at @path (unless @path is NULL); said on
 * stderr if not.
 */
static bool reply(struct vt_conn *c, const char *json, const char *error,
		  const char *path, const char *raw)
{
	const char *msg = "";

	if (vt_call(c, json, &msg) == 1 &&
	    (error ? vt_is_error(msg, error) : vt_is_ok(msg)) &&
	    (!path || vt_json_is(msg, path, raw)))
		return true;
	fprintf(stderr, "# %s: '%s', not %s %s %s\n", json, msg,
		error ? error : "success", path ? path : "", path ? raw : "");
	return false;
}

static bool reply_is(struct vt_conn *c, const char *json, const char *error)
{
	return reply(c, json, error, NULL, NULL);
}

static bool reply_has(struct vt_conn *c, const char *json, const char *path,
		      const char *raw)
{
	return reply(c, json, NULL, path, raw);
}

/*
 * /proc, opened before any child changes identity: / of the test VM is
 * closed to users other than root, and root of a new user namespace is
 * another user.
 */
static int proc_dir = -1;

static int proc_init(void)
{
	if (proc_dir < 0)
		proc_dir = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	return proc_dir;
}

static int proc_open(const char *name)
{
	return openat(proc_init(), name, O_RDONLY | O_CLOEXEC);
}

/* The inode number of the caller's network namespace, or 0 */
static unsigned long long netns_ino(void)
{
	int fd = proc_open("self/ns/net");
	struct stat st;

	if (fd < 0 || fstat(fd, &st))
		st.st_ino = 0;
	if (fd >= 0)
		close(fd);
	return st.st_ino;
}

/* Whether the caller's network namespace has a listener */
static bool listening(void)
{
	int fd = proc_open("self/net/unix");
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	bool found = false;
	char line[512];

	if (!f) {
		fprintf(stderr, "# /proc/self/net/unix: %s\n", strerror(errno));
		return false;
	}
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, " @" VARLINK_SOCKET_NAME "\n");
	fclose(f);
	return found;
}

/*
 * The value of line "@key N" of /proc/@who/net/varlink, what the server
 * tells an administrator of the network namespace of process @who
 * ("self" or a pid), or -1.
 */
static long proc_net_varlink(const char *who, const char *key)
{
	int fd = proc_open(vt_fmt("%s/net/varlink", who));

	return vt_net_varlink_value(fd < 0 ? NULL : fdopen(fd, "r"), key);
}

/*
 * A new network namespace, made by root and so owned by the initial user
 * namespace, kept alive by the descriptor returned (or -errno); the
 * caller stays where it is.
 */
static int netns_new(void)
{
	int self, fd;

	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0)
		return -errno;
	fd = unshare(CLONE_NEWNET) ? -errno :
	     open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (setns(self, CLONE_NEWNET))
		abort();	/* stuck in the new one: nothing else is right */
	close(self);
	return fd;
}

/*
 * How a child is made: it enters @netns (if > 0), becomes @owner (if
 * not root), calls unshare(@flags), and, in a new user namespace, waits
 * for root to write @map as its uid_map and gid_map, as newuidmap(1)
 * would.  It then runs the test function and exits with its result.
 */
struct spawn {
	int netns;
	unsigned int owner;
	int flags;
	const char *map;
};

static int spawn_child(const struct spawn *s, int sync, int (*fn)(void *), void *arg)
{
	char b = 0;

	if (s->netns > 0 && setns(s->netns, CLONE_NEWNET))
		return 100;
	if (s->owner && vt_become(s->owner))
		return 101;
	if (s->flags && unshare(s->flags))
		return 102;
	if (s->map && (write(sync, &b, 1) != 1 || read(sync, &b, 1) != 1))
		return 103;
	close(sync);
	return fn(arg);
}

/* Start a child as @s says; returns its pid or -1. */
static pid_t spawn(const struct spawn *s, int (*fn)(void *), void *arg)
{
	int sp[2], err = 0;
	pid_t pid;
	char b;

	if (proc_init() < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp))
		return -1;
	fflush(NULL);
	pid = fork();
	if (!pid) {
		close(sp[0]);
		_exit(spawn_child(s, sp[1], fn, arg));
	}
	close(sp[1]);
	if (pid > 0 && s->map) {
		/* a child that failed before it asked is reaped by the caller */
		if (read(sp[0], &b, 1) == 1)
			err = vt_map_ids(pid, s->map, true);
		if (err)
			fprintf(stderr, "# writing the maps: %s\n", strerror(-err));
		if (err || write(sp[0], &b, 1) != 1)
			kill(pid, SIGKILL);
	}
	close(sp[0]);
	return pid;
}

/* Wait for a child: 0 if it exited with 0. */
static int reap(pid_t pid)
{
	int status;

	if (pid <= 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	fprintf(stderr, "# child %d: %s %d\n", pid,
		WIFEXITED(status) ? "exit" : "signal",
		WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return -1;
}

/* spawn() and reap() */
static int run(const struct spawn *s, int (*fn)(void *), void *arg)
{
	return reap(spawn(s, fn, arg));
}

/* Call @json on a new connection; the reply, or "" */
static const char *call_once(const char *json)
{
	struct vt_conn c;
	const char *msg = "";
	char *reply = "";

	if (!vt_open_ready(&c) && vt_call(&c, json, &msg) == 1)
		reply = strdup(msg);
	vt_close(&c);
	return reply;
}

/* The interfaces GetInfo lists, in @names (NULL-terminated, at most 63) */
static int get_info(struct vt_conn *c, char **names)
{
	const char *msg;
	int i;

	if (vt_call(c, GET_INFO, &msg) != 1 || !vt_is_ok(msg))
		return -1;
	for (i = 0; i < 63; i++) {
		names[i] = vt_json_str(msg, vt_fmt("parameters.interfaces.%d", i));
		if (!names[i])
			break;
	}
	names[i] = NULL;
	return i;
}

static bool listed(char **names, const char *name)
{
	for (; *names; names++)
		if (!strcmp(*names, name))
			return true;
	return false;
}

/* Open @n connections, each served (a Ping answered), in @c */
static int open_served(struct vt_conn *c, int n)
{
	const char *msg;
	int i;

	for (i = 0; i < n; i++) {
		if (vt_open(&c[i]) || vt_call(&c[i], VT_PING, &msg) != 1 || !vt_is_ok(msg)) {
			fprintf(stderr, "# connection %d of %d not served: '%s'\n",
				i + 1, n, c[i].fd < 0 ? strerror(errno) : c[i].msg ? c[i].msg : "");
			return -1;
		}
	}
	return 0;
}

/*
 * Connect until a connection is served, not refused: connections just
 * closed may count for a moment.  Returns 0 or -1.
 */
static int open_when_served(struct vt_conn *c)
{
	long long deadline = vt_now_ms() + VT_TIMEOUT_MS;
	const char *msg;

	do {
		if (!vt_open(c) && vt_call(c, VT_PING, &msg) == 1 && vt_is_ok(msg))
			return 0;
		vt_close(c);
		vt_sleep_ms(50);
	} while (vt_now_ms() < deadline);
	return -1;
}

/*
 * A new network namespace: a listener of its own, which serves the
 * interfaces flagged VARLINK_NETNS, org.varlink.service and the test
 * interface among them, and nothing else: GetInfo lists exactly what
 * GetInterfaceDescription describes there, and org.kernel.varlink (the
 * host's statistics) is neither listed nor called.
 */
static int netns_served(void *arg)
{
	char **host = arg, *here[64];
	const char *ino = vt_fmt("%llu", netns_ino());
	struct vt_conn c;
	int i;

	if (!ok(listening(), "no listener in /proc/net/unix") ||
	    !ok(proc_net_varlink("self", "listening") == 1, "not listening, says /proc") ||
	    !ok(proc_net_varlink("self", "connections") == 0, "connections before any") ||
	    !ok(!vt_open_ready(&c), "no connection") ||
	    !ok(proc_net_varlink("self", "connections") == 1, "not one connection") ||
	    !ok(get_info(&c, here) > 0, "no GetInfo") ||
	    !ok(listed(here, SERVICE), SERVICE " not listed") ||
	    !ok(listed(here, VT_IFACE), VT_IFACE " not listed") ||
	    !ok(!listed(here, KERNEL), KERNEL " listed"))
		return 1;
	for (i = 0; here[i]; i++)
		if (!ok(listed(host, here[i]), here[i]))
			return 1;
	for (i = 0; host[i]; i++) {
		const char *call = vt_fmt(DESCRIBE, host[i]);

		char *text;

		if (!listed(here, host[i])) {
			if (!reply(&c, call, NOT_FOUND, "parameters.interface",
				   vt_fmt("\"%s\"", host[i])))
				return 1;
			continue;
		}
		if (!reply_is(&c, call, NULL))
			return 1;
		text = vt_json_str(c.msg, "parameters.description");
		if (!ok(text && strstr(text, vt_fmt("interface %s\n", host[i])), c.msg))
			return 1;
		free(text);
	}

	/* the host's statistics: not found, whatever the method */
	if (!reply_is(&c, GET_LIMITS, NOT_FOUND) ||
	    !reply_is(&c, GET_STATS, NOT_FOUND) ||
	    !reply_is(&c, "{\"method\":\"" KERNEL ".NoSuchMethod\"}", NOT_FOUND))
		return 1;

	/* root of the initial user namespace holds CAP_NET_ADMIN over it */
	if (!reply_has(&c, CALL("NetAdmin"), "parameters.netns", ino) ||
	    !reply_has(&c, CALL("WhoAmI"), "parameters.uid", "0") ||
	    !reply_has(&c, CALL("WhoAmI"), "parameters.pid", vt_fmt("%d", getpid())) ||
	    !reply_has(&c, CALL("WhoAmI"), "parameters.sys_admin", "true"))
		return 1;
	vt_close(&c);
	return 0;
}

TEST(listener_per_netns)
{
	struct spawn s = { .flags = CLONE_NEWNET };
	const char *msg;
	struct vt_conn c;
	char *host[64];

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_LT(0, get_info(&c, host));
	ASSERT_TRUE(listed(host, KERNEL));
	ASSERT_TRUE(listed(host, VT_IFACE));
	ASSERT_EQ(1, vt_call(&c, GET_LIMITS, &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.init_net_only", "false")) TH_LOG("%s", msg);
	EXPECT_EQ(0, run(&s, netns_served, host));
	/* and the host's goes on */
	ASSERT_EQ(1, vt_call(&c, GET_LIMITS, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	vt_close(&c);
}

/*
 * Whoever opens a connection in a network namespace owned by another
 * user namespace than the initial one holds no capability over the host:
 * every method that checks one in the initial user namespace refuses it.
 * org.kernel.system.SetHostname may be served in the initial namespace
 * only (InterfaceNotFound elsewhere); served or not, it must not go
 * through.
 */
static bool host_denied(struct vt_conn *c)
{
	const char *msg = "";

	if (!reply_is(c, CALL("Privileged"), DENIED) ||
	    !reply_has(c, CALL("WhoAmI"), "parameters.sys_admin", "false"))
		return false;
	vt_call(c, SET_HOSTNAME, &msg);
	return ok(vt_is_error(msg, DENIED) || vt_is_error(msg, NOT_FOUND), msg);
}

/* The container's uid 1000 writes on its root's connection: not root's. */
static bool sender_denied(struct vt_conn *c)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (!pid)
		_exit(vt_become(1000) || !reply_is(c, CALL("NetAdmin"), DENIED));
	return ok(!reap(pid), "uid 1000 on root's connection");
}

/*
 * Root of a container, as its pid 1: the test provider tells its uid and
 * pid as the container sees them, grants NetAdmin over the container's
 * network namespace, and nothing over the host.
 */
static int container_init(void)
{
	const char *ino = vt_fmt("%llu", netns_ino());
	struct vt_conn c;

	if (!ok(getpid() == 1, "not pid 1") ||
	    !ok(listening(), "no listener in /proc/net/unix") ||
	    !ok(!vt_open_ready(&c), "no connection") ||
	    !reply_has(&c, CALL("WhoAmI"), "parameters.uid", "0") ||
	    !reply_has(&c, CALL("WhoAmI"), "parameters.pid", "1") ||
	    !host_denied(&c) ||
	    !reply_has(&c, CALL("NetAdmin"), "parameters.netns", ino) ||
	    !sender_denied(&c) ||
	    !reply_has(&c, CALL("NetAdmin"), "parameters.netns", ino) ||
	    !reply_is(&c, GET_LIMITS, NOT_FOUND))
		return 1;
	vt_close(&c);
	return 0;
}

static int container(void *arg)
{
	pid_t pid;

	if (vt_become(0))
		return 2;
	fflush(NULL);
	pid = fork();	/* pid 1 of the new pid namespace */
	if (!pid)
		_exit(container_init());
	return reap(pid) ? 3 : 0;
}

TEST(container_root)
{
	struct spawn s = {
		.flags = CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWPID,
		.map = MAP_A,
	};
	struct utsname before, after;

	ASSERT_EQ(0, uname(&before));
	EXPECT_EQ(0, run(&s, container, NULL));
	ASSERT_EQ(0, uname(&after));
	EXPECT_STREQ(before.nodename, after.nodename);
}

/*
 * Root of a new user namespace left in the initial network namespace:
 * nothing over the host, and no CAP_NET_ADMIN over its network
 * namespace either, which the initial user namespace owns.
 */
static int userns_root(void *arg)
{
	struct vt_conn c;

	if (!ok(!vt_become(0), "setuid 0") ||
	    !ok(!vt_open_ready(&c), "no connection") ||
	    !reply_has(&c, CALL("WhoAmI"), "parameters.uid", "0") ||
	    !reply_has(&c, CALL("WhoAmI"), "parameters.pid", vt_fmt("%d", getpid())) ||
	    !host_denied(&c) ||
	    !reply_is(&c, CALL("NetAdmin"), DENIED) ||
	    !reply_is(&c, GET_LIMITS, NULL))
		return 1;
	vt_close(&c);
	return 0;
}

TEST(userns_root_in_host_netns)
{
	struct spawn s = { .flags = CLONE_NEWUSER, .map = MAP_A };
	struct utsname before, after;

	ASSERT_EQ(0, uname(&before));
	EXPECT_EQ(0, run(&s, userns_root, NULL));
	ASSERT_EQ(0, uname(&after));
	EXPECT_STREQ(before.nodename, after.nodename);
}

/* NetAdmin denied to whoever calls it, Privileged too */
static int net_admin_denied(void *arg)
{
	struct vt_conn c;

	if (!ok(!vt_open_ready(&c), "no connection") ||
	    !reply_is(&c, CALL("NetAdmin"), DENIED) ||
	    !reply_is(&c, CALL("Privileged"), DENIED))
		return 1;
	vt_close(&c);
	return 0;
}

/*
 * NetAdmin granted over the caller's own network namespace, no more: to
 * the creator of the namespaces as it is, its own uid unmapped there, and
 * as root there.
 */
static int net_admin_granted(void *arg)
{
	const char *ino = vt_fmt("%llu", netns_ino());
	struct vt_conn c, r;

	if (!ok(!vt_open_ready(&c), "no connection") ||
	    !reply_has(&c, CALL("WhoAmI"), "parameters.uid", vt_fmt("%d", getuid())) ||
	    !host_denied(&c) ||
	    !reply_has(&c, CALL("NetAdmin"), "parameters.netns", ino) ||
	    !ok(!vt_become(0), "setuid 0") ||
	    !ok(!vt_open_ready(&r), "no connection as root") ||
	    !reply_has(&r, CALL("WhoAmI"), "parameters.uid", "0") ||
	    !host_denied(&r) ||
	    !reply_has(&r, CALL("NetAdmin"), "parameters.netns", ino))
		return 1;
	vt_close(&c);
	vt_close(&r);
	return 0;
}

/*
 * CAP_NET_ADMIN over the caller's network namespace: root has it over
 * the host's; an unprivileged user has it neither there nor in a
 * namespace root made, but has it as root of its own user and network
 * namespaces (a rootless container), where it still holds nothing over
 * the host.
 */
TEST(net_admin)
{
	struct spawn nobody = { .owner = 65534 };
	struct spawn rootless = {
		.owner = 4343, .flags = CLONE_NEWUSER | CLONE_NEWNET, .map = "0 200000 100\n",
	};
	struct spawn other = { .owner = 65534 };
	const char *msg;

	msg = call_once(CALL("NetAdmin"));
	EXPECT_TRUE(vt_json_is(msg, "parameters.netns", vt_fmt("%llu", netns_ino())))
		TH_LOG("%s", msg);
	EXPECT_EQ(0, run(&nobody, net_admin_denied, NULL));
	other.netns = netns_new();
	ASSERT_LT(0, other.netns);
	EXPECT_EQ(0, run(&other, net_admin_denied, NULL));
	close(other.netns);
	EXPECT_EQ(0, run(&rootless, net_admin_granted, NULL));
}

/*
 * varlink.ko loaded again with other parameters: every provider goes
 * first and comes back after, and the teardown loads it all back with
 * the defaults.
 */
static struct vt_providers providers;

static int core_unload(void)
{
	int err = vt_providers_unload(&providers);

	if (!err)
		err = vt_rmmod(VT_CORE_MODULE, 60000);
	return err == -ENOENT ? 0 : err;
}

static int core_load(const char *params)
{
	return vt_insmod_params(VT_CORE_MODULE, params) ?:
	       vt_providers_load(&providers);
}

static int core_reload(const char *params)
{
	return core_unload() ?: core_load(params);
}

FIXTURE(reload) {
	bool changed;	/* loaded with other parameters than the defaults */
};

FIXTURE_SETUP(reload)
{
	ASSERT_TRUE(vt_module_loaded(VT_CORE_MODULE));
	ASSERT_TRUE(vt_module_loaded(VT_PROVIDER_MODULE));
	vt_providers_find(&providers);
}

FIXTURE_TEARDOWN(reload)
{
	if (self->changed)
		EXPECT_EQ(0, core_reload(""));
	EXPECT_EQ(1024, vt_param("max_connections_per_netns", -1));
	EXPECT_EQ(128, vt_param("max_connections_per_uid", -1));
	EXPECT_TRUE(vt_json_is(call_once(GET_LIMITS), "parameters.init_net_only", "false"));
	EXPECT_TRUE(vt_module_loaded(VT_PROVIDER_MODULE));
}

/* Load the core with @params, and see that it serves. */
static int reload_with(bool *changed, const char *params)
{
	struct vt_conn c;
	int err;

	*changed = *params;
	err = core_reload(params);
	if (!err)
		err = vt_open_ready(&c);
	if (!err)
		vt_close(&c);
	if (err)
		fprintf(stderr, "# loading varlink.ko with '%s': %s\n", params, strerror(-err));
	return err;
}

/* A child that holds its connections: its result, then wait for EOF. */
struct holder {
	int n;		/* connections to open, each served */
	int refused;	/* then one more, refused with this max (0: none) */
	int uid;	/* become it first, if not -1 */
	bool no_admin;	/* and drop CAP_SYS_ADMIN */
	int ready;	/* the result goes there */
	int go[2];	/* EOF on go[0]: close one, and a new one is served */
};

static int hold(void *arg)
{
	struct holder *h = arg;
	struct vt_conn *c = calloc(h->n + 1, sizeof(*c));
	char ret = 0;

	close(h->go[1]);
	if (!c || (h->uid >= 0 && vt_become(h->uid)) ||
	    (h->no_admin && vt_drop_sys_admin()))
		ret = 1;
	else if (open_served(c, h->n))
		ret = 2;
	else if (h->refused && (vt_open(&c[h->n]) || vt_refused(&c[h->n], h->refused)))
		ret = 3;
	if (write(h->ready, &ret, 1) != 1 || read(h->go[0], &ret, 1) != 0)
		return 4;
	if (ret)
		return ret;
	/* room for one again, once the server has seen the close */
	vt_close(&c[0]);
	return open_when_served(&c[0]) ? 5 : 0;
}

/* Start a holder; returns its pid, with its result in *@result. */
static pid_t hold_start(const struct spawn *s, struct holder *h, int go[2], char *result)
{
	int ready[2];
	pid_t pid;

	if (pipe(ready))
		return -1;
	h->ready = ready[1];
	h->go[0] = go[0];
	h->go[1] = go[1];
	pid = spawn(s, hold, h);
	close(ready[1]);
	if (read(ready[0], result, 1) != 1)
		*result = -1;
	close(ready[0]);
	return pid;
}

#define NETNS_MAX	4

/*
 * max_connections_per_netns: a non-root user gets so many connections in
 * a network namespace and is refused the next one, while another
 * namespace gets as many again and the initial one is not capped; so is
 * root of a container, but not root, who has CAP_SYS_ADMIN; and a closed
 * connection makes room.
 */
TEST_F_TIMEOUT(reload, per_netns, 180)
{
	struct holder capped = { .n = NETNS_MAX, .refused = NETNS_MAX, .uid = 2001 };
	struct holder uncapped = { .n = 2 * NETNS_MAX, .uid = 2003 };
	struct holder root = { .n = 1, .uid = -1 };
	struct spawn a = {}, b = {}, host = {};
	struct spawn container = {
		.flags = CLONE_NEWUSER | CLONE_NEWNET, .map = MAP_A,
	};
	struct holder h[5];
	const char *who[5] = {
		"the first namespace", "the second namespace, the first one full",
		"the initial namespace", "root in the first namespace, full",
		"root of a container",
	};
	pid_t p[5];
	char r[5];
	int go[2], i;

	ASSERT_EQ(0, reload_with(&self->changed,
				 vt_fmt("max_connections_per_netns=%d", NETNS_MAX)));
	EXPECT_TRUE(vt_json_is(call_once(GET_LIMITS), "parameters.max_connections_per_netns",
			       vt_fmt("%d", NETNS_MAX)));
	a.netns = netns_new();
	b.netns = netns_new();
	ASSERT_LT(0, a.netns);
	ASSERT_LT(0, b.netns);
	ASSERT_EQ(0, pipe(go));

	h[0] = capped;
	h[1] = capped;
	h[1].uid = 2002;
	h[2] = uncapped;
	h[3] = root;
	h[4] = capped;
	h[4].uid = 0;
	p[0] = hold_start(&a, &h[0], go, &r[0]);
	p[1] = hold_start(&b, &h[1], go, &r[1]);
	p[2] = hold_start(&host, &h[2], go, &r[2]);
	p[3] = hold_start(&a, &h[3], go, &r[3]);
	p[4] = hold_start(&container, &h[4], go, &r[4]);
	/* each namespace's own count, in its /proc/net/varlink */
	EXPECT_EQ(NETNS_MAX + 1, proc_net_varlink(vt_fmt("%d", p[0]), "connections"));
	EXPECT_EQ(1, proc_net_varlink(vt_fmt("%d", p[0]), "refused"));
	EXPECT_EQ(NETNS_MAX, proc_net_varlink(vt_fmt("%d", p[1]), "connections"));
	EXPECT_EQ(1, proc_net_varlink(vt_fmt("%d", p[1]), "refused"));
	EXPECT_EQ(0, proc_net_varlink("self", "refused"));
	close(go[0]);
	close(go[1]);
	for (i = 0; i < 5; i++) {
		EXPECT_EQ(0, r[i]) TH_LOG("%s", who[i]);
		EXPECT_EQ(0, reap(p[i])) TH_LOG("%s", who[i]);
	}
	close(a.netns);
	close(b.netns);
}

/* A container's network namespaces and users, and the limits it meets */
#define CT_NETNS	8	/* each with a uid of its own */
#define CT_PER_UID	4
#define CT_PER_NETNS	8	/* and per container */
#define CT_MAX		32	/* 30 but for CAP_SYS_ADMIN */
#define CT_LIMITS	"max_connections=%d max_connections_per_uid=%d max_connections_per_netns=%d"

/* How many connections are served to this process, up to @max; they stay open. */
static int count_served(struct vt_conn *c, int max)
{
	const char *msg;
	int n;

	for (n = 0; n < max; n++) {
		if (vt_open(&c[n]) || vt_call(&c[n], VT_PING, &msg) != 1 || !vt_is_ok(msg))
			break;
	}
	return n;
}

/* Holds a container's connections: its pipes to the test */
struct tenant {
	int ready;	/* how many were served in the container, one byte */
	int go[2];	/* EOF on go[0]: done */
};

/*
 * Root of a container, a user namespace root made: in CT_NETNS network
 * namespaces it makes, uid i of it (i = 0, 1, ...) takes as many
 * connections as it is served, its share each; the container says how
 * many it got in all, and holds them until the test is done.
 */
static int tenant_fill(void *arg)
{
	const struct tenant *t = arg;
	struct vt_conn c[CT_PER_UID + 1];
	int counts[2], i, total = 0;
	char n, b;
	pid_t pid;

	close(t->go[1]);
	if (pipe(counts))
		return 1;
	for (i = 0; i < CT_NETNS; i++) {
		pid = fork();
		if (pid < 0)
			return 2;
		if (pid)
			continue;
		close(counts[0]);
		n = -1;
		if (!unshare(CLONE_NEWNET) && !setresgid(i, i, i) && !setresuid(i, i, i))
			n = count_served(c, CT_PER_UID + 1);
		if (write(counts[1], &n, 1) != 1)
			_exit(3);
		/* hold them until the container goes */
		while (read(t->go[0], &b, 1) > 0)
			;
		_exit(0);
	}
	close(counts[1]);
	for (i = 0; i < CT_NETNS; i++) {
		if (read(counts[0], &n, 1) != 1 || n < 0)
			return 4;
		total += n;
	}
	n = total;
	if (write(t->ready, &n, 1) != 1)
		return 5;
	while (read(t->go[0], &b, 1) > 0)
		;
	while (wait(NULL) > 0)
		;
	return 0;
}

/*
 * A container is one tenant: max_connections_per_netns bounds it as a
 * whole, over every network namespace it makes, and each of its uids
 * has a share of its own (max_connections_per_uid).  Its root, with
 * CT_NETNS namespaces and uids, could otherwise take every connection
 * but root's reserve; here it gets CT_PER_NETNS, and users of the host
 * are served their share beside it.  Containers without a user
 * namespace (root without CAP_SYS_ADMIN, in a network namespace of its
 * own, as Docker makes them) are tenants each: uid 0 of one does not
 * take uid 0's share of another.
 */
TEST_F_TIMEOUT(reload, per_container, 180)
{
	struct holder h[4] = {
		{ .n = CT_PER_UID, .refused = CT_PER_UID, .uid = 65534 },
		{ .n = CT_PER_UID, .refused = CT_PER_UID, .uid = 1000 },
		{ .n = CT_PER_UID, .refused = CT_PER_UID, .uid = -1, .no_admin = true },
		{ .n = CT_PER_UID, .refused = CT_PER_UID, .uid = -1, .no_admin = true },
	};
	const char *who[4] = {
		"uid 65534 of the host, beside the container",
		"uid 1000 of the host, beside the container",
		"root without CAP_SYS_ADMIN in a network namespace",
		"root without CAP_SYS_ADMIN in another",
	};
	struct spawn container = { .flags = CLONE_NEWUSER, .map = MAP_A };
	struct spawn where[4] = {};
	int ready[2], go[2], i;
	struct tenant t;
	char got = -1, r[4];
	pid_t p[4], ct;

	ASSERT_EQ(0, reload_with(&self->changed,
				 vt_fmt(CT_LIMITS, CT_MAX, CT_PER_UID, CT_PER_NETNS)));
	where[2].netns = netns_new();
	where[3].netns = netns_new();
	ASSERT_LT(0, where[2].netns);
	ASSERT_LT(0, where[3].netns);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	t.ready = ready[1];
	t.go[0] = go[0];
	t.go[1] = go[1];
	ct = spawn(&container, tenant_fill, &t);
	ASSERT_LT(0, ct);
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &got, 1));
	EXPECT_EQ(CT_PER_NETNS, got) TH_LOG("the container got %d connections", got);
	for (i = 0; i < 4; i++)
		p[i] = hold_start(&where[i], &h[i], go, &r[i]);
	close(go[0]);
	close(go[1]);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(0, r[i]) TH_LOG("%s", who[i]);
		EXPECT_EQ(0, reap(p[i])) TH_LOG("%s", who[i]);
	}
	EXPECT_EQ(0, reap(ct));
	close(where[2].netns);
	close(where[3].netns);
}

#define UID_MAX_CONN	4

/*
 * Per-user accounting across user namespaces, with max_connections_per_uid
 * small.  The uids of user namespaces root made are users of their own:
 * uid 1000 of one container and uid 1000 of another get their share
 * each.  The uids of an unprivileged user's own namespaces (here 4343's,
 * with subordinate ids root mapped for it) are all that user's: 4343 and
 * uids of two of its namespaces share one.
 */
TEST_F_TIMEOUT(reload, per_uid, 180)
{
	struct holder uid1000 = { .n = UID_MAX_CONN, .refused = UID_MAX_CONN, .uid = 1000 };
	struct holder owner = { .n = 1, .uid = -1 };
	struct holder own1 = { .n = 1, .uid = 1 };
	struct holder own2 = { .n = UID_MAX_CONN - 2, .refused = UID_MAX_CONN, .uid = 2 };
	struct spawn root_a = { .flags = CLONE_NEWUSER, .map = MAP_A };
	struct spawn root_b = { .flags = CLONE_NEWUSER, .map = MAP_B };
	struct spawn user = { .owner = 4343 };
	struct spawn user_a = { .owner = 4343, .flags = CLONE_NEWUSER, .map = "0 200000 100\n" };
	struct spawn user_b = { .owner = 4343, .flags = CLONE_NEWUSER, .map = "0 200100 100\n" };
	struct holder uid1000_b = uid1000;
	pid_t p[5];
	char r[5];
	int go[2], i;

	ASSERT_EQ(0, reload_with(&self->changed,
				 vt_fmt("max_connections_per_uid=%d", UID_MAX_CONN)));
	ASSERT_EQ(0, pipe(go));
	p[0] = hold_start(&root_a, &uid1000, go, &r[0]);
	p[1] = hold_start(&root_b, &uid1000_b, go, &r[1]);
	p[2] = hold_start(&user, &owner, go, &r[2]);
	p[3] = hold_start(&user_a, &own1, go, &r[3]);
	p[4] = hold_start(&user_b, &own2, go, &r[4]);
	close(go[0]);
	close(go[1]);
	EXPECT_EQ(0, r[0]) TH_LOG("uid 1000 of a container");
	EXPECT_EQ(0, r[1]) TH_LOG("uid 1000 of another container");
	EXPECT_EQ(0, r[2]) TH_LOG("4343 itself");
	EXPECT_EQ(0, r[3]) TH_LOG("uid 1 of a namespace of 4343's");
	EXPECT_EQ(0, r[4]) TH_LOG("uid 2 of another, 4343's share used up");
	for (i = 0; i < 5; i++)
		EXPECT_EQ(0, reap(p[i]));
}

/* Not a listener in sight */
static int unserved(void *arg)
{
	int fd = vt_connect();

	return !ok(fd < 0 && errno == ECONNREFUSED, "connected") ||
	       !ok(!listening(), "a listener in /proc/net/unix") ||
	       !ok(proc_net_varlink("self", "listening") == 0, "listening, says /proc");
}

static int served(void *arg)
{
	char *names[64];
	struct vt_conn c;

	if (!ok(listening(), "no listener in /proc/net/unix") ||
	    !ok(!vt_open_ready(&c), "no connection") ||
	    !ok(get_info(&c, names) > 0 && listed(names, VT_IFACE), "not in GetInfo"))
		return 1;
	vt_close(&c);
	return 0;
}

/*
 * init_net_only=1: no listener in a namespace there was before the core
 * was loaded, nor in one made after, while the initial one is served;
 * loaded again with the defaults, the core listens in the namespace that
 * was there before.
 */
/* A pool of 8 streams and shares as large; a container share below the
 * user share
 */
#define STREAMS_8	"max_streams=8 max_streams_per_user=8 max_streams_per_container=8"
#define STREAMS_SHARES_INVERTED	"max_streams_per_user=4 max_streams_per_container=2"

/* A Replay stream that waits for a client that does not read; 1 if it
 * started, 0 if refused (the reply in @refused), -1 on failure.  The
 * connection goes to *@fd.
 */
static int stream_start(int *fd, char *refused, size_t size)
{
	struct vt_conn c;
	const char *msg;
	int ret;

	if (vt_open_ready(&c))
		return -1;
	ret = vt_call(&c, vt_blocking_replay(), &msg);
	if (ret != 1) {
		vt_close(&c);
		return -1;
	}
	snprintf(refused, size, "%s", msg);
	ret = vt_continues(msg);
	*fd = c.fd;
	c.fd = -1;
	vt_close(&c);
	return ret;
}

/* As uid 65534: every stream but the reserve, then TooManyStreams. */
static int streams_but_reserve(int *fds, int *n)
{
	char refused[512];
	int ret;

	while (*n < 16 && (ret = stream_start(&fds[*n], refused, sizeof(refused))) == 1)
		(*n)++;
	return ret == 0 && vt_is_error(refused, "org.kernel.varlink.TooManyStreams") &&
	       vt_json_is(refused, "parameters.max", "7") &&
	       !vt_json_has(refused, "parameters.max_per_user") ? 0 : 1;
}

/*
 * The core's stream pool: max_streams in all, the last eighth for callers
 * with CAP_SYS_ADMIN.  uid 65534, with a share as large as the pool, gets
 * all but the reserve; root then gets the reserve, and no more.  And the
 * container share may not be smaller than the user share: varlink.ko
 * does not load so.
 */
TEST_F_TIMEOUT(reload, streams_reserve, 180)
{
	int fds[20], n = 0, status, sv[2];
	char refused[512];
	pid_t pid;

	ASSERT_EQ(0, reload_with(&self->changed, STREAMS_8));
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char b;
		int ret;

		close(sv[0]);
		ret = vt_become(65534) ?: streams_but_reserve(fds, &n);

		/* hold them until the test is done */
		if (write(sv[1], &ret, sizeof(ret)) != sizeof(ret) ||
		    read(sv[1], &b, 1) < 0)
			_exit(2);
		_exit(0);
	}
	close(sv[1]);
	ASSERT_EQ(sizeof(status), read(sv[0], &status, sizeof(status)));
	EXPECT_EQ(0, status);
	EXPECT_EQ(1, stream_start(&fds[0], refused, sizeof(refused))) TH_LOG("%s", refused);
	EXPECT_EQ(0, stream_start(&fds[1], refused, sizeof(refused)));
	EXPECT_TRUE(vt_is_error(refused, "org.kernel.varlink.TooManyStreams"));
	EXPECT_TRUE(vt_json_is(refused, "parameters.max", "8")) TH_LOG("%s", refused);
	close(fds[0]);
	close(fds[1]);
	close(sv[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));

	EXPECT_EQ(0, core_unload());
	EXPECT_EQ(-EINVAL, vt_insmod_params(VT_CORE_MODULE, STREAMS_SHARES_INVERTED));
	ASSERT_EQ(0, core_load(""));
	self->changed = false;
}

TEST_F_TIMEOUT(reload, init_net_only, 180)
{
	struct spawn before = {}, after = { .flags = CLONE_NEWNET };

	before.netns = netns_new();
	ASSERT_LT(0, before.netns);
	ASSERT_EQ(0, reload_with(&self->changed, "init_net_only=1"));
	EXPECT_TRUE(vt_json_is(call_once(GET_LIMITS), "parameters.init_net_only", "true"));
	EXPECT_TRUE(listening());
	EXPECT_EQ(0, run(&before, unserved, NULL));
	EXPECT_EQ(0, run(&after, unserved, NULL));

	ASSERT_EQ(0, reload_with(&self->changed, ""));
	EXPECT_TRUE(vt_json_is(call_once(GET_LIMITS), "parameters.init_net_only", "false"));
	EXPECT_EQ(0, run(&before, served, NULL));
	EXPECT_EQ(0, run(&after, served, NULL));
	close(before.netns);
}

/*
 * A process of a network namespace listening on the server's name before
 * varlink.ko is loaded: it answers every client with "squat", until
 * @arg's go[0] (after ready, go[1]) reaches its end.
 */
static int squat(void *arg)
{
	int *fds = arg;	/* ready, go[0], go[1] */
	struct pollfd pfd[2] = { { .events = POLLIN }, { .fd = fds[1], .events = POLLIN } };
	struct sockaddr_un addr;
	socklen_t len = vt_addr(&addr, VARLINK_SOCKET_NAME, 0);
	char ret = 0;
	int fd;

	close(fds[2]);
	pfd[0].fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (pfd[0].fd < 0 || bind(pfd[0].fd, (struct sockaddr *)&addr, len) ||
	    listen(pfd[0].fd, 8))
		ret = 1;
	if (write(fds[0], &ret, 1) != 1 || ret)
		return 1;
	while (poll(pfd, 2, -1) > 0 && !pfd[1].revents) {
		fd = accept(pfd[0].fd, NULL, NULL);
		if (fd >= 0 && send(fd, "squat", 6, MSG_NOSIGNAL) != 6)
			return 2;
		close(fd);
	}
	return 0;
}

/* Whether a client gets the squatter's answer */
static int squatted(void *arg)
{
	struct vt_conn c;
	const char *msg;

	return !ok(!vt_open(&c) && vt_recv(&c, VT_TIMEOUT_MS, &msg) == 1 &&
		   !strcmp(msg, "squat"), "not the squatter");
}

/*
 * The name taken in a network namespace before varlink.ko is loaded: it
 * loads all the same, serves the initial namespace, and leaves that one
 * to the squatter, then unserved once the squatter is gone, until it is
 * loaded again.
 */
TEST_F_TIMEOUT(reload, name_taken, 180)
{
	struct spawn in = {};
	int ready[2], go[2], fds[3];
	pid_t pid;
	char r = -1;

	in.netns = netns_new();
	ASSERT_LT(0, in.netns);
	self->changed = true;	/* the teardown loads it back */
	ASSERT_EQ(0, core_unload());
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	fds[0] = ready[1];
	fds[1] = go[0];
	fds[2] = go[1];
	pid = spawn(&in, squat, fds);
	close(ready[1]);
	close(go[0]);
	EXPECT_EQ(1, read(ready[0], &r, 1));
	close(ready[0]);
	ASSERT_EQ(0, r);

	ASSERT_EQ(0, core_load(""));
	self->changed = false;
	EXPECT_TRUE(vt_is_ok(call_once(GET_INFO)));
	EXPECT_EQ(0, run(&in, squatted, NULL));
	close(go[1]);
	EXPECT_EQ(0, reap(pid));
	EXPECT_EQ(0, run(&in, unserved, NULL));

	ASSERT_EQ(0, reload_with(&self->changed, ""));
	EXPECT_EQ(0, run(&in, served, NULL));
	close(in.netns);
}

/*
 * Churn: network namespaces made and destroyed, ROUNDS times CHURN_PER
 * of them, half of them in containers (with user and UTS namespaces of
 * their own), each with a client that calls (Ping, Echo) and streams
 * (Count, Monitor) and has a call deferred (Defer); every third one is
 * killed in the middle of its streams, the others exit with them
 * running.
 */
#define ROUNDS		2
#define CHURN_PER	10

static int churn_client(int i, int ready)
{
	static const char *const streams[] = {
		VT_MORE("Count", "{\"n\":1048576}"),
		VT_MORE("Monitor", "{\"interval_ms\":5}"),
	};
	long long start = vt_now_ms();
	struct vt_conn c, s[2], d;
	const char *msg;
	char ret = 0;
	int j, k;

	/* half of them in containers, as users of their own */
	if (i % 2 && vt_become(3000 + i))
		ret = 1;
	if (!ret && (vt_open_ready(&c) || vt_open(&s[0]) || vt_open(&s[1]) || vt_open(&d)))
		ret = 2;
	for (j = 0; !ret && j < 2; j++) {
		if (vt_send(&s[j], streams[j]))
			ret = 3;
		for (k = 0; !ret && k < 3; k++)
			if (vt_recv(&s[j], VT_TIMEOUT_MS, &msg) != 1 || !vt_continues(msg))
				ret = 4;
	}
	if (!ret && vt_send(&d, VT_CALL("Defer", "{\"delay_ms\":300}")))
		ret = 5;
	for (j = 0; !ret && j < 10; j++) {
		const char *echo = vt_fmt(VT_CALL("Echo", "{\"string\":\"netns %d\"}"), i);

		if (vt_call(&c, VT_PING, &msg) != 1 || !vt_is_ok(msg) ||
		    vt_call(&c, echo, &msg) != 1 ||
		    !vt_json_is(msg, "parameters.string", vt_fmt("\"netns %d\"", i)))
			ret = 6;
	}
	if (ret)
		fprintf(stderr, "# churn client %d: step %d: '%s'\n", i, ret,
			c.msg ? c.msg : "");
	if (write(ready, &ret, 1) != 1 || ret)
		return 7;
	/* call until killed, the streams running unread (a minute at most) */
	while (i % 3 == 0 && vt_now_ms() < start + 60000) {
		vt_call(&c, VT_PING, &msg);
		vt_sleep_ms(10);
	}
	vt_recv(&s[1], VT_TIMEOUT_MS, &msg);
	return 0;	/* closing it all, in the middle of the streams */
}

static int churn_child(void *arg)
{
	int *a = arg;

	return churn_client(a[0], a[1]);
}

/*
 * A Monitor stream, told about on *@arg once it runs, then followed to
 * its end: its final reply or an error, if any, then the connection
 * closed.
 */
static int stream_to_the_end(void *arg)
{
	const char *msg;
	struct vt_conn c;
	int ret;

	if (!ok(!vt_open_ready(&c), "no connection") ||
	    vt_send(&c, VT_MORE("Monitor", "{\"interval_ms\":20}")) ||
	    !ok(vt_recv(&c, VT_TIMEOUT_MS, &msg) == 1 && vt_continues(msg), "no stream") ||
	    write(*(int *)arg, "", 1) != 1)
		return 1;
	while ((ret = vt_recv(&c, 60000, &msg)) == 1 && vt_continues(msg))
		;
	if (ret == 1)
		ret = vt_recv(&c, 60000, &msg);
	return !ok(!ret, "not closed");
}

/* The number of connections, once it has stopped changing, or -1 */
static long connections_settled(void)
{
	long n = vt_stat("connections"), prev;
	int i;

	for (i = 0; i < 100; i++) {
		vt_sleep_ms(100);
		prev = n;
		n = vt_stat("connections");
		if (n == prev)
			return n;
	}
	return -1;
}

/* Wait until the provider has no Monitor or Defer call left. */
static int provider_idle(int timeout_ms)
{
	long long deadline = vt_now_ms() + timeout_ms;
	const char *msg;

	do {
		msg = call_once("{" VT_M("Status") "}");
		if (vt_json_is(msg, "parameters.monitors", "0") &&
		    vt_json_is(msg, "parameters.deferred", "0"))
			return 0;
		vt_sleep_ms(100);
	} while (vt_now_ms() < deadline);
	fprintf(stderr, "# provider still busy: %s\n", msg);
	return -EBUSY;
}

TEST_F_TIMEOUT(reload, churn, 600)
{
	struct spawn s = { .flags = CLONE_NEWNET }, live = {};
	struct spawn container = {
		.flags = CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWUTS, .map = MAP_A,
	};
	long before, after = -1;
	pid_t pids[CHURN_PER], pid;
	long long deadline;
	int round, i, ready[2];
	const char *msg;
	char r;

	before = connections_settled();
	ASSERT_LE(0, before);
	for (round = 0; round < ROUNDS; round++) {
		int args[CHURN_PER][2];

		ASSERT_EQ(0, pipe(ready));
		for (i = 0; i < CHURN_PER; i++) {
			args[i][0] = round * CHURN_PER + i;
			args[i][1] = ready[1];
			pids[i] = spawn(i % 2 ? &container : &s, churn_child, args[i]);
			ASSERT_LT(0, pids[i]);
		}
		close(ready[1]);
		for (i = 0; i < CHURN_PER; i++) {
			ASSERT_EQ(1, read(ready[0], &r, 1));
			EXPECT_EQ(0, r);
		}
		close(ready[0]);
		for (i = 0; i < CHURN_PER; i++) {
			bool killed = (round * CHURN_PER + i) % 3 == 0;
			int status;

			if (killed)
				kill(pids[i], SIGKILL);
			ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
			EXPECT_TRUE(killed ? WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL :
				    WIFEXITED(status) && !WEXITSTATUS(status))
				TH_LOG("client %d: status %d", round * CHURN_PER + i, status);
		}
	}

	/* every connection closed, every call finished */
	EXPECT_EQ(0, provider_idle(60000));
	deadline = vt_now_ms() + 60000;
	while (vt_now_ms() < deadline) {
		after = vt_stat("connections");
		if (after == before)
			break;
		vt_sleep_ms(100);
	}
	EXPECT_EQ(before, after);
	/* GetStatistics says so too, counting the connection that calls it */
	msg = call_once(GET_STATS);
	EXPECT_TRUE(vt_json_is(msg, "parameters.connections", vt_fmt("%ld", before + 1)))
		TH_LOG("%s", msg);

	/*
	 * then the core goes, with a client streaming in a network namespace
	 * that stays, and comes back: that namespace is served again
	 */
	live.netns = netns_new();
	ASSERT_LT(0, live.netns);
	ASSERT_EQ(0, pipe(ready));
	pid = spawn(&live, stream_to_the_end, &ready[1]);
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &r, 1));
	close(ready[0]);
	ASSERT_EQ(0, reload_with(&self->changed, ""));
	EXPECT_EQ(0, reap(pid));
	EXPECT_EQ(0, run(&live, served, NULL));
	EXPECT_EQ(0, run(&s, served, NULL));
	close(live.netns);
}

TEST_HARNESS_MAIN
