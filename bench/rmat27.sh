#!/usr/bin/env bash
# bench/rmat27.sh - R-MAT 27 (2.1 G edges) on the GPU machine, where the
# whole gpu_bench.py does not fit one device command: the default kernel in
# memory and out of core at 1/4 of the footprint (RUNS runs each, default 3;
# the summary prints the median), and the paper-faithful kernel once; all
# counts are compared with each other (the CPU takes minutes here; it is
# checked at scale 26 by billion.sh).
#
#   OUT=RESULT_DIR [RUNS=3] bench/rmat27.sh [BUILD_DIR] [GRAPH_PATH]
set -u
cd "$(dirname "$0")/.."
B=${1:-build-gpu}; G=${2:-/tmp/r27.tsg}
mkdir -p "$OUT"
[ -f "$G" ] || $B/tristream-gen rmat --scale 27 "$G" 2>"$OUT/gen.err"
run() { local name=$1; shift; timeout 200 $B/tristream count --quiet --json $G "$@" > "$OUT/27-$name.json" 2>"$OUT/27-$name.err"; echo "$name rc=$?"; }
RUNS=${RUNS:-3}
for i in $(seq 1 "$RUNS"); do run mid-hash-$i --device gpu --partitions 1 --kernel mid-hash; done
FOOT=$(python3 -c "import json;r=json.load(open('$OUT/27-mid-hash-1.json'));print(2*(r['partition_stats'][0]['bytes']+8*r['id_range']+8*r['edges']+16384+8192)//4)")
for i in $(seq 1 "$RUNS"); do run oc4-$i --device gpu --gpu-mem "$FOOT"; done
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
python3 - "$OUT" <<'PY'
import json, glob, statistics, sys
for v in ("mid-hash", "oc4"):
    js = [json.load(open(f)) for f in glob.glob(f"{sys.argv[1]}/27-{v}-*.json")]
    if js:
        med = lambda f: statistics.median(f(j) for j in js)
        print(f"{v}: median of {len(js)}: total {med(lambda j: j['seconds']):.3f} s, engine "
              f"{med(lambda j: j['stages']['engine']):.3f} s, kernels "
              f"{med(lambda j: sum(p['kernel_ms'] for p in j['partition_stats'])) / 1000:.3f} s")
PY
python3 -c "import json,glob,sys; t={json.load(open(f))['triangles'] for f in glob.glob('$OUT/27-*.json')}; print('counts agree' if len(t)==1 else 'COUNTS DIFFER', t)"
