// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of interfaces.
 *
 * Registration parses the IDL and checks the provider's method table
 * against it, in both directions, before the interface becomes visible.
 * Lookups run under RCU and take a reference that fails once the
 * interface is being unregistered.  Calls are routed through a hash table
 * of every method's full name, "interface.Method": one hash of the name
 * the call gives, and one compare to confirm it.  Unregistration unlinks the interface,
 * cancels the calls it has not finished (deferred calls, streams), and
 * waits until every call has sent its final reply: after it returns, no
 * call references the provider's code or data.
 */
#include <linux/capability.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait_bit.h>
#include <net/net_namespace.h>
#include <kunit/visibility.h>

#include "call.h"
#include "registry.h"

static DEFINE_MUTEX(registry_lock);
static LIST_HEAD(registry);	/* sorted by name; RCU for readers */
/* bumped under registry_lock by every change of @registry */
static unsigned long registry_gen;
/* every method of the registry, by vl_method_hash(); RCU for readers */
static DEFINE_HASHTABLE(methods, 8);

static u32 vl_method_hash(const char *name, size_t len)
{
	return jhash(name, len, 0);
}

#define VL_METHOD_FLAGS		(VARLINK_MORE | VARLINK_MORE_ONLY | VARLINK_CAPABLE | \
				 VARLINK_INLINE | VARLINK_CAPABLE_NET | \
				 VARLINK_STREAM | VARLINK_READY)

/* The order of the registry: @iface's name against @name. */
static int iface_name_cmp(const struct vl_iface *iface, const char *name,
			  size_t len)
{
	return vl_idl_name_cmp(iface->idl->name, iface->idl->name_len, name,
			       len);
}

/**
 * vl_iface_get() - find a registered interface and take a reference
 * @name: interface name, not NUL-terminated
 * @len: bytes of @name
 *
 * Return: the interface, or NULL if it is not registered or going away.
 */
struct vl_iface *vl_iface_get(const char *name, size_t len)
{
	struct vl_iface *iface, *found = NULL;

