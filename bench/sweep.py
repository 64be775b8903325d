#!/usr/bin/env python3
"""bench/sweep.py - a crawl counted in bounded memory (layout sweep) beside
the in-memory count, side by side in one run, medians of several runs.

  bench/sweep.py BUILD_DIR CRAWL [CRAWL ...] [--runs 3] [--cold]
                 [--bounded HOST_MEM,GPU_MEM] [--jsonl FILE]

Each CRAWL is a BVGraph base with its transpose beside it. Variants:
  inmem    --device gpu: the crawl decoded whole into memory (arrival layout)
  sweep    --layout sweep --device gpu
  bounded  --layout sweep --host-mem H --gpu-mem G (each --bounded pair)
Whole-process seconds are timed here (wall) beside the engine's stages;
--cold drops the page cache before each run (root). Prints one Markdown
table last; every run's JSON goes to --jsonl, with the variant and wall."""
import json, os, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import drop_caches, print_table, take_opt, timed

def main():
    args = sys.argv[1:]
    runs = take_opt(args, "--runs", int, 3)
    jsonl = take_opt(args, "--jsonl", str, None)
    bounded = take_opt(args, "--bounded", str, "")
    cold = "--cold" in args
    if cold:
        args.remove("--cold")
    if len(args) < 2:
        sys.exit(__doc__)
    build, crawls = args[0], args[1:]
    tri = os.path.join(build, "tristream")
    variants = [("inmem", ["--device", "gpu"]),
                ("sweep", ["--device", "gpu", "--layout", "sweep"])]
    for pair in filter(None, bounded.split(";")):
        hm, gm = pair.split(",")
        variants.append((f"bounded {hm}/{gm}", ["--device", "gpu", "--layout", "sweep",
                                                "--host-mem", hm, "--gpu-mem", gm]))
    out = open(jsonl, "a") if jsonl else None
    rows = []
    for crawl in crawls:
        counts = set()
        res = {name: [] for name, _ in variants}
        for r in range(runs):
            for name, opts in variants:  # interleaved: drift hits every variant alike
                if cold:
                    drop_caches()
                j, wall = timed([tri, "count", "--quiet", "--json"] + opts + [crawl])
                j.update({"variant": name, "wall": wall, "run": r, "cold": cold})
                if out:
                    out.write(json.dumps(j) + "\n")
                    out.flush()
                if "error" in j:
                    print(f"{crawl} {name}: {j}", file=sys.stderr)
                    continue
                counts.add(j["triangles"])
                res[name].append(j)
        base = statistics.median([j["wall"] for j in res["inmem"]]) if res["inmem"] else None
        for name, _ in variants:
            js = res[name]
            if not js:
                rows.append([os.path.basename(crawl), name, "failed"] + [""] * 7)
                continue
            wall = statistics.median(j["wall"] for j in js)
            sw = [j.get("sweep", {}) for j in js]
            med = lambda k: f"{statistics.median(x.get(k, 0) for x in sw):.2f}"
            rows.append([os.path.basename(crawl), name, f"{wall:.2f}",
                         f"{wall / base:.2f}x" if base else "",
                         js[0].get("passes", ""), med("fill_s"), med("past_s"),
                         med("decode_thread_s"), js[0]["triangles"],
                         "yes" if len(counts) == 1 else "NO"])
    print_table(["crawl", "variant", "wall s (median)", "vs inmem", "passes", "fill s",
                 "sweep-past s", "decode thread-s", "triangles", "all equal"], rows)

if __name__ == "__main__":
    main()
