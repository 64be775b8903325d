#!/bin/bash
# session 33, call D (one GPU): the mapped file read with 64 MiB asked ahead
# (.carry/gpu10) against the build before it (.carry/gpu9) on #50's row 4
# (--host-mem 4G, cold: the arrival layout over the mapped file), medians of
# 3, run for run; then tests/gpu/run.sh counts 1/11 (KERNELS=auto) on gpu10
set -u
t0=$(date +%s)
OUT=$OUT/rs RUNS=3 EXPECT=49154930897 GPUS2=0 ROWS="dd 4" BEFORE=.carry/gpu9 ROWS_BEFORE="4" \
	RUN_TIMEOUT=60 timeout 300 bash bench/read_speed.sh .carry/gpu10 26 /tmp/rs > $OUT/read-speed.txt 2>&1
echo "read_speed.sh exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/read-speed.txt
cp $OUT/rs/table.md $OUT/table.md 2>/dev/null
(cd $OUT/rs && tar czf ../read-speed-runs.tgz . ) && rm -rf $OUT/rs
left=$(( 585 - ($(date +%s) - t0) ))
KERNELS=auto timeout $left bash tests/gpu/run.sh .carry/gpu10 .carry/data counts 1/11 > $OUT/run-counts-1of11.txt 2>&1
echo "tests/gpu/run.sh counts 1/11 (KERNELS=auto) on gpu10 ($(sha256sum .carry/gpu10/tristream | cut -c1-16)): exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/run-counts-1of11.txt)" >> $OUT/read-speed.txt
grep -E "^dd|^info|^\| 4 |tests/gpu|read_speed|FAIL" $OUT/read-speed.txt | head -30; grep FAIL $OUT/run-counts-1of11.txt | head -5
