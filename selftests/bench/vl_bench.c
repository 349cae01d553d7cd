// SPDX-License-Identifier: GPL-2.0
/*
 * vl-bench: the client of "make bench", and the raw ping-pong server it
 * compares everything with.  Runs in the stock-kernel VM (or anywhere:
 * a server it cannot reach is reported as n/a).
 *
 *   vl-bench run [-s SECONDS] [-r REPS] [-g GO_SERVER] [-t IDS] [-P CPU]
 *                [-C] [-D] [-M] [-S] [-T] [-x]
 *   vl-bench load TARGET SECONDS
 *   vl-bench raw-server NAME
 *
 * "load" makes calls of one target, one at a time on one connection, for
 * the profile of make bench (selftests/bench/profile.sh), and prints how
 * many it made.
 *
 * Targets, each answering the same call with the same reply every time:
 *   raw             two userspace processes over AF_UNIX, thread per
 *                   connection: the call and reply bytes of a Ping, no
 *                   JSON, the floor for any userspace server
 *   nlctrl          generic netlink CTRL_CMD_GETFAMILY("nlctrl"), the
 *                   kernel's own request/response path
 *   go-ping         Debian's Go varlink library: org.kernel.varlink.test.Ping
 *   go-getinfo      the same server: org.varlink.service.GetInfo
 *   kernel-ping     varlink.ko: org.kernel.varlink.test.Ping
 *   kernel-getinfo  varlink.ko: org.varlink.service.GetInfo
 *   kernel-*-kworker  the same with the module's fast_path=N, when the
 *                   module has that parameter
 *
 * Modes: seq (one connection, one call at a time, the client pinned to
 * CPU 0), pipe16 (the same with 16 calls in flight), and c1, c4, c16,
 * c64 (that many connections, one thread each, one call at a time).
 * Each run lasts SECONDS; a figure is the median of REPS runs, taken in
 * turns (rep 1 of everything, then rep 2, ...).  Latency is from the
 * write of a call to the read of its reply.
 *
 * Then org.kernel.sysctl.Get of kernel.random.boot_id (varlink_sysctl.ko)
 * against what it replaces, open(), read() and close() of
 * /proc/sys/kernel/random/boot_id, one at a time from CPU 0, in turns
 * (-S skips it): operations per second and microseconds per operation.
 *
 * Then memory per idle connection: 10000 connections from 100 processes
 * of 100 uids (the module's default per-uid limit is 128; make bench
 * loads it with max_connections=16384), the growth of slab objects
 * (/proc/slabinfo) and of Slab (/proc/meminfo), for the kernel server
 * and for a userspace listener that accepts and holds them (the cost of
 * the socket pair itself); and kernel-ping's sequential rate while the
 * kernel server holds them against its rate just before: what idle
 * connections cost the calls of another.
 *
 * Then /proc/meminfo against org.kernel.memory.Get (varlink_memory.ko),
 * one at a time, the client pinned to CPU 0: "proc-meminfo" opens, reads
 * and closes /proc/meminfo and takes MemTotal, MemFree and MemAvailable
 * out of its text; "kernel-memory-get" calls Get on one connection and
 * takes total, free and available out of the reply's JSON.  Each gives
 * the numbers a monitoring agent wants, both ways.
 *
 * Then org.kernel.device (varlink_device.ko; -D skips it): List of every
 * device on one connection against what it replaces, a walk of the
 * devices of /sys/class (CLASS/NAME/uevent, every file read); and the
 * time from a Monitor call to its first live event (a "change" written
 * to the uevent file of /dev/null, again every millisecond until one
 * comes), and from a write to its event on a stream that is live.
 *
 * Then the calls that replace files for the tools that read them (-C
 * skips them): org.kernel.log.Read of the whole log on one connection
 * against /dev/kmsg opened and read from its first record to EAGAIN, 8 KiB
 * a read, as dmesg and journald read it; org.kernel.device.GetAttributes
 * of lo's every attribute against open, read (4 KiB) and close of each
 * regular file of its directory and of "power" (as sd-device reads
 * them); org.kernel.sysctl.Apply of 50 writable sysctls of lo, each its
 * own value, against open, write and close of each file.  Each pair in
 * turns, one at a time: operations per second and their ratio.
 *
 * Prints progress to stderr, the tables and "result" lines to stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <dirent.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RAW_NAME	"kvarlink.bench.raw"
#define GO_NAME		"kvarlink.bench.go"
#define IDLE_NAME	"kvarlink.bench.idle"
#define KERNEL_NAME	"org.kernel.varlink"
#define SYSFS		"/sys/module/varlink"

#define PING_CALL	"{\"method\":\"org.kernel.varlink.test.Ping\"}"
#define INFO_CALL	"{\"method\":\"org.varlink.service.GetInfo\"}"
#define PING_REPLY	"{\"parameters\":{}}"
#define SYSCTL_CALL	"{\"method\":\"org.kernel.sysctl.Get\"," \
			"\"parameters\":{\"name\":\"kernel.random.boot_id\"}}"
#define BOOT_ID_PATH	"/proc/sys/kernel/random/boot_id"
#define MEMINFO_CALL	"{\"method\":\"org.kernel.memory.Get\"}"
#define DEVICE_LIST_CALL "{\"method\":\"org.kernel.device.List\",\"more\":true," \
			 "\"parameters\":{}}"
#define DEVICE_WALK_CALL "{\"method\":\"org.kernel.device.List\",\"more\":true," \
			 "\"parameters\":{\"subsystem\":\"none\"}}"
#define DEVICE_MONITOR_CALL "{\"method\":\"org.kernel.device.Monitor\"," \
			    "\"more\":true,\"parameters\":{\"subsystems\":[\"mem\"]}}"
#define DEVICE_UEVENT	"/sys/devices/virtual/mem/null/uevent"

#define PIPE_DEPTH	16
#define MAX_CONNS	64
#define WARMUP_CALLS	3
#define BUF_SIZE	65536
#define IDLE_CONNS	10000
#define IDLE_PROCS	100
#define IDLE_UID	1001
#define MAX_REPS	15

#define NSEC		1000000000LL
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum kind { UNIX_STREAM, GENL };

struct target {
	const char *id;
	enum kind kind;
	const char *name;	/* abstract AF_UNIX name */
	const char *call;	/* the call, without its NUL */
	char fast_path;		/* 0: as loaded, else 'Y' or 'N' */
	bool kernel;		/* read varlink.ko's statistics */
	const char *na;		/* why it cannot run, or NULL */
	size_t call_len;	/* bytes of one call on the wire */
	size_t reply_len;	/* bytes of one reply, seen at warm-up */
};

#define UNIX_TARGET(_id, _name, _call, _fast_path, _kernel)		\
	{ .id = (_id), .kind = UNIX_STREAM, .name = (_name), .call = (_call), \
	  .fast_path = (_fast_path), .kernel = (_kernel) }

static struct target targets[] = {
	UNIX_TARGET("raw", RAW_NAME, PING_CALL, 0, false),
	{ .id = "nlctrl", .kind = GENL },
	UNIX_TARGET("go-ping", GO_NAME, PING_CALL, 0, false),
	UNIX_TARGET("go-getinfo", GO_NAME, INFO_CALL, 0, false),
	UNIX_TARGET("kernel-ping", KERNEL_NAME, PING_CALL, 0, true),
	UNIX_TARGET("kernel-getinfo", KERNEL_NAME, INFO_CALL, 0, true),
	UNIX_TARGET("kernel-ping-kworker", KERNEL_NAME, PING_CALL, 'N', true),
	UNIX_TARGET("kernel-getinfo-kworker", KERNEL_NAME, INFO_CALL, 'N', true),
};

#define N_TARGETS	ARRAY_SIZE(targets)

struct mode {
	const char *id;
	unsigned int conns;
	bool pipelined;
	bool pinned;
};

static const struct mode modes[] = {
	{ "seq", 1, false, true },
	{ "pipe16", 1, true, true },
	{ "c1", 1, false, false },
	{ "c4", 4, false, false },
	{ "c16", 16, false, false },
	{ "c64", 64, false, false },
};

#define N_MODES		ARRAY_SIZE(modes)

struct result {
	bool ok;
	double rate;		/* calls per second */
	double p50, p99;	/* microseconds */
	long long n;		/* calls made */
	long long calls, inlined, allocs, sends;	/* varlink.ko statistics deltas */
};

static struct result results[N_TARGETS][N_MODES][MAX_REPS];

/*
 * What the raw server replies: by default a Ping reply of the Go server;
 * when varlink.ko answers Ping, its reply, probed before the server starts.
 */
static char raw_reply[256] = PING_REPLY;
static size_t raw_reply_len = sizeof(PING_REPLY);

static double opt_seconds = 1.0;
static unsigned int opt_reps = 3;
static bool opt_memory = true;
static bool opt_throughput = true;
static bool opt_stats = true;
static bool opt_sysctl = true;
static bool opt_device = true;
static bool opt_dropin = true;
static const char *opt_targets;	/* comma-separated ids, or NULL for all */
static int opt_server_cpu = -1;	/* pin the userspace servers there */

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("vl-bench: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		die("out of memory");
	return p;
}

static void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity(%d): %s", cpu, strerror(errno));
}

/* An abstract AF_UNIX address: a NUL, then @name, no trailing NUL. */
static socklen_t unix_addr(struct sockaddr_un *sun, const char *name)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	memcpy(sun->sun_path + 1, name, strlen(name));
	return offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name);
}

static int unix_connect(const char *name)
{
	struct sockaddr_un sun;
	socklen_t len = unix_addr(&sun, name);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, len)) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

static int unix_listen(const char *name, int backlog)
{
	struct sockaddr_un sun;
	socklen_t len = unix_addr(&sun, name);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sun, len) ||
	    listen(fd, backlog))
		die("listen on @%s: %s", name, strerror(errno));
	return fd;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/* ---- the raw ping-pong server ---- */

