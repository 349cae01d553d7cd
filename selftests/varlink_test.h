/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the varlink selftests. */
#ifndef _VARLINK_TEST_H
#define _VARLINK_TEST_H

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/varlink.h>

/*
 * stdout a line at a time, not a pipe's buffer at a time: each test's
 * lines reach the runner as it ends, and guest-init.sh times each test
 * by them; a test that forks does not print its parent's buffer twice.
 */
__attribute__((constructor)) static void vt_stdout_by_line(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

/* Fill @addr with an abstract name; @extra bytes of trailing NULs. */
static inline socklen_t vt_addr(struct sockaddr_un *addr, const char *name,
				int extra)
{
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	strncpy(addr->sun_path + 1, name, sizeof(addr->sun_path) - 2);
	return offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name) + extra;
}

/* Connect to the server; returns the fd or -1 with errno set. */
static inline int vt_connect_name(const char *name, int extra)
{
	struct sockaddr_un addr;
	socklen_t len = vt_addr(&addr, name, extra);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&addr, len) < 0) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

static inline int vt_connect(void)
{
	return vt_connect_name(VARLINK_SOCKET_NAME, 0);
}

/*
 * The test interface of varlink_test_provider.ko, and where the guest
 * keeps the modules.
 */
#define VT_IFACE		"org.kernel.varlink.test"
#define VT_M(name)		"\"method\":\"" VT_IFACE "." name "\""
#define VT_PING			"{" VT_M("Ping") "}"

/* Calls of the test interface; @params is a JSON object */
#define VT_CALL(name, params)	"{" VT_M(name) ",\"parameters\":" params "}"
#define VT_MORE(name, params)	"{" VT_M(name) ",\"more\":true,\"parameters\":" params "}"
#define VT_ONEWAY(name, params)	"{" VT_M(name) ",\"oneway\":true,\"parameters\":" params "}"
#define VT_CORE_MODULE		"varlink"
#define VT_PROVIDER_MODULE	"varlink_test_provider"
#define VT_MODULE_DIR		"/modules"

/* How long a reply may take: the debug kernel runs under TCG with KASAN. */
#define VT_TIMEOUT_MS		10000

static inline long long vt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static inline void vt_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* A printf into a new string; the tests do not bother to free it. */
static inline char *vt_fmt(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

/*
 * A number from a file of varlink.ko in sysfs, or @def if it has none; a
 * bool parameter's Y or N is 1 or 0.
 */
static inline long vt_sysfs(const char *dir, const char *name, long def)
{
	char path[128], buf[32];
	long v = def;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/module/varlink/%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return def;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		v = buf[0] == 'Y' ? 1 : buf[0] == 'N' ? 0 : strtol(buf, NULL, 10);
	}
	close(fd);
	return v;
}

/* A parameter of varlink.ko, or @def */
static inline long vt_param(const char *name, long def)
{
	return vt_sysfs("parameters", name, def);
}

/*
 * A Replay of the test provider that waits on a client that does not
 * read: a million replies of a quarter of max_output each (a paced
 * stream's replies are shorter than half of it).
 */
static inline char *vt_blocking_replay(void)
{
	return vt_fmt(VT_MORE("Replay", "{\"n\":1048576,\"size\":%ld}"),
		      vt_param("max_output", 262144) / 4);
}

/* A counter of varlink.ko, or -1 */
static inline long vt_stat(const char *name)
{
	return vt_sysfs("statistics", name, -1);
}

/*
 * A client connection: the socket and what was read from it but not yet
 * returned as a message.
 */
struct vt_conn {
	int fd;
	char *buf;
	size_t len;
	size_t cap;
	char *msg;	/* the last message vt_recv() returned */
};

static inline void vt_init(struct vt_conn *c)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

/* Connect @c; returns 0 or -errno. */
static inline int vt_open(struct vt_conn *c)
{
	vt_init(c);
	c->fd = vt_connect();
	return c->fd < 0 ? -errno : 0;
}

static inline void vt_close(struct vt_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->buf);
	free(c->msg);
	vt_init(c);
}

/* Write all of @buf; returns 0 or -errno (never raises SIGPIPE). */
static inline int vt_send_raw(struct vt_conn *c, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(c->fd, p, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= n;
	}
	return 0;
}

/* Send @json and its NUL terminator in one write. */
static inline int vt_send(struct vt_conn *c, const char *json)
{
	return vt_send_raw(c, json, strlen(json) + 1);
}

