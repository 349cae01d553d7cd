// SPDX-License-Identifier: GPL-2.0
/*
 * kvarlinkctl: a varlink client, for the kernel's server and any other
 * on an AF_UNIX stream socket, in the shape of systemd's varlinkctl.
 *
 *   kvarlinkctl [OPTIONS] info [ADDRESS]
 *   kvarlinkctl [OPTIONS] list-interfaces [ADDRESS]
 *   kvarlinkctl [OPTIONS] introspect [ADDRESS] INTERFACE
 *   kvarlinkctl [OPTIONS] call [ADDRESS] METHOD [PARAMETERS]
 *
 * ADDRESS is unix:PATH, unix:@NAME, a path or @NAME, by default
 * @org.kernel.varlink.  Replies are parsed with the core's own tokenizer
 * (module/json.c, built for userspace behind the host shim), and every
 * reply is taken as hostile: a message is bounded (REPLY_MAX), each wait
 * for one has a deadline, a reply is checked for the shape of one before
 * anything of it is used, and decoded strings lose their control
 * characters before they reach the output.
 *
 * The kernel's server is known by its listener's credentials, which
 * every connection to it shows in SO_PEERCRED: no process (pid 0; and
 * since 6.5, SO_PEERPIDFD fails with ESRCH, as for no socket of a
 * process) and root of the initial user namespace (uid and gid 0, or
 * the ids that root has in the client's user namespace: the overflow
 * ids where it has none).  A process that holds @org.kernel.varlink (in
 * a network namespace where varlink.ko came after it) shows its own pid
 * and ids: before anything is sent, the peer of the kernel's address,
 * and of any address --kernel says is the kernel's, is checked, and a
 * server that is not the kernel is refused, unless --no-peer-check.
 *
 * Exit status: 0 on success, 1 on any failure (an error reply, no
 * connection, a broken reply, a timeout, a bad command line, a server
 * that is not the kernel), as varlinkctl's.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <linux/kernel.h>
#include <linux/varlink.h>
#include "json.h"

#ifndef KVARLINKCTL_VERSION
#error "KVARLINKCTL_VERSION is the project's version, from its Makefile"
#endif

#define PROG			"kvarlinkctl"
#define DEFAULT_ADDRESS		("@" VARLINK_SOCKET_NAME)
/* Bytes of one reply, its NUL included */
#define REPLY_MAX		(16 << 20)
#define RECV_CHUNK		65536
/* Seconds to wait for a reply, as varlinkctl's default */
#define TIMEOUT_DEFAULT		45
/* After a oneway call, how long to wait for the server to close */
#define ONEWAY_WAIT_MS		10000
/* The varlink names this client checks before it sends them */
#define NAME_MAX_LEN		255

static_assert(REPLY_MAX - 1 <= VL_MSG_SIZE_MAX, "the tokenizer's bound");

enum json_mode { JSON_OFF, JSON_PRETTY, JSON_SHORT };

static struct {
	enum json_mode json;
	bool json_set;
	bool more;
	bool oneway;
	int timeout_ms;		/* -1: none */
	bool timeout_set;
	bool kernel;		/* --kernel: ADDRESS is the kernel's */
	bool no_peer_check;	/* --no-peer-check */
} opt;

/* SO_PEERPIDFD of 6.5, for older headers */
#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD		77
#endif
/* What a user namespace shows for an id it does not map, by default */
#define OVERFLOW_ID_DEFAULT	65534

/* A connection and the bytes read past the last message */
struct conn {
	int fd;
	const char *address;
	char *buf;
	size_t len;		/* bytes in @buf */
	size_t scanned;		/* leading bytes known to hold no NUL */
	size_t cap;
	size_t used;		/* bytes of the last message, NUL included */
};

/* A reply, parsed in place in its connection's buffer */
struct reply {
	struct vl_json js;
	int params;		/* token of "parameters", or -1 */
	int error;		/* token of "error", or -1 */
	bool continues;
};

enum { RECV_OK, RECV_EOF, RECV_TIMEOUT, RECV_FAIL };

static const struct vl_json_limits json_limits = {
	.max_size = REPLY_MAX - 1,
	.max_depth = VL_JSON_DEPTH_MAX,
	.max_tokens = VL_JSON_TOKENS_MAX,
};

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry '" PROG " --help' for more information.\n", stderr);
	return 1;
}

