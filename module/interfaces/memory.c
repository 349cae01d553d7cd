// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.memory and org.kernel.pressure: the system's memory, as
 * /proc/meminfo and /proc/vmstat show it, and pressure stall information
 * (PSI), as /proc/pressure shows it, with PSI triggers as streams.
 *
 * One module serves both interfaces: they read the same kind of file the
 * same way, and a monitoring agent wants both.
 *
 * None of this is namespaced: a container sees the host's numbers, as it
 * does in those files (unless lxcfs or the like covers them there), so
 * both interfaces are served in every network namespace.  The files are
 * world-readable and are read as the kernel (varlink_file_read() with no
 * call): the core's procfs mount belongs to the initial pid namespace,
 * and these files are the same in every one.
 *
 * /proc/pressure/<resource> cannot be read or written from the kernel
 * (it has no read_iter), so the figures come from the root cgroup's
 * <resource>.pressure, which shows the same psi_system group.  A trigger
 * is made the same way, in a file of the root cgroup opened for the
 * stream (see pressure_monitor()), and psi's own rules apply to it: the
 * file's f_cred holds CAP_SYS_RESOURCE only if both the connection's
 * opener and the call's sender hold it, as psi looks at it (a raw
 * cap_raised() of the effective set, in whatever user namespace).
 *
 * A Monitor stream waits on the trigger's file with vfs_poll() and a
 * wait queue entry of its own, whose wake function queues the stream's
 * work item on pressure_wq, as vhost does: no worker is parked while
 * the stream waits.  Only that work item ends a live stream and frees it;
 * the cancel callback and module exit ask it to, under pressure_lock.
 * The lock order is pressure_lock, then the core's own locks.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/poll.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/varlink.h>

#include "../compat.h"

#define PRESSURE_ERR(name)	"org.kernel.pressure." name

/* The largest /proc/meminfo or /proc/vmstat read (vmstat is ~6 KiB) */
#define MEMORY_FILE_MAX		(64 * 1024)
/* The most lines taken from one (vmstat has ~190 on 7.3) */
#define MEMORY_LINES_MAX	1024
/* The longest name of a line ("nr_foll_pin_acquired" and the like) */
#define MEMORY_NAME_MAX		64

/* psi_trigger_create()'s limits (kernel/sched/psi.c), in microseconds;
 * the lower one, 500000 before 6.4 (1 since), is left to the kernel
 */
#define PSI_WINDOW_MAX_US	10000000
/* the window of an unprivileged trigger is a multiple of this */
#define PSI_WINDOW_UNPRIV_US	2000000

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

