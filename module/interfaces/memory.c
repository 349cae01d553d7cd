// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.memory: the system's memory, as /proc/meminfo and
 * /proc/vmstat show it.
 *
 * None of this is namespaced: a container sees the host's numbers, as it
 * does in those files (unless lxcfs or the like covers them there), so
 * the interface is served in every network namespace.  The files are
 * world-readable and are read as the kernel (varlink_file_read() with no
 * call): the core's procfs mount belongs to the initial pid namespace,
 * and these files are the same in every one.
 */
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/varlink.h>

/* The largest /proc/meminfo or /proc/vmstat read (vmstat is ~6 KiB) */
#define MEMORY_FILE_MAX		(64 * 1024)
/* The most lines taken from one (vmstat has ~190 on 7.3) */
#define MEMORY_LINES_MAX	1024
/* The longest name of a line ("nr_foll_pin_acquired" and the like) */
#define MEMORY_NAME_MAX		64

static const char memory_idl[] =
"# The system's memory, as /proc/meminfo and /proc/vmstat show it, read\n"
"# when the call is made.  Neither file is namespaced: a caller in a\n"
"# container gets the host's numbers, as the files show them there\n"
"# (unless something like lxcfs covers them).  Reading needs no privilege.\n"
"interface org.kernel.memory\n"
"\n"
"# The memory figures of /proc/meminfo.\n"
"method Get() -> (\n"
"  # RAM the kernel manages, in bytes (MemTotal).\n"
"  total: int,\n"
"  # RAM not used at all, in bytes (MemFree).\n"
"  free: int,\n"
"  # An estimate of the RAM that can be had without swapping, in bytes\n"
"  # (MemAvailable).\n"
"  available: int,\n"
"  # Every line of /proc/meminfo, by its name without the colon (e.g.\n"
"  # \"MemTotal\", \"Active(anon)\"): the values in kB in bytes, the others\n"
"  # (HugePages_Total, HugePages_Free, HugePages_Rsvd, HugePages_Surp) as\n"
"  # the counts they are.  Which lines there are depends on the kernel's\n"
"  # version and configuration.\n"
"  fields: [string]int\n"
")\n"
"\n"
"# The counters of /proc/vmstat.\n"
"method GetStatistics() -> (\n"
"  # Every line of /proc/vmstat, by its name (e.g. \"nr_free_pages\",\n"
"  # \"pgfault\"), with its value as the file has it: pages for the nr_*\n"
"  # counts, events for the others.  Which lines there are depends on the\n"
"  # kernel's version and configuration.\n"
"  counters: [string]int\n"
")\n";

/* A line's name: 1 to MEMORY_NAME_MAX printable ASCII characters, not a
 * space, quote or backslash (the kernel's are letters, digits, '_', '('
 * and ')'), so that it is a JSON key as it is.
 */
