#!/bin/bash
set -u
G=.carry/gpu; W=/tmp/w; mkdir -p $W
nvidia-smi --query-gpu=name --format=csv,noheader
for n in 30 100; do s=$(date +%s); $G/tristream-gen --quiet --webgraph crawl --vertices ${n}000000 $W/c${n}m; echo "gen ${n}M: $(( $(date +%s) - s )) s"; done
ls -la $W
python3 bench/sweep.py $G $W/c30m $W/c100m --runs 3 --bounded "4G,2G;16G,8G" --jsonl $OUT/sweep-warm.jsonl
python3 bench/sweep.py $G $W/c100m --runs 1 --cold --bounded "16G,8G" --jsonl $OUT/sweep-cold.jsonl
