// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.system: the running system in one call (what uname(2),
 * /proc/uptime, /proc/meminfo, /proc/loadavg and /sys/devices/system/cpu
 * say), setting the host name, and the kernel command line.
 *
 * The names are those of the caller's UTS namespace
 * (&varlink_caller.uts_ns), as uname(2) gives them to the caller; the
 * rest is the whole system's, as /proc and /sys show it in a container.
 *
 * The module uses exported symbols only, so that it loads on a stock
 * kernel.  Three things the kernel keeps to itself in 6.1:
 *  - uts_sem, which serialises changes of the host name: the name is set
 *    by writing kernel.hostname through the kernel's own sysctl handler,
 *    which takes it (and notifies pollers, as sethostname(2) does).  The
 *    handler sets the name of the writer's UTS namespace, the initial
 *    one, which is why SetHostname serves callers there only;
 *  - si_swapinfo() and total_swap_pages: the swap totals are read from
 *    /proc/meminfo (only with CONFIG_SWAP; without it there is no swap);
 *  - nr_running() and nr_threads: threads are counted by walking the task
 *    list under RCU.
 * Both files are reached through the core's internal procfs mount
 * (varlink_file_read(), varlink_file_write()), which belongs to the
 * initial namespaces.  saved_command_line is not exported either:
 * GetCommandLine reads /proc/cmdline there too.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched/loadavg.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/swap.h>
#include <linux/timekeeping.h>
#include <linux/utsname.h>
#include <linux/vmstat.h>
#include <linux/varlink.h>

static const char system_idl[] =
"# The running system: its names, how long it has been up, its memory,\n"
"# load and CPUs; setting its host name; its command line.  Values are\n"
"# read when the call is made.  The host and domain names are those of\n"
"# the caller's UTS namespace, as uname(2) gives them to it; the other\n"
"# values are the whole system's, as /proc and /sys show them in a\n"
"# container too.\n"
"interface org.kernel.system\n"
"\n"
"# Describe the system.  Memory sizes are in bytes.\n"
"method Describe() -> (\n"
"  # The kernel's name, \"Linux\" (uname -s).\n"
"  sysname: string,\n"
"  # The host name (uname -n, /proc/sys/kernel/hostname).\n"
"  nodename: string,\n"
"  # The kernel release, e.g. \"6.1.0-57-amd64\" (uname -r).\n"
"  release: string,\n"
"  # The kernel's build number and date (uname -v).\n"
"  version: string,\n"
"  # The hardware, e.g. \"x86_64\" (uname -m).\n"
"  machine: string,\n"
"  # The NIS domain name (/proc/sys/kernel/domainname), \"(none)\" if unset.\n"
"  domainname: string,\n"
"  # Seconds since boot, time suspended included, with six decimals\n"
"  # (CLOCK_BOOTTIME, the first number of /proc/uptime), as the caller's\n"
"  # time namespace shows it.\n"
"  uptime: float,\n"
"  # When the system booted, in seconds since 1970-01-01 UTC (btime in\n"
"  # /proc/stat, as the caller's time namespace shows it); it moves when\n"
"  # the clock is set.\n"
"  boot_time: int,\n"
"  # RAM the kernel manages (MemTotal in /proc/meminfo).\n"
"  memory_total: int,\n"
"  # RAM not used at all (MemFree).\n"
"  memory_free: int,\n"
"  # An estimate of the RAM that can be had without swapping (MemAvailable).\n"
"  memory_available: int,\n"
"  # RAM caching block devices (Buffers).\n"
"  memory_buffers: int,\n"
"  # RAM caching files, buffers and the swap cache not included (Cached).\n"
"  memory_cached: int,\n"
"  # RAM in shared memory and tmpfs (Shmem).\n"
"  memory_shared: int,\n"
"  # Swap space (SwapTotal); 0 without swap.\n"
"  swap_total: int,\n"
"  # Swap space not in use (SwapFree).\n"
"  swap_free: int,\n"
"  # The load average over 1 minute, with two decimals (/proc/loadavg).\n"
"  load_1: float,\n"
"  # The load average over 5 minutes.\n"
"  load_5: float,\n"
"  # The load average over 15 minutes.\n"
"  load_15: float,\n"
"  # Threads running or ready to run, by their state.\n"
"  tasks_running: int,\n"
"  # Threads in the system, kernel threads included, idle tasks not\n"
"  # (the number after the slash in /proc/loadavg).\n"
"  tasks_total: int,\n"
"  # CPUs online (/sys/devices/system/cpu/online).\n"
"  cpus_online: int,\n"
"  # CPUs present (/sys/devices/system/cpu/present).\n"
"  cpus_present: int,\n"
"  # CPUs that could ever be online (/sys/devices/system/cpu/possible).\n"
"  cpus_possible: int\n"
")\n"
"\n"
"# Set the host name, like sethostname(2).  The caller needs CAP_SYS_ADMIN\n"
"# in the initial user namespace, and must be in the initial UTS\n"
"# namespace: the name of another (a container's) is not set from here,\n"
"# and the host's never for a caller in another.  Else PermissionDenied.\n"
"method SetHostname(\n"
"  # The new name: 1 to 64 ASCII letters, digits, \"-\" and \".\", not\n"
"  # starting with \"-\" or \".\"; anything else is InvalidParameter.\n"
"  hostname: string\n"
") -> ()\n"
"\n"
"# The kernel command line, as /proc/cmdline has it: what the boot loader\n"
"# gave, with what bootconfig added.  Anybody may read it.\n"
"method GetCommandLine() -> (\n"
"  # The line, without the newline /proc/cmdline ends with; bytes that are\n"
"  # not UTF-8 become U+FFFD.\n"
"  cmdline: string,\n"
"  # The line cut into arguments as the kernel cuts it for its parameters\n"
"  # (next_arg() in lib/cmdline.c), in order, \"--\" and what follows it\n"
"  # included: at white space (the kernel's isspace(), which counts the\n"
"  # Latin-1 no-break space 0xa0 too) outside double quotes.  Quotes stay,\n"
"  # except these, which the kernel removes: one that starts the argument\n"
"  # and then its last character if that is a quote; one right after the\n"
"  # first \"=\" and then the last character if that is a quote.  Thus\n"
"  # 'a=\"b c\"' is 'a=b c', and '\"x y\"' is 'x y'.\n"
"  arguments: []string\n"
")\n";

