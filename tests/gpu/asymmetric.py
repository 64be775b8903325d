#!/usr/bin/env python3
"""asymmetric.py SRC DST: writes DST, a copy of the plain graph SRC whose
short lists point at hubs that do not list them back. Every list stays
sorted, in range and free of self-loops, so only the checks at the end of
the read (checksum, symmetry) catch it; meanwhile the GPU's arrival batches
orient it. Prints the oriented rows that DST brings and the graph's
oriented edges: a first number above the second means more rows than the
device's row array holds (its overflow guard must hold)."""
import struct
import sys

src, dst = sys.argv[1], sys.argv[2]
b = bytearray(open(src, "rb").read())
nsec, nv = struct.unpack_from("<IQ", b, 20)[0], struct.unpack_from("<Q", b, 24)[0]
at = {}  # io/format.c: the section table at 64, 32 bytes a section
for i in range(nsec):
    kind, = struct.unpack_from("<I", b, 64 + 32 * i)
    at[kind], = struct.unpack_from("<Q", b, 64 + 32 * i + 8)
off = struct.unpack_from("<%dQ" % (nv + 1), b, at[1])  # offsets
lists = at[2]  # plain neighbour lists
deg = [off[v + 1] - off[v] for v in range(nv)]
hubs = sorted(sorted(range(nv), key=lambda v: (-deg[v], v))[:64])
rank = lambda v: (deg[v], v)
for v in range(nv):
    ids = [h for h in hubs if h != v][: deg[v]]
    if 1 <= deg[v] <= 32 and v not in hubs and len(ids) == deg[v]:
        struct.pack_into("<%dI" % deg[v], b, lists + 4 * off[v], *ids)
rows = 0
for v in range(nv):
    row = struct.unpack_from("<%dI" % deg[v], b, lists + 4 * off[v])
    rows += sum(rank(w) > rank(v) for w in row)
open(dst, "wb").write(b)
print(rows, off[nv] // 2)
