"""The independent reference of the Python tests: a brute-force count over
Python sets, random graphs with the mess a builder must clean, and a
runner for the CLI."""

import random
import subprocess


def brute(n, edges):
    """(triangles by vertex, degree by vertex) of the simple undirected
    graph of edges on 0..n-1, loops and repeats dropped."""
    adj = [set() for _ in range(n)]
    for u, v in edges:
        if u != v:
            adj[u].add(v)
            adj[v].add(u)
    tri = [0] * n
    for u in range(n):
        for v in adj[u]:
            if v > u:
                for w in adj[u] & adj[v]:
                    if w > v:
                        tri[u] += 1
                        tri[v] += 1
                        tri[w] += 1
    return tri, [len(a) for a in adj]


def random_edges(n, m, seed, hubs=2):
    """m random pairs on 0..n-1, some to hubs, with loops, repeats and both
    directions among them (what a builder must clean)."""
    rng = random.Random(seed)
    edges = []
    for _ in range(m):
        u = rng.randrange(hubs) if rng.random() < 0.2 else rng.randrange(n)
        v = rng.randrange(n)
        edges.append((u, v))
    edges += [(v, u) for u, v in edges[: m // 10]]  # repeats, reversed
    edges += [(i, i) for i in range(0, n, 7)]       # self-loops
    rng.shuffle(edges)
    return edges



def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)
