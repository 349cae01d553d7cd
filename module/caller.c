// SPDX-License-Identifier: GPL-2.0
/*
 * What a call's caller may do: the core's security model, and what a
 * provider may ask of its caller.
 *
 * A call has two parties: the opener of its connection (peer.c), taken
 * once when the connection is accepted, and the sender of the call
 * (sender.c), the process that wrote it.  A provider sees both, with the
 * opener's namespaces, as one &struct varlink_caller.
 *
 * Privilege needs both.  A capability is granted only if the opener and
 * the sender both hold it, as netlink checks the socket's opener and the
 * sender (netlink_ns_capable(), after CVE-2014-0181); a call without a
 * sender holds none, and the current task's credentials play no part
 * (it may be a kworker, or the client's own task on the fast path).  The
 * capability is checked in the initial user namespace for host state
 * (VARLINK_CAPABLE, varlink_call_capable()); for state of the caller's
 * network namespace only, in the user namespace that owns it
 * (VARLINK_CAPABLE_NET, as genetlink's GENL_UNS_ADMIN_PERM); providers
 * name any other with varlink_call_ns_capable(), and check anything else
 * of a party's credentials with varlink_call_creds_allow().  Each check
 * has the LSMs' say: security_capable() is not exported in 6.1, so the
 * checked credentials override the current ones around
 * ns_capable_noaudit().  A file is opened as the lesser of the two
 * (vl_call_lesser_cred(), files.c).
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/nsproxy.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched/task.h>
#include <linux/user_namespace.h>
#include <linux/utsname.h>
#include <net/net_namespace.h>

#include "call.h"
#include "caller.h"
#include "peer.h"

/**
 * vl_cred_capable() - whether @cred holds @cap in a user namespace
 * @cred: the credentials to check, not the current task's
 * @ns: the user namespace
 * @cap: the capability
 *
 * Return: true if it does, with the LSMs' say (no audit record).
 */
bool vl_cred_capable(const struct cred *cred, struct user_namespace *ns,
		     int cap)
{
	const struct cred *old = override_creds(cred);
	bool ok = ns_capable_noaudit(ns, cap);

	revert_creds(old);
	return ok;
}

/**
 * vl_cred_caps_within() - whether one set of credentials holds every
 *	capability of another
 * @a: the credentials whose capabilities are looked for
 * @b: the credentials that may hold them
 *
 * Return: true if @b holds every capability @a holds.
 */
bool vl_cred_caps_within(const struct cred *a, const struct cred *b)
{
	return cap_issubset(a->cap_effective, b->cap_effective) &&
	       cap_issubset(a->cap_permitted, b->cap_permitted);
}

/**
 * varlink_call_caller() - who made a call
 * @call: the call
 *
 * Return: the caller, valid until the call's final reply; see &struct
 * varlink_caller.
 */
const struct varlink_caller *varlink_call_caller(const struct varlink_call *call)
{
	return &call->caller;
}
EXPORT_SYMBOL_GPL(varlink_call_caller);

/**
 * varlink_call_is_caller() - whether a task is of the calling process
 * @call: the call
 * @task: a task, with a reference
 *
 * Return: true if @task's process both opened the connection and sent
 * the call: what the kernel lets a process do to itself, a provider may
 * let it do to @task.
 */
bool varlink_call_is_caller(const struct varlink_call *call,
			    struct task_struct *task)
{
	struct pid *tgid = task_tgid(task);

	return tgid == call->caller.pid && tgid == call->sender_pid;
}
EXPORT_SYMBOL_GPL(varlink_call_is_caller);

/**
 * varlink_call_capable() - whether the caller holds a capability
 * @call: the call
 * @cap: the capability, e.g. CAP_SYS_ADMIN
 *
 * Both the task that opened the connection and the task that sent the
 * call must hold @cap in the initial user namespace, with the LSMs' say:
 * a privileged connection passed to, or inherited by, an unprivileged
 * task lends it nothing, and a privileged task writing on a connection
 * an unprivileged task opened (its stdout, say) lends nothing either.
 * The current task's credentials play no part.
 *
 * Context: process context.
 * Return: true if both hold @cap.
 */
bool varlink_call_capable(const struct varlink_call *call, int cap)
{
	return varlink_call_ns_capable(call, &init_user_ns, cap);
}
EXPORT_SYMBOL_GPL(varlink_call_capable);