static void *raw_conn(void *arg)
{
	char *out = malloc(PIPE_DEPTH * raw_reply_len);
	int fd = (int)(long)arg;
	char *buf = malloc(BUF_SIZE);
	unsigned int i;
	ssize_t n;

	for (i = 0; out && i < PIPE_DEPTH; i++)
		memcpy(out + i * raw_reply_len, raw_reply, raw_reply_len);
	while (out && buf && (n = read(fd, buf, BUF_SIZE)) > 0) {
		unsigned int calls = 0;
		char *p = buf, *end = buf + n;

		while ((p = memchr(p, '\0', end - p))) {
			calls++;
			p++;
		}
		while (calls) {
			unsigned int k = calls < PIPE_DEPTH ? calls : PIPE_DEPTH;

			if (write_all(fd, out, k * raw_reply_len))
				goto out;
			calls -= k;
		}
	}
out:
	free(out);
	free(buf);
	close(fd);
	return NULL;
}

static void raw_server(const char *name)
{
	int lfd = unix_listen(name, 128);
	pthread_attr_t attr;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	for (;;) {
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		pthread_t th;

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			die("accept: %s", strerror(errno));
		}
		if (pthread_create(&th, &attr, raw_conn, (void *)(long)fd))
			close(fd);
	}
}

/* ---- the client side ---- */

struct conn {
	const struct target *t;
	int fd;
	char *buf;		/* BUF_SIZE */
	char *calls;		/* PIPE_DEPTH calls, back to back */
	size_t first_len;	/* bytes of the first reply, so far */
	bool first_done;
	char first[256];	/* its start, to check it is no error */
	long long replies;
	long long bytes;	/* bytes of replies read */
};

static int genl_socket(void)
{
	return socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
}

/* CTRL_CMD_GETFAMILY for "nlctrl", as one netlink message. */
static size_t genl_call(char *buf)
{
	static const char family[] = "nlctrl";
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct genlmsghdr *gh = NLMSG_DATA(nlh);
	struct nlattr *nla = (struct nlattr *)(gh + 1);
	size_t len;

	len = NLMSG_LENGTH(GENL_HDRLEN + NLA_ALIGN(NLA_HDRLEN + sizeof(family)));
	memset(buf, 0, NLMSG_ALIGN(len));
	nlh->nlmsg_len = len;
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	gh->cmd = CTRL_CMD_GETFAMILY;
	gh->version = 1;
	nla->nla_type = CTRL_ATTR_FAMILY_NAME;
	nla->nla_len = NLA_HDRLEN + sizeof(family);
	memcpy(nla + 1, family, sizeof(family));
	return NLMSG_ALIGN(len);
}

static void conn_close(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->buf);
	free(c->calls);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

/* Returns 0 or -errno. */
static int conn_open(struct conn *c, struct target *t)
{
	unsigned int i;
	size_t len;

	memset(c, 0, sizeof(*c));
	c->t = t;
	c->fd = t->kind == GENL ? genl_socket() : unix_connect(t->name);
	if (c->fd < 0)
		return -errno;
	c->buf = xcalloc(1, BUF_SIZE);
	c->calls = xcalloc(PIPE_DEPTH, 256);
	if (t->kind == GENL) {
		len = genl_call(c->calls);
	} else {
		len = strlen(t->call) + 1;
		memcpy(c->calls, t->call, len);
	}
	for (i = 1; i < PIPE_DEPTH; i++)
		memcpy(c->calls + i * len, c->calls, len);
	t->call_len = len;
	return 0;
}

static int conn_send(struct conn *c, unsigned int n)
{
	size_t len = n * c->t->call_len;

	if (c->t->kind == GENL)
		return send(c->fd, c->calls, len, 0) == (ssize_t)len ? 0 : -1;
	return write_all(c->fd, c->calls, len);
}

/* The first reply of a connection: a success, not an error. */
static int first_reply(struct conn *c, const char *p, size_t n)
{
	const char *nul = memchr(p, '\0', n);
	size_t keep = sizeof(c->first) - 1 - c->first_len;
	size_t part = nul ? (size_t)(nul - p) : n;

	if (c->first_len < sizeof(c->first) - 1)
		memcpy(c->first + c->first_len, p, part < keep ? part : keep);
	c->first_len += part;
	if (!nul)
		return 0;
	c->first_len++;
	c->first_done = true;
	if (c->first[0] != '{' || strstr(c->first, "\"error\"")) {
		fprintf(stderr, "vl-bench: %s: unexpected reply %s\n", c->t->id,
			c->first);
		return -1;
	}
	return 0;
}

/* One read; returns the replies it completed, or -1. */
static int conn_recv(struct conn *c)
{
	ssize_t n;
	int replies = 0;

	do {
		n = recv(c->fd, c->buf, BUF_SIZE, 0);
	} while (n < 0 && errno == EINTR);
	if (n <= 0) {
		fprintf(stderr, "vl-bench: %s: %s\n", c->t->id,
			n ? strerror(errno) : "connection closed");
		return -1;
	}
	c->bytes += n;
	if (c->t->kind == GENL) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)c->buf;
		int left = n;

		for (; NLMSG_OK(nlh, left); nlh = NLMSG_NEXT(nlh, left)) {
			if (nlh->nlmsg_type != GENL_ID_CTRL) {
				fprintf(stderr, "vl-bench: nlctrl: reply type %u\n",
					nlh->nlmsg_type);
				return -1;
			}
			if (!c->first_done) {
				c->first_done = true;
				c->first_len = NLMSG_ALIGN(nlh->nlmsg_len);
			}
			replies++;
		}
	} else {
		char *p = c->buf, *end = c->buf + n;

		if (!c->first_done && first_reply(c, p, n))
			return -1;
		while ((p = memchr(p, '\0', end - p))) {
			replies++;
			p++;
		}
	}
	c->replies += replies;
	return replies;
}

/* Every reply has the size of the first one: none was an error. */
static int conn_check(struct conn *c)
{
	if (c->first_done && c->bytes == c->replies * (long long)c->first_len)
		return 0;
	fprintf(stderr, "vl-bench: %s: %lld bytes for %lld replies of %zu\n",
		c->t->id, c->bytes, c->replies, c->first_len);
	return -1;
}

struct samples {
	unsigned int *v;	/* nanoseconds */
	size_t n, cap;
};

static void sample_add(struct samples *s, long long ns)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 65536;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			die("out of memory");
	}
	s->v[s->n++] = ns > 0xffffffffLL ? 0xffffffffU : (unsigned int)ns;
}

struct run;

struct worker {
	struct run *run;
	pthread_t thread;
	struct conn conn;
	struct samples lat;
	long long end;		/* when its last call ended */
	int err;
};

struct run {
	const struct mode *mode;
	pthread_barrier_t ready, go;	/* warmed up; start and deadline set */
	long long start, deadline;
	struct worker w[MAX_CONNS];
};

static int call_once(struct conn *c)
{
	int n;

	if (conn_send(c, 1))
		return -1;
	do {
		n = conn_recv(c);
	} while (n == 0);
	return n == 1 ? 0 : -1;
}

static int worker_seq(struct worker *w)
{
	long long t0, t1 = now_ns();

	while (t1 < w->run->deadline) {
		t0 = t1;
		if (call_once(&w->conn))
			return -1;
		t1 = now_ns();
		sample_add(&w->lat, t1 - t0);
	}
	w->end = t1;
	return 0;
}

static int worker_pipe(struct worker *w)
{
	long long sent[PIPE_DEPTH], now = now_ns();
	unsigned int head = 0, inflight = PIPE_DEPTH, i;
	int n;

	for (i = 0; i < PIPE_DEPTH; i++)
		sent[i] = now;
	if (conn_send(&w->conn, PIPE_DEPTH))
		return -1;
	while (inflight) {
		n = conn_recv(&w->conn);
		if (n < 0 || (unsigned int)n > inflight)
			return -1;
		now = now_ns();
		for (i = 0; i < (unsigned int)n; i++, head++)
			sample_add(&w->lat, now - sent[head % PIPE_DEPTH]);
		inflight -= n;
		if (now >= w->run->deadline || !n)
			continue;
		for (i = 0; i < (unsigned int)n; i++)
			sent[(head + inflight + i) % PIPE_DEPTH] = now;
		if (conn_send(&w->conn, n))
			return -1;
		inflight += n;
	}
	w->end = now;
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run *run = w->run;
	int i, err = 0;

	if (run->mode->pinned)
		pin_cpu(0);
	for (i = 0; i < WARMUP_CALLS && !err; i++)
		err = call_once(&w->conn);
	pthread_barrier_wait(&run->ready);
	pthread_barrier_wait(&run->go);
	if (!err)
		err = run->mode->pipelined ? worker_pipe(w) : worker_seq(w);
	if (!err)
		err = conn_check(&w->conn);
	w->err = err;
	return NULL;
}

static long long stat_read(const char *name)
{
	char path[128], buf[32];
	long long v = -1;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), SYSFS "/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		v = buf[0] == 'Y' ? 1 : buf[0] == 'N' ? 0 : atoll(buf);
	}
	close(fd);
	return v;
}

