#!/bin/bash
# session 30, call D (one GPU): the sweep whose passes sweep only the chunks
# after their block (gpu3, 37b0663: also the offsets decoded on every thread) against the build before (gpu2,
# ffde764): tests/gpu/sweep.sh on gpu3, then the 300 M-page crawl in
# memory, by the sweep in one pass, and at --host-mem 16G --gpu-mem 16G by
# both builds, interleaved, medians of 3 (bench/sweep.py)
set -u
N=$(pwd)/.carry/gpu3; O=$(pwd)/.carry/gpu2; W=/tmp/w; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nproc; free -g | head -2; sha256sum $N/tristream $O/tristream | cut -c1-16; } > $OUT/info.txt
timeout 240 bash tests/gpu/sweep.sh $N .carry/data > $OUT/gpu-sweep.txt 2>&1
echo "tests/gpu/sweep.sh: exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/gpu-sweep.txt)" >> $OUT/info.txt
s=$(date +%s); $N/tristream-gen --quiet --seed 1 --webgraph crawl --vertices 300000000 $W/c300m; echo "gen rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
head -6 $W/c300m.properties | tail -2 >> $OUT/info.txt
left=$(( 570 - ($(date +%s) - t0) ))
echo "bench with $left s left" >> $OUT/info.txt
timeout $left python3 bench/sweep.py $N $W/c300m --runs 3 --bounded "16G,16G" --before $O --jsonl $OUT/sweep-300m.jsonl > $OUT/sweep-300m.txt 2>&1
echo "bench: exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
cat $OUT/info.txt; grep -h "FAIL\|bad\|not " $OUT/gpu-sweep.txt | head; cat $OUT/sweep-300m.txt
