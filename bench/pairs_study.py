#!/usr/bin/env python3
"""bench/pairs_study.py - would "batch pairs" let a count at a quarter of
the GPU start during the read of a plain .tsg? (session 37; CPU only, a
model: nothing is timed, nothing runs on a GPU.)

    bench/pairs_study.py GRAPH.tsg [--ks 8,16,32,64] [--fine 1024]
        [--last-share 0.05] [--reserve 0.2] [--mem-frac 0.25]
        [--check build/tristream | --expect N] [--no-triangles]
        [--wr 0.25,0.5,0.67,1,1.34]

What it models. The engine orients by rank ((degree, id) ascending,
partition/orient.h): a -> b iff rank(a) < rank(b), and the triangle
a < b < c (ranks) is counted once at a -> b as |out(a) & out(b)|, which
needs the rows out(a), out(b) only. Batch pairs: the ids are cut into K
batches (contiguous id ranges, in file order); unit {i, j} (i <= j) holds
the edges a -> b whose endpoints' batches are {i, j}, needs the rows of
batches i and j only, and is ready once batch max(i, j) has been read.

The heavy part is bench/raw/cpu-2026-11-27-s37-pairs/pairs.c, compiled
here with gcc -O2 -fopenmp into a temporary folder and run once per graph:
it cuts the ids into F fine slices of about equal list entries (--fine,
1024) and sums per pair of slices, over every oriented edge a -> b (rows
sorted by rank):
  tail  = entries c of out(a) with rank(c) > rank(b): what the mid-hash
          kernel probes when ids are ranks (summed: C(|out(a)|, 2) per a);
  whole = |out(a)|: what it probes when rows are numbered by (batch, rank),
          where the tail is not contiguous (summed: |out(a)|^2 per a);
  edges, and the triangles |out(a) & out(b)| (the sanity check).
A batch is a run of whole slices, so batch edges are slice edges
(1/F of the list entries apart; a vertex's list is never split).

What it prints, per graph, as plain text tables:
  - totals: tail, whole, whole/tail, triangles (checked against
    `tristream count --quiet` with --check, or a number given by --expect);
  - per K and per batch layout ("equal": about equal list bytes; "geom":
    sizes shrinking geometrically toward the file's end, the largest ratio
    r <= 1 (step 0.002) whose last batch's units hold <= --last-share of
    both the tail and the whole work; the sizes used are printed):
    units (all K(K+1)/2, and those holding an edge), the largest unit's
    rows (bytes, and / M), the share of each model's work left for the
    last batch (it can only start after the read ends), the share ready
    by 50/75/90% of the read, and the copy volume;
  - per K and layout, a fluid bound on the end: the GPU takes W seconds
    for all the work (either model's shares; the table uses the tail's),
    the read R, units start when their last batch is read, copies free:
    end = max over j of (read position at batch j's end + W/R x (work not
    ready before batch j)) x R; printed as end / R for each W/R of --wr
    (0.25, 0.5, 0.67, 1, 1.34: a count that starts only after the read
    and ends at 1.67 R has W/R near 0.67; whole rows double W if the
    kernel is probe-bound);
  - per K and layout, the work-ready curve: for j = 0 .. K-1, the batch's
    share of the list entries, the read position at its end (share of the
    file's bytes: header, offsets, then the lists up to the batch's end),
    and the share of the tail / whole work in units with max batch <= j.

Copy model. Batch i's oriented rows take 8 bytes per vertex of its id range
(isolated vertices included: the offsets) + 4 bytes per oriented entry of
its vertices. M = mem-frac (1/4) of the plain file's bytes; the usable room
is M less a scratch reserve (--reserve 0.2 of M). When batch j arrives it
is copied and stays while units {i, j}, i = 0 .. j, run; the most recent
batches j-1, j-2, ... that fit in the room less batch j (and less one
streaming slot, the largest earlier batch, unless all of them fit) stay
resident from the previous arrivals (a kept batch that was not resident is
copied once); every other batch i < j is copied in, in turn, into the slot.
Printed: the total bytes copied host to device, that / the oriented graph's
bytes (8 nv + 4 m), and the share of it copied at the last arrival (after
the read).

Example (the session's runs, 2 cores):
    build/tristream-gen --quiet rmat --scale 22 --seed 1 /tmp/rmat22.tsg
    bench/pairs_study.py /tmp/rmat22.tsg --check build/tristream
"""
import argparse, os, re, shutil, subprocess, sys, tempfile, time
from array import array

