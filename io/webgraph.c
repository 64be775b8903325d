/*
 * webgraph.c - reading BVGraph crawls (webgraph.h, docs/FORMAT-WEBGRAPH.md).
 *
 * One list, as the format lays it out: outdegree d; if d > 0 and the
 * window is not 0, a reference r (the list copies from node x - r, r = 0:
 * none); if r > 0, a block count and blocks that alternately copy and skip
 * the reference's successors (the first block as is, later ones minus 1; an
 * even count copies the rest implicitly); then the extra successors: with
 * a minimum interval length, an interval count and intervals (left end
 * relative to x through the sign fold, later ones to the previous end,
 * lengths minus the minimum), and residuals (the first relative to x
 * through the sign fold, then gaps minus 1). Copied, interval and residual
 * successors are each increasing; the list is their merge.
 */
#include "io/webgraph.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/check.h"
#include "io/writer.h"
#include "base/util.h"

enum bv_code { BV_GAMMA, BV_DELTA, BV_UNARY, BV_ZETA };

/* which code each part of a list uses (the properties' compressionflags) */
struct bv_codes {
	enum bv_code outdeg, ref, block_count, blocks, intervals, residuals, offsets;
};

struct bv_props {
	uint64_t nodes, arcs;
	unsigned window, maxref, minint, zetak;
	struct bv_codes c;
};

/* A BVGraph held in memory: its .graph bytes (with 8 zero bytes after them,
 * so 64-bit reads never leave the buffer) and every list's bit offset. */
struct bv_graph {
	char path[4096];       /* BASE.graph, for messages */
	struct bv_props p;
	uint8_t *bytes;        /* mapped (map_padded), map_len bytes */
	size_t map_len;
	uint64_t nbits;
	uint64_t *off;         /* nodes + 1 bit offsets */
	/* offsets decoded while the lists are (bv_open with defer): the
	 * mapped .offsets, and how many of off[] are known (release/acquire) */
	uint8_t *obytes;
	size_t olen;
	uint64_t obits;
	_Atomic uint64_t ready;
};

/* ---- bits, most significant first ---- */

struct bits {
	const uint8_t *b;
	uint64_t pos, end;     /* in bits */
	int bad;               /* a code ran past the end */
};

static inline uint64_t peek64(const struct bits *r)
{
	uint64_t w;
	memcpy(&w, r->b + (r->pos >> 3), 8);
	return __builtin_bswap64(w) << (r->pos & 7);
}

#define BV_INLINE static inline __attribute__((always_inline))

BV_INLINE uint64_t read_bits(struct bits *r, unsigned n) /* n <= 56 */
{
	if (n == 0)
		return 0;
	if (__builtin_expect(r->pos + n > r->end, 0)) {
		r->bad = 1;
		r->pos = r->end;
		return 0;
	}
	const uint64_t v = peek64(r) >> (64 - n);
	r->pos += n;
	return v;
}

BV_INLINE uint64_t read_unary(struct bits *r)
{
	/* the common case: the one within the next 57 bits */
	const uint64_t w0 = peek64(r);
	if (__builtin_expect(w0 != 0, 1)) {
		const unsigned z = (unsigned)__builtin_clzll(w0);
		if (z < 57 && r->pos + z + 1 <= r->end) {
			r->pos += z + 1;
			return z;
		}
	}
	uint64_t n = 0;
	for (;;) {
		if (r->pos >= r->end) {
			r->bad = 1;
			return 0;
		}
		const uint64_t w = peek64(r);
		const unsigned avail = 64 - 7 < r->end - r->pos ? 64 - 7 : (unsigned)(r->end - r->pos);
		if (w) {
			const unsigned z = (unsigned)__builtin_clzll(w);
			if (z < avail) {
				r->pos += z + 1;
				return n + z;
			}
		}
		n += avail;
		r->pos += avail;
	}
}

BV_INLINE uint64_t read_gamma(struct bits *r)
{
	/* fast: the whole code within one 64-bit peek */
	const uint64_t w = peek64(r);
	const unsigned hg = w ? (unsigned)__builtin_clzll(w) : 64;
	if (__builtin_expect(2 * hg + 1 <= 57 && r->pos + 2 * hg + 1 <= r->end, 1)) {
		/* the code's top 2h + 1 bits are x + 1 in binary: no case for h = 0 */
		r->pos += 2 * hg + 1;
		return (w >> (63 - 2 * hg)) - 1;
	}
	const uint64_t h = read_unary(r);
	if (h > 56) {
		r->bad = 1;
		return 0;
	}
	return ((1ull << h) | read_bits(r, (unsigned)h)) - 1;
}

BV_INLINE uint64_t read_delta(struct bits *r)
{
	const uint64_t h = read_gamma(r);
	if (h > 56) {
		r->bad = 1;
		return 0;
	}
	return ((1ull << h) | read_bits(r, (unsigned)h)) - 1;
}

/* zeta_k: h in unary, then x + 1 in [2^(hk), 2^((h+1)k)) by a minimal
 * binary code of hk + k - 1 or hk + k bits */
/* A zeta_k code whose unary part h, payload (minimal binary: hk + k - 1
 * bits, or one more) and extra bit lie within the peeked word w, which
 * the callers check (h + 1 + nb + 1 <= 57, nb > 0); *len gets its bits.
 * The two lengths are told apart by a mask, not ?:, which compilers turn
 * back into a branch: which length a gap takes is close to a coin toss,
 * and the mispredicted branch cost more than the arithmetic. */
BV_INLINE uint64_t zeta_peeked(uint64_t w, unsigned h, unsigned k, unsigned *len)
{
	const unsigned nb = h * k + k - 1; /* payload bits */
	const uint64_t left = 1ull << (h * k);
	const uint64_t m = (w << (h + 1)) >> (64 - nb);
	const uint64_t e = (w << (h + 1 + nb)) >> 63;
	const uint64_t longer = m >= left, pick = -longer;
	*len = h + 1 + nb + (unsigned)longer;
	return (((m << 1 | e) & pick) | ((m + left) & ~pick)) - 1;
}

BV_INLINE uint64_t read_zeta(struct bits *r, unsigned k)
{
	/* fast: unary, payload and the extra bit within one 64-bit peek */
	const uint64_t w = peek64(r);
	const unsigned hz = w ? (unsigned)__builtin_clzll(w) : 64;
	const unsigned nb = hz * k + k - 1; /* payload bits */
	if (__builtin_expect(hz < 57 && nb > 0 && hz + nb + 2 <= 57 &&
			     r->pos + hz + nb + 2 <= r->end, 1)) {
		unsigned len;
		const uint64_t x = zeta_peeked(w, hz, k, &len);
		r->pos += len;
		return x;
	}
	const uint64_t h = read_unary(r);
	if ((h + 1) * k > 56) {
		r->bad = 1;
		return 0;
	}
	const uint64_t left = 1ull << (h * k);
	const uint64_t m = read_bits(r, (unsigned)(h * k + k - 1));
	if (m < left)
		return m + left - 1;
	return (m << 1) + read_bits(r, 1) - 1;
}

BV_INLINE uint64_t read_code(struct bits *r, enum bv_code c, unsigned k)
{
	switch (c) {
	case BV_GAMMA: return read_gamma(r);
	case BV_DELTA: return read_delta(r);
	case BV_UNARY: return read_unary(r);
	default: return read_zeta(r, k);
	}
}

/* n residual gaps in zeta_3, the default code, each id (prev + gap + 1)
 * into res: the hot loop of a decode (about 70% of decode_list's time on
 * web-like crawls), with the bit position in a register. Codes near the
 * file's end or longer than one peek go through read_zeta. Ids are summed
 * unsigned, so no sum overflows; *big gets whether a gap reached `nodes`
 * (then some id is out of range, which the caller tells). Returns the
 * last id; stops early if the file ends (r->bad). */
static uint64_t read_gaps_zeta3(struct bits *r, uint32_t *res, uint64_t n, uint64_t prev,
				uint64_t nodes, uint64_t *big)
{
	const uint8_t *const b = r->b;
	const uint64_t end = r->end;
	uint64_t pos = r->pos, far = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t w;
		memcpy(&w, b + (pos >> 3), 8);
		w = __builtin_bswap64(w) << (pos & 7);
		const unsigned h = w ? (unsigned)__builtin_clzll(w) : 64;
		uint64_t gap;
		if (__builtin_expect(h <= 13 && pos + 4 * h + 4 <= end, 1)) { /* read_zeta's test */
			unsigned len;
			gap = zeta_peeked(w, h, 3, &len);
			pos += len;
		} else {
			r->pos = pos;
			gap = read_zeta(r, 3);
			pos = r->pos;
			if (r->bad)
				break;
		}
		far |= gap >= nodes;
		prev += gap + 1;
		res[i] = (uint32_t)prev;
	}
	r->pos = pos;
	*big |= far;
	return prev;
}

static inline int64_t nat2int(uint64_t x) { return (int64_t)(x >> 1) ^ -(int64_t)(x & 1); }

/* ---- properties ---- */

static int parse_code(const char *v, enum bv_code *c)
{
	static const char *const names[] = { "GAMMA", "DELTA", "UNARY", "ZETA" };
	for (int i = 0; i < 4; i++)
		if (strcmp(v, names[i]) == 0) {
			*c = (enum bv_code)i;
			return 0;
		}
	return -1;
}

/* compressionflags: PART_CODE tokens joined by '|' (spaces allowed) */
static int parse_flags(char *v, struct bv_codes *c, const char *path, struct tsg_err *err)
{
	for (char *save = NULL, *t = strtok_r(v, "| \t", &save); t; t = strtok_r(NULL, "| \t", &save)) {
		static const struct { const char *part; size_t off; } parts[] = {
			{ "OUTDEGREES_", offsetof(struct bv_codes, outdeg) },
			{ "REFERENCES_", offsetof(struct bv_codes, ref) },
			{ "BLOCK_COUNT_", offsetof(struct bv_codes, block_count) },
			{ "BLOCKS_", offsetof(struct bv_codes, blocks) },
			{ "INTERVALS_", offsetof(struct bv_codes, intervals) },
			{ "RESIDUALS_", offsetof(struct bv_codes, residuals) },
			{ "OFFSETS_", offsetof(struct bv_codes, offsets) },
		};
		size_t i = 0;
		for (; i < sizeof(parts) / sizeof(parts[0]); i++) {
			const size_t n = strlen(parts[i].part);
			if (strncmp(t, parts[i].part, n) == 0) {
				if (parse_code(t + n, (enum bv_code *)((char *)c + parts[i].off)))
					return tsg_fail(err, TSG_EINPUT, "%s: compressionflags: code '%s' "
							"is not supported (gamma, delta, unary, zeta)",
							path, t);
				break;
			}
		}
		if (i == sizeof(parts) / sizeof(parts[0]))
			return tsg_fail(err, TSG_EINPUT, "%s: compressionflags: unknown flag '%s'",
					path, t);
	}
	return TSG_OK;
}

static int parse_uint(const char *v, uint64_t max, uint64_t *out)
{
	char *end;
	errno = 0;
	if (*v < '0' || *v > '9')
		return -1;
	const unsigned long long x = strtoull(v, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '\r')
		end++;
	if (errno || *end || x > max)
		return -1;
	*out = x;
	return 0;
}

static int read_props(const char *path, struct bv_props *p, struct tsg_err *err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return tsg_fail_errno(err, errno == ENOENT ? TSG_EINPUT : TSG_EIO, errno, "%s", path);
	*p = (struct bv_props){ .window = 7, .maxref = 3, .minint = 4, .zetak = 3,
				.c = { BV_GAMMA, BV_UNARY, BV_GAMMA, BV_GAMMA, BV_GAMMA, BV_ZETA,
				       BV_GAMMA } };
	int have_nodes = 0, have_arcs = 0, rc = TSG_OK;
	char line[8192];
	while (rc == TSG_OK && fgets(line, sizeof(line), f)) {
		char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '#' || *s == '!' || *s == '\n' || *s == '\r' || *s == 0)
			continue;
		char *eq = strchr(s, '=');
		if (!eq)
			eq = strchr(s, ':');
		if (!eq) {
			rc = tsg_fail(err, TSG_EINPUT, "%s: line without '=': '%.60s'", path, s);
			break;
		}
		*eq = 0;
		char *k = s, *v = eq + 1, *e = k + strlen(k);
		while (e > k && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = 0;
		while (*v == ' ' || *v == '\t')
			v++;
		v[strcspn(v, "\r\n")] = 0;
		uint64_t x = 0;
		const int num = parse_uint(v, UINT64_MAX, &x) == 0;
		if (strcmp(k, "nodes") == 0) {
			if (!num || x >= 0xffffffffull)
				rc = tsg_fail(err, TSG_EINPUT, "%s: nodes=%s: not a node count below 2^32 - 1",
					      path, v);
			p->nodes = x;
			have_nodes = 1;
		} else if (strcmp(k, "arcs") == 0) {
			if (!num)
				rc = tsg_fail(err, TSG_EINPUT, "%s: arcs=%s: not a number", path, v);
			p->arcs = x;
			have_arcs = 1;
		} else if (strcmp(k, "windowsize") == 0 || strcmp(k, "maxrefcount") == 0 ||
			   strcmp(k, "minintervallength") == 0 || strcmp(k, "zetak") == 0) {
			const uint64_t max = k[0] == 'z' ? 7 : k[0] == 'w' ? 1024 : 1u << 20;
			if (!num || x > max || (k[0] == 'z' && x == 0))
				rc = tsg_fail(err, TSG_EINPUT, "%s: %s=%s: out of range (%s)", path, k, v,
					      k[0] == 'z' ? "1..7" : k[0] == 'w' ? "0..1024" : "0..2^20");
			else if (k[0] == 'w')
				p->window = (unsigned)x;
			else if (k[0] == 'z')
				p->zetak = (unsigned)x;
			else if (k[1] == 'a')
				p->maxref = (unsigned)x;
			else
				p->minint = (unsigned)x;
		} else if (strcmp(k, "compressionflags") == 0) {
			rc = parse_flags(v, &p->c, path, err);
		} else if (strcmp(k, "version") == 0) {
			if (strcmp(v, "0") != 0)
				rc = tsg_fail(err, TSG_EINPUT, "%s: version=%s: only version 0 (big-endian "
					      "BVGraph) is supported", path, v);
		} else if (strcmp(k, "endianness") == 0) {
			if (strcmp(v, "big") != 0)
				rc = tsg_fail(err, TSG_EINPUT, "%s: endianness=%s: only big-endian "
					      "BVGraph files are supported", path, v);
		} else if (strcmp(k, "graphclass") == 0) {
			const size_t n = strlen(v);
			if (n < 7 || strcmp(v + n - 7, "BVGraph") != 0)
				rc = tsg_fail(err, TSG_EINPUT, "%s: graphclass=%s: only BVGraph is "
					      "supported", path, v);
		}
	}
	const int rerr = ferror(f);
	fclose(f);
	if (rc == TSG_OK && rerr)
		rc = tsg_fail(err, TSG_EIO, "%s: read error", path);
	if (rc == TSG_OK && (!have_nodes || !have_arcs))
		rc = tsg_fail(err, TSG_EINPUT, "%s: no '%s' key", path, have_nodes ? "arcs" : "nodes");
	if (rc == TSG_OK && p->nodes && p->arcs > p->nodes * p->nodes)
		rc = tsg_fail(err, TSG_EINPUT, "%s: arcs=%llu: more than nodes^2", path,
			      (unsigned long long)p->arcs);
	return rc;
}

