#!/usr/bin/env python3
"""NetworkX's own triangles, transitivity, clustering and average_clustering
against the same calls with backend="tristream", on a graph built in
NetworkX (docs/PYTHON.md; issue 52's target: triangles at least 10x faster,
conversion included).

    python3 bench/python_nx.py [--graph ba|gnm] [--edges 1000000] [--runs 3]

Each tristream run starts from a graph whose conversion cache is cleared,
so it pays the conversion to CSR (NetworkX's adjacency to arrays, then the
library's build) and the count; the conversion alone is timed too. Medians
of --runs, side by side; every result is checked equal to NetworkX's.
Needs networkx >= 3.2 and the tristream package installed (pip install .).
"""

import argparse
import os
import statistics
import sys
import time

import networkx as nx

import tristream
from tristream import nx_backend

FUNCS = ("triangles", "transitivity", "clustering", "average_clustering")


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--graph", choices=("ba", "gnm"), default="ba")
    ap.add_argument("--edges", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--funcs", default=",".join(FUNCS))
    a = ap.parse_args()
    nx.config.warnings_to_ignore.add("cache")
    t, G = timed(lambda: nx.barabasi_albert_graph(a.edges // 5, 5, seed=1) if a.graph == "ba"
                 else nx.gnm_random_graph(a.edges // 5, a.edges, seed=1))
    print(f"graph: {a.graph}, {G.number_of_nodes()} nodes, {G.number_of_edges()} edges "
          f"(made in {t:.1f} s); networkx {nx.__version__}, tristream {tristream.version()} "
          f"({tristream._lib.lib().path}), python {sys.version.split()[0]}; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    conv = []
    for _ in range(a.runs):
        conv.append(timed(lambda: nx_backend.TristreamGraph.from_networkx(G))[0])
    print(f"conversion alone (adjacency to CSR, library build): median "
          f"{statistics.median(conv):.3f} s of {[round(x, 3) for x in conv]}")
    print(f"{'function':<20} {'networkx s':>11} {'tristream s':>12} {'speed-up':>9}  runs "
          f"(networkx | tristream, conversion included)")
    for f in a.funcs.split(","):
        fn = getattr(nx, f)
        ts_nx, ts_tr = [], []
        want = None
        for _ in range(a.runs):
            t, want = timed(lambda: fn(G, backend="networkx"))
            ts_nx.append(t)
            G.__networkx_cache__.clear()  # every run converts again
            t, got = timed(lambda: fn(G, backend="tristream"))
            ts_tr.append(t)
            if got != want:
                sys.exit(f"{f}: tristream's result differs from NetworkX's")
        mn, mt = statistics.median(ts_nx), statistics.median(ts_tr)
        print(f"{f:<20} {mn:>11.3f} {mt:>12.3f} {mn / mt:>8.1f}x  "
              f"{[round(x, 3) for x in ts_nx]} | {[round(x, 3) for x in ts_tr]}")
    print(f"every result equal to NetworkX's; load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
