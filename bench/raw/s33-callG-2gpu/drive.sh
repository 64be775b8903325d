#!/bin/bash
# session 33, call G (two GPUs): several GPUs keep source rows too
# (.carry/gpu11, ae2e933: a block's units taken together) against the build
# before (.carry/gpu10) on #50's row 3 (--gpu-mem 1/4, cold, --gpus 2), run
# for run, beside row 2 (one GPU), medians of 3; then tests/gpu/multi.sh
# ONLY=block (the block layout on two GPUs, no mpirun) on gpu11
set -u
t0=$(date +%s)
OUT=$OUT/rs RUNS=3 EXPECT=49154930897 GPUS2=1 ROWS="2 3" BEFORE=.carry/gpu10 ROWS_BEFORE="3" RUN_TIMEOUT=60 \
	timeout 220 bash bench/read_speed.sh .carry/gpu11 26 /tmp/rs > $OUT/read-speed.txt 2>&1
echo "read_speed.sh exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/read-speed.txt
cp $OUT/rs/table.md $OUT/table.md 2>/dev/null
(cd $OUT/rs && tar czf ../read-speed-runs.tgz . ) && rm -rf $OUT/rs
left=$(( 330 - ($(date +%s) - t0) ))
ONLY=block timeout $left bash tests/gpu/multi.sh .carry/gpu11 .carry/data > $OUT/multi-block.txt 2>&1
echo "multi.sh ONLY=block on gpu11: exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/multi-block.txt)" >> $OUT/read-speed.txt
grep -E "^host|^device|^\| [23] |busy per GPU|read_speed.sh exit|multi.sh|FAIL" $OUT/read-speed.txt; grep -E "FAIL" $OUT/multi-block.txt | head -5
