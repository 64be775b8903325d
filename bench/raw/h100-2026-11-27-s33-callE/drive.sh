#!/bin/bash
# session 33, call E (one GPU): the arrival layout's batch count on a warm
# file, where the device's work outlasts the read: R-MAT 26 and 25 (seed 1)
# warm with --batches 4 / 8 / 16 / 32 (32 is auto's), alternating, 3 runs
# each after a warm-up; then R-MAT 26 cold with 8 and 32, 2 runs each
set -u
N=$(pwd)/.carry/gpu10; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; sha256sum $N/tristream | cut -c1-16; } > $OUT/info.txt
for s in 26 25; do [ -f $W/r$s.tsg ] || { $N/tristream-gen --quiet rmat --scale $s --seed 1 $W/r$s.tsg; echo "gen r$s rc=$? at $(el) s" >> $OUT/info.txt; }; done
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; for f in $N/tristream /usr/local/cuda/lib64/libcudart.so* $(ldconfig -p | sed -n 's/.*=> \(.*libcuda.so.1\)$/\1/p'); do cat $f > /dev/null 2>&1; done; }
one() { local name=$1 g=$2; shift 2; local s=$EPOCHREALTIME
  $N/tristream count --quiet --json --device gpu "$@" $g > $W/$name.json 2>$W/$name.err; local rc=$?
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); st=d["stages"]; print(sys.argv[2], "rc", sys.argv[3], "whole %.2f" % (float(sys.argv[5])-float(sys.argv[4])), d["triangles"], d["layout"], "batches", d.get("batches"), "read %.2f" % st.get("read",0), "rows %.2f" % st.get("arrival_rows",0), "tail %.2f" % st.get("arrival_tail",0), "gpu %.2f" % st.get("count",0), "io", d["io"])' $W/$name.json "$name" $rc $s $EPOCHREALTIME >> $OUT/runs.txt 2>&1 || echo "$name rc=$rc $(tail -c 300 $W/$name.err)" >> $OUT/runs.txt; }
for s in 26 25; do
  cat $W/r$s.tsg > /dev/null; one warmup-$s $W/r$s.tsg
  for i in 1 2 3; do for b in 4 8 16 32; do [ $(el) -lt 420 ] && one warm-$s-b$b-$i $W/r$s.tsg --batches $b; done; done
done
echo "warm done at $(el) s" >> $OUT/info.txt
for i in 1 2; do for b in 8 32; do [ $(el) -lt 540 ] && { drop; one cold-26-b$b-$i $W/r26.tsg --io uring --batches $b; }; done; done
echo "cold done at $(el) s" >> $OUT/info.txt
cat $OUT/info.txt; cut -c1-200 $OUT/runs.txt
python3 - $OUT/runs.txt <<'PY'
import sys, re, statistics, collections
t = collections.defaultdict(list)
for l in open(sys.argv[1]):
    m = re.match(r'(warm|cold)-(\d+)-b(\d+)-\d+ rc 0 whole ([\d.]+)', l)
    if m: t[(m[1], m[2], int(m[3]))].append(float(m[4]))
for k in sorted(t): print(*k, "median %.2f" % statistics.median(t[k]), t[k])
PY