/* ---- files ---- */

/* BASE from BASE, BASE.graph or BASE.properties */
static int base_of(const char *path, char *base, size_t len)
{
	const size_t n = strlen(path);
	if (n >= len)
		return -1;
	memcpy(base, path, n + 1);
	static const char *const ext[] = { ".graph", ".properties", ".offsets" };
	for (int i = 0; i < 3; i++) {
		const size_t e = strlen(ext[i]);
		if (n > e && strcmp(base + n - e, ext[i]) == 0) {
			base[n - e] = 0;
			break;
		}
	}
	return 0;
}

/* 1 if BASE(path) + suffix names a regular file */
static int base_has(const char *path, const char *suffix)
{
	char base[4096], name[4200];
	struct stat st;
	if (base_of(path, base, sizeof(base)))
		return 0;
	snprintf(name, sizeof(name), "%s%s", base, suffix);
	return stat(name, &st) == 0 && S_ISREG(st.st_mode);
}

int io_webgraph_is(const char *path) { return base_has(path, ".properties"); }

int io_webgraph_has_transpose(const char *path) { return base_has(path, "-t.properties"); }

uint64_t io_webgraph_graph_bytes(const char *path)
{
	char base[4096], name[4200];
	struct stat sb;
	uint64_t total = 0;
	if (base_of(path, base, sizeof(base)))
		return 0;
	static const char *const suffix[] = { ".graph", "-t.graph" };
	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "%s%s", base, suffix[i]);
		if (stat(name, &sb) == 0 && S_ISREG(sb.st_mode))
			total += (uint64_t)sb.st_size;
	}
	return total;
}

int io_webgraph_peek(const char *path, uint64_t *nodes, uint64_t *arcs, struct tsg_err *err)
{
	char base[4096], props[4200];
	struct bv_props p;
	if (base_of(path, base, sizeof(base)))
		return tsg_fail(err, TSG_EUSAGE, "%s: path too long", path);
	snprintf(props, sizeof(props), "%s.properties", base);
	const int rc = read_props(props, &p, err);
	if (rc == TSG_OK) {
		*nodes = p.nodes;
		*arcs = p.arcs;
	}
	return rc;
}

/* Maps a whole file read-only with at least `pad` zero bytes after it: an
 * anonymous zero mapping is laid first and the file over its start, so
 * 64-bit reads near the end never fault. Mapping instead of reading saves
 * a copy of the file and the page faults of a fresh buffer. A file that
 * shrinks while mapped would fault (SIGBUS), as with any mapped reader.
 * With ahead, the whole file is read ahead in the background (a file read
 * only in part, by ranges, is not). *len gets what munmap needs. */
static int map_padded(const char *path, size_t pad, int ahead, uint8_t **out, uint64_t *size,
		      size_t *len, struct tsg_err *err)
{
	const int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return tsg_fail_errno(err, errno == ENOENT ? TSG_EINPUT : TSG_EIO, errno, "%s", path);
	struct stat st;
	int rc = TSG_OK;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = tsg_fail(err, TSG_EINPUT, "%s: not a regular file", path);
		goto done;
	}
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	const size_t total = ((size_t)st.st_size + pad + page - 1) / page * page;
	uint8_t *p = mmap(NULL, total, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		rc = tsg_fail(err, TSG_ENOMEM, "%s: cannot map %llu bytes", path,
			      (unsigned long long)st.st_size);
		goto done;
	}
	if (st.st_size > 0 && mmap(p, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd,
				   0) == MAP_FAILED) {
		rc = tsg_fail_errno(err, TSG_EIO, errno, "%s: cannot map", path);
		munmap(p, total);
		goto done;
	}
	/* read ahead in the background, not before returning: the decoding
	 * threads start at once and meet pages as the disk brings them (a
	 * populated mapping read a cold crawl whole before any decoding) */
	if (ahead && st.st_size > 0)
		madvise(p, (size_t)st.st_size, MADV_WILLNEED);
	*out = p;
	*size = (uint64_t)st.st_size;
	*len = total;
done:
	close(fd);
	return rc;
}

static void bv_free(struct bv_graph *g)
{
	if (g->bytes)
		munmap(g->bytes, g->map_len);
	if (g->obytes)
		munmap(g->obytes, g->olen);
	free(g->off);
	memset(g, 0, sizeof(*g));
}

static int bv_scan_offsets(struct bv_graph *g, struct tsg_err *err);

/* Decodes g's mapped .offsets (gaps between the lists' bit offsets) into
 * g->off[0 .. nodes], publishing g->ready as it goes, and unmaps the file.
 * Sums of non-negative gaps, each checked against the .graph file's bits,
 * so the offsets are increasing and in the file by construction. Stops
 * early (TSG_OK, ready short) once *stop is set: another thread failed. */
static int bv_read_offsets(struct bv_graph *g, const atomic_int *stop, struct tsg_err *err)
{
	struct bits r = { .b = g->obytes, .end = g->obits };
	uint64_t at = 0, v = 0;
	for (; v <= g->p.nodes; v++) {
		at += read_code(&r, g->p.c.offsets, g->p.zetak);
		if (r.bad || at > g->nbits)
			break;
		g->off[v] = at;
		if ((v & 0x3fff) == 0x3fff) { /* every 16 Ki nodes */
			atomic_store_explicit(&g->ready, v + 1, memory_order_release);
			if (stop && atomic_load_explicit(stop, memory_order_relaxed))
				break;
		}
	}
	munmap(g->obytes, g->olen);
	g->obytes = NULL;
	if (v > g->p.nodes) {
		atomic_store_explicit(&g->ready, v, memory_order_release);
		return TSG_OK;
	}
	if (stop && atomic_load(stop))
		return TSG_OK;
	return tsg_fail(err, TSG_EINPUT, "%.*s.offsets: offset of node %llu %s",
			(int)(strlen(g->path) - strlen(".graph")), g->path, (unsigned long long)v,
			r.bad ? "is cut off (truncated file)"
			      : "lies past the end of the .graph file (truncated .graph?)");
}

/*
 * The offsets decoded on several threads. A code's start is known only once
 * every code before it is decoded, but a prefix code parsed from a wrong
 * start falls into step with the true parse within a few codes (gamma,
 * delta and zeta all do: a parse that meets a true code start stays in
 * step from there on). So the file is cut into pieces by bits; each piece
 * is parsed from its first bit on its own thread, keeping the starts of
 * its first OFF_SYNC codes and the running sums at them (phase 1); then,
 * piece by piece, the true parse walks on from where the last piece ended
 * until it meets one of those starts, which gives the piece's first node
 * and the offset before it (phase 2, serial, a few codes a piece); then
 * every piece decodes its nodes from that start into off (phase 3). A
 * piece whose parse never meets the true one within OFF_SYNC codes is
 * decoded by the walk itself, so the result is the serial decode's
 * whatever the bits, checks and messages included. That costs the speed,
 * not the result: a periodic stream parsed out of phase never falls into
 * step (gamma gaps of 1, "010" over and over: a run of nodes with empty
 * lists), and where a piece starts inside such a run, the walk decodes
 * that piece alone (fuzzed: tests/fuzz/fuzz_offsets.c).
 */
#define OFF_SYNC 64
#define OFF_PIECE_BITS (1ull << 12) /* pieces of at least this many bits */

struct off_piece {
	uint64_t p0, p1;               /* codes starting in [p0, p1) */
	/* phase 1, this piece's own parse from p0 */
	uint64_t n, total, end;        /* codes read whole, their sum, where they end */
	int bad;                       /* a code ran past the end of the file */
	unsigned nrec;
	uint64_t start[OFF_SYNC];      /* the first nrec codes' starts ... */
	uint64_t sum[OFF_SYNC];        /* ... and the sum of the codes before each */
	/* phase 2: where the true parse meets it, that code's node, the offset
	 * before it, and how many codes phase 3 writes from there (0: none) */
	uint64_t at, node, base, cnt;
	uint64_t over;                 /* phase 3: the first node whose offset lies
					* past the .graph file, or UINT64_MAX */
};

/* Sums saturate: a forged file's gaps may add up past 2^64, and the first
 * offset past the .graph file must still be found where the serial decode
 * stops (every sum before it is exact). */
static inline uint64_t off_add(uint64_t a, uint64_t b) { return b > UINT64_MAX - a ? UINT64_MAX : a + b; }

struct off_job {
	struct bv_graph *g;
	struct off_piece *pc;
	int phase;                     /* 1 or 3 */
};

static void off_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct off_job *j = arg;
	struct bv_graph *g = j->g;
	for (uint64_t i = b; i < e; i++) {
		struct off_piece *q = &j->pc[i];
		struct bits r = { .b = g->obytes, .end = g->obits };
		if (j->phase == 1) {
			r.pos = q->p0;
			while (r.pos < q->p1) {
				if (q->n < OFF_SYNC) {
					q->start[q->n] = r.pos;
					q->sum[q->n] = q->total;
					q->nrec = (unsigned)q->n + 1;
				}
				const uint64_t x = read_code(&r, g->p.c.offsets, g->p.zetak);
				if (r.bad) {
					q->bad = 1;
					break;
				}
				q->total = off_add(q->total, x);
				q->n++;
			}
			q->end = r.pos;
			continue;
		}
		r.pos = q->at;
		uint64_t at = q->base;
		q->over = UINT64_MAX;
		for (uint64_t c = 0; c < q->cnt; c++) { /* read whole in phase 1 */
			at = off_add(at, read_code(&r, g->p.c.offsets, g->p.zetak));
			g->off[q->node + c] = at;
			if (at > g->nbits && q->over == UINT64_MAX)
				q->over = q->node + c;
		}
	}
}

/* Phase 2: the true parse, piece by piece, stepping code by code until it
 * meets the piece's own parse and then jumping to that parse's end. Returns
 * the codes it accounts for: nodes + 1, or fewer where a code runs past the
 * end of the file (*bad). */
static uint64_t off_walk(struct bv_graph *g, struct off_piece *pc, uint64_t np, int *bad,
			 uint64_t *over)
{
	const uint64_t want = g->p.nodes + 1;
	struct bits r = { .b = g->obytes, .end = g->obits };
	uint64_t v = 0, at = 0;
	*bad = 0;
	*over = UINT64_MAX;
	for (uint64_t i = 0; i < np && v < want; i++) {
		struct off_piece *q = &pc[i];
		unsigned k = 0;
		while (v < want && r.pos < q->p1) {
			while (k < q->nrec && q->start[k] < r.pos)
				k++;
			if (k < q->nrec && q->start[k] == r.pos) { /* in step from here on */
				const uint64_t m = q->n - k;
				q->at = r.pos;
				q->node = v;
				q->base = at;
				q->cnt = m < want - v ? m : want - v;
				v += q->cnt;
				if (v < want && q->bad) { /* cut off where its parse was */
					*bad = 1;
					return v;
				}
				at = off_add(at, q->total - q->sum[k]);
				r.pos = q->end;
				break;
			}
			const uint64_t x = read_code(&r, g->p.c.offsets, g->p.zetak);
			if (r.bad) {
				*bad = 1;
				return v;
			}
			at = off_add(at, x);
			if (at > g->nbits && *over == UINT64_MAX)
				*over = v;
			g->off[v++] = at;
		}
	}
	*bad = v < want;
	return v;
}

/* bv_read_offsets on `threads` threads (see above); the same offsets, the
 * same checks and messages. */
static int bv_read_offsets_par(struct bv_graph *g, unsigned threads, struct tsg_err *err)
{
	uint64_t np = g->obits / OFF_PIECE_BITS;
	np = np > 4ull * threads ? 4ull * threads : np;
	if (threads < 2 || np < 2)
		return bv_read_offsets(g, NULL, err);
	struct off_piece *pc = calloc(np, sizeof(*pc));
	if (!pc)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	for (uint64_t i = 0; i < np; i++) {
		pc[i].p0 = g->obits / np * i;
		pc[i].p1 = i + 1 < np ? g->obits / np * (i + 1) : g->obits;
	}
	struct off_job j = { g, pc, 1 };
	tsg_parallel_for(threads, np, 1, off_range, &j);
	int bad;
	uint64_t lo;
	const uint64_t got = off_walk(g, pc, np, &bad, &lo);
	j.phase = 3;
	tsg_parallel_for(threads, np, 1, off_range, &j);
	/* the first offset past the .graph file's bits, where the serial
	 * decode stops */
	for (uint64_t i = 0; i < np; i++)
		if (pc[i].cnt && pc[i].over < lo)
			lo = pc[i].over;
	lo = lo < got ? lo : got;
	free(pc);
	munmap(g->obytes, g->olen);
	g->obytes = NULL;
	if (lo == got && !bad) {
		atomic_store_explicit(&g->ready, got, memory_order_release);
		return TSG_OK;
	}
	return tsg_fail(err, TSG_EINPUT, "%.*s.offsets: offset of node %llu %s",
			(int)(strlen(g->path) - strlen(".graph")), g->path, (unsigned long long)lo,
			lo < got ? "lies past the end of the .graph file (truncated .graph?)"
				 : "is cut off (truncated file)");
}

