#!/bin/bash
# session 36, call D (one GPU): GPU tests on the final build (.carry/gpu21):
# tests/gpu/sweep.sh (the sweep's chunks kept between passes, new this
# session), tests/gpu/run.sh counts 1/11 (KERNELS=auto; the arrival
# layout's review mends of session 35, c5b69f9, never run on a GPU before),
# tests/gpu/multi.sh ONLY=arrival (two contexts on the one GPU).
set -u
N=$(pwd)/.carry/gpu21
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $N/tristream | cut -c1-16; } > $OUT/info.txt
timeout 240 bash tests/gpu/sweep.sh $N .carry/data > $OUT/sweep.txt 2>&1
echo "tests/gpu/sweep.sh: exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/sweep.txt)" >> $OUT/info.txt
ONLY=arrival timeout 120 bash tests/gpu/multi.sh $N .carry/data > $OUT/multi-arrival-1gpu.txt 2>&1
echo "tests/gpu/multi.sh ONLY=arrival (one GPU, two contexts): exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/multi-arrival-1gpu.txt)" >> $OUT/info.txt
KERNELS=auto timeout $(( 585 - ($(date +%s) - t0) )) bash tests/gpu/run.sh $N .carry/data counts 1/11 > $OUT/run-counts-1of11.txt 2>&1
echo "tests/gpu/run.sh counts 1/11 (KERNELS=auto): exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/run-counts-1of11.txt)" >> $OUT/info.txt
cat $OUT/info.txt; grep -h FAIL $OUT/*.txt | head -20
