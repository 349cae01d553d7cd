/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON corpus shared by the KUnit suites (json_kunit.c, jsonw_kunit.c)
 * and the host runner (selftests/host/json_test.c), in the spirit of
 * JSONTestSuite: "y_" texts must be accepted, "n_" texts rejected.
 *
 * Plain C data that builds in the kernel and in userspace.  Every input
 * carries its length, so NUL bytes and invalid UTF-8 can be expressed; a
 * byte escape is octal where a hex digit follows it.
 */
#ifndef _VL_JSON_CASES_H
#define _VL_JSON_CASES_H

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/types.h>

#include "../json.h"
#include "../json_number.h"
#include "../jsonw.h"
#include "json_extra.h"
#include "jsonw_extra.h"

/* One text for vl_json_parse(). */
struct json_case {
	const char *name;
	const char *in;
	unsigned int len;
	int err;		/* 0, or what vl_json_parse() returns */
	unsigned int ntoks;	/* if nonzero: tokens of an accepted text */
	bool has_epos;
	unsigned int epos;	/* if has_epos: offset of the error */
	bool has_lim;
	struct vl_json_limits lim; /* if has_lim, else the defaults */
};

#define JC(n, s, e, ...) \
	{ .name = n, .in = s, .len = sizeof(s) - 1, .err = e, ##__VA_ARGS__ }
#define JY(n, s, ...)	JC("y_" n, s, 0, ##__VA_ARGS__)
#define JN(n, s, ...)	JC("n_" n, s, -EINVAL, ##__VA_ARGS__)
#define TOKS(n)		.ntoks = (n)
#define AT(p)		.has_epos = true, .epos = (p)
#define LIM(s, d, t)	.has_lim = true, .lim = { (s), (d), (t) }

/* Nesting: 8 and 32 levels of arrays, 8 of objects. */
#define A8		"[[[[[[[["
#define Z8		"]]]]]]]]"
#define A32		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
#define Z32		"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
#define O8		"{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":"
#define C8		"}}}}}}}}"
#define M8		"[{\"a\":[{\"a\":[{\"a\":[{\"a\":"
#define K9		"\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6," \
			"\"k7\":7,\"k8\":8,\"k9\":9"
#define K10_20		"\"k10\":0,\"k11\":0,\"k12\":0,\"k13\":0,\"k14\":0," \
			"\"k15\":0,\"k16\":0,\"k17\":0,\"k18\":0,\"k19\":0,\"k20\":0"
#define K20		K9 "," K10_20

static const struct json_case json_cases[] __maybe_unused = {
	/* structure */
	JY("object_empty", "{}", TOKS(1)),
	JY("array_empty", "[]", TOKS(1)),
	JY("object_one_member", "{\"a\":1}", TOKS(3)),
	JY("array_one_element", "[1]", TOKS(2)),
	JY("array_nested_empty", "[[[]]]", TOKS(3)),
	JY("object_nested", "{\"a\":{\"b\":{}}}", TOKS(5)),
	JY("array_of_objects", "[{},{}]", TOKS(3)),
	JY("array_mixed", "[1,\"a\",true,false,null,{},[]]", TOKS(8)),
	JY("whitespace_everywhere", " \t\r\n{ \"a\" : [ 1 , 2 ] }\r\n", TOKS(5)),
	JY("whitespace_leading", "  1", TOKS(1)),
	JY("whitespace_trailing", "1 \t\n", TOKS(1)),
	JY("whitespace_in_array", "[1,\n2,\t3\r]", TOKS(4)),
	JY("whitespace_empty_containers", "[ ] ", TOKS(1)),
	JY("whitespace_empty_object", "{\n}", TOKS(1)),
	JY("top_string", "\"x\"", TOKS(1)),
	JY("top_number", "42", TOKS(1)),
	JY("top_true", "true", TOKS(1)),
	JY("top_false", "false", TOKS(1)),
	JY("top_null", "null", TOKS(1)),
	JY("top_negative", "-1", TOKS(1)),
	JY("literals_in_array", "[true,false,null]", TOKS(4)),
	JY("varlink_call", "{\"method\":\"org.varlink.service.GetInfo\"}", TOKS(3)),
	JY("varlink_call_parameters",
	   "{\"method\":\"a.b.C\",\"parameters\":{\"x\":[1,2,{\"y\":null}]},\n"
	   "\"more\":true}", TOKS(14)),
	JY("python_style_spaces", "{\"parameters\": {\"bool\": true}}", TOKS(5)),
	JY("strings_with_delimiters", "[\"a,b\",\"c]d\",\"e}f\",\":\"]", TOKS(5)),
	JY("string_with_brackets", "{\"a\":\"{[\\\"]}\"}", TOKS(3)),
	JY("array_of_arrays", "[[],[[]],[[],[]]]", TOKS(7)),
	JY("object_array_values", "{\"a\":[],\"b\":[{}],\"c\":[[1]]}", TOKS(10)),

	/* nesting within the default limit of 32 */
	JY("depth_32_arrays", A32 Z32, TOKS(32)),
	JY("depth_32_objects", O8 O8 O8 O8 "1" C8 C8 C8 C8, TOKS(65)),
	JY("depth_32_mixed", M8 M8 M8 M8 "1}]}]}]}]}]}]}]}]}]}]}]}]}]}]}]}]",
	   TOKS(49)),
	JY("depth_32_with_siblings", "[1," A8 A8 A8 "[[[[[[[0]]]]]]]" Z8 Z8 Z8
	   ",2]", TOKS(35)),

	/* keys */
	JY("keys_8_distinct", "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\n"
	   "\"g\":7,\"h\":8}", TOKS(17)),
	JY("keys_9_distinct", "{" K9 "}", TOKS(19)),
	JY("keys_20_distinct", "{" K20 "}", TOKS(41)),
	JY("keys_differ_in_case", "{\"a\":1,\"A\":2}", TOKS(5)),
	JY("keys_prefixes", "{\"a\":1,\"ab\":2,\"abc\":3}", TOKS(7)),
	JY("keys_same_length_and_first_byte", "{\"ab\":1,\"ac\":2,\"ad\":3}",
	   TOKS(7)),
	JY("keys_same_hash", "{\"a\":1,\"Zx\":2}", TOKS(5)),
	JY("keys_same_hash_escaped", "{\"\\u0061\":1,\"Z\\u0078\":2}", TOKS(5)),
	JY("key_reused_in_other_objects", "{\"a\":{\"a\":1},\"b\":{\"a\":2}}",
	   TOKS(9)),
	JY("key_reused_in_array_elements", "[{\"a\":1},{\"a\":1}]", TOKS(7)),
	JY("key_empty", "{\"\":0}", TOKS(3)),
	JY("keys_empty_and_space", "{\"\":0,\" \":1}", TOKS(5)),
	JY("keys_escape_distinct", "{\"\\u0061\":1,\"b\":2}", TOKS(5)),
	JY("keys_escape_vs_longer", "{\"a\":1,\"\\u0061b\":2}", TOKS(5)),
	JY("keys_utf8_distinct", "{\"\303\251\":1,\"e\":2}", TOKS(5)),
	JY("keys_nul_vs_empty", "{\"\\u0000\":1,\"\":2}", TOKS(5)),
	JY("keys_nul_suffix", "{\"a\\u0000\":1,\"a\":2}", TOKS(5)),
	JY("keys_9_escaped_distinct", "{\"\\u0061\":1,\"b\":2,\"\\u0063\":3,\n"
	   "\"d\":4,\"e\\n\":5,\"e\\t\":6,\"\\/\":7,\"\\\\\":8,\"\\\"\":9}",
	   TOKS(19)),
	JY("keys_9_same_length", "{\"key1\":1,\"key2\":2,\"key3\":3,\"key4\":4,\n"
	   "\"key5\":5,\"key6\":6,\"key7\":7,\"key8\":8,\"key9\":9}", TOKS(19)),
	JY("keys_9_with_container_values", "{\"a\":[1,2],\"b\":{\"a\":1,\"b\":2},\n"
	   "\"c\":[],\"d\":{},\"e\":[[]],\"f\":0,\"g\":\"a\",\"h\":null,\n"
	   "\"i\":{\"i\":[]}}", TOKS(28)),

	/* strings */
	JY("string_empty", "\"\"", TOKS(1)),
	JY("string_space", "\" \"", TOKS(1)),
	JY("string_all_escapes", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", TOKS(1)),
	JY("string_u_ascii", "\"\\u0041\""),
	JY("string_u_upper_hex", "\"\\u00C9\""),
	JY("string_u_lower_hex", "\"\\u00e9\""),
	JY("string_u_nul", "\"\\u0000\""),
	JY("string_u_ffff", "\"\\uFFFF\""),
	JY("string_u_d7ff", "\"\\uD7FF\""),
	JY("string_u_e000", "\"\\uE000\""),
	JY("string_surrogate_pair", "\"\\uD83D\\uDE00\""),
	JY("string_surrogate_pair_min", "\"\\uD800\\uDC00\""),
	JY("string_surrogate_pair_max", "\"\\uDBFF\\uDFFF\""),
	JY("string_surrogate_pair_lowercase", "\"\\ud83d\\ude00\""),
	JY("string_two_surrogate_pairs", "\"\\uD83D\\uDE00\\uD83D\\uDE01\""),
	JY("string_utf8_2byte", "\"\303\251\""),
	JY("string_utf8_2byte_min", "\"\302\200\""),
	JY("string_utf8_2byte_max", "\"\337\277\""),
	JY("string_utf8_3byte_min", "\"\340\240\200\""),
	JY("string_utf8_3byte_euro", "\"\342\202\254\""),
	JY("string_utf8_before_surrogates", "\"\355\237\277\""),
	JY("string_utf8_after_surrogates", "\"\356\200\200\""),
	JY("string_utf8_3byte_max", "\"\357\277\277\""),
	JY("string_utf8_noncharacter_fdd0", "\"\357\267\220\""),
	JY("string_utf8_4byte_min", "\"\360\220\200\200\""),
	JY("string_utf8_4byte_emoji", "\"\360\237\230\200\""),
	JY("string_utf8_4byte_f1", "\"\361\200\200\200\""),
	JY("string_utf8_4byte_f3", "\"\363\277\277\277\""),
	JY("string_utf8_4byte_max", "\"\364\217\277\277\""),
	JY("string_utf8_u2028_raw", "\"\342\200\250\""),
	JY("string_utf8_bom_inside", "\"\357\273\277\""),
	JY("string_utf8_replacement_char", "\"\357\277\275\""),
	JY("string_del_raw", "\"\177\""),
	JY("string_slash_raw_and_escaped", "\"/\\/\""),
	JY("string_u2028_escaped", "\"\\u2028\""),
	JY("string_long_ascii",
	   "\"The quick brown fox jumps over the lazy dog, then again: the quick brown fox jumps over the lazy dog.\"",
	   TOKS(1)),
	JY("string_7_bytes_then_escape", "\"abcdefg\\n\""),
	JY("string_8_bytes_then_escape", "\"abcdefgh\\n\""),
	JY("string_9_bytes_then_quote", "\"abcdefghi\""),
	JY("string_16_bytes_then_utf8", "\"abcdefghabcdefgh\303\251\""),
	JY("string_utf8_at_word_edge", "\"abcdefg\303\251abcdefgh\""),
	JY("string_escape_at_word_edge", "\"abcdefg\\\\abcdefgh\""),
	JY("string_mixed", "\"a\303\251\\u00e9\\n\342\202\254\\uD83D\\uDE00z\""),

	/* numbers */
	JY("number_zero", "0"),
	JY("number_minus_zero", "-0"),
	JY("number_one", "1"),
	JY("number_minus_one", "-1"),
	JY("number_ten", "10"),
	JY("number_frac", "0.5"),
	JY("number_minus_frac", "-0.5"),
	JY("number_one_point_zero", "1.0"),
	JY("number_exp", "1e1"),
	JY("number_exp_upper", "1E1"),
	JY("number_exp_plus", "1e+1"),
	JY("number_exp_minus", "1e-1"),
	JY("number_frac_exp", "1.5e10"),
	JY("number_zero_exp", "0e0"),
	JY("number_zero_exp_upper_plus", "0E+0"),
	JY("number_minus_zero_frac_exp", "-0.0e-0"),
	JY("number_exp_leading_zeros", "1e007"),
	JY("number_huge_int", "123456789012345678901234567890"),
	JY("number_huge_exp", "1e999"),
	JY("number_tiny_exp", "-1e-999"),
	JY("number_long_frac", "0.000001000000000000000000000001"),
	JY("number_u64_max", "18446744073709551615"),
	JY("number_u64_max_plus_one", "18446744073709551616"),
	JY("number_s64_min", "-9223372036854775808"),
	JY("number_double_max", "1.7976931348623157e308"),
	JY("number_array", "[1,-1,0.5,1e2,-0]", TOKS(6)),
	JY("number_then_space", "[1 ]", TOKS(2)),
	JY("number_in_object", "{\"a\":-0.0}", TOKS(3)),
	JY("number_exp_18_digits", "1e999999999999999999"),
	JY("number_exp_40_digits", "1e9999999999999999999999999999999999999999"),

	/* structure errors */
	JN("empty", "", AT(0)),
	JN("whitespace_only", "\t\n", AT(2)),
	JN("open_array", "[", AT(1)),
	JN("open_object", "{", AT(1)),
	JN("close_array", "]", AT(0)),
	JN("close_object", "}", AT(0)),
	JN("array_unclosed", "[1", AT(2)),
	JN("array_unclosed_comma", "[1,", AT(3)),
	JN("array_trailing_comma", "[1,]", AT(3)),
	JN("array_leading_comma", "[,1]", AT(1)),
	JN("array_only_comma", "[,]", AT(1)),
	JN("array_double_comma", "[1,,2]", AT(3)),
	JN("array_missing_comma", "[1 2]", AT(3)),
	JN("array_colon", "[1:2]", AT(2)),
	JN("array_with_member", "[\"a\":1]", AT(4)),
	JN("array_nested_unclosed", "[[1]", AT(4)),
	JN("array_unclosed_object", "[{]", AT(2)),
	JN("array_star", "[*]", AT(1)),
	JN("object_trailing_comma", "{\"a\":1,}", AT(7)),
	JN("object_only_comma", "{,}", AT(1)),
	JN("object_missing_value", "{\"a\":}", AT(5)),
	JN("object_missing_colon", "{\"a\" 1}", AT(5)),
	JN("object_double_colon", "{\"a\"::1}", AT(5)),
	JN("object_key_only", "{\"a\"}", AT(4)),
	JN("object_comma_for_colon", "{\"a\",1}", AT(4)),
	JN("object_missing_comma", "{\"a\":1 \"b\":2}", AT(7)),
	JN("object_number_key", "{1:1}", AT(1)),
	JN("object_unquoted_key", "{a:1}", AT(1)),
	JN("object_single_quoted_key", "{'a':1}", AT(1)),
	JN("object_true_key", "{true:1}", AT(1)),
	JN("object_null_key", "{null:1}", AT(1)),
	JN("object_array_key", "{[]:1}", AT(1)),
	JN("object_object_key", "{{}:1}", AT(1)),
	JN("object_unclosed", "{\"a\":1", AT(6)),
	JN("object_unclosed_after_key", "{\"a\"", AT(4)),
	JN("object_unclosed_after_colon", "{\"a\":", AT(5)),
	JN("object_unclosed_after_comma", "{\"a\":1,", AT(7)),
	JN("mismatch_array_object", "[}", AT(1)),
	JN("mismatch_object_array", "{]", AT(1)),
	JN("mismatch_nested", "[{]}", AT(2)),
	JN("mismatch_deep", "[[{}]}", AT(5)),
	JN("extra_close_array", "[1]]", AT(3)),
	JN("extra_close_object", "{}}", AT(2)),
	JN("two_numbers", "1 2", AT(2)),
	JN("two_arrays", "[] []", AT(3)),
	JN("two_objects", "{}{}", AT(2)),
	JN("two_strings", "\"a\" \"b\"", AT(4)),
	JN("top_trailing_comma", "1,", AT(1)),
	JN("trailing_garbage_array", "[1]x", AT(3)),
	JN("trailing_garbage_object", "{}x", AT(2)),
	JN("trailing_semicolon", "[];", AT(2)),
	JN("trailing_nul", "{}\0", AT(2)),
	JN("leading_nul", "\0{}", AT(0)),
	JN("nul_between_tokens", "[1,\0 2]", AT(3)),
	JN("nul_only", "\0", AT(0)),
	JN("nul_after_whitespace", "{} \0", AT(3)),
	JN("nul_in_literal", "tr\0ue", AT(0)),
	JN("nul_in_number", "[1\0]", AT(2)),
	JN("nul_after_key", "{\"a\"\0:1}", AT(4)),
	JN("comment_block", "/* c */ {}", AT(0)),
	JN("comment_line", "// c\n{}", AT(0)),
	JN("comment_hash", "# c\n{}", AT(0)),
	JN("comment_inside_array", "[1/* c */]", AT(2)),
	JN("comment_trailing", "{}//", AT(2)),
	JN("bom", "\357\273\277{}", AT(0)),
	JN("whitespace_form_feed", "\f[]", AT(0)),
	JN("whitespace_vertical_tab", "[\v1]", AT(1)),
	JN("whitespace_nbsp", "[\302\2401]", AT(1)),
	JN("whitespace_u2028", "[\342\200\2501]", AT(1)),
	JN("whitespace_ideographic", "[\343\200\2001]", AT(1)),
	JN("bare_word", "abc", AT(0)),
	JN("bare_colon", ":", AT(0)),
	JN("bare_comma", ",", AT(0)),
	JN("lone_quote", "\"", AT(0)),
	JN("parentheses", "(1)", AT(0)),
	JN("angle_brackets", "<>", AT(0)),
	JN("utf8_outside_string", "[\303\251]", AT(1)),
	JN("high_byte_outside_string", "[\377]", AT(1)),
	JN("high_byte_top", "\377", AT(0)),
	JN("escape_outside_string", "[\\n]", AT(1)),
	JN("u_escape_outside_string", "\\u0041", AT(0)),
	JN("deep_unclosed", "[[[[[[[[", AT(8)),
	JN("object_in_object_unclosed", "{\"a\":{\"b\":1}", AT(12)),

	/* literals */
	JN("literal_tru", "tru", AT(0)),
	JN("literal_true_x", "truex", AT(4)),
	JN("literal_True", "True", AT(0)),
	JN("literal_TRUE", "TRUE", AT(0)),
	JN("literal_nul", "nul", AT(0)),
	JN("literal_nulll", "nulll", AT(4)),
	JN("literal_fals", "fals", AT(0)),
	JN("literal_False", "False", AT(0)),
	JN("literal_t", "t", AT(0)),
	JN("literal_nil", "nil", AT(0)),
	JN("literal_None", "None", AT(0)),
	JN("literal_undefined", "undefined", AT(0)),
	JN("literal_NaN", "NaN", AT(0)),
	JN("literal_minus_NaN", "-NaN", AT(1)),
	JN("literal_Infinity", "Infinity", AT(0)),
	JN("literal_minus_Infinity", "-Infinity", AT(1)),
	JN("literal_plus_Infinity", "+Infinity", AT(0)),
	JN("literal_inf", "inf", AT(0)),
	JN("literal_nan", "nan", AT(0)),
	JN("literal_True_in_array", "[True]", AT(1)),
	JN("literal_truefalse", "truefalse", AT(4)),
	JN("literal_null_truncated", "[nul]", AT(1)),
	JN("literal_false_truncated_end", "fal", AT(0)),

	/* numbers */
	JN("number_leading_zero", "01", AT(0)),
	JN("number_minus_leading_zero", "-01", AT(1)),
	JN("number_double_zero", "00", AT(0)),
	JN("number_minus_double_zero", "-00", AT(1)),
	JN("number_leading_zero_frac", "00.5", AT(0)),
	JN("number_leading_zeros_in_array", "[012]", AT(1)),
	JN("number_trailing_dot", "1.", AT(2)),
	JN("number_leading_dot", ".1", AT(0)),
	JN("number_dot_only", ".", AT(0)),
	JN("number_minus_only", "-", AT(1)),
	JN("number_plus", "+1", AT(0)),
	JN("number_exp_only", "1e", AT(2)),
	JN("number_exp_plus_only", "1e+", AT(3)),
	JN("number_exp_minus_only", "1E-", AT(3)),
	JN("number_exp_double_sign", "1e+-1", AT(3)),
	JN("number_dot_exp", "1.e5", AT(2)),
	JN("number_zero_dot_exp", "0.e1", AT(2)),
	JN("number_minus_dot", "-.5", AT(1)),
	JN("number_plus_after_dot", "2.+3", AT(2)),
	JN("number_frac_exp_nothing", "1.0e", AT(4)),
	JN("number_exp_frac", "1e1.5", AT(3)),
	JN("number_two_dots", "1.5.3", AT(3)),
	JN("number_two_exps", "1e5e5", AT(3)),
	JN("number_ee", "1ee5", AT(2)),
	JN("number_e_only", "e1", AT(0)),
	JN("number_E_only", "E", AT(0)),
	JN("number_hex", "0x1F", AT(1)),
	JN("number_hex_upper", "0X1", AT(1)),
	JN("number_0x_in_array", "[0x]", AT(2)),
	JN("number_underscore", "1_000", AT(1)),
	JN("number_double_minus", "--1", AT(1)),
	JN("number_minus_space", "- 1", AT(1)),
	JN("number_space_in_frac", "1 .5", AT(2)),
	JN("number_exp_space", "[1e 5]", AT(3)),
	JN("number_letters_after", "123abc", AT(3)),
	JN("number_f_suffix", "1f", AT(1)),
	JN("number_0e_in_array", "[0e]", AT(3)),
	JN("number_frac_letter", "[1.2a]", AT(4)),
	JN("number_minus_letter", "-a", AT(1)),
	JN("number_minus_inf", "-inf", AT(1)),
	JN("number_comma_decimal", "1,5", AT(1)),
	JN("number_dot_e_in_array", "[.e1]", AT(1)),
	JN("number_arabic_digit", "[\331\241]", AT(1)),
	JN("number_fullwidth_digit", "[\357\274\221]", AT(1)),
	JN("number_trailing_nul", "1\0", AT(1)),
	JN("number_plus_zero_in_array", "[+0]", AT(1)),
	JN("number_minus_in_array", "[-]", AT(2)),

	/* strings */
	JN("string_single_quotes", "'a'", AT(0)),
	JN("string_single_quotes_in_array", "['a']", AT(1)),
	JN("string_unterminated", "\"abc", AT(0)),
	JN("string_unterminated_in_array", "[\"a]", AT(1)),
	JN("string_unterminated_escape", "\"\\", AT(1)),
	JN("string_unterminated_after_escape", "\"\\\"", AT(0)),
	JN("string_unterminated_long", "\"abcdefghijklmnopqrstuvwxyz", AT(0)),
	JN("string_raw_nul", "\"a\0b\"", AT(2)),
	JN("string_raw_nul_after_8", "\"abcdefgh\0\"", AT(9)),
	JN("string_raw_01", "\"\001\"", AT(1)),
	JN("string_raw_backspace", "\"\b\"", AT(1)),
	JN("string_raw_tab", "\"a\tb\"", AT(2)),
	JN("string_raw_newline", "\"a\nb\"", AT(2)),
	JN("string_raw_cr", "\"\r\"", AT(1)),
	JN("string_raw_escape_char", "\"\033[0m\"", AT(1)),
	JN("string_raw_1f", "\"\037\"", AT(1)),
	JN("string_raw_ctrl_in_key", "{\"a\nb\":1}", AT(3)),
	JN("escape_a", "\"\\a\"", AT(1)),
	JN("escape_x", "\"\\x41\"", AT(1)),
	JN("escape_single_quote", "\"\\'\"", AT(1)),
	JN("escape_zero", "\"\\0\"", AT(1)),
	JN("escape_capital_u", "\"\\U0041\"", AT(1)),
	JN("escape_v", "\"\\v\"", AT(1)),
	JN("escape_space", "\"\\ \"", AT(1)),
	JN("escape_e", "\"\\e\"", AT(1)),
	JN("escape_raw_nul", "\"\\\0\"", AT(1)),
	JN("escape_utf8", "\"\\\303\251\"", AT(1)),
	JN("escape_in_key", "{\"\\q\":1}", AT(2)),
	JN("u_escape_2_digits", "\"\\u12\"", AT(1)),
	JN("u_escape_3_digits", "\"\\u123\"", AT(1)),
	JN("u_escape_non_hex", "\"\\u12G4\"", AT(1)),
	JN("u_escape_letters", "\"\\uZZZZ\"", AT(1)),
	JN("u_escape_empty", "\"\\u\"", AT(1)),
	JN("u_escape_plus", "\"\\u+123\"", AT(1)),
	JN("u_escape_space", "\"\\u 123\"", AT(1)),
	JN("u_escape_at_end_of_input", "\"\\u004", AT(1)),
	JN("u_escape_then_end_of_input", "\"\\u0041", AT(0)),
	JN("surrogate_lone_high", "\"\\uD800\"", AT(1)),
	JN("surrogate_lone_high_max", "\"\\uDBFF\"", AT(1)),
	JN("surrogate_lone_high_lowercase", "\"\\udbff\"", AT(1)),
	JN("surrogate_high_then_char", "\"\\uD800x\"", AT(1)),
	JN("surrogate_high_then_escape", "\"\\uD800\\n\"", AT(1)),
	JN("surrogate_high_then_bmp", "\"\\uD800\\u0041\"", AT(1)),
	JN("surrogate_high_then_high", "\"\\uD800\\uD800\"", AT(1)),
	JN("surrogate_high_then_short", "\"\\uD800\\u12\"", AT(1)),
	JN("surrogate_high_then_capital_u", "\"\\uD800\\UDC00\"", AT(1)),
	JN("surrogate_high_at_end_of_input", "\"\\uD800", AT(1)),
	JN("surrogate_high_then_utf8_low", "\"\\uD800\355\260\200\"", AT(1)),
	JN("surrogate_lone_low", "\"\\uDC00\"", AT(1)),
	JN("surrogate_lone_low_max", "\"\\uDFFF\"", AT(1)),
	JN("surrogate_reversed", "\"\\uDC00\\uD800\"", AT(1)),
	JN("surrogate_lone_in_key", "{\"\\uD800\":1}", AT(2)),
	JN("surrogate_pair_then_lone", "\"\\uD83D\\uDE00\\uD83D\"", AT(13)),

	/* invalid UTF-8 in strings */
	JN("utf8_lone_continuation_80", "\"\200\"", AT(1)),
	JN("utf8_lone_continuation_bf", "\"\277\"", AT(1)),
	JN("utf8_overlong_nul", "\"\300\200\"", AT(1)),
	JN("utf8_overlong_c1", "\"\301\277\"", AT(1)),
	JN("utf8_overlong_slash_2", "\"\300\257\"", AT(1)),
	JN("utf8_overlong_slash_3", "\"\340\200\257\"", AT(1)),
	JN("utf8_overlong_slash_4", "\"\360\200\200\257\"", AT(1)),
	JN("utf8_overlong_3byte", "\"\340\200\200\"", AT(1)),
	JN("utf8_overlong_3byte_max", "\"\340\237\277\"", AT(1)),
	JN("utf8_overlong_4byte", "\"\360\200\200\200\"", AT(1)),
	JN("utf8_overlong_4byte_max", "\"\360\217\277\277\"", AT(1)),
	JN("utf8_surrogate_d800", "\"\355\240\200\"", AT(1)),
	JN("utf8_surrogate_dfff", "\"\355\277\277\"", AT(1)),
	JN("utf8_surrogate_pair_cesu", "\"\355\240\200\355\260\200\"", AT(1)),
	JN("utf8_above_10ffff", "\"\364\220\200\200\"", AT(1)),
	JN("utf8_f5", "\"\365\200\200\200\"", AT(1)),
	JN("utf8_f7", "\"\367\277\277\277\"", AT(1)),
	JN("utf8_f8_5byte", "\"\370\210\200\200\200\"", AT(1)),
	JN("utf8_fc_6byte", "\"\374\204\200\200\200\200\"", AT(1)),
	JN("utf8_fe", "\"\376\"", AT(1)),
	JN("utf8_ff", "\"\377\"", AT(1)),
	JN("utf8_truncated_2", "\"\303\"", AT(1)),
	JN("utf8_truncated_3_of_1", "\"\342\"", AT(1)),
	JN("utf8_truncated_3_of_2", "\"\342\202\"", AT(1)),
	JN("utf8_truncated_4_of_3", "\"\360\237\230\"", AT(1)),
	JN("utf8_truncated_end_of_input", "\"\303", AT(1)),
	JN("utf8_truncated_4_end_of_input", "\"\360\237\230", AT(1)),
	JN("utf8_lead_then_ascii", "\"\303A\"", AT(1)),
	JN("utf8_lead_then_lead", "\"\303\303\251\"", AT(1)),
	JN("utf8_3byte_bad_third", "\"\342\202A\"", AT(1)),
	JN("utf8_4byte_bad_fourth", "\"\360\237\230A\"", AT(1)),
	JN("utf8_f4_bad_second", "\"\364\217A\"", AT(1)),
	JN("utf8_continuation_after_valid", "\"\303\251\251\"", AT(3)),
	JN("utf8_in_key", "{\"\377\":1}", AT(2)),
	JN("utf8_after_8_ascii", "\"abcdefgh\377\"", AT(9)),
	JN("utf8_after_16_ascii", "\"abcdefghabcdefgh\200x\"", AT(17)),

	/* duplicate keys */
	JN("dup_simple", "{\"a\":1,\"a\":2}", AT(7)),
	JN("dup_not_adjacent", "{\"a\":1,\"b\":2,\"a\":3}", AT(13)),
	JN("dup_escaped_second", "{\"a\":1,\"\\u0061\":2}", AT(7)),
	JN("dup_escaped_first", "{\"\\u0061\":1,\"a\":2}", AT(12)),
	JN("dup_both_escaped", "{\"\\u0061\":1,\"\\u0061\":2}", AT(12)),
	JN("dup_escape_hex_case", "{\"\\u00e9\":1,\"\\u00E9\":2}", AT(12)),
	JN("dup_utf8_vs_escape", "{\"\303\251\":1,\"\\u00e9\":2}", AT(8)),
	JN("dup_pair_vs_utf8", "{\"\360\237\230\200\":1,\"\\uD83D\\uDE00\":2}",
	   AT(10)),
	JN("dup_escaped_first_byte", "{\"\\u0061b\":1,\"ab\":2}", AT(13)),
	JN("dup_slash", "{\"/\":1,\"\\/\":2}", AT(7)),
	JN("dup_newline", "{\"\\n\":1,\"\\u000a\":2}", AT(8)),
	JN("dup_nul", "{\"\\u0000\":1,\"\\u0000\":2}", AT(12)),
	JN("dup_empty", "{\"\":1,\"\":2}", AT(6)),
	JN("dup_nested", "{\"x\":{\"a\":1,\"a\":2}}", AT(12)),
	JN("dup_in_array_element", "[{\"a\":1,\"a\":1}]", AT(8)),
	JN("dup_different_types", "{\"a\":null,\"a\":[]}", AT(10)),
	JN("dup_three_times", "{\"a\":1,\"a\":2,\"a\":3}", AT(7)),
	JN("dup_after_nested_values", "{\"a\":{\"b\":1},\"c\":[1],\"a\":0}",
	   AT(21)),
	JN("dup_8_first_and_last", "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\n"
	   "\"f\":6,\"g\":7,\"a\":8}", AT(44)),
	JN("dup_9_first_and_last", "{" K9 ",\"k1\":0}"),
	JN("dup_9_adjacent", "{\"k1\":1,\"k1\":1,\"k3\":3,\"k4\":4,\"k5\":5,\n"
	   "\"k6\":6,\"k7\":7,\"k8\":8,\"k9\":9}", AT(8)),
	JN("dup_20_middle", "{" K9 ",\"k10\":0,\"k5\":0,\"k12\":0,\"k13\":0,\n"
	   "\"k14\":0,\"k15\":0,\"k16\":0,\"k17\":0,\"k18\":0,\"k19\":0,\n"
	   "\"k20\":0}"),
	JN("dup_20_last", "{" K20 ",\"k20\":1}"),
	JN("dup_9_escaped", "{\"\\u0061\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\n"
	   "\"f\":6,\"g\":7,\"h\":8,\"a\":9}", AT(55)),
	JN("dup_9_container_values", "{\"a\":[1,2],\"b\":{\"a\":1,\"b\":2},\n"
	   "\"c\":[],\"d\":{},\"e\":[[]],\"f\":0,\"g\":\"a\",\"h\":null,\n"
	   "\"b\":{\"i\":[]}}", AT(77)),
	JN("dup_long_common_prefix", "{\"abcdefghijklmnopqrstuvwxyz0\":1,\n"
	   "\"abcdefghijklmnopqrstuvwxyz1\":2,\"abcdefghijklmnopqrstuvwxyz0\":3}",
	   AT(66)),

	/* limits */
	JC("n_depth_33_arrays", A32 "[]" Z32, -E2BIG, AT(32)),
	JC("n_depth_33_objects", O8 O8 O8 O8 "{}" C8 C8 C8 C8, -E2BIG, AT(160)),
	JC("n_depth_33_mixed", M8 M8 M8 M8 "[]}]}]}]}]}]}]}]}]}]}]}]}]}]}]}]}]",
	   -E2BIG, AT(96)),
	JC("n_depth_33_unclosed", A32 "[", -E2BIG, AT(32)),
	JC("y_depth_1", "[1]", 0, LIM(64, 1, 64), TOKS(2)),
	JC("n_depth_1_nested", "[[]]", -E2BIG, LIM(64, 1, 64), AT(1)),
	JC("n_depth_1_object_in_array", "[{}]", -E2BIG, LIM(64, 1, 64), AT(1)),
	JC("y_depth_0_scalar", "1", 0, LIM(64, 0, 64), TOKS(1)),
	JC("y_depth_0_string", "\"[]\"", 0, LIM(64, 0, 64), TOKS(1)),
	JC("n_depth_0_array", "[]", -E2BIG, LIM(64, 0, 64), AT(0)),
	JC("n_depth_0_object", " {}", -E2BIG, LIM(64, 0, 64), AT(1)),
	JC("y_depth_2_siblings", "[[],[],{}]", 0, LIM(64, 2, 64), TOKS(4)),
	JC("n_depth_257_clamped", A32 A32 A32 A32 A32 A32 A32 A32 "[" Z32 Z32
	   Z32 Z32 Z32 Z32 Z32 Z32 "]", -E2BIG, LIM(4096, 1000, 4096), AT(256)),
	JC("y_depth_256", A32 A32 A32 A32 A32 A32 A32 A32 Z32 Z32 Z32 Z32 Z32
	   Z32 Z32 Z32, 0, LIM(4096, 1000, 4096), TOKS(256)),
	JC("y_tokens_exact", "[1,2]", 0, LIM(64, 8, 3), TOKS(3)),
	JC("n_tokens_over", "[1,2,3]", -E2BIG, LIM(64, 8, 3), AT(5)),
	JC("y_tokens_keys_counted", "{\"a\":1}", 0, LIM(64, 8, 3), TOKS(3)),
	JC("n_tokens_keys_counted", "{\"a\":1}", -E2BIG, LIM(64, 8, 2), AT(5)),
	JC("n_tokens_key_over", "{\"a\":1,\"b\":2}", -E2BIG, LIM(64, 8, 3),
	   AT(7)),
	JC("n_tokens_1_array", "[1]", -E2BIG, LIM(64, 8, 1), AT(1)),
	JC("y_tokens_1_scalar", "1", 0, LIM(64, 8, 1), TOKS(1)),
	JC("n_tokens_0", "1", -E2BIG, LIM(64, 8, 0), AT(0)),
	JC("y_size_exact", "[1]", 0, LIM(3, 8, 64), TOKS(2)),
	JC("n_size_over", "[1]", -EMSGSIZE, LIM(2, 8, 64), AT(2)),
	JC("n_size_zero", "1", -EMSGSIZE, LIM(0, 8, 64), AT(0)),
	JC("n_size_checked_first", "[[[", -EMSGSIZE, LIM(2, 8, 64), AT(2)),
	JC("n_empty_within_limits", "", -EINVAL, LIM(0, 0, 0), AT(0)),
};

/* Integer getters on the single value of a text. */
enum { GET_S64 = 1, GET_U64, GET_S32, GET_U32 };

struct json_num_case {
	const char *name;
	const char *in;
	int kind;		/* GET_* */
	int err;
	s64 s;			/* expected value of GET_S64, GET_S32 */
	u64 u;			/* expected value of GET_U64, GET_U32 */
};

#define NS(n, x, e, v)	{ .name = n, .in = x, .kind = GET_S64, .err = e, .s = v }
#define NU(n, x, e, v)	{ .name = n, .in = x, .kind = GET_U64, .err = e, .u = v }
#define NS32(n, x, e, v) { .name = n, .in = x, .kind = GET_S32, .err = e, .s = v }
#define NU32(n, x, e, v) { .name = n, .in = x, .kind = GET_U32, .err = e, .u = v }

static const struct json_num_case json_num_cases[] __maybe_unused = {
	NS("s64_zero", "0", 0, 0),
	NS("s64_minus_zero", "-0", 0, 0),
	NS("s64_one", "1", 0, 1),
	NS("s64_minus_one", "-1", 0, -1),
	NS("s64_max", "9223372036854775807", 0, S64_MAX),
	NS("s64_max_plus_one", "9223372036854775808", -ERANGE, 0),
	NS("s64_min", "-9223372036854775808", 0, S64_MIN),
	NS("s64_min_minus_one", "-9223372036854775809", -ERANGE, 0),
	NS("s64_u64_max", "18446744073709551615", -ERANGE, 0),
	NS("s64_20_digits", "99999999999999999999", -ERANGE, 0),
	NS("s64_21_digits", "100000000000000000000", -ERANGE, 0),
	NS("s64_minus_21_digits", "-100000000000000000000", -ERANGE, 0),
	NS("s64_float", "1.0", -EINVAL, 0),
	NS("s64_exp", "1e2", -EINVAL, 0),
	NS("s64_minus_zero_float", "-0.0", -EINVAL, 0),
	NS("s64_string", "\"1\"", -EINVAL, 0),
	NS("s64_true", "true", -EINVAL, 0),
	NS("s64_null", "null", -EINVAL, 0),
	NS("s64_array", "[1]", -EINVAL, 0),
	NU("u64_zero", "0", 0, 0),
	NU("u64_minus_zero", "-0", 0, 0),
	NU("u64_one", "1", 0, 1),
	NU("u64_minus_one", "-1", -ERANGE, 0),
	NU("u64_s64_max_plus_one", "9223372036854775808", 0,
	   9223372036854775808ULL),
	NU("u64_max", "18446744073709551615", 0, U64_MAX),
	NU("u64_max_plus_one", "18446744073709551616", -ERANGE, 0),
	NU("u64_max_times_ten", "184467440737095516150", -ERANGE, 0),
	NU("u64_20_nines", "99999999999999999999", -ERANGE, 0),
	NU("u64_s64_min", "-9223372036854775808", -ERANGE, 0),
	NU("u64_float", "0.5", -EINVAL, 0),
	NU("u64_exp_zero", "0e0", -EINVAL, 0),
	NU("u64_string", "\"18\"", -EINVAL, 0),
	NS32("s32_max", "2147483647", 0, S32_MAX),
	NS32("s32_max_plus_one", "2147483648", -ERANGE, 0),
	NS32("s32_min", "-2147483648", 0, S32_MIN),
	NS32("s32_min_minus_one", "-2147483649", -ERANGE, 0),
	NS32("s32_minus_zero", "-0", 0, 0),
	NS32("s32_s64_overflow", "9223372036854775808", -ERANGE, 0),
	NS32("s32_float", "1.5", -EINVAL, 0),
	NU32("u32_max", "4294967295", 0, U32_MAX),
	NU32("u32_max_plus_one", "4294967296", -ERANGE, 0),
	NU32("u32_minus_one", "-1", -ERANGE, 0),
	NU32("u32_zero", "0", 0, 0),
	NU32("u32_false", "false", -EINVAL, 0),
};

/* vl_json_num_cmp() of two lexemes. */
struct json_cmp_case {
	const char *name;
	const char *a;
	const char *b;
	int want;
};

static const struct json_cmp_case json_cmp_cases[] __maybe_unused = {
	{ "one_vs_one_point_zero", "1", "1.0", 0 },
	{ "one_vs_ten_e_minus_one", "1", "10e-1", 0 },
	{ "one_vs_point_one_e1", "1", "0.1e1", 0 },
	{ "zero_vs_minus_zero", "0", "-0", 0 },
	{ "zero_vs_zero_exp", "0", "0e10", 0 },
	{ "zero_vs_minus_zero_frac_exp", "0.0", "-0.0e-5", 0 },
	{ "zero_vs_huge_exp_zero", "0", "0e99999999999999999999", 0 },
	{ "one_below_two", "1", "2", -1 },
	{ "two_above_one", "2", "1", 1 },
	{ "minus_one_below_one", "-1", "1", -1 },
	{ "minus_two_below_minus_one", "-2", "-1", -1 },
	{ "minus_one_above_minus_two", "-1", "-2", 1 },
	{ "hundred_vs_1e2", "100", "1e2", 0 },
	{ "1e2_vs_hundred", "1E+2", "100", 0 },
	{ "frac_vs_exp", "1.5", "15e-1", 0 },
	{ "thousandth", "0.001", "1e-3", 0 },
	{ "millionth", "1e-7", "0.0000001", 0 },
	{ "million", "1000000", "1e6", 0 },
	{ "trailing_zeros", "1.10", "1.1", 0 },
	{ "trailing_zeros_long", "0.5", "0.50000", 0 },
	{ "mixed_form", "123.456e3", "123456", 0 },
	{ "mixed_form_below", "123.456e3", "123457", -1 },
	{ "below_ten", "9.99", "10", -1 },
	{ "minus_half_below", "-0.5", "-0.49", -1 },
	{ "negative_below_zero", "-1e-400", "0", -1 },
	{ "positive_above_zero", "1e-400", "0", 1 },
	{ "big_exponents", "1e400", "1e401", -1 },
	{ "big_exponents_negative", "-1e400", "-1e401", 1 },
	{ "exponent_vs_digits", "1e19", "9999999999999999999", 1 },
	{ "long_integers", "12345678901234567890123", "12345678901234567890124",
	  -1 },
	{ "long_integers_equal", "12345678901234567890123",
	  "1.2345678901234567890123e22", 0 },
	{ "long_fraction", "0.30000000000000000000001", "0.3", 1 },
	{ "u64_max_vs_float", "18446744073709551615", "1.8446744073709551615e19",
	  0 },
	{ "s64_min_vs_float", "-9223372036854775808", "-9.223372036854775808e18",
	  0 },
	{ "huge_exp_equal_saturated", "1e1000000000000000000000",
	  "1e2000000000000000000000", 0 },
	{ "huge_exp_mantissa_decides", "1e1000000000000000000000",
	  "2e1000000000000000000000", -1 },
	{ "huge_exp_positive_vs_negative", "1e99999999999999999999",
	  "1e-99999999999999999999", 1 },
	{ "huge_exp_negative_value", "-1e99999999999999999999", "1", -1 },
	{ "exp_with_leading_zeros", "1e0002", "100", 0 },
	{ "exp_minus_zero", "5e-0", "5", 0 },
	{ "int_vs_frac_below", "3", "3.0000000000000000001", -1 },
};

/* vl_json_num_scaled() */
struct json_scaled_case {
	const char *name;
	const char *in;
	unsigned int decimals;
	int err;
	s64 want;
};

static const struct json_scaled_case json_scaled_cases[] __maybe_unused = {
	{ "two_decimals", "1.23", 2, 0, 123 },
	{ "truncates", "1.239", 2, 0, 123 },
	{ "truncates_negative", "-1.239", 2, 0, -123 },
	{ "integer_scaled", "1", 3, 0, 1000 },
	{ "exponent", "1e3", 0, 0, 1000 },
	{ "negative_exponent", "1e-3", 3, 0, 1 },
	{ "below_resolution", "1e-4", 3, 0, 0 },
	{ "half_to_zero", "0.5", 0, 0, 0 },
	{ "minus_half_to_zero", "-0.5", 0, 0, 0 },
	{ "minus_zero", "-0", 5, 0, 0 },
	{ "zero_huge_exp", "0e999999", 0, 0, 0 },
	{ "tiny", "1e-999999", 2, 0, 0 },
	{ "huge", "1e999999", 0, -ERANGE, 0 },
	{ "s64_max", "9223372036854775807", 0, 0, S64_MAX },
	{ "s64_max_plus_one", "9223372036854775808", 0, -ERANGE, 0 },
	{ "s64_min", "-9223372036854775808", 0, 0, S64_MIN },
	{ "s64_min_minus_one", "-9223372036854775809", 0, -ERANGE, 0 },
	{ "s64_max_scaled", "922337203685477580.7", 1, 0, S64_MAX },
	{ "s64_max_scaled_over", "92233720368547758.08", 2, -ERANGE, 0 },
	{ "1e18", "1e18", 0, 0, 1000000000000000000LL },
	{ "1e19", "1e19", 0, -ERANGE, 0 },
	{ "1e20", "1e20", 0, -ERANGE, 0 },
	{ "1e21", "1e21", 0, -ERANGE, 0 },
	{ "max_decimals", "1", 18, 0, 1000000000000000000LL },
	{ "too_many_decimals", "1", 19, -EINVAL, 0 },
	{ "over_with_decimals", "123", 18, -ERANGE, 0 },
	{ "load_average", "0.57", 2, 0, 57 },
	{ "frac_exp", "12.5e-1", 1, 0, 12 },
	{ "trailing_zero_digits", "1.500", 1, 0, 15 },
	{ "not_a_number", "1.", 0, -EINVAL, 0 },
	{ "not_a_number_nan", "NaN", 0, -EINVAL, 0 },
	{ "empty", "", 0, -EINVAL, 0 },
};

/* vl_json_fixed_fmt() */
struct json_fixed_case {
	const char *name;
	s64 v;
	unsigned int decimals;
	int err;
	const char *want;
};

static const struct json_fixed_case json_fixed_cases[] __maybe_unused = {
	{ "two_decimals", 123, 2, 0, "1.23" },
	{ "leading_zero", 5, 2, 0, "0.05" },
	{ "negative_leading_zero", -5, 2, 0, "-0.05" },
	{ "zero_two_decimals", 0, 2, 0, "0.00" },
	{ "one_hundred", 100, 2, 0, "1.00" },
	{ "integer", 123, 0, 0, "123" },
	{ "negative_integer", -123, 0, 0, "-123" },
	{ "zero", 0, 0, 0, "0" },
	{ "s64_min", S64_MIN, 0, 0, "-9223372036854775808" },
	{ "s64_max", S64_MAX, 0, 0, "9223372036854775807" },
	{ "s64_max_18", S64_MAX, 18, 0, "9.223372036854775807" },
	{ "s64_min_18", S64_MIN, 18, 0, "-9.223372036854775808" },
	{ "one_18", 1, 18, 0, "0.000000000000000001" },
	{ "minus_tenth", -1, 1, 0, "-0.1" },
	{ "load_average", 57, 2, 0, "0.57" },
	{ "too_many_decimals", 1, 19, -EINVAL, NULL },
};

/* vl_json_unescape() of a string text. */
struct json_str_case {
	const char *name;
	const char *in;
	unsigned int len;
	const char *want;
	unsigned int want_len;
};

#define US(n, x, w) { .name = n, .in = x, .len = sizeof(x) - 1, \
		      .want = w, .want_len = sizeof(w) - 1 }

static const struct json_str_case json_str_cases[] __maybe_unused = {
	US("plain", "\"abc\"", "abc"),
	US("empty", "\"\"", ""),
	US("newline", "\"a\\nb\"", "a\nb"),
	US("all_short", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\b\f\n\r\t"),
	US("u_0041", "\"\\u0041\"", "A"),
	US("u_00e9", "\"\\u00e9\"", "\303\251"),
	US("u_nul", "\"a\\u0000b\"", "a\0b"),
	US("u_007f", "\"\\u007F\"", "\177"),
	US("u_0080", "\"\\u0080\"", "\302\200"),
	US("u_07ff", "\"\\u07FF\"", "\337\277"),
	US("u_0800", "\"\\u0800\"", "\340\240\200"),
	US("u_20ac", "\"\\u20AC\"", "\342\202\254"),
	US("u_ffff", "\"\\uFFFF\"", "\357\277\277"),
	US("pair_min", "\"\\uD800\\uDC00\"", "\360\220\200\200"),
	US("pair_emoji", "\"\\uD83D\\uDE00\"", "\360\237\230\200"),
	US("pair_max", "\"\\uDBFF\\uDFFF\"", "\364\217\277\277"),
	US("raw_utf8", "\"\303\251\342\202\254\"", "\303\251\342\202\254"),
	US("mixed", "\"x\\ty\\u00e9z\\\\\"", "x\ty\303\251z\\"),
	US("escape_first_and_last", "\"\\nabc\\n\"", "\nabc\n"),
	US("long_with_escape", "\"abcdefghijklmnop\\\"qrstuvwxyz\"",
	   "abcdefghijklmnop\"qrstuvwxyz"),
};

/* Accessors on one document.  GET_* as above plus the kinds below; a row
 * names a member of the top-level object.
 */
enum { GET_FIND = 16, GET_BOOL, GET_STR };

static const char json_get_doc[] __maybe_unused =
	"{\"s\":\"abc\",\"e\":\"a\\u00e9\\n\",\"nul\":\"a\\u0000b\",\n"
	"\"i\":-5,\"u\":18446744073709551615,\"big\":1e3,\"fl\":1.5,\n"
	"\"t\":true,\"f\":false,\"n\":null,\"o\":{\"x\":1},\"a\":[1,2,3],\n"
	"\"\\u006b\":\"escaped key\",\"s32min\":-2147483648,\n"
	"\"s32over\":2147483648,\"u32max\":4294967295,\n"
	"\"u32over\":4294967296,\"neg0\":-0,\"empty\":\"\"}";

struct json_get_case {
	const char *name;
	const char *key;
	int kind;		/* GET_* */
	int err;
	s64 s;			/* GET_S64, GET_S32 */
	u64 u;			/* GET_U64, GET_U32, GET_BOOL; GET_FIND: type */
	const char *str;	/* GET_STR */
	unsigned int str_len;
	unsigned int size;	/* GET_STR: buffer size, 0 for plenty */
};

#define JG(n, k, g, e, ...) \
	{ .name = n, .key = k, .kind = g, .err = e, ##__VA_ARGS__ }

static const struct json_get_case json_get_cases[] __maybe_unused = {
	JG("find_string", "s", GET_FIND, 0, .u = VL_JSON_STRING),
	JG("find_escaped_key", "k", GET_FIND, 0, .u = VL_JSON_STRING),
	JG("find_missing", "zz", GET_FIND, -ENOENT),
	JG("find_null_is_found", "n", GET_FIND, 0, .u = VL_JSON_NULL),
	JG("find_empty_key_missing", "", GET_FIND, -ENOENT),
	JG("find_case_sensitive", "S", GET_FIND, -ENOENT),
	JG("find_prefix_not_found", "s3", GET_FIND, -ENOENT),
	JG("find_object", "o", GET_FIND, 0, .u = VL_JSON_OBJECT),
	JG("find_array", "a", GET_FIND, 0, .u = VL_JSON_ARRAY),
	JG("find_nested_key_not_top", "x", GET_FIND, -ENOENT),
	JG("str", "s", GET_STR, 0, .str = "abc", .str_len = 3),
	JG("str_escaped", "e", GET_STR, 0, .str = "a\303\251\n", .str_len = 4),
	JG("str_escaped_key", "k", GET_STR, 0, .str = "escaped key",
	   .str_len = 11),
	JG("str_empty", "empty", GET_STR, 0, .str = "", .str_len = 0),
	JG("str_with_nul", "nul", GET_STR, -EILSEQ),
	JG("str_wrong_type", "i", GET_STR, -EINVAL),
	JG("str_object", "o", GET_STR, -EINVAL),
	JG("str_absent", "zz", GET_STR, -ENOENT),
	JG("str_null_is_absent", "n", GET_STR, -ENOENT),
	JG("str_buffer_too_small", "s", GET_STR, -ENOSPC, .size = 3),
	JG("str_buffer_exact", "s", GET_STR, 0, .str = "abc", .str_len = 3,
	   .size = 4),
	JG("str_escaped_buffer_small", "e", GET_STR, -ENOSPC, .size = 4),
	JG("bool_true", "t", GET_BOOL, 0, .u = 1),
	JG("bool_false", "f", GET_BOOL, 0, .u = 0),
	JG("bool_wrong_type", "i", GET_BOOL, -EINVAL),
	JG("bool_string", "s", GET_BOOL, -EINVAL),
	JG("bool_null_is_absent", "n", GET_BOOL, -ENOENT),
	JG("bool_absent", "zz", GET_BOOL, -ENOENT),
	JG("s64", "i", GET_S64, 0, .s = -5),
	JG("s64_too_big", "u", GET_S64, -ERANGE),
	JG("s64_float", "fl", GET_S64, -EINVAL),
	JG("s64_exp_form", "big", GET_S64, -EINVAL),
	JG("s64_string", "s", GET_S64, -EINVAL),
	JG("s64_null_is_absent", "n", GET_S64, -ENOENT),
	JG("s64_minus_zero", "neg0", GET_S64, 0, .s = 0),
	JG("s64_above_s32", "s32over", GET_S64, 0, .s = 2147483648LL),
	JG("u64", "u", GET_U64, 0, .u = U64_MAX),
	JG("u64_negative", "i", GET_U64, -ERANGE),
	JG("u64_minus_zero", "neg0", GET_U64, 0, .u = 0),
	JG("u64_array", "a", GET_U64, -EINVAL),
	JG("s32_min", "s32min", GET_S32, 0, .s = S32_MIN),
	JG("s32_over", "s32over", GET_S32, -ERANGE),
	JG("s32_small", "i", GET_S32, 0, .s = -5),
	JG("s32_u64_max", "u", GET_S32, -ERANGE),
	JG("u32_max", "u32max", GET_U32, 0, .u = U32_MAX),
	JG("u32_over", "u32over", GET_U32, -ERANGE),
	JG("u32_negative", "i", GET_U32, -ERANGE),
	JG("u32_above_s32", "s32over", GET_U32, 0, .u = 2147483648ULL),
};

/* Writer scripts: ops until one with op 0, then the expected result. */
enum {
	W_OBJ_OPEN = 1, W_OBJ_CLOSE, W_ARR_OPEN, W_ARR_CLOSE, W_KEY, W_STR,
	W_S64, W_U64, W_BOOL, W_NULL, W_FLOAT, W_FIXED, W_RAW, W_TOK,
};

struct jsonw_op {
	int op;
	const char *s;		/* W_KEY, W_STR, W_FLOAT, W_RAW, W_TOK (a text) */
	unsigned int len;
	s64 i;			/* W_S64, W_FIXED, W_BOOL */
	u64 u;			/* W_U64; W_FIXED: decimals */
};

struct jsonw_case {
	const char *name;
	size_t max;		/* 0: 4096 */
	const struct jsonw_op *ops;
	int err;
	const char *want;
	unsigned int want_len;
};

#define WO(o)		{ .op = (o) }
#define WS(o, x)	{ .op = (o), .s = (x), .len = sizeof(x) - 1 }
#define WI(o, v)	{ .op = (o), .i = (v) }
#define WU(v)		{ .op = W_U64, .u = (v) }
#define WFX(v, d)	{ .op = W_FIXED, .i = (v), .u = (d) }
#define WOPS(...)	.ops = (const struct jsonw_op[]){ __VA_ARGS__, { 0 } }
#define WANT(x)		.want = (x), .want_len = sizeof(x) - 1

static const struct jsonw_case jsonw_cases[] __maybe_unused = {
	{ "empty_object", WOPS(WO(W_OBJ_OPEN), WO(W_OBJ_CLOSE)), 0, WANT("{}") },
	{ "empty_array", WOPS(WO(W_ARR_OPEN), WO(W_ARR_CLOSE)), 0, WANT("[]") },
	{ "top_zero", WOPS(WI(W_S64, 0)), 0, WANT("0") },
	{ "top_minus_one", WOPS(WI(W_S64, -1)), 0, WANT("-1") },
	{ "top_s64_min", WOPS(WI(W_S64, S64_MIN)), 0,
	  WANT("-9223372036854775808") },
	{ "top_s64_max", WOPS(WI(W_S64, S64_MAX)), 0,
	  WANT("9223372036854775807") },
	{ "top_u64_zero", WOPS(WU(0)), 0, WANT("0") },
	{ "top_u64_max", WOPS(WU(U64_MAX)), 0, WANT("18446744073709551615") },
	{ "top_true", WOPS(WI(W_BOOL, 1)), 0, WANT("true") },
	{ "top_false", WOPS(WI(W_BOOL, 0)), 0, WANT("false") },
	{ "top_null", WOPS(WO(W_NULL)), 0, WANT("null") },
	{ "top_string_empty", WOPS(WS(W_STR, "")), 0, WANT("\"\"") },
	{ "members", WOPS(WO(W_OBJ_OPEN), WS(W_KEY, "a"), WI(W_S64, 1),
			  WS(W_KEY, "b"), WS(W_STR, "x"), WS(W_KEY, "c"),
			  WI(W_BOOL, 1), WS(W_KEY, "d"), WO(W_NULL),
			  WO(W_OBJ_CLOSE)),
	  0, WANT("{\"a\":1,\"b\":\"x\",\"c\":true,\"d\":null}") },
	{ "nested", WOPS(WO(W_OBJ_OPEN), WS(W_KEY, "a"), WO(W_ARR_OPEN),
			 WI(W_S64, 1), WO(W_OBJ_OPEN), WS(W_KEY, "b"),
			 WO(W_ARR_OPEN), WO(W_ARR_CLOSE), WO(W_OBJ_CLOSE),
			 WO(W_ARR_CLOSE), WS(W_KEY, "c"), WO(W_OBJ_OPEN),
			 WO(W_OBJ_CLOSE), WO(W_OBJ_CLOSE)),
	  0, WANT("{\"a\":[1,{\"b\":[]}],\"c\":{}}") },
	{ "array_commas", WOPS(WO(W_ARR_OPEN), WI(W_S64, 1), WU(2),
			       WS(W_STR, "3"), WO(W_NULL), WO(W_ARR_CLOSE)),
	  0, WANT("[1,2,\"3\",null]") },
	{ "arrays_of_arrays", WOPS(WO(W_ARR_OPEN), WO(W_ARR_OPEN),
				   WO(W_ARR_CLOSE), WO(W_ARR_OPEN),
				   WO(W_ARR_OPEN), WO(W_ARR_CLOSE),
				   WO(W_ARR_CLOSE), WO(W_ARR_CLOSE)),
	  0, WANT("[[],[[]]]") },
	{ "key_escaped", WOPS(WO(W_OBJ_OPEN), WS(W_KEY, "a\"b\n"),
			      WI(W_S64, 1), WO(W_OBJ_CLOSE)),
	  0, WANT("{\"a\\\"b\\n\":1}") },
	{ "key_empty", WOPS(WO(W_OBJ_OPEN), WS(W_KEY, ""), WO(W_NULL),
			    WO(W_OBJ_CLOSE)),
	  0, WANT("{\"\":null}") },
	{ "fixed", WOPS(WO(W_ARR_OPEN), WFX(123, 2), WFX(-5, 2), WFX(0, 0),
			WFX(57, 2), WO(W_ARR_CLOSE)),
	  0, WANT("[1.23,-0.05,0,0.57]") },
	{ "fixed_bad_decimals", WOPS(WFX(1, 19)), -EINVAL },
	{ "float_lexemes", WOPS(WO(W_ARR_OPEN), WS(W_FLOAT, "1.5e10"),
				WS(W_FLOAT, "-0"), WS(W_FLOAT, "1"),
				WO(W_ARR_CLOSE)),
	  0, WANT("[1.5e10,-0,1]") },
	{ "float_leading_zero", WOPS(WS(W_FLOAT, "01")), -EINVAL },
	{ "float_nan", WOPS(WS(W_FLOAT, "NaN")), -EINVAL },
	{ "float_infinity", WOPS(WS(W_FLOAT, "-Infinity")), -EINVAL },
	{ "float_empty", WOPS(WS(W_FLOAT, "")), -EINVAL },
	{ "float_trailing_space", WOPS(WS(W_FLOAT, "1 ")), -EINVAL },
	{ "raw_verbatim", WOPS(WO(W_OBJ_OPEN), WS(W_KEY, "o"),
			       WS(W_RAW, "{\"x\": [1, 2]}"), WO(W_OBJ_CLOSE)),
	  0, WANT("{\"o\":{\"x\": [1, 2]}}") },
	{ "raw_empty", WOPS(WS(W_RAW, "")), -EINVAL },
	{ "tok_compacted", WOPS(WO(W_ARR_OPEN),
				WS(W_TOK, " { \"a b\" : [ 1 , \"x \\\" y\" ] } "),
				WO(W_ARR_CLOSE)),
	  0, WANT("[{\"a b\":[1,\"x \\\" y\"]}]") },
	{ "tok_scalar", WOPS(WS(W_TOK, "\" a \"")), 0, WANT("\" a \"") },
	{ "misuse_key_at_top", WOPS(WS(W_KEY, "a")), -EINVAL },
	{ "misuse_key_in_array", WOPS(WO(W_ARR_OPEN), WS(W_KEY, "a")),
	  -EINVAL },
	{ "misuse_value_without_key", WOPS(WO(W_OBJ_OPEN), WI(W_S64, 1)),
	  -EINVAL },
	{ "misuse_two_keys", WOPS(WO(W_OBJ_OPEN), WS(W_KEY, "a"),
				  WS(W_KEY, "b")), -EINVAL },
	{ "misuse_close_after_key", WOPS(WO(W_OBJ_OPEN), WS(W_KEY, "a"),
					 WO(W_OBJ_CLOSE)), -EINVAL },
	{ "misuse_close_wrong_type", WOPS(WO(W_OBJ_OPEN), WO(W_ARR_CLOSE)),
	  -EINVAL },
	{ "misuse_close_array_as_object", WOPS(WO(W_ARR_OPEN),
					       WO(W_OBJ_CLOSE)), -EINVAL },
	{ "misuse_close_at_top", WOPS(WO(W_OBJ_CLOSE)), -EINVAL },
	{ "misuse_two_top_values", WOPS(WI(W_S64, 1), WI(W_S64, 2)),
	  -EINVAL },
	{ "misuse_value_after_object", WOPS(WO(W_OBJ_OPEN), WO(W_OBJ_CLOSE),
					    WO(W_ARR_OPEN)), -EINVAL },
	{ "misuse_unclosed", WOPS(WO(W_OBJ_OPEN)), -EINVAL },
	{ "misuse_unclosed_nested", WOPS(WO(W_ARR_OPEN), WO(W_ARR_OPEN),
					 WO(W_ARR_CLOSE)), -EINVAL },
	{ "misuse_two_nulls", WOPS(WO(W_NULL), WO(W_NULL)), -EINVAL },
	{ "misuse_nothing", WOPS(WO(0)), -EINVAL },
	{ "size_exact", 3, WOPS(WO(W_OBJ_OPEN), WO(W_OBJ_CLOSE)), 0,
	  WANT("{}") },
	{ "size_one_over", 2, WOPS(WO(W_OBJ_OPEN), WO(W_OBJ_CLOSE)),
	  -EMSGSIZE },
	{ "size_zero", 1, WOPS(WO(W_NULL)), -EMSGSIZE },
	{ "size_string_exact", 6, WOPS(WS(W_STR, "abc")), 0,
	  WANT("\"abc\"") },
	{ "size_string_over", 5, WOPS(WS(W_STR, "abc")), -EMSGSIZE },
	{ "size_escape_over", 8, WOPS(WS(W_STR, "\001")), -EMSGSIZE },
	{ "size_escape_exact", 9, WOPS(WS(W_STR, "\001")), 0,
	  WANT("\"\\u0001\"") },
	{ "sticky_after_overflow", 4, WOPS(WO(W_ARR_OPEN), WS(W_STR, "abc"),
					   WO(W_ARR_CLOSE)), -EMSGSIZE },
	{ "sticky_misuse_then_more", WOPS(WS(W_KEY, "a"), WO(W_OBJ_OPEN),
					  WO(W_OBJ_CLOSE)), -EINVAL },
};

/* Run the ops of a writer script on @w; W_TOK parses its text into @toks
 * (@cap entries) with the default limits and copies token 0.
 */
static inline void jsonw_case_run(struct vl_jsonw *w,
				  const struct jsonw_op *op,
				  struct vl_json_tok *toks, u32 cap)
{
	static const struct vl_json_limits lim = VL_JSON_LIMITS_DEFAULT;
	struct vl_json js;

	for (; op->op; op++) {
		switch (op->op) {
		case W_OBJ_OPEN:
			vl_jsonw_obj_open(w);
			break;
		case W_OBJ_CLOSE:
			vl_jsonw_obj_close(w);
			break;
		case W_ARR_OPEN:
			vl_jsonw_arr_open(w);
			break;
		case W_ARR_CLOSE:
			vl_jsonw_arr_close(w);
			break;
		case W_KEY:
			vl_jsonw_key_len(w, op->s, op->len);
			break;
		case W_STR:
			vl_jsonw_str_len(w, op->s, op->len);
			break;
		case W_S64:
			vl_jsonw_s64(w, op->i);
			break;
		case W_U64:
			vl_jsonw_u64(w, op->u);
			break;
		case W_BOOL:
			vl_jsonw_bool(w, op->i);
			break;
		case W_NULL:
			vl_jsonw_null(w);
			break;
		case W_FLOAT:
			vl_jsonw_float(w, op->s, op->len);
			break;
		case W_FIXED:
			vl_jsonw_fixed(w, op->i, op->u);
			break;
		case W_RAW:
			vl_jsonw_raw(w, op->s, op->len);
			break;
		case W_TOK:
			vl_json_init(&js, toks, cap);
			if (!vl_json_parse(&js, op->s, op->len, &lim))
				vl_jsonw_tok(w, &js, 0);
			break;
		}
	}
}

/* Strings through the writer: escapes and U+FFFD replacement. */
struct jsonw_str_case {
	const char *name;
	const char *in;
	unsigned int len;
	const char *want;	/* without the quotes */
	unsigned int want_len;
};

#define WSTR(n, x, w)	{ .name = n, .in = x, .len = sizeof(x) - 1, \
			  .want = w, .want_len = sizeof(w) - 1 }
#define FFFD		"\357\277\275"

static const struct jsonw_str_case jsonw_str_cases[] __maybe_unused = {
	WSTR("empty", "", ""),
	WSTR("plain", "abc", "abc"),
	WSTR("quote", "\"", "\\\""),
	WSTR("backslash", "\\", "\\\\"),
	WSTR("slash_raw", "/", "/"),
	WSTR("short_escapes", "\b\f\n\r\t", "\\b\\f\\n\\r\\t"),
	WSTR("nul", "a\0b", "a\\u0000b"),
	WSTR("ctrl_01", "\001", "\\u0001"),
	WSTR("ctrl_1f", "\037", "\\u001f"),
	WSTR("escape_char", "\033", "\\u001b"),
	WSTR("vertical_tab", "\v", "\\u000b"),
	WSTR("del_raw", "\177", "\177"),
	WSTR("utf8_2byte", "\303\251", "\303\251"),
	WSTR("utf8_3byte", "\342\202\254", "\342\202\254"),
	WSTR("utf8_4byte", "\360\237\230\200", "\360\237\230\200"),
	WSTR("utf8_max", "\364\217\277\277", "\364\217\277\277"),
	WSTR("utf8_u2028_raw", "\342\200\250", "\342\200\250"),
	WSTR("replacement_char_kept", FFFD, FFFD),
	WSTR("invalid_ff", "\377", FFFD),
	WSTR("invalid_between_ascii", "a\377b", "a" FFFD "b"),
	WSTR("lone_continuation", "\200", FFFD),
	WSTR("overlong_nul", "\300\200", FFFD FFFD),
	WSTR("overlong_3byte", "\340\200\200", FFFD FFFD FFFD),
	WSTR("surrogate_d800", "\355\240\200", FFFD FFFD FFFD),
	WSTR("truncated_3", "\342\202", FFFD),
	WSTR("truncated_3_then_ascii", "\342\202A", FFFD "A"),
	WSTR("truncated_4", "\360\237\230", FFFD),
	WSTR("truncated_4_then_ascii", "\360\237\230A", FFFD "A"),
	WSTR("above_10ffff", "\364\220\200\200", FFFD FFFD FFFD FFFD),
	WSTR("f5", "\365", FFFD),
	WSTR("lead_then_lead", "\303\303\251", FFFD "\303\251"),
	WSTR("mixed", "x\n\303\251\377\"", "x\\n\303\251" FFFD "\\\""),
	/* the writer skips printable ASCII eight bytes at a time */
	WSTR("long_plain", "0123456789abcdefghij", "0123456789abcdefghij"),
	WSTR("quote_at_8", "01234567\"9", "01234567\\\"9"),
	WSTR("quote_at_7", "0123456\"89abcdef", "0123456\\\"89abcdef"),
	WSTR("backslash_at_15", "0123456789abcde\\", "0123456789abcde\\\\"),
	WSTR("ctrl_at_9", "012345678\tabcdefgh", "012345678\\tabcdefgh"),
	WSTR("del_in_word", "0123\1774567", "0123\1774567"),
	WSTR("utf8_in_word", "0123\303\2514567abcdefgh", "0123\303\2514567abcdefgh"),
	WSTR("invalid_after_word", "01234567\377abcdefgh", "01234567" FFFD "abcdefgh"),
	WSTR("space_and_tilde", "        ~~~~~~~~", "        ~~~~~~~~"),
};

/* Print @in as C-escaped text into @out (for messages that echo input). */
static inline const char *json_echo(char *out, size_t size, const char *in,
				    size_t len)
{
	static const char hexd[] = "0123456789abcdef";
	size_t i, o = 0;

	for (i = 0; i < len && o + 8 < size; i++) {
		u8 c = in[i];

		if (c >= 0x20 && c < 0x7f && c != '\\') {
			out[o++] = c;
			continue;
		}
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hexd[c >> 4];
		out[o++] = hexd[c & 0xf];
	}
	if (i < len) {
		out[o++] = '.';
		out[o++] = '.';
		out[o++] = '.';
	}
	out[o] = '\0';
	return out;
}

/* Reference UTF-8 check, written independently of vl_utf8_seq(): a prefix
 * is viable when the code points it can still become meet the range of its
 * length (U+0080.., U+0800.., U+10000..U+10FFFF, surrogates excluded).
 * Return the length of the valid sequence at @s, or minus the length of
 * its maximal invalid subpart.
 */
static inline int json_ref_utf8(const u8 *s, size_t n)
{
	static const u32 min_cp[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	int len, k;
	u32 cp;

	if (s[0] < 0x80)
		return 1;
	len = s[0] >= 0xf8 ? 0 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 :
	      s[0] >= 0xc0 ? 2 : 0;
	if (!len)
		return -1;
	cp = s[0] & (0x7f >> len);
	for (k = 1; ; k++) {
		int rem = 6 * (len - k);
		u32 lo = cp << rem, hi = lo | ((1U << rem) - 1);

		if (hi < min_cp[len] || lo > 0x10ffff ||
		    (lo >= 0xd800 && hi <= 0xdfff))
			return k > 1 ? -(k - 1) : -1;
		if (k == len)
			return len;
		if ((size_t)k >= n || (s[k] & 0xc0) != 0x80)
			return -k;
		cp = cp << 6 | (s[k] & 0x3f);
	}
}

/* Reference: whether @s is a valid JSON string body, for bodies without
 * "\\u" escapes (a "\\u" counts as invalid).
 */
static inline bool json_ref_string_ok(const u8 *s, size_t n)
{
	static const char short_esc[] = "\"\\/bfnrt";
	size_t i = 0;
	int l;

	while (i < n) {
		if (s[i] == '\\') {
			if (i + 1 >= n || !s[i + 1] || !strchr(short_esc, s[i + 1]))
				return false;
			i += 2;
		} else if (s[i] == '"' || s[i] < 0x20) {
			return false;
		} else if (s[i] < 0x80) {
			i++;
		} else {
			l = json_ref_utf8(s + i, n - i);
			if (l < 0)
				return false;
			i += l;
		}
	}
	return true;
}

/* Bytes around every UTF-8 and JSON boundary, for sequence tests. */
static const u8 json_edge_bytes[] __maybe_unused = {
	0x00, 0x1f, 0x20, 0x22, 0x41, 0x5c, 0x7f, 0x80, 0x8f, 0x90, 0x9f,
	0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4,
	0xf5, 0xff,
};

/* Reference writer output for a string, quotes excluded: bytes that need
 * it escaped, valid UTF-8 kept, maximal invalid subparts as U+FFFD.
 * @out needs 6 * @n bytes.  Return the output length.
 */
static inline size_t json_ref_escape(const u8 *s, size_t n, char *out)
{
	static const char hexd[] = "0123456789abcdef";
	size_t i = 0, o = 0;
	int l;

	while (i < n) {
		u8 c = s[i];

		if (c == '"' || c == '\\') {
			out[o++] = '\\';
			out[o++] = c;
		} else if (c == '\n' || c == '\t' || c == '\r' || c == '\b' ||
			   c == '\f') {
			out[o++] = '\\';
			out[o++] = c == '\n' ? 'n' : c == '\t' ? 't' :
				   c == '\r' ? 'r' : c == '\b' ? 'b' : 'f';
		} else if (c < 0x20) {
			memcpy(out + o, "\\u00", 4);
			out[o + 4] = hexd[c >> 4];
			out[o + 5] = hexd[c & 0xf];
			o += 6;
		} else if (c < 0x80) {
			out[o++] = c;
		} else {
			l = json_ref_utf8(s + i, n - i);
			if (l > 0) {
				memcpy(out + o, s + i, l);
				o += l;
			} else {
				memcpy(out + o, FFFD, 3);
				o += 3;
				l = -l;
			}
			i += l;
			continue;
		}
		i++;
	}
	return o;
}

/* Check the structure of a parsed document: every subtree ends where its
 * @next says, containers have @count children, keys alternate with values.
 * Return NULL, or what is wrong.
 */
static inline const char *json_check_tokens(const struct vl_json *js)
{
	u32 i, k, n;

	if (!js->ntoks || js->toks[0].next != js->ntoks)
		return "token 0 does not span the document";
	for (i = 0; i < js->ntoks; i++) {
		const struct vl_json_tok *t = &js->toks[i];
		const char *text = js->buf + t->start;

		if (t->next <= i || t->next > js->ntoks || !t->len ||
		    t->start + t->len > js->len)
			return "token out of bounds";
		if (t->type != VL_JSON_OBJECT && t->type != VL_JSON_ARRAY) {
			if (t->next != i + 1)
				return "scalar with children";
			if (t->type == VL_JSON_STRING &&
			    (text[0] != '"' || text[t->len - 1] != '"' ||
			     t->count > t->len - 2))
				return "bad string token";
			continue;
		}
		if (text[0] != (t->type == VL_JSON_OBJECT ? '{' : '[') ||
		    text[t->len - 1] != (t->type == VL_JSON_OBJECT ? '}' : ']'))
			return "container brackets";
		for (n = 0, k = i + 1; k < t->next; k = js->toks[k].next, n++) {
			bool key = js->toks[k].flags & VL_JSON_F_KEY;

			if (t->type == VL_JSON_OBJECT && key != !(n & 1))
				return "keys and values do not alternate";
			if (t->type == VL_JSON_ARRAY && key)
				return "key in an array";
		}
		if (k != t->next)
			return "children overrun the subtree";
		if (n != (t->type == VL_JSON_OBJECT ? 2 * t->count : t->count))
			return "wrong child count";
	}
	return NULL;
}

#endif /* _VL_JSON_CASES_H */
