#!/usr/bin/env bash
# bench/stream.sh - reading a cold file against counting it, on the GPU
# machine: how close end-to-end time comes to max(read, GPU), the target of
# the NVMe issue, and what bounded host memory and compression cost.
#
#   OUT=RESULT_DIR [RUNS=3] [EXPECT=N] bench/stream.sh [BUILD_DIR] [SCALE=26] [WORK_DIR]
#
# Generates R-MAT SCALE (seed 1) in WORK_DIR, then, all from the file with
# O_DIRECT reads (io_uring) so that the page cache does not help:
#  - dd: the disk's raw sequential rate;
#  - info: our reader alone (read and validate, nothing else): "read";
#  - count on the GPU in memory, RUNS times each, side by side: the arrival
#    layout (the default: each batch of the file counted as soon as it is
#    read) and the block layout (oriented as read, counted after); the
#    device's copy + kernel time is "GPU";
#  - the same at 1/4 of the GPU footprint (out of core);
#  - the LZ4 file (made here), read, decoded and oriented chunk by chunk;
#  - --host-mem 4G (spilling: mapped input, scratch-file oriented graph).
# Every count must agree (and equal EXPECT if given: a CPU-checked count).
# One JSON per run in OUT; a table last.
set -u
cd "$(dirname "$0")/.."
B=${1:-build-gpu}; S=${2:-26}; D=${3:-/tmp/tsg-stream}
: "${OUT:?set OUT=RESULT_DIR}"
RUNS=${RUNS:-3}
DEV=${DEV:-gpu} # cpu: to try the script where there is no GPU
mkdir -p "$OUT" "$D"
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
G=$D/rmat$S.tsg
[ -f "$G" ] || "$B/tristream-gen" --quiet rmat --scale "$S" --seed 1 "$G"
drop() { sync; echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || true; }
drop
dd if="$G" of=/dev/null bs=64M iflag=direct 2>&1 | tail -1 >"$OUT/dd.txt"
t=$(date +%s.%N)
"$B/tristream" info --io uring --json "$G" >/dev/null
python3 -c "print('{\"info_s\": %.3f}' % ($(date +%s.%N) - $t))" >"$OUT/info.json"
run() { # name, args...
	local name=$1; shift
	timeout 300 "$B/tristream" count --quiet --json "$@" >"$OUT/$name.json" 2>"$OUT/$name.err"
	echo "$name: exit $?"
}
for i in $(seq 1 "$RUNS"); do
	run "gpu-$i" --device "$DEV" --io uring "$G"
	run "block-$i" --device "$DEV" --io uring --layout block "$G"
done
FOOT=$(python3 -c "import json;r=json.load(open('$OUT/block-1.json'));print(2*(r['partition_stats'][0]['bytes']+8*r['id_range']+8*r['edges']+16384+8192)//4)")
run gpu-oc4 --device "$DEV" --io uring --gpu-mem "$FOOT" "$G"
"$B/tristream" compress --quiet "$G" "$D/rmat$S.lz4.tsg"
drop
run gpu-lz4 --device "$DEV" --io uring "$D/rmat$S.lz4.tsg"
drop
run gpu-spill --device "$DEV" --host-mem 4G --scratch-dir "$D" "$G"
python3 - "$OUT" "$G" "${EXPECT:-}" <<'PY'
import json, os, statistics, sys
out, graph, expect = sys.argv[1], sys.argv[2], sys.argv[3]
dd = open(os.path.join(out, "dd.txt")).read().strip()
info = json.load(open(os.path.join(out, "info.json")))["info_s"]
size = os.path.getsize(graph)
print(f"file {size / 1e9:.2f} GB; dd O_DIRECT: {dd}")
print(f"read alone (tristream info, uring, read + validate): {info:.2f} s, {size / info / 1e9:.2f} GB/s")
rows, counts = [], set()
for name in sorted(os.listdir(out)):
    if not name.endswith(".json") or name in ("info.json",):
        continue
    try:
        j = json.load(open(os.path.join(out, name)))
    except Exception:
        print(name, "no result:", open(os.path.join(out, name[:-5] + ".err")).read()[-300:])
        continue
    s = j["stages"]
    kern = sum(p.get("kernel_ms", 0) for p in j["partition_stats"]) / 1000
    counts.add(j["triangles"])
    rows.append((name[:-5], j, s, kern))
# rows: the pass over the lists (read, checked, rows written); after: what
# followed it (arrival: the last batches' count; block: placing the rows,
# then every unit's copies and kernels)
print(f"{'run':<10} {'layout':<8} {'triangles':>15} {'units':>5} {'read':>6} {'rows':>6} "
      f"{'after':>6} {'gpu':>6} {'total':>7} {'ratio':>6} mode")
runs = {"gpu": [], "block": []}
for name, j, s, kern in rows:
    gpu = s["count"]  # copies + kernels: the device's busy time
    ratio = j["seconds"] / max(info, gpu)
    kind = name.split("-")[0]
    if kind in runs and name.split("-")[1].isdigit():
        runs[kind].append(j["seconds"])
    if j["layout"] == "arrival":
        rws, after = s["arrival_rows"], s["arrival_tail"]
    else:
        rws, after = s["orient_rows"], s["orient_place"] + gpu
    mode = j.get("host_mem", {}).get("mode", "in-memory") + (" lz4" if j["compression"] == "lz4" else "")
    print(f"{name:<10} {j['layout']:<8} {j['triangles']:>15} {j['partitions']:>5} {s['read']:>6.2f} "
          f"{rws:>6.2f} {after:>6.2f} {gpu:>6.2f} {j['seconds']:>7.2f} {ratio:>6.2f} {mode}")
for kind, ts in runs.items():
    if ts:
        med = statistics.median(ts)
        print(f"{'arrival' if kind == 'gpu' else 'block'} in memory, median of {len(ts)}: "
              f"{med:.2f} s end to end = {med / info:.2f}x the read alone")
print("counts agree" if len(counts) == 1 else f"COUNTS DIFFER: {sorted(counts)}",
      "" if not expect else ("and equal the expected count" if counts == {int(expect)} else
                             f"but EXPECTED {expect}"))
PY
