// SPDX-License-Identifier: GPL-2.0
/*
 * varlink-cli: a small varlink client for the in-kernel server.
 *
 *   varlink-cli [-a ADDRESS] info
 *   varlink-cli [-a ADDRESS] call [--more|--oneway] INTERFACE.METHOD [PARAMETERS]
 *   varlink-cli [-a ADDRESS] describe INTERFACE
 *   varlink-cli [-a ADDRESS] demo
 *
 * ADDRESS is unix:@NAME or unix:/PATH, by default unix:@org.kernel.varlink.
 * The parameters of each reply are printed as JSON, indented by two
 * spaces; with --more, every reply as it arrives.  An error goes to
 * stderr, with its parameters, and the exit status is 1.  With --oneway
 * nothing comes back.  An interface description is printed as the text
 * it is.  demo shows GetInfo, the interfaces and their descriptions.
 *
 * Replies are parsed with the core's own tokenizer (module/json.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <linux/varlink.h>
#include "../module/json.h"

#define REPLY_MAX	(16 << 20)
#define ONEWAY_WAIT_MS	10000

/* A connection and the bytes read past the last message */
struct conn {
	int fd;
	char *buf;
	size_t len;
	size_t cap;
};

/* A reply, parsed */
struct reply {
	char *text;
	struct vl_json js;
	int params;	/* token of "parameters", or -1 */
	int error;	/* token of "error", or -1 */
	bool continues;
};

static int dial(struct conn *c, const char *address)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	const char *name;
	socklen_t len;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
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
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&addr, len) < 0) {
		fprintf(stderr, "connect %s: %s\n", address, strerror(errno));
		if (c->fd >= 0)
			close(c->fd);
		c->fd = -1;
		return -1;
	}
	return 0;
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