/* /proc files, world-readable ones and kernel.hostname, which SetHostname
 * writes once its caller is checked, on the core's internal procfs mount
 * (that of the initial pid namespace, its sysctls the initial
 * namespaces'), as the kernel.
 */
static int procfs_write(const char *name, const char *buf, size_t len)
{
	return varlink_file_write(NULL, VARLINK_PROC, name, buf, len);
}

/* Read the procfs file @name into @buf, NUL-terminated. */
static int procfs_read(const char *name, char *buf, size_t size)
{
	ssize_t n = varlink_file_read(NULL, VARLINK_PROC, name, buf, size);

	return n < 0 ? n : 0;
}

/* The value of @key (e.g. "SwapTotal:") in /proc/meminfo @text, in bytes. */
static int meminfo_bytes(const char *text, const char *key, u64 *bytes)
{
	const char *p = strstr(text, key);
	unsigned long long kib;

	/* each key starts a line; the first line is MemTotal */
	if (!p || p == text || p[-1] != '\n')
		return -EIO;
	if (sscanf(p + strlen(key), "%llu kB", &kib) != 1)
		return -EIO;
	*bytes = kib * 1024;
	return 0;
}

/**
 * swap_info() - total and free swap space
 * @total: set to the swap space, in bytes
 * @free: set to the swap space not in use, in bytes
 *
 * si_swapinfo() is not exported: both come from the kernel's own
 * /proc/meminfo, so that they belong together (during swapoff, both
 * count the area being removed).
 *
 * Return: 0 or a negative errno.
 */
static int swap_info(u64 *total, u64 *free)
{
	char *text;
	int err;

	*total = 0;
	*free = 0;
	if (!IS_ENABLED(CONFIG_SWAP))
		return 0;
	text = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	err = procfs_read("meminfo", text, PAGE_SIZE);
	if (!err)
		err = meminfo_bytes(text, "SwapTotal:", total);
	if (!err)
		err = meminfo_bytes(text, "SwapFree:", free);
	kfree(text);
	return err;
}

/* Pages in the swap cache, as /proc/meminfo's total_swapcache_pages(). */
static unsigned long swapcache_pages(void)
{
#ifdef CONFIG_SWAP
	return global_node_page_state(NR_SWAPCACHE);
#else
	return 0;
#endif
}

