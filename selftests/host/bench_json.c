// SPDX-License-Identifier: GPL-2.0
/*
 * Throughput of the varlink core's JSON tokenizer (module/json.c, built
 * for userspace) against Debian's json-c, cJSON and jansson, parsing the
 * same bytes: a varlink-sized call, a ~64 KiB reply and a deeply nested
 * document.  Each figure is the median of several timed runs; nothing is
 * asserted, the table is for people.
 *
 * Every parser does its whole job per iteration: ours fills a token array
 * allocated once (that is its design) and checks for duplicate keys; the
 * others build and free their trees.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>
#include <jansson.h>

#include <linux/kernel.h>

#include "bench_jsonc.h"
#include "json.h"

#define RUNS		7
#define RUN_SECONDS	0.15

struct input {
	const char *name;
	char *buf;
	size_t len;
};

struct parser {
	const char *name;
	int (*parse)(const char *buf, size_t len);
};

static struct vl_json_tok *toks;
static u32 ntoks;
static struct json_tokener *jc_tok;

static int parse_vl(const char *buf, size_t len)
{
	static const struct vl_json_limits lim = {
		.max_size = VL_MSG_SIZE_MAX,
		.max_depth = VL_JSON_DEPTH_DEFAULT,
		.max_tokens = VL_JSON_TOKENS_MAX,
	};
	struct vl_json js;

	vl_json_init(&js, toks, ntoks);
	return vl_json_parse(&js, buf, len, &lim) ? -1 : 0;
}

static int parse_jsonc(const char *buf, size_t len)
{
	struct json_object *o;

	json_tokener_reset(jc_tok);
	o = json_tokener_parse_ex(jc_tok, buf, len);
	if (!o || json_tokener_get_error(jc_tok))
		return -1;
	json_object_put(o);
	return 0;
}

static int parse_cjson(const char *buf, size_t len)
{
	cJSON *o = cJSON_ParseWithLength(buf, len);

	if (!o)
		return -1;
	cJSON_Delete(o);
	return 0;
}

static int parse_jansson(const char *buf, size_t len)
{
	json_error_t err;
	json_t *o = json_loadb(buf, len, 0, &err);

	if (!o)
		return -1;
	json_decref(o);
	return 0;
}

static const struct parser parsers[] = {
	{ "vl_json", parse_vl },
	{ "json-c", parse_jsonc },
	{ "cJSON", parse_cjson },
	{ "jansson", parse_jansson },
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median MB/s of RUNS runs of about RUN_SECONDS each. */
static double measure(const struct parser *p, const struct input *in)
{
	double mbs[RUNS], t0, t;
	long iters = 1, i;
	int r;

	/* calibrate */
	for (;;) {
		t0 = now();
		for (i = 0; i < iters; i++)
			p->parse(in->buf, in->len);
		t = now() - t0;
		if (t > RUN_SECONDS / 4)
			break;
		iters *= 2;
	}
	iters = iters * (RUN_SECONDS / t) + 1;
	for (r = 0; r < RUNS; r++) {
		t0 = now();
		for (i = 0; i < iters; i++)
			p->parse(in->buf, in->len);
		t = now() - t0;
		mbs[r] = in->len * (double)iters / t / 1e6;
	}
	qsort(mbs, RUNS, sizeof(mbs[0]), cmp_double);
	return mbs[RUNS / 2];
}

struct sbuf {
	char *p;
	size_t len, cap;
};

static __printf(2, 3) void put(struct sbuf *b, const char *fmt, ...);

static void put(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if ((size_t)n < b->cap - b->len)
			break;
		b->cap = b->cap * 2 + n + 64;
		b->p = realloc(b->p, b->cap);
	}
	b->len += n;
}

static void make_call(struct input *in)
{
	static const char call[] =
		"{\"method\":\"org.kernel.system.GetInfo\",\"parameters\":{"
		"\"name\":\"eth0\",\"index\":2}}";

	in->name = "call";
	in->len = sizeof(call) - 1;
	in->buf = malloc(in->len);
	memcpy(in->buf, call, in->len);
}