static int fast_path_set(char v)
{
	int fd = open(SYSFS "/parameters/fast_path", O_WRONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -1;
	ret = write(fd, &v, 1) == 1 ? 0 : -1;
	close(fd);
	return ret;
}

/*
 * Connections varlink.ko holds: statistics/connections; with -x its
 * sockets in /proc/net/unix, connected (state 03) and named after the
 * listener (slow with thousands).  -1 if it does not listen.
 */
static long long kernel_conns(void)
{
	FILE *f;
	long long n = opt_stats ? stat_read("statistics/connections") : -1;
	bool listening = false;
	char line[512];

	if (n >= 0)
		return n;
	n = 0;
	f = fopen("/proc/net/unix", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char st[8], path[128] = "";

		if (sscanf(line, "%*s %*s %*s %*s %*s %7s %*s %127s", st, path) != 2 ||
		    strcmp(path, "@" KERNEL_NAME))
			continue;
		if (!strcmp(st, "03"))
			n++;
		else if (!strcmp(st, "01"))
			listening = true;
	}
	fclose(f);
	return listening ? n : -1;
}

/*
 * Wait until varlink.ko holds at least (@up) or at most @want connections:
 * it accepts them and frees closed ones in work items, which take their
 * time on a debug kernel.  Gives up after 10 s without progress.
 */
static bool kernel_conns_wait(long long want, bool up)
{
	long long n = kernel_conns(), last = n, since = now_ns();

	while (up ? n < want : n > want) {
		if (n != last) {
			last = n;
			since = now_ns();
		} else if (now_ns() - since > 10 * NSEC) {
			return false;
		}
		sleep_ms(5);
		n = kernel_conns();
	}
	return true;
}

static void kernel_conns_settle(long long base)
{
	if (!kernel_conns_wait(base, false))
		fprintf(stderr, "vl-bench: varlink.ko still holds %lld connections\n",
			kernel_conns() - base);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/* @r from the latencies of @lat, made in @ns: its rate and percentiles */
static void result_from(struct result *r, struct samples *lat, long long ns)
{
	qsort(lat->v, lat->n, sizeof(*lat->v), cmp_uint);
	r->ok = true;
	r->n = lat->n;
	r->rate = lat->n * (double)NSEC / ns;
	r->p50 = lat->v[lat->n / 2] / 1000.0;
	r->p99 = lat->v[(lat->n * 99) / 100] / 1000.0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static long long base_conns;	/* varlink.ko's before the first run */
static long long held_conns;	/* idle ones mem_measure() holds */

static void run_one(struct target *t, const struct mode *m, struct result *r)
{
	struct run *run = xcalloc(1, sizeof(*run));
	long long calls0 = -1, inline0 = -1, allocs0 = -1, sends0 = -1, end = 0;
	struct samples all = { 0 };
	unsigned int i, nw = m->conns;
	size_t k;
	int err = 0;

	run->mode = m;
	memset(r, 0, sizeof(*r));
	for (i = 0; i < nw; i++) {
		run->w[i].run = run;
		if (conn_open(&run->w[i].conn, t)) {
			fprintf(stderr, "vl-bench: %s: connect: %s\n", t->id,
				strerror(errno));
			while (i--)
				conn_close(&run->w[i].conn);
			free(run);
			return;
		}
	}
	if (t->kernel && opt_stats) {
		calls0 = stat_read("statistics/calls");
		inline0 = stat_read("statistics/calls_inline");
		allocs0 = stat_read("statistics/allocations");
		sends0 = stat_read("statistics/sends");
	}
	pthread_barrier_init(&run->ready, NULL, nw + 1);
	pthread_barrier_init(&run->go, NULL, nw + 1);
	for (i = 0; i < nw; i++)
		if (pthread_create(&run->w[i].thread, NULL, worker_main, &run->w[i]))
			die("pthread_create failed");
	pthread_barrier_wait(&run->ready);
	run->start = now_ns();
	run->deadline = run->start + (long long)(opt_seconds * NSEC);
	pthread_barrier_wait(&run->go);
	for (i = 0; i < nw; i++) {
		struct worker *w = &run->w[i];

		pthread_join(w->thread, NULL);
		err |= w->err;
		if (w->end > end)
			end = w->end;
		for (k = 0; k < w->lat.n; k++)
			sample_add(&all, w->lat.v[k]);
		free(w->lat.v);
	}
	if (t->kernel && calls0 >= 0) {
		r->calls = stat_read("statistics/calls") - calls0;
		r->inlined = inline0 >= 0 ?
			stat_read("statistics/calls_inline") - inline0 : -1;
		r->allocs = allocs0 >= 0 ?
			stat_read("statistics/allocations") - allocs0 : -1;
		r->sends = sends0 >= 0 ?
			stat_read("statistics/sends") - sends0 : -1;
	}
	for (i = 0; i < nw; i++)
		conn_close(&run->w[i].conn);
	pthread_barrier_destroy(&run->ready);
	pthread_barrier_destroy(&run->go);
	if (!err && all.n && end > run->start) {
		qsort(all.v, all.n, sizeof(*all.v), cmp_uint);
		r->ok = true;
		r->n = all.n;
		r->rate = all.n * (double)NSEC / (end - run->start);
		r->p50 = all.v[all.n / 2] / 1000.0;
		r->p99 = all.v[(all.n * 99) / 100] / 1000.0;
	}
	free(all.v);
	free(run);
	if (t->kernel)
		kernel_conns_settle(base_conns + held_conns);
}

/* Not the table's targets: the sysctl and meminfo tables', and perf's */
static struct target sysctl_target =
	UNIX_TARGET("kernel-sysctl-get", KERNEL_NAME, SYSCTL_CALL, 0, true);
static struct target memory_target =
	UNIX_TARGET("kernel-memory-get", KERNEL_NAME, MEMINFO_CALL, 0, true);

static struct target *find_target(const char *id)
{
	unsigned int ti;

	for (ti = 0; ti < N_TARGETS; ti++)
		if (!strcmp(targets[ti].id, id))
			return &targets[ti];
	if (!strcmp(sysctl_target.id, id))
		return &sysctl_target;
	if (!strcmp(memory_target.id, id))
		return &memory_target;
	return NULL;
}

/*
 * Can @t be reached at all?  Sets t->na and t->reply_len, and copies the
 * reply to @reply (at least 256 bytes) if it is not NULL.
 */
static void probe(struct target *t, bool have_fast_path, char *reply)
{
	struct conn c;

	if (t->fast_path && !have_fast_path) {
		t->na = "no fast_path parameter";
		return;
	}
	if (conn_open(&c, t)) {
		t->na = t->kind == GENL ? "no generic netlink" : "no server";
		return;
	}
	if (call_once(&c) || conn_check(&c))
		t->na = "bad reply";
	else
		t->reply_len = c.first_len;
	if (!t->na && reply && c.first_len < sizeof(c.first))
		memcpy(reply, c.first, c.first_len);
	conn_close(&c);
}

/* Is @t one of the targets of -t?  raw always is. */
static bool selected(const struct target *t)
{
	size_t len = strlen(t->id);
	const char *p = opt_targets;

	if (!p || t == &targets[0])
		return true;
	for (; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, t->id, len) && (p[len] == ',' || !p[len]))
			return true;
	return false;
}

static pid_t spawn_raw_server(void)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		if (opt_server_cpu >= 0)
			pin_cpu(opt_server_cpu);
		raw_server(RAW_NAME);
		_exit(1);
	}
	return pid;
}