HERE = os.path.dirname(os.path.abspath(__file__))
C_SRC = os.path.join(HERE, "raw", "cpu-2026-11-27-s37-pairs", "pairs.c")


def table(header, rows):
    """Prints header and rows (lists of cells, str()'d) as aligned plain text."""
    cells = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    w = [max(len(r[i]) for r in cells) for i in range(len(header))]
    line = lambda r: "  ".join(c.rjust(w[i]) for i, c in enumerate(r)).rstrip()
    print(line(cells[0]))
    print("  ".join("-" * x for x in w))
    for r in cells[1:]:
        print(line(r))
    print()


def run_helper(graph, fine, tmp, triangles):
    exe = os.path.join(tmp, "pairs")
    subprocess.run(["gcc", "-O2", "-std=gnu11", "-fopenmp", "-o", exe, C_SRC], check=True)
    out = os.path.join(tmp, "pairs.bin")
    env = dict(os.environ, NOTRI="0" if triangles else "1")
    t = time.monotonic()
    subprocess.run([exe, graph, str(fine), out], check=True, env=env)
    secs = time.monotonic() - t
    a = array("Q")
    with open(out, "rb") as f:
        a.frombytes(f.read())
    if sys.byteorder != "little":
        a.byteswap()
    os.unlink(out)
    return a, secs


class Data:
    """The helper's output: per-slice facts and the pair-of-slices sums."""

    def __init__(self, a):
        if a[0] != 0x5041495253303031:
            raise SystemExit("pairs_study: bad helper output")
        self.F, self.nv, self.nadj, self.m, self.fbytes, self.adj_at, self.tri_done = a[1:8]
        F = self.F
        p = 8
        self.sb = a[p:p + F + 1]; p += F + 1
        self.ent = a[p:p + F]; p += F
        self.ver = a[p:p + F]; p += F
        self.ori = a[p:p + F]; p += F
        c = F * F
        mt, mw, me, mx = (a[p + k * c:p + (k + 1) * c] for k in range(4))
        # the nonzero cells (lo <= hi): slice pairs holding an edge
        self.cells = []
        for lo in range(F):
            base = lo * F
            for hi in range(lo, F):
                e = me[base + hi]
                if e:
                    self.cells.append((lo, hi, mt[base + hi], mw[base + hi], e))
        self.tail = sum(mt); self.whole = sum(mw); self.edges = sum(me); self.tri = sum(mx)
        # work in cells whose upper slice is >= s (for the last batch's share)
        ht = [0] * (F + 1); hw = [0] * (F + 1)
        for lo, hi, t, w, e in self.cells:
            ht[hi] += t; hw[hi] += w
        for s in range(F - 1, -1, -1):
            ht[s] += ht[s + 1]; hw[s] += hw[s + 1]
        self.from_t, self.from_w = ht, hw
        self.cum_ent = [0]
        for x in self.ent:
            self.cum_ent.append(self.cum_ent[-1] + x)
        self.obytes = 8 * self.nv + 4 * self.m


def snap(d, fracs):
    """Slice boundaries nearest the cumulative list-entry shares fracs
    (0 < f < 1, increasing), each batch at least one slice."""
    K = len(fracs) + 1
    F = d.F
    b = [0]
    s = 0
    for k, f in enumerate(fracs):
        target = f * d.nadj
        while s < F and d.cum_ent[s + 1] <= target:
            s += 1
        # s: last boundary with cum <= target; pick the nearer of s, s + 1
        c = s + 1 if s < F and target - d.cum_ent[s] > d.cum_ent[s + 1] - target else s
        c = max(c, b[-1] + 1)
        c = min(c, F - (K - 1 - k))
        b.append(c)
    b.append(F)
    return b


def geom_fracs(K, r):
    w = [r ** k for k in range(K)]
    tot = sum(w)
    acc, out = 0.0, []
    for x in w[:-1]:
        acc += x
        out.append(acc / tot)
    return out


def pick_geom(d, K, share):
    """The largest ratio r <= 1 (steps of 0.002) whose last batch's units
    hold <= share of the tail and of the whole work."""
    r = 1.0
    while r > 0.05:
        b = snap(d, geom_fracs(K, r))
        s = b[K - 1]
        if d.from_t[s] <= share * d.tail and d.from_w[s] <= share * d.whole:
            return r, b
        r = round(r - 0.002, 3)
    return None, None