static void put_memory(struct varlink_call *call)
{
	struct sysinfo si;
	long available, cached;
	u64 unit;

	si_meminfo(&si);
	available = si_mem_available();
	/* computed like /proc/meminfo does */
	cached = global_node_page_state(NR_FILE_PAGES) - swapcache_pages() -
		 si.bufferram;
	if (cached < 0)
		cached = 0;
	unit = si.mem_unit;
	varlink_put_u64(call, "memory_total", si.totalram * unit);
	varlink_put_u64(call, "memory_free", si.freeram * unit);
	varlink_put_u64(call, "memory_available", available * unit);
	varlink_put_u64(call, "memory_buffers", si.bufferram * unit);
	varlink_put_u64(call, "memory_cached", cached * unit);
	varlink_put_u64(call, "memory_shared", si.sharedram * unit);
}

/* One load average, rounded to two decimals as /proc/loadavg does. */
static void put_load(struct varlink_call *call, const char *key,
		     unsigned int i)
{
	unsigned long a = READ_ONCE(avenrun[i]) + FIXED_1 / 200;

	varlink_put_fixed(call, key, LOAD_INT(a) * 100 + LOAD_FRAC(a), 2);
}

/* Count the threads, and those running or runnable.  nr_running() and
 * nr_threads are not exported; the task list is, through init_task, and
 * holds the same threads nr_threads counts (not the idle tasks).  A
 * thread's state is a snapshot: the count is close to nr_running(),
 * the number of threads on the run queues, not equal to it.
 */
static void put_tasks(struct varlink_call *call)
{
	struct task_struct *p, *t;
	u64 running = 0, total = 0;

	rcu_read_lock();
	for_each_process_thread(p, t) {
		total++;
		if (task_is_running(t))
			running++;
	}
	rcu_read_unlock();
	varlink_put_u64(call, "tasks_running", running);
	varlink_put_u64(call, "tasks_total", total);
}

/* One field of utsname.  uts_sem is not exported: a concurrent change of
 * the host name could show here half written, but never unterminated (a
 * name is at most __NEW_UTS_LEN bytes and the last byte stays NUL), as
 * for the kernel's other readers that do without the lock.
 */
static void put_uts(struct varlink_call *call, const char *key,
		    const char *field)
{
	varlink_put_str_len(call, key, field, strnlen(field, __NEW_UTS_LEN));
}

static int describe(struct varlink_call *call, const void *params)
{
	const struct varlink_caller *caller = varlink_call_caller(call);
	struct uts_namespace *uts_ns = caller->uts_ns;
	const struct new_utsname *uts;
	struct timespec64 boot;
	u64 swap_total, swap_free;
	s64 uptime;
	int err;

	/* the caller had exited before it was accepted: nobody to tell */
	if (!uts_ns)
		return -ESRCH;
	uts = &uts_ns->name;
	err = swap_info(&swap_total, &swap_free);
	if (err)
		return err;

	put_uts(call, "sysname", uts->sysname);
	put_uts(call, "nodename", uts->nodename);
	put_uts(call, "release", uts->release);
	put_uts(call, "version", uts->version);
	put_uts(call, "machine", uts->machine);
	put_uts(call, "domainname", uts->domainname);

	/* as /proc shows them to the caller's time namespace */
	uptime = ktime_get_boottime_ns() + caller->boottime_offset;
	varlink_put_fixed(call, "uptime",
			  div_s64(max_t(s64, uptime, 0), NSEC_PER_USEC), 6);
	getboottime64(&boot);
	varlink_put_s64(call, "boot_time",
			boot.tv_sec - div_s64(caller->boottime_offset,
					      NSEC_PER_SEC));

	put_memory(call);
	varlink_put_u64(call, "swap_total", swap_total);
	varlink_put_u64(call, "swap_free", swap_free);

	put_load(call, "load_1", 0);
	put_load(call, "load_5", 1);
	put_load(call, "load_15", 2);
	put_tasks(call);

	varlink_put_u64(call, "cpus_online", num_online_cpus());
	varlink_put_u64(call, "cpus_present", num_present_cpus());
	varlink_put_u64(call, "cpus_possible", num_possible_cpus());
	return varlink_reply(call);
}

struct set_hostname_params {
	const char *hostname;
};

static const struct varlink_param set_hostname_params[] = {
	VARLINK_PARAM("hostname", struct set_hostname_params,
		      hostname),
};

