/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - a tiny streaming JSON writer. Commas and escaping are handled
 * here; callers just open/close containers and emit keys and values.
 * Strings are C strings of bytes: valid UTF-8 is written as is, control
 * characters as \n, \t, \r or \u00XX, and each byte that is not part of
 * valid UTF-8 (a path, a command line) as \ufffd, so the output is
 * always valid JSON (RFC 8259).
 */
#ifndef NOCB_JSON_H
#define NOCB_JSON_H

#include <stdbool.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *f;
	int depth;
	bool first[JSON_MAX_DEPTH];	/* no element yet at this depth */
	bool after_key;
};

void json_init(struct json *j, FILE *f);
void json_obj_begin(struct json *j);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j);
void json_arr_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_str(struct json *j, const char *s);
void json_int(struct json *j, long long v);
void json_uint(struct json *j, unsigned long long v);
void json_double(struct json *j, double v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* Finish the document with a newline. */
void json_end(struct json *j);

/* Convenience: key + value */
void json_kstr(struct json *j, const char *k, const char *v);
void json_kint(struct json *j, const char *k, long long v);
void json_kuint(struct json *j, const char *k, unsigned long long v);
void json_kbool(struct json *j, const char *k, bool v);

#endif
