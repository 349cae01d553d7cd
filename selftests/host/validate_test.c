// SPDX-License-Identifier: GPL-2.0
/*
 * Host runner of the validation cases: module/validate.c, idl.c and
 * json.c built in userspace, the same table as the KUnit suite
 * varlink_validate.  Output is TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/errno.h>
#include <linux/kernel.h>

#include "../../module/tests/validate_cases.h"

/* Wrong arguments are refused, not followed; names are bounded. */
static bool api_checks(void)
{
	static const char text[] = "{\"a\": 1}";
	const struct vl_json_limits lim = VL_JSON_LIMITS_DEFAULT;
	struct vl_validate_error err = { .param = "abc", .param_len = 3 };
	struct vl_json_tok toks[4];
	struct vl_idl_error ierr;
	struct vl_idl *idl;
	struct vl_json js;
	char name[4];
	bool ok;

	if (vl_validate_param_name(NULL, &err, name, 3) != -ENOSPC ||
	    vl_validate_param_name(NULL, &err, name, 4) != 3 ||
	    strcmp(name, "abc"))
		return false;
	err.param = NULL;
	if (vl_validate_param_name(NULL, &err, name, 4) != -ENOENT)
		return false;
	if (vl_idl_parse(vl_validate_idl, strlen(vl_validate_idl), &idl,
			 &ierr))
		return false;
	vl_json_init(&js, toks, ARRAY_SIZE(toks));
	ok = !vl_json_parse(&js, text, strlen(text), &lim) &&
	     vl_validate(idl, 0, &js, 0, &err) == -EINVAL &&
	     vl_validate(idl, idl->n_nodes, &js, 0, &err) == -EINVAL &&
	     vl_validate(idl, idl->members[0].type, &js, 99, &err) == -EINVAL;
	vl_idl_free(idl);
	return ok;
}

int main(void)
{
	u32 cap = vl_json_tokens_needed(VL_VALIDATE_TEXT_MAX);
	struct vl_json_tok *toks = calloc(cap, sizeof(*toks));
	char *buf = malloc(VL_VALIDATE_TEXT_MAX);
	int n_pass = 0, n_fail = 0;
	unsigned int i;
	bool ok;

	if (!toks || !buf)
		abort();
	printf("TAP version 13\n1..%zu\n", ARRAY_SIZE(vl_validate_cases) + 1);
	for (i = 0; i < ARRAY_SIZE(vl_validate_cases); i++) {
		const struct vl_validate_case *c = &vl_validate_cases[i];
		struct vl_validate_outcome out;

		vl_validate_run(c, buf, toks, cap, &out);
		ok = vl_validate_outcome_ok(c, &out);
		if (!ok)
			printf("# %s(%s): expected %s [%s], got %s%d %s [%.*s]\n",
			       c->member, c->json ? c->json : "absent",
			       c->msg ? c->msg : "valid",
			       c->param ? c->param : "-",
			       out.setup ? out.setup : "", out.ret,
			       out.msg ? out.msg : "-",
			       out.param_len > 0 ? out.param_len : 1,
			       out.param_len > 0 ? out.param : "-");
		printf("%s %u - validate: %s\n", ok ? "ok" : "not ok", i + 1,
		       c->desc);
		if (ok)
			n_pass++;
		else
			n_fail++;
	}
	ok = api_checks();
	printf("%s %u - validate: wrong arguments and bounded names\n",
	       ok ? "ok" : "not ok", i + 1);
	if (ok)
		n_pass++;
	else
		n_fail++;
	printf("# %d passed, %d failed\n", n_pass, n_fail);
	free(toks);
	free(buf);
	return n_fail ? 1 : 0;
}
