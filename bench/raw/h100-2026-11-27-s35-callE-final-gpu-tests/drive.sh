#!/bin/bash
# session 35, call E (one GPU): the final build (.carry/gpu19, commit
# a4a0620): tests/gpu/multi.sh ONLY=arrival on two contexts of the one GPU
# (its check of a mapped file's pinned pages mended after call D: an empty
# graph pins none), then tests/gpu/sweep.sh (with session 34's check of
# the chunk buffers pinned again under --batches 1000).
set -u
N=$(pwd)/.carry/gpu19
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $N/tristream | cut -c1-16; } > $OUT/info.txt
ONLY=arrival timeout 150 bash tests/gpu/multi.sh $N .carry/data > $OUT/multi-arrival-1gpu.txt 2>&1
echo "tests/gpu/multi.sh ONLY=arrival (one GPU, two contexts): exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/multi-arrival-1gpu.txt)" >> $OUT/info.txt
timeout $(( 340 - ($(date +%s) - t0) )) bash tests/gpu/sweep.sh $N .carry/data > $OUT/sweep.txt 2>&1
echo "tests/gpu/sweep.sh: exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/sweep.txt)" >> $OUT/info.txt
cat $OUT/info.txt; grep -h FAIL $OUT/sweep.txt $OUT/multi-arrival-1gpu.txt | head -20
