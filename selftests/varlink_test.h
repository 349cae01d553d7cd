/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the varlink selftests. */
#ifndef _VARLINK_TEST_H
#define _VARLINK_TEST_H

#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "uapi/linux/varlink.h"

/* Fill @addr with an abstract name; @extra bytes of trailing NULs. */
static inline socklen_t vt_addr(struct sockaddr_un *addr, const char *name,
				int extra)
{
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	strncpy(addr->sun_path + 1, name, sizeof(addr->sun_path) - 2);
	return offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name) + extra;
}

/* Connect to the server; returns the fd or -1 with errno set. */
static inline int vt_connect_name(const char *name, int extra)
{
	struct sockaddr_un addr;
	socklen_t len = vt_addr(&addr, name, extra);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&addr, len) < 0) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

static inline int vt_connect(void)
{
	return vt_connect_name(VARLINK_SOCKET_NAME, 0);
}

#endif /* _VARLINK_TEST_H */
