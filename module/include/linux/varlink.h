/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The varlink core's API for provider modules: serve a varlink interface
 * from the kernel.
 *
 * A provider describes its interface with the IDL text (UAPI.20 varlink
 * interface definition, served verbatim by GetInterfaceDescription) and a
 * static const table of methods, and hands both to
 * varlink_register_interface(), or lets module_varlink_interface() do it
 * at module init.  The core checks the table against the IDL, validates
 * every call against the IDL before the callback runs, checks the
 * method's permission flags against the caller's credentials, decodes
 * the parameters into the method's C struct, and pins the module that
 * registered the interface while the callback runs.
 *
 * Who calls: &struct varlink_caller, varlink_call_caller().  A
 * connection has an opener, the task that connected, and each call a
 * sender, the process that wrote it; they differ when the descriptor was
 * inherited or passed.  A privilege is granted only if both hold it
 * (varlink_call_capable(), varlink_call_creds_allow()), as netlink does.
 *
 * Callbacks run in process context (a kworker, not the caller's task) and
 * may sleep.  Each call ends with exactly one final reply, sent with
 * varlink_reply() or varlink_error(); see &struct varlink_method.  A call
 * that goes on replying (a replay, a monitor) is a stream, which the
 * core runs: see &struct varlink_stream.
 */
#ifndef _VARLINK_H
#define _VARLINK_H

#include <linux/build_bug.h>
#include <linux/container_of.h>
#include <linux/cred.h>
#include <linux/device/driver.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/workqueue.h>

struct cgroup_namespace;
struct net;
struct pid_namespace;
struct task_struct;
struct user_namespace;
struct uts_namespace;
struct varlink_call;

/**
 * enum varlink_param_type - C type of a decoded parameter
 * @VARLINK_BOOL: bool
 * @VARLINK_S64: s64 (IDL "int")
 * @VARLINK_U64: u64 (IDL "int"; a negative value is an invalid parameter)
 * @VARLINK_S32: s32 (IDL "int"; out of range is an invalid parameter)
 * @VARLINK_U32: u32 (IDL "int"; out of range is an invalid parameter)
 * @VARLINK_STRING: ``const char *``, NUL-terminated, unescaped; a string
 *	with an embedded U+0000 is an invalid parameter
 * @VARLINK_JSON: struct varlink_json: the raw, validated JSON text of the
 *	value (arrays, maps, structs, "object", "any", "float")
 * @VARLINK_OPT_S64: struct varlink_opt_s64 (IDL "?int"): whether it is
 *	there, and its value
 *
 * An absent or null (nullable) parameter leaves the member zeroed; a
 * pointer is valid until the callback returns.  The type of a parameter
 * is that of its member, see VARLINK_PARAM().
 */
enum varlink_param_type {
	VARLINK_BOOL,
	VARLINK_S64,
	VARLINK_U64,
	VARLINK_S32,
	VARLINK_U32,
	VARLINK_STRING,
	VARLINK_JSON,
	VARLINK_OPT_S64,
};

/**
 * struct varlink_json - the JSON text of a parameter
 * @text: the value as it came from the client, not NUL-terminated;
 *	NULL when the parameter is absent or null
 * @len: bytes of @text
 */
struct varlink_json {
	const char *text;
	size_t len;
};

/**
 * struct varlink_json_iter - a walk of the elements of a JSON array, or
 *	of the members of a JSON object (a map or a struct)
 * @pos: the core's: where the next element starts
 * @end: the core's: the end of the text
 * @object: the core's: the walk is of an object's members
 *
 * For a VARLINK_JSON parameter: varlink_json_iter_init(), then
 * varlink_json_iter_next() until it returns 0; varlink_json_str()
 * decodes a string of it.
 */
struct varlink_json_iter {
	const char *pos;
	const char *end;
	bool object;
};

int varlink_json_iter_init(struct varlink_json_iter *it,
			   const struct varlink_json *v);
int varlink_json_iter_next(struct varlink_json_iter *it,
			   struct varlink_json *key, struct varlink_json *val);
int varlink_json_str(const struct varlink_json *v, char *buf, size_t size);

/**
 * struct varlink_opt_s64 - a nullable integer parameter
 * @value: its value; 0 when absent
 * @present: false when the parameter is absent or null
 */
struct varlink_opt_s64 {
	s64 value;
	bool present;
};

/**
 * struct varlink_param - where one parameter goes in the method's struct
 * @name: the parameter's name in the IDL
 * @type: the C type of the member
 * @offset: offsetof() the member
 */
struct varlink_param {
	const char *name;
	enum varlink_param_type type;
	size_t offset;
};

/**
 * __VARLINK_PARAM_TYPE() - the parameter type of a C type
 * @type: a C type, e.g. u32
 *
 * A constant expression, as __builtin_types_compatible_p() is; it ignores
 * the qualifiers of @type itself (a const u32 is a u32), not those of
 * what a pointer points to (a ``char *`` is no ``const char *``).
 *
 * Return: the enum varlink_param_type that stands for @type, or -1 if
 * none does.
 */
#define __VARLINK_PARAM_TYPE(type)					\
	(__builtin_types_compatible_p(type, bool) ? VARLINK_BOOL :	\
	 __builtin_types_compatible_p(type, s64) ? VARLINK_S64 :	\
	 __builtin_types_compatible_p(type, u64) ? VARLINK_U64 :	\
	 __builtin_types_compatible_p(type, s32) ? VARLINK_S32 :	\
	 __builtin_types_compatible_p(type, u32) ? VARLINK_U32 :	\
	 __builtin_types_compatible_p(type, const char *) ?		\
		VARLINK_STRING :					\
	 __builtin_types_compatible_p(type, struct varlink_json) ?	\
		VARLINK_JSON :						\
	 __builtin_types_compatible_p(type, struct varlink_opt_s64) ?	\
		VARLINK_OPT_S64 : -1)

/**
 * __VARLINK_PARAM_CHECK() - the parameter type of a C type, checked at
 *	build time
 * @type: the C type of a member
 *
 * Return: the enum varlink_param_type that stands for @type; if none
 * does, the build fails.
 */
#define __VARLINK_PARAM_CHECK(type)					\
	(__VARLINK_PARAM_TYPE(type) +					\
	 BUILD_BUG_ON_ZERO(__VARLINK_PARAM_TYPE(type) < 0))

/**
 * VARLINK_PARAM() - one entry of a method's parameter table
 * @_name: the parameter's name in the IDL, e.g. "pid"
 * @_struct: the type of the struct the parameters are decoded into,
 *	e.g. struct foo_params
 * @_member: the member of @_struct that receives the parameter
 *
 * The parameter's type is the C type of @_member: bool, s64, u64, s32,
 * u32, ``const char *``, struct varlink_json or struct varlink_opt_s64
 * (see enum varlink_param_type).  The build fails for a member of any
 * other type (a long, a char array, a ``char *`` that is not const), and
 * registration refuses one the IDL's type does not fit.
 */
#define VARLINK_PARAM(_name, _struct, _member)				\
	{								\
		.name = (_name),					\
		.type = __VARLINK_PARAM_CHECK(typeof_member(_struct,	\
							    _member)),	\
		.offset = offsetof(_struct, _member),			\
	}

/**
 * VARLINK_PARAMS_SIZE_MAX - the largest struct a method's parameters are
 *	decoded into, in bytes
 *
 * VARLINK_PARAMS() fails the build for a larger one, and registration
 * refuses a &struct varlink_method.params_size above it.
 */
#define VARLINK_PARAMS_SIZE_MAX	1024

/**
 * VARLINK_PARAMS() - a method's parameter table and the struct it fills
 * @_table: the array of struct varlink_param (an array, not a pointer)
 * @_struct: the type of the struct, e.g. struct foo_params
 *
 * In the initializer of a struct varlink_method, sets .params, .n_params
 * and .params_size; the build fails if @_struct is larger than
 * VARLINK_PARAMS_SIZE_MAX.  (.n_params is ARRAY_SIZE(), spelled out so
 * that checkpatch sees no reuse of @_table: the other uses are sizeof.)
 */
#define VARLINK_PARAMS(_table, _struct)					\
	.params = (_table),						\
	.n_params = sizeof(_table) / sizeof((_table)[0]) +		\
		__must_be_array(_table),				\
	.params_size = sizeof(_struct) +				\
		BUILD_BUG_ON_ZERO(sizeof(_struct) > VARLINK_PARAMS_SIZE_MAX)

/**
 * VARLINK_MORE - &struct varlink_method.flags: the method may stream
 *
 * Called with "more", the method may send replies with
 * varlink_reply_continues() before its final one; without "more", it
 * sends the final reply only.
 */
#define VARLINK_MORE		0x1

/**
 * VARLINK_MORE_ONLY - &struct varlink_method.flags: only called with "more"
 *
 * A call without "more" gets org.varlink.service.ExpectedMore and the
 * callback never runs.  For a method that only streams (a monitor); it
 * implies VARLINK_MORE.
 */
#define VARLINK_MORE_ONLY	0x2

/**
 * VARLINK_CAPABLE - &struct varlink_method.flags: the caller needs a
 *	capability of the host
 *
 * Both the opener and the sender of the call must hold
 * &struct varlink_method.capability in the initial user namespace.  Not
 * with VARLINK_CAPABLE_NET.
 */
#define VARLINK_CAPABLE		0x4

/**
 * VARLINK_INLINE - &struct varlink_method.flags: the callback may run in
 *	the caller's task
 *
 * The core may run the callback in the task that sent the call, inside
 * its sendmsg(), rather than in a kworker: see &struct varlink_method
 * for what such a callback must not do.
 */
#define VARLINK_INLINE		0x8

/**
 * VARLINK_CAPABLE_NET - &struct varlink_method.flags: the caller needs a
 *	capability over its network namespace
 *
 * Both the opener and the sender of the call must hold
 * &struct varlink_method.capability in the user namespace that owns the
 * caller's network namespace: root in a container holds it there.  For
 * methods that change only state of that namespace.  Not with
 * VARLINK_CAPABLE.
 */
#define VARLINK_CAPABLE_NET	0x10

/**
 * VARLINK_STREAM - &struct varlink_method.flags: a call with "more" is a
 *	stream that counts against the core's stream quotas
 *
 * For a method that may stream for long (a monitor, a large replay).  A
 * call made with "more" is admitted before the callback runs, or gets
 * org.kernel.varlink.TooManyStreams: at most max_streams run in the whole
 * system, the last max_streams / 8 of them kept for callers with
 * CAP_SYS_ADMIN in the initial user namespace; a user without it runs at
 * most max_streams_per_user (counted by &varlink_caller.user in its
 * &varlink_caller.tenant), a container at most max_streams_per_container.
 * The stream counts until its final reply.  It implies VARLINK_MORE; not
 * with VARLINK_INLINE.  Such a method's callback, called with "more",
 * starts a &struct varlink_stream.
 */
#define VARLINK_STREAM		0x20

/**
 * VARLINK_READY - &struct varlink_method.flags: a stream's first reply
 *	is {"ready": true}
 *
 * For a monitor whose client must know when it cannot miss an event any
 * more (one it causes next, say): varlink_stream_start() sends the reply
 * {"ready": true} before any other of the stream, once the provider has
 * subscribed to what it watches.  With VARLINK_STREAM; the method's
 * output must have a member "ready" of type ?bool.
 */
#define VARLINK_READY		0x40

/**
 * struct varlink_method - one method of an interface
 * @name: the method's name as declared in the IDL, e.g. "GetInfo"
 * @call: the callback, or NULL for a method declared but not implemented
 *	(calls get org.varlink.service.MethodNotImplemented)
 * @params: how to decode the parameters into a struct of @params_size
 *	bytes, or NULL; every entry must name an input parameter of the
 *	method with a compatible type
 * @n_params: entries in @params
 * @params_size: size of the struct @params decode into, at most
 *	VARLINK_PARAMS_SIZE_MAX
 * @flags: VARLINK_MORE, VARLINK_MORE_ONLY, VARLINK_CAPABLE,
 *	VARLINK_CAPABLE_NET, VARLINK_INLINE, VARLINK_STREAM, VARLINK_READY
 * @capability: with VARLINK_CAPABLE, the capability (e.g. CAP_SYS_ADMIN)
 *	that both the connection's opener and the call's sender must hold
 *	in the initial user namespace (varlink_call_capable()), or with
 *	VARLINK_CAPABLE_NET, in the user namespace that owns the caller's
 *	network namespace (for state of that namespace only: root in a
 *	container has it there); otherwise the call gets
 *	org.varlink.service.PermissionDenied and the callback never runs.
 *	A method sets one of the two flags or neither; registration
 *	refuses both, and either with an invalid capability
 *
 * A VARLINK_INLINE method may run in the task of the caller that sent the
 * call, inside its sendmsg(), which saves two thread switches per call:
 * it must not sleep for long (no waiting on I/O or on other tasks; a
 * short mutex is fine), and it must not depend on the current task.  Of
 * an interface served in the initial network namespace only, it runs
 * there only when that task's namespaces are all the initial ones, a
 * kworker's: kernel code it calls that looks at current->nsproxy (a file
 * of /proc/sys) then answers as it would in a kworker.  Other methods
 * always run in a kworker.
 *
 * @call receives the decoded parameters (NULL when @params_size is 0),
 * valid until it returns, and returns:
 *
 *  - 0 once it has sent the final reply with varlink_reply() or
 *    varlink_error(); returning 0 without one is a bug (WARN_ONCE), and
 *    the client gets an error;
 *  - -EINPROGRESS to finish the call later, from any process context
 *    (a work item, a notifier): the call stays valid until its final
 *    reply, see varlink_call_set_cancel(); a stream's callback returns
 *    varlink_stream_start()'s -EINPROGRESS;
 *  - a negative errno, without having replied: the core replies with an
 *    error: -EPERM and -EACCES PermissionDenied, -EOPNOTSUPP
 *    MethodNotImplemented, anything else, -EINVAL included,
 *    org.kernel.varlink.SystemError {"errno": -err}.
 *
 * A parameter that the IDL allows but the method refuses is reported with
 * varlink_error_invalid_parameter(), which names it: InvalidParameter
 * always says which parameter is invalid.
 *
 * Set @params, @n_params and @params_size with VARLINK_PARAMS().
 */
struct varlink_method {
	const char *name;
	int (*call)(struct varlink_call *call, const void *params);
	const struct varlink_param *params;
	unsigned int n_params;
	size_t params_size;
	unsigned int flags;
	int capability;
};

/**
 * VARLINK_NETNS - &struct varlink_interface.flags: served in every
 *	network namespace
 *
 * For an interface that answers every caller in the caller's own
 * namespaces; see &struct varlink_interface.
 */
#define VARLINK_NETNS		0x1

/**
 * struct varlink_interface - an interface served by a provider module
 * @idl: the interface description; its name is taken from its
 *	"interface" line; it must stay valid while registered (static const)
 * @methods: one entry per method the IDL declares, no more, no less
 * @n_methods: entries in @methods
 * @flags: VARLINK_NETNS for an interface that answers every caller in
 *	its own namespaces (&struct varlink_caller) and so may be
 *	served to containers; without it, the interface is served in the
 *	initial network namespace only, and is not found elsewhere
 *
 * The module that registers it is its owner: see
 * __varlink_register_interface().
 */
struct varlink_interface {
	const char *idl;
	const struct varlink_method *methods;
	unsigned int n_methods;
	unsigned int flags;
};

/**
 * VARLINK_METHODS() - an interface's method table
 * @_table: the array of struct varlink_method (an array, not a pointer)
 *
 * In the initializer of a struct varlink_interface, sets .methods and
 * .n_methods.
 */
#define VARLINK_METHODS(_table)						\
	.methods = (_table),						\
	.n_methods = sizeof(_table) / sizeof((_table)[0]) +		\
		__must_be_array(_table)

int __varlink_register_interface(const struct varlink_interface *iface,
				 struct module *owner);
void varlink_unregister_interface(const struct varlink_interface *iface);

/**
 * varlink_register_interface() - serve an interface of the calling module
 * @iface: the interface, static const
 *
 * __varlink_register_interface() with the calling module as the owner,
 * which the core pins while a callback runs.
 *
 * Return: 0, or a negative errno: see __varlink_register_interface().
 */
#define varlink_register_interface(iface)				\
	__varlink_register_interface(iface, THIS_MODULE)

/**
 * MODULE_ALIAS_VARLINK_INTERFACE() - load this module when its interface
 *	is first called
 * @name: the interface's name, as the "interface" line of its IDL says,
 *	a string literal, e.g. "org.kernel.sysctl"
 *
 * The module alias "varlink-interface-@name".  A call (or
 * GetInterfaceDescription) that names an interface under "org.kernel."
 * that is not registered makes the core request that alias
 * (request_module()), then route the call again.  Once for each interface
 * a module registers; module_varlink_interface() sets it already.
 */
#define MODULE_ALIAS_VARLINK_INTERFACE(name)				\
	MODULE_ALIAS("varlink-interface-" name)

/**
 * module_varlink_interface() - register an interface for a whole module
 * @__iface: the struct varlink_interface (not a pointer to it)
 * @__name: the interface's name, as its IDL says, a string literal: the
 *	module's alias (MODULE_ALIAS_VARLINK_INTERFACE())
 *
 * For a provider whose module init and exit would do nothing but
 * varlink_register_interface() and varlink_unregister_interface(): this
 * generates both, as module_driver() does for a driver, and the alias
 * that loads the module on the interface's first call.  Use it at most
 * once in a module.
 */
#define module_varlink_interface(__iface, __name)			\
	MODULE_ALIAS_VARLINK_INTERFACE(__name);				\
	module_driver(__iface, varlink_register_interface,		\
		      varlink_unregister_interface)

/**
 * struct varlink_caller - who made a call, and the namespaces it is
 *	answered in
 * @cred: the credentials of the connection's opener, the task that
 *	connected, taken when the connection was accepted (SO_PEERCRED):
 *	not those of the current task, nor necessarily of the sender
 * @sender_cred: the credentials of the process that wrote the call, as
 *	AF_UNIX recorded it, when the call was read; NULL when unknown (its
 *	bytes came from more than one process, or the writer had exited or
 *	changed its user ids by then), and then no privilege is granted
 * @pid: the opener's thread group, or NULL if it had exited
 * @user: the user the call's resources are accounted to: the opener's
 *	effective uid in the initial user namespace; for an opener inside a
 *	user namespace, the user who created the outermost namespace below
 *	the initial one, so that every uid an unprivileged user maps counts
 *	as that user, while the uids of a container root created are users
 *	of their own, of its @tenant
 * @tenant: the container the call is accounted to as a whole: the
 *	outermost user namespace below the initial one, if root created it,
 *	whichever network namespaces the container makes; for an opener in
 *	the initial user namespace, the network namespace it connected in,
 *	unless that is the initial one.  NULL for the host (and for the
 *	namespaces of an unprivileged user, who are that user's).  A key, to
 *	compare only.  A provider that shares a capped resource gives each
 *	pair of @tenant and @user a share, and each @tenant but NULL a bound
 * @net: the network namespace whose listener the opener connected to
 * @user_ns: the user namespace of @cred
 * @pid_ns: the pid namespace the opener's process ids were made in: pid
 *	numbers are shown in it, and a process outside it does not exist
 *	for the caller
 * @uts_ns: the UTS namespace of the opener's process (its first thread
 *	that had not exited) when the connection was accepted; NULL if it
 *	had exited by then: answer nothing that depends on it then
 * @cgroup_ns: the cgroup namespace of the opener's process when the
 *	connection was accepted; NULL if it had exited by then
 * @init_ns: which of the caller's namespaces are the initial ones, as
 *	CLONE_NEW* flags: see varlink_caller_in_init_ns()
 * @boottime_offset: the offset of the opener's time namespace to
 *	CLOCK_BOOTTIME, in nanoseconds (0 outside one): add it to a
 *	CLOCK_BOOTTIME time, subtract it from the wall-clock time of boot
 *
 * The caller's namespaces are those of the connection's opener, whichever
 * task sends the call and whether it runs in a kworker or in the caller's
 * own task.  Everything here stays valid, without a reference of the
 * provider's, until the call's final reply.
 */
struct varlink_caller {
	const struct cred *cred;
	const struct cred *sender_cred;
	struct pid *pid;
	kuid_t user;
	const void *tenant;
	struct net *net;
	struct user_namespace *user_ns;
	struct pid_namespace *pid_ns;
	struct uts_namespace *uts_ns;
	struct cgroup_namespace *cgroup_ns;
	unsigned int init_ns;
	s64 boottime_offset;
};

/**
 * varlink_caller_in_init_ns() - whether the caller is in an initial
 *	namespace
 * @caller: the caller
 * @nstype: CLONE_NEWIPC, CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS,
 *	CLONE_NEWPID, CLONE_NEWNET or CLONE_NEWUSER
 *
 * Whether the opener's namespace of that type is the initial one, that
 * of the kworkers that run callbacks: a provider that reads a namespaced
 * file (an ipc sysctl, say) answers a caller of the initial namespace
 * only, and refuses the others.  The ipc, mount, cgroup and UTS
 * namespaces are those of the opener's process when the connection was
 * accepted; one that had exited by then is in none.
 *
 * Return: true if it is the initial one.
 */
static inline bool varlink_caller_in_init_ns(const struct varlink_caller *caller,
					     int nstype)
{
	return caller->init_ns & nstype;
}

const struct varlink_caller *varlink_call_caller(const struct varlink_call *call);
bool varlink_call_more(const struct varlink_call *call);
bool varlink_call_capable(const struct varlink_call *call, int cap);
bool varlink_call_ns_capable(const struct varlink_call *call,
			     struct user_namespace *ns, int cap);
bool varlink_call_creds_allow(const struct varlink_call *call,
			      bool (*allow)(const struct cred *cred,
					    const void *data),
			      const void *data);
bool varlink_call_is_caller(const struct varlink_call *call,
			    struct task_struct *task);
void varlink_call_set_cancel(struct varlink_call *call,
			     void (*cancel)(struct varlink_call *call,
					    void *data),
			     void (*release)(void *data), void *data);

/*
 * Reply parameters: written into the call, then sent by varlink_reply(),
 * varlink_reply_continues() or varlink_error().  @key names a member of
 * the enclosing object, and must be NULL inside an array.
 */
void varlink_put_bool(struct varlink_call *call, const char *key, bool v);
void varlink_put_s64(struct varlink_call *call, const char *key, s64 v);
void varlink_put_u64(struct varlink_call *call, const char *key, u64 v);
void varlink_put_str(struct varlink_call *call, const char *key,
		     const char *s);
void varlink_put_str_len(struct varlink_call *call, const char *key,
			 const char *s, size_t len);
void varlink_put_fixed(struct varlink_call *call, const char *key, s64 v,
		       unsigned int decimals);
void varlink_put_json(struct varlink_call *call, const char *key,
		      const struct varlink_json *v);
void varlink_put_null(struct varlink_call *call, const char *key);
void varlink_open_object(struct varlink_call *call, const char *key);
void varlink_close_object(struct varlink_call *call);
void varlink_open_array(struct varlink_call *call, const char *key);
void varlink_close_array(struct varlink_call *call);

int varlink_reply_continues(struct varlink_call *call);
int varlink_reply(struct varlink_call *call);
int varlink_error(struct varlink_call *call, const char *error);
int varlink_error_invalid_parameter(struct varlink_call *call,
				    const char *name);

struct varlink_stream;

/**
 * struct varlink_stream_ops - what a provider's stream does
 * @run: sends what is ready: writes each reply with the varlink_put_*()
 *	functions and sends it with varlink_stream_reply(); it may end the
 *	stream with varlink_reply() or varlink_error().  The core calls it
 *	once the stream starts, then after each varlink_stream_kick(), never
 *	twice at once, in process context, in the connection's worker: it
 *	may sleep, but not wait for other tasks (it holds the connection).
 *	It returns 0 when it has sent all there is, until the next kick;
 *	-EAGAIN when varlink_stream_reply() asked it to pause (it runs again
 *	once the client has read); the errno of varlink_stream_reply() that
 *	failed otherwise; or another negative errno, without having ended
 *	the stream, which ends it as a callback's would (see &struct
 *	varlink_method).
 * @stop: NULL, or sends the final reply of a stream ended from outside
 *	(varlink_stream_end() without an error, or the interface being
 *	unregistered) with varlink_reply() or varlink_error() and returns
 *	0, or returns a negative errno to end it with, as a callback's
 *	(see &struct varlink_method).  Without it, such a stream ends with
 *	org.kernel.varlink.SystemError ESHUTDOWN.  Never called when the
 *	client is gone, whose stream ends without a word.  Called as @run
 *	is, instead of it.
 * @release: frees the provider's object that holds the stream, once it
 *	has ended: first it stops what kicks the stream (kicks that come
 *	meanwhile do nothing).  In process context, before
 *	varlink_unregister_interface() returns.
 */
struct varlink_stream_ops {
	int (*run)(struct varlink_stream *stream);
	int (*stop)(struct varlink_stream *stream);
	void (*release)(struct varlink_stream *stream);
};

/**
 * struct varlink_stream - a stream of replies to one call, which the core
 *	runs
 * @call: the call, for the reply functions, in @ops' callbacks and
 *	those of varlink_stream_for_each()
 * @ops: what the provider does
 * @lock: the core's: serialises @ops' callbacks and
 *	varlink_stream_for_each()'s
 * @node: the core's: on the interface's streams
 * @state: the core's
 * @error: the core's: the final error varlink_stream_end() was given
 * @ref: the core's: the started stream's reference, and those of the
 *	core's paths that lock it while it may end
 * @end_work: the core's: takes the ended stream off its interface
 * @free_work: the core's: releases it once no kick can find it and no
 *	path holds it
 *
 * A method with VARLINK_STREAM, called with "more", embeds one in an
 * object of its own, initialises it with varlink_stream_init(),
 * subscribes to what it watches (a notifier, a wait queue, a socket),
 * whose events call varlink_stream_kick(), and returns
 * varlink_stream_start().  From then on the stream is the core's, as a
 * dump is netlink's: the core runs @ops->run when it is kicked, paces it
 * to its client (its replies go out in batches, and it pauses while half
 * of max_output waits to be read), counts it against the stream quotas,
 * ends it when the client goes or the interface is unregistered, and
 * calls @ops->release once nothing runs or kicks it any more.  The
 * provider keeps no list, no id and no flag of its streams.
 */
struct varlink_stream {
	struct varlink_call *call;
	const struct varlink_stream_ops *ops;
	struct mutex lock;	/* @ops' callbacks, for_each's */
	struct list_head node;
	unsigned long state;
	const char *error;
	refcount_t ref;
	struct work_struct end_work;
	struct rcu_work free_work;
};

void varlink_stream_init(struct varlink_stream *stream,
			 const struct varlink_stream_ops *ops);
int varlink_stream_start(struct varlink_call *call,
			 struct varlink_stream *stream);
void varlink_stream_kick(struct varlink_stream *stream);
void varlink_stream_end(struct varlink_stream *stream, const char *error);
int varlink_stream_reply(struct varlink_stream *stream);
void varlink_stream_kick_all(const struct varlink_interface *iface);
void varlink_stream_for_each(const struct varlink_interface *iface,
			     int (*fn)(struct varlink_stream *stream,
				       void *data),
			     void *data);

/**
 * struct varlink_poll - a stream kicked by a file's poll
 * @stream: the stream it kicks
 * @file: the file, a reference of the provider's
 * @whead: the wait queue of @file that @wait is on, or NULL
 * @wait: on @whead
 * @pt: puts @wait on @whead
 *
 * For a stream that waits for a file to be ready, as poll(2) would (a
 * PSI trigger, a cgroup's events file): no worker waits meanwhile.
 */
struct varlink_poll {
	struct varlink_stream *stream;
	struct file *file;
	wait_queue_head_t *whead;
	wait_queue_entry_t wait;
	poll_table pt;
};

__poll_t varlink_stream_poll(struct varlink_stream *stream,
			     struct varlink_poll *poll, struct file *file);
void varlink_stream_unpoll(struct varlink_poll *poll);

/**
 * enum varlink_fs - the core's internal mounts, for varlink_file_read()
 *	and the like
 * @VARLINK_PROC: procfs of the initial pid namespace; /proc/sys answers
 *	for the initial namespaces (net, ipc, uts) whoever calls
 * @VARLINK_SYSFS: sysfs of the initial network namespace
 * @VARLINK_CGROUP2: the cgroup2 hierarchy, from the root cgroup
 * @VARLINK_FS_COUNT: how many there are, not one of them
 *
 * Each is mounted on first use, from a kworker, so that it belongs to the
 * initial namespaces, and stays until varlink.ko is unloaded.
 */
enum varlink_fs {
	VARLINK_PROC,
	VARLINK_SYSFS,
	VARLINK_CGROUP2,
	VARLINK_FS_COUNT,
};

struct file;

/*
 * Kernel state from files, read as the caller: @name is a path relative
 * to the root of @fs ("sys/kernel/random/boot_id"), checked component by
 * component (see varlink_file_open()).
 */
bool varlink_file_name_valid(const char *name);
struct file *varlink_file_open(struct varlink_call *call, enum varlink_fs fs,
			       const char *name, int flags);
struct file *varlink_file_open_cred(const struct cred *cred,
				    enum varlink_fs fs, const char *name,
				    int flags);
ssize_t varlink_file_read(struct varlink_call *call, enum varlink_fs fs,
			  const char *name, char *buf, size_t size);
char *varlink_file_read_alloc(struct varlink_call *call, enum varlink_fs fs,
			      const char *name, size_t size, size_t max,
			      size_t *len);
int varlink_file_write(struct varlink_call *call, enum varlink_fs fs,
		       const char *name, const char *buf, size_t len);

/**
 * struct varlink_walk_entry - an entry of a walk of a directory tree
 * @path: its path relative to the mount's root, NUL-terminated
 * @name: its name, the last component of @path
 * @type: its DT_* type, as the directory lists it
 * @depth: how deep it is: 1 for the entries of the directory the walk
 *	started in
 * @dir: its directory, open
 *
 * Valid until the walk's next step.
 */
struct varlink_walk_entry {
	const char *path;
	const char *name;
	unsigned int type;
	unsigned int depth;
	struct file *dir;
};

/* varlink_walk_start(): below the start, directories are the kernel's */
#define VARLINK_WALK_KERNEL	0x1
/* The deepest level, and the longest path, a walk goes to */
#define VARLINK_WALK_DEPTH_MAX	32
#define VARLINK_WALK_PATH_MAX	512

struct varlink_walk;
struct varlink_walk *varlink_walk_start(struct varlink_call *call,
					enum varlink_fs fs, const char *dir,
					unsigned int max_depth,
					unsigned int flags);
int varlink_walk_next(struct varlink_walk *w, struct varlink_walk_entry *e);
struct file *varlink_walk_enter(struct varlink_walk *w);
void varlink_walk_end(struct varlink_walk *w);

/*
 * For the test modules: exported in the symbol namespace VARLINK_TEST
 * only, until a provider needs one (the test provider and the
 * certification service, MODULE_IMPORT_NS(VARLINK_TEST)).
 *
 * varlink_json_equal() checks parameters: whether a VARLINK_JSON value
 * equals an expected JSON text (members in any order, null members
 * absent, numbers by exact value); 1 if so, 0 if not, or -errno.  See
 * json_equal.c and call.c for the others.
 */
bool varlink_call_oneway(const struct varlink_call *call);
const char *varlink_call_method(const struct varlink_call *call);
int varlink_json_equal(const struct varlink_json *v, const char *json);

#endif /* _VARLINK_H */