static pid_t spawn_go_server(const char *path)
{
	char addr[64];
	pid_t pid;

	if (access(path, X_OK))
		return -1;
	snprintf(addr, sizeof(addr), "unix:@%s", GO_NAME);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		if (opt_server_cpu >= 0)
			pin_cpu(opt_server_cpu);
		execl(path, path, addr, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static void wait_listening(const char *name)
{
	long long until = now_ns() + 30 * NSEC;

	while (now_ns() < until) {
		int fd = unix_connect(name);

		if (fd >= 0) {
			close(fd);
			return;
		}
		sleep_ms(20);
	}
}

enum field { RATE, P50, P99 };

static double field_of(const struct result *r, enum field f)
{
	return f == RATE ? r->rate : f == P50 ? r->p50 : r->p99;
}

/* The median of a figure over the runs, -1 if none succeeded. */
static double med_of(struct target *t, unsigned int mi, enum field f)
{
	struct result *r = results[t - targets][mi];
	double v[MAX_REPS];
	unsigned int i, n = 0;

	for (i = 0; i < opt_reps; i++)
		if (r[i].ok)
			v[n++] = field_of(&r[i], f);
	return n ? median(v, n) : -1;
}

/*
 * The median over the runs of the ratio of a figure to raw's in the same
 * run and mode, measured seconds apart: slow drifts of the host cancel.
 */
static double ratio_of(struct target *t, unsigned int mi, enum field f)
{
	struct result *r = results[t - targets][mi], *raw = results[0][mi];
	double v[MAX_REPS];
	unsigned int i, n = 0;

	for (i = 0; i < opt_reps; i++)
		if (r[i].ok && raw[i].ok && field_of(&raw[i], f) > 0)
			v[n++] = field_of(&r[i], f) / field_of(&raw[i], f);
	return n ? median(v, n) : 0;
}

/* (max - min) / median of the calls per second of the runs, in % */
static double spread_of(struct target *t, unsigned int mi)
{
	struct result *r = results[t - targets][mi];
	double lo = -1, hi = -1, med = med_of(t, mi, RATE);
	unsigned int i;

	for (i = 0; i < opt_reps; i++) {
		if (!r[i].ok)
			continue;
		if (lo < 0 || r[i].rate < lo)
			lo = r[i].rate;
		if (r[i].rate > hi)
			hi = r[i].rate;
	}
	return med > 0 ? 100 * (hi - lo) / med : 0;
}

/* A ratio with 3 significant digits or so, in @buf of 16 bytes. */
static const char *fmt_ratio(char *buf, double r)
{
	snprintf(buf, 16, r >= 100 ? "%.0f" : r >= 10 ? "%.1f" : r >= 0.1 ? "%.2f" :
		 "%.3f", r);
	return buf;
}

static void print_table(void)
{
	unsigned int ti, mi, i;

	printf("\n%-23s %-6s %9s %6s %6s %9s %6s %9s %6s %6s %6s %6s\n", "target",
	       "mode", "calls/s", "spread", "x raw", "p50 us", "x raw", "p99 us",
	       "x raw", "inline", "allocs", "sends");
	for (ti = 0; ti < N_TARGETS; ti++) {
		struct target *t = &targets[ti];

		if (t->na) {
			printf("%-23s %-6s %s\n", t->id, "-", t->na);
			continue;
		}
		for (mi = 0; mi < N_MODES; mi++) {
			double rate = med_of(t, mi, RATE), p50 = med_of(t, mi, P50);
			double p99 = med_of(t, mi, P99);
			long long calls = 0, inlined = 0, allocs = 0, sends = 0;
			char inl[16] = "", alc[16] = "", snd[16] = "", x[3][16];

			if (rate < 0) {
				printf("%-23s %-6s failed\n", t->id, modes[mi].id);
				continue;
			}
			for (i = 0; i < opt_reps; i++) {
				calls += results[ti][mi][i].calls;
				inlined += results[ti][mi][i].inlined;
				allocs += results[ti][mi][i].allocs;
				sends += results[ti][mi][i].sends;
			}
			if (t->kernel && calls > 0 && inlined >= 0)
				snprintf(inl, sizeof(inl), "%.0f%%",
					 100.0 * inlined / calls);
			if (t->kernel && calls > 0 && allocs >= 0)
				snprintf(alc, sizeof(alc), "%.3f",
					 (double)allocs / calls);
			if (t->kernel && calls > 0 && sends >= 0)
				snprintf(snd, sizeof(snd), "%.3f",
					 (double)sends / calls);
			printf("%-23s %-6s %9.0f %5.0f%% %6s %9.1f %6s %9.1f %6s %6s %6s %6s\n",
			       t->id, modes[mi].id, rate, spread_of(t, mi),
			       fmt_ratio(x[0], ratio_of(t, mi, RATE)), p50,
			       fmt_ratio(x[1], ratio_of(t, mi, P50)), p99,
			       fmt_ratio(x[2], ratio_of(t, mi, P99)), inl, alc, snd);
		}
	}
}

/* ---- the goals, as ratios of the medians of the table ---- */

/* The results of @target in @mode, or NULL if it did not run */
static struct result *results_of(const char *target, const char *mode)
{
	unsigned int ti, mi;

	for (ti = 0; ti < N_TARGETS; ti++) {
		if (strcmp(targets[ti].id, target) || targets[ti].na)
			continue;
		for (mi = 0; mi < N_MODES; mi++)
			if (!strcmp(modes[mi].id, mode))
				return results[ti][mi];
	}
	return NULL;
}

/*
 * @t1 in @m1 against @t2 in @m2: the median over the runs of the ratio
 * within each run (measured seconds apart: the host's drifts cancel), of
 * calls/s, or for p99 latency the inverse ratio, so that above @want is
 * better either way; and the lowest and highest of those ratios.
 */
static void goal(enum field f, const char *t1, const char *m1,
		 const char *t2, const char *m2, double want)
{
	struct result *r1 = results_of(t1, m1), *r2 = results_of(t2, m2);
	double v[MAX_REPS], lo = 0, hi = 0, x;
	unsigned int i, n = 0;
	char what[80];

	snprintf(what, sizeof(what), "%s%s %s / %s %s", f == P99 ? "p99: " : "",
		 f == P99 ? t2 : t1, f == P99 ? m2 : m1, f == P99 ? t1 : t2,
		 f == P99 ? m1 : m2);
	for (i = 0; r1 && r2 && i < opt_reps; i++) {
		double a = field_of(&r1[i], f), b = field_of(&r2[i], f);

		if (!r1[i].ok || !r2[i].ok || a <= 0 || b <= 0)
			continue;
		x = f == P99 ? b / a : a / b;
		lo = n && lo < x ? lo : x;
		hi = n && hi > x ? hi : x;
		v[n++] = x;
	}
	if (!n) {
		printf("%-52s %6s\n", what, "n/a");
		return;
	}
	x = median(v, n);
	printf("%-52s %6.2f  %5.2f-%-5.2f >= %.1f %s\n", what, x, lo, hi, want,
	       x >= want ? "met" : "NOT MET");
}

static void print_goals(void)
{
	printf("\n== the goals: ratios of calls/s (p99: of latency, the other's\n"
	       "== over varlink.ko's) within each run, their median, lowest and\n"
	       "== highest\n");
	goal(RATE, "kernel-ping", "seq", "raw", "seq", 2);
	goal(RATE, "kernel-ping", "seq", "nlctrl", "seq", 1);
	goal(RATE, "kernel-getinfo", "seq", "nlctrl", "seq", 0.8);
	goal(RATE, "kernel-ping", "seq", "go-ping", "seq", 4);
	goal(RATE, "kernel-getinfo", "seq", "go-getinfo", "seq", 4);
	goal(RATE, "kernel-ping", "pipe16", "kernel-ping", "seq", 2);
	goal(RATE, "kernel-getinfo", "pipe16", "kernel-getinfo", "seq", 2);
	/* throughput grows with connections, up to the CPUs there are */
	goal(RATE, "kernel-ping", "c4", "kernel-ping", "c1", 1.2);
	goal(RATE, "kernel-getinfo", "c4", "kernel-getinfo", "c1", 1.2);
	/* the tail under load: no worse than the kernel's own RPC */
	goal(P99, "kernel-ping", "c64", "nlctrl", "c64", 1);
	goal(P99, "kernel-getinfo", "c64", "nlctrl", "c64", 1);
}

/* ---- org.kernel.sysctl.Get against /proc/sys ---- */

struct procfs_run {
	struct result *r;
	int err;
};

/* open(), read() and close() of BOOT_ID_PATH for opt_seconds, on CPU 0 */
static void *procfs_thread(void *arg)
{
	struct procfs_run *pr = arg;
	struct samples lat = { 0 };
	long long start, deadline, t0, t1;
	char buf[64];
	int fd;

	pin_cpu(0);
	start = now_ns();
	deadline = start + (long long)(opt_seconds * NSEC);
	for (t1 = start; t1 < deadline;) {
		t0 = t1;
		fd = open(BOOT_ID_PATH, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || read(fd, buf, sizeof(buf)) != 37) {
			pr->err = -1;
			if (fd >= 0)
				close(fd);
			break;
		}
		close(fd);
		t1 = now_ns();
		sample_add(&lat, t1 - t0);
	}
	if (!pr->err && lat.n)
		result_from(pr->r, &lat, t1 - start);
	free(lat.v);
	return NULL;
}

static void procfs_one(struct result *r)
{
	struct procfs_run pr = { .r = r };
	pthread_t t;

	memset(r, 0, sizeof(*r));
	if (pthread_create(&t, NULL, procfs_thread, &pr))
		die("pthread_create failed");
	pthread_join(t, NULL);
}

static void sysctl_row(const char *id, struct result *r)
{
	double rate[MAX_REPS], p50[MAX_REPS], p99[MAX_REPS];
	unsigned int i, n = 0;

	for (i = 0; i < opt_reps; i++) {
		if (!r[i].ok)
			continue;
		rate[n] = r[i].rate;
		p50[n] = r[i].p50;
		p99[n++] = r[i].p99;
	}
	if (!n) {
		printf("%-23s failed\n", id);
		return;
	}
	printf("%-23s %9.0f %9.2f %9.1f %9.1f\n", id, median(rate, n),
	       1e6 / median(rate, n), median(p50, n), median(p99, n));
}

static int sysctl_table(void)
{
	struct result get[MAX_REPS], file[MAX_REPS];
	double x[MAX_REPS];
	unsigned int rep, n = 0;
	int failed = 0;

	probe(&sysctl_target, false, NULL);
	printf("\n== org.kernel.sysctl.Get of kernel.random.boot_id against open(),\n"
	       "== read() and close() of %s, one at a time from\n"
	       "== CPU 0, in turns; median of %u runs\n", BOOT_ID_PATH, opt_reps);
	if (sysctl_target.na) {
		printf("kernel-sysctl-get: %s\n", sysctl_target.na);
		return 0;
	}
	for (rep = 0; rep < opt_reps; rep++) {
		fprintf(stderr, "vl-bench: sysctl run %u of %u\n", rep + 1, opt_reps);
		run_one(&sysctl_target, &modes[0], &get[rep]);
		procfs_one(&file[rep]);
		failed |= !get[rep].ok || !file[rep].ok;
		printf("result kernel-sysctl-get seq %u %.0f %.1f %.1f\n", rep + 1,
		       get[rep].ok ? get[rep].rate : -1, get[rep].p50, get[rep].p99);
		printf("result procfs-read seq %u %.0f %.1f %.1f\n", rep + 1,
		       file[rep].ok ? file[rep].rate : -1, file[rep].p50, file[rep].p99);
		if (get[rep].ok && file[rep].ok)
			x[n++] = get[rep].rate / file[rep].rate;
		fflush(stdout);
	}
	printf("%-23s %9s %9s %9s %9s\n", "target", "ops/s", "us/op", "p50 us",
	       "p99 us");
	sysctl_row("kernel-sysctl-get", get);
	sysctl_row("procfs-read", file);
	if (n)
		printf("kernel-sysctl-get / procfs-read, ops/s: %.2f (median of the\n"
		       "runs' ratios; the varlink call includes its round trip)\n",
		       median(x, n));
	return failed;
}

/* ---- memory per idle connection ---- */

struct slab {
	char name[64];
	long long active, size;
};

struct memsnap {
	long long slab;			/* bytes, /proc/meminfo */
	struct slab *caches;
	unsigned int n;
};

static long long meminfo_read(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "re");
	size_t klen = strlen(key);
	long long v = -1;
	char line[256];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = atoll(line + klen + 1) * 1024;
			break;
		}
	}
	fclose(f);
	return v;
}

static void snap(struct memsnap *s)
{
	FILE *f = fopen("/proc/slabinfo", "re");
	char line[512];

	s->slab = meminfo_read("Slab");
	s->n = 0;
	if (!s->caches)
		s->caches = xcalloc(1024, sizeof(*s->caches));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && s->n < 1024) {
		struct slab *c = &s->caches[s->n];
		long long num;

		if (line[0] == '#' || !strncmp(line, "slabinfo", 8))
			continue;
		if (sscanf(line, "%63s %lld %lld %lld", c->name, &c->active,
			   &num, &c->size) == 4)
			s->n++;
	}
	fclose(f);
}

struct memres {
	double slab_objs, slab;		/* bytes per connection */
	double rate, rate_idle;		/* kernel-ping seq without, with them */
	char top[512];
};

static void mem_delta(const struct memsnap *a, const struct memsnap *b,
		      struct memres *r)
{
	unsigned int i, j;
	long long objs = 0;
	size_t off = 0;

	r->top[0] = '\0';
	for (i = 0; i < b->n; i++) {
		const struct slab *cb = &b->caches[i];
		long long before = 0, d;

		for (j = 0; j < a->n; j++) {
			if (!strcmp(a->caches[j].name, cb->name)) {
				before = a->caches[j].active;
				break;
			}
		}
		d = (cb->active - before) * cb->size;
		objs += d;
		/* the caches that grew by 64 bytes or more per connection */
		if (d >= 64 * IDLE_CONNS && off < sizeof(r->top) - 64)
			off += snprintf(r->top + off, sizeof(r->top) - off,
					" %s:%.2fx%lld", cb->name,
					(double)(cb->active - before) / IDLE_CONNS,
					cb->size);
	}
	r->slab_objs = (double)objs / IDLE_CONNS;
	r->slab = (double)(b->slab - a->slab) / IDLE_CONNS;
}

