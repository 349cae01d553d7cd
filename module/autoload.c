// SPDX-License-Identifier: GPL-2.0
/*
 * An interface's module, loaded on the interface's first call.
 *
 * A provider module carries the alias "varlink-interface-NAME" of each
 * interface it registers (MODULE_ALIAS_VARLINK_INTERFACE()).  A call, or
 * GetInterfaceDescription, that names an interface under "org.kernel."
 * that is not registered requests that alias with request_module(), as
 * generic netlink requests "net-pf-16-proto-16-family-NAME" for a family
 * it does not know, and is routed again.  Anyone may cause it, from any
 * namespace: modprobe runs as a usermode helper, with the kernel's
 * credentials in the initial namespaces, so what it loads is the host's
 * module, and the interface's own flags (VARLINK_NETNS) decide whom it
 * serves.
 *
 * The task that requests waits for modprobe to exit: milliseconds, or
 * much more on a loaded machine.  That task is never the caller's: the
 * fast path runs in the client's sendmsg(), under the connection's
 * io_lock, with the socket callbacks' SRCU read lock held, and a module
 * load there would hold all three and take the client's LSM context to
 * the request.  vl_autoload_due() sends such a call to its connection's
 * kworker instead, which holds only the io_lock, which no client's task
 * waits for (the fast path only tries it).
 *
 * Bounds, so that no client can make the kernel run modprobe in a loop or
 * tie up the workqueue:
 *  - only names of the IDL's interface-name grammar under "org.kernel.",
 *    short enough for a module name;
 *  - a name requested in vain is not requested again for
 *    VL_AUTOLOAD_RETRY; the table remembers VL_AUTOLOAD_NAMES names, a
 *    new one taking the place of the one requested longest ago;
 *  - at most VL_AUTOLOAD_FAILS requests in vain per VL_AUTOLOAD_WINDOW,
 *    all names together (a request that registers its interface is not
 *    counted: nobody can make it again without unloading the module);
 *  - a call that names a name being requested waits for that request
 *    instead of running modprobe again, and at most VL_AUTOLOAD_SLEEPERS
 *    kworkers (of the workqueue's 256) wait for modprobe at a time.
 * A call past a bound gets InterfaceNotFound, as without autoloading.
 */
#include <linux/jiffies.h>
#include <linux/kmod.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/wait.h>

#include "autoload.h"
#include "idl.h"
#include "registry.h"

#define VL_AUTOLOAD_PREFIX	"org.kernel."
#define VL_AUTOLOAD_ALIAS	"varlink-interface-"
/* the longest name whose alias, with its NUL, fits the MODULE_NAME_LEN
 * bytes that request_module() takes
 */
#define VL_AUTOLOAD_NAME_MAX	(MODULE_NAME_LEN - sizeof(VL_AUTOLOAD_ALIAS))

#define VL_AUTOLOAD_RETRY	(60 * HZ)
#define VL_AUTOLOAD_WINDOW	(10 * HZ)

enum {
	VL_AUTOLOAD_NAMES	= 16,
	VL_AUTOLOAD_FAILS	= 32,
	VL_AUTOLOAD_SLEEPERS	= 16,
};

/**
 * struct vl_autoload_name - a name requested lately
 * @when: jiffies at the end of its last request
 * @seq: bumped at the end of each request, for those who wait for it
 * @pending: being requested now
 * @len: bytes of @name; 0 for a free slot
 * @name: the interface name, not NUL-terminated
 */
struct vl_autoload_name {
	unsigned long when;
	unsigned int seq;
	bool pending;
	u8 len;
	char name[VL_AUTOLOAD_NAME_MAX];
};

static DEFINE_SPINLOCK(autoload_lock);	/* protects all below */
static struct vl_autoload_name autoload_names[VL_AUTOLOAD_NAMES];
static unsigned int autoload_sleepers;	/* kworkers waiting for modprobe */
static unsigned int autoload_fails;	/* requests in vain since ... */
static unsigned long autoload_window;	/* ... this, in jiffies */
static DECLARE_WAIT_QUEUE_HEAD(autoload_wq);	/* the end of a request */

/* Whether a call naming @name may load a module for it. */
static bool autoload_name_ok(const char *name, size_t len)
{
	size_t n = strlen(VL_AUTOLOAD_PREFIX);

	return IS_ENABLED(CONFIG_MODULES) && len > n &&
	       len <= VL_AUTOLOAD_NAME_MAX && !memcmp(name, VL_AUTOLOAD_PREFIX, n) &&
	       vl_idl_is_interface_name(name, len);
}

/* Whether an interface of that name is registered, in any namespace. */
static bool autoload_registered(const char *name, size_t len)
{
	struct vl_iface *iface = vl_iface_get(name, len);

	if (!iface)
		return false;
	vl_iface_put(iface);
	return true;
}

static struct vl_autoload_name *autoload_find(const char *name, size_t len)
	__must_hold(&autoload_lock)
{
	struct vl_autoload_name *e;

	lockdep_assert_held(&autoload_lock);
	for (e = autoload_names; e < autoload_names + VL_AUTOLOAD_NAMES; e++) {
		if (e->len == len && !memcmp(e->name, name, len))
			return e;
	}
	return NULL;
}

