// SPDX-License-Identifier: GPL-2.0
/*
 * The listener: an AF_UNIX stream socket in the abstract namespace of the
 * initial network namespace.
 *
 * The listening socket's ->sk_data_ready() runs in the connecting task
 * (AF_UNIX calls it after dropping its own locks), but it must not sleep,
 * so it only queues accept_work, which accepts until -EAGAIN.  An accept
 * that fails otherwise (no memory for the new socket) leaves the
 * connection in the backlog and is tried again a little later: no new
 * client may come to wake the listener.
 */
#include <linux/net.h>
#include <linux/un.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <net/tcp_states.h>
#include <kunit/visibility.h>

#include "compat.h"
#include "internal.h"

struct vl_server {
	struct socket *listener;
	struct workqueue_struct *wq;
	struct delayed_work accept_work;
	void (*saved_data_ready)(struct sock *sk);
	char name[UNIX_PATH_MAX];
};

static struct vl_server server;

static void listen_data_ready(struct sock *sk)
{
	struct vl_server *srv;

	read_lock_bh(&sk->sk_callback_lock);
	srv = sk->sk_user_data;
	if (srv && sk->sk_state == TCP_LISTEN)
		mod_delayed_work(srv->wq, &srv->accept_work, 0);
	read_unlock_bh(&sk->sk_callback_lock);
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
		vl_conn_create(sock, srv->wq);
	}
	if (err != -EAGAIN) {
		pr_warn_ratelimited("accept failed: %d; trying again\n", err);
		mod_delayed_work(srv->wq, &srv->accept_work, HZ / 10);
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

/**
 * vl_server_start() - create the listener and start accepting
 * @name: abstract socket name without the leading '@', 1 to 107 bytes
 *
 * Return: 0, or a negative errno; -EADDRINUSE when the name is taken.
 */
int vl_server_start(const char *name)
{
	struct vl_server *srv = &server;
	int err;

	strscpy(srv->name, name, sizeof(srv->name));
	INIT_DELAYED_WORK(&srv->accept_work, accept_work);

	/* unbound: connections are served in parallel on all CPUs */
	srv->wq = alloc_workqueue("varlink", WQ_UNBOUND, 0);
	if (!srv->wq)
		return -ENOMEM;

	err = sock_create_kern(&init_net, AF_UNIX, SOCK_STREAM, 0,
			       &srv->listener);
	if (err)
		goto err_wq;

	err = vl_sender_listen(srv->listener);
	if (err) {
		pr_err("cannot have writers' credentials passed: %d\n", err);
		goto err_sock;
	}

	err = listener_bind(srv->listener, name);
	if (err) {
		if (err == -EADDRINUSE)
			pr_err("@%s is already bound by another socket; choose another with socket_name=\n",
			       name);
		else
			pr_err("cannot bind @%s: %d\n", name, err);
		goto err_sock;
	}

	listener_set_callbacks(srv);
	err = kernel_listen(srv->listener, SOMAXCONN);
	if (err) {
		pr_err("cannot listen on @%s: %d\n", name, err);
		goto err_callbacks;
	}
	return 0;

err_callbacks:
	listener_restore_callbacks(srv);
err_sock:
	sock_release(srv->listener);
	srv->listener = NULL;
err_wq:
	destroy_workqueue(srv->wq);
	return err;
}

/**
 * vl_server_stop() - stop accepting, close the listener and every connection
 *
 * Mirrors vl_server_start(): no callback runs and no work is queued
 * once the callbacks are restored, so the accept work can be cancelled
 * before the socket goes away.  Then every connection is closed and
 * waited for, and the workqueue runs what is left of their work.
 */
void vl_server_stop(void)
{
	struct vl_server *srv = &server;

	listener_restore_callbacks(srv);
	cancel_delayed_work_sync(&srv->accept_work);
	sock_release(srv->listener);
	srv->listener = NULL;
	vl_conn_shutdown_all();
	destroy_workqueue(srv->wq);
}

/**
 * vl_server_name() - the abstract name the server listens on
 *
 * Return: the name, without the leading '@'.
 */
const char *vl_server_name(void)
{
	return server.name;
}
EXPORT_SYMBOL_IF_KUNIT(vl_server_name);