/*
 * Read the next message, waiting at most @timeout_ms.  Returns 1 with
 * *@msg set (valid until the next call), 0 if the server closed the
 * connection (end of file or reset) at a message boundary, -ETIMEDOUT,
 * -EPROTO if it closed in the middle of a message, or another -errno;
 * *@msg is then "".
 */
static inline int vt_recv(struct vt_conn *c, int timeout_ms, const char **msg)
{
	long long deadline = vt_now_ms() + timeout_ms;

	free(c->msg);
	c->msg = NULL;
	*msg = "";
	for (;;) {
		char *nul = c->len ? memchr(c->buf, '\0', c->len) : NULL;
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
		long long left;
		ssize_t n;

		if (nul) {
			size_t len = nul - c->buf + 1;

			c->msg = malloc(len);
			if (!c->msg)
				return -ENOMEM;
			memcpy(c->msg, c->buf, len);
			c->len -= len;
			memmove(c->buf, c->buf + len, c->len);
			*msg = c->msg;
			return 1;
		}
		if (c->len == c->cap) {
			size_t cap = c->cap ? c->cap * 2 : 65536;
			char *buf = realloc(c->buf, cap);

			if (!buf)
				return -ENOMEM;
			c->buf = buf;
			c->cap = cap;
		}
		left = deadline - vt_now_ms();
		if (left < 0)
			left = 0;
		n = poll(&pfd, 1, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ETIMEDOUT;
		n = recv(c->fd, c->buf + c->len, c->cap - c->len, MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0 && errno == ECONNRESET)
			n = 0;
		if (n < 0)
			return -errno;
		if (n == 0)
			return c->len ? -EPROTO : 0;
		c->len += n;
	}
}

/* Send a call and wait for its (first) reply; returns as vt_recv(). */
static inline int vt_call(struct vt_conn *c, const char *json, const char **msg)
{
	int err = vt_send(c, json);

	if (err) {
		*msg = "";
		return err;
	}
	return vt_recv(c, VT_TIMEOUT_MS, msg);
}

/*
 * Whether the server closed the connection without sending anything
 * more: returns 1 if so, 0 if a message came (see @c->msg), -ETIMEDOUT
 * or -errno.
 */
static inline int vt_closed(struct vt_conn *c, int timeout_ms)
{
	const char *msg;
	int ret = vt_recv(c, timeout_ms, &msg);

	if (ret == 0)
		return 1;
	if (ret == 1)
		return 0;
	return ret;
}

/*
 * Connect and wait until the server serves the connection: a connection
 * over the per-user limit is closed at once, and connections that were
 * just closed may still count for a moment.  A call of the test
 * interface proves it is served, whether the provider is loaded or not.
 * Returns 0 or -errno.
 */
static inline int vt_open_ready(struct vt_conn *c)
{
	long long deadline = vt_now_ms() + VT_TIMEOUT_MS;
	const char *msg;
	int ret;

	do {
		ret = vt_open(c);
		if (ret)
			return ret;
		ret = vt_call(c, VT_PING, &msg);
		if (ret == 1)
			return 0;
		vt_close(c);
		vt_sleep_ms(20);
	} while (vt_now_ms() < deadline);
	return ret ? ret : -ECONNRESET;
}

/*
 * JSON, just enough to look at replies: find a value by its path, compare
 * its text, decode a string.  The server writes compact JSON, but the
 * order of members is not something to rely on.
 */
static inline const char *vt_json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static inline const char *vt_json_skip_string(const char *p)
{
	int i;

	if (*p != '"')
		return NULL;
	for (p++; *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p != '\\')
			continue;
		p++;
		if (*p == 'u') {
			for (i = 1; i <= 4; i++)
				if (!isxdigit((unsigned char)p[i]))
					return NULL;
			p += 4;
		} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
			return NULL;
		}
	}
	return p + 1;
}

/* The end of the value at @p (after leading whitespace), or NULL. */
static inline const char *vt_json_skip(const char *p, int depth)
{
	const char *q;
	char close;

	p = vt_json_ws(p);
	if (depth > 1000)
		return NULL;
	switch (*p) {
	case '"':
		return vt_json_skip_string(p);
	case '{':
	case '[':
		close = *p == '{' ? '}' : ']';
		p = vt_json_ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (close == '}') {
				p = vt_json_skip_string(p);
				if (!p)
					return NULL;
				p = vt_json_ws(p);
				if (*p++ != ':')
					return NULL;
			}
			p = vt_json_skip(p, depth + 1);
			if (!p)
				return NULL;
			p = vt_json_ws(p);
			if (*p == close)
				return p + 1;
			if (*p != ',')
				return NULL;
			p = vt_json_ws(p + 1);
		}
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		q = p + strspn(p, "-+.eE0123456789");
		return q > p ? q : NULL;
	}
}