/* bv_open's flags */
enum {
	BV_DEFER = 1,  /* an .offsets file is only mapped: the caller decodes it
			* (bv_read_offsets), g->ready saying how far */
	BV_PART = 2,   /* the .graph is read in part (by ranges): no readahead */
};

/* Opens BASE (its properties, graph and offsets; offsets scanned when the
 * file is missing), as flags say. */
static int bv_open(const char *base, struct bv_graph *g, int *scanned, int flags,
		   struct tsg_err *err)
{
	char path[4200];
	uint64_t gsize = 0, osize = 0;
	memset(g, 0, sizeof(*g));
	atomic_init(&g->ready, 0);
	snprintf(path, sizeof(path), "%s.properties", base);
	int rc = read_props(path, &g->p, err);
	if (rc)
		return rc;
	snprintf(g->path, sizeof(g->path), "%s.graph", base);
	rc = map_padded(g->path, 8, !(flags & BV_PART), &g->bytes, &gsize, &g->map_len, err);
	if (rc)
		goto done;
	g->nbits = gsize * 8;
	/* every list takes a bit at least (its outdegree's code), and so does
	 * every offset: a node count the files cannot hold is refused before
	 * anything is allocated for it */
	if (g->p.nodes > g->nbits) {
		rc = tsg_fail(err, TSG_EINPUT, "%s: %llu nodes, but the file has %llu bits and each "
			      "node's list takes one at least (file is corrupt, or nodes= in its "
			      ".properties is wrong)", g->path, (unsigned long long)g->p.nodes,
			      (unsigned long long)g->nbits);
		goto done;
	}
	snprintf(path, sizeof(path), "%s.offsets", base);
	const int have_offsets = access(path, F_OK) == 0;
	if (have_offsets) {
		rc = map_padded(path, 8, 1, &g->obytes, &osize, &g->olen, err);
		if (rc)
			goto done;
		g->obits = osize * 8;
		if (g->p.nodes + 1 > g->obits) {
			rc = tsg_fail(err, TSG_EINPUT, "%s: %llu offsets for %llu nodes, but the file "
				      "has %llu bits and each offset takes one at least (file is "
				      "truncated or corrupt)", path, (unsigned long long)g->p.nodes + 1,
				      (unsigned long long)g->p.nodes, (unsigned long long)g->obits);
			goto done;
		}
	}
	g->off = malloc((g->p.nodes + 1) * sizeof(uint64_t));
	if (g->off) /* written once, in order: huge pages spare most of the faults */
		tsg_advise_huge(g->off, (g->p.nodes + 1) * sizeof(uint64_t));
	if (!g->off) {
		rc = tsg_fail(err, TSG_ENOMEM, "%s: out of memory for %llu offsets", g->path,
			      (unsigned long long)g->p.nodes + 1);
		goto done;
	}
	if (!have_offsets) {
		*scanned = 1;
		rc = bv_scan_offsets(g, err);
		if (rc == TSG_OK)
			atomic_store(&g->ready, g->p.nodes + 1);
		goto done;
	}
	if (!(flags & BV_DEFER))
		rc = bv_read_offsets(g, NULL, err);
done:
	if (rc)
		bv_free(g);
	return rc;
}

/* ---- decoding lists ---- */

/* A growable list of ids. */
struct ids {
	uint32_t *v;
	uint64_t n, cap;
};

static int ids_room(struct ids *l, uint64_t n)
{
	if (n <= l->cap && l->v) /* never NULL once asked for: NULL + 0 is undefined */
		return 0;
	uint64_t cap = l->cap ? l->cap : 64;
	while (cap < n)
		cap *= 2;
	uint32_t *nv = realloc(l->v, cap * sizeof(uint32_t));
	if (!nv)
		return -1;
	l->v = nv;
	l->cap = cap;
	return 0;
}

/* A decoder: the window of the last lists decoded in order (slot x % w),
 * with which node each slot holds and the length of its chain of
 * references, and scratch for random access. */
struct decoder {
	const struct bv_graph *g;
	unsigned slots;           /* window + 1 */
	struct ids *win;
	uint64_t *win_node;       /* UINT64_MAX: empty */
	uint32_t *win_chain;      /* references from the slot's list to one without */
	struct ids scratch[4];    /* copied, interval, residual successors; a merge */
	struct ids deep[2];       /* a chain decoded by random access, two lists at a time */
	uint64_t *walk;           /* the chain's nodes (decode_random) */
	uint64_t walk_cap;
	const char *why;          /* first error */
	uint64_t why_node;
};

static int dec_init(struct decoder *d, const struct bv_graph *g)
{
	memset(d, 0, sizeof(*d));
	d->g = g;
	d->slots = g->p.window + 1;
	d->win = calloc(d->slots, sizeof(*d->win));
	d->win_node = malloc(d->slots * sizeof(uint64_t));
	d->win_chain = calloc(d->slots, sizeof(uint32_t));
	if (!d->win || !d->win_node || !d->win_chain)
		return -1;
	for (unsigned i = 0; i < d->slots; i++)
		d->win_node[i] = UINT64_MAX;
	return 0;
}

static void dec_free(struct decoder *d)
{
	for (unsigned i = 0; d->win && i < d->slots; i++)
		free(d->win[i].v);
	for (int i = 0; i < 2; i++)
		free(d->deep[i].v);
	for (int i = 0; i < 4; i++)
		free(d->scratch[i].v);
	free(d->win);
	free(d->win_node);
	free(d->win_chain);
	free(d->walk);
}

static int dec_fail(struct decoder *d, uint64_t x, const char *why)
{
	if (!d->why) {
		d->why = why;
		d->why_node = x;
	}
	return -1;
}

/* Merging increasing lists. A step of one id at a time has no branch on
 * the ids (min and advances by comparison), as ids in a random crawl come
 * from either list at random; but then each step waits for the last (its
 * loads depend on its comparison), 4-6 ns an id on the device's cores.
 * Crawls' lists mostly come in runs (a menu copied from the reference,
 * pages next to the node), so where the next MERGE_RUN ids of one list all
 * come before the other's next id, they are copied at once. Measured on
 * the device (bench/raw/h100-2026-11-24-crawl/decode-ab.txt): a directed
 * crawl (tristream-gen --webgraph crawl, 2^24 pages) loads 5% faster on 16
 * threads, 12% on one; ids at random distances (web) 5% slower. */
enum { MERGE_RUN = 8 };

/* Copies src's next MERGE_RUN ids (from *i) to out + *n where they all come
 * before next, the other list's next id; returns whether it did. */
static inline int merge_run(const uint32_t *src, uint64_t ns, uint64_t *i, uint32_t next,
			    uint32_t *out, uint64_t *n)
{
	if (*i + MERGE_RUN > ns || src[*i + MERGE_RUN - 1] >= next)
		return 0;
	memcpy(out + *n, src + *i, MERGE_RUN * sizeof(uint32_t));
	*n += MERGE_RUN;
	*i += MERGE_RUN;
	return 1;
}

/* Merges increasing a and b into o; UINT64_MAX if they share an id. */
static uint64_t merge2(const uint32_t *a, uint64_t na, const uint32_t *b, uint64_t nb, uint32_t *o)
{
	uint64_t i = 0, k = 0, n = 0, dup = 0;
	while (i < na && k < nb) {
		if (merge_run(a, na, &i, b[k], o, &n) || merge_run(b, nb, &k, a[i], o, &n))
			continue;
		const uint32_t x = a[i], y = b[k];
		dup |= x == y;
		o[n++] = x < y ? x : y;
		i += x <= y;
		k += y <= x;
	}
	if (dup)
		return UINT64_MAX;
	if (i < na)
		memcpy(o + n, a + i, (na - i) * sizeof(uint32_t));
	if (k < nb)
		memcpy(o + n, b + k, (nb - k) * sizeof(uint32_t));
	return n + (na - i) + (nb - k);
}

/* The first codes of node x's list at r: its outdegree and, where it has
 * successors and the window is not 0, its reference (0: none), checked. */
static inline int decode_head(struct decoder *d, uint64_t x, struct bits *r, uint64_t *deg,
			      uint64_t *ref)
{
	const struct bv_props *p = &d->g->p;
	*deg = read_code(r, p->c.outdeg, p->zetak);
	*ref = 0;
	if (r->bad)
		return dec_fail(d, x, "its outdegree runs past the end of the file");
	if (*deg > p->nodes)
		return dec_fail(d, x, "an outdegree above the node count");
	if (*deg == 0 || !p->window)
		return 0;
	*ref = read_code(r, p->c.ref, p->zetak);
	if (r->bad)
		return dec_fail(d, x, "its list runs past the end of the file");
	if (*ref > p->window || *ref > x)
		return dec_fail(d, x, "a reference outside the window");
	return 0;
}

/* The rest of node x's list (after decode_head gave deg > 0 and ref) into
 * out (replaced); rl is the list of node x - ref where ref > 0. */
BV_INLINE int decode_body(struct decoder *d, uint64_t x, struct bits *r, uint64_t deg, uint64_t ref,
		       const struct ids *rl, struct ids *out)
{
	const struct bv_props *p = &d->g->p;
	uint64_t extra = deg, ncopy = 0;
	out->n = 0;
	if (ids_room(out, deg))
		return dec_fail(d, x, "out of memory");
	if (ids_room(&d->scratch[0], deg) || ids_room(&d->scratch[1], deg) ||
	    ids_room(&d->scratch[2], deg) || ids_room(&d->scratch[3], deg))
		return dec_fail(d, x, "out of memory");
	uint32_t *copied = d->scratch[0].v;
	if (ref > 0) {
		const uint64_t nb = read_code(r, p->c.block_count, p->zetak);
		if (nb > rl->n + 1)
			return dec_fail(d, x, "more copy blocks than its reference has successors");
		uint64_t at = 0;
		for (uint64_t i = 0; i < nb && !r->bad; i++) {
			const uint64_t len = read_code(r, p->c.blocks, p->zetak) + (i > 0);
			if (len > rl->n - at)
				return dec_fail(d, x, "copy blocks longer than its reference's list");
			if (i % 2 == 0) {
				if (ncopy + len > deg)
					return dec_fail(d, x, "more copied successors than its outdegree");
				if (len)
					memcpy(copied + ncopy, rl->v + at, len * 4);
				ncopy += len;
			}
			at += len;
		}
		if (nb % 2 == 0) { /* the rest of the reference is copied */
			if (ncopy + (rl->n - at) > deg)
				return dec_fail(d, x, "more copied successors than its outdegree");
			if (rl->n > at) /* an empty reference may have no buffer at all */
				memcpy(copied + ncopy, rl->v + at, (rl->n - at) * 4);
			ncopy += rl->n - at;
		}
		extra = deg - ncopy;
	}
	/* residuals alone (no copy, no interval) go straight to the output */
	uint32_t *iv = d->scratch[1].v, *res = d->scratch[2].v;
	uint64_t ni = 0, nr = 0;
	if (extra > 0 && p->minint > 0) {
		const uint64_t nint = read_code(r, p->c.intervals, p->zetak);
		int64_t prev = 0;
		for (uint64_t i = 0; i < nint && !r->bad; i++) {
			const int64_t left = i == 0 ? (int64_t)x + nat2int(read_code(r, p->c.intervals, p->zetak))
						    : prev + (int64_t)read_code(r, p->c.intervals, p->zetak) + 1;
			const uint64_t len = read_code(r, p->c.intervals, p->zetak) + p->minint;
			if (left < 0 || len > extra - ni || (uint64_t)left + len > p->nodes)
				return dec_fail(d, x, "an interval outside the node range or past its "
						"outdegree");
			for (uint64_t k = 0; k < len; k++)
				iv[ni++] = (uint32_t)((uint64_t)left + k);
			prev = left + (int64_t)len;
		}
	}
	if (ncopy == 0 && ni == 0)
		res = out->v;
	if (!r->bad && extra > ni) {
		const int64_t first = (int64_t)x + nat2int(read_code(r, p->c.residuals, p->zetak));
		if (first < 0)
			return dec_fail(d, x, "a successor outside the node range");
		res[nr++] = (uint32_t)first;
		/* gaps are non-negative and summed unsigned: ids only grow, so
		 * only the last can leave the range, unless a gap alone did */
		uint64_t big = 0, prev = (uint64_t)first;
		if (p->c.residuals == BV_ZETA && p->zetak == 3) { /* the default, specialised */
			prev = read_gaps_zeta3(r, res + nr, extra - ni - 1, prev, p->nodes, &big);
			nr = extra - ni;
		} else {
			for (uint64_t i = ni + 1; i < extra && !r->bad; i++) {
				const uint64_t gap = read_code(r, p->c.residuals, p->zetak);
				big |= gap >= p->nodes;
				res[nr++] = (uint32_t)(prev += gap + 1);
			}
		}
		if (big || prev >= p->nodes)
			return dec_fail(d, x, "a successor outside the node range");
	}
	if (r->bad)
		return dec_fail(d, x, "its list runs past the end of the file");
	/* each part is increasing by construction; merge them two at a time,
	 * and an id in two parts is corrupt */
	uint64_t n = nr;
	if (ncopy || ni) {
		const uint32_t *a = copied;
		uint64_t na = ncopy;
		if (ncopy && ni) {
			na = merge2(copied, ncopy, iv, ni, d->scratch[3].v);
			a = d->scratch[3].v;
		} else if (ni) {
			a = iv;
			na = ni;
		}
		n = na == UINT64_MAX ? na : merge2(a, na, res, nr, out->v);
		if (n == UINT64_MAX)
			return dec_fail(d, x, "successors repeated between its parts");
	}
	if (n != deg)
		return dec_fail(d, x, "successors that disagree with its outdegree");
	out->n = n;
	return 0;
}