/* The next message, without its NUL, in a new string; NULL at the end. */
static char *recv_message(struct conn *c)
{
	for (;;) {
		char *nul = c->len ? memchr(c->buf, '\0', c->len) : NULL;
		ssize_t n;

		if (nul) {
			size_t len = nul - c->buf + 1;
			char *msg = malloc(len);

			if (!msg)
				return NULL;
			memcpy(msg, c->buf, len);
			c->len -= len;
			memmove(c->buf, c->buf + len, c->len);
			return msg;
		}
		if (c->len == c->cap) {
			size_t cap = c->cap ? c->cap * 2 : 65536;
			char *buf = cap <= REPLY_MAX ? realloc(c->buf, cap) : NULL;

			if (!buf)
				return NULL;
			c->buf = buf;
			c->cap = cap;
		}
		n = recv(c->fd, c->buf + c->len, c->cap - c->len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return NULL;
		c->len += n;
	}
}

static void reply_free(struct reply *r)
{
	free(r->js.toks);
	free(r->text);
	memset(r, 0, sizeof(*r));
}

/* Read and parse the next reply; returns 0, or -1 with a message printed. */
static int recv_reply(struct conn *c, struct reply *r)
{
	static const struct vl_json_limits lim = {
		.max_size = REPLY_MAX,
		.max_depth = VL_JSON_DEPTH_MAX,
		.max_tokens = VL_JSON_TOKENS_MAX,
	};
	struct vl_json_tok *toks;
	size_t len;
	u32 cap;
	int err, i;

	memset(r, 0, sizeof(*r));
	r->text = recv_message(c);
	if (!r->text) {
		fprintf(stderr, "no reply (connection closed)\n");
		return -1;
	}
	len = strlen(r->text);
	cap = vl_json_tokens_needed(len);
	toks = calloc(cap, sizeof(*toks));
	if (!toks) {
		reply_free(r);
		return -1;
	}
	vl_json_init(&r->js, toks, cap);
	err = vl_json_parse(&r->js, r->text, len, &lim);
	if (err || toks[0].type != VL_JSON_OBJECT) {
		fprintf(stderr, "not a reply: %s at byte %u: %s\n",
			r->js.emsg ? r->js.emsg : "not an object", r->js.epos,
			r->text);
		reply_free(r);
		return -1;
	}
	r->params = vl_json_find(&r->js, 0, "parameters");
	r->error = vl_json_find(&r->js, 0, "error");
	i = vl_json_find(&r->js, 0, "continues");
	r->continues = i >= 0 && toks[i].type == VL_JSON_BOOL &&
		       (toks[i].flags & VL_JSON_F_TRUE);
	if (r->params >= 0 && toks[r->params].type != VL_JSON_OBJECT)
		r->params = -1;
	if (r->error >= 0 && toks[r->error].type != VL_JSON_STRING)
		r->error = -1;
	return 0;
}

static void put_indent(FILE *f, int depth)
{
	fprintf(f, "%*s", 2 * depth, "");
}

/* Value @i of @js as JSON, two spaces of indent per level of @depth. */
static void print_value(FILE *f, const struct vl_json *js, u32 i, int depth)
{
	const struct vl_json_tok *t = &js->toks[i];
	bool obj = t->type == VL_JSON_OBJECT;
	u32 key, val, n = 0;

	if ((t->type != VL_JSON_OBJECT && t->type != VL_JSON_ARRAY) || !t->count) {
		fwrite(js->buf + t->start, 1, t->len, f);
		return;
	}
	fputs(obj ? "{\n" : "[\n", f);
	if (obj) {
		vl_json_for_each_member(js, i, key, val) {
			fputs(n++ ? ",\n" : "", f);
			put_indent(f, depth + 1);
			fwrite(js->buf + js->toks[key].start, 1, js->toks[key].len, f);
			fputs(": ", f);
			print_value(f, js, val, depth + 1);
		}
	} else {
		vl_json_for_each_elem(js, i, val) {
			fputs(n++ ? ",\n" : "", f);
			put_indent(f, depth + 1);
			print_value(f, js, val, depth + 1);
		}
	}
	fputc('\n', f);
	put_indent(f, depth);
	fputc(obj ? '}' : ']', f);
}

/* The parameters of @r, "{}" when there are none */
static void print_params(FILE *f, const struct reply *r)
{
	if (r->params >= 0)
		print_value(f, &r->js, r->params, 0);
	else
		fputs("{}", f);
	fputc('\n', f);
}

/* String token @i of @r, decoded, in a new buffer; NULL if it is not one. */
static char *reply_str(const struct reply *r, int i, int *len)
{
	char *s;

	if (i < 0 || r->js.toks[i].type != VL_JSON_STRING)
		return NULL;
	s = malloc(r->js.toks[i].count + 1);
	if (s)
		*len = vl_json_unescape(&r->js, i, s, r->js.toks[i].count + 1);
	return s;
}

/* An error reply: its name and parameters go to stderr. */
static int print_error(const struct reply *r)
{
	int len;
	char *name = reply_str(r, r->error, &len);

	fprintf(stderr, "error: %s\n", name ? name : "?");
	free(name);
	print_params(stderr, r);
	return 1;
}

enum { CALL_PLAIN, CALL_MORE, CALL_ONEWAY };

static int send_call(struct conn *c, const char *method, const char *params,
		     int how)
{
	char *msg;
	int n;

	n = asprintf(&msg, "{\"method\":\"%s\"%s%s%s}", method,
		     params ? ",\"parameters\":" : "", params ? params : "",
		     how == CALL_MORE ? ",\"more\":true" :
		     how == CALL_ONEWAY ? ",\"oneway\":true" : "");
	if (n < 0)
		return -1;
	n = send_all(c->fd, msg, n + 1);
	free(msg);
	if (n < 0)
		perror("send");
	return n;
}

/*
 * After a oneway call: say that nothing more comes and wait until the
 * server has read it all and closes, so that the call is not lost.
 */
static int finish_oneway(struct conn *c)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	char buf[4096];

	shutdown(c->fd, SHUT_WR);
	while (poll(&pfd, 1, ONEWAY_WAIT_MS) > 0) {
		ssize_t n = recv(c->fd, buf, sizeof(buf), 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
	}
	return 0;
}

/* Make a call and print the parameters of each reply. */
static int call(struct conn *c, const char *method, const char *params, int how)
{
	struct reply r;
	int ret;

	if (send_call(c, method, params, how) < 0)
		return 1;
	if (how == CALL_ONEWAY)
		return finish_oneway(c);
	do {
		if (recv_reply(c, &r) < 0)
			return 1;
		if (r.error >= 0) {
			ret = print_error(&r);
			reply_free(&r);
			return ret;
		}
		print_params(stdout, &r);
		ret = r.continues;
		reply_free(&r);
	} while (ret && how == CALL_MORE);
	return 0;
}

/* Make a plain call and return its reply, or print why there is none. */
static int call_reply(struct conn *c, const char *method, const char *params,
		      struct reply *r)
{
	if (send_call(c, method, params, CALL_PLAIN) < 0 || recv_reply(c, r) < 0)
		return -1;
	if (r->error >= 0) {
		print_error(r);
		reply_free(r);
		return -1;
	}
	return 0;
}

/* The text of an interface description, as it is. */
static int describe(struct conn *c, const char *iface)
{
	struct reply r;
	char *params, *desc;
	int ret = 1, len;

	if (asprintf(&params, "{\"interface\":\"%s\"}", iface) < 0)
		return 1;
	if (!call_reply(c, "org.varlink.service.GetInterfaceDescription", params, &r)) {
		desc = r.params < 0 ? NULL :
		       reply_str(&r, vl_json_find(&r.js, r.params, "description"), &len);
		if (desc) {
			fwrite(desc, 1, len, stdout);
			if (len && desc[len - 1] != '\n')
				putchar('\n');
			ret = 0;
		}
		free(desc);
		reply_free(&r);
	}
	free(params);
	return ret;
}

/* GetInfo, then the interfaces and the description of each. */
static int demo(struct conn *c)
{
	struct reply r;
	char *name;
	int ret = 0, len, list;
	u32 i;

	printf("== org.varlink.service.GetInfo\n");
	if (call_reply(c, "org.varlink.service.GetInfo", NULL, &r))
		return 1;
	print_params(stdout, &r);
	list = r.params < 0 ? -1 : vl_json_find(&r.js, r.params, "interfaces");

	printf("\n== the interfaces\n");
	vl_json_for_each_elem(&r.js, list, i) {
		name = reply_str(&r, i, &len);
		printf("%s\n", name ? name : "?");
		free(name);
	}
	vl_json_for_each_elem(&r.js, list, i) {
		name = reply_str(&r, i, &len);
		if (!name)
			continue;
		printf("\n== %s\n", name);
		ret |= describe(c, name);
		free(name);
	}
	reply_free(&r);
	return ret;
}

static void print_help(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-a ADDRESS] info\n"
		"       %s [-a ADDRESS] call [--more|--oneway] INTERFACE.METHOD [PARAMETERS]\n"
		"       %s [-a ADDRESS] describe INTERFACE\n"
		"       %s [-a ADDRESS] demo\n",
		prog, prog, prog, prog);
}