/* Whether @json is one valid JSON value and nothing else. */
static inline bool vt_json_valid(const char *json)
{
	const char *end = vt_json_skip(json, 0);

	return end && !*vt_json_ws(end);
}

/*
 * Find the value at @path: member names separated by dots, array indexes
 * in decimal, e.g. "parameters.everything.array.2"; "" is @json itself.
 * Returns its text (leading whitespace skipped) with *@len set, or NULL.
 */
static inline const char *vt_json_find(const char *json, const char *path,
				       size_t *len)
{
	const char *p = vt_json_ws(json), *end;

	while (*path) {
		const char *sep = strchr(path, '.');
		size_t klen = sep ? (size_t)(sep - path) : strlen(path);
		bool found = false;

		if (*p == '{') {
			p = vt_json_ws(p + 1);
			while (*p == '"') {
				bool match = !strncmp(p + 1, path, klen) &&
					     p[1 + klen] == '"';

				p = vt_json_skip_string(p);
				if (!p)
					return NULL;
				p = vt_json_ws(p);
				if (*p != ':')
					return NULL;
				p = vt_json_ws(p + 1);
				if (match) {
					found = true;
					break;
				}
				p = vt_json_skip(p, 0);
				if (!p)
					return NULL;
				p = vt_json_ws(p);
				if (*p == ',')
					p = vt_json_ws(p + 1);
			}
		} else if (*p == '[' && isdigit((unsigned char)*path)) {
			long idx = strtol(path, NULL, 10);

			p = vt_json_ws(p + 1);
			while (*p && *p != ']') {
				if (!idx--) {
					found = true;
					break;
				}
				p = vt_json_skip(p, 0);
				if (!p)
					return NULL;
				p = vt_json_ws(p);
				if (*p == ',')
					p = vt_json_ws(p + 1);
			}
		}
		if (!found)
			return NULL;
		path += klen + (sep ? 1 : 0);
	}
	end = vt_json_skip(p, 0);
	if (!end)
		return NULL;
	*len = end - p;
	return p;
}

/* Whether the value at @path is @raw, byte for byte. */
static inline bool vt_json_is(const char *json, const char *path,
			      const char *raw)
{
	size_t len;
	const char *v = json ? vt_json_find(json, path, &len) : NULL;

	return v && len == strlen(raw) && !memcmp(v, raw, len);
}

static inline bool vt_json_has(const char *json, const char *path)
{
	size_t len;

	return json && vt_json_find(json, path, &len);
}

static inline unsigned int vt_hex4(const char *p)
{
	char h[5] = { p[0], p[1], p[2], p[3], 0 };

	return strtoul(h, NULL, 16);
}

static inline char *vt_put_utf8(char *o, unsigned int cp)
{
	if (cp < 0x80) {
		*o++ = cp;
	} else if (cp < 0x800) {
		*o++ = 0xc0 | cp >> 6;
		*o++ = 0x80 | (cp & 0x3f);
	} else if (cp < 0x10000) {
		*o++ = 0xe0 | cp >> 12;
		*o++ = 0x80 | ((cp >> 6) & 0x3f);
		*o++ = 0x80 | (cp & 0x3f);
	} else {
		*o++ = 0xf0 | cp >> 18;
		*o++ = 0x80 | ((cp >> 12) & 0x3f);
		*o++ = 0x80 | ((cp >> 6) & 0x3f);
		*o++ = 0x80 | (cp & 0x3f);
	}
	return o;
}

/*
 * The string at @path, unescaped, in a new buffer (not freed by the
 * tests); NULL if there is none or it is not a string.
 */
static inline char *vt_json_str(const char *json, const char *path)
{
	size_t len;
	const char *p = json ? vt_json_find(json, path, &len) : NULL;
	const char *end;
	char *s, *o;

	if (!p || *p != '"')
		return NULL;
	end = p + len - 1;
	s = malloc(len * 2 + 1);
	if (!s)
		return NULL;
	for (o = s, p++; p < end; p++) {
		unsigned int cp;

		if (*p != '\\') {
			*o++ = *p;
			continue;
		}
		switch (*++p) {
		case 'b':
			*o++ = '\b';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case 'n':
			*o++ = '\n';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'u':
			cp = vt_hex4(p + 1);
			p += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && p[1] == '\\' &&
			    p[2] == 'u') {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				     (vt_hex4(p + 3) - 0xdc00);
				p += 6;
			}
			o = vt_put_utf8(o, cp);
			break;
		default:
			*o++ = *p;
			break;
		}
	}
	*o = '\0';
	return s;
}

