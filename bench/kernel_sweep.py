#!/usr/bin/env python3
"""bench/kernel_sweep.py - GPU kernels side by side, graph resident.

    bench/kernel_sweep.py BUILD_DIR SCALE [SCALE ...] [--runs 5]
                          [--variants lstc,lstc-paper,mid-hash:512,...] [--out FILE]

For each R-MAT scale (edge factor 16, tristream-gen seed 1) it runs every
variant (KERNEL or KERNEL:TILE, --tile meaning the kernel's tile or table
width) as one unit on the block layout and prints the median of --runs
kernel times (CUDA events around the kernels of the unit, so it includes
each kernel's own preprocessing on the device, such as mid-hash's grouping
by middle vertex, and excludes the copy), TEPS (undirected edges per
second) and the speedup over the first variant. Every count is checked
against the first variant's count and, up to scale 22, the CPU's.
"""
import json, os, statistics, sys

from benchlib import rmat_graphs, run_json as run, take_opt

def main():
    args = sys.argv[1:]
    runs = take_opt(args, "--runs", int, 5)
    variants = take_opt(args, "--variants", str, "lstc,lstc-paper,lstc-hash,mid-hash")
    out = take_opt(args, "--out", str, None)
    build, scales = args[0], [int(s) for s in args[1:]]
    tri = os.path.join(build, "tristream")
    log = open(out, "a") if out else None
    rows = []
    for scale, g in rmat_graphs(build, scales):
        ref = None
        if scale <= 22:
            ref = run([tri, "count", "--quiet", "--json", "--device", "cpu", g])["triangles"]
        first = None
        for v in variants.split(","):
            k, _, tile = v.partition(":")
            extra = ["--device", "gpu", "--partitions", "1", "--kernel", k]
            if tile:
                extra += ["--tile", tile]
            times, res = [], None
            for _ in range(runs):
                res = run([tri, "count", "--quiet", "--json", g] + extra)
                times.append(sum(p["kernel_ms"] for p in res["partition_stats"]))
                if log:
                    log.write(json.dumps({"scale": scale, "variant": v, **res}) + "\n")
            t = statistics.median(times)
            if ref is None:
                ref = res["triangles"]
            if first is None:
                first = t
            ok = "ok" if res["triangles"] == ref else f"WRONG {res['triangles']} vs {ref}"
            m = res["edges"]
            rows.append((scale, m, res["triangles"], v, t, min(times), max(times),
                         m / (t / 1000) / 1e9, first / t, ok))
    print(f"{'scale':>5} {'edges':>11} {'triangles':>13} {'variant':<16} {'median ms':>10} "
          f"{'min':>8} {'max':>8} {'GTEPS':>6} {'vs 1st':>6} check")
    for r in rows:
        print(f"{r[0]:>5} {r[1]:>11} {r[2]:>13} {r[3]:<16} {r[4]:>10.2f} {r[5]:>8.2f} "
              f"{r[6]:>8.2f} {r[7]:>6.2f} {r[8]:>6.2f} {r[9]}")
    sys.exit(0 if all(r[9] == "ok" for r in rows) else 1)

if __name__ == "__main__":
    main()