/* An array of link objects, as a varlink reply, just under 64 KiB. */
static void make_reply(struct input *in)
{
	struct sbuf b = { NULL, 0, 0 };
	size_t keep = 0;
	int i;

	put(&b, "{\"parameters\":{\"links\":[");
	for (i = 0; b.len < 65000; i++) {
		keep = b.len;
		put(&b, "%s{\"name\":\"eth%d\",\"index\":%d,\"mtu\":1500,\"up\":%s,",
		    i ? "," : "", i, i + 1, i % 3 ? "true" : "false");
		put(&b, "\"flags\":[\"broadcast\",\"multicast\"],");
		put(&b, "\"address\":\"52:54:00:12:%02x:%02x\",", i / 256, i % 256);
		put(&b, "\"alias\":\"uplink to \\\"rack %d\\\" \\u00e9\",", i % 40);
		put(&b, "\"stats\":{\"rx_bytes\":%llu,\"tx_bytes\":%llu,",
		    123456789ULL * (i + 1), 987654321ULL * (i + 7));
		put(&b, "\"rx_errors\":%d,\"load\":%d.%02d}}", i % 5, i % 4, i % 100);
	}
	b.len = keep;
	put(&b, "]}}");
	in->name = "reply_64k";
	in->buf = b.p;
	in->len = b.len;
}

/* Eight documents nested 20 deep, arrays and objects alternating. */
static void make_deep(struct input *in)
{
	struct sbuf b = { NULL, 0, 0 };
	int d, k;

	put(&b, "[");
	for (k = 0; k < 8; k++) {
		put(&b, "%s", k ? "," : "");
		for (d = 0; d < 20; d++) {
			if (d % 2)
				put(&b, "[%d,\"s%d\",true,", d, k);
			else
				put(&b, "{\"depth\":%d,\"tag\":\"t%d\",\"v\":[1.5,-2e3],\"next\":",
				    d, k);
		}
		put(&b, "null");
		for (d = 19; d >= 0; d--)
			put(&b, d % 2 ? "]" : "}");
	}
	put(&b, "]");
	in->name = "deep_20";
	in->buf = b.p;
	in->len = b.len;
}

int main(void)
{
	struct input inputs[3];
	size_t i, j;

	make_call(&inputs[0]);
	make_reply(&inputs[1]);
	make_deep(&inputs[2]);
	ntoks = vl_json_tokens_needed(inputs[1].len + inputs[2].len);
	toks = calloc(ntoks, sizeof(*toks));
	jc_tok = json_tokener_new_ex(64);

	printf("%-10s %7s", "input", "bytes");
	for (j = 0; j < ARRAY_SIZE(parsers); j++)
		printf(" %10s", parsers[j].name);
	for (j = 1; j < ARRAY_SIZE(parsers); j++)
		printf("  vs %-7s", parsers[j].name);
	printf("\n%-10s %7s", "", "");
	for (j = 0; j < ARRAY_SIZE(parsers); j++)
		printf(" %10s", "MB/s");
	printf("\n");
	for (i = 0; i < 3; i++) {
		double mbs[4];

		printf("%-10s %7zu", inputs[i].name, inputs[i].len);
		for (j = 0; j < 4; j++) {
			if (parsers[j].parse(inputs[i].buf, inputs[i].len)) {
				printf("\n%s rejects %s\n", parsers[j].name,
				       inputs[i].name);
				return 1;
			}
			mbs[j] = measure(&parsers[j], &inputs[i]);
			printf(" %10.1f", mbs[j]);
			fflush(stdout);
		}
		for (j = 1; j < 4; j++)
			printf("  %9.2fx", mbs[0] / mbs[j]);
		printf("\n");
	}
	printf("# median of %d runs of ~%.2f s each; ratio = vl_json / other\n",
	       RUNS, RUN_SECONDS);
	json_tokener_free(jc_tok);
	free(toks);
	for (i = 0; i < 3; i++)
		free(inputs[i].buf);
	return 0;
}
