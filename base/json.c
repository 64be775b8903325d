#include "base/json.h"

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

void json_str(struct tsg_json *j, const char *k, const char *v)
{
	key(j, k);
	fputc('"', j->f);
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(j->f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(j->f, "\\u%04x", *p);
		else
			fputc(*p, j->f);
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
	fprintf(j->f, "%.6f", v);
}

void json_bool(struct tsg_json *j, const char *k, int v)
{
	key(j, k);
	fputs(v ? "true" : "false", j->f);
}
