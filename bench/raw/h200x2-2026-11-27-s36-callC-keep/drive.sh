#!/bin/bash
# session 36, call C (two GPUs, 32 cores): the 300 M-page crawl at
# --host-mem 16G --gpu-mem 16G with decoded chunks kept between the passes
# (new, .carry/gpu21) against the build before (.carry/gpu20), beside the
# in-memory count and the one-pass sweep, medians of 3, interleaved
# (bench/sweep.py), on all 32 cores.
set -u
N=$(pwd)/.carry/gpu21; P=$(pwd)/.carry/gpu20; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $N/tristream $P/tristream | cut -c1-16; } > $OUT/info.txt
s=$(date +%s); $N/tristream-gen --quiet --seed 1 --webgraph crawl --vertices 300000000 $W/c300m; echo "gen c300m rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
timeout 480 python3 bench/sweep.py $N $W/c300m --runs 3 --bounded "16G,16G" --before $P \
  --jsonl $OUT/sweep-300m-32.jsonl > $OUT/sweep-300m-32.txt 2>&1
echo "32 cores: sweep bench exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
cat $OUT/info.txt; tail -8 $OUT/sweep-300m-32.txt; 
