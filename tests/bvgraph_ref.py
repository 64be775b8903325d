#!/usr/bin/env python3
"""tests/bvgraph_ref.py - a second BVGraph decoder, the check on tristream's.

    bvgraph_ref.py [--transpose] [--arcs FILE] [--edges FILE] BASENAME

Decodes BASENAME.graph with BASENAME.properties (and BASENAME.offsets where
present, every list checked to start where it says), checking everything
the format constrains: successors in [0, nodes), strictly increasing, a
reference inside the window, copy blocks inside the list they copy, the
arc count of .properties. --arcs writes every arc "u v" in the order
decoded (u ascending, then v); --edges writes the undirected graph the arcs
make, without self-loops, each edge once as "u v" with u < v, sorted.
--transpose decodes BASENAME-t too and checks it is the transpose. Prints
"nodes N arcs M bits B" (of BASENAME) on stdout; exits 1 with the reason on
stderr on anything malformed.

Written from LAW's published description of the format (the Javadoc of
it.unimi.dsi.webgraph.BVGraph: "The Graph File", "How Successor Lists Are
Coded", "The Offset File"; the codes of it.unimi.dsi.io.InputBitStream)
and docs/FORMAT-WEBGRAPH.md, deliberately without io/webgraph.c: it shares
no code and no reading of the format with the decoder it checks. Plain
and slow (about 10 s for cnr-2000's 3.2 M arcs): bits are a string of
'0'/'1', codes are cut from it with str.find and int(..., 2).
"""
import array
import sys

CODES = ("GAMMA", "DELTA", "UNARY", "ZETA")
# the default code of each part (BVGraph's Javadoc: γ for outdegrees,
# block counts, blocks, intervals and offsets, unary for references, ζ_k
# for residuals)
DEFAULTS = {"OUTDEGREES": "GAMMA", "REFERENCES": "UNARY", "BLOCK_COUNT": "GAMMA",
            "BLOCKS": "GAMMA", "INTERVALS": "GAMMA", "RESIDUALS": "ZETA", "OFFSETS": "GAMMA"}


class Bad(Exception):
    pass


class Bits:
    """A bit stream read most significant bit of each byte first."""

    def __init__(self, data, name):
        self.s = format(int.from_bytes(data, "big"), "0%db" % (8 * len(data))) if data else ""
        self.n = len(self.s)
        self.p = 0
        self.name = name

    def unary(self):  # x zeros, then a one
        j = self.s.find("1", self.p)
        if j < 0:
            raise Bad("%s: a code runs past the end (bit %d)" % (self.name, self.p))
        x = j - self.p
        self.p = j + 1
        return x

    def fixed(self, k):  # k bits, most significant first
        if k == 0:
            return 0
        e = self.p + k
        if e > self.n:
            raise Bad("%s: a code runs past the end (bit %d)" % (self.name, self.p))
        v = int(self.s[self.p:e], 2)
        self.p = e
        return v

    def gamma(self):  # x + 1 = 1 followed by h bits; h in unary
        h = self.unary()
        return ((1 << h) | self.fixed(h)) - 1

    def delta(self):  # as gamma, h in gamma
        h = self.gamma()
        return ((1 << h) | self.fixed(h)) - 1

    def zeta(self, k):
        # h in unary; x + 1 lies in [2^hk, 2^(h+1)k), written in the minimal
        # binary code of that interval: its first 2^hk values (x + 1 below
        # 2^(hk+1)) as x + 1 - 2^hk in hk + k - 1 bits, the others as x + 1
        # in hk + k bits (whose first hk + k - 1 bits are then >= 2^hk)
        h = self.unary()
        low = 1 << (h * k)
        m = self.fixed(h * k + k - 1)
        if m < low:
            return m + low - 1
        return ((m << 1) | self.fixed(1)) - 1


def reader(bits, code, k):
    if code == "GAMMA":
        return bits.gamma
    if code == "DELTA":
        return bits.delta
    if code == "UNARY":
        return bits.unary
    if code == "ZETA":
        return lambda: bits.zeta(k)
    raise Bad("unsupported code %s" % code)


def nat2int(v):  # the fold 0, 1, 2, 3, 4, ... -> 0, -1, 1, -2, 2, ...
    return v >> 1 if v % 2 == 0 else -((v + 1) >> 1)


def properties(path):
    p = {}
    with open(path, encoding="latin-1") as f:
        for line in f:
            line = line.strip()
            if not line or line[0] in "#!":
                continue
            i = min([j for j in (line.find("="), line.find(":")) if j >= 0], default=-1)
            if i < 0:
                continue
            p[line[:i].strip()] = line[i + 1:].strip()
    return p


