#!/usr/bin/env bash
# bench/rmat27.sh - R-MAT 27 (2.1 G edges) on the GPU machine, where the
# whole gpu_bench.py does not fit one device command: the default kernel in
# memory, out of core at 1/4 of the footprint, and the paper-faithful
# kernel, one run each; the three counts are compared with each other (the
# CPU takes minutes here; it is checked at scale 26 by billion.sh).
#
#   OUT=RESULT_DIR bench/rmat27.sh [BUILD_DIR] [GRAPH_PATH]
set -u
cd "$(dirname "$0")/.."
B=${1:-build-gpu}; G=${2:-/tmp/r27.tsg}
mkdir -p "$OUT"
[ -f "$G" ] || $B/tristream-gen rmat --scale 27 "$G" 2>"$OUT/gen.err"
run() { local name=$1; shift; timeout 200 $B/tristream count --quiet --json $G "$@" > "$OUT/27-$name.json" 2>"$OUT/27-$name.err"; echo "$name rc=$?"; }
run mid-hash --device gpu --partitions 1 --kernel mid-hash
FOOT=$(python3 -c "import json;r=json.load(open('$OUT/27-mid-hash.json'));print(2*(r['partition_stats'][0]['bytes']+8*r['vertices']+8*r['edges']+16384+8192)//4)")
run oc4 --device gpu --gpu-mem $FOOT
run lstc-paper --device gpu --partitions 1 --kernel lstc-paper
python3 - "$OUT" <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/27-*.json")):
    try: j = json.load(open(f))
    except Exception as e: print(os.path.basename(f), "no result"); continue
    s = j["stages"]; k = sum(p["kernel_ms"] for p in j["partition_stats"]) / 1000
    print(os.path.basename(f), j["triangles"], j["edges"], "units", j["partitions"], "kernel_sum", round(k, 3), "overlap", round(j.get("overlap", 0), 2),
          " ".join(f"{a}={b:.3f}" for a, b in s.items()), "total", round(j["seconds"], 3))
PY
python3 -c "import json,glob,sys; t={json.load(open(f))['triangles'] for f in glob.glob('$OUT/27-*.json')}; print('counts agree' if len(t)==1 else 'COUNTS DIFFER', t)"