static const char pressure_idl[] =
"# Pressure stall information (PSI): the share of time in which tasks\n"
"# waited for a resource, as /proc/pressure shows it, and triggers that\n"
"# fire when stalls pass a threshold.  The figures are the whole system's\n"
"# and are not namespaced: a caller in a container gets the host's, as\n"
"# /proc/pressure shows them there.  Reading needs no privilege.\n"
"interface org.kernel.pressure\n"
"\n"
"# A resource tasks stall on: cpu (/proc/pressure/cpu), memory, io, and\n"
"# irq (time taken by interrupts, only on kernels that account it:\n"
"# CONFIG_IRQ_TIME_ACCOUNTING, and a kernel with irq pressure).\n"
"type Resource (cpu, memory, io, irq)\n"
"\n"
"# The stall figures of one line of /proc/pressure/RESOURCE.\n"
"type Stall (\n"
"  # The share of the last 10 seconds in which tasks stalled, in percent,\n"
"  # with two decimals (avg10).\n"
"  avg10: float,\n"
"  # The same over the last 60 seconds (avg60).\n"
"  avg60: float,\n"
"  # The same over the last 300 seconds (avg300).\n"
"  avg300: float,\n"
"  # The time stalled since boot, in microseconds (total).\n"
"  total: int\n"
")\n"
"\n"
"# The stall figures of a resource, as /proc/pressure/RESOURCE has them.\n"
"# Fails with PressureUnavailable where the kernel has no such file.\n"
"method Get(resource: Resource) -> (\n"
"  # Some tasks stalled (the \"some\" line); null for irq, which has none.\n"
"  some: ?Stall,\n"
"  # All non-idle tasks stalled at once (the \"full\" line).  For cpu the\n"
"  # kernel prints it with zeros at the system level, and so does this.\n"
"  full: ?Stall\n"
")\n"
"\n"
"# Stream a PSI trigger: what writing \"some STALL WINDOW\" (or \"full ...\")\n"
"# to /proc/pressure/RESOURCE and polling it does.  Call it with \"more\",\n"
"# else org.varlink.service.ExpectedMore.  Nothing is sent when the\n"
"# trigger is set; then each time it fires, at most once per window, one\n"
"# reply with \"continues\" gives the figures of the resource at that time.\n"
"# The stream goes on until the client hangs up, or its connection is\n"
"# closed because it does not read its replies, or the interface goes\n"
"# away (MonitorEnded).  The kernel's rules for triggers apply, and what it\n"
"# refuses is InvalidParameter naming the parameter: window up to 10000000\n"
"# and from 500000 (from 1 since Linux 6.4), stall from 1 to window, irq\n"
"# only with full; and a window that is not a multiple of 2000000 (2 s)\n"
"# unless both the task that opened the connection and the one that sent\n"
"# the call have CAP_SYS_RESOURCE in their effective set, in whatever user\n"
"# namespace, as the kernel checks the opener of the file.  Streams count\n"
"# against the server's stream quotas (org.kernel.varlink.TooManyStreams).\n"
"# Fails with PressureUnavailable where the kernel has no such file.\n"
"method Monitor(\n"
"  # The resource to watch.\n"
"  resource: Resource,\n"
"  # Watch the \"full\" stall (all non-idle tasks at once) rather than\n"
"  # \"some\" (the default).\n"
"  full: ?bool,\n"
"  # The threshold: stalled time within a window that fires the trigger,\n"
"  # in microseconds.\n"
"  stall: int,\n"
"  # The window the stall is measured over, in microseconds.\n"
"  window: int\n"
") -> (\n"
"  # As Get's, when the trigger fired.\n"
"  some: ?Stall,\n"
"  # As Get's, when the trigger fired.\n"
"  full: ?Stall\n"
")\n"
"\n"
"# The kernel has no pressure figures for this resource: PSI is off (psi=0\n"
"# on the command line, or CONFIG_PSI_DEFAULT_DISABLED without psi=1, or\n"
"# cgroup_disable=pressure, or no CONFIG_PSI or CONFIG_CGROUPS) or, for\n"
"# irq, it does not account the time of interrupts.\n"
"error PressureUnavailable (resource: Resource)\n"
"\n"
"# The end of a Monitor stream: the interface is going away (its module\n"
"# is unloaded), or the figures could not be read when the trigger fired.\n"
"error MonitorEnded ()\n";

/**
 * memory_read() - a whole file of the core's mounts, read as the kernel
 * @fs: the mount
 * @name: the file's name in it
 * @size: the size to try first, that the file most likely fits in
 *
 * For world-readable files only.  The buffer grows until the file fits,
 * up to MEMORY_FILE_MAX bytes.  It is not made larger than it needs to be:
 * kernels that zero what they allocate (init_on_alloc) would zero it all.
 *
 * Return: the text, NUL-terminated, to be freed with kvfree(); or an
 * ERR_PTR().
 */
static char *memory_read(enum varlink_fs fs, const char *name, size_t size)
{
	ssize_t n;
	char *buf;

	for (;;) {
		buf = kvmalloc(size, GFP_KERNEL_ACCOUNT);
		if (!buf)
			return ERR_PTR(-ENOMEM);
		n = varlink_file_read(NULL, fs, name, buf, size);
		if (n >= 0)
			return buf;
		kvfree(buf);
		if (n != -EFBIG || size >= MEMORY_FILE_MAX)
			return ERR_PTR(n);
		size *= 2;
	}
}

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
	const char *p;
	size_t count = 1;
	int n;

	*lines = NULL;
	*text = memory_read(VARLINK_PROC, name, size);
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
	.methods = memory_methods,
	.n_methods = ARRAY_SIZE(memory_methods),
	.flags = VARLINK_NETNS,
};