static void print_help(void)
{
	printf("%s",
	       PROG " [OPTIONS...] COMMAND ...\n"
	       "\n"
	       "Introspect and call varlink services: the kernel's, @"
	       VARLINK_SOCKET_NAME ",\n"
	       "unless an ADDRESS is given.\n"
	       "\n"
	       "Commands:\n"
	       "  info [ADDRESS]                     Show the service's vendor, product,\n"
	       "                                     version, URL and interfaces\n"
	       "  list-interfaces [ADDRESS]          List the service's interfaces\n"
	       "  introspect [ADDRESS] INTERFACE     Show an interface's description\n"
	       "  call [ADDRESS] METHOD [PARAMETERS] Call a method; PARAMETERS is a JSON\n"
	       "                                     object, {} by default\n"
	       "\n"
	       "Options:\n"
	       "  -h --help              Show this help\n"
	       "     --version           Show the version\n"
	       "     --json=pretty|short Print JSON indented, or each reply on one line\n"
	       "                         (default: pretty on a terminal, short otherwise)\n"
	       "     --more              Ask for more replies, print each as it comes\n"
	       "     --oneway            Ask for no reply\n"
	       "     --timeout=SECONDS   Wait that long for a reply, or 'infinity'\n"
	       "                         (default: 45, infinity with --more)\n"
	       "     --kernel            ADDRESS is the kernel's: check its server is\n"
	       "                         (done for @" VARLINK_SOCKET_NAME " always)\n"
	       "     --no-peer-check     Do not check that the kernel's address is\n"
	       "                         served by the kernel\n"
	       "\n"
	       "ADDRESS: unix:PATH, unix:@NAME, or a PATH (/..., ./..., ../...), or @NAME\n"
	       "for an abstract socket.\n");
}

/* -------------------------------------------------------------------- */
/* Names and addresses */

/* An argument that is an address: anything else is a method or interface. */
static bool is_address(const char *s)
{
	return s[0] == '/' || s[0] == '@' || !strncmp(s, "./", 2) ||
	       !strncmp(s, "../", 3) || !strncmp(s, "unix:", 5);
}

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/*
 * [A-Za-z](-*[A-Za-z0-9])*(\.[A-Za-z0-9](-*[A-Za-z0-9])*)+ over @len bytes:
 * labels of letters, digits and inner hyphens, the first one starting
 * with a letter, two at least.
 */
static bool interface_valid(const char *s, size_t len)
{
	size_t i, labels = 1;

	if (!len || len > NAME_MAX_LEN || !is_alnum(s[0]) ||
	    (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 1; i < len; i++) {
		if (s[i] == '.') {
			if (s[i - 1] == '.' || s[i - 1] == '-' ||
			    i + 1 == len || !is_alnum(s[i + 1]))
				return false;
			labels++;
		} else if (s[i] != '-' && !is_alnum(s[i])) {
			return false;
		}
	}
	return labels >= 2 && s[len - 1] != '-';
}

/* INTERFACE.Name, the name [A-Z][A-Za-z0-9]* */
static bool method_valid(const char *s)
{
	const char *dot = strrchr(s, '.');
	const char *p;

	if (!dot || !interface_valid(s, dot - s) || dot[1] < 'A' ||
	    dot[1] > 'Z' || strlen(dot + 1) > NAME_MAX_LEN)
		return false;
	for (p = dot + 1; *p; p++) {
		if (!is_alnum(*p))
			return false;
	}
	return true;
}

/* -------------------------------------------------------------------- */
/* The connection */

/*
 * "Failed to WHAT ADDRESS: the error." after a system call on a
 * connection failed; EAGAIN is SO_SNDTIMEO's time-out.
 */
static void io_failed(const char *what, const char *address)
{
	fprintf(stderr, "Failed to %s %s: %s\n", what, address,
		errno == EAGAIN ? "timed out" : strerror(errno));
}

static int dial(struct conn *c, const char *address, int timeout_ms)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	const char *name = address;
	socklen_t alen;
	size_t len;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->address = address;
	if (!strncmp(name, "unix:", 5))
		name += 5;
	len = strlen(name);
	if (name[0] == '@') {
		/* abstract: the bytes after '@', no NUL counted */
		if (len < 2 || len - 1 > sizeof(addr.sun_path) - 1) {
			fprintf(stderr, "Invalid address '%s': the name is %s.\n",
				address, len < 2 ? "empty" : "too long");
			return -1;
		}
		memcpy(addr.sun_path + 1, name + 1, len - 1);
		alen = offsetof(struct sockaddr_un, sun_path) + len;
	} else {
		if (!len || len >= sizeof(addr.sun_path)) {
			fprintf(stderr, "Invalid address '%s': the path is %s.\n",
				address, len ? "too long" : "empty");
			return -1;
		}
		memcpy(addr.sun_path, name, len);
		alen = offsetof(struct sockaddr_un, sun_path) + len + 1;
	}
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0) {
		fprintf(stderr, "Failed to make a socket: %s\n", strerror(errno));
		return -1;
	}
	/* bounds a connect() to a full backlog, and every send() */
	if (timeout_ms >= 0) {
		struct timeval tv = {
			.tv_sec = timeout_ms / 1000,
			.tv_usec = timeout_ms % 1000 * 1000,
		};

		setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	}
	while (connect(c->fd, (struct sockaddr *)&addr, alen) < 0) {
		if (errno == EINTR)
			continue;
		io_failed("connect to", address);
		close(c->fd);
		c->fd = -1;
		return -1;
	}
	return 0;
}

