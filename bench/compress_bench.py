#!/usr/bin/env python3
"""bench/compress_bench.py - LZ4 graph files: ratio, encode time, cold reads.

    bench/compress_bench.py BUILD_DIR WORK_DIR GRAPH_OR_KIND [...] [--runs 3]

Each argument is a graph file, a text edge list (converted first), "rmat:S"
(R-MAT scale S, scrambled ids) or "web:N" (tristream-gen web, N vertices:
ids with locality, like a crawl ordered by URL). For each graph it writes
the LZ4 version, then reads both files cold, side by side: `dd` with
O_DIRECT (the disk's raw sequential speed), and `tristream count
--plan-only --device cpu --io uring` (O_DIRECT, so the page cache cannot
help), whose read stage includes decoding. It prints the compression
ratio, the encode time, and graph bytes delivered per second (plain bytes
/ read time), medians of --runs runs.
"""
import json, os, re, statistics, subprocess, sys


def run_json(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def dd_rate(path):
    p = subprocess.run(["dd", f"if={path}", "of=/dev/null", "bs=64M", "iflag=direct"],
                       capture_output=True, text=True)
    m = re.search(r"copied, ([0-9.]+) s", p.stderr)
    return os.path.getsize(path) / float(m.group(1)) if m else 0.0


def main():
    args = sys.argv[1:]
    runs = 3
    if "--runs" in args:
        i = args.index("--runs"); runs = int(args[i + 1]); del args[i:i + 2]
    build, work, inputs = args[0], args[1], args[2:]
    tri = os.path.join(build, "tristream")
    gen = os.path.join(build, "tristream-gen")
    os.makedirs(work, exist_ok=True)
    rows = []
    for inp in inputs:
        if inp.startswith("rmat:"):
            name, g = f"R-MAT {inp[5:]}", os.path.join(work, f"rmat{inp[5:]}.tsg")
            subprocess.run([gen, "--quiet", "rmat", "--scale", inp[5:], "--seed", "1", g], check=True)
        elif inp.startswith("web:"):
            name, g = f"web {inp[4:]}", os.path.join(work, f"web{inp[4:]}.tsg")
            subprocess.run([gen, "--quiet", "web", "--vertices", inp[4:], "--seed", "1", g],
                           check=True)
        elif inp.endswith(".tsg"):
            name, g = os.path.basename(inp), inp
        else:
            name, g = os.path.basename(inp), os.path.join(work, os.path.basename(inp) + ".tsg")
            subprocess.run([os.path.join(build, "tristream-convert"), "--quiet", "--skip-bad-lines",
                            inp, g], check=True)
        z = g[:-4] + ".lz4.tsg"
        c = run_json([tri, "compress", "--json", g, z])
        plain = c["input_bytes"]
        res = {}
        for label, path in (("plain", g), ("lz4", z)):
            reads, dds = [], []
            for _ in range(runs):
                dds.append(dd_rate(path))
                r = run_json([tri, "count", "--quiet", "--json", "--plan-only", "--device", "cpu",
                              "--io", "uring", "--partitions", "1", path])
                reads.append(r["stages"]["read"])
            res[label] = (statistics.median(reads), statistics.median(dds))
        rows.append((name, plain, c["output_bytes"], c["ratio"], c["write_s"], res))
    print(f"{'graph':<22} {'plain MB':>9} {'lz4 MB':>8} {'ratio':>6} {'encode s':>8} "
          f"{'dd GB/s':>8} {'plain read':>10} {'GB/s':>6} {'lz4 read':>9} {'graph GB/s':>10} "
          f"{'vs dd':>6}")
    for name, plain, comp, ratio, enc, res in rows:
        pr, pdd = res["plain"]
        zr, _ = res["lz4"]
        print(f"{name:<22} {plain / 1e6:>9.1f} {comp / 1e6:>8.1f} {ratio:>6.2f} {enc:>8.2f} "
              f"{pdd / 1e9:>8.2f} {pr:>9.3f}s {plain / pr / 1e9:>6.2f} {zr:>8.3f}s "
              f"{plain / zr / 1e9:>10.2f} {plain / zr / pdd if pdd else 0:>6.2f}")
    print(f"(medians of {runs}; 'graph GB/s' = plain bytes / LZ4 read-and-decode time; "
          f"'vs dd' = that over the disk's raw O_DIRECT rate)")


if __name__ == "__main__":
    main()
