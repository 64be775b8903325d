#!/usr/bin/env python3
"""bench/ranges.py - ranks reading every list against ranks reading by
ranges (count --read ranges, src/ranges.h), side by side in one run.

    bench/ranges.py BUILD_DIR [--ranks 2,4,9] [--runs 3] [--scale 22]
                    [--web 22] [--crawl N] [--device gpu|cpu] [--gpu-mem 4G]
                    [--partitions P] [--reads all,ranges,host] [--cold]
                    [--out FILE]

Graphs: R-MAT SCALE as generated (scrambled ids), the same renumbered by
(degree, id) (tristream reorder), and a web-like crawl of 2^WEB vertices
(tristream-gen web, ids in URL-like order) renumbered; with --crawl N a
crawl of N vertices as LAW ships one (tristream-gen --webgraph crawl: a
BVGraph with its transpose, in crawl order), read from its BVGraph files,
whose bytes (ranges_lists_bytes) the ranks' read bytes are then out of.
--scale 0 or --web 0 leaves that graph out. For each graph and
rank count R, mpirun --bind-to none -n R runs with each --read of --reads
(default all, ranges and host: the host's ranks build one graph; block
layout, budget --gpu-mem on the GPU: every rank plans alike; --partitions P
fixes P blocks instead, P(P+1)/2 units, as on the CPU), --runs rounds
in turn; one process (-n 1) is the reference count. Reported: the largest
and mean list bytes a rank read over the lists' bytes (ranges; all: 1.00),
and medians of the process wall time, of rank 0's input decode (a crawl
read whole is decoded before the engine reads: under --read all each rank
decodes every list, and its rank_read_s is 0), and of the slowest rank's
read and build (orientation) times. With --cold the page cache is dropped before
every run (root only). On one host the ranks share one disk and its cores:
this measures what each rank reads, not what many hosts would gain
(docs/SCALING.md). Every count is checked against the one-process count.
Raw JSON lines go to --out; a table is printed last.
"""
import json, os, statistics, subprocess, sys, tempfile

from benchlib import MPI_ENV as ENV, drop_caches, print_table, take_opt, timed

def main():
    args = sys.argv[1:]
    ranks = take_opt(args, "--ranks", lambda s: [int(x) for x in s.split(",")], [2, 4, 9])
    runs = take_opt(args, "--runs", int, 3)
    scale = take_opt(args, "--scale", int, 22)
    web = take_opt(args, "--web", int, 22)
    crawl = take_opt(args, "--crawl", int, 0)
    device = take_opt(args, "--device", str, "gpu")
    mem = take_opt(args, "--gpu-mem", str, "4G")
    parts = take_opt(args, "--partitions", int, None)
    reads = take_opt(args, "--reads", lambda s: s.split(","), ["all", "ranges", "host"])
    out = take_opt(args, "--out", str, None)
    cold = "--cold" in args
    if cold:
        args.remove("--cold")
    if len(args) != 1:
        sys.exit(__doc__)
    build = args[0]
    ts = os.path.join(build, "tristream")
    raw = open(out, "a") if out else None
    rows = []
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_TMP")) as tmp:
        graphs = []
        gen = os.path.join(build, "tristream-gen")
        if scale:
            g = os.path.join(tmp, f"rmat{scale}.tsg")
            subprocess.run([gen, "--quiet", "rmat", "--scale", str(scale), "--seed", "1", g],
                           check=True)
            graphs.append((f"rmat{scale}", g))
            gr = os.path.join(tmp, f"rmat{scale}r.tsg")
            subprocess.run([ts, "reorder", "--quiet", g, gr], check=True)
            graphs.append((f"rmat{scale} reordered", gr))
        if web:
            w = os.path.join(tmp, f"web{web}.tsg")
            subprocess.run([gen, "--quiet", "web", "--vertices", str(1 << web), "--seed", "1", w],
                           check=True)
            wr = os.path.join(tmp, f"web{web}r.tsg")
            subprocess.run([ts, "reorder", "--quiet", w, wr], check=True)
            os.unlink(w)
            graphs.append((f"web{web} reordered", wr))
        if crawl:
            c = os.path.join(tmp, f"crawl{crawl}")
            subprocess.run([gen, "--quiet", "--seed", "4", "--webgraph", "crawl", "--vertices",
                            str(crawl), c], check=True)
            graphs.append((f"crawl {crawl} (BVGraph)", c))
        base = [ts, "count", "--quiet", "--json", "--device", device, "--layout", "block"]
        if device == "gpu":
            base += ["--gpu-mem", mem]
        if parts:
            base += ["--partitions", str(parts)]
        for name, path in graphs:
            ref, _ = timed(base + [path], ENV)
            want = ref.get("triangles")
            for r in ranks:
                res = {how: [] for how in reads}
                for k in range(runs):
                    for how in reads:
                        if cold:
                            drop_caches()
                        j, wall = timed(["mpirun", "--bind-to", "none", "-n", str(r)] + base + ["--read", how, path], ENV)
                        ok = j.get("triangles") == want and want is not None
                        rec = {"graph": name, "ranks": r, "read": how, "run": k, "wall": wall,
                               "ok": ok, "cold": cold, "result": j}
                        if raw:
                            raw.write(json.dumps(rec) + "\n")
                        if not ok:
                            print(f"MISMATCH {name} -n {r} --read {how}: {j.get('triangles')} "
                                  f"vs {want} {j.get('stderr', '')}", file=sys.stderr)
                            continue
                        lists = (j.get("ranges_lists_bytes") or j.get("host_lists_bytes")
                                 or j["edges"] * 8)
                        rb = j.get("rank_read_bytes") or [lists] * r
                        # a crawl read whole (--read all) is decoded before the
                        # engine reads anything: its time is the input's, not
                        # rank_read_s (rank 0's own; each rank decodes it all)
                        inp = (j.get("input") or {}).get("seconds", 0.0)
                        res[how].append((wall, max(j["rank_read_s"]), max(j["rank_build_s"]),
                                         max(rb) / lists, sum(rb) / len(rb) / lists, inp))
                for how in reads:
                    v = res[how]
                    if not v:
                        rows.append((name, r, how, "failed", "", "", "", "", "", ""))
                        continue
                    med = lambda i: statistics.median(x[i] for x in v)
                    rows.append((name, r, how, f"{med(3):.2f}", f"{med(4):.2f}", f"{med(0):.2f}",
                                 f"{med(5):.2f}", f"{med(1):.2f}", f"{med(2):.2f}", len(v)))
    if raw:
        raw.close()
    print(f"# bench/ranges.py: device {device}, runs {runs}, {'cold' if cold else 'warm'} file"
          + (f", --partitions {parts}" if parts else ""))
    print_table(["graph", "ranks", "read", "max rank bytes / lists", "mean", "wall s",
                 "input decode s (rank 0)", "read s (slowest)", "build s (slowest)", "runs"],
                rows)

if __name__ == "__main__":
    main()