/*
 * Open IDLE_CONNS connections to the kernel server (@kernel) or to a
 * listener of ours that accepts and holds them, and measure the growth.
 * Returns 0, or -1 if the connections could not all be made.
 */
static int mem_measure(bool kernel, struct memres *r)
{
	int start[2], stop[2], ready[2], lfd = -1, *fds = NULL;
	struct target *ping = find_target("kernel-ping");
	struct memsnap a = { 0 }, b = { 0 };
	struct result res;
	unsigned int per = IDLE_CONNS / IDLE_PROCS, i, got = 0;
	pid_t pids[IDLE_PROCS];
	int err = 0;
	char ch;

	r->rate = -1;
	r->rate_idle = -1;
	fflush(stdout);
	if (pipe2(start, O_CLOEXEC) || pipe2(stop, O_CLOEXEC) ||
	    pipe2(ready, O_CLOEXEC))
		die("pipe: %s", strerror(errno));
	if (!kernel) {
		lfd = unix_listen(IDLE_NAME, IDLE_CONNS);
		fds = xcalloc(IDLE_CONNS, sizeof(*fds));
	}
	for (i = 0; i < IDLE_PROCS; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork: %s", strerror(errno));
		if (!pids[i]) {
			uid_t uid = IDLE_UID + i;
			unsigned int k;
			char ok = 'y';

			close(start[1]);
			close(stop[1]);
			close(ready[0]);
			if (lfd >= 0)
				close(lfd);
			if (setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
				ok = 'n';
			if (read(start[0], &ch, 1) != 1)
				_exit(1);
			for (k = 0; k < per && ok == 'y'; k++)
				if (unix_connect(kernel ? KERNEL_NAME : IDLE_NAME) < 0)
					ok = 'n';
			if (write(ready[1], &ok, 1) != 1)
				_exit(1);
			/* hold them until the parent closes stop */
			while (read(stop[0], &ch, 1) < 0 && errno == EINTR)
				;
			_exit(0);
		}
	}
	close(start[0]);
	close(stop[0]);
	close(ready[1]);

	sleep_ms(1000);
	snap(&a);
	/* a call's cost without and with the idle connections */
	if (kernel && !ping->na) {
		run_one(ping, &modes[0], &res);
		r->rate = res.ok ? res.rate : -1;
	}
	for (i = 0; i < IDLE_PROCS; i++)
		if (write(start[1], "g", 1) != 1)
			die("write: %s", strerror(errno));
	/* while they connect: the backlog holds fewer (somaxconn) */
	while (!kernel && got < IDLE_CONNS) {
		struct pollfd pfd = { .fd = lfd, .events = POLLIN };

		if (poll(&pfd, 1, 10000) != 1) {
			err = -1;
			break;
		}
		fds[got] = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fds[got] >= 0)
			got++;
		else if (errno != EINTR && errno != ECONNABORTED)
			break;
	}
	for (i = 0; i < IDLE_PROCS; i++)
		if (read(ready[0], &ch, 1) != 1 || ch != 'y')
			err = -1;
	if (kernel && !kernel_conns_wait(base_conns + IDLE_CONNS, true)) {
		fprintf(stderr, "vl-bench: varlink.ko holds %lld connections, not %d\n",
			kernel_conns() - base_conns, IDLE_CONNS);
		err = -1;
	} else if (!kernel && got < IDLE_CONNS) {
		fprintf(stderr, "vl-bench: accepted %u connections of %d\n", got,
			IDLE_CONNS);
		err = -1;
	}
	sleep_ms(1000);
	snap(&b);
	if (kernel && !ping->na && !err) {
		held_conns = IDLE_CONNS;
		run_one(ping, &modes[0], &res);
		held_conns = 0;
		r->rate_idle = res.ok ? res.rate : -1;
	}

	close(stop[1]);
	for (i = 0; i < IDLE_PROCS; i++)
		waitpid(pids[i], NULL, 0);
	for (i = 0; i < got; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (lfd >= 0)
		close(lfd);
	close(start[1]);
	close(ready[0]);
	free(fds);
	if (kernel)
		kernel_conns_settle(base_conns);
	mem_delta(&a, &b, r);
	free(a.caches);
	free(b.caches);
	return err;
}

static void memory_table(void)
{
	struct memres kern[MAX_REPS], user[MAX_REPS];
	double v[2][MAX_REPS], fm[2], km[2], rate, rate_idle;
	unsigned int i, j, n = 0, reps = opt_reps < 3 ? opt_reps : 3;

	for (i = 0; i < reps; i++) {
		fprintf(stderr, "vl-bench: memory, run %u of %u\n", i + 1, reps);
		if (mem_measure(false, &user[n]) || mem_measure(true, &kern[n])) {
			fprintf(stderr, "vl-bench: memory: could not open %d connections\n",
				IDLE_CONNS);
			continue;
		}
		n++;
	}
	printf("\n== memory per idle connection, bytes: %d connections from %d\n"
	       "== processes of %d uids, median of %u runs.  slab objects: growth of\n"
	       "== active objects x object size in /proc/slabinfo; Slab: growth of\n"
	       "== Slab in /proc/meminfo (whole slabs).  The floor is the client\n"
	       "== socket and a userspace listener's accepted socket and file;\n"
	       "== varlink.ko's is the client socket, its socket and its state.\n",
	       IDLE_CONNS, IDLE_PROCS, IDLE_PROCS, n);
	if (!n) {
		printf("failed\n");
		return;
	}
	for (j = 0; j < 2; j++) {
		struct memres *m = j ? kern : user;
		double *out = j ? km : fm;

		for (i = 0; i < n; i++) {
			v[0][i] = m[i].slab_objs;
			v[1][i] = m[i].slab;
		}
		out[0] = median(v[0], n);
		out[1] = median(v[1], n);
	}
	printf("%-34s %12s %12s\n", "", "slab objects", "Slab");
	printf("%-34s %12.0f %12.0f\n", "userspace listener (socket floor)",
	       fm[0], fm[1]);
	printf("%-34s %12.0f %12.0f\n", "varlink.ko", km[0], km[1]);
	printf("%-34s %12.0f %12.0f\n", "varlink.ko minus floor",
	       km[0] - fm[0], km[1] - fm[1]);
	printf("goal: varlink.ko minus floor, slab objects, < 1024: %s\n",
	       km[0] - fm[0] < 1024 ? "met" : "NOT MET");
	printf("caches grown by 64 bytes or more per connection, objects x size\n"
	       "(last run; SLUB merges caches: the names are those it kept):\n");
	printf("  floor:    %s\n", user[n - 1].top);
	printf("  varlink.ko:%s\n", kern[n - 1].top);

	for (i = 0, j = 0; i < n; i++) {
		if (kern[i].rate > 0 && kern[i].rate_idle > 0) {
			v[0][j] = kern[i].rate;
			v[1][j++] = kern[i].rate_idle;
		}
	}
	if (!j) {
		printf("kernel-ping seq beside the idle connections: n/a\n");
		return;
	}
	rate = median(v[0], j);
	rate_idle = median(v[1], j);
	printf("kernel-ping seq, calls/s: %.0f alone, %.0f beside the %d idle\n"
	       "connections (x %.2f; 1.00: they cost a call nothing)\n",
	       rate, rate_idle, IDLE_CONNS, rate_idle / rate);
	printf("result memory floor %.0f kernel %.0f idle-rate %.3f\n",
	       fm[0], km[0], rate_idle / rate);
}

/* ---- /proc/meminfo against org.kernel.memory.Get ---- */

/* The number after @key in @text, or -1 */
static long long number_after(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

/* One read of /proc/meminfo, its three numbers taken; 0 or -1 */
static int meminfo_proc(char *buf, long long *v)
{
	ssize_t n, len = 0;
	int fd = open("/proc/meminfo", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf + len, BUF_SIZE - 1 - len)) > 0)
		len += n;
	close(fd);
	if (n < 0)
		return -1;
	buf[len] = '\0';
	v[0] = number_after(buf, "MemTotal:");
	v[1] = number_after(buf, "MemFree:");
	v[2] = number_after(buf, "MemAvailable:");
	return v[0] > 0 && v[1] >= 0 && v[2] >= 0 ? 0 : -1;
}

/* One Get on @fd, its three numbers taken; 0 or -1 */
static int meminfo_kernel(int fd, char *buf, long long *v)
{
	ssize_t n, len = 0;

	if (write_all(fd, MEMINFO_CALL, sizeof(MEMINFO_CALL)))
		return -1;
	do {
		n = recv(fd, buf + len, BUF_SIZE - 1 - len, 0);
		if (n <= 0)
			return -1;
		len += n;
	} while (!memchr(buf + len - n, '\0', n));
	v[0] = number_after(buf, "\"total\":");
	v[1] = number_after(buf, "\"free\":");
	v[2] = number_after(buf, "\"available\":");
	return v[0] > 0 && v[1] >= 0 && v[2] >= 0 ? 0 : -1;
}

/* Calls of one way for opt_seconds: calls/s and latencies into @r */
static void meminfo_run(bool kernel, struct result *r)
{
	char *buf = xcalloc(1, BUF_SIZE);
	struct samples lat = { 0 };
	long long v[3], t0, t1, start, deadline;
	int fd = -1, err = 0;

	memset(r, 0, sizeof(*r));
	if (kernel) {
		fd = unix_connect(KERNEL_NAME);
		if (fd < 0 || meminfo_kernel(fd, buf, v))
			err = -1;
	}
	start = now_ns();
	deadline = start + (long long)(opt_seconds * NSEC);
	for (t1 = start; !err && t1 < deadline; ) {
		t0 = t1;
		err = kernel ? meminfo_kernel(fd, buf, v) : meminfo_proc(buf, v);
		t1 = now_ns();
		sample_add(&lat, t1 - t0);
	}
	if (fd >= 0)
		close(fd);
	if (!err && lat.n)
		result_from(r, &lat, t1 - start);
	free(lat.v);
	free(buf);
}