/* org.kernel.pressure */

enum pressure_resource {
	PRESSURE_CPU,
	PRESSURE_MEMORY,
	PRESSURE_IO,
	PRESSURE_IRQ,
	PRESSURE_COUNT,
};

static const char *const pressure_names[PRESSURE_COUNT] = {
	[PRESSURE_CPU] = "cpu",
	[PRESSURE_MEMORY] = "memory",
	[PRESSURE_IO] = "io",
	[PRESSURE_IRQ] = "irq",
};

/* The files of the root cgroup, on the core's cgroup2 mount */
static const char *const pressure_cgroup_files[PRESSURE_COUNT] = {
	[PRESSURE_CPU] = "cpu.pressure",
	[PRESSURE_MEMORY] = "memory.pressure",
	[PRESSURE_IO] = "io.pressure",
	[PRESSURE_IRQ] = "irq.pressure",
};

/* The files of procfs, for the permission to open them */
static const char *const pressure_proc_files[PRESSURE_COUNT] = {
	[PRESSURE_CPU] = "pressure/cpu",
	[PRESSURE_MEMORY] = "pressure/memory",
	[PRESSURE_IO] = "pressure/io",
	[PRESSURE_IRQ] = "pressure/irq",
};

/* A resource's name (validated against the IDL's enum by the core) */
static int pressure_resource(const char *name)
{
	int i;

	for (i = 0; i < PRESSURE_COUNT; i++)
		if (name && !strcmp(name, pressure_names[i]))
			return i;
	return -EINVAL;
}

/**
 * struct pressure_stall - one line of a pressure file
 * @avg: avg10, avg60 and avg300, in hundredths of a percent
 * @total: total, in microseconds
 * @present: the file has the line
 */
struct pressure_stall {
	u64 avg[3];
	u64 total;
	bool present;
};

/* The errors of a pressure file that mean the kernel has none to give */
static bool pressure_unavailable(int err)
{
	return err == -ENOENT || err == -ENODEV || err == -EOPNOTSUPP;
}

static int pressure_error_unavailable(struct varlink_call *call, int res)
{
	varlink_put_str(call, "resource", pressure_names[res]);
	return varlink_error(call, PRESSURE_ERR("PressureUnavailable"));
}

/**
 * pressure_read() - the stall figures of a resource
 * @res: the resource
 * @some: set to the "some" line
 * @full: set to the "full" line
 *
 * Reads the root cgroup's file, which psi_show() prints from psi_system
 * as it prints /proc/pressure/@res: "some avg10=0.00 avg60=0.00
 * avg300=0.00 total=0", then the same for "full"; irq has the full line
 * only.
 *
 * Return: 0, -ENOENT (or another errno of pressure_unavailable()) when
 * the kernel has no such file, -EIO for one that does not parse.
 */
static int pressure_read(int res, struct pressure_stall *some,
			 struct pressure_stall *full)
{
	char buf[256], kind[5], *line, *next;
	unsigned long i[3], f[3];
	unsigned long long total;
	struct pressure_stall *s;
	ssize_t n;
	int k;

