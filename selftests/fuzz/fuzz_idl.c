// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the IDL parser (module/idl.c).
 *
 * Any input: no crash, no leak.  A valid description must give a schema
 * that passes vl_idl_check_schema(), renders and looks up every member; an
 * invalid one an error whose line and column agree with its offset.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/errno.h>
#include <linux/kernel.h>

#include "../../module/tests/idl_cases.h"

static void check_error(const char *text, size_t len,
			const struct vl_idl_error *err)
{
	size_t i;
	int line = 1;

	if (!err->msg || err->offset > len || err->line < 1 || err->col < 1)
		abort();
	for (i = 0; i < err->offset; i++)
		line += text[i] == '\n';
	if (line != err->line)
		abort();
	if (err->token && (err->token < text ||
			   err->token + err->token_len > text + len))
		abort();
}

static void check_schema(const struct vl_idl *idl)
{
	static char buf[1 << 16];
	const struct vl_idl_member *m;
	const char *bad = vl_idl_check_schema(idl);

	if (bad) {
		fprintf(stderr, "inconsistent schema: %s\n", bad);
		abort();
	}
	for (m = idl->members; m < idl->members + idl->n_members; m++) {
		char name[VL_NAME_MAX + 1];

		memcpy(name, m->name, m->name_len);
		name[m->name_len] = 0;
		if (!vl_idl_render(idl, name, buf, sizeof(buf)))
			abort();
	}
	vl_idl_render(idl, NULL, buf, sizeof(buf));
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct vl_idl_error err;
	struct vl_idl *idl;
	char *text;
	int ret;

	/* a copy of exactly @size bytes, so that ASan sees any over-read */
	text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	ret = vl_idl_parse(text, size, &idl, &err);
	if (ret == 0)
		check_schema(idl);
	else if (ret == -EINVAL)
		check_error(text, size, &err);
	else
		abort();
	vl_idl_free(idl);
	free(text);
	return 0;
}