static int meminfo_table(void)
{
	static const char *const ids[] = { "proc-meminfo", "kernel-memory-get" };
	struct result r[2][MAX_REPS];
	double rate[MAX_REPS], p50[MAX_REPS], p99[MAX_REPS];
	double med[2][3] = { { 0 } };
	unsigned int rep, k, n;
	int failed = 0;
	cpu_set_t all;

	if (sched_getaffinity(0, sizeof(all), &all))
		CPU_ZERO(&all);
	pin_cpu(0);
	for (rep = 0; rep < opt_reps; rep++) {
		for (k = 0; k < 2; k++) {
			meminfo_run(k, &r[k][rep]);
			printf("result %s seq %u %.0f %.1f %.1f\n", ids[k], rep + 1,
			       r[k][rep].ok ? r[k][rep].rate : -1, r[k][rep].p50,
			       r[k][rep].p99);
		}
	}
	printf("\n== /proc/meminfo (open, read, close, three numbers taken) against\n"
	       "== org.kernel.memory.Get (one connection, the same three from its\n"
	       "== JSON), one at a time, the client on CPU 0; median of %u runs\n",
	       opt_reps);
	printf("%-20s %12s %10s %10s\n", "target", "calls/s", "p50 us", "p99 us");
	for (k = 0; k < 2; k++) {
		for (rep = n = 0; rep < opt_reps; rep++) {
			if (!r[k][rep].ok)
				continue;
			rate[n] = r[k][rep].rate;
			p50[n] = r[k][rep].p50;
			p99[n++] = r[k][rep].p99;
		}
		if (!n) {
			printf("%-20s %12s\n", ids[k], "n/a");
			failed = 1;
			continue;
		}
		med[k][0] = median(rate, n);
		med[k][1] = median(p50, n);
		med[k][2] = median(p99, n);
		printf("%-20s %12.0f %10.1f %10.1f\n", ids[k], med[k][0],
		       med[k][1], med[k][2]);
	}
	if (med[0][0] > 0 && med[1][0] > 0)
		printf("org.kernel.memory.Get: x %.2f the calls/s of /proc/meminfo\n",
		       med[1][0] / med[0][0]);
	if (CPU_COUNT(&all))
		sched_setaffinity(0, sizeof(all), &all);
	return failed;
}

/* ---- org.kernel.device: List against a walk of /sys/class ---- */

/* One walk of /sys/class/X/Y/uevent, every file read; devices, or -1 */
static int device_walk(char *buf)
{
	DIR *classes = opendir("/sys/class"), *dir;
	struct dirent *c, *d;
	char path[PATH_MAX];
	int n = 0, fd;

	if (!classes)
		return -1;
	while ((c = readdir(classes))) {
		if (c->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/%s", c->d_name);
		dir = opendir(path);
		while (dir && (d = readdir(dir))) {
			if (d->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/sys/class/%s/%s/uevent",
				 c->d_name, d->d_name);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			while (read(fd, buf, BUF_SIZE) > 0)
				;
			close(fd);
			n++;
		}
		if (dir)
			closedir(dir);
	}
	closedir(classes);
	return n;
}

/*
 * Read replies on @fd until one without "continues"; how many had a
 * @key, or -1.  @buf holds BUF_SIZE bytes; the messages of one read are
 * taken where they are, as a client's parser does, and what is left of
 * the last is moved to the front before the next read.
 */
static int read_stream(int fd, char *buf, const char *key, bool first_only)
{
	size_t len = 0, off = 0;
	int n = 0;

	for (;;) {
		char *msg = buf + off, *nul;
		ssize_t r;

		nul = len > off ? memchr(msg, '\0', len - off) : NULL;
		if (nul) {
			bool more = strstr(msg, "\"continues\":true");

			n += !!strstr(msg, key);
			if (!more || first_only)
				return strstr(msg, "\"error\"") ? -1 : n;
			off = nul - buf + 1;
			continue;
		}
		memmove(buf, msg, len - off);
		len -= off;
		off = 0;
		if (len >= BUF_SIZE - 1)
			return -1;
		r = recv(fd, buf + len, BUF_SIZE - 1 - len, 0);
		if (r <= 0)
			return -1;
		len += r;
	}
}

/* One List on @fd, of every device or (@none) of a subsystem there is
 * not: the walk alone; devices, or -1
 */
static int device_list(int fd, char *buf, bool none)
{
	const char *call = none ? DEVICE_WALK_CALL : DEVICE_LIST_CALL;

	if (write_all(fd, call, strlen(call) + 1))
		return -1;
	return read_stream(fd, buf, "\"syspath\":", false);
}

/* Walks or Lists for opt_seconds: per second, and ms each, into @r */
static void device_run(int kernel, struct result *r, int *devices)
{
	char *buf = xcalloc(1, BUF_SIZE);
	struct samples lat = { 0 };
	long long t0, t1, start, deadline;
	int fd = -1, n = 0;

	memset(r, 0, sizeof(*r));
	if (kernel) {
		fd = unix_connect(KERNEL_NAME);
		if (fd < 0)
			n = -1;
	}
	start = now_ns();
	deadline = start + (long long)(opt_seconds * NSEC);
	for (t1 = start; n >= 0 && (t1 < deadline || !lat.n); ) {
		t0 = t1;
		n = kernel ? device_list(fd, buf, kernel == 2) : device_walk(buf);
		t1 = now_ns();
		sample_add(&lat, t1 - t0);
	}
	if (fd >= 0)
		close(fd);
	if (n >= 0 && lat.n) {
		result_from(r, &lat, t1 - start);
		*devices = n;
	}
	free(lat.v);
	free(buf);
}

/*
 * The time from a Monitor call to its first live event, "change" written
 * to DEVICE_UEVENT every millisecond until one comes (@subscribe), or
 * from one write to its event on a stream that is live; microseconds, or
 * -1.
 */
static double device_event_us(int fd, char *buf, bool subscribe)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	long long t0 = now_ns(), deadline = t0 + 10 * NSEC;
	int ufd;

	if (subscribe &&
	    write_all(fd, DEVICE_MONITOR_CALL, sizeof(DEVICE_MONITOR_CALL)))
		return -1;
	ufd = open(DEVICE_UEVENT, O_WRONLY | O_CLOEXEC);
	if (ufd < 0)
		return -1;
	do {
		if (write(ufd, "change", 6) != 6)
			break;
		if (poll(&pfd, 1, 1) == 1) {
			close(ufd);
			if (read_stream(fd, buf, "\"change\"", true) != 1)
				return -1;
			return (now_ns() - t0) / 1000.0;
		}
	} while (now_ns() < deadline);
	close(ufd);
	return -1;
}

static int device_table(void)
{
	static const char *const ids[] = {
		"sysfs-class-walk", "kernel-device-list", "kernel-device-none",
	};
	struct result r[3][MAX_REPS];
	double rate[MAX_REPS], p50[MAX_REPS], first[MAX_REPS], live[MAX_REPS];
	double med[3][2] = { { 0 } };
	char *buf = xcalloc(1, BUF_SIZE);
	int devices[3] = { 0, 0, 0 }, fd;
	unsigned int rep, k, n, nf = 0, nl = 0;
	int failed = 0;

	for (rep = 0; rep < opt_reps; rep++) {
		fprintf(stderr, "vl-bench: device run %u of %u\n", rep + 1, opt_reps);
		for (k = 0; k < 3; k++) {
			device_run(k, &r[k][rep], &devices[k]);
			printf("result %s seq %u %.1f %.1f %.1f\n", ids[k], rep + 1,
			       r[k][rep].ok ? r[k][rep].rate : -1, r[k][rep].p50,
			       r[k][rep].p99);
		}
		fd = unix_connect(KERNEL_NAME);
		if (fd >= 0) {
			double f = device_event_us(fd, buf, true);
			double l = f >= 0 ? device_event_us(fd, buf, false) : -1;

			if (f >= 0)
				first[nf++] = f;
			if (l >= 0)
				live[nl++] = l;
			close(fd);
		}
	}
	printf("\n== org.kernel.device.List of every device (one connection, one\n"
	       "== reply per device) against a walk of /sys/class/*/* reading every\n"
	       "== uevent file; kernel-device-none: List of a subsystem there is\n"
	       "== not, the walk without replies; median of %u runs\n", opt_reps);
	printf("%-20s %8s %12s %12s\n", "target", "devices", "lists/s", "p50 ms");
	for (k = 0; k < 3; k++) {
		for (rep = n = 0; rep < opt_reps; rep++) {
			if (!r[k][rep].ok)
				continue;
			rate[n] = r[k][rep].rate;
			p50[n++] = r[k][rep].p50;
		}
		if (!n) {
			printf("%-20s %8s\n", ids[k], "n/a");
			failed = 1;
			continue;
		}
		med[k][0] = median(rate, n);
		med[k][1] = median(p50, n);
		printf("%-20s %8d %12.1f %12.2f\n", ids[k], devices[k], med[k][0],
		       med[k][1] / 1000.0);
	}
	if (med[0][0] > 0 && med[1][0] > 0)
		printf("org.kernel.device.List: x %.2f the walks/s of /sys/class\n",
		       med[1][0] / med[0][0]);
	if (nf)
		printf("Monitor call to its first live event: %.0f us (median of %u)\n",
		       median(first, nf), nf);
	else
		failed = 1;
	if (nl)
		printf("uevent written to its event on a live stream: %.0f us (median of %u)\n",
		       median(live, nl), nl);
	free(buf);
	return failed;
}

/* ---- the drop-in calls against the files they replace ---- */

/*
 * A call of the kernel's against the file operations it replaces, as the
 * tools that read or write those files make them: one operation of each
 * returns how many records, attributes or settings it read or wrote, or
 * -1.  Operations are made for opt_seconds each, in turns, rep by rep;
 * the ratio is kernel operations per second over the files'.
 */
struct side {
	const char *id;
	int (*op)(void *ctx);
};

struct pair_ctx {
	int fd;			/* the kernel's connection */
	char *buf;		/* BUF_SIZE */
	char *call;		/* the call, with its NUL */
	size_t call_len;
	char (*names)[128];	/* Apply: the sysctls, below /proc/sys */
	char (*values)[128];	/* and their values */
	int n;
};

static int pair_call(void *arg)
{
	struct pair_ctx *x = arg;

	if (write_all(x->fd, x->call, x->call_len))
		return -1;
	return read_stream(x->fd, x->buf, "\"parameters\"", false);
}

