#!/usr/bin/env python3
"""tristream.count(GRAPH) from Python against `tristream count GRAPH` on the
same file (issue 52's target: no more than the command line, within 5%).

    python3 bench/python_cli.py BUILD_DIR GRAPH [--runs 3] [-- COUNT OPTIONS]

Each run, in turn: the CLI as a process (wall time, CPU time, and the
report's own `seconds`), the CLI with --partitions 8 (the plan the library takes on the
CPU, docs/PYTHON.md), and a Python process that imports tristream and
times tristream.count() (the call; the process's wall and CPU time: CPU time
is steadier where other work shares the machine). Medians of
--runs, side by side; every count must agree. Count options after -- go
to both (e.g. -- --device cpu); the package must be importable by this
interpreter (pip install .).
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

CHILD = r"""
import sys, time, json
t0 = time.perf_counter()
import tristream
opts = json.loads(sys.argv[2])
t1 = time.perf_counter()
n = tristream.count(sys.argv[1], **opts)
t2 = time.perf_counter()
print(json.dumps({"count": n, "call_s": t2 - t1, "import_s": t1 - t0}))
"""


def cli_to_opts(args):
    """--device cpu --threads 2 -> {"device": "cpu", "threads": "2"}"""
    out, i = {}, 0
    while i < len(args):
        name = args[i].lstrip("-")
        if i + 1 < len(args) and not args[i + 1].startswith("--"):
            out[name.replace("-", "_")] = args[i + 1]
            i += 2
        else:
            out[name.replace("-", "_")] = True
            i += 1
    return out


def main():
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("graph")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args(argv)
    cli = os.path.join(a.build, "tristream")
    opts = json.dumps(cli_to_opts(extra))
    rows = {"cli": [], "cli_json": [], "cli_cpu": [], "cli_p8": [], "cli_p8_json": [],
            "cli_p8_cpu": [], "py_call": [], "py_proc": [], "py_cpu": []}

    def cpu():  # CPU seconds of the children so far: steadier than wall time
        r = resource.getrusage(resource.RUSAGE_CHILDREN)  # on a loaded machine
        return r.ru_utime + r.ru_stime
    counts = set()
    for _ in range(a.runs):
        for key, more in (("cli", []), ("cli_p8", ["--partitions", "8"])):
            t, c = time.perf_counter(), cpu()
            out = subprocess.run([cli, "count", "--json", "--quiet", *extra, *more, a.graph],
                                 check=True, capture_output=True, text=True).stdout
            rows[key].append(time.perf_counter() - t)
            rows[key + "_cpu"].append(cpu() - c)
            d = json.loads(out)
            rows[key + "_json"].append(d["seconds"])
            counts.add(d.get("triangles", d.get("cliques")))
        t, c = time.perf_counter(), cpu()
        out = subprocess.run([sys.executable, "-c", CHILD, a.graph, opts], check=True,
                             capture_output=True, text=True).stdout
        rows["py_proc"].append(time.perf_counter() - t)
        rows["py_cpu"].append(cpu() - c)
        d = json.loads(out)
        rows["py_call"].append(d["call_s"])
        counts.add(d["count"])
    if len(counts) != 1:
        sys.exit(f"the counts differ: {sorted(counts)}")
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"graph {a.graph}: count {counts.pop()}; options {extra or 'none'}; python "
          f"{sys.version.split()[0]}; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} CPUs at the end")
    names = {
        "cli": "tristream count (process wall)",
        "cli_json": "tristream count (report's seconds)",
        "cli_p8": "tristream count --partitions 8 (process wall)",
        "cli_p8_json": "tristream count --partitions 8 (report's seconds)",
        "cli_cpu": "tristream count (process CPU time)",
        "cli_p8_cpu": "tristream count --partitions 8 (process CPU time)",
        "py_call": "tristream.count() (the call)",
        "py_proc": "python -c 'tristream.count()' (process wall)",
        "py_cpu": "python -c 'tristream.count()' (process CPU time)",
    }
    for k, label in names.items():
        print(f"{label:<52} median {med[k]:8.3f} s  runs {[round(x, 3) for x in rows[k]]}")
    print(f"tristream.count() / CLI process wall: {med['py_call'] / med['cli']:.3f}; "
          f"Python process / CLI process: wall {med['py_proc'] / med['cli']:.3f}, CPU time "
          f"{med['py_cpu'] / med['cli_cpu']:.3f}; CLI --partitions 8 / CLI: wall "
          f"{med['cli_p8'] / med['cli']:.3f}, CPU time {med['cli_p8_cpu'] / med['cli_cpu']:.3f}")


if __name__ == "__main__":
    main()
