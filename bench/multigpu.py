#!/usr/bin/env python3
"""bench/multigpu.py - one GPU against two, side by side in one run.

    bench/multigpu.py BUILD_DIR SCALE [SCALE ...] [--runs 3] [--quarter SCALE,...]
                      [--cold SCALE,...] [--k K --kscales SCALE,...]
                      [--lstc SCALE,... --lparts P] [--base BUILD_DIR [--base-cache-only]]
                      [--no-arrival] [--out FILE]

Needs a host with two GPUs (the device tool's nvidia-h200-x2) and, for the
mpirun rows, a build with MPI. For each R-MAT scale (edge factor 16,
tristream-gen seed 1), with the file in the page cache, the variants run
in turn, --runs rounds (medians reported):
  one       --gpu 0 --layout block: the whole graph one unit (in memory)
  two       --gpus 2 (block layout: source blocks of at most 1/8 of the
            work each, block_opts.min_units)
  mpi2      mpirun -n 2 --bind-to none ... --layout block (a rank a GPU,
            units taken by whichever rank is free; the two ranks of the
            host read a slice each and build one oriented graph they share,
            src/hostbuild.h)
  mpi2-all  the same with --read all: each rank reads and orients the
            whole graph alone
  arrival   --gpu 0 (the default layout on one GPU, for reference: it counts
            under the read, so its "count" is the device's busy time)
With --quarter, those scales again with --gpu-mem at 1/4 of the in-memory
footprint per GPU (one, two, mpi2: out of core on each GPU). With --cold,
those scales from a cold file (page cache dropped before each run): one,
two, mpi2 end to end. With --k K, the --kscales scales count K-cliques
(LSTC parts) on one GPU (--gpu 0), two (--gpus 2: at least 4 parts a GPU)
and two ranks (mpirun -n 2), each checked against the one-GPU count. With
--lstc, those scales count triangles in the LSTC layout (--layout lstc
--partitions P, default 8: vertex parts built on the host while the GPUs
count) on one GPU, two (--gpus 2) and two ranks. With --base, another
build's two and mpi2 run beside them (two-base, mpi2-base), alternating:
an A/B of a change to how the work is shared (--base-cache-only: in the
page-cache set alone). Each run starts one variant later than the run
before, so no variant always follows the same one. --no-arrival leaves
the arrival row out.

"count" is the counting part: from the first unit handed to a GPU to the
last count taken (JSON stages.count_wall; under mpirun the job's,
job_count_wall_s, or with builds before it the slowest rank's,
rank_count_wall_s). "e2e" is the process's wall time, start-up included.
Every count is checked against the in-memory one-GPU count. Raw JSON lines
go to --out; a table is printed last.
"""
import json, os, statistics, sys, time

from benchlib import drop_caches, gen_rmat, take_opt, timed as timed_env