	memset(some, 0, sizeof(*some));
	memset(full, 0, sizeof(*full));
	n = varlink_file_read(NULL, VARLINK_CGROUP2,
			      pressure_cgroup_files[res], buf, sizeof(buf));
	if (n < 0)
		return n == -EFBIG ? -EIO : n;
	for (line = buf; *line; line = next) {
		next = strchrnul(line, '\n');
		if (*next)
			*next++ = '\0';
		if (sscanf(line, "%4s avg10=%lu.%lu avg60=%lu.%lu avg300=%lu.%lu total=%llu",
			   kind, &i[0], &f[0], &i[1], &f[1], &i[2], &f[2],
			   &total) != 8)
			return -EIO;
		if (!strcmp(kind, "some"))
			s = some;
		else if (!strcmp(kind, "full"))
			s = full;
		else
			return -EIO;
		if (s->present)
			return -EIO;
		for (k = 0; k < 3; k++) {
			/* two decimals, as LOAD_FRAC() gives them */
			if (f[k] > 99)
				return -EIO;
			s->avg[k] = (u64)i[k] * 100 + f[k];
		}
		s->total = total;
		s->present = true;
	}
	return some->present || full->present ? 0 : -EIO;
}

static void pressure_put_stall(struct varlink_call *call, const char *key,
			       const struct pressure_stall *s)
{
	if (!s->present)
		return;
	varlink_open_object(call, key);
	varlink_put_fixed(call, "avg10", s->avg[0], 2);
	varlink_put_fixed(call, "avg60", s->avg[1], 2);
	varlink_put_fixed(call, "avg300", s->avg[2], 2);
	varlink_put_u64(call, "total", s->total);
	varlink_close_object(call);
}

/* Read @res and write its figures into the next reply. */
static int pressure_put(struct varlink_call *call, int res)
{
	struct pressure_stall some, full;
	int err;

	err = pressure_read(res, &some, &full);
	if (err)
		return err;
	pressure_put_stall(call, "some", &some);
	pressure_put_stall(call, "full", &full);
	return 0;
}

struct pressure_get_params {
	const char *resource;
};

static const struct varlink_param pressure_get_params[] = {
	VARLINK_PARAM("resource", VARLINK_STRING, struct pressure_get_params,
		      resource),
};

/* Get(resource) -> (some, full) */
static int pressure_get(struct varlink_call *call, const void *params)
{
	const struct pressure_get_params *p = params;
	int res = pressure_resource(p->resource);
	int err;

	if (res < 0)
		return varlink_error_invalid_parameter(call, "resource");
	err = pressure_put(call, res);
	if (pressure_unavailable(err))
		return pressure_error_unavailable(call, res);
	if (err)
		return err;
	return varlink_reply(call);
}

/**
 * struct pressure_monitor - a Monitor stream
 * @node: on pressure_monitors until the stream's final reply
 * @id: identifies the stream to the cancel callback; never reused
 * @call: the call
 * @res: the resource
 * @file: the root cgroup's pressure file that holds the trigger
 * @whead: the wait queue of @file that @wait is on, once vfs_poll() told
 * @wait: on @whead: its wake function queues @work
 * @pt: the poll table that puts @wait on @whead
 * @work: sends a reply when the trigger fired, or ends the stream
 * @live: set up: @work may send replies
 * @ending: asked to end (the cancel callback, module exit)
 * @fired: the first vfs_poll() took an event: @work is to send it
 *
 * @node, @live, @ending and @fired are under pressure_lock, which @work
 * holds as it runs.  Only @work ends a stream that was set up, so it is the only
 * writer of the replies, and the only one to free the stream.
 */
struct pressure_monitor {
	struct list_head node;
	unsigned long id;
	struct varlink_call *call;
	int res;
	struct file *file;
	wait_queue_head_t *whead;
	wait_queue_entry_t wait;
	poll_table pt;
	struct work_struct work;
	bool live;
	bool ending;
	bool fired;
};

static DEFINE_MUTEX(pressure_lock);
static LIST_HEAD(pressure_monitors);
static unsigned long pressure_next_id;
static bool pressure_stopping;	/* module exit: no new stream */
static struct workqueue_struct *pressure_wq;

static struct pressure_monitor *pressure_monitor_find(unsigned long id)
{
	struct pressure_monitor *m;

	lockdep_assert_held(&pressure_lock);
	list_for_each_entry(m, &pressure_monitors, node)
		if (m->id == id)
			return m;
	return NULL;
}

/* The wake function of @file's wait queue: called from psi, under the
 * queue's lock, maybe in atomic context.
 */