/* The overflow id of /proc/sys/kernel/@name: what a user namespace shows
 * for an id it does not map
 */
static unsigned long overflow_id(const char *name)
{
	unsigned long id = OVERFLOW_ID_DEFAULT;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	f = fopen(path, "re");
	if (!f)
		return id;
	if (fscanf(f, "%lu", &id) != 1)
		id = OVERFLOW_ID_DEFAULT;
	fclose(f);
	return id;
}

/*
 * Whether @id is the one root of the initial user namespace has in ours,
 * by /proc/self/@map ("uid_map" or "gid_map"): 0 in the initial
 * namespace; in another, where its map puts the parent's 0, else the
 * overflow id @overflow (a namespace below another that maps root is
 * taken at its word: the parent's 0 is root's).  Without /proc to tell
 * (a process that cannot reach it), either 0 or the overflow id.
 */
static bool kernel_id(unsigned long id, const char *map, unsigned long overflow)
{
	unsigned long in, out, count, want = overflow;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/%s", map);
	f = fopen(path, "re");
	if (!f)
		return id == 0 || id == overflow;
	while (fscanf(f, "%lu %lu %lu", &in, &out, &count) == 3) {
		if (!out && count) {
			want = in;
			break;
		}
	}
	fclose(f);
	return id == want;
}

/*
 * Whether the pid of the kernel's listener can be shown: 6.15 and 6.16
 * keep the pid of the task that made it (the module cannot drop it
 * there), and only the ids tell.
 */
static bool kernel_pid_shown(void)
{
	struct utsname u;
	unsigned int major, minor;

	return uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2 ||
	       major != 6 || (minor != 15 && minor != 16);
}

/*
 * The server at @c must be the kernel: SO_PEERCRED as the module's
 * listener makes it (see the top), and no process behind it where
 * SO_PEERPIDFD can tell.  0, or 1 with the reason on stderr.
 */
static int check_kernel_peer(struct conn *c)
{
	bool pid_shown = kernel_pid_shown();
	socklen_t len = sizeof(struct ucred);
	struct ucred cred;
	bool process;
	int pidfd;

	if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) ||
	    len != sizeof(cred)) {
		io_failed("learn who serves", c->address);
		return 1;
	}
	len = sizeof(pidfd);
	pidfd = -1;
	process = pid_shown &&
		  !getsockopt(c->fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &len);
	if (pidfd >= 0)
		close(pidfd);
	if ((!pid_shown || (cred.pid == 0 && !process)) &&
	    kernel_id(cred.uid, "uid_map", overflow_id("overflowuid")) &&
	    kernel_id(cred.gid, "gid_map", overflow_id("overflowgid")))
		return 0;
	fprintf(stderr,
		"Refusing %s: its server is not the kernel (SO_PEERCRED pid %d, uid %u, gid %u%s; the kernel's shows pid 0 and root's ids).\n"
		"A process holds this address; --no-peer-check talks to it all the same.\n",
		c->address, cred.pid, cred.uid, cred.gid,
		process ? ", a process behind it" : "");
	return 1;
}

/* Whether @address is the kernel's: its name, or --kernel says so */
static bool kernel_address(const char *address)
{
	if (!strncmp(address, "unix:", 5))
		address += 5;
	return opt.kernel || !strcmp(address, DEFAULT_ADDRESS);
}

static void conn_close(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->buf);
	c->fd = -1;
	c->buf = NULL;
}

static int send_all(struct conn *c, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = send(c->fd, buf, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			io_failed("send to", c->address);
			return -1;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * The next message, NUL-terminated in @c->buf; its bytes are dropped at
 * the next call.  @deadline is in now_ms() time, or -1 for none.
 */
static int recv_message(struct conn *c, long long deadline, size_t *len)
{
	char *nul;

	if (c->used) {
		c->len -= c->used;
		memmove(c->buf, c->buf + c->used, c->len);
		c->used = 0;
		c->scanned = 0;
	}
	for (;;) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
		long long left = -1;
		ssize_t n;
		int ret;

		nul = c->len > c->scanned ?
		      memchr(c->buf + c->scanned, '\0', c->len - c->scanned) :
		      NULL;
		if (nul) {
			*len = nul - c->buf;
			c->used = *len + 1;
			return RECV_OK;
		}
		c->scanned = c->len;
		if (c->len == c->cap) {
			size_t cap = c->cap ? c->cap * 2 : RECV_CHUNK;
			char *buf;

			if (c->cap >= REPLY_MAX) {
				fprintf(stderr, "Reply from %s larger than %d MiB, giving up.\n",
					c->address, REPLY_MAX >> 20);
				return RECV_FAIL;
			}
			buf = realloc(c->buf, cap < REPLY_MAX ? cap : REPLY_MAX);
			if (!buf) {
				fprintf(stderr, "Out of memory.\n");
				return RECV_FAIL;
			}
			c->buf = buf;
			c->cap = cap < REPLY_MAX ? cap : REPLY_MAX;
		}
		if (deadline >= 0) {
			left = deadline - now_ms();
			if (left < 0)
				left = 0;
		}
		ret = poll(&pfd, 1, left > INT_MAX ? INT_MAX : (int)left);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0) {
			io_failed("wait for", c->address);
			return RECV_FAIL;
		}
		if (!ret) {
			if (deadline >= 0 && now_ms() >= deadline)
				return RECV_TIMEOUT;
			continue;
		}
		n = recv(c->fd, c->buf + c->len, c->cap - c->len, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0) {
			io_failed("read from", c->address);
			return RECV_FAIL;
		}
		if (!n) {
			if (!c->len)
				return RECV_EOF;
			fprintf(stderr, "Connection to %s closed in the middle of a reply.\n",
				c->address);
			return RECV_FAIL;
		}
		c->len += n;
	}
}

