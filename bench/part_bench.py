#!/usr/bin/env python3
"""bench/part_bench.py - partitioning time and size, every layout and scheme.

    bench/part_bench.py BUILD_DIR GRAPH_OR_SCALE [...] [--runs 3] [--parts 2,4,8,16]
                        [--lstc-max-edges N] [--out FILE]

Each argument is a tristream graph file, a text edge list (converted first),
or an R-MAT scale (generated with tristream-gen, seed 1). For each graph and
P it runs `tristream count --plan-only --device cpu` (build every part or
unit, count nothing) and prints, side by side, medians of --runs runs:

  - the block layout with Q = P rank blocks (Q(Q+1)/2 units): orientation
    time (the whole build) and planning time;
  - the LSTC layout for each scheme (edge, contig, hash, and metis where the
    build has it) with LOCAL pruning, and edge with Algorithm 2 (--prune
    lstc): plan + build time;

and for each: the vertices and edges all parts hold together relative to
the graph's (the replication the GPU must copy and count through), and the
largest part relative to the whole oriented graph (what sets the device
memory needed). LSTC-layout runs are skipped above --lstc-max-edges edges
(default 100 M): they take minutes there. Raw JSON lines go to --out.
"""
import json, os, statistics, subprocess, sys, tempfile


def opt(args, name, default, conv=str):
    if name in args:
        i = args.index(name)
        v = conv(args[i + 1])
        del args[i:i + 2]
        return v
    return default


def main():
    args = sys.argv[1:]
    runs = opt(args, "--runs", 3, int)
    parts = opt(args, "--parts", [2, 4, 8, 16], lambda s: [int(x) for x in s.split(",") if x])
    lstc_max = opt(args, "--lstc-max-edges", 100_000_000, int)
    out = opt(args, "--out", None)
    build, inputs = args[0], args[1:]
    tri = os.path.join(build, "tristream")
    version = subprocess.run([tri, "--version"], capture_output=True, text=True).stdout
    schemes = ["edge", "contig", "hash"] + (["metis"] if "METIS" in version else [])
    log = open(out, "a") if out else None
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for inp in inputs:
            if inp.isdigit():
                g, name = os.path.join(tmp, f"rmat{inp}.tsg"), f"rmat-{inp}"
                subprocess.run([os.path.join(build, "tristream-gen"), "--quiet", "rmat", "--scale",
                                inp, "--seed", "1", g], check=True)
            elif inp.endswith(".tsg"):
                g, name = inp, os.path.basename(inp)
            else:
                g, name = os.path.join(tmp, os.path.basename(inp) + ".tsg"), os.path.basename(inp)
                subprocess.run([os.path.join(build, "tristream-convert"), "--quiet",
                                "--skip-bad-lines", inp, g], check=True)

            def measure(extra):
                times, res = [], None
                for _ in range(runs):
                    p = subprocess.run([tri, "count", "--quiet", "--json", "--plan-only",
                                        "--device", "cpu", g] + extra, capture_output=True,
                                       text=True)
                    if p.returncode != 0:
                        return None, p.stderr.strip()
                    res = json.loads(p.stdout)
                    st = res["stages"]
                    times.append((st["plan"] + st["build"], st["plan"], st["build"]))
                    if log:
                        log.write(json.dumps({"graph": name, "args": extra, **res}) + "\n")
                return tuple(statistics.median(t[k] for t in times) for k in range(3)), res

            for p in parts:
                variants = [("block", "-", ["--layout", "block", "--partitions", str(p)])]
                first = None
                for s in schemes:
                    variants.append(("lstc", f"{s}/local", ["--layout", "lstc", "--scheme", s,
                                                             "--partitions", str(p)]))
                variants.append(("lstc", "edge/lstc", ["--layout", "lstc", "--scheme", "edge",
                                                        "--prune", "lstc", "--partitions", str(p)]))
                for layout, rule, extra in variants:
                    if layout == "lstc" and first and first["edges"] > lstc_max:
                        continue
                    t, res = measure(extra)
                    if t is None:
                        rows.append((name, layout, rule, p, None, res))
                        continue
                    first = first or res
                    nv, m = max(res["id_range"], 1), max(res["edges"], 1)
                    ps = res["partition_stats"]
                    whole = 8 * (nv + 1) + 4 * m
                    rows.append((name, layout, rule, p, t, (
                        res["partitions"], sum(x["v_res"] for x in ps) / nv,
                        sum(x["e_res"] for x in ps) / m,
                        max((x["bytes"] for x in ps), default=0) / whole, res["threads"])))
    print(f"{'graph':<26} {'layout':<6} {'scheme/rule':<12} {'P':>3} {'units':>5} {'total s':>8} "
          f"{'plan s':>7} {'build s':>8} {'V kept/V':>9} {'E kept/E':>9} {'max/DAG':>8}")
    for name, layout, rule, p, t, v in rows:
        if t is None:
            print(f"{name:<26} {layout:<6} {rule:<12} {p:>3} error: {v}")
            continue
        units, vr, er, mx, threads = v
        print(f"{name:<26} {layout:<6} {rule:<12} {p:>3} {units:>5} {t[0]:>8.3f} {t[1]:>7.3f} "
              f"{t[2]:>8.3f} {vr:>9.2f} {er:>9.2f} {mx:>8.3f}")
    print(f"(host threads: {rows[0][5][4] if rows and rows[0][4] else '?'}; medians of {runs} runs)")


if __name__ == "__main__":
    main()
