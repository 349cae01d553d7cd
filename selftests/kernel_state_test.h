/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the org.kernel.system and org.kernel.process selftests:
 * numbers out of reply JSON, and what /proc and /sys say, to compare.
 */
#ifndef _KERNEL_STATE_TEST_H
#define _KERNEL_STATE_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "varlink_test.h"

#define KS_INVALID	"org.varlink.service.InvalidParameter"
#define KS_DENIED	"org.varlink.service.PermissionDenied"
#define KS_NOBODY	65534

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME	0x00000080
#endif

/* A day ahead: what a time namespace of the tests adds to CLOCK_BOOTTIME */
#define KS_TIME_NS_SECS	86400

/*
 * Enter a new time namespace whose CLOCK_BOOTTIME is @secs ahead of the
 * host's: /proc/uptime, /proc/stat's btime and the start times of
 * /proc/PID/stat then show the namespace's times.  The caller must be
 * single-threaded, with CAP_SYS_ADMIN.  Returns 0 or -errno.
 */
static inline int ks_enter_time_ns(long long secs)
{
	char offsets[64];
	int fd, err = 0;

	snprintf(offsets, sizeof(offsets), "%d %lld 0", CLOCK_BOOTTIME, secs);
	if (unshare(CLONE_NEWTIME))
		return -errno;
	err = vt_write_file("/proc/self/timens_offsets", offsets);
	if (err)
		return err;
	fd = open("/proc/self/ns/time_for_children", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (setns(fd, CLONE_NEWTIME))
		err = -errno;
	close(fd);
	return err;
}

/* A call of any method; @params is a JSON object. */
#define KS_CALL(method, params) \
	"{\"method\":\"" method "\",\"parameters\":" params "}"

/*
 * The integer at @path of @json into *@v: an optional '-' and decimal
 * digits, nothing else (no fraction, no exponent), within long long.
 */
static inline bool ks_json_int(const char *json, const char *path,
			       long long *v)
{
	char buf[32], *end;
	const char *p;
	size_t len, i;

	p = json ? vt_json_find(json, path, &len) : NULL;
	if (!p || !len || len >= sizeof(buf))
		return false;
	for (i = *p == '-'; i < len; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
	if (len == (size_t)(*p == '-'))
		return false;
	memcpy(buf, p, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return !errno && *end == '\0';
}

/*
 * The number at @path of @json, written with exactly @decimals digits
 * after the point (as varlink_put_fixed() does), times 10^@decimals,
 * into *@v.  No floating point: the digits are taken as they are.
 */
static inline bool ks_json_fixed(const char *json, const char *path,
				 unsigned int decimals, long long *v)
{
	const char *p, *end;
	long long r = 0;
	size_t len;
	bool neg;

	p = json ? vt_json_find(json, path, &len) : NULL;
	if (!p || !len)
		return false;
	end = p + len;
	neg = *p == '-';
	p += neg;
	if (p == end || *p < '0' || *p > '9')
		return false;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (r > (LLONG_MAX - 9) / 10)
			return false;
		r = r * 10 + (*p - '0');
	}
	if (decimals) {
		unsigned int n = 0;

		if (p == end || *p++ != '.')
			return false;
		for (; p < end && *p >= '0' && *p <= '9'; p++, n++) {
			if (r > (LLONG_MAX - 9) / 10)
				return false;
			r = r * 10 + (*p - '0');
		}
		if (n != decimals)
			return false;
	}
	if (p != end)
		return false;
	*v = neg ? -r : r;
	return true;
}

/* The contents of @path, relative to directory @dirfd (AT_FDCWD: to the
 * working directory), in a new string (not freed), or NULL.
 */
static inline char *ks_read_at(int dirfd, const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || !buf) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return NULL;
	}
	for (;;) {
		if (len + 1 == cap) {
			char *b = realloc(buf, cap * 2);

			if (!b)
				break;
			buf = b;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* The contents of @path in a new string (not freed), or NULL. */
static inline char *ks_read(const char *path)
{
	return ks_read_at(AT_FDCWD, path);
}

/* @path's first line, without its newline, in a new string, or NULL. */
static inline char *ks_read_line(const char *path)
{
	char *s = ks_read(path);

	if (s)
		s[strcspn(s, "\n")] = '\0';
	return s;
}

/*
 * The number after "@key" (e.g. "MemFree:") at the start of a line of
 * @text (e.g. /proc/meminfo or /proc/PID/status); @field picks which of
 * several numbers on the line (0 the first).  -1 if there is none.
 */
static inline long long ks_field(const char *text, const char *key, int field)
{
	size_t klen = strlen(key);
	const char *p = text;
	long long v = -1;

	while (p && *p) {
		if (!strncmp(p, key, klen)) {
			char *end;

			p += klen;
			do {
				errno = 0;
				v = strtoll(p, &end, 10);
				if (end == p || errno)
					return -1;
				p = end;
			} while (field-- > 0);
			return v;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

/* A field of /proc/meminfo in bytes, or -1. */
static inline long long ks_meminfo(const char *key)
{
	char *text = ks_read("/proc/meminfo");
	long long kib = text ? ks_field(text, key, 0) : -1;

	free(text);
	return kib < 0 ? -1 : kib * 1024;
}

/* CPUs in a list like "0-3,6" (/sys/devices/system/cpu/online), or -1. */
static inline int ks_cpu_list_count(const char *path)
{
	char *s = ks_read_line(path), *p = s, *end;
	int n = 0;

	if (!s)
		return -1;
	while (*p) {
		long a = strtol(p, &end, 10), b = a;

		if (end == p)
			goto bad;
		p = end;
		if (*p == '-') {
			b = strtol(++p, &end, 10);
			if (end == p || b < a)
				goto bad;
			p = end;
		}
		n += b - a + 1;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	free(s);
	return n;
bad:
	free(s);
	return -1;
}

/*
 * Field @n (1-based, as in proc(5)) of /proc/@pid/stat, as text in a new
 * string, or NULL.  The command name (field 2) may hold spaces and
 * parentheses: fields after it are counted from its last ')'.
 */
static inline char *ks_stat_field(int pid, int n)
{
	char path[64], *s, *p, *r = NULL;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	s = ks_read(path);
	if (!s)
		return NULL;
	p = strrchr(s, ')');
	if (p && n >= 3) {
		p += 2;
		for (i = 3; i < n && p; i++) {
			p = strchr(p, ' ');
			if (p)
				p++;
		}
		if (p)
			r = strndup(p, strcspn(p, "\n "));
	} else if (p && n == 2) {
		char *open = strchr(s, '(');

		if (open)
			r = strndup(open + 1, p - open - 1);
	} else if (n == 1) {
		r = strndup(s, strcspn(s, " "));
	}
	free(s);
	return r;
}

static inline long long ks_stat_num(int pid, int n)
{
	char *s = ks_stat_field(pid, n);
	long long v = s ? strtoll(s, NULL, 10) : -1;

	free(s);
	return v;
}

/* A number of /proc/@pid/status, e.g. ("Uid:", 1) the effective uid. */
static inline long long ks_status_num(int pid, const char *key, int field)
{
	char path[64], *text;
	long long v;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	text = ks_read(path);
	v = text ? ks_field(text, key, field) : -1;
	free(text);
	return v;
}

/*
 * In a function run by ks_run_as(), where the harness's checks are not
 * at hand: whether @cond holds, with a message on stderr if it does not.
 */
#define KS_OK(cond)	ks_ok(!!(cond), #cond, __FILE__, __LINE__)

static inline bool ks_ok(bool ok, const char *what, const char *file,
			 int line)
{
	if (!ok)
		fprintf(stderr, "# %s:%d: check failed: %s\n", file, line, what);
	return ok;
}

/*
 * Run @fn in a child process that first became @uid/@gid (real, effective
 * and saved; no supplementary groups, and no capabilities left) and
 * return its exit status: 0 if @fn returned 0, 255 if the ids could not
 * be set, -1 if it did not exit.  @fn returns how many checks failed.
 */
static inline int ks_run_as(unsigned int uid, unsigned int gid,
			    int (*fn)(void *), void *arg)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (!pid) {
		if (setgroups(0, NULL) || setresgid(gid, gid, gid) ||
		    setresuid(uid, uid, uid))
			_exit(255);
		_exit(fn(arg));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

#endif /* _KERNEL_STATE_TEST_H */
