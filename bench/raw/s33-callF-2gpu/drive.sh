#!/bin/bash
# session 33, call F (two GPUs): #50's rows 2 and 3 (--gpu-mem 1/4 of the
# file, cold, one GPU / --gpus 2) with the session's build (.carry/gpu10:
# kept source rows on one GPU, larger source blocks, 16 MiB reads), medians
# of 3: are two GPUs still not slower than one, now that one got faster?
set -u
t0=$(date +%s)
OUT=$OUT/rs RUNS=3 EXPECT=49154930897 GPUS2=1 ROWS="dd 2 3" RUN_TIMEOUT=60 \
	timeout 540 bash bench/read_speed.sh .carry/gpu10 26 /tmp/rs > $OUT/read-speed.txt 2>&1
echo "read_speed.sh exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/read-speed.txt
cp $OUT/rs/table.md $OUT/table.md 2>/dev/null
(cd $OUT/rs && tar czf ../read-speed-runs.tgz . ) && rm -rf $OUT/rs
grep -E "^host|^device|^dd O_|^\| [23] |busy per GPU|auto chose|read_speed.sh exit|FAIL" $OUT/read-speed.txt
