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
 * Who calls: a connection has an opener, the task that connected
 * (varlink_call_cred()), and each call a sender, the process that wrote
 * it (varlink_call_sender_cred()); they differ when the descriptor was
 * inherited or passed.  A privilege is granted only if both hold it
 * (varlink_call_capable()), as netlink does; resources are shared per
 * varlink_call_user() and, for a container as a whole, per
 * varlink_call_tenant().
 *
 * Callbacks run in process context (a kworker, not the caller's task) and
 * may sleep.  Each call ends with exactly one final reply, sent with
 * varlink_reply() or varlink_error(); see &struct varlink_method.
 */
#ifndef _VARLINK_H
#define _VARLINK_H

#include <linux/build_bug.h>
#include <linux/container_of.h>
#include <linux/cred.h>
#include <linux/device/driver.h>
#include <linux/module.h>
#include <linux/types.h>
#include <linux/uidgid.h>

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
 *
 * An absent or null (nullable) parameter leaves the member zeroed; a
 * pointer is valid until the callback returns.
 */
enum varlink_param_type {
	VARLINK_BOOL,
	VARLINK_S64,
	VARLINK_U64,
	VARLINK_S32,
	VARLINK_U32,
	VARLINK_STRING,
	VARLINK_JSON,
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
		VARLINK_JSON : -1)

/**
 * __VARLINK_PARAM_CHECK() - a parameter type, checked at build time
 * @_type: an enum varlink_param_type
 * @type: the C type @_type must stand for
 *
 * Return: @_type if it stands for @type; otherwise the build fails.
 */
#define __VARLINK_PARAM_CHECK(_type, type)				\
	(__VARLINK_PARAM_TYPE(type) +					\
	 BUILD_BUG_ON_ZERO(__VARLINK_PARAM_TYPE(type) != (_type)))

/**
 * VARLINK_PARAM() - one entry of a method's parameter table
 * @_name: the parameter's name in the IDL, e.g. "pid"
 * @_type: the enum varlink_param_type of @_member
 * @_struct: the type of the struct the parameters are decoded into,
 *	e.g. struct foo_params
 * @_member: the member of @_struct that receives the parameter
 *
 * The build fails if @_type is not the C type of @_member (VARLINK_U64
 * for a u32 member, say), or if no enum varlink_param_type stands for
 * the member's type (a long, a char array, a ``char *`` that is not
 * const): the core would write past the member, or into it a value of
 * another type.
 */
#define VARLINK_PARAM(_name, _type, _struct, _member)			\
	{								\
		.name = (_name),					\
		.type = __VARLINK_PARAM_CHECK(_type,			\
				typeof_member(_struct, _member)),	\
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
 * callback never runs.  For a method that only streams (a monitor),
 * with VARLINK_MORE.
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
 * most max_streams_per_user (counted by varlink_call_user() in its
 * varlink_call_tenant()), a container at most max_streams_per_container.
 * The stream counts until its final reply.  With VARLINK_MORE, not with
 * VARLINK_INLINE: a stream may wait for its client (varlink_reply_wait()),
 * which the client's own task must not.
 */
#define VARLINK_STREAM		0x20

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
 *	VARLINK_CAPABLE_NET, VARLINK_INLINE, VARLINK_STREAM
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
 *    reply, see varlink_call_set_cancel();
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
 *	its own namespaces (varlink_call_net() and the like) and so may be
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
 * module_varlink_interface() - register an interface for a whole module
 * @__iface: the struct varlink_interface (not a pointer to it)
 *
 * For a provider whose module init and exit would do nothing but
 * varlink_register_interface() and varlink_unregister_interface(): this
 * generates both, as module_driver() does for a driver.  Use it at most
 * once in a module.
 */
#define module_varlink_interface(__iface)				\
	module_driver(__iface, varlink_register_interface,		\
		      varlink_unregister_interface)

/* The call and its caller */
bool varlink_call_more(const struct varlink_call *call);
const struct cred *varlink_call_cred(const struct varlink_call *call);
const struct cred *varlink_call_sender_cred(const struct varlink_call *call);
kuid_t varlink_call_user(const struct varlink_call *call);
const void *varlink_call_tenant(const struct varlink_call *call);
bool varlink_call_capable(const struct varlink_call *call, int cap);
bool varlink_call_ns_capable(const struct varlink_call *call,
			     struct user_namespace *ns, int cap);
struct net *varlink_call_net(const struct varlink_call *call);
struct user_namespace *varlink_call_user_ns(const struct varlink_call *call);
struct pid_namespace *varlink_call_pid_ns(const struct varlink_call *call);
struct uts_namespace *varlink_call_uts_ns(const struct varlink_call *call);
s64 varlink_call_boottime_offset(const struct varlink_call *call);
bool varlink_call_in_init_ns(const struct varlink_call *call, int nstype);
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
void varlink_open_object(struct varlink_call *call, const char *key);
void varlink_close_object(struct varlink_call *call);
void varlink_open_array(struct varlink_call *call, const char *key);
void varlink_close_array(struct varlink_call *call);

int varlink_reply_continues(struct varlink_call *call);
int varlink_reply_wait(struct varlink_call *call);
int varlink_reply(struct varlink_call *call);
int varlink_error(struct varlink_call *call, const char *error);
int varlink_error_invalid_parameter(struct varlink_call *call,
				    const char *name);

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
struct file *varlink_file_open(struct varlink_call *call, enum varlink_fs fs,
			       const char *name, int flags);
struct file *varlink_file_open_cred(const struct cred *cred,
				    enum varlink_fs fs, const char *name,
				    int flags);
ssize_t varlink_file_read(struct varlink_call *call, enum varlink_fs fs,
			  const char *name, char *buf, size_t size);
int varlink_file_write(struct varlink_call *call, enum varlink_fs fs,
		       const char *name, const char *buf, size_t len);
int varlink_file_list(struct varlink_call *call, enum varlink_fs fs,
		      const char *dir,
		      bool (*actor)(void *data, const char *name,
				    unsigned int len, unsigned int d_type),
		      void *data);

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
pid_t varlink_call_pid(const struct varlink_call *call);
void varlink_put_null(struct varlink_call *call, const char *key);
int varlink_json_equal(const struct varlink_json *v, const char *json);

#endif /* _VARLINK_H */
