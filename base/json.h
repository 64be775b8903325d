/*
 * json.h - writing one JSON object to a stream, for --json output.
 * Keys and values are emitted in call order; commas are handled here.
 */
#ifndef TSG_JSON_H
#define TSG_JSON_H

#include <stdint.h>
#include <stdio.h>

struct tsg_json {
	FILE *f;
	int depth;
	int first[16];
};

void json_begin(struct tsg_json *j, FILE *f);        /* "{" */
void json_end(struct tsg_json *j);                   /* "}\n" */
void json_key_obj(struct tsg_json *j, const char *k); /* "k": { */
void json_key_arr(struct tsg_json *j, const char *k); /* "k": [ */
void json_obj(struct tsg_json *j);                   /* { inside an array */
void json_close(struct tsg_json *j, char c);         /* } or ] */
/* v is bytes (a path may be any): each byte b that begins no well-formed
 * UTF-8 sequence is written as \udcXX (0xdc00 + b, Python's
 * surrogateescape), so the line is always UTF-8 and the bytes come back */
void json_str(struct tsg_json *j, const char *k, const char *v);
void json_u64(struct tsg_json *j, const char *k, uint64_t v);
void json_f64(struct tsg_json *j, const char *k, double v); /* null if not finite */
void json_bool(struct tsg_json *j, const char *k, int v);

#endif
