#!/bin/bash
# session 33, call C (one GPU): issue #50's table (bench/read_speed.sh) on
# the build with kept source rows, larger source blocks and 16 MiB io_uring
# reads (.carry/gpu9), rows 2 and 4 also with the build before (.carry/gpu7,
# 989a4c4) run for run; medians of 3
set -u
t0=$(date +%s)
OUT=$OUT/rs RUNS=3 EXPECT=49154930897 GPUS2=0 ROWS="dd 1 2 4 6 12" BEFORE=.carry/gpu7 ROWS_BEFORE="1 2 4" \
	RUN_TIMEOUT=60 timeout 570 bash bench/read_speed.sh .carry/gpu9 26 /tmp/rs > $OUT/read-speed.txt 2>&1
echo "read_speed.sh exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/read-speed.txt
cp $OUT/rs/table.md $OUT/table.md 2>/dev/null
(cd $OUT/rs && tar czf ../read-speed-runs.tgz . ) && rm -rf $OUT/rs
tail -60 $OUT/read-speed.txt
