// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.pressure: pressure stall information (PSI), as
 * /proc/pressure shows it, with PSI triggers as streams.
 *
 * The figures are the whole system's, not namespaced: a container sees
 * the host's numbers, as it does in those files, so the interface is
 * served in every network namespace.
 *
 * /proc/pressure/<resource> cannot be read or written from the kernel
 * (it has no read_iter), so the figures come from the root cgroup's
 * <resource>.pressure, which shows the same psi_system group, read as
 * the kernel: it is world-readable.  A trigger is made the same way, in
 * a file of the root cgroup opened for the stream (see
 * pressure_monitor()), and psi's own rules apply to it: the file's f_cred
 * holds CAP_SYS_RESOURCE only if both the connection's opener and the
 * call's sender hold it, as psi looks at it (a raw cap_raised() of the
 * effective set, in whatever user namespace).
 *
 * A Monitor stream is kicked by the trigger's file (varlink_stream_poll()):
 * no worker waits while the stream does.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/varlink.h>

#define PRESSURE_ERR(name)	"org.kernel.pressure." name

/* psi_trigger_create()'s limits (kernel/sched/psi.c), in microseconds;
 * the lower one, 500000 before 6.4 (1 since), is left to the kernel
 */
#define PSI_WINDOW_MAX_US	10000000
/* the window of an unprivileged trigger is a multiple of this */
#define PSI_WINDOW_UNPRIV_US	2000000

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
	VARLINK_PARAM("resource", struct pressure_get_params,
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
 * @stream: the core's
 * @res: the resource
 * @file: the root cgroup's pressure file that holds the trigger
 * @poll: kicks @stream when the trigger fires
 * @fired: it fired before the stream started: @run is to send that
 */
struct pressure_monitor {
	struct varlink_stream stream;
	int res;
	struct file *file;
	struct varlink_poll poll;
	bool fired;
};

/* One reply each time the trigger fired: psi_trigger_poll() takes it. */
static int pressure_monitor_run(struct varlink_stream *stream)
{
	struct pressure_monitor *m = container_of(stream,
						  struct pressure_monitor,
						  stream);
	int err;

	if (!(vfs_poll(m->file, NULL) & EPOLLPRI) && !m->fired)
		return 0;
	m->fired = false;
	if (pressure_put(stream->call, m->res))
		return varlink_error(stream->call, PRESSURE_ERR("MonitorEnded"));
	err = varlink_stream_reply(stream);
	return err == -EAGAIN ? 0 : err;	/* once a window at most */
}

static int pressure_monitor_stop(struct varlink_stream *stream)
{
	return varlink_error(stream->call, PRESSURE_ERR("MonitorEnded"));
}

/* The trigger goes with its file. */
static void pressure_monitor_release(struct varlink_stream *stream)
{
	struct pressure_monitor *m = container_of(stream,
						  struct pressure_monitor,
						  stream);

	varlink_stream_unpoll(&m->poll);
	fput(m->file);
	kfree(m);
}

static const struct varlink_stream_ops pressure_monitor_ops = {
	.run = pressure_monitor_run,
	.stop = pressure_monitor_stop,
	.release = pressure_monitor_release,
};

/* Whether @cred raises CAP_SYS_RESOURCE in its effective set, in
 * whatever user namespace: psi's test of the file's f_cred.
 */
static bool pressure_raised(const struct cred *cred, const void *data)
{
	return cap_raised(cred->cap_effective, CAP_SYS_RESOURCE);
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
	VARLINK_PARAM("resource", struct pressure_monitor_params, resource),
	VARLINK_PARAM("full", struct pressure_monitor_params, full),
	VARLINK_PARAM("stall", struct pressure_monitor_params, stall),
	VARLINK_PARAM("window", struct pressure_monitor_params, window),
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

/* What a failure to set the trigger up tells the caller */
static int pressure_monitor_fail(struct varlink_call *call, int res, int err)
{
	if (pressure_unavailable(err))
		return pressure_error_unavailable(call, res);
	/* the shortest window: 0.5 s before 6.4 */
	if (err == -EINVAL)
		return varlink_error_invalid_parameter(call, "window");
	return err;
}

/* Set the trigger up in @m->file, and subscribe to it. */
static int pressure_monitor_arm(struct pressure_monitor *m,
				const struct pressure_monitor_params *p)
{
	char text[48];
	loff_t pos = 0;
	ssize_t n;

	snprintf(text, sizeof(text), "%s %lld %lld", p->full ? "full" : "some",
		 p->stall, p->window);
	n = kernel_write(m->file, text, strlen(text), &pos);
	if (n < 0)
		return n;
	m->fired = varlink_stream_poll(&m->stream, &m->poll, m->file) &
		   EPOLLPRI;
	/* the file has no wait queue: no trigger to wait for */
	return m->poll.whead ? 0 : -EIO;
}

/* Monitor(resource, full, stall, window) -> (some, full) */
static int pressure_monitor(struct varlink_call *call, const void *params)
{
	const struct pressure_monitor_params *p = params;
	int res = pressure_resource(p->resource);
	struct pressure_monitor *m;
	bool privileged;
	const char *bad;
	struct file *f;
	int err;

	if (res < 0)
		return varlink_error_invalid_parameter(call, "resource");
	/* Opening /proc/pressure/RES to write is what the kernel asks of
	 * the caller: its mode (0666), and the LSM's say.
	 */
	f = varlink_file_open(call, VARLINK_PROC, pressure_proc_files[res],
			      O_RDWR);
	if (IS_ERR(f))
		return pressure_monitor_fail(call, res, PTR_ERR(f));
	fput(f);

	privileged = varlink_call_creds_allow(call, pressure_raised, NULL);
	bad = pressure_invalid(p, res, privileged);
	if (bad)
		return varlink_error_invalid_parameter(call, bad);

	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	m->res = res;
	varlink_stream_init(&m->stream, &pressure_monitor_ops);
	m->file = pressure_open(res, privileged);
	err = IS_ERR(m->file) ? PTR_ERR(m->file) : pressure_monitor_arm(m, p);
	if (err) {
		if (!IS_ERR(m->file)) {
			varlink_stream_unpoll(&m->poll);
			fput(m->file);
		}
		kfree(m);
		return pressure_monitor_fail(call, res, err);
	}
	return varlink_stream_start(call, &m->stream);
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
		.flags = VARLINK_MORE_ONLY | VARLINK_STREAM,
	},
};

static const struct varlink_interface pressure_iface = {
	.idl = pressure_idl,
	VARLINK_METHODS(pressure_methods),
	.flags = VARLINK_NETNS,
};
module_varlink_interface(pressure_iface, "org.kernel.pressure");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("org.kernel.pressure varlink interface: PSI and its triggers");
MODULE_AUTHOR("The kvarlink authors");