/* The successors of node y by random access (its window is not at hand),
 * into *out, and *chain, the references from y to a list without one.
 * Iterative, never recursive: the chain is walked by the lists' first
 * codes to its end, then decoded back from there, each list from the one
 * before, in two buffers, so a chain costs no stack whatever its length.
 * A chain of more than `most` references is not walked to its end: the
 * caller's list would be over maxrefcount (*chain gets most + 1). */
static int decode_random(struct decoder *d, uint64_t y, uint64_t most, const struct ids **out,
			 uint64_t *chain)
{
	const struct bv_graph *g = d->g;
	uint64_t n = 0, node = y, deg, ref;
	for (;;) {
		if (n == d->walk_cap) {
			const uint64_t cap = d->walk_cap ? 2 * d->walk_cap : 8;
			uint64_t *w = realloc(d->walk, cap * sizeof(*w));
			if (!w)
				return dec_fail(d, y, "out of memory");
			d->walk = w;
			d->walk_cap = cap;
		}
		d->walk[n++] = node;
		struct bits r = { .b = g->bytes, .pos = g->off[node], .end = g->nbits };
		if (decode_head(d, node, &r, &deg, &ref))
			return -1;
		if (ref == 0)
			break;
		if (n > most) { /* y's chain alone is as long as the caller's may be */
			*chain = most + 1;
			*out = NULL;
			return 0;
		}
		node -= ref;
	}
	*chain = n - 1;
	const struct ids *rl = NULL;
	for (uint64_t i = n; i-- > 0;) {
		struct bits r = { .b = g->bytes, .pos = g->off[d->walk[i]], .end = g->nbits };
		struct ids *o = &d->deep[i & 1];
		if (decode_head(d, d->walk[i], &r, &deg, &ref))
			return -1;
		o->n = 0;
		if (deg && decode_body(d, d->walk[i], &r, deg, ref, rl, o))
			return -1;
		rl = o;
	}
	*out = rl;
	return 0;
}

/* Decodes node x's list at r, in order (its reference in the window where
 * it was decoded, else by random access), into out (replaced); *chain gets
 * its references to a list without one, at most maxrefcount: a longer
 * chain is an error wherever the list is decoded, so that the answer does
 * not depend on where ranges of nodes start (threads). */
static int decode_list(struct decoder *d, uint64_t x, struct bits *r, struct ids *out,
		       uint32_t *chain)
{
	const struct bv_props *p = &d->g->p;
	uint64_t deg, ref;
	out->n = 0;
	*chain = 0;
	if (decode_head(d, x, r, &deg, &ref))
		return -1;
	if (deg == 0)
		return 0;
	const struct ids *rl = NULL;
	if (ref > 0) {
		const uint64_t y = x - ref;
		uint64_t ychain;
		if (d->win_node[y % d->slots] == y) {
			rl = &d->win[y % d->slots];
			ychain = d->win_chain[y % d->slots];
		} else if (p->maxref == 0) {
			ychain = 0; /* no reference is allowed at all */
		} else if (decode_random(d, y, p->maxref - 1, &rl, &ychain)) {
			return -1;
		}
		if (ychain + 1 > p->maxref || !rl) /* !rl: decode_random stopped short */
			return dec_fail(d, x, "a chain of references longer than maxrefcount");
		*chain = (uint32_t)(ychain + 1);
	}
	return decode_body(d, x, r, deg, ref, rl, out);
}

/* Decodes node x in order (the window holds x-1 .. x-window where they
 * were decoded); returns its list, held in the window. */
static int decode_next(struct decoder *d, uint64_t x, struct bits *r, const struct ids **list)
{
	struct ids *slot = &d->win[x % d->slots];
	uint32_t chain;
	d->win_node[x % d->slots] = UINT64_MAX;
	if (decode_list(d, x, r, slot, &chain))
		return -1;
	d->win_node[x % d->slots] = x;
	d->win_chain[x % d->slots] = chain;
	*list = slot;
	return 0;
}

static int decoder_error(const struct decoder *d, const struct bv_graph *g, struct tsg_err *err)
{
	if (d->why && strcmp(d->why, "out of memory") == 0)
		return tsg_fail(err, TSG_ENOMEM, "%s: out of memory decoding node %llu", g->path,
				(unsigned long long)d->why_node);
	return tsg_fail(err, TSG_EINPUT, "%s: node %llu: %s (file is corrupt)", g->path,
			(unsigned long long)d->why_node, d->why ? d->why : "bad list");
}

/* Without .offsets: one sequential pass finds each list's start. */
static int bv_scan_offsets(struct bv_graph *g, struct tsg_err *err)
{
	struct decoder d;
	int rc = TSG_OK;
	struct bits r = { .b = g->bytes, .end = g->nbits };
	if (dec_init(&d, g)) {
		rc = tsg_fail(err, TSG_ENOMEM, "%s: out of memory", g->path);
		goto done;
	}
	for (uint64_t x = 0; x < g->p.nodes; x++) {
		const struct ids *l;
		g->off[x] = r.pos;
		if (decode_next(&d, x, &r, &l)) {
			rc = decoder_error(&d, g, err);
			goto done;
		}
	}
	g->off[g->p.nodes] = r.pos;
done:
	dec_free(&d);
	return rc;
}

/* ---- parallel loading ---- */

/* Chunk k decodes nodes lo .. hi-1 (make_chunks). Its lists go into the
 * graph's adjacency right after chunk k-1's, so written once, where a
 * buffer a chunk and a copy afterwards faulted in and zeroed every page
 * twice (page zeroing was 44% of a one-thread load on the development
 * machine) and held the graph twice. A chunk decoded before the ones
 * ahead of it are is parked with its buffer; whichever thread closes the
 * gap places it (place_chunks). No thread waits for another's chunk: a
 * slow chunk only keeps the ones behind it parked, not their threads. */
struct chunk {
	uint64_t lo, hi;
	uint64_t max_degree;          /* of its merged lists */
	struct ids buf;               /* parked: its lists, until placed */
	int done;                     /* decoded (under place_mu) */
	atomic_int gate;              /* chunk_gate: 2 once it and its start are in */
};

/* What a thread keeps from chunk to chunk: its decoders (their windows'
 * buffers stay grown) and the buffer it decodes a chunk into. */
struct load_thread {
	struct decoder dg, dt;
	int ready;                    /* decoders made */
	struct ids buf;
};

struct load_job {
	const struct bv_graph *g, *t; /* t: the transpose, or NULL */
	struct chunk *ch;
	uint64_t nch;
	struct load_thread *lt;       /* one a thread */
	/* lists in place (no emit): off[v + 1] gets v's degree, then its end;
	 * adj holds adj_cap entries. Under place_mu: the next chunk to place
	 * and where it goes, and buffers set free by placing (spare) */
	uint64_t *off;
	uint32_t *adj;
	uint64_t adj_cap;
	pthread_mutex_t place_mu;
	uint64_t front, front_at;
	struct ids *spare;
	uint64_t nspare;
	void (*emit)(void *ctx, unsigned tid, uint64_t u, const uint32_t *v, uint64_t n); /* feed */
	void *emit_ctx;
	/* rows_late: each chunk goes to rows once placed (chunk_gate); the
	 * decoding begins before rows is known (a crawl decoded ahead of its
	 * count, io_webgraph_open_stream). Under rows_mu: rows, chunks gated
	 * before it came (backlog), whether they went to rows (drained), and
	 * whether the decoding is over (finished) */
	int rows_late;
	io_rows_fn rows;
	void *rows_ctx;
	pthread_mutex_t rows_mu;
	uint64_t *backlog, nbacklog;
	int drained, finished;
	double arcs_per_bit;          /* of both files: sizes a thread's first buffer */
	int raw;                      /* lists as they are: no transpose, self-loops kept */
	int fixed;                    /* off is known (a crawl read by ranges): each chunk
				       * goes to its place, each list's length checked */
	atomic_int failed;
	atomic_uint_fast64_t arcs;
	atomic_uint_fast64_t tsum;    /* + each arc of g, - each of t reversed: 0 if t is
				       * g's transpose (io_check_pair_hash) */
	pthread_mutex_t mu;
	struct tsg_err *err;
};

/* Stops the job with e (every thread, and the offsets' decoders, see
 * failed); the last error set is the job's. */
static void job_fail_err(struct load_job *j, const struct tsg_err *e)
{
	pthread_mutex_lock(&j->mu);
	*j->err = *e;
	atomic_store(&j->failed, 1);
	pthread_mutex_unlock(&j->mu);
}

/* ... with out of memory (oom) or the decoder's error */
static void job_fail(struct load_job *j, const struct decoder *d, const struct bv_graph *g,
		     int oom)
{
	struct tsg_err e = { 0 };
	if (oom)
		tsg_fail(&e, TSG_ENOMEM, "%s: out of memory", g->path);
	else
		decoder_error(d, g, &e);
	job_fail_err(j, &e);
}

/* the union of two increasing lists, without self: out[] gets it; runs
 * copied at once, as in merge2. A run never holds self: a self-loop is in
 * both lists (b is a's node's in-list), so self, met first in one, is met
 * in the other by a step; where b is no true transpose, the whole load
 * fails its transpose check. */
static uint64_t merge_sym(const uint32_t *a, uint64_t na, const uint32_t *b, uint64_t nb,
			  uint32_t self, uint32_t *out)
{
	uint64_t i = 0, k = 0, n = 0;
	while (i < na && k < nb) {
		if (merge_run(a, na, &i, b[k], out, &n) || merge_run(b, nb, &k, a[i], out, &n))
			continue;
		const uint32_t x = a[i], y = b[k], m = x < y ? x : y;
		out[n] = m;
		n += m != self;
		i += x <= y;
		k += y <= x;
	}
	for (; i < na; i++) {
		out[n] = a[i];
		n += a[i] != self;
	}
	for (; k < nb; k++) {
		out[n] = b[k];
		n += b[k] != self;
	}
	return n;
}

/* Chunk q's lists go to rows once they are placed and the chunk before
 * it has written the offset where q starts, which may be another thread
 * placing another run of chunks: whichever of the two comes second calls
 * rows (chunk 0's start is set from the outset). */
static void deliver(const struct load_job *j, uint64_t q, unsigned tid)
{
	j->rows(j->rows_ctx, j->ch[q].lo, j->ch[q].hi, tid);
}

/* The backlog goes to rows once, by whoever first finds rows set with
 * the backlog still there: a decoding thread at its next gate, the
 * decoding's end, or the caller setting rows after that end (no decoding
 * thread is left then, so tid 0 is free). Once rows is set nothing more
 * joins the backlog, so it is read outside the lock. */
static uint64_t backlog_take(struct load_job *j)
{
	if (!j->rows || j->drained)
		return 0;
	j->drained = 1;
	return j->nbacklog;
}

static void backlog_deliver(const struct load_job *j, uint64_t n, unsigned tid)
{
	for (uint64_t i = 0; i < n; i++)
		deliver(j, j->backlog[i], tid);
}

static void chunk_gate(struct load_job *j, uint64_t q, unsigned tid)
{
	if (!j->rows_late || q >= j->nch || atomic_fetch_add(&j->ch[q].gate, 1) != 1)
		return;
	pthread_mutex_lock(&j->rows_mu);
	const int now = j->rows != NULL;
	if (!now)
		j->backlog[j->nbacklog++] = q;
	const uint64_t n = backlog_take(j);
	pthread_mutex_unlock(&j->rows_mu);
	backlog_deliver(j, n, tid);
	if (now)
		deliver(j, q, tid);
}

/* Chunk k is decoded into lt->buf: it is parked with that buffer, and
 * every parked chunk from the front on is given its place, in order, under
 * the lock; their lists are copied outside it. The thread keeps one freed
 * buffer for its next chunk, and leaves the others spare. */
static int place_chunks(struct load_job *j, struct load_thread *lt, uint64_t k, unsigned tid)
{
	int rc = 0;
	pthread_mutex_lock(&j->place_mu);
	j->ch[k].buf = lt->buf;
	j->ch[k].done = 1;
	lt->buf = j->nspare ? j->spare[--j->nspare] : (struct ids){ 0 };
	const uint64_t first = j->front;
	uint64_t at = j->front_at; /* where chunk first goes; the others follow it */
	while (j->front < j->nch && j->ch[j->front].done) {
		const struct chunk *c = &j->ch[j->front];
		if (c->buf.n > j->adj_cap - j->front_at) {
			rc = -1;
			break;
		}
		j->front_at += c->buf.n;
		j->front++;
	}
	const uint64_t last = j->front;
	pthread_mutex_unlock(&j->place_mu);
	if (rc) {
		struct tsg_err e = { 0 };
		tsg_fail(&e, TSG_EINPUT, "%s: more arcs than the properties say (file is corrupt)",
			 j->g->path);
		job_fail_err(j, &e);
		return -1;
	}
	for (uint64_t q = first; q < last; q++) {
		struct chunk *c = &j->ch[q];
		if (c->buf.n)
			memcpy(j->adj + at, c->buf.v, c->buf.n * sizeof(uint32_t));
		for (uint64_t v = c->lo; v < c->hi; v++)
			j->off[v + 1] = at += j->off[v + 1];
		chunk_gate(j, q, tid);
		chunk_gate(j, q + 1, tid);
		struct ids freed = c->buf;
		c->buf = (struct ids){ 0 };
		freed.n = 0;
		if (!lt->buf.cap) {
			lt->buf = freed;
			continue;
		}
		pthread_mutex_lock(&j->place_mu);
		j->spare[j->nspare++] = freed;
		pthread_mutex_unlock(&j->place_mu);
	}
	return 0;
}

