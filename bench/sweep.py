#!/usr/bin/env python3
"""bench/sweep.py - a crawl counted in bounded memory (layout sweep) beside
the in-memory count, side by side in one run, medians of several runs.

  bench/sweep.py BUILD_DIR CRAWL [CRAWL ...] [--runs 3] [--cold]
                 [--bounded HOST_MEM,GPU_MEM] [--jsonl FILE] [--device cpu]

Each CRAWL is a BVGraph base with its transpose beside it. Variants:
  inmem    --device gpu: the crawl decoded whole into memory (arrival layout)
  sweep    --layout sweep --device gpu
  bounded  --layout sweep --host-mem H --gpu-mem G (each --bounded pair)
  NAME     --variant "NAME=ARGS" (repeatable): --layout sweep --device gpu
           and ARGS, e.g. "b1000=--batches 1000" (smaller chunks: less
           pinned chunk buffer, JSON sweep.buffers_s: what pinning
           left after the plan; sweep.pin_s: the thread that pinned
           during it)
Where the build keeps decoded chunks between passes (JSON sweep.kept_chunks,
decoded_from_kept), the table says how many; TSG_TEST_SWEEP_KEEP=0 in the
environment keeps none (an A/B within one build).
--before DIR adds the bounded variants again from another build (its
tristream), named "... before", interleaved with the rest: an A/B of a
change to the sweep's passes in one run.
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
    before = take_opt(args, "--before", str, None)
    dev = take_opt(args, "--device", str, "gpu")  # cpu: to try the script without a GPU
    extra = []
    while "--variant" in args:
        name, _, opts = take_opt(args, "--variant", str, "").partition("=")
        extra.append((name, ["--device", dev, "--layout", "sweep"] + opts.split()))
    cold = "--cold" in args
    if cold:
        args.remove("--cold")
    if len(args) < 2:
        sys.exit(__doc__)
    build, crawls = args[0], args[1:]
    tri = os.path.join(build, "tristream")
    swept = [("sweep", ["--device", dev, "--layout", "sweep"])]
    for pair in filter(None, bounded.split(";")):
        hm, gm = pair.split(",")
        swept.append((f"bounded {hm}/{gm}", ["--device", dev, "--layout", "sweep",
                                             "--host-mem", hm, "--gpu-mem", gm]))
    swept += extra
    variants = [("inmem", tri, ["--device", dev])] + [(n, tri, o) for n, o in swept]
    if before:
        variants += [(n + " before", os.path.join(before, "tristream"), o) for n, o in swept
                     if n.startswith("bounded")]
    out = open(jsonl, "a") if jsonl else None
    rows = []
    for crawl in crawls:
        counts = set()
        res = {name: [] for name, _, _ in variants}
        for r in range(runs):
            for name, binary, opts in variants:  # interleaved: drift hits every variant alike
                if cold:
                    drop_caches()
                j, wall = timed([binary, "count", "--quiet", "--json"] + opts + [crawl])
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
        for name, _, _ in variants:
            js = res[name]
            if not js:
                rows.append([os.path.basename(crawl), name, "failed"] + [""] * 11)
                continue
            wall = statistics.median(j["wall"] for j in js)
            sw = [j.get("sweep", {}) for j in js]
            med = lambda k: f"{statistics.median(x.get(k, 0) for x in sw):.2f}"
            rows.append([os.path.basename(crawl), name, f"{wall:.2f}",
                         f"{wall / base:.2f}x" if base else "",
                         js[0].get("passes", ""), js[0].get("sweep", {}).get("chunks_decoded", ""),
                         f'{js[0].get("sweep", {}).get("kept_chunks", "-")} / '
                         f'{js[0].get("sweep", {}).get("decoded_from_kept", "-")}',
                         med("fill_s"), med("past_s"), med("buffers_s"), med("pin_s"),
                         med("decode_thread_s"), js[0]["triangles"],
                         "yes" if len(counts) == 1 else "NO"])
    print_table(["crawl", "variant", "wall s (median)", "vs inmem", "passes", "chunks decoded", "kept / used kept", "fill s",
                 "sweep-past s", "buffers s", "pinned ahead s", "decode thread-s", "triangles", "all equal"], rows)

if __name__ == "__main__":
    main()