static bool memory_name_valid(const char *s)
{
	size_t len = strnlen(s, MEMORY_NAME_MAX + 1), i;

	if (!len || len > MEMORY_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (s[i] <= ' ' || s[i] > '~' || s[i] == '"' || s[i] == '\\')
			return false;
	return true;
}

struct memory_line {
	const char *name;
	u64 value;
};

/**
 * memory_parse() - the lines of /proc/meminfo or /proc/vmstat
 * @text: the file, NUL-terminated; cut into names in place
 * @sep: what ends a name: ':' (meminfo) or ' ' (vmstat)
 * @lines: filled with up to @max lines
 * @max: entries of @lines
 *
 * Each line is a name, @sep, spaces, a decimal number, and for meminfo
 * maybe " kB": such values are given in bytes.  Anything else is an
 * error, rather than a line left out.
 *
 * Return: the number of lines, or -EIO.
 */
static int memory_parse(char *text, char sep, struct memory_line *lines,
			size_t max)
{
	char *line, *next, *p, *q, c;
	unsigned int n = 0;
	u64 v;

	for (line = text; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		p = strchr(line, sep);
		if (!p || n == max)
			return -EIO;
		*p++ = '\0';
		if (!memory_name_valid(line))
			return -EIO;
		while (*p == ' ')
			p++;
		for (q = p; *q >= '0' && *q <= '9'; q++)
			;
		c = *q;
		*q = '\0';
		if (q == p || kstrtou64(p, 10, &v))
			return -EIO;
		*q = c;
		if (sep == ':' && !strcmp(q, " kB")) {
			if (check_mul_overflow(v, 1024ULL, &v))
				return -EIO;
		} else if (*q) {
			return -EIO;
		}
		lines[n].name = line;
		lines[n].value = v;
		n++;
	}
	return n;
}

/* Read and parse a file of about @size bytes; *@text and *@lines to be
 * kvfree()d.
 */
static int memory_lines(const char *name, size_t size, char sep, char **text,
			struct memory_line **lines)
{
	size_t count = 1, len;
	const char *p;
	int n;

	*lines = NULL;
	/* world-readable, and the same in every namespace */
	*text = varlink_file_read_alloc(NULL, VARLINK_PROC, name, size,
					MEMORY_FILE_MAX, &len);
	if (IS_ERR(*text))
		return PTR_ERR(*text);
	for (p = *text; (p = strchr(p, '\n')); p++)
		count++;
	count = min_t(size_t, count, MEMORY_LINES_MAX);
	*lines = kvmalloc_array(count, sizeof(**lines), GFP_KERNEL_ACCOUNT);
	if (!*lines) {
		kvfree(*text);
		return -ENOMEM;
	}
	n = memory_parse(*text, sep, *lines, count);
	if (n < 0) {
		kvfree(*lines);
		kvfree(*text);
	}
	return n;
}

/* The lines as the members of the object @key. */
static void memory_put_map(struct varlink_call *call, const char *key,
			   const struct memory_line *lines, int n)
{
	int i;

	varlink_open_object(call, key);
	for (i = 0; i < n; i++)
		varlink_put_u64(call, lines[i].name, lines[i].value);
	varlink_close_object(call);
}

/* Get() -> (total, free, available, fields) */
static int memory_get(struct varlink_call *call, const void *params)
{
	static const char *const keys[][2] = {
		{ "total", "MemTotal" },
		{ "free", "MemFree" },
		{ "available", "MemAvailable" },
	};
	const struct memory_line *found[ARRAY_SIZE(keys)] = { };
	struct memory_line *lines;
	unsigned int k;
	char *text;
	int n, i;

	n = memory_lines("meminfo", PAGE_SIZE, ':', &text, &lines);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++)
		for (k = 0; k < ARRAY_SIZE(keys); k++)
			if (!found[k] && !strcmp(lines[i].name, keys[k][1]))
				found[k] = &lines[i];
	for (k = 0; k < ARRAY_SIZE(keys); k++) {
		if (!found[k]) {
			n = -EIO;
			goto out;
		}
		varlink_put_u64(call, keys[k][0], found[k]->value);
	}
	memory_put_map(call, "fields", lines, n);
	n = varlink_reply(call);
out:
	kvfree(lines);
	kvfree(text);
	return n;
}

/* GetStatistics() -> (counters) */
static int memory_get_statistics(struct varlink_call *call, const void *params)
{
	struct memory_line *lines;
	char *text;
	int n;

	n = memory_lines("vmstat", 2 * PAGE_SIZE, ' ', &text, &lines);
	if (n < 0)
		return n;
	memory_put_map(call, "counters", lines, n);
	kvfree(lines);
	kvfree(text);
	return varlink_reply(call);
}

static const struct varlink_method memory_methods[] = {
	{ .name = "Get", .call = memory_get, .flags = VARLINK_INLINE },
	{
		.name = "GetStatistics", .call = memory_get_statistics,
		.flags = VARLINK_INLINE,
	},
};

static const struct varlink_interface memory_iface = {
	.idl = memory_idl,
	VARLINK_METHODS(memory_methods),
	.flags = VARLINK_NETNS,
};
module_varlink_interface(memory_iface, "org.kernel.memory");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("org.kernel.memory varlink interface: meminfo and vmstat");
MODULE_AUTHOR("The kvarlink authors");
