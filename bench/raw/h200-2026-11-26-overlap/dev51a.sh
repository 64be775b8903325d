#!/bin/bash
# session 27, call A: tests/gpu/oriented.sh on the GPU (first time), then
# bench/read_speed.sh rows dd 1 2 6 11 12 at R-MAT 26 (oriented file beside the plain one)
set -u
G=.carry/gpu; W=/tmp/rs; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; sha256sum $G/tristream | cut -c1-16; git log --oneline -1; } > $OUT/info.txt
timeout 170 bash tests/gpu/oriented.sh $G .carry/data > $OUT/oriented-gpu.txt 2>&1; echo "oriented.sh exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
OUT=$W/out RUNS=3 EXPECT=49154930897 ROWS="dd 1 2 6 11 12" RUN_TIMEOUT=60 timeout 400 bash bench/read_speed.sh $G 26 $W/w > $OUT/read-speed.txt 2>&1
echo "read_speed exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
cp $W/out/table.md $OUT/ 2>/dev/null
cd $W/out && tar czf $OUT/read-speed-runs.tgz . 2>/dev/null
tail -30 $OUT/oriented-gpu.txt | grep -E "passed|FAIL" | tail -5
cat $OUT/info.txt; tail -40 $OUT/read-speed.txt