static void load_range(void *arg, uint64_t cb, uint64_t ce, unsigned tid)
{
	struct load_job *j = arg;
	const int two = j->t != NULL;
	struct load_thread *lt = &j->lt[tid];
	if (atomic_load(&j->failed))
		return;
	if (!lt->ready) { /* both zeroed until made: the job frees what was made */
		if (dec_init(&lt->dg, j->g) || (two && dec_init(&lt->dt, j->t))) {
			job_fail(j, NULL, j->g, 1);
			return;
		}
		lt->ready = 1;
	}
	struct decoder *dg = &lt->dg, *dt = &lt->dt;
	for (uint64_t k = cb; k < ce && !atomic_load(&j->failed); k++) {
		struct chunk *c = &j->ch[k];
		/* the offsets of lo .. hi, and of the references before lo */
		while (atomic_load_explicit(&j->g->ready, memory_order_acquire) <= c->hi ||
		       (two && atomic_load_explicit(&j->t->ready, memory_order_acquire) <= c->hi)) {
			if (atomic_load(&j->failed))
				return;
			sched_yield();
		}
		struct bits rg = { .b = j->g->bytes, .pos = j->g->off[c->lo], .end = j->g->nbits };
		struct bits rt = { 0 };
		if (two)
			rt = (struct bits){ .b = j->t->bytes, .pos = j->t->off[c->lo], .end = j->t->nbits };
		for (unsigned i = 0; i < dg->slots; i++)
			dg->win_node[i] = UINT64_MAX;
		for (unsigned i = 0; two && i < dt->slots; i++)
			dt->win_node[i] = UINT64_MAX;
		uint64_t arcs = 0, tsum = 0, maxd = 0;
		lt->buf.n = 0;
		if (!j->emit && !lt->buf.cap) { /* room for a chunk's arcs at the file's bits
						 * per arc, so that the buffer is rarely copied */
			const double bits = (double)(j->g->off[c->hi] - j->g->off[c->lo]) +
					    (two ? (double)(j->t->off[c->hi] - j->t->off[c->lo]) : 0);
			if (ids_room(&lt->buf, (uint64_t)(bits * j->arcs_per_bit * 1.1) + 1024)) {
				job_fail(j, NULL, j->g, 1);
				return;
			}
		}
		for (uint64_t v = c->lo; v < c->hi; v++) {
			const struct ids *lo, *li = NULL;
			/* each list where .offsets says it starts: its first code is
			 * then the outdegree that io_webgraph_open_stream ranked by */
			const int gbad = rg.pos != j->g->off[v];
			if (gbad || (two && rt.pos != j->t->off[v])) {
				struct decoder *d = gbad ? dg : dt;
				dec_fail(d, v, "a list that does not start where .offsets says");
				job_fail(j, d, gbad ? j->g : j->t, 0);
				return;
			}
			if (decode_next(dg, v, &rg, &lo)) {
				job_fail(j, dg, j->g, 0);
				return;
			}
			if (two && decode_next(dt, v, &rt, &li)) {
				job_fail(j, dt, j->t, 0);
				return;
			}
			arcs += lo->n + (li ? li->n : 0);
			for (uint64_t i = 0; two && i < lo->n; i++)
				tsum += io_check_pair_hash(v, lo->v[i]);
			for (uint64_t i = 0; li && i < li->n; i++)
				tsum -= io_check_pair_hash(li->v[i], v);
			if (j->emit) {
				j->emit(j->emit_ctx, tid, v, lo->v, lo->n);
				continue;
			}
			if (ids_room(&lt->buf, lt->buf.n + lo->n + (li ? li->n : 0))) {
				job_fail(j, NULL, j->g, 1);
				return;
			}
			uint32_t *o = lt->buf.v + lt->buf.n;
			const uint64_t n = j->raw ? lo->n : merge_sym(lo->v, lo->n, li ? li->v : NULL,
								      li ? li->n : 0, (uint32_t)v, o);
			if (j->raw && n)
				memcpy(o, lo->v, n * 4);
			lt->buf.n += n;
			if (j->fixed && n != j->off[v + 1] - j->off[v]) {
				struct tsg_err e = { 0 };
				tsg_fail(&e, TSG_EINPUT, "%s: node %llu: %llu neighbours here, %llu "
					 "where its slice was decoded (the ranks' copies of the "
					 "crawl differ)", j->g->path, (unsigned long long)v,
					 (unsigned long long)n,
					 (unsigned long long)(j->off[v + 1] - j->off[v]));
				job_fail_err(j, &e);
				return;
			}
			if (!j->fixed)
				j->off[v + 1] = n;
			maxd = n > maxd ? n : maxd;
		}
		/* the lists must end where the offsets say the next one starts */
		const int gbad = rg.pos != j->g->off[c->hi];
		if (gbad || (two && rt.pos != j->t->off[c->hi])) {
			struct decoder *d = gbad ? dg : dt;
			dec_fail(d, c->hi - 1, "a list that does not end where .offsets says the next "
				 "begins");
			job_fail(j, d, gbad ? j->g : j->t, 0);
			return;
		}
		c->max_degree = maxd;
		if (j->fixed && lt->buf.n) /* the lengths are checked: the chunk fits */
			memcpy(j->adj + j->off[c->lo], lt->buf.v, lt->buf.n * sizeof(uint32_t));
		else if (!j->emit && !j->fixed && place_chunks(j, lt, k, tid))
			return;
		atomic_fetch_add(&j->arcs, arcs);
		atomic_fetch_add(&j->tsum, tsum);
	}
}

/* The threads' decoders and buffers, made as each thread starts. */
static struct load_thread *load_threads_new(unsigned threads)
{
	return calloc(threads ? threads : 1, sizeof(struct load_thread));
}

static void load_threads_free(struct load_thread *lt, unsigned threads)
{
	for (unsigned t = 0; lt && t < (threads ? threads : 1); t++) {
		dec_free(&lt[t].dg);
		dec_free(&lt[t].dt);
		free(lt[t].buf.v);
	}
	free(lt);
}

/* Chunks of nodes lo .. hi-1 of about equal bits, at least one node each;
 * where the offsets are still being decoded (g->ready short), of about
 * equal node counts instead, twice as many, so that threads taking them in
 * turn even out. */
static struct chunk *make_chunks(const struct bv_graph *g, unsigned threads, uint64_t first,
				 uint64_t end, uint64_t *n)
{
	const int by_bits = atomic_load(&g->ready) > g->p.nodes;
	const uint64_t want = end > first ? (uint64_t)threads * (by_bits ? 32 : 64) : 0;
	struct chunk *ch = calloc(want ? want : 1, sizeof(*ch));
	if (!ch)
		return NULL;
	uint64_t k = 0, lo = first;
	const uint64_t base = by_bits ? g->off[first] : 0;
	const uint64_t total = by_bits ? g->off[end] - base : 0;
	for (uint64_t i = 1; i <= want && lo < end; i++) {
		uint64_t hi;
		if (i == want)
			hi = end;
		else if (by_bits) /* the first node whose list starts at or past i/want of the bits */
			hi = tsg_lower_bound_u64(g->off, lo + 1, end, base + total / want * i);
		else
			hi = first + (end - first) * i / want; /* nodes < 2^32: no overflow */
		if (hi > lo)
			ch[k++] = (struct chunk){ .lo = lo, .hi = hi };
		lo = hi;
	}
	*n = k;
	return ch;
}

/* Feeding the builder: each thread makes its arcs canonical (lo<<32|hi,
 * self-loops counted and dropped) in a buffer of its own, handed to the
 * builder whole under the lock: a lock per node cost more than decoding. */
enum { FEED_BUF = 1 << 16 };

struct feed_buf {
	uint64_t keys[FEED_BUF];
	size_t n;
	uint64_t loops, max_id;
};

struct feed_ctx {
	struct io_builder *b;
	struct feed_buf *buf; /* one a thread */
	pthread_mutex_t mu;
	int rc;
	struct tsg_err *err;
};

static void feed_flush(struct feed_ctx *f, struct feed_buf *fb)
{
	pthread_mutex_lock(&f->mu);
	if (f->rc == TSG_OK)
		f->rc = io_builder_add_canon(f->b, fb->keys, fb->n, fb->loops, fb->max_id, f->err);
	pthread_mutex_unlock(&f->mu);
	fb->n = fb->loops = fb->max_id = 0;
}

static void feed_emit(void *arg, unsigned tid, uint64_t u, const uint32_t *v, uint64_t n)
{
	struct feed_ctx *f = arg;
	struct feed_buf *fb = &f->buf[tid];
	for (uint64_t i = 0; i < n; i++) {
		const uint64_t key = io_edge_key(u, v[i]);
		if (!key) {
			fb->loops++;
			continue;
		}
		fb->max_id = (key & 0xffffffffu) > fb->max_id ? key & 0xffffffffu : fb->max_id;
		fb->keys[fb->n++] = key;
		if (fb->n == FEED_BUF)
			feed_flush(f, fb);
	}
}

int io_webgraph_feed(const char *path, unsigned threads, int check_transpose,
		     struct io_builder *b, struct io_webgraph_stats *st, struct tsg_err *err)
{
	char base[4096], tbase[4200], tprops[4300];
	struct bv_graph g, t;
	uint64_t nch = 0;
	if (base_of(path, base, sizeof(base)))
		return tsg_fail(err, TSG_EUSAGE, "%s: path too long", path);
	memset(st, 0, sizeof(*st));
	memset(&t, 0, sizeof(t));
	const double t0 = tsg_now();
	int rc = bv_open(base, &g, &st->offsets_scanned, 0, err);
	if (rc)
		return rc;
	/* a transpose beside the crawl is checked to be the graph's even where
	 * only the graph's arcs are sorted (--host-mem, --relabel): the answer
	 * must not depend on the way the crawl is read */
	snprintf(tbase, sizeof(tbase), "%s-t", base);
	snprintf(tprops, sizeof(tprops), "%s.properties", tbase);
	const int two = check_transpose && access(tprops, F_OK) == 0;
	if (two && (rc = bv_open(tbase, &t, &st->offsets_scanned, 0, err)) == TSG_OK &&
	    (t.p.nodes != g.p.nodes || t.p.arcs != g.p.arcs))
		rc = tsg_fail(err, TSG_EINPUT, "%s: the transpose has %llu nodes and %llu arcs, the "
			      "graph %llu and %llu", t.path, (unsigned long long)t.p.nodes,
			      (unsigned long long)t.p.arcs, (unsigned long long)g.p.nodes,
			      (unsigned long long)g.p.arcs);
	struct chunk *ch = rc ? NULL : make_chunks(&g, threads ? threads : 1, 0, g.p.nodes, &nch);
	if (rc == TSG_OK && !ch)
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
	threads = threads ? threads : 1;
	struct feed_ctx f = { .b = b, .err = err };
	struct load_job j = { .g = &g, .t = two ? &t : NULL, .ch = ch, .emit = feed_emit,
			      .emit_ctx = &f, .err = err };
	f.buf = rc ? NULL : calloc(threads, sizeof(*f.buf));
	j.lt = rc ? NULL : load_threads_new(threads);
	if (rc == TSG_OK && (!f.buf || !j.lt))
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
	pthread_mutex_init(&f.mu, NULL);
	pthread_mutex_init(&j.mu, NULL);
	atomic_init(&j.failed, 0);
	atomic_init(&j.arcs, 0);
	atomic_init(&j.tsum, 0);
	if (rc == TSG_OK) {
		io_builder_reserve_vertices(b, g.p.nodes);
		tsg_parallel_for(threads, nch, 1, load_range, &j);
	}
	for (unsigned q = 0; rc == TSG_OK && f.buf && q < threads; q++)
		feed_flush(&f, &f.buf[q]);
	free(f.buf);
	load_threads_free(j.lt, threads);
	if (rc == TSG_OK && atomic_load(&j.failed))
		rc = err->code ? err->code : TSG_EINPUT;
	if (rc == TSG_OK && f.rc)
		rc = f.rc;
	if (rc == TSG_OK && atomic_load(&j.arcs) != (two ? 2 : 1) * g.p.arcs)
		rc = tsg_fail(err, TSG_EINPUT, "%s: %llu arcs decoded%s, the properties say %llu%s "
			      "(file is corrupt)", g.path, (unsigned long long)atomic_load(&j.arcs),
			      two ? " in the graph and its transpose" : "",
			      (unsigned long long)g.p.arcs, two ? " each" : "");
	if (rc == TSG_OK && two && atomic_load(&j.tsum) != 0)
		rc = tsg_fail(err, TSG_EINPUT, "%s is not the transpose of %s: their arcs differ "
			      "(file is corrupt, or belongs to another graph)", t.path, g.path);
	st->nodes = g.p.nodes;
	st->arcs = g.p.arcs;
	st->transpose = 0; /* checked, not merged */
	st->graph_bytes = (g.nbits + t.nbits) / 8;
	st->decode_s = tsg_now() - t0;
	st->arcs_per_s = st->decode_s > 0 ? (double)g.p.arcs * (two ? 2 : 1) / st->decode_s : 0;
	pthread_mutex_destroy(&f.mu);
	pthread_mutex_destroy(&j.mu);
	free(ch);
	bv_free(&g);
	bv_free(&t);
	return rc;
}

struct open_job {
	const char *base;
	struct bv_graph *g;
	int *scanned;
	int flags;
	int rc;
	struct tsg_err err;
};

static void *open_main(void *arg)
{
	struct open_job *j = arg;
	j->rc = bv_open(j->base, j->g, j->scanned, j->flags, &j->err);
	return NULL;
}

/* A file's offsets, decoded beside the lists' decoding (which waits on
 * g->ready): a failure here stops the job with this error. */
struct offsets_job {
	struct bv_graph *g;
	struct load_job *j;
	pthread_t tid;
	int started;
};

static void *offsets_main(void *arg)
{
	struct offsets_job *o = arg;
	struct tsg_err e = { 0 };
	if (o->g->obytes && bv_read_offsets(o->g, &o->j->failed, &e))
		job_fail_err(o->j, &e);
	return NULL;
}

/* A crawl with its transpose merged, or one crawl read raw: opened,
 * decoded (merged_run), and freed; the job's pointers lead into it, so it
 * stays where it was opened. */
struct merged {
	struct bv_graph g, t;
	int two;                      /* t is open */
	struct chunk *ch;
	uint64_t nch;
	struct load_thread *lt;
	struct ids *spare;
	uint64_t *off;                /* the lists' offsets and the lists: */
	uint32_t *adj;                /* NULL once a graph owns them */
	uint64_t cap;                 /* entries adj has room for */
	unsigned threads;
	int sync_made;
	struct load_job j;
	uint64_t total, maxdeg;       /* after merged_run */
};

