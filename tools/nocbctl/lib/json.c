// SPDX-License-Identifier: GPL-2.0
/* json.c - tiny streaming JSON writer (see json.h). */
#include "json.h"

#include <math.h>

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->after_key = false;
}

static void sep(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
}

static void open_c(struct json *j, char c)
{
	sep(j);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_c(struct json *j, char c)
{
	if (j->depth > 0)
		j->depth--;
	fputc(c, j->f);
}

void json_obj_begin(struct json *j) { open_c(j, '{'); }
void json_obj_end(struct json *j) { close_c(j, '}'); }
void json_arr_begin(struct json *j) { open_c(j, '['); }
void json_arr_end(struct json *j) { close_c(j, ']'); }

/*
 * Length of the valid UTF-8 sequence at p (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF), or 0 if there is none.
 */
static int utf8_len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;	/* also stops at the NUL */
	for (int i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		int n;

		switch (*p) {
		case '"': fputs("\\\"", f); continue;
		case '\\': fputs("\\\\", f); continue;
		case '\n': fputs("\\n", f); continue;
		case '\t': fputs("\\t", f); continue;
		case '\r': fputs("\\r", f); continue;
		}
		if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p);
			continue;
		}
		n = utf8_len(p);
		if (!n) {
			/* not UTF-8 (a path, a command line): U+FFFD per byte */
			fputs("\\ufffd", f);
			continue;
		}
		fwrite(p, 1, (size_t)n, f);
		p += n - 1;
	}
	fputc('"', f);
}

void json_key(struct json *j, const char *key)
{
	sep(j);
	put_string(j->f, key);
	fputc(':', j->f);
	j->after_key = true;
}

void json_str(struct json *j, const char *s)
{
	sep(j);
	if (s)
		put_string(j->f, s);
	else
		fputs("null", j->f);
}

void json_int(struct json *j, long long v)
{
	sep(j);
	fprintf(j->f, "%lld", v);
}

void json_uint(struct json *j, unsigned long long v)
{
	sep(j);
	fprintf(j->f, "%llu", v);
}

void json_double(struct json *j, double v)
{
	sep(j);
	if (isfinite(v))
		fprintf(j->f, "%.3f", v);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, bool v)
{
	sep(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	sep(j);
	fputs("null", j->f);
}

void json_end(struct json *j)
{
	fputc('\n', j->f);
}

void json_kstr(struct json *j, const char *k, const char *v)
{
	json_key(j, k);
	json_str(j, v);
}

void json_kint(struct json *j, const char *k, long long v)
{
	json_key(j, k);
	json_int(j, v);
}

void json_kuint(struct json *j, const char *k, unsigned long long v)
{
	json_key(j, k);
	json_uint(j, v);
}

void json_kbool(struct json *j, const char *k, bool v)
{
	json_key(j, k);
	json_bool(j, v);
}