ENV = dict(os.environ, NCCL_NVLS_ENABLE="0", TORCH_SYMM_MEM_DISABLE_MULTICAST="1",
           NVSHMEM_DISABLE_NVLS="1", OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")

def timed(cmd):
    """Runs cmd under ENV: (its JSON or an error dict, wall seconds)."""
    return timed_env(cmd, ENV)

def count_part(j):
    """The counting part's wall time. Under mpirun, the job's (first rank's
    start to last rank's end, job_count_wall_s) where the build reports it,
    else the slowest rank's own: where ranks take units as they become
    free, a rank ready first starts first, and its own time says little."""
    if "job_count_wall_s" in j:
        return j["job_count_wall_s"]
    if "rank_count_wall_s" in j:
        return max(j["rank_count_wall_s"])
    return j["stages"].get("count_wall", j["stages"]["count"])

def clique_variants(build, graph, k):
    t = [os.path.join(build, "tristream"), "count", "--quiet", "--json", "--k", str(k)]
    return {
        "one": t + ["--gpu", "0", graph],
        "two": t + ["--gpus", "2", graph],
        "mpi2": ["mpirun", "-n", "2", "--bind-to", "none"] + t + [graph],
    }

def lstc_variants(build, graph, parts):
    t = [os.path.join(build, "tristream"), "count", "--quiet", "--json", "--layout", "lstc",
         "--partitions", str(parts)]
    return {
        "one": t + ["--gpu", "0", graph],
        "two": t + ["--gpus", "2", graph],
        "mpi2": ["mpirun", "-n", "2", "--bind-to", "none"] + t + [graph],
    }

def variants(build, graph, mem, base=None, arrival=True):
    m = ["--gpu-mem", str(mem)] if mem else []
    def count_cmd(b):
        return [os.path.join(b, "tristream"), "count", "--quiet", "--json"]
    def shared(b, suffix):
        return {
            # named: auto now counts on one GPU where the arrival layout fits it
            "two" + suffix: count_cmd(b) + ["--gpus", "2", "--layout", "block"] + m + [graph],
            "mpi2" + suffix: ["mpirun", "-n", "2", "--bind-to", "none"] + count_cmd(b)
                             + ["--layout", "block"] + m + [graph],
        }
    t = count_cmd(build)
    v = {"one": t + ["--gpu", "0", "--layout", "block"] + m + [graph]}
    v.update(shared(build, ""))
    # the ranks each reading and orienting the whole graph, as before the
    # host's ranks built one (src/hostbuild.h)
    v["mpi2-all"] = v["mpi2"][:-1] + ["--read", "all", graph]
    if base:
        v.update(shared(base, "-base"))
    if arrival and not mem:  # out of core: the units are set by the budget
        v["arrival"] = t + ["--gpu", "0"] + [graph]
    return v

def main():
    args = sys.argv[1:]
    runs = take_opt(args, "--runs", int, 3)
    out = take_opt(args, "--out", str, None)
    quarter = take_opt(args, "--quarter", lambda s: [int(x) for x in s.split(",")], [])
    cold = take_opt(args, "--cold", lambda s: [int(x) for x in s.split(",")], [])
    kk = take_opt(args, "--k", int, 0)
    kscales = take_opt(args, "--kscales", lambda s: [int(x) for x in s.split(",")], [])
    lscales = take_opt(args, "--lstc", lambda s: [int(x) for x in s.split(",")], [])
    lparts = take_opt(args, "--lparts", int, 8)
    base_build = take_opt(args, "--base", str, None)
    base_cache_only = "--base-cache-only" in args
    if base_cache_only:
        args.remove("--base-cache-only")
    arrival = "--no-arrival" not in args
    if not arrival:
        args.remove("--no-arrival")
    build, scales = args[0], [int(s) for s in args[1:]]
    sink = open(out, "a") if out else None
    rows = []
    work = os.environ.get("BENCH_DIR", "/tmp/multigpu")
    os.makedirs(work, exist_ok=True)
    for scale in scales:
        g = os.path.join(work, f"rmat{scale}.tsg")
        t = time.monotonic()
        gen_rmat(build, g, scale)
        print(f"R-MAT {scale}: generated in {time.monotonic() - t:.0f} s", file=sys.stderr)
        base, _ = timed(variants(build, g, 0)["one"])
        refs = {"triangles": base.get("triangles")}
        foot = 0
        if "error" not in base:  # one unit's bytes plus mid-hash's scratch
            foot = base["partition_stats"][0]["bytes"] + 8 * base["id_range"] + 8 * base["edges"] + 24576
        sets = [("page cache", 0, runs, False)]
        if kk and scale in kscales:
            kbase, _ = timed(clique_variants(build, g, kk)["one"])
            refs[f"{kk}-cliques"] = kbase.get("cliques")
            sets.append((f"{kk}-cliques", 0, runs, False))
        if scale in lscales:
            sets.append((f"lstc P={lparts}", 0, runs, False))
        if scale in quarter and foot:
            sets.append(("1/4 memory", 2 * foot // 4, runs, False))
        if scale in cold:
            sets.append(("cold file", 0, 1, True))
        for label, mem, n, is_cold in sets:
            clique = label.endswith("-cliques")
            if clique:
                v = clique_variants(build, g, kk)
            elif label.startswith("lstc"):
                v = lstc_variants(build, g, lparts)
            else:
                use_base = base_build if label == "page cache" or not base_cache_only else None
                v = variants(build, g, mem, use_base, arrival)
            ref = refs[label] if clique else refs["triangles"]
            if is_cold:
                v = {k: v[k] for k in ("one", "two", "mpi2")}
            res = {k: [] for k in v}
            names = list(v)
            for r in range(n):
                # alternating, so drift hits all alike, and each run starting one
                # variant later: the process after a one-GPU run starts slower
                # (0.13-0.19 s more outside counting at R-MAT 24 and 25 on two
                # H200s, whichever build ran there: raw h200x2-2026-11-26-*)
                for name in names[r % len(names):] + names[:r % len(names)]:
                    cmd = v[name]
                    if is_cold:
                        drop_caches()
                    j, wall = timed(cmd)
                    rec = {"scale": scale, "set": label, "variant": name, "run": r, "wall_s": wall,
                           "cmd": " ".join(cmd), "result": j}
                    if sink:
                        sink.write(json.dumps(rec) + "\n")
                        sink.flush()
                    got = j.get("cliques" if clique else "triangles")
                    ok = "error" not in j and ref is not None and got == ref
                    if not ok:
                        print(f"R-MAT {scale} {label} {name}: {j.get('error', '')} {j.get('stderr', '')} "
                              f"count {got} vs {ref}", file=sys.stderr)
                    res[name].append((count_part(j) if "error" not in j else None, wall, ok,
                                      j.get("gpu_imbalance", j.get("rank_imbalance")),
                                      j.get("partitions")))
            for name, rs in res.items():
                good = [x for x in rs if x[2]]
                if not good:
                    rows.append((scale, label, name, None, None, None, None, "FAILED"))
                    continue
                rows.append((scale, label, name, statistics.median(x[0] for x in good),
                             statistics.median(x[1] for x in good), good[0][3], good[0][4],
                             "ok" if len(good) == len(rs) else f"{len(rs) - len(good)} failed"))
        os.remove(g)
    print(f"{'R-MAT':>5} {'set':<11} {'variant':<9} {'units':>5} {'count s':>8} {'x one':>6} "
          f"{'e2e s':>7} {'x one':>6} {'imbal':>6} check")
    for scale, label, name, c, e, imb, units, check in rows:
        one = next((r for r in rows if r[0] == scale and r[1] == label and r[2] == "one"), None)
        if c is None:
            print(f"{scale:>5} {label:<11} {name:<9} {'':>5} {check}")
            continue
        xc = f"{one[3] / c:.2f}" if one and one[3] and c else ""
        xe = f"{one[4] / e:.2f}" if one and one[4] and e else ""
        im = f"{imb:.2f}" if imb else ""
        print(f"{scale:>5} {label:<11} {name:<9} {units or '':>5} {c:>8.3f} {xc:>6} {e:>7.2f} "
              f"{xe:>6} {im:>6} {check}")

if __name__ == "__main__":
    main()