/* "Invalid reply from ADDRESS: WHAT." */
static void invalid(const struct conn *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "Invalid reply from %s: ", c->address);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(".\n", stderr);
}

static void reply_free(struct reply *r)
{
	free(r->js.toks);
	memset(r, 0, sizeof(*r));
}

/* A reply: an object; "parameters" an object, "error" a string. */
static int parse_reply(struct conn *c, size_t len, struct reply *r)
{
	struct vl_json_tok *toks;
	u32 cap = vl_json_tokens_needed(len);
	int i;

	memset(r, 0, sizeof(*r));
	r->params = -1;
	r->error = -1;
	toks = calloc(cap, sizeof(*toks));
	if (!toks) {
		fprintf(stderr, "Out of memory.\n");
		return -1;
	}
	vl_json_init(&r->js, toks, cap);
	if (vl_json_parse(&r->js, c->buf, len, &json_limits)) {
		invalid(c, "%s at byte %u", r->js.emsg, r->js.epos);
		goto bad;
	}
	if (toks[0].type != VL_JSON_OBJECT) {
		invalid(c, "not a JSON object");
		goto bad;
	}
	r->params = vl_json_find(&r->js, 0, "parameters");
	if (r->params >= 0 && toks[r->params].type != VL_JSON_OBJECT) {
		invalid(c, "\"parameters\" is not an object");
		goto bad;
	}
	r->error = vl_json_find(&r->js, 0, "error");
	if (r->error >= 0 && toks[r->error].type != VL_JSON_STRING) {
		invalid(c, "\"error\" is not a string");
		goto bad;
	}
	i = vl_json_find(&r->js, 0, "continues");
	if (i >= 0 && toks[i].type != VL_JSON_BOOL) {
		invalid(c, "\"continues\" is not a boolean");
		goto bad;
	}
	r->continues = i >= 0 && (toks[i].flags & VL_JSON_F_TRUE);
	return 0;
bad:
	reply_free(r);
	return -1;
}

/* Read the next reply; RECV_OK, or why there is none. */
static int recv_reply(struct conn *c, int timeout_ms, struct reply *r)
{
	long long deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	size_t len;
	int ret;

	ret = recv_message(c, deadline, &len);
	if (ret != RECV_OK)
		return ret;
	return parse_reply(c, len, r) ? RECV_FAIL : RECV_OK;
}

/* A reply that did not come, said on one line */
static int no_reply(const struct conn *c, int ret, int timeout_ms)
{
	if (ret == RECV_EOF)
		fprintf(stderr, "Connection to %s closed before a reply.\n",
			c->address);
	else if (ret == RECV_TIMEOUT)
		fprintf(stderr, "No reply from %s within %d s.\n", c->address,
			(timeout_ms + 999) / 1000);
	return 1;
}

/* -------------------------------------------------------------------- */
/* Output */

static void indent(FILE *f, int depth)
{
	fprintf(f, "\n%*s", 2 * depth, "");
}

/*
 * Value @root of @js as JSON: pretty, two spaces of indent a level, or
 * short, on one line.  The values are those of a parsed document, its
 * scalars printed as they came; without recursion, for any depth the
 * tokenizer let through.
 */
