/*
 * pairs.c - the heavy part of bench/pairs_study.py (session 37): reads a
 * plain .tsg (docs/FORMAT.md; not LZ4, not oriented), orients it by rank
 * ((degree, id) ascending, as partition/orient.h), sorts every row by rank
 * and, over every oriented edge a -> b (rank(a) < rank(b)), sums into cell
 * (min(sa, sb), max(sa, sb)) of an F x F matrix, where sa, sb are the fine
 * slices of a's and b's ids (F contiguous id ranges of about equal list
 * entries, in file order):
 *   tail  = entries c of out(a) with rank(c) > rank(b)  (mid-hash's probes)
 *   whole = |out(a)|                                    (probes without a
 *           contiguous tail)
 *   edges = 1
 *   tri   = |out(a) & out(b)|  (the triangles at a -> b; unless NOTRI=1)
 * It writes them, with per-slice facts, to OUT (u64 little-endian; layout
 * in write_out below). Threads: OpenMP (OMP_NUM_THREADS).
 *
 *   gcc -O2 -fopenmp -o pairs pairs.c
 *   ./pairs GRAPH.tsg F OUT.bin
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <omp.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) { fprintf(stderr, "pairs: out of memory (%zu bytes)\n", n); exit(1); }
	return p;
}

static int cmp_u32(const void *x, const void *y)
{
	const uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return (a > b) - (a < b);
}

static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: pairs GRAPH.tsg F OUT.bin\n");
		return 2;
	}
	const uint32_t F = (uint32_t)strtoul(argv[2], NULL, 10);
	const int do_tri = !(getenv("NOTRI") && atoi(getenv("NOTRI")));
	const double t0 = now();
	int fd = open(argv[1], O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || F < 1) { perror(argv[1]); return 1; }
	const uint8_t *map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) { perror("mmap"); return 1; }
	if (memcmp(map, "TRISTRM\x1a", 8) || rd32(map + 8) != 1) { fprintf(stderr, "pairs: not a .tsg v1\n"); return 1; }
	if (rd32(map + 12) != 0) { fprintf(stderr, "pairs: flags %u: only a plain undirected .tsg\n", rd32(map + 12)); return 1; }
	const uint64_t nv64 = rd64(map + 24), nadj = rd64(map + 40);
	uint64_t off_at = 0, adj_at = 0;
	for (unsigned s = 0; s < rd32(map + 20) && s < 8; s++) {
		const uint8_t *e = map + 64 + 32 * s;
		if (rd32(e) == 1) off_at = rd64(e + 8);
		if (rd32(e) == 2) adj_at = rd64(e + 8);
	}
	if (!off_at || !adj_at || nv64 >= UINT32_MAX) { fprintf(stderr, "pairs: sections missing\n"); return 1; }
	const uint32_t nv = (uint32_t)nv64;
	const uint64_t *off = (const uint64_t *)(map + off_at);
	const uint32_t *adj = (const uint32_t *)(map + adj_at);
	madvise((void *)map, st.st_size, MADV_WILLNEED);

	/* rank by (degree, id): a counting sort on degree, stable in id */
	uint64_t maxd = 0;
	for (uint32_t v = 0; v < nv; v++) if (off[v + 1] - off[v] > maxd) maxd = off[v + 1] - off[v];
	uint64_t *cnt = calloc(maxd + 2, 8);
	for (uint32_t v = 0; v < nv; v++) cnt[off[v + 1] - off[v] + 1]++;
	for (uint64_t d = 1; d <= maxd + 1; d++) cnt[d] += cnt[d - 1];
	uint32_t *rank = xmalloc((size_t)nv * 4), *idof = xmalloc((size_t)nv * 4);
	for (uint32_t v = 0; v < nv; v++) { const uint32_t r = (uint32_t)cnt[off[v + 1] - off[v]]++; rank[v] = r; idof[r] = v; }
	free(cnt);

	/* oriented rows in rank space, each sorted by rank */
	uint64_t *oo = xmalloc(((size_t)nv + 1) * 8);
	oo[0] = 0;
	for (uint32_t r = 0; r < nv; r++) {
		const uint32_t v = idof[r];
		uint64_t n = 0;
		for (uint64_t x = off[v]; x < off[v + 1]; x++) n += rank[adj[x]] > r;
		oo[r + 1] = oo[r] + n;
	}
	const uint64_t m = oo[nv];
	uint32_t *oa = xmalloc(m * 4);
	#pragma omp parallel for schedule(dynamic, 4096)
	for (uint32_t r = 0; r < nv; r++) {
		const uint32_t v = idof[r];
		uint64_t k = oo[r];
		for (uint64_t x = off[v]; x < off[v + 1]; x++) { const uint32_t w = rank[adj[x]]; if (w > r) oa[k++] = w; }
		qsort(oa + oo[r], oo[r + 1] - oo[r], 4, cmp_u32);
	}
	fprintf(stderr, "pairs: %u vertices, %llu list entries, %llu oriented; oriented in %.1f s\n",
	        nv, (unsigned long long)nadj, (unsigned long long)m, now() - t0);

	/* fine slices: vertex sb[f] is the first with off[v] >= f * nadj / F */
	uint64_t *sb = xmalloc(((size_t)F + 1) * 8);
	uint16_t *sl = xmalloc((size_t)nv * 2); /* slice of each rank */
	if (F > 65535) { fprintf(stderr, "pairs: F at most 65535\n"); return 1; }
	{
		uint32_t v = 0;
		for (uint32_t f = 0; f <= F; f++) {
			const uint64_t target = (unsigned __int128)nadj * f / F;
			while (v < nv && off[v] < target) v++;
			sb[f] = f == F ? nv : v;
		}
		for (uint32_t f = 0; f < F; f++)
			for (uint64_t x = sb[f]; x < sb[f + 1]; x++) sl[rank[x]] = (uint16_t)f;
	}
	uint64_t *s_ent = calloc(F, 8), *s_ver = calloc(F, 8), *s_ori = calloc(F, 8);
	for (uint32_t f = 0; f < F; f++) {
		s_ent[f] = off[sb[f + 1]] - off[sb[f]];
		s_ver[f] = sb[f + 1] - sb[f];
		for (uint64_t x = sb[f]; x < sb[f + 1]; x++) s_ori[f] += oo[rank[x] + 1] - oo[rank[x]];
	}

	/* the per-edge sums, into per-thread matrices */
	const size_t cells = (size_t)F * F;
	const int nt = omp_get_max_threads();
	uint64_t *mat = calloc((size_t)nt * 4 * cells, 8);
	if (!mat) { fprintf(stderr, "pairs: out of memory (matrices)\n"); return 1; }
	const double t1 = now();
	#pragma omp parallel
	{
		const int t = omp_get_thread_num();
		uint64_t *mt = mat + (size_t)t * 4 * cells, *mw = mt + cells, *me = mw + cells, *mx = me + cells;
		uint32_t *mark = do_tri ? calloc(nv, 4) : NULL;
		#pragma omp for schedule(dynamic, 1024)
		for (uint32_t a = 0; a < nv; a++) {
			const uint64_t lo = oo[a], d = oo[a + 1] - lo;
			if (!d) continue;
			const uint32_t sa = sl[a];
			if (do_tri) for (uint64_t p = 0; p < d; p++) mark[oa[lo + p]] = a + 1;
			for (uint64_t p = 0; p < d; p++) {
				const uint32_t b = oa[lo + p], sbb = sl[b];
				const size_t c = sa <= sbb ? (size_t)sa * F + sbb : (size_t)sbb * F + sa;
				mt[c] += d - 1 - p;
				mw[c] += d;
				me[c] += 1;
				if (do_tri) {
					uint64_t n = 0;
					for (uint64_t y = oo[b]; y < oo[b + 1]; y++) n += mark[oa[y]] == a + 1;
					mx[c] += n;
				}
			}
		}
		free(mark);
	}
	for (int t = 1; t < nt; t++)
		for (size_t i = 0; i < 4 * cells; i++) mat[i] += mat[(size_t)t * 4 * cells + i];
	fprintf(stderr, "pairs: edge sums in %.1f s (%s)\n", now() - t1, do_tri ? "with triangles" : "no triangles");

	/* OUT: u64 words: magic 0x5041495253303031 ("PAIRS001"), F, nv, nadj,
	 * m (oriented entries), file bytes, section 2 offset, triangles done
	 * (0/1); then sb[F+1] (first vertex of each slice, nv last), s_ent[F]
	 * (list entries), s_ver[F] (vertices), s_ori[F] (oriented entries);
	 * then four F x F matrices (tail, whole, edges, tri), row = lower slice */
	FILE *o = fopen(argv[3], "wb");
	if (!o) { perror(argv[3]); return 1; }
	const uint64_t hdr[8] = { 0x5041495253303031ull, F, nv, nadj, m, (uint64_t)st.st_size, adj_at, (uint64_t)do_tri };
	int ok = fwrite(hdr, 8, 8, o) == 8 && fwrite(sb, 8, F + 1, o) == F + 1 &&
	         fwrite(s_ent, 8, F, o) == F && fwrite(s_ver, 8, F, o) == F && fwrite(s_ori, 8, F, o) == F &&
	         fwrite(mat, 8, 4 * cells, o) == 4 * cells;
	if (fclose(o) || !ok) { fprintf(stderr, "pairs: writing %s failed\n", argv[3]); return 1; }
	fprintf(stderr, "pairs: done in %.1f s\n", now() - t0);
	return 0;
}