/* 1 to __NEW_UTS_LEN of [A-Za-z0-9.-], not starting with '-' or '.'. */
static bool hostname_valid(const char *s)
{
	size_t len = strlen(s), i;

	if (!len || len > __NEW_UTS_LEN || s[0] == '-' || s[0] == '.')
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		/* not isalnum(): the kernel's ctype knows Latin-1 letters */
		if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
		    !(c >= '0' && c <= '9') && c != '-' && c != '.')
			return false;
	}
	return true;
}

/* The caller's CAP_SYS_ADMIN in the initial user namespace, the owner of
 * the initial UTS namespace, was checked by the core (VARLINK_CAPABLE).
 * The write goes through the sysctl handler of kernel.hostname, as the
 * kworker (root, initial UTS namespace): it takes uts_sem and notifies
 * pollers of the file, like sethostname(2).  It sets the name of the
 * kworker's UTS namespace: a caller in another one is refused, rather
 * than renaming the host.  Setting the name of the caller's namespace
 * would need uts_sem, which 6.1 does not export.
 */
static int set_hostname(struct varlink_call *call, const void *params)
{
	const struct set_hostname_params *p = params;
	int err;

	if (varlink_call_caller(call)->uts_ns != &init_uts_ns)
		return -EPERM;
	if (!hostname_valid(p->hostname))
		return varlink_error_invalid_parameter(call, "hostname");
	err = procfs_write("sys/kernel/hostname", p->hostname,
			   strlen(p->hostname));
	if (err)
		return err;
	return varlink_reply(call);
}

/* The longest /proc/cmdline read: COMMAND_LINE_SIZE, which is 2048 on
 * x86 and at most 4096 elsewhere, plus what bootconfig adds (at most
 * XBC_DATA_MAX, 32 KiB).
 */
#define SYSTEM_CMDLINE_MAX	(64 * 1024)

/* The arguments of @args (cut up in place), as parse_args() takes them
 * with the kernel's own next_arg(): "param" or "param=value", without the
 * quotes it removes.  @scratch holds at least strlen(@args) + 1 bytes.
 */
static void put_arguments(struct varlink_call *call, char *args,
			  char *scratch)
{
	char *param, *val;

	varlink_open_array(call, "arguments");
	args = skip_spaces(args);
	while (*args) {
		args = next_arg(args, &param, &val);
		if (!val) {
			varlink_put_str(call, NULL, param);
			continue;
		}
		/* both lie within the argument, which is no longer */
		snprintf(scratch, strlen(param) + strlen(val) + 2, "%s=%s",
			 param, val);
		varlink_put_str(call, NULL, scratch);
	}
	varlink_close_array(call);
}

static int get_command_line(struct varlink_call *call, const void *params)
{
	char *cmdline, *args;
	size_t len;
	int err;

	/* world-readable (0444), the same in every namespace */
	cmdline = varlink_file_read_alloc(NULL, VARLINK_PROC, "cmdline",
					  PAGE_SIZE, SYSTEM_CMDLINE_MAX, &len);
	if (!IS_ERR(cmdline) && len && cmdline[len - 1] == '\n')
		cmdline[--len] = '\0';
	if (IS_ERR(cmdline))
		return PTR_ERR(cmdline);
	/* a copy to cut up, and room for one argument */
	args = kvmalloc(2 * (len + 1), GFP_KERNEL_ACCOUNT);
	if (!args) {
		kvfree(cmdline);
		return -ENOMEM;
	}
	memcpy(args, cmdline, len + 1);
	varlink_put_str_len(call, "cmdline", cmdline, len);
	put_arguments(call, args, args + len + 1);
	err = varlink_reply(call);
	kvfree(args);
	kvfree(cmdline);
	return err;
}

static const struct varlink_method system_methods[] = {
	{ .name = "Describe", .call = describe },
	{
		.name = "SetHostname",
		.call = set_hostname,
		VARLINK_PARAMS(set_hostname_params, struct set_hostname_params),
		.flags = VARLINK_CAPABLE,
		.capability = CAP_SYS_ADMIN,
	},
	{ .name = "GetCommandLine", .call = get_command_line },
};

static const struct varlink_interface system_iface = {
	.idl = system_idl,
	VARLINK_METHODS(system_methods),
	.flags = VARLINK_NETNS,
};
module_varlink_interface(system_iface, "org.kernel.system");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("org.kernel.system varlink interface: the system and its host name");