static void print_json(FILE *f, const struct vl_json *js, u32 root,
		       bool pretty)
{
	u32 open[VL_JSON_DEPTH_MAX + 1];
	u32 i, end = js->toks[root].next;
	bool first = true, after_key = false;
	int depth = 0;

	for (i = root; i < end; i++) {
		const struct vl_json_tok *t = &js->toks[i];
		bool obj = t->type == VL_JSON_OBJECT;

		while (depth && i >= js->toks[open[depth - 1]].next) {
			depth--;
			if (pretty)
				indent(f, depth);
			fputc(js->toks[open[depth]].type == VL_JSON_OBJECT ?
			      '}' : ']', f);
		}
		if (after_key) {
			fputs(pretty ? ": " : ":", f);
		} else if (depth) {
			if (!first)
				fputc(',', f);
			if (pretty)
				indent(f, depth);
		}
		first = false;
		after_key = t->flags & VL_JSON_F_KEY;
		if (obj || t->type == VL_JSON_ARRAY) {
			if (!t->count || depth > VL_JSON_DEPTH_MAX) {
				/* (deeper than the tokenizer allows: never) */
				fputs(obj ? "{}" : "[]", f);
				i = t->next - 1;
				continue;
			}
			fputc(obj ? '{' : '[', f);
			open[depth++] = i;
			first = true;
			continue;
		}
		fwrite(js->buf + t->start, 1, t->len, f);
	}
	while (depth) {
		depth--;
		if (pretty)
			indent(f, depth);
		fputc(js->toks[open[depth]].type == VL_JSON_OBJECT ? '}' : ']',
		      f);
	}
	fputc('\n', f);
}

/* The parameters of @r, {} when it has none */
static void print_params(FILE *f, const struct reply *r, bool pretty)
{
	if (r->params >= 0)
		print_json(f, &r->js, r->params, pretty);
	else
		fputs("{}\n", f);
}

/*
 * Text from a server: control characters (C0, DEL, C1) become '?', but
 * for newlines and tabs when @lines, so that no reply can drive the
 * terminal it is printed on.
 */
static void print_text(FILE *f, const char *s, size_t len, bool lines)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < len; i++) {
		if (lines && (p[i] == '\n' || p[i] == '\t')) {
			fputc(p[i], f);
		} else if (p[i] < 0x20 || p[i] == 0x7f) {
			fputc('?', f);
		} else if (p[i] == 0xc2 && i + 1 < len && p[i + 1] >= 0x80 &&
			   p[i + 1] <= 0x9f) {
			fputc('?', f);
			i++;
		} else {
			fputc(p[i], f);
		}
	}
}

/* String token @i, decoded into a new buffer; NULL if not a string. */
static char *tok_string(const struct vl_json *js, int i, size_t *len)
{
	char *s;
	int n;

	if (i < 0 || js->toks[i].type != VL_JSON_STRING)
		return NULL;
	s = malloc((size_t)js->toks[i].count + 1);
	if (!s)
		return NULL;
	n = vl_json_unescape(js, i, s, (size_t)js->toks[i].count + 1);
	if (n < 0) {
		free(s);
		return NULL;
	}
	*len = n;
	return s;
}

/*
 * An error reply: "Method call METHOD() failed: ERROR" on stderr, as
 * varlinkctl says it.  Its parameters go with the message to stderr, or,
 * for call (@params_out), to stdout as a reply's would.
 */
static int call_failed(const char *method, const struct reply *r,
		       bool params_out)
{
	size_t len = 0;
	char *name = tok_string(&r->js, r->error, &len);

	fprintf(stderr, "Method call %s() failed: ", method);
	print_text(stderr, name ? name : "?", name ? len : 1, false);
	if (name && len == strlen("org.varlink.service.ExpectedMore") &&
	    !memcmp(name, "org.varlink.service.ExpectedMore", len))
		fputs(" (call it with --more)", stderr);
	fputc('\n', stderr);
	free(name);
	if (params_out)
		print_params(stdout, r, opt.json == JSON_PRETTY);
	else if (r->params >= 0 && r->js.toks[r->params].count)
		print_params(stderr, r, false);
	return 1;
}

/* -------------------------------------------------------------------- */
/* Calls */

enum call_flags { CALL_PLAIN, CALL_MORE, CALL_ONEWAY };

/* @method and @params were checked: neither needs escaping. */
static int send_call(struct conn *c, const char *method, const char *params,
		     enum call_flags how)
{
	static const char * const flag[] = {
		[CALL_PLAIN] = "",
		[CALL_MORE] = ",\"more\":true",
		[CALL_ONEWAY] = ",\"oneway\":true",
	};
	size_t size = strlen(method) + strlen(params) + 64;
	char *msg = malloc(size);
	int n, ret;

	if (!msg) {
		fprintf(stderr, "Out of memory.\n");
		return -1;
	}
	n = snprintf(msg, size, "{\"method\":\"%s\",\"parameters\":%s%s}",
		     method, params, flag[how]);
	if (n < 0 || (size_t)n >= size) {
		fprintf(stderr, "Failed to make the call of %s().\n", method);
		free(msg);
		return -1;
	}
	/* the NUL that ends a varlink message goes too */
	ret = send_all(c, msg, n + 1);
	free(msg);
	return ret;
}

/* A plain call whose reply the caller reads; 0, or 1 with why not said. */
static int call_reply(struct conn *c, const char *method, const char *params,
		      struct reply *r)
{
	int ret;