static int pressure_wake(wait_queue_entry_t *wait, unsigned int mode,
			 int sync, void *key)
{
	struct pressure_monitor *m = container_of(wait, struct pressure_monitor,
						  wait);

	queue_work(pressure_wq, &m->work);
	return 0;
}

/* The poll table's callback: vfs_poll() gives the file's wait queue. */
static void pressure_queue_proc(struct file *file, wait_queue_head_t *whead,
				poll_table *pt)
{
	struct pressure_monitor *m = container_of(pt, struct pressure_monitor,
						  pt);

	if (m->whead)
		return;
	m->whead = whead;
	add_wait_queue(whead, &m->wait);
}

/* Take @m off its wait queue and close its file: the trigger goes. */
static void pressure_monitor_release(struct pressure_monitor *m)
{
	if (m->whead)
		remove_wait_queue(m->whead, &m->wait);
	m->whead = NULL;
	fput(m->file);
}

/**
 * pressure_monitor_end() - end a stream with its final reply
 * @m: the stream, from its own work item
 * @err: why: 0 (asked to), or the error of the reply that failed
 *
 * As network.c's: -ECANCELED leaves the parameters of that reply written,
 * a whole reply, which becomes the final one; otherwise the stream ends
 * with MonitorEnded, which reaches no client that is gone.  Frees @m,
 * whose work item is running: nothing queues it any more (it is off the
 * list and off the wait queue), and what was queued is cancelled.
 */
static void pressure_monitor_end(struct pressure_monitor *m, int err)
{
	lockdep_assert_held(&pressure_lock);
	list_del(&m->node);
	pressure_monitor_release(m);
	if (err == -ECANCELED)
		varlink_reply(m->call);
	else
		varlink_error(m->call, PRESSURE_ERR("MonitorEnded"));
	cancel_work(&m->work);
	kfree(m);
}

static void pressure_monitor_work(struct work_struct *work)
{
	struct pressure_monitor *m = container_of(work, struct pressure_monitor,
						  work);
	__poll_t mask;
	int err;

	mutex_lock(&pressure_lock);
	if (m->ending) {
		pressure_monitor_end(m, 0);
	} else if (m->live) {
		/* psi_trigger_poll() takes the event: one reply per firing */
		mask = vfs_poll(m->file, NULL);
		if ((mask & EPOLLPRI) || m->fired) {
			m->fired = false;
			err = pressure_put(m->call, m->res);
			if (!err)
				err = varlink_reply_continues(m->call);
			if (err)
				pressure_monitor_end(m, err);
		}
	}
	mutex_unlock(&pressure_lock);
}

/* The core's cancel callback: the client went away, or the interface
 * goes.  It may come at any time, even after the final reply: @data is
 * the stream's id, and only a stream still on the list is asked to end.
 */
static void pressure_monitor_cancel(struct varlink_call *call, void *data)
{
	struct pressure_monitor *m;

	mutex_lock(&pressure_lock);
	m = pressure_monitor_find((unsigned long)data);
	if (m) {
		m->ending = true;
		queue_work(pressure_wq, &m->work);
	}
	mutex_unlock(&pressure_lock);
}

/* Whether both the opener and the sender raise @cap in their effective
 * set, in whatever user namespace: psi's test of the file's f_cred.
 */
static bool pressure_raised(struct varlink_call *call, int cap)
{
	const struct cred *opener = varlink_call_cred(call);
	const struct cred *sender = varlink_call_sender_cred(call);

	return opener && sender && cap_raised(opener->cap_effective, cap) &&
	       cap_raised(sender->cap_effective, cap);
}

/**
 * pressure_open() - the root cgroup's pressure file, as psi is to see it
 * @res: the resource
 * @privileged: whether the trigger may have any window
 *
 * Opened as root of the initial user namespace (the file is 0644 root),
 * with no capability but CAP_SYS_RESOURCE, and that only if @privileged:
 * psi_trigger_create() looks at the file's f_cred.
 *
 * Return: the file, or an ERR_PTR().
 */
