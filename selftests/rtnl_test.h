/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtnetlink for the selftests, just enough to make, change and delete
 * links: what the network tests change to see MonitorLinks report it.
 */
#ifndef _VARLINK_RTNL_TEST_H
#define _VARLINK_RTNL_TEST_H

#include <errno.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct nl_req {
	struct nlmsghdr nh;
	struct ifinfomsg ifi;
	char attrs[512];
};

static inline void nl_init(struct nl_req *r, int type, int flags, int ifindex)
{
	memset(r, 0, sizeof(*r));
	r->nh.nlmsg_len = NLMSG_LENGTH(sizeof(r->ifi));
	r->nh.nlmsg_type = type;
	r->nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	r->ifi.ifi_family = AF_UNSPEC;
	r->ifi.ifi_index = ifindex;
}

static inline void *nl_tail(struct nl_req *r)
{
	return (char *)r + NLMSG_ALIGN(r->nh.nlmsg_len);
}

static inline void nl_put(struct nl_req *r, int type, const void *data, size_t len)
{
	struct rtattr *rta = nl_tail(r);

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	r->nh.nlmsg_len = NLMSG_ALIGN(r->nh.nlmsg_len) + RTA_ALIGN(rta->rta_len);
}

static inline void nl_put_str(struct nl_req *r, int type, const char *s)
{
	nl_put(r, type, s, strlen(s) + 1);
}

static inline struct rtattr *nl_nest(struct nl_req *r, int type)
{
	struct rtattr *nest = nl_tail(r);

	nl_put(r, type, NULL, 0);
	return nest;
}

static inline void nl_nest_end(struct nl_req *r, struct rtattr *nest)
{
	nest->rta_len = (char *)r + r->nh.nlmsg_len - (char *)nest;
}

/* Send a request and wait for its ack; returns 0 or -errno. */
static inline int nl_talk(struct nl_req *r)
{
	char buf[4096];
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	int fd, err;
	ssize_t n;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (send(fd, r, r->nh.nlmsg_len, 0) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	n = recv(fd, buf, sizeof(buf), 0);
	err = n < 0 ? -errno : -EPROTO;
	if (n >= (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)) &&
	    nh->nlmsg_type == NLMSG_ERROR)
		err = ((struct nlmsgerr *)NLMSG_DATA(nh))->error;
	close(fd);
	return err;
}

/* Make a link of @kind ("dummy", or "veth" with its @peer). */
static inline int link_add(const char *name, const char *kind, const char *peer)
{
	struct rtattr *info, *data, *p;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nl_req r;

	nl_init(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, 0);
	nl_put_str(&r, IFLA_IFNAME, name);
	info = nl_nest(&r, IFLA_LINKINFO);
	nl_put_str(&r, IFLA_INFO_KIND, kind);
	if (peer) {
		data = nl_nest(&r, IFLA_INFO_DATA);
		p = nl_nest(&r, VETH_INFO_PEER);
		memcpy(nl_tail(&r), &ifi, sizeof(ifi));
		r.nh.nlmsg_len = NLMSG_ALIGN(r.nh.nlmsg_len) + NLMSG_ALIGN(sizeof(ifi));
		nl_put_str(&r, IFLA_IFNAME, peer);
		nl_nest_end(&r, p);
		nl_nest_end(&r, data);
	}
	nl_nest_end(&r, info);
	return nl_talk(&r);
}

static inline int link_del(const char *name)
{
	struct nl_req r;

	nl_init(&r, RTM_DELLINK, 0, 0);
	nl_put_str(&r, IFLA_IFNAME, name);
	return nl_talk(&r);
}

/* A change of link @name: start it, add attributes, then nl_talk(). */
static inline int link_change(struct nl_req *r, const char *name)
{
	int index = if_nametoindex(name);

	if (!index)
		return -ENODEV;
	nl_init(r, RTM_SETLINK, 0, index);
	return 0;
}

static inline int link_set_mtu(const char *name, unsigned int mtu)
{
	struct nl_req r;
	int err = link_change(&r, name);

	if (err)
		return err;
	nl_put(&r, IFLA_MTU, &mtu, sizeof(mtu));
	return nl_talk(&r);
}

static inline int link_set_up(const char *name, bool up)
{
	struct nl_req r;
	int err = link_change(&r, name);

	if (err)
		return err;
	r.ifi.ifi_flags = up ? IFF_UP : 0;
	r.ifi.ifi_change = IFF_UP;
	return nl_talk(&r);
}

#endif /* _VARLINK_RTNL_TEST_H */
