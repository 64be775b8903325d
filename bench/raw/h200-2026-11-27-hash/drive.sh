#!/bin/bash
# session 28, call B: XXH3 on AVX2 (io/hash.h) against the build before it,
# R-MAT 26, warm, the builds alternating, 3 runs each
set -u
A=.carry/gpu; B=.carry/gpu2; W=/tmp/rs; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; grep -m1 "model name" /proc/cpuinfo; grep -o -m1 "avx2\|avx512f" /proc/cpuinfo | sort -u | tr '\n' ' '; echo; sha256sum $A/tristream $B/tristream | cut -c1-16; } > $OUT/info.txt
$B/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg && $B/tristream-convert --quiet --oriented $W/r26.tsg $W/r26.o.tsg
echo "made at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
cat $W/r26.tsg $W/r26.o.tsg > /dev/null
row() { # label build file args...
  local l=$1 b=$2 f=$3; shift 3
  s=$EPOCHREALTIME; $b/tristream count --quiet --json "$@" $f > $W/r.json 2>$W/r.err; rc=$?; e=$EPOCHREALTIME
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); st=d["stages"]; print("%-14s %-5s rc=%s whole=%.2f own=%.2f tri=%s read=%.2f wait=%.2f count=%.2f cwall=%.2f" % (sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[6])-float(sys.argv[5]), d["seconds"], d["triangles"], st["read"], st.get("read_wait",-1), st["count"], st.get("count_wall",0)))' $W/r.json $l $(basename $b) $rc $s $e >> $OUT/runs.txt 2>&1 || { echo "$l $b rc=$rc"; tail -2 $W/r.err; } >> $OUT/runs.txt
}
for i in 1 2 3; do for b in $A $B; do
  row plain $b $W/r26.tsg
  row oriented $b $W/r26.o.tsg
  row oriented-off $b $W/r26.o.tsg --overlap off
done; done
echo "runs done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
python3 - $OUT/runs.txt > $OUT/table.txt <<'PY'
import sys, re, statistics, collections
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    m = re.match(r"(\S+)\s+(\S+) rc=0 whole=(\S+) own=(\S+) tri=(\d+) read=(\S+)", l)
    if m: d[(m[1], m[2])].append((float(m[3]), float(m[6]), m[5]))
for k, v in d.items():
    print("%-14s %-5s n=%d whole %.2f read %.2f tri %s" % (k[0], k[1], len(v), statistics.median(x[0] for x in v), statistics.median(x[1] for x in v), set(x[2] for x in v)))
PY
cat $OUT/info.txt $OUT/table.txt