static struct file *pressure_open(int res, bool privileged)
{
	struct cred *cred = prepare_kernel_cred(&init_task);
	kernel_cap_t caps = CAP_EMPTY_SET;
	struct file *f;

	if (!cred)
		return ERR_PTR(-ENOMEM);
	if (privileged)
		cap_raise(caps, CAP_SYS_RESOURCE);
	cred->cap_effective = caps;
	cred->cap_permitted = caps;
	cred->cap_inheritable = CAP_EMPTY_SET;
	cred->cap_bset = caps;
	cred->cap_ambient = CAP_EMPTY_SET;
	f = varlink_file_open_cred(cred, VARLINK_CGROUP2,
				   pressure_cgroup_files[res], O_RDWR);
	put_cred(cred);
	return f;
}

struct pressure_monitor_params {
	const char *resource;
	bool full;
	s64 stall;
	s64 window;
};

static const struct varlink_param pressure_monitor_params[] = {
	VARLINK_PARAM("resource", VARLINK_STRING,
		      struct pressure_monitor_params, resource),
	VARLINK_PARAM("full", VARLINK_BOOL, struct pressure_monitor_params,
		      full),
	VARLINK_PARAM("stall", VARLINK_S64, struct pressure_monitor_params,
		      stall),
	VARLINK_PARAM("window", VARLINK_S64, struct pressure_monitor_params,
		      window),
};

/* psi_trigger_create()'s checks, in its order, to name what it refuses;
 * what differs between kernels (the shortest window) it is left to say
 */
static const char *pressure_invalid(const struct pressure_monitor_params *p,
				    int res, bool privileged)
{
	if (res == PRESSURE_IRQ && !p->full)
		return "full";
	if (p->window <= 0 || p->window > PSI_WINDOW_MAX_US)
		return "window";
	if (!privileged && p->window % PSI_WINDOW_UNPRIV_US)
		return "window";
	if (p->stall <= 0 || p->stall > p->window)
		return "stall";
	return NULL;
}

/* Monitor(resource, full, stall, window) -> (some, full) */
static int pressure_monitor(struct varlink_call *call, const void *params)
{
	const struct pressure_monitor_params *p = params;
	int res = pressure_resource(p->resource);
	struct pressure_monitor *m;
	bool privileged, stopping;
	const char *bad;
	char text[48];
	unsigned long id;
	struct file *f;
	loff_t pos = 0;
	ssize_t n;
	__poll_t mask;

	if (res < 0)
		return varlink_error_invalid_parameter(call, "resource");
	/* Opening /proc/pressure/RES to write is what the kernel asks of
	 * the caller: its mode (0666), and the LSM's say.
	 */
	f = varlink_file_open(call, VARLINK_PROC, pressure_proc_files[res],
			      O_RDWR);
	if (IS_ERR(f)) {
		if (pressure_unavailable(PTR_ERR(f)))
			return pressure_error_unavailable(call, res);
		return PTR_ERR(f);
	}
	fput(f);

	privileged = pressure_raised(call, CAP_SYS_RESOURCE);
	bad = pressure_invalid(p, res, privileged);
	if (bad)
		return varlink_error_invalid_parameter(call, bad);

	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	m->call = call;
	m->res = res;
	INIT_WORK(&m->work, pressure_monitor_work);
	init_waitqueue_func_entry(&m->wait, pressure_wake);
	init_poll_funcptr(&m->pt, pressure_queue_proc);

	m->file = pressure_open(res, privileged);
	if (IS_ERR(m->file)) {
		n = PTR_ERR(m->file);
		kfree(m);
		if (pressure_unavailable(n))
			return pressure_error_unavailable(call, res);
		return n;
	}
	snprintf(text, sizeof(text), "%s %lld %lld", p->full ? "full" : "some",
		 p->stall, p->window);
	n = kernel_write(m->file, text, strlen(text), &pos);
	if (n < 0) {
		fput(m->file);
		kfree(m);
		if (pressure_unavailable(n))
			return pressure_error_unavailable(call, res);
		/* the shortest window: 0.5 s before 6.4 */
		if (n == -EINVAL)
			return varlink_error_invalid_parameter(call, "window");
		return n;
	}

	/* On the file's wait queue from here: the work item may be queued,
	 * and does nothing until the stream is live.
	 */
	mask = vfs_poll(m->file, &m->pt);

	mutex_lock(&pressure_lock);
	m->fired = mask & EPOLLPRI;
	stopping = pressure_stopping;
	if (!stopping && m->whead) {
		id = ++pressure_next_id;
		m->id = id;
		list_add_tail(&m->node, &pressure_monitors);
	}
	mutex_unlock(&pressure_lock);
	if (stopping || !m->whead) {
		/* never on the list: nobody else queues the work item */
		pressure_monitor_release(m);
		cancel_work_sync(&m->work);
		kfree(m);
		if (stopping)
			return varlink_error(call, PRESSURE_ERR("MonitorEnded"));
		/* the file has no wait queue: no trigger to wait for */
		return -EIO;
	}

	/* Not live yet: the work item ends the stream only when asked to,
	 * which the cancel callback does, and it only runs from now on.
	 */
	varlink_call_set_cancel(call, pressure_monitor_cancel, NULL,
				(void *)id);

	mutex_lock(&pressure_lock);
	m = pressure_monitor_find(id);	/* NULL: ended by the cancel */
	if (m) {
		if (pressure_stopping)
			m->ending = true;
		m->live = true;
		/* a firing before the stream was live is sent now */
		queue_work(pressure_wq, &m->work);
	}
	mutex_unlock(&pressure_lock);
	return -EINPROGRESS;
}

