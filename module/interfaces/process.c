// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.process: a process, by its id in the initial pid namespace,
 * as /proc/PID/stat and /proc/PID/status describe it.
 *
 * Callbacks run in a kworker: the caller is varlink_call_uid() and
 * varlink_call_capable(), never current, and pids are looked up in
 * &init_pid_ns explicitly, not in current's namespace.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/uidgid.h>
#include <varlink.h>

static const char process_idl[] =
"# The processes of the system.  Process ids are those of the initial pid\n"
"# namespace and user and group ids those of the initial user namespace,\n"
"# whatever the caller's namespaces are.\n"
"interface org.kernel.process\n"
"\n"
"# What a process is doing: the letter in field 3 of /proc/PID/stat.\n"
"type ProcessState (\n"
"  # R: running or ready to run\n"
"  running,\n"
"  # S: waiting for an event, interruptible\n"
"  sleeping,\n"
"  # D: waiting, uninterruptible (usually for I/O)\n"
"  disk_sleep,\n"
"  # T: stopped by a signal\n"
"  stopped,\n"
"  # t: stopped by a debugger\n"
"  tracing_stop,\n"
"  # X: dead, about to be freed\n"
"  dead,\n"
"  # Z: exited, not yet waited for by its parent\n"
"  zombie,\n"
"  # P: a parked kernel thread\n"
"  parked,\n"
"  # I: an idle kernel thread\n"
"  idle\n"
")\n"
"\n"
"# Describe a process.  A caller may look at the processes whose real and\n"
"# effective user ids are both its own effective user id; any other needs\n"
"# CAP_SYS_PTRACE in the initial user namespace, else PermissionDenied.\n"
"method GetProcess(\n"
"  # The process id (a thread group id; the ids of a process's other\n"
"  # threads are not found).  It must be positive.\n"
"  pid: int\n"
") -> (\n"
"  # The process id, as asked for.\n"
"  pid: int,\n"
"  # The id of its parent process; 0 for those the kernel started, pid 1\n"
"  # and kthreadd (field 4 of /proc/PID/stat).\n"
"  ppid: int,\n"
"  # The command name, at most 15 bytes (/proc/PID/comm); bytes that are\n"
"  # not UTF-8 show as U+FFFD.\n"
"  comm: string,\n"
"  # What it is doing.\n"
"  state: ProcessState,\n"
"  # The real user id (Uid in /proc/PID/status, the first number).\n"
"  uid: int,\n"
"  # The effective user id (the second number of Uid).\n"
"  euid: int,\n"
"  # The real group id (Gid in /proc/PID/status, the first number).\n"
"  gid: int,\n"
"  # The effective group id (the second number of Gid).\n"
"  egid: int,\n"
"  # Its threads (Threads in /proc/PID/status).\n"
"  threads: int,\n"
"  # When it started, in nanoseconds since boot, time suspended included\n"
"  # (CLOCK_BOOTTIME); field 22 of /proc/PID/stat is this in clock ticks.\n"
"  start_time: int,\n"
"  # Its resident memory in bytes (VmRSS in /proc/PID/status); 0 for\n"
"  # kernel threads and zombies, which have no memory of their own.\n"
"  rss: int\n"
")\n"
"\n"
"# No process has this id.\n"
"error ProcessNotFound (pid: int)\n";

/* ProcessState by task_state_index(), in the order of TASK_REPORT's bits */
static const char *const state_names[] = {
	"running", "sleeping", "disk_sleep", "stopped", "tracing_stop",
	"dead", "zombie", "parked", "idle",
};

struct get_process_params {
	s32 pid;
};

static const struct varlink_param get_process_params[] = {
	VARLINK_PARAM("pid", VARLINK_S32, struct get_process_params, pid),
};

/*
 * The thread group leader whose tgid is @nr in the initial pid namespace,
 * with a reference, or NULL.
 */
static struct task_struct *get_process_task(pid_t nr)
{
	struct task_struct *task;

	rcu_read_lock();
	task = pid_task(find_pid_ns(nr, &init_pid_ns), PIDTYPE_TGID);
	if (task)
		get_task_struct(task);
	rcu_read_unlock();
	return task;
}

