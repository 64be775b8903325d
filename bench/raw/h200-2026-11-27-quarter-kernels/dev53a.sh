#!/bin/bash
# session 29, call A (one GPU): the oriented R-MAT 26 at a quarter of the
# plain file's size of GPU memory, warm: where the device time goes (auto
# against each kernel, fixed block counts, --overlap off), one run each,
# every run's JSON kept; then tests/gpu/oriented.sh on this build (its LZ4
# runs' first time on a GPU)
set -u
B=.carry/gpu2; W=/tmp/rs; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nproc; free -g | head -2; sha256sum $B/tristream | cut -c1-16; } > $OUT/info.txt
$B/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg && $B/tristream-convert --quiet --oriented $W/r26.tsg $W/r26.o.tsg
Q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
echo "made at $(( $(date +%s) - t0 )) s; quarter $Q bytes" >> $OUT/info.txt
row() { # label args...
  local l=$1; shift
  s=$EPOCHREALTIME; timeout 120 $B/tristream count --quiet --json "$@" > $W/json-$l.json 2>$W/r.err; rc=$?; e=$EPOCHREALTIME
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); st=d["stages"]; ps=d.get("partition_stats") or []; print("%-14s rc=%s whole=%.2f own=%.2f tri=%s read=%.2f wait=%.2f count=%.2f cwall=%.2f units=%s blocks=%s h2d=%.1fGB kern=%.2f copy=%.2f kernel=%s" % (sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["seconds"], d["triangles"], st["read"], st.get("read_wait",-1), st["count"], st.get("count_wall",0), d["partitions"], d.get("blocks"), d.get("h2d_bytes",0)/1e9, sum(p.get("kernel_ms",0) for p in ps)/1e3, sum(p.get("h2d_ms",0) for p in ps)/1e3, d["kernel"]))' $W/json-$l.json $l $rc $s $e >> $OUT/runs.txt 2>&1 || { echo "$l rc=$rc"; tail -2 $W/r.err; } >> $OUT/runs.txt
}
F=$W/r26.o.tsg
cat $W/r26.o.tsg > /dev/null
row full $F
row q-auto $F --gpu-mem $Q
row q-auto2 $F --gpu-mem $Q
row q-mid $F --gpu-mem $Q --kernel mid-hash
row q-edge $F --gpu-mem $Q --kernel edge-merge
row q-lhash $F --gpu-mem $Q --kernel lstc-hash
row q-off $F --gpu-mem $Q --overlap off
for p in 3 4 6 8 12; do row q-p$p $F --gpu-mem $Q --partitions $p; done
row h-auto $F --gpu-mem $((2*Q))
echo "runs done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
(cd $W && tar czf $OUT/runs-json.tgz json-*.json)
rm -f $W/r26.tsg $W/r26.o.tsg
timeout $(( 570 - ($(date +%s) - t0) )) bash tests/gpu/oriented.sh $B .carry/data > $OUT/oriented-gpu.txt 2>&1; echo "oriented.sh exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
cat $OUT/info.txt $OUT/runs.txt; grep -E "FAIL|passed" $OUT/oriented-gpu.txt | tail -8