/* The parameters of a reply as text; "{}" when absent or null. */
static inline char *vt_params(const char *msg)
{
	size_t len;
	const char *p = msg ? vt_json_find(msg, "parameters", &len) : NULL;

	if (!p || (len == 4 && !memcmp(p, "null", 4)))
		return strdup("{}");
	return strndup(p, len);
}

/* Whether @msg is an error reply with error @error. */
static inline bool vt_is_error(const char *msg, const char *error)
{
	char *e = vt_json_str(msg, "error");
	bool ret = e && !strcmp(e, error);

	free(e);
	return ret;
}

static inline bool vt_is_ok(const char *msg)
{
	return msg && *msg && !vt_json_has(msg, "error");
}

static inline bool vt_continues(const char *msg)
{
	return vt_json_is(msg, "continues", "true");
}

/*
 * What is wrong with reply @msg, or NULL: a reply is one JSON object with
 * only "parameters" (an object), "continues" (true) and "error" (a
 * string), and no "continues" in an error.
 */
static inline const char *vt_reply_problem(const char *msg)
{
	const char *p;
	size_t len;

	if (!msg || !vt_json_valid(msg))
		return "not valid JSON";
	p = vt_json_ws(msg);
	if (*p != '{')
		return "not an object";
	p = vt_json_ws(p + 1);
	while (*p == '"') {
		static const char *const keys[] = {
			"\"parameters\"", "\"continues\"", "\"error\"",
		};
		bool known = false;
		unsigned int i;

		for (i = 0; i < 3; i++)
			known |= !strncmp(p, keys[i], strlen(keys[i]));
		if (!known)
			return "a member other than parameters, continues, error";
		p = vt_json_skip_string(p);
		p = vt_json_ws(p);
		p = vt_json_skip(p + 1, 0);
		p = vt_json_ws(p);
		if (*p == ',')
			p = vt_json_ws(p + 1);
	}
	p = vt_json_find(msg, "parameters", &len);
	if (p && *p != '{')
		return "parameters is not an object";
	p = vt_json_find(msg, "continues", &len);
	if (p && strncmp(p, "true", len))
		return "continues is there but not true";
	p = vt_json_find(msg, "error", &len);
	if (p && *p != '"')
		return "error is not a string";
	if (p && vt_json_has(msg, "continues"))
		return "continues in an error";
	return NULL;
}

/* Modules, by system call: the guest's busybox may lack modprobe. */
static inline int vt_delete_module(const char *name)
{
	return syscall(__NR_delete_module, name, O_NONBLOCK) ? -errno : 0;
}

/*
 * Unload @name, retrying while it is busy for at most @timeout_ms;
 * returns 0 or the last -errno.
 */
static inline int vt_rmmod(const char *name, int timeout_ms)
{
	long long deadline = vt_now_ms() + timeout_ms;
	int err;

	for (;;) {
		err = vt_delete_module(name);
		if (err != -EAGAIN && err != -EBUSY)
			return err;
		if (vt_now_ms() >= deadline)
			return err;
		vt_sleep_ms(20);
	}
}

/* Load /modules/@name.ko with module parameters @params; 0 or -errno. */
static inline int vt_insmod_params(const char *name, const char *params)
{
	int fd, err = 0;

	fd = open(vt_fmt(VT_MODULE_DIR "/%s.ko", name), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(__NR_finit_module, fd, params, 0))
		err = -errno;
	close(fd);
	return err;
}

static inline int vt_insmod(const char *name)
{
	return vt_insmod_params(name, "");
}

/*
 * A connection over a limit: org.kernel.varlink.TooManyConnections
 * {"max": @max} is its first message, then the end.  Returns 0 if so,
 * else -1, with what came instead on stderr.
 */
static inline int vt_refused(struct vt_conn *c, int max)
{
	const char *msg = "";

	vt_send(c, VT_PING);
	if (vt_recv(c, VT_TIMEOUT_MS, &msg) != 1 ||
	    !vt_is_error(msg, "org.kernel.varlink.TooManyConnections") ||
	    !vt_json_is(msg, "parameters.max", vt_fmt("%d", max)) ||
	    vt_closed(c, VT_TIMEOUT_MS) != 1) {
		fprintf(stderr, "# expected TooManyConnections %d, got '%s'\n", max, msg);
		return -1;
	}
	return 0;
}

static inline bool vt_module_loaded(const char *name)
{
	char line[512];
	size_t len = strlen(name);
	bool found = false;
	FILE *f = fopen("/proc/modules", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, name, len) && line[len] == ' ';
	fclose(f);
	return found;
}

