#!/usr/bin/env python3
"""bench/take.py - how evenly ranks take units from the shared count
(src/dist.h, dist_counter) under each of Open MPI's one-sided components,
for two builds side by side.

    bench/take.py BUILD_A BUILD_B [--scale 19] [--ranks 2] [--runs 5]
                  [--osc sm,pt2pt] [--device cpu|gpu] [--threads 1]
                  [--partitions 8] [--out FILE]

On one host Open MPI answers one-sided fetches through shared memory
(osc/sm). Ranks on several hosts without RDMA atomics get osc/pt2pt, which
answers a fetch on rank 0's word only while rank 0 is inside MPI; `--mca
osc pt2pt` gives that on one host. R-MAT SCALE (edge factor 16, seed 1)
is counted by one process (the reference), then by mpirun --bind-to none
-n RANKS ... --layout block --read all (each rank its own graph: osc/pt2pt
cannot make the shared windows of the host build), each build and
component in turn, --runs rounds. Every count is checked. Reported:
medians of the count's wall time over the job (job_count_wall_s), of the
slowest rank's count time over the fastest's, of the fewest units a rank
took, and of the whole job's wall time. Raw JSON lines go to --out; a
table is printed last.
"""
import json, os, statistics, subprocess, sys, tempfile, time

from benchlib import MPI_ENV, gen_rmat, print_table, take_opt

def main():
    args = sys.argv[1:]
    scale = take_opt(args, "--scale", int, 19)
    ranks = take_opt(args, "--ranks", int, 2)
    runs = take_opt(args, "--runs", int, 5)
    oscs = take_opt(args, "--osc", lambda s: s.split(","), ["sm", "pt2pt"])
    device = take_opt(args, "--device", str, "cpu")
    threads = take_opt(args, "--threads", int, 1)
    parts = take_opt(args, "--partitions", int, 8)
    out = take_opt(args, "--out", str, None)
    if len(args) != 2:
        sys.exit(__doc__)
    builds = args
    raw = open(out, "a") if out else None
    res = {(b, o): [] for b in builds for o in oscs}
    failed = 0
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_TMP")) as tmp:
        g = os.path.join(tmp, f"rmat{scale}.tsg")
        gen_rmat(builds[0], g, scale)
        opts = ["count", "--quiet", "--json", "--device", device, "--threads", str(threads),
                "--layout", "block", "--partitions", str(parts), "--read", "all"]
        ref = subprocess.run([os.path.join(builds[0], "tristream")] + opts[:-2] + [g],
                             capture_output=True, text=True, env=MPI_ENV)
        want = json.loads(ref.stdout)["triangles"] if ref.returncode == 0 else None
        for k in range(runs):
            for b in builds:
                for o in oscs:
                    cmd = ["mpirun", "--bind-to", "none", "--mca", "osc", o, "-n", str(ranks),
                           os.path.join(b, "tristream")] + opts + [g]
                    t0 = time.monotonic()
                    p = subprocess.run(cmd, capture_output=True, text=True, env=MPI_ENV)
                    wall = time.monotonic() - t0
                    try:
                        j = json.loads(p.stdout) if p.returncode == 0 else {}
                    except ValueError:
                        j = {}
                    ok = want is not None and j.get("triangles") == want
                    if raw:
                        raw.write(json.dumps({"build": b, "osc": o, "run": k, "wall": wall,
                                              "ok": ok, "result": j}) + "\n")
                    if not ok:
                        failed += 1
                        print(f"MISMATCH {b} osc {o}: {j.get('triangles')} vs {want}: "
                              f"{p.stderr.strip()[-300:]}", file=sys.stderr)
                        continue
                    cs = j["rank_count_s"]
                    res[(b, o)].append((j["job_count_wall_s"], max(cs) / max(min(cs), 1e-9),
                                        min(j["rank_units"]), wall))
    if raw:
        raw.close()
    print(f"# bench/take.py: R-MAT {scale}, {ranks} ranks, --device {device} --threads "
          f"{threads} --partitions {parts} --read all, runs {runs}")
    rows = []
    for (b, o), v in res.items():
        if not v:
            rows.append((b, o, "failed", "", "", "", 0))
            continue
        med = lambda i: statistics.median(x[i] for x in v)
        rows.append((b, o, f"{med(0):.3f}", f"{med(1):.2f}", f"{med(2):.0f}", f"{med(3):.2f}",
                     len(v)))
    print_table(["build", "osc", "count wall s", "slowest / fastest rank", "fewest units",
                 "job wall s", "runs"], rows)
    sys.exit(1 if failed else 0)

if __name__ == "__main__":
    main()
