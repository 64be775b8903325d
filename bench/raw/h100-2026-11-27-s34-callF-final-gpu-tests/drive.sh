#!/bin/bash
# session 34, call F (one GPU): the final build (.carry/gpu16, commit 88a02dc)
# under tests/gpu: run.sh's counts, slice 1 of 11 (KERNELS=auto: R-MAT 19 with
# the arrival layout, --host-mem's arrival over the map, damaged files, ...),
# then tests/gpu/sweep.sh (with the new check of chunk buffers pinned during
# the plan and pinned again where the plan outgrew them)
set -u
N=$(pwd)/.carry/gpu16
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $N/tristream | cut -c1-16; } > $OUT/info.txt
KERNELS=auto timeout 300 bash tests/gpu/run.sh $N .carry/data counts 1/11 > $OUT/run-counts-1of11.txt 2>&1
echo "tests/gpu/run.sh counts 1/11 (KERNELS=auto): exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/run-counts-1of11.txt)" >> $OUT/info.txt
left=$(( 570 - ($(date +%s) - t0) ))
timeout $left bash tests/gpu/sweep.sh $N .carry/data > $OUT/sweep.txt 2>&1
echo "tests/gpu/sweep.sh: exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/sweep.txt)" >> $OUT/info.txt
cat $OUT/info.txt; grep -h FAIL $OUT/run-counts-1of11.txt $OUT/sweep.txt | head -20
