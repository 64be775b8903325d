#!/usr/bin/env python3
"""bench/gpu_bench.py - GPU kernel and out-of-core streaming benchmark.

    bench/gpu_bench.py BUILD_DIR SCALE [SCALE ...] [--runs 3] [--oc 2,4,8] [--out FILE]
                       [--no-lstc-oc] [--kernels LIST] [--no-lstc-layout] [--no-cpu]

For each R-MAT scale (edge factor 16, tristream-gen seed 1) it times, side by
side in one run, medians of --runs runs:
  - the in-memory kernels (one unit, graph resident): mid-hash, lstc,
    lstc-paper, lstc-hash on the block layout, and lstc on the LSTC layout
    (id order)
  - end-to-end engine time (default kernel: mid-hash on the block layout,
    lstc on the LSTC layout) in memory, both layouts, and out of core with
    --gpu-mem so that a slot holds 1/2, 1/4, 1/8 (--oc) of the in-memory
    footprint (automatic planning, block layout, the oriented graph in
    ordinary and in pinned host memory; the LSTC layout at the
    first fraction too, up to scale 21, since it takes minutes beyond)
  - the orientation written in two passes (--orient two-pass) beside the
    default one pass, in memory
  - the CPU backend, all host threads (one run from scale 24 on)
and prints a table with TEPS (undirected edges per second). Every GPU count
is checked against the CPU count; with --no-cpu (graphs where the CPU takes
minutes) against the in-memory mid-hash count instead. --kernels picks the
in-memory kernels timed; --no-lstc-layout leaves out the LSTC layout's rows.
Raw JSON lines go to --out.
"""
import json, os, statistics, sys

from benchlib import rmat_graphs, run_json as run, take_opt

def main():
    args = sys.argv[1:]
    runs = take_opt(args, "--runs", int, 3)
    out = take_opt(args, "--out", str, None)
    divs = take_opt(args, "--oc", lambda v: [int(x) for x in v.split(",") if x], [2, 4, 8])
    kernels = take_opt(args, "--kernels", lambda v: v.split(","),
                       ["mid-hash", "lstc", "lstc-paper", "lstc-hash"])
    flags = {f: f in args for f in ("--no-lstc-oc", "--no-lstc-layout", "--no-cpu")}
    lstc_oc = not flags["--no-lstc-oc"]
    args = [a for a in args if a not in flags]
    build, scales = args[0], [int(s) for s in args[1:]]
    tri = os.path.join(build, "tristream")
    log = open(out, "a") if out else None
    rows = []
    for scale, g in rmat_graphs(build, scales):
        def measure(label, extra, key):
            times, res = [], None
            for _ in range(runs):
                res = run([tri, "count", "--quiet", "--json", g] + extra)
                times.append(key(res))
                if log:
                    log.write(json.dumps({"scale": scale, "variant": label, **res}) + "\n")
            return statistics.median(times), res
        if flags["--no-cpu"]:
            cpu = run([tri, "count", "--quiet", "--json", g, "--device", "gpu",
                       "--partitions", "1", "--kernel", "mid-hash"])
            okword = "=gpu"
        else:
            saved, runs = runs, (runs if scale < 24 else 1)  # the CPU takes long on big graphs
            cpu_t, cpu = measure("cpu", ["--device", "cpu"], lambda r: r["stages"]["engine"])
            runs = saved
            okword = "ok"
        ref, m = cpu["triangles"], cpu["edges"]
        def add(label, t, res, kind):
            ok = okword if res["triangles"] == ref else f"WRONG {res['triangles']}"
            st = res["stages"]
            rows.append((scale, m, label, kind, t, res["partitions"], m / t if t else 0, ok,
                         res.get("overlap", 0), st["build"], st["count"],
                         res.get("h2d_bytes", 0)))
        if not flags["--no-cpu"]:
            add("cpu " + cpu["kernel"], cpu_t, cpu, "engine")
        kern = lambda r: sum(p["kernel_ms"] for p in r["partition_stats"]) / 1000
        eng = lambda r: r["stages"]["engine"]
        for k in kernels:
            t, res = measure(k, ["--device", "gpu", "--partitions", "1", "--kernel", k], kern)
            add(k, t, res, "kernel")
        if not flags["--no-lstc-layout"]:
            t, res = measure("lstc-layout-kernel", ["--device", "gpu", "--partitions", "1",
                                                     "--layout", "lstc"], kern)
            add("lstc, lstc layout", t, res, "kernel")
        t, res = measure("in-memory", ["--device", "gpu", "--partitions", "1"], eng)
        add("block P=1", t, res, "engine")
        # rows plus the default kernel's (mid-hash) scratch: 8 bytes per
        # row and per edge, 16 KiB (kernels/gpu_kernels.c), slot overhead
        foot = (res["partition_stats"][0]["bytes"] + 8 * res["id_range"] +
                8 * res["edges"] + 16384 + 8192)
        t, r2 = measure("in-memory-pinned", ["--device", "gpu", "--partitions", "1",
                                              "--pin-host", "on"], eng)
        add("block P=1 pinned", t, r2, "engine")
        t, r2 = measure("in-memory-two-pass", ["--device", "gpu", "--partitions", "1",
                                                "--orient", "two-pass"], eng)
        add("block P=1 two-pass", t, r2, "engine")
        if not flags["--no-lstc-layout"]:
            t, r2 = measure("in-memory-lstc", ["--device", "gpu", "--partitions", "1",
                                                "--layout", "lstc"], eng)
            add("lstc layout P=1", t, r2, "engine")
        for div in divs:
            mem = 2 * foot // div  # two slots: each holds 1/div of the footprint
            t, r2 = measure(f"1/{div}", ["--device", "gpu", "--gpu-mem", str(mem)], eng)
            add(f"block mem 1/{div}", t, r2, "engine")
            t, r2 = measure(f"1/{div} pinned", ["--device", "gpu", "--gpu-mem", str(mem),
                                                "--pin-host", "on"], eng)
            add(f"block mem 1/{div} pinned", t, r2, "engine")
            if lstc_oc and div == divs[0] and scale <= 21:
                t, r2 = measure(f"lstc 1/{div}", ["--device", "gpu", "--gpu-mem", str(mem),
                                                  "--layout", "lstc"], eng)
                add(f"lstc layout mem 1/{div}", t, r2, "engine")
    print(f"{'scale':>5} {'edges':>11} {'variant':<24} {'timed':<7} {'median s':>9} {'units':>5} "
          f"{'MTEPS':>9} {'build s':>8} {'count s':>8} {'H2D GB':>7} {'overlap':>7} check")
    for s, m, label, kind, t, p, teps, ok, ov, b, c, h in rows:
        print(f"{s:>5} {m:>11} {label:<24} {kind:<7} {t:>9.4f} {p:>5} {teps/1e6:>9.1f} "
              f"{b:>8.3f} {c:>8.3f} {h/1e9:>7.2f} {ov:>7.2f} {ok}")

if __name__ == "__main__":
    main()
