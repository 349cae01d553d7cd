/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Validation of JSON values against a parsed interface description.
 *
 * vl_validate() checks the parameters of a call (the input struct of a
 * method), of a reply (its output struct) or of an error (the error's
 * struct) before anyone uses them, all the way down: unknown fields,
 * missing or null non-nullable fields, JSON types, enum values, integer
 * ranges, nested structs, arrays and maps, named types.  It does not
 * recurse: nested values are followed with an explicit stack of
 * VL_VALIDATE_DEPTH_MAX frames, and "object" and "any" values are skipped
 * whole.
 */
#ifndef _VL_VALIDATE_H
#define _VL_VALIDATE_H

#include <linux/types.h>

#include "idl.h"
#include "json.h"

/* @obj of vl_validate(): the parameters are absent, the same as {} */
#define VL_VALIDATE_ABSENT	U32_MAX

/**
 * struct vl_validate_error - why parameters are invalid
 * @msg: a short static message, e.g. "unknown field"
 * @param: the top-level parameter the error is in, a slice of the IDL
 *	text; NULL if it is not declared (see @key) or if the parameters
 *	as a whole are wrong (not an object)
 * @param_len: length of @param
 * @key: JSON token of the key of that top-level parameter; 0 if there is
 *	none (a missing parameter, or the parameters as a whole)
 * @tok: JSON token of the offending value; 0 if there is none (missing)
 */
struct vl_validate_error {
	const char *msg;
	const char *param;
	u16 param_len;
	u32 key;
	u32 tok;
};

int vl_validate(const struct vl_idl *idl, u32 type, const struct vl_json *js,
		u32 obj, struct vl_validate_error *err);
int vl_validate_param_name(const struct vl_json *js,
			   const struct vl_validate_error *err, char *buf,
			   size_t size);

#endif /* _VL_VALIDATE_H */
