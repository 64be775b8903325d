#!/usr/bin/env python3
"""bench/kernels.py - every GPU kernel side by side, with TRUST's own build.

    bench/kernels.py BUILD_DIR GRAPH [GRAPH ...] [--kernels mid-hash,skiff:warp-index,...]
                     [--runs 3] [--trust DIR [--trust-prep MODE] [--trust-cache DIR]
                     [--prep-only]]
                     [--out FILE]

GRAPH is rmatS (tristream-gen rmat, scale S, edge factor 16, seed 1), webS
(tristream-gen web, 2^S vertices, edge factor 16, seed 1: links mostly to
nearby ids, like a crawl ordered by URL), crawlS (tristream-gen crawl: sites
whose pages share menus) or erS (Erdos-Renyi, 2^S vertices, edge factor 16,
seed 1); a suffix xD sets the edge factor D (web21x64). Each kernel counts the graph in memory as one unit
of the block layout (--partitions 1); the figure is the median of --runs
kernel times (CUDA events around the unit's kernels, so each kernel's own
preprocessing on the device is in, the copy is not). A variant KERNEL:POLICY
passes --cta-policy POLICY (skiff).

--trust DIR: DIR holds TRUST's build (wzbxpy/TRUST, Without-graph-partition,
built for sm_90: trianglecounting.bin) and its preprocessing tools
(Preprocess/fromDirectToUndirect and preprocess_outdegree.cpp built as
`preprocess`). `mpirun -n 1 trianglecounting.bin DIR 1 1024 1024 1`
(1024 threads x 1024 blocks, chunk 1, the README's command) runs --runs
times on its input files (begin.bin, adjacent.bin); its figure is the time
it prints for its kernel (host clock around the launch and
synchronisation). TRUST's count must equal tristream's. Its input files
come from, by --trust-prep MODE (default tools):
  tools  TRUST's own two tools: the graph goes to text ("u v" lines),
         through fromDirectToUndirect and preprocess (symmetrize, orient
         and renumber by out-degree): row "TRUST";
  ours   BUILD/bench/trust-prep, the same steps written here (its opening
         comment; it breaks ties of TRUST's unstable sorts by id), in
         seconds where TRUST's tools take minutes (single-threaded: 624 s at
         R-MAT 24 on the device's CPU): row "TRUST*";
  both   both rows, to show the two files time alike.
MODE may differ by graph: `--trust-prep both,rmat26=ours`. The TRUST/this
column divides by row TRUST's time, or TRUST*'s where the graph has no
TRUST row.
--trust-cache DIR keeps the files under DIR/GRAPH (tools) and DIR/GRAPH-ours
and reuses them when there; --prep-only makes them and counts nothing, so
a long preparation can run on its own beforehand (a run that meets files
still being made waits for them).

Every count is checked against the first kernel's and, up to 2^22
vertices, the CPU backend's. Prints one table (auto shown with the kernel
it ran, /best: each time over the fastest tristream kernel's on that
graph); exits 1 on any mismatch.
"""
import json, math, os, re, shutil, statistics, subprocess, sys, tempfile, time

from benchlib import run_json as run, take_opt

def gen(build, spec, path):
    kind, s, ef = re.fullmatch(r"(rmat|web|er|crawl)(\d+)(?:x(\d+))?", spec).groups()
    cmd = [os.path.join(build, "tristream-gen"), "--quiet"]
    if kind == "rmat":
        cmd += ["rmat", "--scale", s, "--edge-factor", ef or "16"]
    else:
        cmd += [kind, "--vertices", str(1 << int(s)), "--edge-factor", ef or "16"]
    subprocess.run(cmd + ["--seed", "1", path], check=True)
    return int(s)