/*
 * The modules that use module @name (its holders in sysfs), at most @max
 * of them; returns how many.
 */
static inline int vt_module_holders(const char *name, char (*names)[64], int max)
{
	char path[128];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/module/%s/holders", name);
	dir = opendir(path);
	if (!dir)
		return 0;
	while (n < max && (d = readdir(dir))) {
		if (d->d_name[0] == '.' || strlen(d->d_name) >= 64)
			continue;
		memcpy(names[n++], d->d_name, strlen(d->d_name) + 1);
	}
	closedir(dir);
	return n;
}

/* The modules that use the core, its providers: they go first, come after */
struct vt_providers {
	char name[32][64];
	int n;
};

/* Find the providers loaded now, as the core's holders in sysfs. */
static inline int vt_providers_find(struct vt_providers *p)
{
	p->n = vt_module_holders(VT_CORE_MODULE, p->name, 32);
	return p->n;
}

/* Unload them; one already gone is fine.  Returns 0 or -errno. */
static inline int vt_providers_unload(const struct vt_providers *p)
{
	int i, err;

	for (i = 0; i < p->n; i++) {
		err = vt_rmmod(p->name[i], 60000);
		if (err && err != -ENOENT)
			return err;
	}
	return 0;
}

/* Load those not loaded.  Returns 0 or -errno. */
static inline int vt_providers_load(const struct vt_providers *p)
{
	int i, err;

	for (i = 0; i < p->n; i++) {
		if (vt_module_loaded(p->name[i]))
			continue;
		err = vt_insmod(p->name[i]);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Become @uid, with @uid as its only group: real, effective and saved
 * ids, no supplementary groups.  Returns 0 or -errno.
 */
static inline int vt_become(unsigned int uid)
{
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		return -errno;
	return 0;
}

/*
 * The value of line "@key N" of a /proc/.../net/varlink opened as @f,
 * which is closed; -1 if @f is NULL or has no such line.
 */
static inline long vt_net_varlink_value(FILE *f, const char *key)
{
	char name[32];
	long v, ret = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%31s %ld", name, &v) == 2)
		if (!strcmp(name, key))
			ret = v;
	fclose(f);
	return ret;
}

/*
 * Drop CAP_SYS_ADMIN from this thread's effective and permitted sets:
 * root without it, as in a container without a user namespace.
 * Returns 0 or -errno.
 */
static inline int vt_drop_sys_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	data[CAP_TO_INDEX(CAP_SYS_ADMIN)].permitted &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	if (syscall(SYS_capset, &hdr, data))
		return -errno;
	return 0;
}

/* Write @text to the file at @path (sysfs, debugfs, procfs, cgroupfs). */
static inline int vt_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		n = -errno;
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : n < 0 ? n : -EIO;
}

/*
 * Write @map ("inside outside count" lines) as the uid_map and gid_map of
 * @pid's new user namespace, as root (newuidmap(1) would); setgroups(2)
 * stays allowed there only if @allow_setgroups.  Returns 0 or -errno.
 */
static inline int vt_map_ids(pid_t pid, const char *map, bool allow_setgroups)
{
	int err = allow_setgroups ? 0 :
		  vt_write_file(vt_fmt("/proc/%d/setgroups", pid), "deny");

	if (!err)
		err = vt_write_file(vt_fmt("/proc/%d/uid_map", pid), map);
	if (!err)
		err = vt_write_file(vt_fmt("/proc/%d/gid_map", pid), map);
	return err;
}

#define VT_DESCRIBE_FMT	"{\"method\":\"org.varlink.service.GetInterfaceDescription\"," \
			"\"parameters\":{\"interface\":\"%s\"}}"

/*
 * Whether the server serves @iface: its description comes back.  Built
 * in, a provider is in no /proc/modules line, so this, not
 * vt_module_loaded(), is what a test of an interface asks.
 */
static inline bool vt_interface_served(const char *iface)
{
	struct vt_conn c;
	const char *msg;
	bool served;

	if (vt_open(&c))
		return false;
	served = vt_call(&c, vt_fmt(VT_DESCRIBE_FMT, iface), &msg) == 1 &&
		 vt_is_ok(msg);
	vt_close(&c);
	return served;
}

/* Whether the listening socket is in /proc/net/unix. */
static inline bool vt_socket_listed(void)
{
	char line[512];
	bool found = false;
	FILE *f = fopen("/proc/net/unix", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, " @" VARLINK_SOCKET_NAME "\n");
	fclose(f);
	return found;
}

#endif /* _VARLINK_TEST_H */