static const struct varlink_method pressure_methods[] = {
	{
		.name = "Get", .call = pressure_get,
		VARLINK_PARAMS(pressure_get_params, struct pressure_get_params),
		.flags = VARLINK_INLINE,
	},
	{
		.name = "Monitor", .call = pressure_monitor,
		VARLINK_PARAMS(pressure_monitor_params,
			       struct pressure_monitor_params),
		.flags = VARLINK_MORE | VARLINK_MORE_ONLY | VARLINK_STREAM,
	},
};

static const struct varlink_interface pressure_iface = {
	.idl = pressure_idl,
	.methods = pressure_methods,
	.n_methods = ARRAY_SIZE(pressure_methods),
	.flags = VARLINK_NETNS,
};

static int __init memory_init(void)
{
	int err;

	pressure_wq = alloc_workqueue("varlink_pressure", WQ_UNBOUND, 0);
	if (!pressure_wq)
		return -ENOMEM;
	err = varlink_register_interface(&memory_iface);
	if (err)
		goto out_wq;
	err = varlink_register_interface(&pressure_iface);
	if (err)
		goto out_memory;
	return 0;

out_memory:
	varlink_unregister_interface(&memory_iface);
out_wq:
	destroy_workqueue(pressure_wq);
	return err;
}

static void __exit memory_exit(void)
{
	struct pressure_monitor *m;

	/* End the live streams with MonitorEnded, from their work items; a
	 * stream not live yet ends in pressure_monitor(), and none starts
	 * from now on.
	 */
	mutex_lock(&pressure_lock);
	pressure_stopping = true;
	list_for_each_entry(m, &pressure_monitors, node) {
		if (m->live) {
			m->ending = true;
			queue_work(pressure_wq, &m->work);
		}
	}
	mutex_unlock(&pressure_lock);

	/* waits for every call, hence for every stream's final reply */
	varlink_unregister_interface(&pressure_iface);
	varlink_unregister_interface(&memory_iface);
	/* and the work items' last steps after it */
	destroy_workqueue(pressure_wq);
	WARN_ON(!list_empty(&pressure_monitors));
}

module_init(memory_init);
module_exit(memory_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("org.kernel.memory and org.kernel.pressure varlink interfaces: meminfo, vmstat and PSI");
MODULE_AUTHOR("The kvarlink authors");