	if (send_call(c, method, params, CALL_PLAIN))
		return 1;
	ret = recv_reply(c, opt.timeout_ms, r);
	if (ret != RECV_OK)
		return no_reply(c, ret, opt.timeout_ms);
	if (r->error >= 0 || r->continues) {
		if (r->error >= 0)
			call_failed(method, r, false);
		else
			invalid(c, "\"continues\" without \"more\"");
		reply_free(r);
		return 1;
	}
	return 0;
}

/*
 * A oneway call: no reply comes.  Say that nothing more comes and wait
 * until the server closes, so that the call has been read when this
 * returns; a server that still answers, with an error, fails the call.
 */
static int call_oneway(struct conn *c, const char *method, const char *params)
{
	struct reply r;
	int ret;

	if (send_call(c, method, params, CALL_ONEWAY))
		return 1;
	shutdown(c->fd, SHUT_WR);
	ret = recv_reply(c, ONEWAY_WAIT_MS, &r);
	if (ret == RECV_EOF || ret == RECV_TIMEOUT)
		return 0;
	if (ret != RECV_OK)
		return 1;
	if (r.error >= 0)
		call_failed(method, &r, true);
	else
		invalid(c, "a reply to a oneway call");
	reply_free(&r);
	return 1;
}

static int cmd_call(struct conn *c, const char *method, const char *params)
{
	bool pretty = opt.json == JSON_PRETTY;
	struct reply r;
	int ret;

	if (opt.oneway)
		return call_oneway(c, method, params);
	if (send_call(c, method, params, opt.more ? CALL_MORE : CALL_PLAIN))
		return 1;
	for (;;) {
		ret = recv_reply(c, opt.timeout_ms, &r);
		if (ret != RECV_OK)
			return no_reply(c, ret, opt.timeout_ms);
		if (r.error >= 0) {
			ret = call_failed(method, &r, true);
			reply_free(&r);
			return ret;
		}
		if (r.continues && !opt.more) {
			invalid(c, "\"continues\" without \"more\"");
			reply_free(&r);
			return 1;
		}
		print_params(stdout, &r, pretty);
		ret = r.continues;
		reply_free(&r);
		/* each reply of a stream as it comes, for a pipe too */
		if (fflush(stdout))
			return 1;
		if (!ret)
			return 0;
	}
}

/* Interface names of GetInfo, for sorting */
struct name {
	char *s;
	size_t len;
};

static int name_cmp(const void *a, const void *b)
{
	const struct name *x = a, *y = b;
	int d = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);

	return d ? d : (x->len > y->len) - (x->len < y->len);
}

static void names_free(struct name *names, u32 n)
{
	while (n--)
		free(names[n].s);
	free(names);
}

/* The interfaces of a GetInfo reply, sorted; NULL with why said. */
static struct name *info_interfaces(const struct conn *c,
				    const struct reply *r, u32 *n)
{
	int list = vl_json_find(&r->js, r->params, "interfaces");
	struct name *names;
	u32 i, k = 0;

	if (list < 0 || r->js.toks[list].type != VL_JSON_ARRAY) {
		invalid(c, "GetInfo has no \"interfaces\" array");
		return NULL;
	}
	names = calloc(r->js.toks[list].count + 1, sizeof(*names));
	if (!names) {
		fprintf(stderr, "Out of memory.\n");
		return NULL;
	}
	vl_json_for_each_elem(&r->js, list, i) {
		names[k].s = tok_string(&r->js, i, &names[k].len);
		if (!names[k].s) {
			invalid(c, "GetInfo has an interface not a string");
			names_free(names, k);
			return NULL;
		}
		k++;
	}
	qsort(names, k, sizeof(*names), name_cmp);
	*n = k;
	return names;
}

/* The fields info prints, in its order */
static const struct {
	const char *key;
	const char *label;
} info_fields[] = {
	{ "vendor", "Vendor" },
	{ "product", "Product" },
	{ "version", "Version" },
	{ "url", "URL" },
};

/*
 * info, as varlinkctl prints it: labels right-aligned, the interfaces
 * sorted, one a line; or list-interfaces (@list), the interfaces only.
 * With --json, GetInfo's parameters, or its list of interfaces, as JSON.
 */