def decode(base, visit):
    """Calls visit(x, successors of x) for every node x in order, checking as
    it goes; returns (nodes, arcs, bits used)."""
    props = properties(base + ".properties")
    try:
        nodes = int(props["nodes"])
        arcs = int(props["arcs"])
    except (KeyError, ValueError) as e:
        raise Bad("%s.properties: nodes or arcs missing or not a number (%s)" % (base, e))
    window = int(props.get("windowsize", 7))
    minint = int(props.get("minintervallength", 4))
    zk = int(props.get("zetak", 3))
    codes = dict(DEFAULTS)
    for flag in filter(None, props.get("compressionflags", "").replace(" ", "").split("|")):
        part, _, code = flag.rpartition("_")
        if part not in codes or code not in CODES:
            raise Bad("%s.properties: compression flag %s not supported" % (base, flag))
        codes[part] = code
    with open(base + ".graph", "rb") as f:
        g = Bits(f.read(), base + ".graph")
    offs = None
    try:
        with open(base + ".offsets", "rb") as f:
            ob = Bits(f.read(), base + ".offsets")
        rd = reader(ob, codes["OFFSETS"], zk)
        offs = []
        at = 0
        for _ in range(nodes + 1):
            at += rd()
            offs.append(at)
    except FileNotFoundError:
        pass
    outdeg = reader(g, codes["OUTDEGREES"], zk)
    refr = reader(g, codes["REFERENCES"], zk)
    bcount = reader(g, codes["BLOCK_COUNT"], zk)
    block = reader(g, codes["BLOCKS"], zk)
    ival = reader(g, codes["INTERVALS"], zk)
    resid = reader(g, codes["RESIDUALS"], zk)
    recent = [None] * (window + 1)  # the last window + 1 lists, by x mod (window + 1)
    total = 0
    for x in range(nodes):
        if offs is not None and offs[x] != g.p:
            raise Bad("%s: node %d's list starts at bit %d, .offsets says %d" % (base, x, g.p, offs[x]))
        d = outdeg()
        succ = []
        if d > 0:
            copied = []
            r = refr() if window > 0 else 0
            if r > 0:
                if r > window or r > x:
                    raise Bad("%s: node %d refers %d back (window %d)" % (base, x, r, window))
                ref = recent[(x - r) % (window + 1)]
                nb = bcount()
                pos = 0
                for i in range(nb):
                    ln = block() + (1 if i > 0 else 0)
                    if pos + ln > len(ref):
                        raise Bad("%s: node %d: copy blocks longer than node %d's list" % (base, x, x - r))
                    if i % 2 == 0:
                        copied.extend(ref[pos:pos + ln])
                    pos += ln
                if nb % 2 == 0:
                    copied.extend(ref[pos:])
            extra = d - len(copied)
            if extra < 0:
                raise Bad("%s: node %d copies %d successors, outdegree %d" % (base, x, len(copied), d))
            more = []
            if extra > 0 and minint > 0:
                ni = ival()
                end = None
                for i in range(ni):
                    v = ival()
                    # the first left end relative to x (folded), the others
                    # after the previous interval's end, less one
                    left = x + nat2int(v) if i == 0 else end + v + 1
                    ln = ival() + minint
                    more.extend(range(left, left + ln))
                    end = left + ln
                extra -= len(more)
                if extra < 0:
                    raise Bad("%s: node %d: intervals longer than its outdegree" % (base, x))
            prev = None
            for i in range(extra):
                v = resid()
                prev = x + nat2int(v) if i == 0 else prev + v + 1
                more.append(prev)
            succ = sorted(copied + more)
            if succ[0] < 0 or succ[-1] >= nodes:
                raise Bad("%s: node %d: a successor outside [0, %d)" % (base, x, nodes))
            for i in range(1, len(succ)):
                if succ[i] <= succ[i - 1]:
                    raise Bad("%s: node %d: successor %d repeated or out of order" % (base, x, succ[i]))
        recent[x % (window + 1)] = succ
        total += len(succ)
        visit(x, succ)
    if offs is not None and offs[nodes] != g.p:
        raise Bad("%s: the lists end at bit %d, .offsets says %d" % (base, g.p, offs[nodes]))
    if g.n - g.p >= 64:
        raise Bad("%s: %d bits after the last list" % (base, g.n - g.p))
    if total != arcs:
        raise Bad("%s: %d arcs decoded, .properties says %d" % (base, total, arcs))
    return nodes, total, g.p


def main(argv):
    args = argv[1:]
    transpose = arcs_out = edges_out = None
    while args and args[0].startswith("--"):
        a = args.pop(0)
        if a == "--transpose":
            transpose = True
        elif a == "--arcs":
            arcs_out = args.pop(0)
        elif a == "--edges":
            edges_out = args.pop(0)
        else:
            sys.exit("usage: bvgraph_ref.py [--transpose] [--arcs FILE] [--edges FILE] BASENAME")
    if len(args) != 1:
        sys.exit("usage: bvgraph_ref.py [--transpose] [--arcs FILE] [--edges FILE] BASENAME")
    base = args[0]
    for suffix in (".graph", ".properties", ".offsets"):  # a file named for the basename
        if base.endswith(suffix):
            base = base[:-len(suffix)]
    try:
        af = open(arcs_out, "w") if arcs_out else None
        keys = array.array("q")  # every arc u -> v as u * nodes + v, in order

        def visit(x, succ):
            if af:
                af.write("".join("%d %d\n" % (x, y) for y in succ))
            keys.extend(x * n + y for y in succ)

        n = int(properties(base + ".properties").get("nodes", 0))
        nodes, total, bits = decode(base, visit)
        if af:
            af.close()
        if transpose:
            tkeys = array.array("q")
            tn, tt, _ = decode(base + "-t", lambda x, succ: tkeys.extend(y * n + x for y in succ))
            if (tn, tt) != (nodes, total) or sorted(tkeys) != keys.tolist():
                raise Bad("%s-t is not the transpose of %s" % (base, base))
            del tkeys
        if edges_out:
            # both directions folded to u < v, loops dropped, duplicates once
            und = sorted(set(min(k // n, k % n) * n + max(k // n, k % n) for k in keys if k // n != k % n))
            with open(edges_out, "w") as f:
                f.write("".join("%d %d\n" % divmod(k, n) for k in und))
    except (Bad, OSError, ValueError) as e:
        print("bvgraph_ref: %s" % e, file=sys.stderr)
        return 1
    print("nodes %d arcs %d bits %d" % (nodes, total, bits))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