static void merged_free(struct merged *m)
{
	load_threads_free(m->lt, m->threads);
	for (uint64_t k = 0; m->ch && k < m->nch; k++) /* parked, where the job failed */
		free(m->ch[k].buf.v);
	for (uint64_t k = 0; m->spare && k < m->j.nspare; k++)
		free(m->spare[k].v);
	if (m->sync_made) {
		pthread_mutex_destroy(&m->j.mu);
		pthread_mutex_destroy(&m->j.place_mu);
	}
	if (m->j.rows_late)
		pthread_mutex_destroy(&m->j.rows_mu);
	free(m->j.backlog);
	free(m->spare);
	free(m->ch);
	free(m->off);
	free(m->adj);
	bv_free(&m->g);
	bv_free(&m->t);
	memset(m, 0, sizeof(*m));
}

/* Opens base (and tbase, its transpose, or NULL: raw) and makes room for
 * the lists; their offsets are left to decode beside the lists (defer). */
static int merged_open(struct merged *m, const char *base, const char *tbase, unsigned threads,
		       int flags, struct io_webgraph_stats *st, struct tsg_err *err)
{
	int ts = 0;
	const double t0 = tsg_now();
	memset(m, 0, sizeof(*m));
	m->threads = threads;
	/* the graph and its transpose opened at once: where .offsets is missing
	 * it is found by a serial scan, a thread a file */
	struct open_job tj = { .base = tbase, .g = &m->t, .scanned = &ts, .flags = flags };
	pthread_t tt;
	const int threaded = tbase && threads > 1 && pthread_create(&tt, NULL, open_main, &tj) == 0;
	int rc = bv_open(base, &m->g, &st->offsets_scanned, flags, err);
	if (threaded)
		pthread_join(tt, NULL);
	else if (tbase && rc == TSG_OK)
		open_main(&tj);
	if (rc == TSG_OK && tbase && tj.rc) {
		rc = tj.rc;
		*err = tj.err;
	}
	if (rc) /* each is open, or zeroed (bv_open frees itself on failure) */
		goto fail;
	m->two = tbase != NULL;
	st->open_s = tsg_now() - t0;
	st->offsets_scanned |= ts;
	st->transpose = m->two;
	st->nodes = m->g.p.nodes;
	st->arcs = m->g.p.arcs;
	if (m->two && (m->t.p.nodes != m->g.p.nodes || m->t.p.arcs != m->g.p.arcs)) {
		rc = tsg_fail(err, TSG_EINPUT, "%s: the transpose has %llu nodes and %llu arcs, the "
			      "graph %llu and %llu", m->t.path, (unsigned long long)m->t.p.nodes,
			      (unsigned long long)m->t.p.arcs, (unsigned long long)m->g.p.nodes,
			      (unsigned long long)m->g.p.arcs);
		goto fail;
	}
	/* the merged lists hold at most the arcs of both files: room for that
	 * much is only address space until written, and is given back after */
	if (m->g.p.arcs > SIZE_MAX / 2 / sizeof(uint32_t)) {
		rc = tsg_fail(err, TSG_ENOMEM, "%s: out of memory for the %llu arcs its properties "
			      "declare", m->g.path, (unsigned long long)m->g.p.arcs);
		goto fail;
	}
	m->cap = m->g.p.arcs * (m->two ? 2 : 1);
	/* page-aligned: a GPU pins the lists page by page as they come */
	const uint64_t abytes = tsg_align_up((m->cap ? m->cap : 1) * sizeof(uint32_t), 4096);
	m->off = malloc((m->g.p.nodes + 1) * sizeof(uint64_t));
	m->adj = aligned_alloc(4096, abytes);
	m->lt = load_threads_new(threads);
	if (!m->off || !m->adj || !m->lt) {
		rc = tsg_fail(err, TSG_ENOMEM, "%s: out of memory for %llu nodes and the %llu arcs "
			      "its properties declare", m->g.path, (unsigned long long)m->g.p.nodes,
			      (unsigned long long)m->g.p.arcs);
		goto fail;
	}
	/* written once, in parallel: huge pages spare most of the faults */
	tsg_advise_huge(m->off, (m->g.p.nodes + 1) * sizeof(uint64_t));
	tsg_advise_huge(m->adj, abytes);
	m->off[0] = 0;
	m->j = (struct load_job){ .g = &m->g, .t = m->two ? &m->t : NULL, .lt = m->lt,
				  .off = m->off, .adj = m->adj, .adj_cap = m->cap,
				  .raw = !m->two, .err = err };
	m->j.arcs_per_bit = (double)m->cap / ((double)m->g.nbits +
					      (m->two ? (double)m->t.nbits : 0) + 1);
	pthread_mutex_init(&m->j.mu, NULL);
	pthread_mutex_init(&m->j.place_mu, NULL);
	m->sync_made = 1;
	atomic_init(&m->j.failed, 0);
	atomic_init(&m->j.arcs, 0);
	atomic_init(&m->j.tsum, 0);
	return TSG_OK;
fail:
	merged_free(m);
	return rc;
}

/* What every list decoded adds up to: the arcs of both files (t: the
 * transpose, or NULL), as the properties say, and the signed hash of the
 * graph's arcs against the transpose's reversed, 0 if it is the graph's
 * transpose. */
static int sums_check(const struct bv_graph *g, const struct bv_graph *t, uint64_t arcs,
		      uint64_t tsum, struct tsg_err *err)
{
	if (arcs != (t ? 2 : 1) * g->p.arcs)
		return tsg_fail(err, TSG_EINPUT, "%s: %llu arcs decoded in the graph and its "
				"transpose, the properties say %llu each (file is corrupt)", g->path,
				(unsigned long long)arcs, (unsigned long long)g->p.arcs);
	if (t && tsum != 0)
		return tsg_fail(err, TSG_EINPUT, "%s is not the transpose of %s: their arcs differ "
				"(file is corrupt, or belongs to another graph)", t->path, g->path);
	return TSG_OK;
}

static int merged_sums_check(const struct merged *m, uint64_t arcs, uint64_t tsum,
			     struct tsg_err *err)
{
	return sums_check(&m->g, m->two ? &m->t : NULL, arcs, tsum, err);
}

/* Decodes (and merges) the lists of nodes lo .. hi-1 into m's off and
 * adj, from adj[0] on, each chunk handed to the job's rows (rows_late)
 * once its lists are in place; for every node, then checks what needs all
 * of them: the arc count and that the transpose is the graph's (for a part
 * the job's arcs and tsum are left for the caller). Runs once a job. */
static int merged_run(struct merged *m, uint64_t lo, uint64_t hi, struct tsg_err *err)
{
	struct load_job *j = &m->j;
	const int whole = lo == 0 && hi == m->g.p.nodes;
	j->err = err;
	/* chunks by bits where the offsets are in, else by nodes */
	m->ch = make_chunks(&m->g, m->threads, lo, hi, &m->nch);
	m->spare = malloc((m->nch + 1) * sizeof(*m->spare));
	if (j->rows_late)
		j->backlog = malloc((m->nch + 1) * sizeof(*j->backlog));
	if (!m->ch || !m->spare || (j->rows_late && !j->backlog)) {
		/* failed, so that whoever waits on the offsets stops too */
		struct tsg_err e = { 0 };
		tsg_fail(&e, TSG_ENOMEM, "%s: out of memory", m->g.path);
		job_fail_err(j, &e);
		return e.code;
	}
	for (uint64_t k = 0; k < m->nch; k++)
		atomic_init(&m->ch[k].gate, k == 0);
	j->ch = m->ch;
	j->nch = m->nch;
	j->spare = m->spare;
	/* the offsets decode serially, a thread a file, while the lists are
	 * decoded behind them: they are no longer a step before any list */
	struct offsets_job oj[2] = { { .g = &m->g, .j = j }, { .g = &m->t, .j = j } };
	for (int f = 0; f < 2; f++) {
		if (m->threads > 1 && oj[f].g->obytes)
			oj[f].started = pthread_create(&oj[f].tid, NULL, offsets_main, &oj[f]) == 0;
		if (!oj[f].started)
			offsets_main(&oj[f]);
	}
	tsg_parallel_for(m->threads, m->nch, 1, load_range, j);
	for (int f = 0; f < 2; f++)
		if (oj[f].started)
			pthread_join(oj[f].tid, NULL);
	if (j->rows_late) { /* every decoding thread is done: tid 0 is free */
		pthread_mutex_lock(&j->rows_mu);
		j->finished = 1;
		const uint64_t n = backlog_take(j);
		pthread_mutex_unlock(&j->rows_mu);
		backlog_deliver(j, n, 0);
	}
	if (atomic_load(&j->failed))
		return err->code ? err->code : TSG_EINPUT;
	int rc;
	if (whole && (rc = merged_sums_check(m, atomic_load(&j->arcs), atomic_load(&j->tsum), err)))
		return rc;
	if (j->front != m->nch) /* every chunk decoded, so every chunk placed */
		return tsg_fail(err, TSG_EINTERNAL, "%s: %llu of %llu chunks placed", m->g.path,
				(unsigned long long)j->front, (unsigned long long)m->nch);
	m->maxdeg = 0;
	for (uint64_t k = 0; k < m->nch; k++)
		m->maxdeg = m->ch[k].max_degree > m->maxdeg ? m->ch[k].max_degree : m->maxdeg;
	m->total = j->front_at;
	return TSG_OK;
}

/* With the transpose: merged lists, straight into a graph in memory. */
static int load_merged(const char *base, const char *tbase, unsigned threads,
		       struct tsg_graph *out, struct io_webgraph_stats *st, struct tsg_err *err)
{
	struct merged m;
	int rc = merged_open(&m, base, tbase, threads, BV_DEFER, st, err);
	if (rc)
		return rc;
	const double t1 = tsg_now();
	rc = merged_run(&m, 0, m.g.p.nodes, err);
	const double t2 = tsg_now();
	st->lists_s = t2 - t1;
	if (rc == TSG_OK) {
		if (m.total < m.cap) { /* the untouched tail back; where it cannot shrink, kept */
			uint32_t *shrunk = realloc(m.adj, (m.total ? m.total : 1) * sizeof(uint32_t));
			m.adj = shrunk ? shrunk : m.adj;
		}
		io_graph_adopt(out, m.g.p.nodes, m.off, m.adj, m.maxdeg, threads);
		m.off = NULL;
		m.adj = NULL;
		st->assemble_s = tsg_now() - t2;
		st->graph_bytes = (m.g.nbits + (m.two ? m.t.nbits : 0)) / 8;
	}
	merged_free(&m);
	return rc;
}

/* ---- counting while the crawl is decoded ---- */

/* A crawl whose lists are decoded as a graph's lists are read
 * (io_graph_read_lists through io_lists_src). */
struct crawl_src {
	struct io_lists_src src;
	struct merged m;
	/* decoding ahead: from the opening on, on a thread of its own, while
	 * the count is set up (the GPU's context, ranks, the device's arrays);
	 * chunks wait in the job's backlog until the count's rows come */
	pthread_t ahead;
	int ahead_started;
	int rc;
	struct tsg_err err;
	double t0, t1;                /* the decoding's start and end */
};

static void *ahead_main(void *arg)
{
	struct crawl_src *cs = arg;
	cs->t0 = tsg_now();
	cs->rc = merged_run(&cs->m, 0, cs->m.g.p.nodes, &cs->err);
	cs->t1 = tsg_now();
	return NULL;
}

/* Upper bounds of the merged degrees: each list's first code, its
 * outdegree, in both files (so out + in), and never above nv - 1. Blocks
 * of nodes write bound[v + 1]; each block's sum and maximum come after. */
struct bounds_job {
	const struct bv_graph *g, *t;
	uint64_t *bound;
	uint64_t *sum, *max;          /* a block */
	const atomic_int *failed;     /* the decoding (its offsets) failed: stop */
};

enum { BOUND_BLOCK = 1 << 16 };

static uint64_t first_code(const struct bv_graph *g, uint64_t v)
{
	struct bits r = { .b = g->bytes, .pos = g->off[v], .end = g->nbits };
	const uint64_t d = read_code(&r, g->p.c.outdeg, g->p.zetak);
	return r.bad ? 0 : d; /* the decoder reports a list cut off */
}

static void bounds_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct bounds_job *bj = arg;
	const uint64_t nv = bj->g->p.nodes, most = nv ? nv - 1 : 0;
	for (uint64_t k = b; k < e; k++) {
		const uint64_t lo = k * BOUND_BLOCK, hi = lo + BOUND_BLOCK < nv ? lo + BOUND_BLOCK : nv;
		uint64_t sum = 0, mx = 0;
		/* the offsets decode beside this, as for the lists (load_range) */
		while (atomic_load_explicit(&bj->g->ready, memory_order_acquire) <= hi ||
		       atomic_load_explicit(&bj->t->ready, memory_order_acquire) <= hi) {
			if (atomic_load(bj->failed))
				return;
			/* asleep, not yielding: the offsets' threads, which
			 * everyone waits for, keep their cores */
			nanosleep(&(struct timespec){ .tv_nsec = 20000 }, NULL);
		}
		for (uint64_t v = lo; v < hi; v++) {
			const uint64_t d = first_code(bj->g, v) + first_code(bj->t, v);
			const uint64_t u = d < most ? d : most;
			bj->bound[v + 1] = u;
			sum += u;
			mx = u > mx ? u : mx;
		}
		bj->sum[k] = sum;
		bj->max[k] = mx;
	}
}

static void bounds_prefix(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct bounds_job *bj = arg;
	const uint64_t nv = bj->g->p.nodes;
	for (uint64_t k = b; k < e; k++) {
		uint64_t at = bj->sum[k]; /* by now: where block k starts */
		const uint64_t lo = k * BOUND_BLOCK, hi = lo + BOUND_BLOCK < nv ? lo + BOUND_BLOCK : nv;
		for (uint64_t v = lo; v < hi; v++)
			bj->bound[v + 1] = at += bj->bound[v + 1];
	}
}

