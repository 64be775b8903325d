#include "base/json.h"

#include <math.h>

static void sep(struct tsg_json *j)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = 0;
}

static void key(struct tsg_json *j, const char *k)
{
	sep(j);
	if (k)
		fprintf(j->f, "\"%s\":", k);
}

static void open(struct tsg_json *j, char c)
{
	fputc(c, j->f);
	if (j->depth < 15)
		j->depth++;
	j->first[j->depth] = 1;
}

void json_begin(struct tsg_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = 1;
	open(j, '{');
}

void json_end(struct tsg_json *j)
{
	json_close(j, '}');
	fputc('\n', j->f);
	fflush(j->f);
}

void json_key_obj(struct tsg_json *j, const char *k) { key(j, k); open(j, '{'); }
void json_key_arr(struct tsg_json *j, const char *k) { key(j, k); open(j, '['); }
void json_obj(struct tsg_json *j) { key(j, NULL); open(j, '{'); }

void json_close(struct tsg_json *j, char c)
{
	fputc(c, j->f);
	if (j->depth > 0)
		j->depth--;
}

/* the length of the well-formed UTF-8 sequence at p (RFC 3629: no
 * overlong forms, no surrogates, nothing past U+10FFFF), 0 if there is none */
static int utf8_len(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	int n;
	unsigned char lo = 0x80, hi = 0xbf;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		if (p[0] == 0xe0)
			lo = 0xa0;
		else if (p[0] == 0xed)
			hi = 0x9f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		if (p[0] == 0xf0)
			lo = 0x90;
		else if (p[0] == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (int i = 2; i < n; i++) /* a NUL stops here too: it is no continuation */
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* A path is bytes, JSON text is UTF-8: a byte b that begins no
 * well-formed sequence is written as the escape \udcXX (0xdc00 + b), the
 * convention of Python's surrogateescape, so that the line is UTF-8 every
 * reader decodes (Python's json refused it whole before) and the path
 * comes back byte for byte (os.fsencode); a strict reader may refuse the
 * lone surrogate itself, where U+FFFD would have lost the byte */
void json_str(struct tsg_json *j, const char *k, const char *v)
{
	key(j, k);
	fputc('"', j->f);
	for (const unsigned char *p = (const unsigned char *)v; *p;) {
		const int n = utf8_len(p);
		if (n == 0) {
			fprintf(j->f, "\\u%04x", 0xdc00u + *p);
			p++;
		} else if (*p == '"' || *p == '\\') {
			fprintf(j->f, "\\%c", *p);
			p++;
		} else if (*p < 0x20) {
			fprintf(j->f, "\\u%04x", *p);
			p++;
		} else {
			fwrite(p, 1, (size_t)n, j->f);
			p += n;
		}
	}
	fputc('"', j->f);
}

void json_u64(struct tsg_json *j, const char *k, uint64_t v)
{
	key(j, k);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_f64(struct tsg_json *j, const char *k, double v)
{
	key(j, k);
	if (isfinite(v)) /* JSON has no NaN or infinity */
		fprintf(j->f, "%.6f", v);
	else
		fputs("null", j->f);
}

void json_bool(struct tsg_json *j, const char *k, int v)
{
	key(j, k);
	fputs(v ? "true" : "false", j->f);
}