/*
 * Whether the caller may look at @task: its own (real and effective uid
 * are the caller's euid), or with CAP_SYS_PTRACE.  The credentials are
 * the caller's, from the connection, not the kworker's.
 */
static bool may_read(struct varlink_call *call, struct task_struct *task)
{
	kuid_t uid = varlink_call_uid(call);
	const struct cred *tcred;
	bool own;

	rcu_read_lock();
	tcred = __task_cred(task);
	own = uid_eq(tcred->uid, uid) && uid_eq(tcred->euid, uid);
	rcu_read_unlock();
	return own || varlink_call_capable(call, CAP_SYS_PTRACE);
}

/**
 * put_process() - write what is known of @task into the reply
 * @call: the call
 * @task: a thread group leader, with a reference
 *
 * Computed the way fs/proc/array.c does for /proc/PID/stat and status.
 * Nothing is written under rcu_read_lock(): the reply may allocate.
 */
static void put_process(struct varlink_call *call, struct task_struct *task)
{
	struct user_namespace *ns = &init_user_ns;
	kuid_t uid, euid;
	kgid_t gid, egid;
	char comm[TASK_COMM_LEN];
	const struct cred *cred;
	struct mm_struct *mm;
	unsigned int state;
	u64 rss = 0;
	pid_t ppid;

	BUILD_BUG_ON(ARRAY_SIZE(state_names) != 1 + ilog2(TASK_REPORT_MAX));

	rcu_read_lock();
	ppid = pid_alive(task) ?
	       task_tgid_nr_ns(rcu_dereference(task->real_parent), &init_pid_ns) : 0;
	cred = __task_cred(task);
	uid = cred->uid;
	euid = cred->euid;
	gid = cred->gid;
	egid = cred->egid;
	rcu_read_unlock();
	get_task_comm(comm, task);
	state = task_state_index(task);

	mm = get_task_mm(task);
	if (mm) {
		rss = (u64)get_mm_rss(mm) << PAGE_SHIFT;
		mmput(mm);
	}

	varlink_put_s64(call, "ppid", ppid);
	varlink_put_str(call, "comm", comm);
	varlink_put_str(call, "state", state_names[state]);
	varlink_put_s64(call, "uid", from_kuid_munged(ns, uid));
	varlink_put_s64(call, "euid", from_kuid_munged(ns, euid));
	varlink_put_s64(call, "gid", from_kgid_munged(ns, gid));
	varlink_put_s64(call, "egid", from_kgid_munged(ns, egid));
	/* the signal struct lives as long as the task struct */
	varlink_put_s64(call, "threads", get_nr_threads(task));
	varlink_put_u64(call, "start_time", task->start_boottime);
	varlink_put_u64(call, "rss", rss);
}

static int get_process(struct varlink_call *call, const void *params)
{
	const struct get_process_params *p = params;
	struct task_struct *task;

	if (p->pid <= 0) {
		varlink_put_str(call, "parameter", "pid");
		return varlink_error(call,
				     "org.varlink.service.InvalidParameter");
	}
	task = get_process_task(p->pid);
	if (!task) {
		varlink_put_s64(call, "pid", p->pid);
		return varlink_error(call, "org.kernel.process.ProcessNotFound");
	}
	if (!may_read(call, task)) {
		put_task_struct(task);
		return -EPERM;
	}
	varlink_put_s64(call, "pid", p->pid);
	put_process(call, task);
	put_task_struct(task);
	return varlink_reply(call);
}

static const struct varlink_method process_methods[] = {
	{
		.name = "GetProcess",
		.call = get_process,
		.params = get_process_params,
		.n_params = ARRAY_SIZE(get_process_params),
		.params_size = sizeof(struct get_process_params),
	},
};

static const struct varlink_interface process_iface = {
	.idl = process_idl,
	.methods = process_methods,
	.n_methods = ARRAY_SIZE(process_methods),
	.owner = THIS_MODULE,
};

static int __init process_init(void)
{
	return varlink_register_interface(&process_iface);
}

static void __exit process_exit(void)
{
	varlink_unregister_interface(&process_iface);
}

module_init(process_init);
module_exit(process_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("org.kernel.process varlink interface: processes by pid");