/* The bounds of g and t into *bound (nv + 1 prefix offsets, malloc'd),
 * their sum and largest, on `threads` threads, each block as its offsets
 * come in (ready); 1 where *failed stopped the wait (nothing kept), -1
 * when out of memory, else 0. */
static int bounds_make(const struct bv_graph *g, const struct bv_graph *t, unsigned threads,
		       const atomic_int *failed, uint64_t **bound, uint64_t *total, uint64_t *max)
{
	const uint64_t nv = g->p.nodes, nblocks = (nv + BOUND_BLOCK - 1) / BOUND_BLOCK;
	struct bounds_job bj = { .g = g, .t = t, .failed = failed,
				 .bound = malloc((nv + 1) * sizeof(uint64_t)),
				 .sum = malloc((nblocks + 1) * sizeof(uint64_t)),
				 .max = malloc((nblocks + 1) * sizeof(uint64_t)) };
	int rc = -1;
	*bound = NULL;
	if (!bj.bound || !bj.sum || !bj.max)
		goto done;
	tsg_parallel_for(threads ? threads : 1, nblocks, 1, bounds_range, &bj);
	rc = 1;
	if (atomic_load(failed))
		goto done;
	uint64_t sum = 0, mx = 0;
	for (uint64_t k = 0; k < nblocks; k++) {
		const uint64_t n = bj.sum[k];
		bj.sum[k] = sum;
		sum += n;
		mx = bj.max[k] > mx ? bj.max[k] : mx;
	}
	bj.bound[0] = 0;
	tsg_parallel_for(threads ? threads : 1, nblocks, 1, bounds_prefix, &bj);
	*bound = bj.bound;
	*total = sum;
	*max = mx;
	bj.bound = NULL;
	rc = 0;
done:
	free(bj.bound);
	free(bj.sum);
	free(bj.max);
	return rc;
}

static int crawl_read(struct io_lists_src *src, struct tsg_graph *g, io_rows_fn rows, void *ctx,
		      struct tsg_err *err)
{
	struct crawl_src *cs = (struct crawl_src *)src;
	struct load_job *j = &cs->m.j;
	if (!cs->ahead_started) { /* no thread could be had: decoded now */
		j->rows = rows;
		j->rows_ctx = ctx;
		ahead_main(cs);
	} else {
		pthread_mutex_lock(&j->rows_mu);
		j->rows = rows;
		j->rows_ctx = ctx;
		const uint64_t n = j->finished ? backlog_take(j) : 0;
		pthread_mutex_unlock(&j->rows_mu);
		if (rows)
			backlog_deliver(j, n, 0);
		pthread_join(cs->ahead, NULL);
		cs->ahead_started = 0;
	}
	if (cs->rc == TSG_OK) {
		g->nadj = cs->m.total;
		g->max_degree = cs->m.maxdeg;
	}
	g->read_seconds += cs->t1 - cs->t0;
	if (cs->rc)
		*err = cs->err;
	return cs->rc;
}

static void crawl_release(struct io_lists_src *src)
{
	struct crawl_src *cs = (struct crawl_src *)src;
	if (cs->ahead_started) { /* never read: stopped at its next chunk */
		atomic_store(&cs->m.j.failed, 1);
		pthread_join(cs->ahead, NULL);
	}
	merged_free(&cs->m);
	free(cs);
}

/* For the openers of a crawl with its transpose BASE-t: st and g
 * cleared, both opened into m (merged_open, as flags say). */
static int open_pair(const char *path, unsigned threads, int flags, struct merged *m,
		     struct io_webgraph_stats *st, struct tsg_graph *g, struct tsg_err *err)
{
	char base[4096], tbase[4200];
	memset(st, 0, sizeof(*st));
	memset(g, 0, sizeof(*g));
	if (base_of(path, base, sizeof(base)))
		return tsg_fail(err, TSG_EUSAGE, "%s: path too long", path);
	snprintf(tbase, sizeof(tbase), "%s-t", base);
	return merged_open(m, base, tbase, threads, flags, st, err);
}

int io_webgraph_open_stream(const char *path, unsigned threads, struct tsg_graph *g,
			    struct io_webgraph_stats *st, struct tsg_err *err)
{
	threads = threads ? threads : 1;
	const double t0 = tsg_now();
	struct crawl_src *cs = calloc(1, sizeof(*cs));
	if (!cs)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	struct merged *m = &cs->m;
	int rc = open_pair(path, threads, BV_DEFER, m, st, g, err);
	if (rc) {
		free(cs);
		return rc;
	}
	m->j.err = &cs->err;
	const uint64_t nv = m->g.p.nodes;
	uint64_t *bound = NULL, total = 0, mx = 0;
	/* the decoding starts now (its offsets, then the lists behind them, a
	 * thread of its own) and runs ahead of the count's rows; the bounds
	 * follow the offsets beside it, so that neither waits for the other
	 * to have read the files from the disk */
	m->j.rows_late = 1;
	pthread_mutex_init(&m->j.rows_mu, NULL);
	cs->ahead_started = pthread_create(&cs->ahead, NULL, ahead_main, cs) == 0;
	if (!cs->ahead_started) { /* decoded when read: the offsets now, whole */
		struct offsets_job oj[2] = { { .g = &m->g, .j = &m->j }, { .g = &m->t, .j = &m->j } };
		offsets_main(&oj[0]);
		offsets_main(&oj[1]);
	}
	const int bk = bounds_make(&m->g, &m->t, threads, &m->j.failed, &bound, &total, &mx);
	if (bk < 0) {
		rc = tsg_fail(err, TSG_ENOMEM, "%s: out of memory for %llu degree bounds", m->g.path,
			      (unsigned long long)nv);
		goto fail;
	}
	if (bk > 0) { /* the decoding failed; its error is whole once it has stopped */
		if (cs->ahead_started)
			pthread_join(cs->ahead, NULL);
		cs->ahead_started = 0;
		rc = tsg_fail(err, cs->err.code ? cs->err.code : TSG_EINPUT, "%s", cs->err.msg);
		goto fail;
	}
	*g = (struct tsg_graph){ .nv = nv, .off = m->off, .adj = m->adj, .off_mem = m->off,
				 .adj_mem = m->adj, .io_used = IO_MODE_AUTO, .io_cached = -1,
				 .lists_pending = 1, .threads = threads, .rank_off = bound,
				 .rank_nadj = total, .rank_max_degree = mx,
				 .lists_src = &cs->src };
	cs->src = (struct io_lists_src){ .read = crawl_read, .release = crawl_release };
	m->off = NULL; /* the graph's now; the job still writes them */
	m->adj = NULL;
	bound = NULL;
	st->decode_s = tsg_now() - t0; /* the lists are decoded as they are counted */
	st->graph_bytes = (m->g.nbits + m->t.nbits) / 8;
fail:
	free(bound);
	if (rc)
		crawl_release(&cs->src);
	return rc;
}

/* ---- reading by ranges (MPI ranks, src/ranges.h) ---- */

/* A crawl and its transpose opened for ranks that each decode only some
 * lists: the offsets of both files are read whole (a few bits a node), the
 * .graph files only where lists are decoded (no readahead: a list costs
 * the pages it lies on, and those of the lists it refers to). Degrees are
 * known only once every slice is decoded, so nothing is ranked before
 * io_graph_place_slice: the graph is then ranked and planned from its
 * exact degrees, as a .tsg file is. */
struct crawl_ranges {
	struct io_lists_src src;
	struct merged m;
	uint64_t slice_b, slice_e;    /* decoded into adj[0 ..) until placed */
	int sliced, placed;
	uint64_t *bits;               /* nodes + 1: the bits before each node, both files */
};

static struct crawl_ranges *ranges_of(const struct io_lists_src *s)
{
	return (struct crawl_ranges *)s;
}

/* Bytes of both .graph files that nodes b .. e-1's lists span. */
static uint64_t span_bytes(const struct crawl_ranges *cr, uint64_t b, uint64_t e)
{
	return (cr->bits[e] - cr->bits[b] + 7) / 8;
}

static const uint64_t *cr_weights(const struct io_lists_src *s)
{
	return ranges_of(s)->bits;
}

static int cr_slice(struct io_lists_src *s, uint64_t b, uint64_t e, uint32_t *deg,
		    uint64_t sums[2], uint64_t *bytes, struct tsg_err *err)
{
	struct crawl_ranges *cr = ranges_of(s);
	struct merged *m = &cr->m;
	if (cr->sliced)
		return tsg_fail(err, TSG_EINTERNAL, "%s: a second slice", m->g.path);
	cr->sliced = 1;
	cr->slice_b = b;
	cr->slice_e = e;
	const int rc = merged_run(m, b, e, err);
	if (rc)
		return rc;
	uint64_t prev = 0; /* merged_run wrote off[v + 1] from 0 on, for b <= v < e */
	for (uint64_t v = b; v < e; v++) {
		deg[v - b] = (uint32_t)(m->j.off[v + 1] - prev);
		prev = m->j.off[v + 1];
	}
	sums[0] = atomic_load(&m->j.arcs);
	sums[1] = atomic_load(&m->j.tsum);
	*bytes += span_bytes(cr, b, e);
	return TSG_OK;
}

static int cr_place(struct io_lists_src *s, struct tsg_graph *g, const uint32_t *deg,
		    const uint64_t sums[2], struct tsg_err *err)
{
	struct crawl_ranges *cr = ranges_of(s);
	struct merged *m = &cr->m;
	uint64_t *const off = m->j.off;
	const uint64_t nv = m->g.p.nodes, n = m->j.front_at; /* the slice's entries */
	int rc = merged_sums_check(m, sums[0], sums[1], err);
	if (rc)
		return rc;
	if (!cr->sliced || cr->placed)
		return tsg_fail(err, TSG_EINTERNAL, "%s: placed without a slice", m->g.path);
	uint64_t at = 0, mx = 0;
	for (uint64_t v = 0; v < nv; v++) {
		off[v] = at;
		at += deg[v];
		mx = deg[v] > mx ? deg[v] : mx;
	}
	off[nv] = at;
	if (at > m->cap) /* the arcs were counted: only ranks' copies that differ */
		return tsg_fail(err, TSG_EINPUT, "%s: the slices' degrees sum to %llu, more than "
				"the %llu arcs of both files (the ranks' copies of the crawl differ)",
				m->g.path, (unsigned long long)at, (unsigned long long)m->cap);
	if (off[cr->slice_e] - off[cr->slice_b] != n)
		return tsg_fail(err, TSG_EINTERNAL, "%s: the slice's degrees changed", m->g.path);
	if (n)
		memmove(m->j.adj + off[cr->slice_b], m->j.adj, n * sizeof(uint32_t));
	g->nadj = at;
	g->max_degree = mx;
	cr->placed = 1;
	return TSG_OK;
}

/* Pieces of about equal bits (at least a node each) of the ranges, about
 * 32 a thread, so that the load's threads share them: chunks of a job
 * whose offsets are known. Counted, then made. */
static struct chunk *range_pieces(const struct crawl_ranges *cr, const struct io_vrange *r,
				  uint64_t n, unsigned threads, uint64_t *np)
{
	uint64_t total = 0, k = 0;
	for (uint64_t i = 0; i < n; i++)
		total += cr->bits[r[i].e] - cr->bits[r[i].b];
	const uint64_t step = total / ((uint64_t)threads * 32) + 1;
	struct chunk *ch = NULL;
	for (int make = 0; make < 2; make++) {
		if (make && !(ch = calloc(k ? k : 1, sizeof(*ch))))
			return NULL;
		k = 0;
		for (uint64_t i = 0; i < n; i++)
			for (uint64_t lo = r[i].b; lo < r[i].e;) {
				const uint64_t hi = tsg_lower_bound_u64(cr->bits, lo + 1, r[i].e,
									cr->bits[lo] + step);
				if (make)
					ch[k] = (struct chunk){ .lo = lo, .hi = hi };
				k++;
				lo = hi;
			}
	}
	*np = k;
	return ch;
}

static int cr_ranges(struct io_lists_src *s, const struct io_vrange *r, uint64_t n,
		     uint64_t *bytes, struct tsg_err *err)
{
	struct crawl_ranges *cr = ranges_of(s);
	struct merged *m = &cr->m;
	struct load_job *j = &m->j;
	if (!cr->placed)
		return tsg_fail(err, TSG_EINTERNAL, "%s: ranges read before the slice was placed",
				m->g.path);
	uint64_t np = 0;
	struct chunk *ch = range_pieces(cr, r, n, m->threads, &np);
	if (!ch)
		return tsg_fail(err, TSG_ENOMEM, "%s: out of memory", m->g.path);
	for (uint64_t i = 0; i < n; i++)
		*bytes += span_bytes(cr, r[i].b, r[i].e);
	j->fixed = 1;
	j->ch = ch;
	j->nch = np;
	j->err = err;
	tsg_parallel_for(m->threads, np, 1, load_range, j);
	free(ch);
	j->ch = m->ch;
	j->nch = m->nch;
	if (atomic_load(&j->failed))
		return err->code ? err->code : TSG_EINPUT;
	return TSG_OK;
}

static int cr_read(struct io_lists_src *s, struct tsg_graph *g, io_rows_fn rows, void *ctx,
		   struct tsg_err *err)
{
	(void)g;
	(void)rows;
	(void)ctx;
	return tsg_fail(err, TSG_EINTERNAL, "%s: a crawl opened to be read by ranges is not "
			"read whole", ranges_of(s)->m.g.path);
}

static void cr_release(struct io_lists_src *s)
{
	struct crawl_ranges *cr = ranges_of(s);
	merged_free(&cr->m);
	free(cr->bits);
	free(cr);
}

