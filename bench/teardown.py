#!/usr/bin/env python3
"""bench/teardown.py - where the time of a run under mpirun goes after
the count: the job's own `seconds`, its `stages.release` (the shared
count closed and the host's oriented graph freed), the moment rank 0's
JSON line arrives, and the moment mpirun exits, for the host's ranks
building one graph (--read host, the default on GPUs) against each rank
reading and orienting its own (--read all), in turn, side by side.

    bench/teardown.py BUILD_DIR [--scale 25] [--ranks 2] [--runs 3]
                      [--device gpu|cpu] [--out FILE]

R-MAT SCALE (edge factor 16, seed 1) is generated in $BENCH_TMP (else
the system's temporary directory), counted once by one process (the
reference), then by mpirun --bind-to none -n RANKS ... --layout block.
Every count is checked against the reference. Reported: medians of the
wall time to the JSON line, to mpirun's exit, the gap between the two
(what happens after the result: freeing, MPI_Finalize, the GPU context,
process exit), `seconds` and `stages.release`. Raw JSON lines go to
--out; a table is printed last.
"""
import json, os, statistics, subprocess, sys, tempfile, time

from benchlib import MPI_ENV, gen_rmat, print_table, take_opt

def run(cmd):
    """(JSON of the first stdout line or {}, seconds to that line, seconds
    to exit)"""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=MPI_ENV,
                         text=True)
    line = p.stdout.readline()
    t_line = time.monotonic() - t0
    p.stdout.read()
    p.wait()
    t_exit = time.monotonic() - t0
    try:
        j = json.loads(line) if p.returncode == 0 else {}
    except ValueError:
        j = {}
    return j, t_line, t_exit

def main():
    args = sys.argv[1:]
    scale = take_opt(args, "--scale", int, 25)
    ranks = take_opt(args, "--ranks", int, 2)
    runs = take_opt(args, "--runs", int, 3)
    device = take_opt(args, "--device", str, "gpu")
    out = take_opt(args, "--out", str, None)
    if len(args) != 1:
        sys.exit(__doc__)
    ts = os.path.join(args[0], "tristream")
    raw = open(out, "a") if out else None
    rows = []
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_TMP")) as tmp:
        g = os.path.join(tmp, f"rmat{scale}.tsg")
        gen_rmat(args[0], g, scale)
        base = [ts, "count", "--quiet", "--json", "--device", device, "--layout", "block"]
        ref, _, _ = run(base + [g])
        want = ref.get("triangles")
        if want is None:
            sys.exit("the one-process reference count failed")
        res = {"host": [], "all": []}
        for k in range(runs):
            for how in res:
                cmd = ["mpirun", "--bind-to", "none", "-n", str(ranks)] + base + \
                      ["--read", how, g]
                j, t_line, t_exit = run(cmd)
                ok = j.get("triangles") == want
                if raw:
                    raw.write(json.dumps({"scale": scale, "ranks": ranks, "read": how, "run": k,
                                          "to_line": t_line, "to_exit": t_exit, "ok": ok,
                                          "result": j}) + "\n")
                if not ok:
                    print(f"MISMATCH --read {how}: {j.get('triangles')} vs {want}",
                          file=sys.stderr)
                    continue
                res[how].append((t_line, t_exit, t_exit - t_line, j["seconds"],
                                 j["stages"].get("release", float("nan")),
                                 j.get("host_build")))
        for how, v in res.items():
            if not v:
                rows.append((how, "failed"))
                continue
            med = lambda i: statistics.median(x[i] for x in v)
            rows.append((how, v[0][5], f"{med(0):.2f}", f"{med(1):.2f}", f"{med(2):.2f}",
                         f"{med(3):.2f}", f"{med(4):.3f}", len(v)))
    if raw:
        raw.close()
    print(f"# bench/teardown.py: R-MAT {scale}, mpirun -n {ranks}, device {device}, "
          f"medians of {runs}")
    print_table(["--read", "host_build", "to JSON s", "to exit s", "gap s", "seconds",
                 "release s", "runs"], rows)

if __name__ == "__main__":
    main()