static int cmd_info(struct conn *c, bool list)
{
	char *value[ARRAY_SIZE(info_fields)] = { NULL };
	size_t len[ARRAY_SIZE(info_fields)];
	struct name *names = NULL;
	struct reply r;
	int ret = 1, tok;
	u32 i, n = 0;

	if (call_reply(c, "org.varlink.service.GetInfo", "{}", &r))
		return 1;
	if (r.params < 0) {
		invalid(c, "GetInfo has no parameters");
		goto out;
	}
	if (opt.json != JSON_OFF) {
		tok = r.params;
		if (list) {
			tok = vl_json_find(&r.js, r.params, "interfaces");
			if (tok < 0 || r.js.toks[tok].type != VL_JSON_ARRAY) {
				invalid(c, "GetInfo has no \"interfaces\" array");
				goto out;
			}
		}
		print_json(stdout, &r.js, tok, opt.json == JSON_PRETTY);
		ret = 0;
		goto out;
	}
	names = info_interfaces(c, &r, &n);
	if (!names)
		goto out;
	for (i = 0; !list && i < ARRAY_SIZE(info_fields); i++) {
		tok = vl_json_find(&r.js, r.params, info_fields[i].key);
		value[i] = tok_string(&r.js, tok, &len[i]);
		if (!value[i]) {
			invalid(c, "GetInfo has no \"%s\" string",
				info_fields[i].key);
			goto out;
		}
	}
	for (i = 0; !list && i < ARRAY_SIZE(info_fields); i++) {
		printf("%10s: ", info_fields[i].label);
		print_text(stdout, value[i], len[i], false);
		putchar('\n');
	}
	for (i = 0; i < n; i++) {
		if (!list)
			printf("%10s%s", i ? "" : "Interfaces", i ? "  " : ": ");
		print_text(stdout, names[i].s, names[i].len, false);
		putchar('\n');
	}
	if (!list && !n)
		printf("%10s:\n", "Interfaces");
	ret = 0;
out:
	for (i = 0; i < ARRAY_SIZE(info_fields); i++)
		free(value[i]);
	if (names)
		names_free(names, n);
	reply_free(&r);
	return ret;
}

/* The description of an interface, the text as it is. */
static int cmd_introspect(struct conn *c, const char *iface)
{
	char params[NAME_MAX_LEN + 32];
	char *desc = NULL;
	struct reply r;
	size_t len = 0;
	int n, ret = 1;

	n = snprintf(params, sizeof(params), "{\"interface\":\"%s\"}", iface);
	if (n < 0 || (size_t)n >= sizeof(params))
		return usage_error("invalid interface name '%s'", iface);
	if (call_reply(c, "org.varlink.service.GetInterfaceDescription",
		       params, &r))
		return 1;
	if (opt.json != JSON_OFF) {
		print_params(stdout, &r, opt.json == JSON_PRETTY);
		reply_free(&r);
		return 0;
	}
	if (r.params >= 0)
		desc = tok_string(&r.js, vl_json_find(&r.js, r.params,
						      "description"), &len);
	if (desc) {
		print_text(stdout, desc, len, true);
		if (!len || desc[len - 1] != '\n')
			putchar('\n');
		ret = 0;
	} else {
		invalid(c, "GetInterfaceDescription has no \"description\"");
	}
	free(desc);
	reply_free(&r);
	return ret;
}

/* PARAMETERS: a JSON object, checked before anything is sent */
static int check_params(const char *params)
{
	size_t len = strlen(params);
	u32 cap = vl_json_tokens_needed(len);
	struct vl_json js;
	int err;

	if (len > json_limits.max_size)
		return usage_error("PARAMETERS larger than %d MiB",
				   REPLY_MAX >> 20);
	js.toks = calloc(cap, sizeof(*js.toks));
	if (!js.toks) {
		fprintf(stderr, "Out of memory.\n");
		return 1;
	}
	vl_json_init(&js, js.toks, cap);
	err = vl_json_parse(&js, params, len, &json_limits);
	if (err)
		err = usage_error("PARAMETERS are not valid JSON: %s at byte %u",
				  js.emsg, js.epos);
	else if (js.toks[0].type != VL_JSON_OBJECT)
		err = usage_error("PARAMETERS must be a JSON object, such as '{}'");
	free(js.toks);
	return err;
}

/* -------------------------------------------------------------------- */

enum {
	OPT_VERSION = 0x100, OPT_JSON, OPT_MORE, OPT_ONEWAY, OPT_TIMEOUT,
	OPT_KERNEL, OPT_NO_PEER_CHECK,
};

static const struct option options[] = {
	{ "help",	no_argument,		NULL, 'h' },
	{ "version",	no_argument,		NULL, OPT_VERSION },
	{ "json",	optional_argument,	NULL, OPT_JSON },
	{ "more",	no_argument,		NULL, OPT_MORE },
	{ "oneway",	no_argument,		NULL, OPT_ONEWAY },
	{ "timeout",	required_argument,	NULL, OPT_TIMEOUT },
	{ "kernel",	no_argument,		NULL, OPT_KERNEL },
	{ "no-peer-check", no_argument,		NULL, OPT_NO_PEER_CHECK },
	{}
};

/* --timeout=SECONDS: whole seconds, or "infinity" (or "") for none */
static int parse_timeout(const char *s)
{
	unsigned long v;
	char *end;

	if (!*s || !strcmp(s, "infinity")) {
		opt.timeout_ms = -1;
		return 0;
	}
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || s[0] < '0' || s[0] > '9' || errno || !v ||
	    v > INT_MAX / 1000)
		return -1;
	opt.timeout_ms = v * 1000;
	return 0;
}

