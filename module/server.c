// SPDX-License-Identifier: GPL-2.0
/*
 * The listeners: an AF_UNIX stream socket in the abstract namespace of
 * every network namespace (pernet operations), or of the initial one
 * only with init_net_only.
 *
 * The name is the kernel's in the initial namespace: where a process
 * holds it already, the module does not load, and says whose socket it
 * is.  Elsewhere a namespace whose processes hold it is left to them,
 * with a warning; clients check that their server is the kernel by the
 * listener's credentials (listener_listen()).
 *
 * The listening socket's ->sk_data_ready() runs in the connecting task
 * (AF_UNIX calls it after dropping its own locks), but it must not sleep,
 * so it only queues accept_work, which accepts until -EAGAIN.  An accept
 * that fails otherwise (no memory for the new socket) leaves the
 * connection in the backlog and is tried again a little later: no new
 * client may come to wake the listener.
 */
#include <linux/cred.h>
#include <linux/net.h>
#include <linux/pid.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/srcu.h>
#include <linux/un.h>
#include <linux/workqueue.h>
#include <net/af_unix.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/sock.h>
#include <net/tcp_states.h>
#include <kunit/visibility.h>

#include "admission.h"
#include "compat.h"
#include "conn.h"
#include "dispatch.h"
#include "sender.h"
#include "server.h"
#include "test_hooks.h"

/* The listener of one network namespace, and its /proc/net/varlink */
struct vl_server {
	struct socket *listener;	/* NULL where none could be made */
	struct delayed_work accept_work;
	void (*saved_data_ready)(struct sock *sk);
	atomic_long_t refused;		/* connections refused over a limit */
	struct proc_dir_entry *proc;	/* or NULL */
};

static unsigned int server_net_id;
static struct workqueue_struct *server_wq;
static char server_name[UNIX_PATH_MAX];
static bool server_init_net_only;

/* In the connecting task, see vl_callbacks_srcu */
static void listen_data_ready(struct sock *sk)
{
	struct vl_server *srv;
	int idx;

	idx = srcu_read_lock(&vl_callbacks_srcu);
	read_lock_bh(&sk->sk_callback_lock);
	srv = sk->sk_user_data;
	if (srv && sk->sk_state == TCP_LISTEN)
		mod_delayed_work(server_wq, &srv->accept_work, 0);
	read_unlock_bh(&sk->sk_callback_lock);
	vl_test_delay(VL_TEST_CALLBACK_DELAY);
	srcu_read_unlock(&vl_callbacks_srcu, idx);
}

static void accept_work(struct work_struct *work)
{
	struct vl_server *srv = container_of(to_delayed_work(work),
					     struct vl_server, accept_work);
	struct socket *sock;
	int err;

	for (;;) {
		err = kernel_accept(srv->listener, &sock, O_NONBLOCK);
		if (err)
			break;
		/* an error has closed the socket; a refused client was told why */
		if (vl_conn_create(sock, &vl_dispatch_ops) == -EMFILE)
			atomic_long_inc(&srv->refused);
	}
	if (err != -EAGAIN) {
		pr_warn_ratelimited("accept failed: %d; trying again\n", err);
		mod_delayed_work(server_wq, &srv->accept_work, HZ / 10);
	}
}

static void listener_set_callbacks(struct vl_server *srv)
{
	struct sock *sk = srv->listener->sk;

	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = srv;
	srv->saved_data_ready = sk->sk_data_ready;
	sk->sk_data_ready = listen_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
}

static void listener_restore_callbacks(struct vl_server *srv)
{
	struct sock *sk = srv->listener->sk;

	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_data_ready = srv->saved_data_ready;
	sk->sk_user_data = NULL;
	write_unlock_bh(&sk->sk_callback_lock);
}

/* The abstract address: a leading NUL, the name, and no trailing NUL. */
static int listener_bind(struct socket *sock, const char *name)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	size_t len = strlen(name);

	memcpy(addr.sun_path + 1, name, len);
	return kernel_bind(sock, (struct sockaddr_unsized *)&addr,
			   offsetof(struct sockaddr_un, sun_path) + 1 + len);
}

/* Make the listener the kernel's, as its clients see it.  AF_UNIX's
 * listen() records the current task's thread group and credentials as
 * the listener's, and every connect() copies them to the client's socket
 * (SO_PEERCRED): they would be those of insmod, or of the task that made
 * the network namespace, a process like any other.  The listener listens
 * with the kernel's credentials instead (init_task's: uid and gid 0 of
 * the initial user namespace), and then forgets the pid it recorded, so
 * that its clients see pid 0, which no process's socket carries (the
 * credentials stay: a NULL pid is what SO_PEERCRED shows as 0, and what
 * SO_PEERPIDFD of 6.5 on refuses with -ESRCH).  connect() copies the
 * listener's under the listener's state lock (newer kernels) or under
 * both sockets' sk_peer_lock (6.1): the pid is dropped under both.
 */
