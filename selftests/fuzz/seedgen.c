// SPDX-License-Identifier: GPL-2.0
/*
 * Write the seed corpora of the fuzz targets from the test tables
 * (idl_cases.h, validate_cases.h, json_cases.h): seedgen DIR makes
 * DIR/fuzz_idl, DIR/fuzz_json and DIR/fuzz_validate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/errno.h>
#include <linux/kernel.h>

#include "../../module/tests/json_cases.h"
#include "../../module/tests/validate_cases.h"

static const char *dir;

static void put(const char *target, const char *a, size_t alen,
		const char *b, size_t blen)
{
	static unsigned int n;
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, target);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/seed-%04u", dir, target, n++);
	f = fopen(path, "wb");
	if (!f || fwrite(a, 1, alen, f) != alen ||
	    (b && (fputc(0, f) == EOF || fwrite(b, 1, blen, f) != blen)) ||
	    fclose(f)) {
		perror(path);
		exit(1);
	}
}

static void idl_seeds(void)
{
	char *buf = malloc(VL_IDL_GEN_SIZE);
	unsigned int i;
	size_t len;

	for (i = 0; i < ARRAY_SIZE(vl_idl_cases); i++) {
		const struct vl_idl_case *c = &vl_idl_cases[i];

		put("fuzz_idl", c->text, c->len ? c->len : strlen(c->text),
		    NULL, 0);
	}
	for (i = 0; buf && i < ARRAY_SIZE(vl_idl_gen_cases); i++) {
		len = vl_idl_gen(&vl_idl_gen_cases[i], buf, VL_IDL_GEN_SIZE);
		if (len <= 4096)	/* the small ones only */
			put("fuzz_idl", buf, len, NULL, 0);
	}
	free(buf);
}

static void validate_seeds(void)
{
	char buf[VL_VALIDATE_TEXT_MAX];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vl_validate_cases); i++) {
		const struct vl_validate_case *c = &vl_validate_cases[i];
		const char *idl = c->idl ? c->idl : vl_validate_idl;
		const char *json = c->json ? c->json : "null";
		size_t len = strlen(json);

		if (c->nest) {
			len = vl_validate_nest(buf, sizeof(buf), c->nest);
			if (len > sizeof(buf))
				continue;
			json = buf;
		}
		if (!c->idl)
			put("fuzz_validate", json, len, NULL, 0);
		put("fuzz_validate", idl, strlen(idl), json, len);
		put("fuzz_json", json, len, NULL, 0);
	}
}

int main(int argc, char **argv)
{
	static const char * const json[] = {
		"{\"method\":\"org.varlink.service.GetInfo\",\"parameters\":null}",
		"[1, -0, 1.5e-3, 18446744073709551616, true, false, null, \"\"]",
		"\"\\u0000\\ud83d\\ude00\\\\\\\"\\/\\b\\f\\n\\r\\t\"",
		"{\"a\": {\"b\": [[], {}, [{}]]}, \"c\": \"\xc3\xa9\xe2\x80\xa6\"}",
	};
	unsigned int i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	dir = argv[1];
	mkdir(dir, 0755);
	idl_seeds();
	validate_seeds();
	for (i = 0; i < ARRAY_SIZE(json); i++)
		put("fuzz_json", json[i], strlen(json[i]), NULL, 0);
	for (i = 0; i < ARRAY_SIZE(json_cases); i++)
		put("fuzz_json", json_cases[i].in, json_cases[i].len, NULL, 0);
	return 0;
}