/**
 * varlink_call_ns_capable() - whether the caller holds a capability in a
 *	user namespace
 * @call: the call
 * @ns: the user namespace, e.g. the owner of the namespace whose state
 *	the call would change
 * @cap: the capability
 *
 * As varlink_call_capable(), in @ns: both the opener and the sender must
 * hold @cap there.  Root in a container holds every capability in the
 * container's user namespace and none in the initial one.
 *
 * Context: process context.
 * Return: true if both hold @cap in @ns.
 */
bool varlink_call_ns_capable(const struct varlink_call *call,
			     struct user_namespace *ns, int cap)
{
	const struct varlink_caller *c = &call->caller;

	return c->sender_cred && vl_cred_capable(c->cred, ns, cap) &&
	       vl_cred_capable(c->sender_cred, ns, cap);
}
EXPORT_SYMBOL_GPL(varlink_call_ns_capable);

/**
 * varlink_call_creds_allow() - whether both parties of a call pass a check
 * @call: the call
 * @allow: the check, in process context, of credentials that are not the
 *	current task's; they are also made the current ones while it runs,
 *	so that capable() and the like in it see them
 * @data: passed to @allow
 *
 * Privilege needs both: @allow must pass for the opener and then for the
 * sender, as for varlink_call_capable(); a call without a sender passes
 * nothing.  For a kernel rule that looks at more than a capability (a
 * file's owner, a capability raised in the effective set).
 *
 * Context: process context.
 * Return: true if @allow passed for both.
 */
bool varlink_call_creds_allow(const struct varlink_call *call,
			      bool (*allow)(const struct cred *cred,
					    const void *data),
			      const void *data)
{
	const struct varlink_caller *c = &call->caller;
	const struct cred *parties[] = { c->cred, c->sender_cred };
	const struct cred *old;
	unsigned int i;
	bool ok = true;

	if (!c->sender_cred)
		return false;
	for (i = 0; ok && i < ARRAY_SIZE(parties); i++) {
		old = override_creds(parties[i]);
		ok = allow(parties[i], data);
		revert_creds(old);
	}
	return ok;
}
EXPORT_SYMBOL_GPL(varlink_call_creds_allow);

/**
 * vl_call_permitted() - whether a call holds what its method requires
 * @call: a call routed to its method
 *
 * A method flagged VARLINK_CAPABLE requires its capability of the opener
 * and the sender, in the initial user namespace; one flagged
 * VARLINK_CAPABLE_NET instead, in the user namespace that owns the
 * caller's network namespace (registration refuses both flags at once).
 *
 * Context: process context.
 * Return: true if the call may run.
 */
bool vl_call_permitted(const struct varlink_call *call)
{
	const struct varlink_method *m = call->method;
	struct user_namespace *ns;

	if (m->flags & VARLINK_CAPABLE_NET)
		ns = call->caller.net->user_ns;
	else if (m->flags & VARLINK_CAPABLE)
		ns = &init_user_ns;
	else
		return true;
	return varlink_call_ns_capable(call, ns, m->capability);
}

/**
 * vl_call_lesser_cred() - the credentials a call acts as on a file
 * @call: the call
 * @other: set to the credentials that must be allowed the access too,
 *	or NULL
 *
 * Privilege needs both: a file is opened as the lesser of the opener and
 * the sender, the one whose capabilities the other holds too (the sender
 * when they hold the same), so that what the file's handlers check of
 * the current credentials no party lacks; the other must then pass the
 * file's permission check too (files.c).  Two in different user
 * namespaces, or each holding a capability the other lacks, cannot be
 * ordered so.
 *
 * Return: a reference to the credentials to act as, or ERR_PTR(-EACCES)
 * for a call without a sender or whose credentials cannot be ordered.
 */
const struct cred *vl_call_lesser_cred(const struct varlink_call *call,
				       const struct cred **other)
{
	const struct cred *opener = call->caller.cred;
	const struct cred *sender = call->caller.sender_cred;

	*other = NULL;
	if (!sender || opener->user_ns != sender->user_ns)
		return ERR_PTR(-EACCES);
	if (opener == sender)
		return get_cred(sender);
	if (vl_cred_caps_within(sender, opener)) {
		*other = opener;
		return get_cred(sender);
	}
	if (vl_cred_caps_within(opener, sender)) {
		*other = sender;
		return get_cred(opener);
	}
	return ERR_PTR(-EACCES);
}