static int listener_listen(struct socket *sock)
{
	struct sock *sk = sock->sk;
	const struct cred *old;
	struct pid *pid;
	int err;

	/* init_task's are the kernel's, kernel_cred() of 6.18 */
	old = override_creds(rcu_dereference_raw(init_task.cred));
	err = kernel_listen(sock, SOMAXCONN);
	revert_creds(old);
	if (err || !VL_PEER_PID_DROP)
		return err;

	unix_state_lock(sk);
	spin_lock(&sk->sk_peer_lock);
	pid = sk->sk_peer_pid;
	sk->sk_peer_pid = NULL;
	spin_unlock(&sk->sk_peer_lock);
	unix_state_unlock(sk);
	put_pid(pid);
	return 0;
}

/* A namespace the server cannot listen in is named in the log, once (its
 * listener is made once), as ls -l /proc/PID/ns/net shows it: net:[N].
 * The initial namespace's failures are listener_start()'s to tell.
 */
static void listener_unserved(struct net *net, int err)
{
	if (err == -EADDRINUSE)
		pr_warn("@%s is taken in network namespace net:[%u]: not served there\n",
			server_name, net->ns.inum);
	else
		pr_warn_ratelimited("no listener in network namespace net:[%u]: %d\n",
				    net->ns.inum, err);
}

/* Whether @sk is bound to the module's name: an abstract stream socket */
static bool sk_has_name(struct sock *sk)
{
	const struct unix_address *addr = unix_sk(sk)->addr;
	size_t len = strlen(server_name);

	return sk->sk_type == SOCK_STREAM && addr &&
	       addr->len == offsetof(struct sockaddr_un, sun_path) + 1 + len &&
	       !addr->name->sun_path[0] &&
	       !memcmp(addr->name->sun_path + 1, server_name, len);
}

/**
 * listener_squatter() - say whose socket holds the name in @net
 * @net: the initial network namespace, where the bind failed
 *
 * The module does not load without serving the host: it names the
 * socket that took its name, as ss -xlp and /proc/PID/fd show it
 * (socket:[INODE]), with its owner and, if it listens, the process that
 * made it listen.  AF_UNIX hashes abstract names into the upper half of
 * the namespace's table (unix_abstract_hash()); its buckets are looked
 * through under their locks, as /proc/net/unix does.
 */
static void listener_squatter(struct net *net)
{
	unsigned long ino = 0;
	struct pid *pid = NULL;
	struct task_struct *task;
	char comm[TASK_COMM_LEN] = "";
	unsigned int i;
	kuid_t uid = INVALID_UID;
	struct sock *sk;

	for (i = UNIX_HASH_MOD + 1; i < UNIX_HASH_SIZE && !ino; i++) {
		spin_lock(&net->unx.table.locks[i]);
		sk_for_each(sk, &net->unx.table.buckets[i]) {
			if (!sk_has_name(sk))
				continue;
			ino = sock_i_ino(sk);
			uid = READ_ONCE(sk->sk_uid);
			spin_lock(&sk->sk_peer_lock);
			pid = get_pid(sk->sk_peer_pid);
			spin_unlock(&sk->sk_peer_lock);
			break;
		}
		spin_unlock(&net->unx.table.locks[i]);
	}
	if (!ino) {
		pr_err("@%s is already bound by another socket; choose another with socket_name=\n",
		       server_name);
		return;
	}
	task = get_pid_task(pid, PIDTYPE_TGID);
	if (task) {
		get_task_comm(comm, task);
		put_task_struct(task);
	}
	pr_err("@%s is taken in the initial network namespace by socket:[%lu] of uid %u, pid %d (%s): not loaded; free the name, or choose another with socket_name=\n",
	       server_name, ino, from_kuid(&init_user_ns, uid),
	       pid_nr(pid), comm);
	put_pid(pid);
}

/* Listen in @net, on the module's name. */
static int listener_start(struct vl_server *srv, struct net *net)
{
	struct socket *sock;
	int err;

	/* a kernel socket: it holds no reference on @net */
	err = sock_create_kern(net, AF_UNIX, SOCK_STREAM, 0, &sock);
	if (err)
		return err;
	srv->listener = sock;

	err = vl_sender_listen(sock);
	if (err) {
		pr_err("cannot have writers' credentials passed: %d\n", err);
		goto err_sock;
	}

	err = listener_bind(sock, server_name);
	if (err) {
		/* elsewhere, its processes may hold the name: a warning will do */
		if (!net_eq(net, &init_net))
			goto err_sock;
		if (err == -EADDRINUSE)
			listener_squatter(net);
		else
			pr_err("cannot bind @%s: %d\n", server_name, err);
		goto err_sock;
	}

	listener_set_callbacks(srv);
	err = listener_listen(sock);
	if (err) {
		pr_err("cannot listen on @%s: %d\n", server_name, err);
		goto err_callbacks;
	}
	return 0;

err_callbacks:
	listener_restore_callbacks(srv);
err_sock:
	sock_release(sock);
	srv->listener = NULL;
	return err;
}

