#!/usr/bin/env bash
# bench/billion.sh - a billion-edge graph counted end to end from its file.
#
#   bench/billion.sh BUILD_DIR [SCALE=26] [WORK_DIR] [RESULT_DIR]
#
# Generates R-MAT SCALE (edge factor 16, seed 1: about 1.07 G edges at 26),
# measures the disk's raw O_DIRECT sequential read of the file (dd), then
# counts it from the file with the io_uring O_DIRECT reader (the page cache
# cannot help) on the GPU in memory (default kernel, mid-hash), out of core
# with slots of 1/4 of the footprint, with the lstc and the paper-faithful
# kernels in memory, and on the CPU; every GPU count
# is checked against the CPU's. One run each: the graph takes minutes to
# make. JSON per run goes to RESULT_DIR; a table is printed last.
set -euo pipefail
B=${1:?usage: billion.sh BUILD_DIR [SCALE] [WORK_DIR] [RESULT_DIR]}
S=${2:-26}
D=${3:-$(mktemp -d)}
R=${4:-$D}
G=$D/rmat$S.tsg
mkdir -p "$D" "$R"
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
now() { date +%s.%N; }
t0=$(now)
"$B/tristream-gen" --quiet rmat --scale "$S" --seed 1 "$G"
echo "{\"gen_s\": $(python3 -c "print($(now) - $t0)"), \"bytes\": $(stat -c %s "$G")}" >"$R/gen.json"
dd if="$G" of=/dev/null bs=64M iflag=direct 2>&1 | tail -1 | tee "$R/dd.txt"

run() { # label, args...
	local label=$1; shift
	local t=$(now)
	"$B/tristream" count --quiet --json --io uring "$G" "$@" >"$R/$label.json" || echo "{\"error\": $?}" >"$R/$label.json"
	echo "{\"wall_s\": $(python3 -c "print($(now) - $t)")}" >"$R/$label.wall.json"
	echo "done: $label"
}
run gpu-in-memory --device gpu
foot=$(python3 -c "import json; r=json.load(open('$R/gpu-in-memory.json')); print(r['partition_stats'][0]['bytes'] + 8 * r['id_range'] + 8 * r['edges'] + 16384 + 8192)" || echo 0)
run gpu-oc-quarter --device gpu --gpu-mem $((2 * foot / 4))
run gpu-lstc --device gpu --partitions 1 --kernel lstc
run gpu-paper --device gpu --partitions 1 --kernel lstc-paper
run cpu --device cpu

python3 - "$R" <<'EOF'
import json, os, sys
r = sys.argv[1]
gen = json.load(open(os.path.join(r, "gen.json")))
dd = open(os.path.join(r, "dd.txt")).read().strip()
print(f"file: {gen['bytes'] / 1e9:.2f} GB, generated in {gen['gen_s']:.0f} s; dd O_DIRECT: {dd}")
cpu = json.load(open(os.path.join(r, "cpu.json")))
ref = cpu.get("triangles")
print(f"{'run':<16} {'triangles':>15} {'units':>5} {'read s':>7} {'GB/s':>6} {'build s':>8} "
      f"{'kernels s':>9} {'engine s':>8} {'total s':>8} {'wall s':>7} {'MTEPS':>7} check")
for label in ("gpu-in-memory", "gpu-oc-quarter", "gpu-lstc", "gpu-paper", "cpu"):
    j = json.load(open(os.path.join(r, label + ".json")))
    w = json.load(open(os.path.join(r, label + ".wall.json")))["wall_s"]
    if "error" in j:
        print(f"{label:<16} failed with exit {j['error']}")
        continue
    st = j["stages"]
    kern = sum(p.get("kernel_ms", 0) for p in j["partition_stats"]) / 1000 or st["count"]
    rate = gen["bytes"] / st["read"] / 1e9 if st["read"] else 0
    ok = "ok" if j["triangles"] == ref else "WRONG"
    print(f"{label:<16} {j['triangles']:>15} {j['partitions']:>5} {st['read']:>7.2f} {rate:>6.2f} "
          f"{st['build']:>8.2f} {kern:>9.3f} {st['engine']:>8.2f} {j['seconds']:>8.2f} {w:>7.1f} "
          f"{j['edges'] / j['seconds'] / 1e6:>7.1f} {ok}")
EOF