	rcu_read_lock();
	list_for_each_entry_rcu(iface, &registry, node) {
		if (!iface_name_cmp(iface, name, len)) {
			if (refcount_inc_not_zero(&iface->ref))
				found = iface;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}
EXPORT_SYMBOL_IF_KUNIT(vl_iface_get);

/* Whether @s is the method "interface.Method" in @name */
static bool slot_is(const struct vl_method_slot *s, const char *name,
		    size_t len)
{
	const struct vl_idl *idl = s->iface->idl;
	size_t n = idl->name_len;

	return len == n + 1 + s->member->name_len && !memcmp(name, idl->name, n) &&
	       name[n] == '.' && !memcmp(name + n + 1, s->member->name, len - n - 1);
}

/**
 * vl_method_get() - find a method by its full name and take a reference
 *	on its interface
 * @name: "interface.Method", not NUL-terminated
 * @len: bytes of @name
 * @net: the caller's network namespace
 * @member: set to the method's member of the interface's IDL
 *
 * Return: the interface, served in @net, or NULL if no such method is,
 * or its interface is going away; the caller then asks vl_iface_get()
 * which of the two names is unknown.
 */
struct vl_iface *vl_method_get(const char *name, size_t len,
			       const struct net *net,
			       const struct vl_idl_member **member)
{
	u32 hash = vl_method_hash(name, len);
	struct vl_iface *found = NULL;
	struct vl_method_slot *s;

	rcu_read_lock();
	hash_for_each_possible_rcu(methods, s, node, hash) {
		if (s->hash != hash || !slot_is(s, name, len))
			continue;
		if (vl_iface_served_in(s->iface, net) &&
		    refcount_inc_not_zero(&s->iface->ref)) {
			found = s->iface;
			*member = s->member;
		}
		break;
	}
	rcu_read_unlock();
	return found;
}
EXPORT_SYMBOL_IF_KUNIT(vl_method_get);

/**
 * vl_iface_served_in() - whether an interface is served in a network
 *	namespace
 * @iface: the interface
 * @net: the caller's network namespace
 *
 * Return: true for the initial namespace, and for every namespace if the
 * interface answers in the caller's namespaces (VARLINK_NETNS).
 */
bool vl_iface_served_in(const struct vl_iface *iface, const struct net *net)
{
	return (iface->desc->flags & VARLINK_NETNS) || net_eq(net, &init_net);
}

/**
 * vl_iface_get_served() - find an interface served in a network namespace
 * @name: the interface name, not NUL-terminated
 * @len: bytes of @name
 * @net: the caller's network namespace
 *
 * Return: as vl_iface_get(), and NULL for an interface not served in @net.
 */
struct vl_iface *vl_iface_get_served(const char *name, size_t len,
				     const struct net *net)
{
	struct vl_iface *iface = vl_iface_get(name, len);

	if (iface && !vl_iface_served_in(iface, net)) {
		vl_iface_put(iface);
		return NULL;
	}
	return iface;
}

static bool param_fits(const struct vl_idl *idl, const struct vl_idl_node *type,
		       enum varlink_param_type ptype)
{
	if (type->kind == VL_IDL_NAMED)
		type = vl_idl_node(idl, type->child);

	switch (ptype) {
	case VARLINK_BOOL:
		return type->kind == VL_IDL_BOOL;
	case VARLINK_S64:
	case VARLINK_U64:
	case VARLINK_S32:
	case VARLINK_U32:
		return type->kind == VL_IDL_INT;
	case VARLINK_STRING:
		return type->kind == VL_IDL_STRING || type->kind == VL_IDL_ENUM;
	case VARLINK_JSON:
		return true;
	case VARLINK_OPT_S64:
		return type->kind == VL_IDL_INT;
	}
	return false;
}

static size_t param_size(enum varlink_param_type type)
{
	switch (type) {
	case VARLINK_BOOL:
		return sizeof(bool);
	case VARLINK_S64:
	case VARLINK_U64:
		return sizeof(u64);
	case VARLINK_S32:
	case VARLINK_U32:
		return sizeof(u32);
	case VARLINK_STRING:
		return sizeof(const char *);
	case VARLINK_JSON:
		return sizeof(struct varlink_json);
	case VARLINK_OPT_S64:
		return sizeof(struct varlink_opt_s64);
	}
	return SIZE_MAX;
}

static int check_params(const struct vl_idl *idl,
			const struct vl_idl_member *member,
			const struct varlink_method *m)
{
	const char *iname = m->name;
	unsigned int i;

	if (m->n_params && (!m->params || !m->call))
		goto bad;
	if (m->params_size > VARLINK_PARAMS_SIZE_MAX || (m->n_params && !m->params_size))
		goto bad;
	for (i = 0; i < m->n_params; i++) {
		const struct varlink_param *p = &m->params[i];
		const struct vl_idl_node *f;

		iname = p->name ? p->name : "(null)";
		f = p->name ? vl_idl_find_field(idl, member->type, p->name,
						strlen(p->name)) : NULL;
		if (!f || !param_fits(idl, vl_idl_node(idl, f->child), p->type) ||
		    p->offset > m->params_size ||
		    param_size(p->type) > m->params_size - p->offset)
			goto bad;
	}
	return 0;
bad:
	pr_err("%.*s.%s: parameter %s: not an input of the method, of another type, or outside the struct\n",
	       idl->name_len, idl->name, m->name, iname);
	return -EINVAL;
}

/* Whether @m's flags go together: one namespace to check a valid
 * capability in, if any; a stream never in the caller's task; "ready"
 * only of a stream whose output has it, as a nullable bool.
 */
static bool flags_valid(const struct vl_idl *idl,
			const struct vl_idl_member *member,
			const struct varlink_method *m)
{
	unsigned int caps = m->flags & (VARLINK_CAPABLE | VARLINK_CAPABLE_NET);
	const struct vl_idl_node *ready;

	if ((m->flags & ~VL_METHOD_FLAGS) ||
	    caps == (VARLINK_CAPABLE | VARLINK_CAPABLE_NET) ||
	    (caps && !cap_valid(m->capability)) ||
	    ((m->flags & VARLINK_STREAM) && (m->flags & VARLINK_INLINE)))
		return false;
	if (!(m->flags & VARLINK_READY))
		return true;
	ready = vl_idl_find_field(idl, member->out, "ready", 5);
	if (ready)
		ready = vl_idl_node(idl, ready->child);
	return (m->flags & VARLINK_STREAM) && ready &&
	       ready->kind == VL_IDL_BOOL && (ready->flags & VL_IDL_NULLABLE);
}

/* Map the table onto the IDL's methods: each exactly once, no extras. */
static int check_methods(const struct varlink_interface *desc,
			 const struct vl_idl *idl,
			 const struct varlink_method **by_member)
{
	const struct vl_idl_member *member;
	unsigned int i;
	int err;

	for (i = 0; i < desc->n_methods; i++) {
		const struct varlink_method *m = &desc->methods[i];

		member = m->name ? vl_idl_lookup(idl, m->name, strlen(m->name)) : NULL;
		if (!member || member->kind != VL_IDL_METHOD) {
			pr_err("%.*s: method %s is not declared in the IDL\n",
			       idl->name_len, idl->name, m->name ? m->name : "(null)");
			return -EINVAL;
		}
		if (by_member[member - idl->members]) {
			pr_err("%.*s: method %s is in the table twice\n",
			       idl->name_len, idl->name, m->name);
			return -EINVAL;
		}
		if (!flags_valid(idl, member, m)) {
			pr_err("%.*s: method %s: invalid flags or capability\n",
			       idl->name_len, idl->name, m->name);
			return -EINVAL;
		}
		err = check_params(idl, member, m);
		if (err)
			return err;
		by_member[member - idl->members] = m;
	}

	for (member = vl_idl_next_method(idl, NULL); member;
	     member = vl_idl_next_method(idl, member)) {
		if (!by_member[member - idl->members]) {
			pr_err("%.*s: method %.*s is declared but not in the table\n",
			       idl->name_len, idl->name, member->name_len,
			       member->name);
			return -EINVAL;
		}
	}
	return 0;
}

/* The hash table's slots of @iface's methods, each the hash of its full
 * name, "interface.Method".
 */
static int make_slots(struct vl_iface *iface, unsigned int n)
{
	const struct vl_idl *idl = iface->idl;
	const struct vl_idl_member *member;
	unsigned int i = 0;
	char *name;
	int len;

	iface->slots = kcalloc(n, sizeof(*iface->slots), GFP_KERNEL);
	if (!iface->slots)
		return -ENOMEM;
	/* check_methods(): the IDL has exactly @n methods */
	for (member = vl_idl_next_method(idl, NULL); member && i < n;
	     member = vl_idl_next_method(idl, member)) {
		struct vl_method_slot *s = &iface->slots[i++];

		name = kasprintf(GFP_KERNEL, "%.*s.%.*s", idl->name_len,
				 idl->name, member->name_len, member->name);
		if (!name)
			return -ENOMEM;	/* iface_free() frees the slots */
		len = strlen(name);
		s->hash = vl_method_hash(name, len);
		s->iface = iface;
		s->member = member;
		kfree(name);
	}
	return 0;
}

/* GetInterfaceDescription's answer, escaped once for every call */
static int make_description(struct vl_iface *iface, const char *idl)
{
	struct vl_jsonw w;
	const char *text;
	size_t len;
	char *copy;
	int err;

	/* \u00XX for each byte at most, the quotes and the NUL */
	vl_jsonw_init(&w, 6 * VL_IDL_SIZE_MAX + 3, GFP_KERNEL);
	vl_jsonw_str(&w, idl);
	text = vl_jsonw_text(&w, &len);
	err = vl_jsonw_error(&w);
	if (text) {
		copy = kvmalloc(len, GFP_KERNEL);
		err = copy ? 0 : -ENOMEM;
	}
	if (!err) {
		memcpy(copy, text, len);
		iface->description.text = copy;
		iface->description.len = len;
	}
	vl_jsonw_release(&w);
	return err;
}

static struct vl_iface *iface_create(const struct varlink_interface *desc)
{
	struct vl_idl_error perr = {};
	struct vl_iface *iface;
	int err;

	if (!desc || !desc->idl || (desc->n_methods && !desc->methods) ||
	    (desc->flags & ~VARLINK_NETNS))
		return ERR_PTR(-EINVAL);

	iface = kzalloc(sizeof(*iface), GFP_KERNEL);
	if (!iface)
		return ERR_PTR(-ENOMEM);

	err = vl_idl_parse(desc->idl, strlen(desc->idl), &iface->idl, &perr);
	if (err) {
		if (err == -EINVAL)
			pr_err("invalid interface description, %d:%d: %s%s%.*s%s\n",
			       perr.line, perr.col, perr.msg,
			       perr.token ? " '" : "", perr.token_len,
			       perr.token ? perr.token : "", perr.token ? "'" : "");
		goto err_free;
	}

	err = -ENOMEM;
	iface->methods = kcalloc(iface->idl->n_members, sizeof(*iface->methods),
				 GFP_KERNEL);
	if (!iface->methods)
		goto err_idl;
	err = check_methods(desc, iface->idl, iface->methods);
	if (err)
		goto err_methods;
	err = make_slots(iface, desc->n_methods);
	if (err)
		goto err_methods;
	err = make_description(iface, desc->idl);
	if (err)
		goto err_methods;

	iface->desc = desc;
	refcount_set(&iface->ref, 1);
	spin_lock_init(&iface->lock);
	INIT_LIST_HEAD(&iface->calls);
	return iface;

err_methods:
	kvfree(iface->description.text);
	kfree(iface->slots);
	kfree(iface->methods);
err_idl:
	vl_idl_free(iface->idl);
err_free:
	kfree(iface);
	return ERR_PTR(err);
}

static void iface_free(struct vl_iface *iface)
{
	kvfree(iface->description.text);
	kfree(iface->slots);
	kfree(iface->methods);
	vl_idl_free(iface->idl);
	kfree(iface);
}

/**
 * __varlink_register_interface() - serve an interface
 * @iface: the interface: IDL text and method table, both of which must
 *	stay valid and unchanged until varlink_unregister_interface()
 * @owner: the module whose code and data @iface uses, pinned while a
 *	callback runs; varlink_register_interface(), the macro that
 *	providers call, passes THIS_MODULE
 *
 * The IDL must parse, and the method table must name every method of the
 * IDL exactly once, with valid flags and parameter tables; the reason for
 * a refusal is logged, with the line and column of an IDL error.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL for an invalid IDL or table; -EEXIST if an interface
 * of the same name is registered; -ENOMEM.
 */
int __varlink_register_interface(const struct varlink_interface *iface,
				 struct module *owner)
{
	struct vl_iface *new, *pos;
	struct list_head *at = &registry;
	unsigned int i;
	int c;

	new = iface_create(iface);
	if (IS_ERR(new))
		return PTR_ERR(new);
	new->owner = owner;

	mutex_lock(&registry_lock);
	list_for_each_entry(pos, &registry, node) {
		c = iface_name_cmp(pos, new->idl->name, new->idl->name_len);
		if (!c || pos->desc == iface) {
			mutex_unlock(&registry_lock);
			pr_err("interface %.*s is already registered\n",
			       new->idl->name_len, new->idl->name);
			iface_free(new);
			return -EEXIST;
		}
		if (c > 0) {
			at = &pos->node;
			break;
		}
	}
	list_add_tail_rcu(&new->node, at);
	for (i = 0; i < iface->n_methods; i++)
		hash_add_rcu(methods, &new->slots[i].node, new->slots[i].hash);
	WRITE_ONCE(registry_gen, registry_gen + 1);
	mutex_unlock(&registry_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(__varlink_register_interface);

static void iface_drain(struct vl_iface *iface)
{
	vl_calls_cancel(iface);
	vl_iface_put(iface);
	wait_var_event(&iface->ref, !refcount_read(&iface->ref));
}

/**
 * varlink_unregister_interface() - stop serving an interface
 * @iface: an interface registered with varlink_register_interface()
 *
 * New calls fail with org.varlink.service.InterfaceNotFound at once.
 * Calls in flight are waited for; calls the provider finishes later
 * (deferred, streaming) have their cancel callback run and are waited for
 * until they send their final reply.  On return, the core no longer uses
 * anything of @iface or its module.
 *
 * Context: process context, may sleep; not from a method callback.
 */
void varlink_unregister_interface(const struct varlink_interface *iface)
{
	struct vl_iface *pos, *found = NULL;
	unsigned int i;

	mutex_lock(&registry_lock);
	list_for_each_entry(pos, &registry, node) {
		if (pos->desc == iface) {
			found = pos;
			list_del_rcu(&pos->node);
			for (i = 0; i < iface->n_methods; i++)
				hash_del_rcu(&pos->slots[i].node);
			WRITE_ONCE(registry_gen, registry_gen + 1);
			break;
		}
	}
	mutex_unlock(&registry_lock);
	if (WARN_ON(!found))
		return;

	synchronize_rcu();
	iface_drain(found);
	iface_free(found);
}
EXPORT_SYMBOL_GPL(varlink_unregister_interface);

/**
 * vl_registry_for_each() - visit the registered interfaces, sorted by name
 * @fn: called for each, under the registry's mutex; it may sleep, and
 *	must not register or unregister an interface
 * @data: passed to @fn
 *
 * Context: process context, may sleep.
 * Return: the generation of the registry @fn saw, see vl_registry_gen().
 */
unsigned long vl_registry_for_each(void (*fn)(const struct vl_iface *iface,
					      void *data),
				   void *data)
{
	struct vl_iface *iface;
	unsigned long gen;

	mutex_lock(&registry_lock);
	list_for_each_entry(iface, &registry, node)
		fn(iface, data);
	gen = registry_gen;
	mutex_unlock(&registry_lock);
	return gen;
}

/**
 * vl_registry_gen() - the registry's generation
 *
 * Return: a number that changes whenever an interface is registered or
 * unregistered.
 */
unsigned long vl_registry_gen(void)
{
	return READ_ONCE(registry_gen);
}

/**
 * vl_registry_exit() - check that every interface was unregistered
 */
void vl_registry_exit(void)
{
	WARN_ON(!list_empty(&registry));
}