def trust_prep(build, tdir, g, work, mode):
    """TRUST's input files for g into work (begin.bin, adjacent.bin), made by
    TRUST's tools (mode "tools") or bench/trust-prep ("ours"): seconds. A
    file "preparing" marks work until "prepared" holds the seconds."""
    with open(os.path.join(work, "preparing"), "w") as f:
        f.write(f"{os.getpid()}\n")
    t0 = time.time()
    if mode == "ours":
        subprocess.run([os.path.join(build, "bench", "trust-prep"), g, work], check=True,
                       stdout=subprocess.DEVNULL)
    else:
        txt = os.path.join(work, "g.txt")
        subprocess.run([os.path.join(build, "tristream-convert"), "--quiet", "--to", "text", g,
                        txt], check=True)
        t0 = time.time()
        for tool in ("fromDirectToUndirect", "preprocess"):
            args = [os.path.join(tdir, tool)] + (["g.txt"] if tool == "fromDirectToUndirect" else [])
            subprocess.run(args, cwd=work, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        os.unlink(txt)
        os.unlink(os.path.join(work, "1.mmio"))
    prep = time.time() - t0
    with open(os.path.join(work, "prepared"), "w") as f:
        f.write(f"{prep:.1f}\n")
    return prep

def trust_files(build, tdir, g, spec, mode, cache, tmp):
    """The directory of TRUST's files for spec by mode: from the cache when
    there (waiting while another run makes them), else made now."""
    work = os.path.join(cache or tmp, spec + ("-ours" if mode == "ours" else ""))
    os.makedirs(os.path.dirname(work), exist_ok=True)
    try:
        os.mkdir(work)  # whoever makes the folder prepares; the others wait
    except FileExistsError:
        if not cache:
            raise
        if not os.path.exists(os.path.join(work, "prepared")):
            print(f"{spec}: waiting for TRUST's files in {work}", file=sys.stderr)
        while not os.path.exists(os.path.join(work, "prepared")):
            try:
                with open(os.path.join(work, "preparing")) as f:
                    pid = int(f.read())
            except (FileNotFoundError, ValueError):  # being made this moment
                time.sleep(1)
                continue
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                if not os.path.exists(os.path.join(work, "prepared")):
                    sys.exit(f"kernels.py: {work}: the run that made it (pid {pid}) ended "
                             "without finishing")
            time.sleep(5)
        print(f"{spec}: TRUST's files ({mode}) from {work}", file=sys.stderr)
        return work
    print(f"{spec}: TRUST's files ({mode}) made in {trust_prep(build, tdir, g, work, mode):.1f} s",
          file=sys.stderr)
    return work

def prep_modes(opt, spec):
    """The --trust-prep modes for spec: ["tools"], ["ours"] or both."""
    modes = dict(part.rpartition("=")[::2] for part in opt.split(","))
    mode = modes.get(spec, modes.get("", "tools"))
    if mode not in ("tools", "ours", "both"):
        sys.exit(f"kernels.py: --trust-prep: unknown mode {mode}")
    return ["tools", "ours"] if mode == "both" else [mode]

def trust_runs(tdir, work, runs, log, label):
    """`runs` counts by TRUST's kernel on work's files: (times in ms, counts)."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    times, counts = [], []
    for _ in range(runs):
        p = subprocess.run(["mpirun", "-n", "1", os.path.join(tdir, "trianglecounting.bin"),
                            work + "/", "1", "1024", "1024", "1"], capture_output=True, text=True,
                           env=env)
        # "DIR,vertices,edges,count,seconds,teps"
        f = p.stdout.strip().split(",")
        if p.returncode != 0 or len(f) < 6:
            raise RuntimeError(f"TRUST: rc {p.returncode}: {p.stdout} {p.stderr}")
        times.append(float(f[4]) * 1000)
        counts.append(int(f[3]))
        if log:
            log.write(json.dumps({"kernel": label, "files": work, "stdout": p.stdout.strip()}) + "\n")
    return times, counts

def main():
    args = sys.argv[1:]
    runs = take_opt(args, "--runs", int, 3)
    kernels = take_opt(args, "--kernels", str, "auto,edge-merge,mid-hash,lstc-hash,trust,fasttc,skiff,"
                       "skiff:block-index,skiff:warp-index,lstc,lstc-paper")
    tdir = take_opt(args, "--trust", str, None)
    cache = take_opt(args, "--trust-cache", str, None)
    prep_opt = take_opt(args, "--trust-prep", str, "tools")
    prep_only = "--prep-only" in args
    if prep_only:
        args.remove("--prep-only")
    out = take_opt(args, "--out", str, None)
    build, specs = os.path.abspath(args[0]), args[1:]
    tdir = os.path.abspath(tdir) if tdir else None
    cache = os.path.abspath(cache) if cache else None
    if (cache or prep_only) and not tdir:
        sys.exit("kernels.py: --trust-cache and --prep-only go with --trust")
    tri = os.path.join(build, "tristream")
    log = open(out, "a") if out else None
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for spec in specs:
            g = os.path.join(tmp, spec + ".tsg")
            scale = gen(build, spec, g)
            if prep_only:
                # ours first: it takes seconds, and a timed run may be waiting for it
                for mode in sorted(prep_modes(prep_opt, spec), key=lambda m: m != "ours"):
                    trust_files(build, tdir, g, spec, mode, cache, tmp)
                os.unlink(g)
                continue
            ref = None
            if scale <= 22:
                ref = run([tri, "count", "--quiet", "--json", "--device", "cpu", g])["triangles"]
            edges = None
            for variant in kernels.split(","):
                k, _, policy = variant.partition(":")
                extra = ["--cta-policy", policy] if policy else []
                times, res = [], None
                try:
                    for _ in range(runs):
                        res = run([tri, "count", "--quiet", "--json", "--device", "gpu",
                                   "--partitions", "1", "--kernel", k, *extra, g])
                        times.append(sum(p["kernel_ms"] for p in res["partition_stats"]))
                        if log:
                            log.write(json.dumps({"graph": spec, "variant": variant, **res}) + "\n")
                except RuntimeError as e:
                    # one kernel's failure is a row of the table, not the end of the run
                    rows.append((spec, edges, None, variant, math.nan, math.nan, math.nan,
                                 "FAILED " + " ".join(str(e).split())[-300:]))
                    print(f"{spec} {variant}: {rows[-1][-1]}", file=sys.stderr)
                    continue
                if ref is None:
                    ref = res["triangles"]
                edges = res["edges"]
                ran = res["kernel"]
                ok = "ok" if res["triangles"] == ref and (ran == k or k == "auto") and \
                     res.get("cta_policy", "block-degree") == (policy or "block-degree") else \
                     f"WRONG {res['triangles']} ({ran} {res.get('cta_policy', '')}) vs {ref}"
                name = f"auto:{ran}" if k == "auto" else variant
                rows.append((spec, edges, res["triangles"], name, statistics.median(times),
                             min(times), max(times), ok))
                print(f"{spec} {name}: {rows[-1][4]:.2f} ms {ok}", file=sys.stderr)
            for mode in prep_modes(prep_opt, spec) if tdir else []:
                label = "TRUST" if mode == "tools" else "TRUST*"
                try:
                    work = trust_files(build, tdir, g, spec, mode, cache, tmp)
                    times, counts = trust_runs(tdir, work, runs, log, label)
                except (RuntimeError, subprocess.CalledProcessError) as e:
                    rows.append((spec, edges, None, label, math.nan, math.nan, math.nan,
                                 "FAILED " + " ".join(str(e).split())[-300:]))
                    print(f"{spec} {label}: {rows[-1][-1]}", file=sys.stderr)
                    continue
                if not cache:
                    shutil.rmtree(work)
                ok = "ok" if all(c == ref for c in counts) else f"WRONG {counts} vs {ref}"
                rows.append((spec, edges, counts[-1], label,
                             statistics.median(times), min(times), max(times), ok))
                print(f"{spec} {label}: {rows[-1][4]:.2f} ms {ok}", file=sys.stderr)
            os.unlink(g)
            if log:
                log.flush()
    print(f"{'graph':<7} {'edges':>11} {'triangles':>14} {'kernel':<18} {'median ms':>10} "
          f"{'min':>8} {'max':>8} {'TRUST/this':>10} {'/best':>6} check")
    for r in rows:
        ok = lambda x: x[0] == r[0] and x[7] == "ok"
        tr = [x[4] for x in rows if ok(x) and x[3] == "TRUST"] or \
             [x[4] for x in rows if ok(x) and x[3] == "TRUST*"]
        best = min([x[4] for x in rows if ok(x) and not x[3].startswith("TRUST")] or [math.nan])
        vs = f"{tr[0] / r[4]:>10.2f}" if tr else f"{'-':>10}"
        print(f"{r[0]:<7} {r[1] or '-':>11} {r[2] if r[2] is not None else '-':>14} {r[3]:<18} "
              f"{r[4]:>10.2f} {r[5]:>8.2f} {r[6]:>8.2f} {vs} {r[4] / best:>6.2f} {r[7]}")
    sys.exit(0 if all(r[7] == "ok" for r in rows) else 1)

if __name__ == "__main__":
    main()