/* Whether @e was requested in vain lately. */
static bool autoload_recent(const struct vl_autoload_name *e)
	__must_hold(&autoload_lock)
{
	lockdep_assert_held(&autoload_lock);
	return !e->pending && time_before(jiffies, e->when + VL_AUTOLOAD_RETRY);
}

/* A slot for a new name: a free one, else the one requested longest ago;
 * NULL if every name is being requested.
 */
static struct vl_autoload_name *autoload_slot(void)
	__must_hold(&autoload_lock)
{
	struct vl_autoload_name *e, *old = NULL;

	lockdep_assert_held(&autoload_lock);
	for (e = autoload_names; e < autoload_names + VL_AUTOLOAD_NAMES; e++) {
		if (!e->len)
			return e;
		if (!e->pending && (!old || time_before(e->when, old->when)))
			old = e;
	}
	return old;
}

/* Count a request as one in vain until it proves otherwise; the window it
 * is counted in goes to *@window.  Return: false if the window has had
 * its VL_AUTOLOAD_FAILS already.
 */
static bool autoload_charge(unsigned long *window)
	__must_hold(&autoload_lock)
{
	lockdep_assert_held(&autoload_lock);
	if (time_after_eq(jiffies, autoload_window + VL_AUTOLOAD_WINDOW)) {
		autoload_window = jiffies;
		autoload_fails = 0;
	}
	if (autoload_fails >= VL_AUTOLOAD_FAILS)
		return false;
	autoload_fails++;
	*window = autoload_window;
	return true;
}

/* Wait for the request of @e to end.  Return: true, the caller looks again. */
static bool autoload_wait(struct vl_autoload_name *e)
	__releases(&autoload_lock)
{
	unsigned int seq = e->seq;

	autoload_sleepers++;
	spin_unlock(&autoload_lock);
	/* a kworker gets no signal: killable, as request_module() waits */
	wait_event_killable(autoload_wq, READ_ONCE(e->seq) != seq);
	spin_lock(&autoload_lock);
	autoload_sleepers--;
	spin_unlock(&autoload_lock);
	return true;
}

/* Request the module of @e's name.  Return: whether it registered. */
static bool autoload_request(struct vl_autoload_name *e, unsigned long window)
	__releases(&autoload_lock)
{
	bool found;
	int err;

	e->pending = true;
	autoload_sleepers++;
	spin_unlock(&autoload_lock);

	err = request_module(VL_AUTOLOAD_ALIAS "%.*s", e->len, e->name);
	found = autoload_registered(e->name, e->len);
	pr_debug("%.*s: modprobe %s%.*s: %d, %s\n", e->len, e->name,
		 VL_AUTOLOAD_ALIAS, e->len, e->name, err,
		 found ? "registered" : "not registered");

	spin_lock(&autoload_lock);
	autoload_sleepers--;
	e->pending = false;
	e->when = jiffies;
	WRITE_ONCE(e->seq, e->seq + 1);
	if (found) {
		e->len = 0;	/* loaded again at once if it is unloaded */
		if (window == autoload_window)
			autoload_fails--;
	}
	spin_unlock(&autoload_lock);
	wake_up_all(&autoload_wq);
	return found;
}

/**
 * vl_autoload_due() - whether a call should load the module of an
 *	interface
 * @name: the interface name the call gives, not NUL-terminated
 * @len: bytes of @name
 *
 * Cheap enough for the fast path: a call for which this is true goes to
 * its connection's kworker, which calls vl_autoload().
 *
 * Return: true if @name may be autoloaded, is not registered, and was
 * not requested in vain lately.
 */
bool vl_autoload_due(const char *name, size_t len)
{
	struct vl_autoload_name *e;
	bool due;

	if (!autoload_name_ok(name, len) || autoload_registered(name, len))
		return false;
	spin_lock(&autoload_lock);
	e = autoload_find(name, len);
	due = !e || !autoload_recent(e);
	spin_unlock(&autoload_lock);
	return due;
}

/**
 * vl_autoload() - load the module of an interface that is not registered
 * @name: the interface name the call gives, not NUL-terminated
 * @len: bytes of @name
 *
 * Requests the alias "varlink-interface-@name" (request_module()), or
 * waits for a request of it that is running, within the bounds described
 * at the top of this file.
 *
 * Context: process context, in a kworker, holding no lock that a client's
 * task can hold: may wait for modprobe.
 * Return: true if the interface may be registered now: the caller looks
 * it up again.
 */
bool vl_autoload(const char *name, size_t len)
{
	struct vl_autoload_name *e;
	unsigned long window;

	might_sleep();
	if (!autoload_name_ok(name, len) || autoload_registered(name, len))
		return false;

	spin_lock(&autoload_lock);
	e = autoload_find(name, len);
	if ((e && autoload_recent(e)) ||
	    autoload_sleepers >= VL_AUTOLOAD_SLEEPERS)
		goto refuse;
	if (e && e->pending)
		return autoload_wait(e);
	if (!e)
		e = autoload_slot();
	if (!e || !autoload_charge(&window))
		goto refuse;
	memcpy(e->name, name, len);
	e->len = len;
	return autoload_request(e, window);
refuse:
	spin_unlock(&autoload_lock);
	return false;
}