def copy_model(B, room):
    """Bytes copied (total, at the last arrival) under the module's model,
    or None where a batch and the slot do not fit."""
    K = len(B)
    prev, total, last = set(), 0, 0
    for j in range(K):
        keep = None
        for r in range(j, -1, -1):
            slot = max(B[:j - r]) if j - r > 0 else 0
            if B[j] + sum(B[j - r:j]) + slot <= room:
                keep = set(range(j - r, j))
                break
        if keep is None:
            return None
        c = B[j] + sum(B[i] for i in range(j) if not (i in keep and i in prev))
        total += c
        last = c
        prev = keep | {j}
    return total, last


def evaluate(d, b, mem, reserve):
    K = len(b) - 1
    bat = [0] * d.F
    for k in range(K):
        for s in range(b[k], b[k + 1]):
            bat[s] = k
    ut = [0] * (K * K); uw = [0] * (K * K); ue = [0] * (K * K)
    for lo, hi, t, w, e in d.cells:
        k = bat[lo] * K + bat[hi]
        ut[k] += t; uw[k] += w; ue[k] += e
    B = [8 * sum(d.ver[b[k]:b[k + 1]]) + 4 * sum(d.ori[b[k]:b[k + 1]]) for k in range(K)]
    size = [(d.cum_ent[b[k + 1]] - d.cum_ent[b[k]]) / d.nadj for k in range(K)]
    readpos = [(d.adj_at + 4 * d.cum_ent[b[k + 1]]) / d.fbytes for k in range(K)]
    ct, cw = [], []
    at = aw = 0
    for j in range(K):
        for i in range(j + 1):
            at += ut[i * K + j]; aw += uw[i * K + j]
        ct.append(at / d.tail); cw.append(aw / d.whole)
    nonempty = sum(1 for x in ue if x)
    big = 0
    for i in range(K):
        for j in range(i, K):
            if ue[i * K + j]:
                big = max(big, B[i] + (B[j] if j != i else 0))

    def ready(curve, x):
        v = 0.0
        for j in range(K):
            if readpos[j] <= x:
                v = curve[j]
        return v

    cp = copy_model(B, mem * (1 - reserve))
    return dict(K=K, b=b, B=B, size=size, readpos=readpos, ct=ct, cw=cw, nonempty=nonempty,
                big=big, cp=cp, ready=ready)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("graph")
    ap.add_argument("--ks", default="8,16,32,64")
    ap.add_argument("--fine", type=int, default=1024)
    ap.add_argument("--last-share", type=float, default=0.05)
    ap.add_argument("--reserve", type=float, default=0.2)
    ap.add_argument("--mem-frac", type=float, default=0.25)
    ap.add_argument("--check", metavar="TRISTREAM", help="run TRISTREAM count --quiet GRAPH and compare")
    ap.add_argument("--expect", type=int, help="the triangle count to compare with")
    ap.add_argument("--no-triangles", action="store_true")
    ap.add_argument("--wr", default="0.25,0.5,0.67,1,1.34", help="W/R values of the fluid bound")
    o = ap.parse_args()
    ks = [int(x) for x in o.ks.split(",")]
    wr = [float(x) for x in o.wr.split(",")]
    tmp = tempfile.mkdtemp(prefix="pairs_study.")
    try:
        a, secs = run_helper(o.graph, o.fine, tmp, not o.no_triangles)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    d = Data(a)
    del a
    mem = o.mem_frac * d.fbytes
    G = 1e9
    print(f"graph: {o.graph}")
    print(f"  {d.nv} ids, {d.nadj} list entries, {d.m} oriented edges; file {d.fbytes} bytes"
          f" ({d.fbytes / G:.3f} GB); oriented rows 8 nv + 4 m = {d.obytes / G:.3f} GB")
    print(f"  M = {o.mem_frac} x file = {mem / G:.3f} GB; room for rows = M less {o.reserve:.0%}"
          f" reserve = {mem * (1 - o.reserve) / G:.3f} GB")
    print(f"  fine slices: {d.F} (largest {max(d.ent) / d.nadj:.3%} of the list entries);"
          f" helper {secs:.1f} s")
    print()
    print("Work totals (per oriented edge a -> b, rows sorted by rank)")
    rows = [["tail (c in out(a), rank(c) > rank(b))", f"{d.tail:.4e}", "1.000"],
            ["whole (|out(a)|)", f"{d.whole:.4e}", f"{d.whole / d.tail:.3f}"]]
    if d.tri_done:
        rows.append(["triangles (sum |out(a) & out(b)|)", str(d.tri), ""])
    table(["model", "total", "/ tail"], rows)
    if d.tri_done:
        ref = o.expect
        src = "--expect"
        if o.check:
            p = subprocess.run([o.check, "count", "--quiet", o.graph], capture_output=True,
                               text=True, check=True)
            ref = int(re.search(r"triangles: (\d+)", p.stdout).group(1))
            src = f"{o.check} count --quiet"
        if ref is not None:
            print(f"triangle check: {d.tri} here, {ref} from {src}: "
                  f"{'EQUAL' if ref == d.tri else 'DIFFERENT'}")
            print()
    layouts = []
    for K in ks:
        eq = evaluate(d, snap(d, [k / K for k in range(1, K)]), mem, o.reserve)
        r, gb = pick_geom(d, K, o.last_share)
        ge = evaluate(d, gb, mem, o.reserve) if gb else None
        layouts.append((K, eq, r, ge))
    print("Per K and layout (work shares: of that model's total; read: share of the file's bytes)")
    hdr = ["K", "layout", "units", "with edges", "largest unit GB", "/ M", "last batch % lists",
           "tail after read", "whole after read", "tail ready @50/75/90% read",
           "whole ready @50/75/90%", "copied GB", "/ oriented", "at last arrival"]
    rows = []
    for K, eq, r, ge in layouts:
        for name, e in (("equal", eq), (f"geom r={r}", ge)):
            if e is None:
                rows.append([K, "geom: none found"] + [""] * (len(hdr) - 2))
                continue
            cp = e["cp"]
            rt = "/".join(f"{e['ready'](e['ct'], x):.3f}" for x in (0.5, 0.75, 0.9))
            rw = "/".join(f"{e['ready'](e['cw'], x):.3f}" for x in (0.5, 0.75, 0.9))
            rows.append([K, name, K * (K + 1) // 2, e["nonempty"], f"{e['big'] / G:.3f}",
                         f"{e['big'] / mem:.3f}", f"{100 * e['size'][-1]:.2f}",
                         f"{1 - e['ct'][K - 2]:.4f}", f"{1 - e['cw'][K - 2]:.4f}", rt, rw,
                         f"{cp[0] / G:.2f}" if cp else "no fit",
                         f"{cp[0] / d.obytes:.2f}" if cp else "",
                         f"{cp[1] / cp[0]:.3f}" if cp else ""])
    table(hdr, rows)
    print("Fluid end / read (tail shares; compute W, read R; units start once their last batch"
          " is read; copies free)")
    rows = []
    for K, eq, r, ge in layouts:
        for name, e in (("equal", eq), (f"geom r={r}", ge)):
            if e is None:
                continue
            ends = []
            for q in wr:
                ends.append(max(e["readpos"][j] + q * (1 - (e["ct"][j - 1] if j else 0.0))
                                for j in range(K)))
            rows.append([K, name] + [f"{x:.3f}" for x in ends])
    table(["K", "layout"] + [f"W/R={q:g}" for q in wr], rows)
    print(f"Geometric sizes (% of the list entries, batch 0 first; chosen so that the last"
          f" batch's units hold <= {o.last_share:.0%} of both models' work)")
    for K, eq, r, ge in layouts:
        if ge:
            print(f"  K={K} r={r}: " + " ".join(f"{100 * x:.2f}" for x in ge["size"]))
    print()
    for K, eq, r, ge in layouts:
        for name, e in (("equal", eq), (f"geom r={r}", ge)):
            if e is None:
                continue
            print(f"Work-ready curve, K={K}, {name}: share of each model's work in units"
                  f" with max batch <= j")
            rows = [[j, f"{100 * e['size'][j]:.2f}", f"{100 * e['readpos'][j]:.2f}",
                     f"{e['B'][j] / 1e6:.1f}", f"{e['ct'][j]:.4f}", f"{e['cw'][j]:.4f}"]
                    for j in range(K)]
            table(["j", "batch % lists", "read % at end", "rows MB", "tail ready",
                   "whole ready"], rows)


if __name__ == "__main__":
    main()