/* Options anywhere on the line; 0 to go on, else the exit status + 1 */
static int parse_options(int argc, char **argv)
{
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_help();
			return 1;
		case OPT_VERSION:
			printf("%s %s\n", PROG, KVARLINKCTL_VERSION);
			return 1;
		case OPT_JSON:
			if (!optarg)
				return 1 + usage_error("--json=pretty or --json=short, please");
			if (!strcmp(optarg, "pretty"))
				opt.json = JSON_PRETTY;
			else if (!strcmp(optarg, "short"))
				opt.json = JSON_SHORT;
			else
				return 1 + usage_error("--json=%s: not 'pretty' or 'short'",
						       optarg);
			opt.json_set = true;
			break;
		case OPT_MORE:
			opt.more = true;
			break;
		case OPT_ONEWAY:
			opt.oneway = true;
			break;
		case OPT_TIMEOUT:
			if (parse_timeout(optarg))
				return 1 + usage_error("--timeout=%s: not seconds or 'infinity'",
						       optarg);
			opt.timeout_set = true;
			break;
		case OPT_KERNEL:
			opt.kernel = true;
			break;
		case OPT_NO_PEER_CHECK:
			opt.no_peer_check = true;
			break;
		default:
			if (optopt && optopt < 0x100)
				return 1 + usage_error("unknown option '-%c'", optopt);
			return 1 + usage_error("unknown option or missing value: '%s'",
					       argv[optind - 1]);
		}
	}
	if (opt.more && opt.oneway)
		return 1 + usage_error("--more and --oneway exclude each other");
	if (opt.kernel && opt.no_peer_check)
		return 1 + usage_error("--kernel and --no-peer-check exclude each other");
	return 0;
}

int main(int argc, char **argv)
{
	const char *verb, *address = DEFAULT_ADDRESS, *method = NULL;
	const char *params = "{}";
	struct conn c;
	int ret, nargs;
	char **args;

	ret = parse_options(argc, argv);
	if (ret)
		return ret - 1;
	if (optind >= argc)
		return usage_error("no command given");
	verb = argv[optind];
	args = argv + optind + 1;
	nargs = argc - optind - 1;
	if (nargs && is_address(args[0])) {
		address = args[0];
		args++;
		nargs--;
	} else if (nargs && strchr(args[0], ':')) {
		return usage_error("unsupported address '%s' (not unix:...)",
				   args[0]);
	}

	if ((opt.more || opt.oneway) && strcmp(verb, "call"))
		return usage_error("--more and --oneway are for call");
	if (!strcmp(verb, "info") || !strcmp(verb, "list-interfaces")) {
		if (nargs)
			return usage_error("%s takes [ADDRESS] only", verb);
	} else if (!strcmp(verb, "introspect")) {
		if (nargs != 1)
			return usage_error("introspect takes [ADDRESS] INTERFACE");
		if (!interface_valid(args[0], strlen(args[0])))
			return usage_error("invalid interface name '%s'", args[0]);
	} else if (!strcmp(verb, "call")) {
		if (nargs < 1 || nargs > 2)
			return usage_error("call takes [ADDRESS] METHOD [PARAMETERS]");
		method = args[0];
		if (!method_valid(method))
			return usage_error("invalid method name '%s' (INTERFACE.Method)",
					   method);
		/* an empty string is no parameters, as for varlinkctl */
		if (nargs == 2 && args[1][0])
			params = args[1];
		if (check_params(params))
			return 1;
	} else {
		return usage_error("unknown command '%s'", verb);
	}

	/* JSON for call pretty on a terminal; info and the rest as text */
	if (!opt.json_set && !strcmp(verb, "call"))
		opt.json = isatty(STDOUT_FILENO) ? JSON_PRETTY : JSON_SHORT;
	/* a stream waits for its next reply as long as it takes */
	if (!opt.timeout_set)
		opt.timeout_ms = opt.more ? -1 : TIMEOUT_DEFAULT * 1000;

	if (dial(&c, address, opt.timeout_ms))
		return 1;
	if (!opt.no_peer_check && kernel_address(address) &&
	    check_kernel_peer(&c)) {
		conn_close(&c);
		return 1;
	}
	if (!strcmp(verb, "info"))
		ret = cmd_info(&c, false);
	else if (!strcmp(verb, "list-interfaces"))
		ret = cmd_info(&c, true);
	else if (!strcmp(verb, "introspect"))
		ret = cmd_introspect(&c, args[0]);
	else
		ret = cmd_call(&c, method, params);
	conn_close(&c);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "Failed to write the output: %s\n",
			strerror(errno));
		return 1;
	}
	return ret;
}