/* Operations of @side for opt_seconds into @r; its last count in @count */
static void pair_run(const struct side *side, void *ctx, struct result *r,
		     int *count)
{
	struct samples lat = { 0 };
	long long t0, t1, start, deadline;
	int n = 0;

	memset(r, 0, sizeof(*r));
	start = now_ns();
	deadline = start + (long long)(opt_seconds * NSEC);
	for (t1 = start; n >= 0 && (t1 < deadline || !lat.n);) {
		t0 = t1;
		n = side->op(ctx);
		t1 = now_ns();
		sample_add(&lat, t1 - t0);
	}
	if (n >= 0 && lat.n) {
		result_from(r, &lat, t1 - start);
		*count = n;
	}
	free(lat.v);
}

/* The kernel's side, sides[0], against the files', sides[1] */
static int pair_table(const char *title, const struct side *sides, void *ctx)
{
	struct result r[2][MAX_REPS];
	double rate[MAX_REPS], p50[MAX_REPS], x[MAX_REPS], med[2] = { 0, 0 };
	unsigned int rep, k, n, nx = 0;
	int count[2] = { -1, -1 }, failed = 0;

	for (rep = 0; rep < opt_reps; rep++) {
		for (k = 0; k < 2; k++) {
			pair_run(&sides[k], ctx, &r[k][rep], &count[k]);
			printf("result %s seq %u %.1f %.1f %.1f\n", sides[k].id,
			       rep + 1, r[k][rep].ok ? r[k][rep].rate : -1,
			       r[k][rep].p50, r[k][rep].p99);
		}
		if (r[0][rep].ok && r[1][rep].ok)
			x[nx++] = r[0][rep].rate / r[1][rep].rate;
		fflush(stdout);
	}
	printf("\n== %s; median of %u runs\n", title, opt_reps);
	printf("%-24s %8s %10s %10s\n", "target", "count", "ops/s", "p50 us");
	for (k = 0; k < 2; k++) {
		for (rep = n = 0; rep < opt_reps; rep++) {
			if (!r[k][rep].ok)
				continue;
			rate[n] = r[k][rep].rate;
			p50[n++] = r[k][rep].p50;
		}
		if (!n) {
			printf("%-24s %8s\n", sides[k].id, "n/a");
			failed = 1;
			continue;
		}
		med[k] = median(rate, n);
		printf("%-24s %8d %10.1f %10.1f\n", sides[k].id, count[k],
		       med[k], median(p50, n));
	}
	if (nx)
		printf("%s / %s, ops/s: %.2f (median of the runs' ratios)\n",
		       sides[0].id, sides[1].id, median(x, nx));
	return failed;
}

/* /dev/kmsg from its first record to EAGAIN, as dmesg and journald read
 * it: a read of 8 KiB per record; records, or -1
 */
static int kmsg_read_all(void *arg)
{
	struct pair_ctx *x = arg;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC), n = 0;
	ssize_t r;

	if (fd < 0)
		return -1;
	while ((r = read(fd, x->buf, 8192)) > 0 || (r < 0 && errno == EPIPE))
		n += r > 0;
	close(fd);
	return r < 0 && errno == EAGAIN ? n : -1;
}

#define LOG_READ_CALL	"{\"method\":\"org.kernel.log.Read\",\"more\":true," \
			"\"parameters\":{}}"

static int log_read_all(void *arg)
{
	struct pair_ctx *x = arg;

	if (write_all(x->fd, LOG_READ_CALL, sizeof(LOG_READ_CALL)))
		return -1;
	return read_stream(x->fd, x->buf, "\"entry\"", false);
}

#define ATTRS_DEVICE	"/devices/virtual/net/lo"
#define ATTRS_CALL	"{\"method\":\"org.kernel.device.GetAttributes\"," \
			"\"parameters\":{\"syspath\":\"" ATTRS_DEVICE "\"}}"

/* Every regular file of @dir and of its "power", opened, read in 4 KiB
 * and closed, as sd-device reads attributes; files, or -1
 */
static int attrs_read_dir(int dir, char *buf, bool power)
{
	DIR *d = fdopendir(dir);
	struct dirent *e;
	int n = 0, fd;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_type == DT_DIR && !power && !strcmp(e->d_name, "power")) {
			fd = openat(dir, "power", O_RDONLY | O_DIRECTORY);
			n += fd < 0 ? 0 : attrs_read_dir(fd, buf, true);
		}
		if (e->d_type != DT_REG)
			continue;
		fd = openat(dir, e->d_name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (read(fd, buf, 4096) < 0)
			buf[0] = '\0';
		close(fd);
		n++;
	}
	closedir(d);
	return n;
}

static int attrs_read(void *arg)
{
	struct pair_ctx *x = arg;
	int dir = open("/sys" ATTRS_DEVICE, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	return dir < 0 ? -1 : attrs_read_dir(dir, x->buf, false);
}

#define APPLY_N		50

/* APPLY_N writable sysctls of lo, each with its value now, which it takes
 * back: into @x, and @x->call an Apply of them; 0 or -1
 */
static int apply_prepare(struct pair_ctx *x)
{
	static const char *const dirs[] = {
		"net/ipv4/conf/lo", "net/ipv4/neigh/lo", "net/ipv6/conf/lo",
		"net/ipv6/neigh/lo",
	};
	char path[PATH_MAX], *p;
	struct dirent *e;
	unsigned int i;
	ssize_t len;
	DIR *d;
	int fd;

	x->names = xcalloc(APPLY_N, sizeof(*x->names));
	x->values = xcalloc(APPLY_N, sizeof(*x->values));
	for (i = 0; i < ARRAY_SIZE(dirs) && x->n < APPLY_N; i++) {
		snprintf(path, sizeof(path), "/proc/sys/%s", dirs[i]);
		d = opendir(path);
		while (d && (e = readdir(d)) && x->n < APPLY_N) {
			char *v = x->values[x->n];

			snprintf(x->names[x->n], sizeof(x->names[0]), "%s/%.80s",
				 dirs[i], e->d_name);
			snprintf(path, sizeof(path), "/proc/sys/%s", x->names[x->n]);
			fd = open(path, O_RDONLY);
			len = fd < 0 ? 0 : read(fd, v, sizeof(x->values[0]) - 1);
			if (fd >= 0)
				close(fd);
			if (len <= 0 || len >= (ssize_t)sizeof(x->values[0]) - 1 ||
			    strpbrk(v, "\t\"\\") || v[len - 1] != '\n')
				continue;
			v[len - 1] = '\0';
			fd = open(path, O_WRONLY);
			if (fd >= 0 && write(fd, v, len - 1) == (ssize_t)len - 1)
				x->n++;
			if (fd >= 0)
				close(fd);
		}
		if (d)
			closedir(d);
	}
	if (x->n < APPLY_N)
		return -1;
	x->call = xcalloc(APPLY_N, 300);
	p = x->call;
	p += sprintf(p, "{\"method\":\"org.kernel.sysctl.Apply\",\"parameters\":{\"settings\":[");
	for (i = 0; i < APPLY_N; i++)
		p += sprintf(p, "%s{\"name\":\"%s\",\"value\":\"%s\"}", i ? "," : "",
			     x->names[i], x->values[i]);
	p += sprintf(p, "]}}");
	x->call_len = p - x->call + 1;
	return 0;
}

static int apply_files(void *arg)
{
	struct pair_ctx *x = arg;
	char path[PATH_MAX];
	int i, fd;

	for (i = 0; i < x->n; i++) {
		snprintf(path, sizeof(path), "/proc/sys/%s", x->names[i]);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, x->values[i], strlen(x->values[i])) < 0) {
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
	}
	return x->n;
}

static int apply_call(void *arg)
{
	struct pair_ctx *x = arg;

	return pair_call(x) == 1 && !strstr(x->buf, "\"error\"") ? x->n : -1;
}

static const struct side dropin_log[] = {
	{ "kernel-log-read", log_read_all },
	{ "dev-kmsg-read", kmsg_read_all },
};

static const struct side dropin_attrs[] = {
	{ "kernel-device-attrs", pair_call },
	{ "sysfs-attrs-read", attrs_read },
};

static const struct side dropin_apply[] = {
	{ "kernel-sysctl-apply", apply_call },
	{ "procfs-write-50", apply_files },
};

/* The context of the pair @sides into @x: 0, or -1 */
static int dropin_prepare(struct pair_ctx *x, const struct side *sides)
{
	static const char attrs_call[] = ATTRS_CALL;

	memset(x, 0, sizeof(*x));
	x->buf = xcalloc(1, BUF_SIZE);
	x->fd = unix_connect(KERNEL_NAME);
	if (x->fd < 0)
		return -1;
	if (sides == dropin_attrs) {
		x->call = strdup(attrs_call);
		x->call_len = sizeof(attrs_call);
	}
	return sides == dropin_apply ? apply_prepare(x) : 0;
}

static void dropin_end(struct pair_ctx *x)
{
	if (x->fd >= 0)
		close(x->fd);
	free(x->buf);
	free(x->names);
	free(x->values);
	free(x->call);
}

static int dropin_tables(void)
{
	static const struct {
		const struct side *sides;
		const char *title;
	} pairs[] = {
		{ dropin_log, "org.kernel.log.Read of the whole log (one connection)\n"
		  "== against /dev/kmsg read from its first record to EAGAIN" },
		{ dropin_attrs, "org.kernel.device.GetAttributes of " ATTRS_DEVICE "\n"
		  "== against open, read (4 KiB) and close of each of its files" },
		{ dropin_apply, "org.kernel.sysctl.Apply of 50 sysctls of lo, their\n"
		  "== own values, against open, write and close of each file" },
	};
	struct pair_ctx x;
	unsigned int i;
	int failed = 0;

	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		fprintf(stderr, "vl-bench: %s against %s\n", pairs[i].sides[0].id,
			pairs[i].sides[1].id);
		if (dropin_prepare(&x, pairs[i].sides)) {
			printf("\n%s: cannot be set up\n", pairs[i].sides[0].id);
			failed = 1;
		} else {
			failed |= pair_table(pairs[i].title, pairs[i].sides, &x);
		}
		dropin_end(&x);
	}
	return failed;
}

