// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.process: a process, by its id in the caller's pid namespace,
 * as the caller's /proc/PID/stat and /proc/PID/status describe it.
 *
 * Callbacks run in a kworker: the caller is the connection's opener and
 * the call's sender, never current.  Pids are looked up and shown in the
 * caller's pid namespace (&varlink_caller.pid_ns), user and group ids in
 * its user namespace (&varlink_caller.user_ns), as a /proc the caller
 * mounted would: a process outside its pid namespace is not found, a
 * parent outside it shows as 0.
 *
 * A caller sees the processes /proc shows it when mounted with
 * hidepid=invisible, that is those ptrace_may_access() lets it read with
 * PTRACE_MODE_READ_FSCREDS; any other is not found, so that the answer
 * tells nothing about which pids exist.  As for ptrace, CAP_SYS_PTRACE
 * counts in the target's user namespace: root of a container reads the
 * container's processes, not the host's.
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
#include <linux/varlink.h>

#include "../compat.h"

static const char process_idl[] =
"# The processes of the caller's pid namespace.  Process ids are those of\n"
"# that namespace and user and group ids those of the caller's user\n"
"# namespace, as the caller's /proc shows them (an id not mapped there is\n"
"# 65534, the overflow id); a process outside its pid namespace is not\n"
"# found.\n"
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
"# Describe a process.  A caller sees the processes /proc shows it when\n"
"# mounted with hidepid=invisible: those whose user and group ids are all\n"
"# its own and that are dumpable, or any with CAP_SYS_PTRACE in the\n"
"# process's user namespace, as ptrace(2) checks it (root of a container\n"
"# sees the container's processes).  Both the task that opened the\n"
"# connection and the one that sent the call must see the process; any\n"
"# other is not found.\n"
"method GetProcess(\n"
"  # The process id in the caller's pid namespace (a thread group id; the\n"
"  # ids of a process's other threads are not found).  It must be\n"
"  # positive.\n"
"  pid: int\n"
") -> (\n"
"  # The process id, as asked for.\n"
"  pid: int,\n"
"  # The id of its parent process; 0 for those the kernel started, pid 1\n"
"  # and kthreadd, and for one whose parent is outside the caller's pid\n"
"  # namespace, as for its init (field 4 of /proc/PID/stat, getppid(2)).\n"
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
"  # (CLOCK_BOOTTIME, as the caller's time namespace shows it); field 22\n"
"  # of /proc/PID/stat is this in clock ticks.\n"
"  start_time: int,\n"
"  # Its resident memory in bytes (VmRSS in /proc/PID/status); 0 for\n"
"  # kernel threads and zombies, which have no memory of their own.\n"
"  rss: int\n"
")\n"
"\n"
"# No process with this id, or none the caller may see.\n"
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
	VARLINK_PARAM("pid", struct get_process_params, pid),
};

/* The thread group leader whose tgid is @nr in @ns, with a reference, or
 * NULL: none outside @ns has a number there.
 */
static struct task_struct *get_process_task(pid_t nr, struct pid_namespace *ns)
{
	struct task_struct *task;

	rcu_read_lock();
	task = pid_task(find_pid_ns(nr, ns), PIDTYPE_TGID);
	if (task)
		get_task_struct(task);
	rcu_read_unlock();
	return task;
}

/* Whether @cred may read @task's /proc files: the credential part of
 * __ptrace_may_access() with PTRACE_MODE_READ_FSCREDS, which modules
 * cannot call.  The caller's fsuid and fsgid must be all of the task's
 * uids and gids, and the task dumpable, unless the caller has
 * CAP_SYS_PTRACE over the task's user namespace (and that of its
 * executable, for dumpability).  LSM
 * ptrace hooks are not consulted: they are not exported either.
 */
static bool cred_may_read(const struct cred *cred, const void *data)
{
	struct task_struct *task = (struct task_struct *)data;
	const struct cred *tcred;
	struct user_namespace *ns;
	bool ok;

	rcu_read_lock();
	tcred = __task_cred(task);
	ok = (uid_eq(cred->fsuid, tcred->euid) &&
	      uid_eq(cred->fsuid, tcred->suid) &&
	      uid_eq(cred->fsuid, tcred->uid) &&
	      gid_eq(cred->fsgid, tcred->egid) &&
	      gid_eq(cred->fsgid, tcred->sgid) &&
	      gid_eq(cred->fsgid, tcred->gid)) ||
	     ns_capable_noaudit(tcred->user_ns, CAP_SYS_PTRACE);
	rcu_read_unlock();

	task_lock(task);
	rcu_read_lock();
	if (ok && !vl_task_dumpable(task, &ns))
		ok = ns_capable_noaudit(ns, CAP_SYS_PTRACE);
	rcu_read_unlock();
	task_unlock(task);
	return ok;
}

/* A process may read itself; otherwise both the connection's opener and
 * the call's sender must be allowed to read @task.
 */
static bool may_read(struct varlink_call *call, struct task_struct *task)
{
	return varlink_call_is_caller(call, task) ||
	       varlink_call_creds_allow(call, cred_may_read, task);
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
	const struct varlink_caller *caller = varlink_call_caller(call);
	struct pid_namespace *pid_ns = caller->pid_ns;
	struct user_namespace *user_ns = caller->user_ns;
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
	/* 0 for a parent outside @pid_ns, as getppid(2) says */
	ppid = pid_alive(task) ?
	       task_tgid_nr_ns(rcu_dereference(task->real_parent), pid_ns) : 0;
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
	varlink_put_s64(call, "uid", from_kuid_munged(user_ns, uid));
	varlink_put_s64(call, "euid", from_kuid_munged(user_ns, euid));
	varlink_put_s64(call, "gid", from_kgid_munged(user_ns, gid));
	varlink_put_s64(call, "egid", from_kgid_munged(user_ns, egid));
	/* the signal struct lives as long as the task struct */
	varlink_put_s64(call, "threads", get_nr_threads(task));
	/* as /proc shows it to the caller's time namespace */
	varlink_put_s64(call, "start_time",
			task->start_boottime + caller->boottime_offset);
	varlink_put_u64(call, "rss", rss);
}

static int get_process(struct varlink_call *call, const void *params)
{
	const struct get_process_params *p = params;
	struct task_struct *task;

	if (p->pid <= 0)
		return varlink_error_invalid_parameter(call, "pid");
	task = get_process_task(p->pid, varlink_call_caller(call)->pid_ns);
	if (task && !may_read(call, task)) {
		put_task_struct(task);
		task = NULL;
	}
	if (!task) {
		varlink_put_s64(call, "pid", p->pid);
		return varlink_error(call, "org.kernel.process.ProcessNotFound");
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
		VARLINK_PARAMS(get_process_params, struct get_process_params),
	},
};

static const struct varlink_interface process_iface = {
	.idl = process_idl,
	VARLINK_METHODS(process_methods),
	.flags = VARLINK_NETNS,
};
module_varlink_interface(process_iface, "org.kernel.process");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("org.kernel.process varlink interface: processes by pid");
