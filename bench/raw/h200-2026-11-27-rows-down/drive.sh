#!/bin/bash
# session 28, call C: the oriented file read from its end down, row blocks
# (--overlap-cut rows, the new GPU default) against columns read up (the
# old default, --overlap-cut columns) and --overlap off, same build; warm
# and cold; then tests/gpu/oriented.sh on this build
set -u
B=.carry/gpu2; W=/tmp/rs; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; sha256sum $B/tristream | cut -c1-16; } > $OUT/info.txt
$B/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg && $B/tristream-convert --quiet --oriented $W/r26.tsg $W/r26.o.tsg
echo "made at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
cold() { sync; echo 3 > /proc/sys/vm/drop_caches; }
row() { # label temp file args...
  local l=$1 t=$2 f=$3; shift 3
  [ $t = cold ] && cold
  s=$EPOCHREALTIME; $B/tristream count --quiet --json "$@" $f > $W/r.json 2>$W/r.err; rc=$?; e=$EPOCHREALTIME
  cp $W/r.json $W/json-$l-$t-$i.json
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); st=d["stages"]; print("%-12s %-4s rc=%s whole=%.2f own=%.2f tri=%s read=%.2f wait=%.2f count=%.2f cwall=%.2f units=%s" % (sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[6])-float(sys.argv[5]), d["seconds"], d["triangles"], st["read"], st.get("read_wait",-1), st["count"], st.get("count_wall",0), d["partitions"]))' $W/r.json $l $t $rc $s $e >> $OUT/runs.txt 2>&1 || { echo "$l $t rc=$rc"; tail -2 $W/r.err; } >> $OUT/runs.txt
}
cat $W/r26.tsg $W/r26.o.tsg > /dev/null
for i in 1 2 3; do
  row rows warm $W/r26.o.tsg
  row columns warm $W/r26.o.tsg --overlap-cut columns
  row off warm $W/r26.o.tsg --overlap off
  row plain warm $W/r26.tsg
done
for i in 1 2 3; do
  cold; s=$EPOCHREALTIME; dd if=$W/r26.o.tsg of=/dev/null bs=8M iflag=direct 2>/dev/null; e=$EPOCHREALTIME
  echo "dd-oriented  cold whole=$(python3 -c "print('%.2f' % ($e - $s))")" >> $OUT/runs.txt
  row rows cold $W/r26.o.tsg --io uring
  row columns cold $W/r26.o.tsg --io uring --overlap-cut columns
done
echo "runs done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
(cd $W && tar czf $OUT/runs-json.tgz json-*.json)
rm -f $W/r26.tsg $W/r26.o.tsg
timeout $(( 590 - ($(date +%s) - t0) )) bash tests/gpu/oriented.sh $B .carry/data > $OUT/oriented-gpu.txt 2>&1; echo "oriented.sh exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
python3 - $OUT/runs.txt > $OUT/table.txt <<'PY'
import sys, re, statistics, collections
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    m = re.match(r"(\S+)\s+(\S+)\s+(?:rc=0 )?whole=([\d.]+)(?:.*read=([\d.]+))?", l)
    if m: d[(m[1], m[2])].append((float(m[3]), float(m[4] or 0)))
for k, v in d.items():
    print("%-12s %-4s n=%d whole %.2f (%.2f-%.2f) read %.2f" % (k[0], k[1], len(v), statistics.median(x[0] for x in v), min(x[0] for x in v), max(x[0] for x in v), statistics.median(x[1] for x in v)))
PY
cat $OUT/info.txt $OUT/table.txt; grep -E "FAIL|passed" $OUT/oriented-gpu.txt | tail -8