/* /proc/net/varlink: what an administrator of a namespace needs to see
 * of the server there.  The statistics of /sys/module/varlink/ are the
 * host's, over every namespace.
 */
static int server_proc_show(struct seq_file *seq, void *v)
{
	struct net *net = seq_file_single_net(seq);
	struct vl_server *srv = net_generic(net, server_net_id);

	seq_printf(seq, "listening %d\n", !!srv->listener);
	seq_printf(seq, "connections %u\n", vl_admission_count_net(net));
	seq_printf(seq, "refused %ld\n", atomic_long_read(&srv->refused));
	return 0;
}

/* A new network namespace, or one that was there when the module loaded.
 * Only the initial namespace must have a listener: elsewhere a failure
 * (no memory, or the name taken before the module loaded) is logged and
 * the namespace is served no varlink, rather than failing to be created.
 */
static int __net_init server_net_init(struct net *net)
{
	struct vl_server *srv = net_generic(net, server_net_id);
	int err = 0;

	INIT_DELAYED_WORK(&srv->accept_work, accept_work);
	if (!server_init_net_only || net_eq(net, &init_net))
		err = listener_start(srv, net);
	if (err && net_eq(net, &init_net))
		return err;
	if (err)
		listener_unserved(net, err);
	/* once @srv->listener is set for good: the file reads it */
	srv->proc = proc_create_net_single("varlink", 0444, net->proc_net,
					   server_proc_show, NULL);
	if (!srv->proc)
		pr_warn_ratelimited("no /proc/net/varlink in a network namespace\n");
	return 0;
}

/* The namespace is going away, and every connection of it is gone
 * already (an accepted AF_UNIX socket holds a reference on its
 * namespace); or the module is, and vl_server_stop() closes them next.
 * Mirrors listener_start(): no callback runs and no work is queued once
 * the callbacks are restored, so the accept work can be cancelled before
 * the socket goes away.
 */
static void __net_exit server_net_exit(struct net *net)
{
	struct vl_server *srv = net_generic(net, server_net_id);

	proc_remove(srv->proc);
	if (!srv->listener)
		return;
	listener_restore_callbacks(srv);
	cancel_delayed_work_sync(&srv->accept_work);
	sock_release(srv->listener);
	srv->listener = NULL;
}

static struct pernet_operations server_net_ops = {
	.init = server_net_init,
	.exit = server_net_exit,
	.id = &server_net_id,
	.size = sizeof(struct vl_server),
};

/**
 * vl_server_start() - listen in every network namespace
 * @name: abstract socket name without the leading '@', 1 to 107 bytes
 * @init_net_only: listen in the initial network namespace only
 *
 * Namespaces created later get their listener when they are created.
 *
 * Return: 0, or a negative errno; -EADDRINUSE when the name is taken in
 * the initial network namespace.
 */
int vl_server_start(const char *name, bool init_net_only)
{
	int err;

	strscpy(server_name, name, sizeof(server_name));
	server_init_net_only = init_net_only;

	/* the listeners' own: an accept never waits behind connections' work */
	server_wq = alloc_workqueue("varlink_accept", WQ_UNBOUND, 0);
	if (!server_wq)
		return -ENOMEM;
	err = register_pernet_subsys(&server_net_ops);
	if (err)
		destroy_workqueue(server_wq);
	return err;
}

/**
 * vl_server_stop() - close every listener and every connection
 *
 * The listeners go first, then every connection is closed and waited
 * for.
 */
void vl_server_stop(void)
{
	unregister_pernet_subsys(&server_net_ops);
	vl_conn_shutdown_all();
	destroy_workqueue(server_wq);
}

/**
 * vl_server_init_net_only() - whether only the initial network namespace
 *	has a listener
 *
 * Return: the module parameter init_net_only.
 */
bool vl_server_init_net_only(void)
{
	return server_init_net_only;
}

/**
 * vl_server_name() - the abstract name the server listens on
 *
 * Return: the name, without the leading '@'.
 */
const char *vl_server_name(void)
{
	return server_name;
}
EXPORT_SYMBOL_IF_KUNIT(vl_server_name);