int io_webgraph_open_ranges(const char *path, unsigned threads, struct tsg_graph *g,
			    struct io_webgraph_stats *st, struct tsg_err *err)
{
	threads = threads ? threads : 1;
	const double t0 = tsg_now();
	struct crawl_ranges *cr = calloc(1, sizeof(*cr));
	if (!cr)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	struct merged *m = &cr->m;
	int rc = open_pair(path, threads, BV_PART, m, st, g, err);
	if (rc) {
		free(cr);
		return rc;
	}
	m->j.err = err;
	const uint64_t nv = m->g.p.nodes;
	cr->bits = malloc((nv + 1) * sizeof(uint64_t));
	if (!cr->bits) {
		rc = tsg_fail(err, TSG_ENOMEM, "%s: out of memory for %llu offsets", m->g.path,
			      (unsigned long long)nv + 1);
		goto fail;
	}
	for (uint64_t v = 0; v <= nv; v++)
		cr->bits[v] = m->g.off[v] - m->g.off[0] + m->t.off[v] - m->t.off[0];
	/* the ranks check that they opened one graph by this key: the node and
	 * arc counts and where every list lies in both files */
	uint64_t key = io_checksum(m->g.off, (nv + 1) * sizeof(uint64_t)) * 31 +
		       io_checksum(m->t.off, (nv + 1) * sizeof(uint64_t));
	key ^= m->g.p.arcs * 0x9e3779b97f4a7c15ull;
	*g = (struct tsg_graph){ .nv = nv, .off = m->off, .adj = m->adj, .off_mem = m->off,
				 .adj_mem = m->adj, .io_used = IO_MODE_AUTO, .io_cached = -1,
				 .lists_pending = 1, .threads = threads, .identity = key ? key : 1,
				 .lists_src = &cr->src };
	cr->src = (struct io_lists_src){ .read = cr_read, .release = cr_release,
					 .weights = cr_weights,
					 .slice = cr_slice, .place = cr_place,
					 .ranges = cr_ranges, .name = m->g.path };
	m->off = NULL; /* the graph's now; the job still writes them */
	m->adj = NULL;
	st->open_s = st->decode_s = tsg_now() - t0;
	st->graph_bytes = (m->g.nbits + m->t.nbits) / 8;
	g->lists_sec.size = st->graph_bytes;
	return TSG_OK;
fail:
	cr_release(&cr->src);
	return rc;
}

int io_webgraph_read_directed(const char *path, unsigned threads, struct tsg_graph *g,
			      struct io_webgraph_stats *st, struct tsg_err *err)
{
	char base[4096];
	if (base_of(path, base, sizeof(base)))
		return tsg_fail(err, TSG_EUSAGE, "%s: path too long", path);
	memset(st, 0, sizeof(*st));
	const double t0 = tsg_now();
	const int rc = load_merged(base, NULL, threads ? threads : 1, g, st, err);
	st->decode_s = tsg_now() - t0;
	return rc;
}

/* A transpose is only believed if the merged graph is symmetric: u in v's
 * list exactly when v is in u's (each entry's reverse looked up). */
int io_webgraph_load(const char *path, unsigned threads, int use_transpose,
		     const char *scratch_path, uint64_t mem_limit, struct tsg_graph *g,
		     struct io_webgraph_stats *st, struct tsg_err *err)
{
	char base[4096], tbase[4200], tprops[4300];
	struct stat sb;
	if (base_of(path, base, sizeof(base)))
		return tsg_fail(err, TSG_EUSAGE, "%s: path too long", path);
	threads = threads ? threads : 1;
	memset(st, 0, sizeof(*st));
	const double t0 = tsg_now();
	snprintf(tbase, sizeof(tbase), "%s-t", base);
	snprintf(tprops, sizeof(tprops), "%s.properties", tbase);
	int rc;
	if (use_transpose && stat(tprops, &sb) == 0) { /* == io_webgraph_has_transpose */
		/* the transpose is checked to be the graph's by a signed hash of
		 * every arc as it is decoded (load_range), so the merge is
		 * symmetric; an exact check of the whole graph's symmetry cost as
		 * much as the decoding itself */
		rc = load_merged(base, tbase, threads, g, st, err);
		st->decode_s = tsg_now() - t0;
	} else if (!scratch_path) {
		return tsg_fail(err, TSG_EINTERNAL, "%s: no transpose and no scratch path to sort "
				"into", path);
	} else {
		struct io_builder_opts bo = { .threads = threads, .mem_limit = mem_limit };
		struct io_builder *b;
		struct io_build_stats bs;
		rc = io_builder_new(&bo, &b, err);
		if (rc)
			return rc;
		rc = io_webgraph_feed(path, threads, use_transpose, b, st, err);
		if (rc == TSG_OK)
			rc = io_builder_finish(b, scratch_path, &bs, err); /* frees b */
		else
			io_builder_free(b);
		st->decode_s = tsg_now() - t0;
		if (rc == TSG_OK) {
			struct io_load_opts lo = { .io = IO_MODE_AUTO, .threads = threads };
			rc = io_graph_load(scratch_path, &lo, g, err);
			unlink(scratch_path);
		}
	}
	/* st->nodes and arcs were filled where the graph was opened */
	if (rc == TSG_OK)
		st->arcs_per_s = st->decode_s > 0 ? (double)st->arcs * (1 + st->transpose) /
							    st->decode_s : 0;
	return rc;
}

/* ---- a crawl decoded by node ranges, in bounded memory (io_crawl) ---- */

struct io_crawl {
	struct bv_graph g, t;
	uint64_t identity;
};

struct io_crawl_dec {
	const struct io_crawl *c;
	struct decoder dg, dt;
};

int io_crawl_open(const char *path, unsigned threads, struct io_crawl **out,
		  struct io_webgraph_stats *st, struct tsg_err *err)
{
	char base[4096], tbase[4200];
	int ts = 0;
	*out = NULL;
	memset(st, 0, sizeof(*st));
	if (base_of(path, base, sizeof(base)))
		return tsg_fail(err, TSG_EUSAGE, "%s: path too long", path);
	if (!io_webgraph_has_transpose(path))
		return tsg_fail(err, TSG_EINPUT, "%s: no transpose %s-t.properties beside it "
				"(a crawl is counted in bounded memory only with its transpose)",
				path, base);
	snprintf(tbase, sizeof(tbase), "%s-t", base);
	struct io_crawl *c = calloc(1, sizeof(*c));
	if (!c)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	const double t0 = tsg_now();
	/* both opened at once, then each file's offsets decoded on every
	 * thread (bv_read_offsets_par: one thread a file took 12 s of a 1 G-page
	 * crawl's 193); the .graph files are read as ranges are decoded
	 * (BV_PART: no readahead of a crawl that may be larger than the page
	 * cache). A file without offsets is scanned by bv_open. */
	struct open_job tj = { .base = tbase, .g = &c->t, .scanned = &ts,
			       .flags = BV_PART | BV_DEFER };
	pthread_t tt;
	const int threaded = threads > 1 && pthread_create(&tt, NULL, open_main, &tj) == 0;
	int rc = bv_open(base, &c->g, &st->offsets_scanned, BV_PART | BV_DEFER, err);
	if (threaded)
		pthread_join(tt, NULL);
	else if (rc == TSG_OK)
		open_main(&tj);
	if (rc == TSG_OK && tj.rc) {
		rc = tj.rc;
		*err = tj.err;
	}
	if (rc == TSG_OK && c->g.obytes)
		rc = bv_read_offsets_par(&c->g, threads, err);
	if (rc == TSG_OK && c->t.obytes)
		rc = bv_read_offsets_par(&c->t, threads, err);
	if (rc == TSG_OK && (c->t.p.nodes != c->g.p.nodes || c->t.p.arcs != c->g.p.arcs))
		rc = tsg_fail(err, TSG_EINPUT, "%s: the transpose has %llu nodes and %llu arcs, the "
			      "graph %llu and %llu", c->t.path, (unsigned long long)c->t.p.nodes,
			      (unsigned long long)c->t.p.arcs, (unsigned long long)c->g.p.nodes,
			      (unsigned long long)c->g.p.arcs);
	if (rc) {
		io_crawl_close(c);
		return rc;
	}
	/* as io_webgraph_open_ranges keys a crawl: its node and arc counts and
	 * where every list lies in both files (a checkpoint's identity) */
	const uint64_t nv = c->g.p.nodes;
	uint64_t key = io_checksum(c->g.off, (nv + 1) * sizeof(uint64_t)) * 31 +
		       io_checksum(c->t.off, (nv + 1) * sizeof(uint64_t));
	key ^= c->g.p.arcs * 0x9e3779b97f4a7c15ull;
	c->identity = key ? key : 1;
	st->offsets_scanned |= ts;
	st->transpose = 1;
	st->nodes = nv;
	st->arcs = c->g.p.arcs;
	st->graph_bytes = (c->g.nbits + c->t.nbits) / 8;
	st->open_s = st->decode_s = tsg_now() - t0;
	*out = c;
	return TSG_OK;
}

void io_crawl_close(struct io_crawl *c)
{
	if (!c)
		return;
	bv_free(&c->g);
	bv_free(&c->t);
	free(c);
}

uint64_t io_crawl_nodes(const struct io_crawl *c) { return c->g.p.nodes; }
uint64_t io_crawl_arcs(const struct io_crawl *c) { return c->g.p.arcs; }
uint64_t io_crawl_identity(const struct io_crawl *c) { return c->identity; }
const char *io_crawl_name(const struct io_crawl *c) { return c->g.path; }

uint64_t io_crawl_bits(const struct io_crawl *c, uint64_t v)
{
	return c->g.off[v] - c->g.off[0] + c->t.off[v] - c->t.off[0];
}

uint64_t io_crawl_offsets_bytes(uint64_t nodes)
{
	return 2 * (nodes + 1) * sizeof(uint64_t);
}

int io_crawl_bounds(const struct io_crawl *c, unsigned threads, uint64_t **bound,
		    uint64_t *total, uint64_t *max, struct tsg_err *err)
{
	atomic_int never = 0; /* the offsets are whole (bv_open read them) */
	if (bounds_make(&c->g, &c->t, threads, &never, bound, total, max))
		return tsg_fail(err, TSG_ENOMEM, "%s: out of memory for %llu degree bounds",
				c->g.path, (unsigned long long)c->g.p.nodes);
	return TSG_OK;
}

int io_crawl_dec_new(const struct io_crawl *c, struct io_crawl_dec **out)
{
	struct io_crawl_dec *d = calloc(1, sizeof(*d));
	*out = NULL;
	if (!d)
		return -1;
	d->c = c;
	if (dec_init(&d->dg, &c->g) || dec_init(&d->dt, &c->t)) {
		io_crawl_dec_free(d);
		return -1;
	}
	*out = d;
	return 0;
}

void io_crawl_dec_free(struct io_crawl_dec *d)
{
	if (!d)
		return;
	dec_free(&d->dg);
	dec_free(&d->dt);
	free(d);
}

/* The error of a decoder that failed at node v of file f (or, with why,
 * of a list that is not where .offsets says it is). */
static int crawl_dec_fail(struct io_crawl_dec *d, int in_t, uint64_t v, const char *why,
			  struct tsg_err *err)
{
	struct decoder *dd = in_t ? &d->dt : &d->dg;
	if (why)
		dec_fail(dd, v, why);
	return decoder_error(dd, in_t ? &d->c->t : &d->c->g, err);
}

int io_crawl_decode(struct io_crawl_dec *d, uint64_t lo, uint64_t hi, uint64_t *off,
		    uint32_t *adj, uint64_t cap, struct io_crawl_sums *sums, struct tsg_err *err)
{
	const struct io_crawl *c = d->c;
	struct bits rg = { .b = c->g.bytes, .pos = c->g.off[lo], .end = c->g.nbits };
	struct bits rt = { .b = c->t.bytes, .pos = c->t.off[lo], .end = c->t.nbits };
	uint64_t n = 0, arcs = 0, tsum = 0;
	const int hash = sums != NULL;
	/* each range decodes alone: references before lo by random access */
	for (unsigned i = 0; i < d->dg.slots; i++)
		d->dg.win_node[i] = UINT64_MAX;
	for (unsigned i = 0; i < d->dt.slots; i++)
		d->dt.win_node[i] = UINT64_MAX;
	off[0] = 0;
	for (uint64_t v = lo; v < hi; v++) {
		const struct ids *lo_, *li;
		/* each list where .offsets says: its first code, its outdegree,
		 * is then the bound that sized adj (io_crawl_bounds) */
		if (rg.pos != c->g.off[v])
			return crawl_dec_fail(d, 0, v, "a list that does not start where .offsets says",
					      err);
		if (rt.pos != c->t.off[v])
			return crawl_dec_fail(d, 1, v, "a list that does not start where .offsets says",
					      err);
		if (decode_next(&d->dg, v, &rg, &lo_))
			return crawl_dec_fail(d, 0, v, NULL, err);
		if (decode_next(&d->dt, v, &rt, &li))
			return crawl_dec_fail(d, 1, v, NULL, err);
		arcs += lo_->n + li->n;
		for (uint64_t i = 0; hash && i < lo_->n; i++)
			tsum += io_check_pair_hash(v, lo_->v[i]);
		for (uint64_t i = 0; hash && i < li->n; i++)
			tsum -= io_check_pair_hash(li->v[i], v);
		/* merge_sym writes one id past what it keeps (self, dropped); the
		 * union of the two lists is at most every other node */
		const uint64_t most = c->g.p.nodes ? c->g.p.nodes - 1 : 0;
		if ((lo_->n + li->n < most ? lo_->n + li->n : most) + 1 > cap - n)
			return tsg_fail(err, TSG_EINTERNAL, "%s: nodes %llu..%llu: more neighbours "
					"than the room their outdegrees gave", c->g.path,
					(unsigned long long)lo, (unsigned long long)hi - 1);
		n += merge_sym(lo_->v, lo_->n, li->v, li->n, (uint32_t)v, adj + n);
		off[v - lo + 1] = n;
	}
	if (rg.pos != c->g.off[hi])
		return crawl_dec_fail(d, 0, hi - 1, "a list that does not end where .offsets says "
				      "the next begins", err);
	if (rt.pos != c->t.off[hi])
		return crawl_dec_fail(d, 1, hi - 1, "a list that does not end where .offsets says "
				      "the next begins", err);
	if (hash) {
		sums->arcs += arcs;
		sums->tsum += tsum;
	}
	return TSG_OK;
}

int io_crawl_check(const struct io_crawl *c, const struct io_crawl_sums *s, struct tsg_err *err)
{
	return sums_check(&c->g, &c->t, s->arcs, s->tsum, err);
}