/* vl-bench load of a side of the drop-in pairs: 1 if @id is none */
static int dropin_load(const char *id, double seconds)
{
	const struct side *pairs[] = { dropin_log, dropin_attrs, dropin_apply };
	struct pair_ctx x;
	struct result r;
	unsigned int i, k;
	int count;

	for (i = 0; i < ARRAY_SIZE(pairs); i++)
		for (k = 0; k < 2; k++) {
			if (strcmp(pairs[i][k].id, id))
				continue;
			opt_seconds = seconds;
			if (dropin_prepare(&x, pairs[i]))
				return 1;
			pair_run(&pairs[i][k], &x, &r, &count);
			dropin_end(&x);
			if (!r.ok)
				return 1;
			printf("calls %lld rate %.0f\n", r.n, r.rate);
			return 0;
		}
	return 1;
}

/* ---- the whole run ---- */

static int run_all(const char *go_path)
{
	bool have_fast_path = stat_read("parameters/fast_path") >= 0;
	long long fast_path0 = stat_read("parameters/fast_path");
	pid_t raw_pid, go_pid;
	unsigned int ti, mi, rep;
	struct rlimit rl = { 4 * IDLE_CONNS, 4 * IDLE_CONNS };
	struct utsname u;
	struct timespec res;
	long long t0 = now_ns();
	int failed = 0;

	signal(SIGPIPE, SIG_IGN);
	if (setrlimit(RLIMIT_NOFILE, &rl))
		fprintf(stderr, "vl-bench: RLIMIT_NOFILE: %s\n", strerror(errno));
	base_conns = kernel_conns();
	/* the raw server replies what varlink.ko replies to Ping */
	for (ti = 0; ti < N_TARGETS; ti++) {
		struct target *t = &targets[ti];
		char reply[256];

		if (!t->kernel || t->fast_path || strcmp(t->call, PING_CALL))
			continue;
		probe(t, have_fast_path, reply);
		if (!t->na) {
			memcpy(raw_reply, reply, t->reply_len);
			raw_reply_len = t->reply_len;
		}
		break;
	}
	raw_pid = spawn_raw_server();
	go_pid = spawn_go_server(go_path);
	wait_listening(RAW_NAME);
	if (go_pid > 0)
		wait_listening(GO_NAME);
	for (ti = 0; ti < N_TARGETS; ti++) {
		struct target *t = &targets[ti];

		if (t->fast_path && have_fast_path)
			fast_path_set(t->fast_path);
		t->na = NULL;
		if (selected(t))
			probe(t, have_fast_path, NULL);
		else
			t->na = "not selected (-t)";
		if (t->fast_path && have_fast_path)
			fast_path_set(fast_path0 ? 'Y' : 'N');
	}
	if (targets[0].na)
		die("the raw server does not answer: %s", targets[0].na);
	for (ti = 0; ti < N_TARGETS && go_pid < 0; ti++)
		if (targets[ti].name && !strcmp(targets[ti].name, GO_NAME))
			targets[ti].na = "no Go server binary";

	uname(&u);
	clock_getres(CLOCK_MONOTONIC, &res);
	printf("== vl-bench: %s, %ld CPUs, %u runs of %.2f s per figure, medians\n",
	       u.release, sysconf(_SC_NPROCESSORS_ONLN), opt_reps, opt_seconds);
	if (res.tv_sec || res.tv_nsec > 1000)
		printf("== the clock ticks in steps of %.0f us: latencies are that coarse\n",
		       res.tv_sec * 1e6 + res.tv_nsec / 1e3);
	printf("== varlink.ko fast_path=%s%s\n", !have_fast_path ? "(no such parameter)" :
	       fast_path0 ? "Y" : "N",
	       opt_stats ? "" : "; its statistics not read (-x): no inline column");
	printf("bytes of a call/reply:");
	for (ti = 0; ti < N_TARGETS; ti++)
		if (!targets[ti].na)
			printf(" %s %zu/%zu", targets[ti].id, targets[ti].call_len,
			       targets[ti].reply_len);
	printf("\n");
	fflush(stdout);

	/* every target in one mode back to back, close in time to raw's */
	for (rep = 0; opt_throughput && rep < opt_reps; rep++) {
		for (mi = 0; mi < N_MODES; mi++) {
			fprintf(stderr, "vl-bench: run %u of %u: %s\n", rep + 1,
				opt_reps, modes[mi].id);
			for (ti = 0; ti < N_TARGETS; ti++) {
				struct target *t = &targets[ti];
				struct result *r = &results[ti][mi][rep];

				if (t->na)
					continue;
				if (t->fast_path)
					fast_path_set(t->fast_path);
				run_one(t, &modes[mi], r);
				if (t->fast_path)
					fast_path_set(fast_path0 ? 'Y' : 'N');
				if (!r->ok)
					failed = 1;
				printf("result %s %s %u %.0f %.1f %.1f\n", t->id,
				       modes[mi].id, rep + 1, r->ok ? r->rate : -1,
				       r->p50, r->p99);
				fflush(stdout);
			}
		}
	}
	kill(raw_pid, SIGTERM);
	waitpid(raw_pid, NULL, 0);
	if (go_pid > 0) {
		kill(go_pid, SIGTERM);
		waitpid(go_pid, NULL, 0);
	}
	if (opt_throughput) {
		printf("\n== calls per second and latency, median of %u runs; spread: (max -\n"
		       "== min) / median of calls/s over the runs; x raw: the median of the\n"
		       "== ratios to raw ping-pong in the same run and mode (calls/s: higher\n"
		       "== is better; latency: lower is better); inline: the share of\n"
		       "== varlink.ko's calls (warm-ups included) served in the caller's\n"
		       "== task; allocs: varlink.ko's allocations per call\n"
		       "== (statistics/allocations: what its per-CPU caches and a\n"
		       "== call's inline buffers could not serve); sends: its writes\n"
		       "== of replies to sockets per call (statistics/sends).\n"
		       "== seq: 1 connection, client pinned to CPU 0;\n"
		       "== pipe16: the same, 16 calls in flight; cN: N connections,\n"
		       "== a thread each, one call at a time\n", opt_reps);
		print_table();
		print_goals();
		failed |= meminfo_table();
	}
	if (opt_sysctl && sysctl_table())
		failed = 1;
	if (opt_device && device_table())
		failed = 1;
	if (opt_dropin && dropin_tables())
		failed = 1;
	if (opt_memory) {
		if (base_conns < 0)
			printf("\nmemory per idle connection: varlink.ko does not listen\n");
		else
			memory_table();
	}
	printf("\n== vl-bench took %.0f s\n", (now_ns() - t0) / (double)NSEC);
	return failed;
}

/* vl-bench load: calls of one target in the caller's task, for perf */
static int load(const char *id, double seconds)
{
	struct target *t = find_target(id);
	struct result r;

	if (!t && seconds > 0 && !dropin_load(id, seconds))
		return 0;
	if (!t || !(t->kind == GENL || (t->kernel && !t->fast_path)) ||
	    seconds <= 0) {
		fprintf(stderr, "usage: vl-bench %s %s|%s SECONDS\n", "load",
			"nlctrl|kernel-ping|kernel-getinfo|kernel-sysctl-get|kernel-memory-get",
			"kernel-log-read|kernel-device-attrs|kernel-sysctl-apply (or the files')");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	base_conns = kernel_conns();
	opt_seconds = seconds;
	run_one(t, &modes[0], &r);
	if (!r.ok) {
		fprintf(stderr, "vl-bench: %s failed\n", id);
		return 1;
	}
	printf("calls %lld rate %.0f\n", r.n, r.rate);
	return 0;
}

static void usage_exit(void)
{
	fprintf(stderr,
		"Usage: vl-bench run [-s SECONDS] [-r REPS] [-g GO_SERVER] [-t IDS] [-P CPU]\n"
		"                    [-C] [-D] [-M] [-S] [-T] [-x]\n"
		"       vl-bench load TARGET SECONDS\n"
		"       vl-bench raw-server NAME\n"
		"  -s  seconds per run (default 1)\n"
		"  -r  runs per figure, the median is reported (default 3)\n"
		"  -g  the Go server (default: varlink-noop beside vl-bench)\n"
		"  -M  skip the memory measurement   -T  skip the throughput runs\n"
		"  -t  only these targets, comma-separated (raw always runs)\n"
		"  -P  pin the userspace servers (raw, Go) to this CPU\n"
		"  -x  do not read varlink.ko's statistics (no inline column)\n"
		"  -S  skip org.kernel.sysctl.Get against /proc/sys\n"
		"  -C  skip log.Read, device.GetAttributes and sysctl.Apply against\n"
		"      the files they replace\n");
	exit(2);
}

int main(int argc, char **argv)
{
	char go_path[512];
	const char *slash;
	int opt;

	if (argc == 3 && !strcmp(argv[1], "raw-server")) {
		raw_server(argv[2]);
		return 1;
	}
	if (argc == 4 && !strcmp(argv[1], "load"))
		return load(argv[2], atof(argv[3]));
	if (argc < 2 || strcmp(argv[1], "run"))
		usage_exit();
	slash = strrchr(argv[0], '/');
	snprintf(go_path, sizeof(go_path), "%.*svarlink-noop",
		 slash ? (int)(slash - argv[0] + 1) : 0, argv[0]);
	optind = 2;
	while ((opt = getopt(argc, argv, "s:r:g:t:P:CDMSTx")) != -1) {
		switch (opt) {
		case 's':
			opt_seconds = atof(optarg);
			break;
		case 'r':
			opt_reps = atoi(optarg);
			break;
		case 'g':
			snprintf(go_path, sizeof(go_path), "%s", optarg);
			break;
		case 'D':
			opt_device = false;
			break;
		case 'C':
			opt_dropin = false;
			break;
		case 'M':
			opt_memory = false;
			break;
		case 'S':
			opt_sysctl = false;
			break;
		case 'T':
			opt_throughput = false;
			break;
		case 'x':
			opt_stats = false;
			break;
		case 't':
			opt_targets = optarg;
			break;
		case 'P':
			opt_server_cpu = atoi(optarg);
			break;
		default:
			usage_exit();
		}
	}
	if (opt_seconds <= 0 || opt_reps < 1 || opt_reps > MAX_REPS)
		usage_exit();
	return run_all(go_path);
}
