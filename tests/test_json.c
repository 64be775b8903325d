/*
 * test_json.c - the --json writer (base/json.h): every string it writes is
 * UTF-8, whatever bytes a path holds, and gives them back (a byte that is
 * not UTF-8 as the escape \udcXX); escapes and numbers are JSON's own.
 */
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "testlib.h"

/* one object {"k": v} written by json_str, as text (malloc'd) */
static char *str_line(const char *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	struct tsg_json j;
	json_begin(&j, f);
	json_str(&j, "k", v);
	json_end(&j);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void check_str(struct t_state *st, const char *v, const char *want)
{
	char *got = str_line(v);
	CHECK(st, got && strcmp(got, want) == 0, "for %zu bytes: got '%s', want '%s'", strlen(v),
	      got ? got : "(nothing)", want);
	free(got);
}

static void check_f64(struct t_state *st, double v, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(st, f != NULL, "open_memstream");
	if (!f)
		return;
	struct tsg_json j;
	json_begin(&j, f);
	json_f64(&j, "x", v);
	json_end(&j);
	fclose(f);
	CHECK(st, buf && strcmp(buf, want) == 0, "got '%s', want '%s'", buf ? buf : "", want);
	free(buf);
}

int main(void)
{
	struct t_state st = { 0 };
	/* plain, escaped, control */
	check_str(&st, "g.tsg", "{\"k\":\"g.tsg\"}\n");
	check_str(&st, "a\"b\\c", "{\"k\":\"a\\\"b\\\\c\"}\n");
	check_str(&st, "a\nb\x01", "{\"k\":\"a\\u000ab\\u0001\"}\n");
	/* well-formed UTF-8 of every length passes as it is */
	check_str(&st, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "{\"k\":\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"}\n");
	check_str(&st, "\xed\x9f\xbf\xf4\x8f\xbf\xbf", "{\"k\":\"\xed\x9f\xbf\xf4\x8f\xbf\xbf\"}\n");
	/* a byte b that begins no well-formed sequence: \udcXX (0xdc00 + b), one each */
	check_str(&st, "a\xffz", "{\"k\":\"a\\udcffz\"}\n");                   /* never in UTF-8 */
	check_str(&st, "\x80", "{\"k\":\"\\udc80\"}\n");                         /* lone continuation */
	check_str(&st, "\xc3", "{\"k\":\"\\udcc3\"}\n");                         /* cut at the end */
	check_str(&st, "\xe2\x82z", "{\"k\":\"\\udce2\\udc82z\"}\n");             /* cut in the middle */
	check_str(&st, "\xc0\xaf", "{\"k\":\"\\udcc0\\udcaf\"}\n");               /* overlong */
	check_str(&st, "\xe0\x80\xaf", "{\"k\":\"\\udce0\\udc80\\udcaf\"}\n");     /* overlong */
	check_str(&st, "\xed\xa0\x80", "{\"k\":\"\\udced\\udca0\\udc80\"}\n");     /* a surrogate */
	check_str(&st, "\xf4\x90\x80\x80", "{\"k\":\"\\udcf4\\udc90\\udc80\\udc80\"}\n"); /* past U+10FFFF */
	check_str(&st, "\xf5\x80", "{\"k\":\"\\udcf5\\udc80\"}\n");
	/* numbers: JSON has no NaN or infinity */
	check_f64(&st, 0.5, "{\"x\":0.500000}\n");
	check_f64(&st, 0.0 / 0.0, "{\"x\":null}\n");
	check_f64(&st, 1.0 / 0.0, "{\"x\":null}\n");
	return t_finish(&st);
}