int main(int argc, char **argv)
{
	const char *address = VARLINK_ADDRESS, *prog = argv[0];
	const char *method = NULL, *params = NULL;
	int how = CALL_PLAIN, ret, arg = 2;
	struct conn c;

	if (argc > 2 && !strcmp(argv[1], "-a")) {
		address = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc < 2) {
		print_help(prog);
		return 2;
	}
	if (!strcmp(argv[1], "call")) {
		for (; arg < argc && !strncmp(argv[arg], "--", 2); arg++) {
			if (!strcmp(argv[arg], "--more") && how == CALL_PLAIN) {
				how = CALL_MORE;
			} else if (!strcmp(argv[arg], "--oneway") && how == CALL_PLAIN) {
				how = CALL_ONEWAY;
			} else {
				print_help(prog);
				return 2;
			}
		}
		if (arg >= argc || argc - arg > 2) {
			print_help(prog);
			return 2;
		}
		method = argv[arg];
		params = arg + 1 < argc ? argv[arg + 1] : NULL;
	} else if ((!strcmp(argv[1], "describe") && argc != 3) ||
		   (strcmp(argv[1], "describe") && argc != 2)) {
		print_help(prog);
		return 2;
	}
	if (dial(&c, address) < 0)
		return 1;

	if (!strcmp(argv[1], "info")) {
		ret = call(&c, "org.varlink.service.GetInfo", NULL, CALL_PLAIN);
	} else if (!strcmp(argv[1], "call")) {
		ret = call(&c, method, params, how);
	} else if (!strcmp(argv[1], "describe")) {
		ret = describe(&c, argv[2]);
	} else if (!strcmp(argv[1], "demo")) {
		ret = demo(&c);
	} else {
		fprintf(stderr, "unknown command '%s'\n", argv[1]);
		ret = 2;
	}
	close(c.fd);
	free(c.buf);
	return ret;
}
