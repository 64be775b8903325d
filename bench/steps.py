#!/usr/bin/env python3
"""bench/steps.py - where a count's whole process goes, step by step:
each variant's runs under TSG_OPEN_PROFILE=1, their stamps (the process's
own steps in wall-clock seconds, base/util.h's tsg_profile_stamp; the GPU
engine's from its own start, src/pipeline_gpu.c) set on one clock from
the moment the process was launched, medians side by side. A k-clique
count (--k) is compared by its cliques.

    bench/steps.py BUILD_DIR GRAPH [--runs 3] [--out FILE] LABEL=OPTIONS...

e.g. bench/steps.py build r26o.tsg "one=--gpu 0" "two=--gpus 2". A
warm-up round first (not counted), then RUNS rounds, the variants
interleaved within each. Nothing is done to the page cache: read the file
first for a warm table. The GPU engine's stamps are placed from the
process's "gpu engine's clock" stamp, taken with that clock's zero.
Every run must succeed and every count agree, else the exit status is 1
(a usage error, a build without tristream or an --out that cannot be
written: 2). Raw stderr and JSON of every run go to --out (a JSON
lines file); a Markdown table is printed last: a row a step, ordered by
its median in the first variant that has it (a step stamped more than
once, as a GPU's open on each GPU, keeps its last), a column a variant.
"""
import json, os, re, shlex, statistics, subprocess, sys, time

from benchlib import print_table, take_opt

PROCESS = re.compile(r"process profile: (.*) at ([0-9]+\.[0-9]+)$")
ENGINE = re.compile(r"open profile: (.*?) at (-?[0-9.]+) s")
COUNT = re.compile(r"open profile: count from ([0-9.]+) to ([0-9.]+) s")
READ_END = re.compile(r"the read's end at ([0-9.]+) s")

def stamps(stderr, launch, end):
    """{step: seconds from the launch} of one run's stderr."""
    st = {"launch": 0.0, "whole": end - launch}
    engine0 = None
    for line in stderr.splitlines():
        m = PROCESS.match(line.strip())
        if m:
            st[m.group(1)] = float(m.group(2)) - launch
            if m.group(1) == "gpu engine's clock":
                engine0 = st[m.group(1)]
    if "main's return" in st:
        st["exit (main's return to the end)"] = st["whole"] - st["main's return"]
    if engine0 is None:
        return st
    for line in stderr.splitlines():
        count, step = COUNT.match(line.strip()), ENGINE.match(line.strip())
        if count:
            st["engine: count begun"] = engine0 + float(count.group(1))
            st["engine: count done"] = engine0 + float(count.group(2))
        elif step:
            st["engine: " + step.group(1)] = engine0 + float(step.group(2))
        m = READ_END.search(line)
        if m:
            st["engine: the read's end"] = engine0 + float(m.group(1))
    return st

def counted(result):
    """The run's count (triangles, or cliques under --k), or None."""
    if not isinstance(result, dict):
        return None
    c = result.get("triangles", result.get("cliques"))
    return c if isinstance(c, int) and not isinstance(c, bool) else None

def why(stderr):
    """A failed run's own words: its stderr less the profile's lines."""
    lines = [x for x in stderr.splitlines() if " profile: " not in x]
    return " / ".join(lines)[-300:]

def run(tristream, graph, options):
    """(JSON result or None, stderr, {step: seconds})"""
    env = dict(os.environ, TSG_OPEN_PROFILE="1")
    cmd = [tristream, "count", "--json"] + options + [graph]
    launch = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    end = time.time()
    result = None
    if p.returncode == 0:
        try:
            result = json.loads(p.stdout)
        except ValueError:
            result = None
    return result, p.stderr, stamps(p.stderr, launch, end)

def main(argv):
    args = argv[1:]
    try:
        runs = take_opt(args, "--runs", int, 3)
        out = take_opt(args, "--out", str, None)
    except (IndexError, ValueError):
        runs = 0
    if runs < 1 or len(args) < 3 or any("=" not in v for v in args[2:]):
        sys.stderr.write(__doc__)
        return 2
    build, graph = args[0], args[1]
    variants = [tuple(v.split("=", 1)) for v in args[2:]]
    if len({label for label, _ in variants}) != len(variants):
        sys.stderr.write("steps.py: two variants of one label\n")
        return 2
    try:
        words = {label: shlex.split(options) for label, options in variants}
    except ValueError as e:
        sys.stderr.write(f"steps.py: a variant's options: {e}\n")
        return 2
    tristream = os.path.join(build, "tristream")
    if not os.access(tristream, os.X_OK):
        sys.stderr.write(f"steps.py: no {tristream}\n")
        return 2
    try:
        log = open(out, "w") if out else None
    except OSError as e:
        sys.stderr.write(f"steps.py: --out: {e}\n")
        return 2
    seen = {label: [] for label, _ in variants}
    counts, bad = set(), 0
    for rnd in range(runs + 1):
        for label, options in variants:
            result, stderr, st = run(tristream, graph, words[label])
            if log:
                log.write(json.dumps({"variant": label, "round": rnd, "result": result,
                                      "stderr": stderr}) + "\n")
            c = counted(result)
            if c is None:
                sys.stderr.write(f"steps.py: {label} ({options}) failed: {why(stderr)}\n")
                bad = 1
                continue
            counts.add(c)
            if rnd > 0:
                seen[label].append(st)
    if log:
        log.close()
    if len(counts) > 1:
        sys.stderr.write(f"steps.py: the counts disagree: {sorted(counts)}\n")
        bad = 1
    last = ["whole", "exit (main's return to the end)"]
    at = {}  # a step's median in the first variant that has it
    for label, _ in variants:
        for st in seen[label]:
            for k in st:
                if k not in at and k not in last:
                    at[k] = statistics.median(x[k] for x in seen[label] if k in x)
    order = sorted(at, key=lambda k: at[k]) + last
    rows = []
    for k in order:
        row = [k]
        for label, _ in variants:
            v = [st[k] for st in seen[label] if k in st]
            row.append("%.3f" % statistics.median(v) if v else "-")
        rows.append(row)
    rows.append(["count"] + [str(next(iter(counts))) if len(counts) == 1 and seen[label]
                                 else "-" for label, _ in variants])
    print(f"graph: {graph}; {runs} runs a variant after a warm-up round; seconds from the "
          "launch, medians")
    print_table(["step"] + [f"{label}: {options}" for label, options in variants], rows)
    return bad

if __name__ == "__main__":
    sys.exit(main(sys.argv))
