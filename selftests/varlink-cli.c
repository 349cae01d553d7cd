// SPDX-License-Identifier: GPL-2.0
/*
 * varlink-cli: a small varlink client for the in-kernel server.
 *
 *   varlink-cli [-a ADDRESS] info
 *   varlink-cli [-a ADDRESS] call INTERFACE.METHOD [PARAMETERS]
 *   varlink-cli [-a ADDRESS] describe INTERFACE
 *   varlink-cli [-a ADDRESS] demo
 *
 * ADDRESS is unix:@NAME or unix:/PATH, by default unix:@org.kernel.varlink.
 * Replies are printed as they arrive, one per line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "uapi/linux/varlink.h"

#define REPLY_MAX (16 << 20)

static int dial(const char *address)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	const char *name;
	socklen_t len;
	int fd;

	if (strncmp(address, "unix:", 5)) {
		fprintf(stderr, "unsupported address '%s'\n", address);
		return -1;
	}
	name = address + 5;
	if (strlen(name) < 2 || strlen(name) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "bad address '%s'\n", address);
		return -1;
	}
	if (name[0] == '@') {
		memcpy(addr.sun_path + 1, name + 1, strlen(name) - 1);
		len = offsetof(struct sockaddr_un, sun_path) + strlen(name);
	} else {
		strcpy(addr.sun_path, name);
		len = sizeof(addr);
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, len) < 0) {
		fprintf(stderr, "connect %s: %s\n", address, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int send_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

/* Read one NUL-terminated message into a malloc'ed string. */
static char *recv_message(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);

	while (buf) {
		ssize_t n;

		if (len == cap) {
			char *bigger = cap < REPLY_MAX ? realloc(buf, cap * 2) : NULL;

			if (!bigger)
				break;
			buf = bigger;
			cap *= 2;
		}
		n = recv(fd, buf + len, 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (buf[len] == '\0')
			return buf;
		len++;
	}
	free(buf);
	return NULL;
}

static int call(int fd, const char *method, const char *params)
{
	char *msg, *reply;
	int n, more;

	n = asprintf(&msg, "{\"method\":\"%s\"%s%s}", method,
		     params ? ",\"parameters\":" : "", params ? params : "");
	if (n < 0 || send_all(fd, msg, n + 1) < 0) {
		perror("send");
		return 1;
	}
	free(msg);
	do {
		reply = recv_message(fd);
		if (!reply) {
			fprintf(stderr, "%s: no reply (connection closed)\n", method);
			return 1;
		}
		printf("%s\n", reply);
		more = !!strstr(reply, "\"continues\":true");
		n = !!strstr(reply, "\"error\":");
		free(reply);
	} while (more);
	return n;
}

int main(int argc, char **argv)
{
	const char *address = VARLINK_ADDRESS;
	char params[512];
	int fd, ret;

	if (argc > 2 && !strcmp(argv[1], "-a")) {
		address = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: %s [-a ADDRESS] info|call|describe|demo ...\n",
			argv[0]);
		return 2;
	}
	fd = dial(address);
	if (fd < 0)
		return 1;

	if (!strcmp(argv[1], "info")) {
		ret = call(fd, "org.varlink.service.GetInfo", NULL);
	} else if (!strcmp(argv[1], "call") && argc >= 3) {
		ret = call(fd, argv[2], argc > 3 ? argv[3] : NULL);
	} else if (!strcmp(argv[1], "describe") && argc == 3) {
		snprintf(params, sizeof(params), "{\"interface\":\"%s\"}", argv[2]);
		ret = call(fd, "org.varlink.service.GetInterfaceDescription", params);
	} else if (!strcmp(argv[1], "demo")) {
		printf("== org.varlink.service.GetInfo\n");
		ret = call(fd, "org.varlink.service.GetInfo", NULL);
		printf("== org.varlink.service.GetInterfaceDescription\n");
		ret |= call(fd, "org.varlink.service.GetInterfaceDescription",
			    "{\"interface\":\"org.varlink.service\"}");
	} else {
		fprintf(stderr, "unknown command '%s'\n", argv[1]);
		ret = 2;
	}
	close(fd);
	return ret;
}
