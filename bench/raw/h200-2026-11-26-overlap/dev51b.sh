#!/bin/bash
# session 27, call B: an oriented .tsg counted as it is read (--overlap):
# read_speed rows dd 6 11 12 at R-MAT 26; a column sweep; tests/gpu/oriented.sh
set -u
G=.carry/gpu; W=/tmp/rs; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; sha256sum $G/tristream | cut -c1-16; git log --oneline -1; } > $OUT/info.txt
OUT=$W/out RUNS=3 EXPECT=49154930897 ROWS="dd 6 11 12" RUN_TIMEOUT=60 timeout 380 bash bench/read_speed.sh $G 26 $W/w > $OUT/read-speed.txt 2>&1
echo "read_speed exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
cp $W/out/table.md $OUT/ 2>/dev/null
(cd $W/out && tar czf $OUT/read-speed-runs.tgz .)
F=$W/w/rmat26.oriented.tsg
if [ -f $F ]; then
  cat $F > /dev/null
  for c in 4 8 16 32 off; do for i in 1 2 3; do
    s=$EPOCHREALTIME; $G/tristream count --quiet --json --overlap $c $F > $W/sw.json; rc=$?; e=$EPOCHREALTIME
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); st=d["stages"]; print("overlap %-4s rc=%s whole=%.2f own=%.2f tri=%s units=%s read=%.2f wait=%.2f count=%.2f cwall=%.2f note=%s" % (sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["seconds"], d["triangles"], d["partitions"], st["read"], st.get("read_wait",-1), st["count"], st.get("count_wall",0), d.get("note","")[:90]))' $W/sw.json $c $rc $s $e >> $OUT/sweep.txt 2>&1
  done; done
fi
echo "sweep done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
timeout $(( 590 - ($(date +%s) - t0) )) bash tests/gpu/oriented.sh $G .carry/data > $OUT/oriented-gpu.txt 2>&1; echo "oriented.sh exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
grep -E "FAIL|passed" $OUT/oriented-gpu.txt | tail -12
cat $OUT/info.txt $OUT/sweep.txt; grep -E "^\| (6|11|12) |^dd|^tristream info|FAIL|expected" $OUT/read-speed.txt; grep "^row 1[12]" $OUT/read-speed.txt | grep -v "tristream count"
