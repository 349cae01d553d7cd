/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the built-in kernel's PID 1 programs (varlink_first_call,
 * varlink_boot_root) share: TAP into a buffer (nothing can be printed
 * before /dev exists), varlink calls on @org.kernel.varlink with a bound
 * on every wait, a reader of the few JSON values they need, and the
 * check that nothing is mounted on /proc, /sys or /dev.
 */
#ifndef BOOT_CALL_H
#define BOOT_CALL_H

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define SOCKET_NAME	"org.kernel.varlink"
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* a call that is not answered in this time fails */
#define CALL_TIMEOUT_MS	10000

static char tap[16384];
static size_t tap_len;
static int tests, failed;

static inline void say(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (tap_len >= sizeof(tap) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(tap + tap_len, sizeof(tap) - tap_len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(tap) - tap_len)
		n = sizeof(tap) - tap_len - 1;
	tap_len += n;
}

static inline void result(int ok, const char *name)
{
	tests++;
	failed += !ok;
	say("%sok %d %s\n", ok ? "" : "not ", tests, name);
}

/* Milliseconds on @clock. */
static inline long long ms_on(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* A connection to the server, and what it sent that was not read yet. */
struct vconn {
	int fd;
	size_t len;		/* bytes in buf */
	size_t next;		/* where the message after the last one starts */
	char buf[65536];
};

static inline void vconn_close(struct vconn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

static inline int vconn_open(struct vconn *c)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	socklen_t len = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(SOCKET_NAME);

	c->len = 0;
	c->next = 0;
	memcpy(sa.sun_path + 1, SOCKET_NAME, strlen(SOCKET_NAME));
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0) {
		say("# socket: %s\n", strerror(errno));
		return -1;
	}
	if (connect(c->fd, (struct sockaddr *)&sa, len) < 0) {
		say("# connect to @%s: %s\n", SOCKET_NAME, strerror(errno));
		vconn_close(c);
		return -1;
	}
	return 0;
}

/* Send @msg, its NUL included. */
static inline int vconn_send(struct vconn *c, const char *msg)
{
	size_t len = strlen(msg) + 1;

	if (send(c->fd, msg, len, MSG_NOSIGNAL) != (ssize_t)len) {
		say("# send: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The next message the server sent, NUL-terminated in c->buf and valid
 * until the next call; NULL (and a diagnostic) when none came before
 * @deadline (CLOCK_MONOTONIC, ms), the connection ended or failed, or a
 * message did not fit.
 */
static inline const char *vconn_recv(struct vconn *c, long long deadline)
{
	char *end;

	if (c->next) {
		memmove(c->buf, c->buf + c->next, c->len - c->next);
		c->len -= c->next;
		c->next = 0;
	}
	for (;;) {
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		long long left = deadline - ms_on(CLOCK_MONOTONIC);
		ssize_t n;

		end = memchr(c->buf, '\0', c->len);
		if (end) {
			c->next = end - c->buf + 1;
			return c->buf;
		}
		if (c->len == sizeof(c->buf)) {
			say("# a reply longer than %zu bytes\n", sizeof(c->buf));
			return NULL;
		}
		if (left <= 0 || poll(&p, 1, left) == 0) {
			say("# no reply in time\n");
			return NULL;
		}
		n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len, MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			say("# recv: %s\n", n ? strerror(errno) : "connection closed");
			return NULL;
		}
		c->len += n;
	}
}

/* One call on a new connection: the reply, NUL included, in @buf. */
static inline int call(const char *msg, char *buf, size_t size)
{
	static struct vconn c;
	const char *reply = NULL;

	buf[0] = '\0';
	if (vconn_open(&c))
		return -1;
	if (!vconn_send(&c, msg))
		reply = vconn_recv(&c, ms_on(CLOCK_MONOTONIC) + CALL_TIMEOUT_MS);
	if (reply)
		snprintf(buf, size, "%s", reply);
	vconn_close(&c);
	return reply && strlen(reply) < size ? 0 : -1;
}

/*
 * The JSON string at @p (its opening quote), unescaped into @val; a \u
 * escape of a character that is not ASCII becomes '?'.  Returns what
 * follows the closing quote, or NULL if @p is no string or it does not
 * fit in @size bytes, NUL included.
 */
static inline const char *json_string(const char *p, char *val, size_t size)
{
	size_t n = 0;
	char ch;

	if (*p++ != '"')
		return NULL;
	for (; *p != '"'; p++) {
		if (!*p || n + 1 >= size)
			return NULL;
		ch = *p;
		if (ch == '\\') {
			switch (*++p) {
			case 'n':
				ch = '\n';
				break;
			case 't':
				ch = '\t';
				break;
			case 'r':
				ch = '\r';
				break;
			case 'b':
				ch = '\b';
				break;
			case 'f':
				ch = '\f';
				break;
			case '"':
			case '\\':
			case '/':
				ch = *p;
				break;
			case 'u': {
				char hex[5] = { 0 };
				unsigned long u;

				if (strnlen(p + 1, 4) < 4)
					return NULL;
				memcpy(hex, p + 1, 4);
				u = strtoul(hex, NULL, 16);
				ch = u && u < 0x80 ? (char)u : '?';
				p += 4;
				break;
			}
			default:
				return NULL;
			}
		}
		val[n++] = ch;
	}
	val[n] = '\0';
	return p + 1;
}

/*
 * The value of the first member "@key" in a reply: where it starts, or
 * NULL.  A '"' within a JSON string is escaped, so "KEY": is found only
 * as a member's name.
 */
static inline const char *json_member(const char *reply, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(reply, pat);
	return p ? p + strlen(pat) : NULL;
}

/* The string value of "@key" in @val; 0, or -1 if absent or too long. */
static inline int json_get_string(const char *reply, const char *key,
				  char *val, size_t size)
{
	const char *p = json_member(reply, key);

	val[0] = '\0';
	return p && json_string(p, val, size) ? 0 : -1;
}

/* The integer value of "@key"; 0, or -1 if absent or not an integer. */
static inline int json_get_int(const char *reply, const char *key, long long *v)
{
	const char *p = json_member(reply, key);
	char *end;

	if (!p || (*p != '-' && (*p < '0' || *p > '9')))
		return -1;
	errno = 0;
	*v = strtoll(p, &end, 10);
	return errno || *end == '.' || *end == 'e' || *end == 'E' ? -1 : 0;
}

/* The error a reply names, in @val; 0, or -1 if it is no error. */
static inline int reply_error(const char *reply, char *val, size_t size)
{
	return json_get_string(reply, "error", val, size);
}

/* Whether more replies of the call follow this one. */
static inline int reply_continues(const char *reply)
{
	const char *p = json_member(reply, "continues");

	return p && !strncmp(p, "true", 4);
}

/* @s escaped for a JSON string, into @out (cut short if it does not fit). */
static inline const char *json_escape(const char *s, char *out, size_t size)
{
	size_t n = 0;

	for (; *s && n + 7 < size; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\') {
			out[n++] = '\\';
			out[n++] = ch;
		} else if (ch == '\n') {
			out[n++] = '\\';
			out[n++] = 'n';
		} else if (ch == '\t') {
			out[n++] = '\\';
			out[n++] = 't';
		} else if (ch < 0x20) {
			n += snprintf(out + n, size - n, "\\u%04x", ch);
		} else {
			out[n++] = ch;
		}
	}
	out[n] = '\0';
	return out;
}

/* Nothing is mounted on /proc, /sys or /dev: they are on the rootfs. */
static inline int nothing_mounted(void)
{
	static const char * const dir[] = { "/proc", "/sys", "/dev" };
	struct stat root, st;
	unsigned int i;

	if (stat("/", &root))
		return 0;
	for (i = 0; i < ARRAY_SIZE(dir); i++) {
		if (stat(dir[i], &st) == 0 && st.st_dev != root.st_dev) {
			say("# %s is a mount\n", dir[i]);
			return 0;
		}
	}
	return stat("/proc/self", &st) != 0;
}

#endif /* BOOT_CALL_H */
