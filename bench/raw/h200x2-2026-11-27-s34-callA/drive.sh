#!/bin/bash
# session 34, call A (two GPUs, 32 cores): (1) the 300 M-page crawl at
# --host-mem 16G --gpu-mem 16G, chunk buffers pinned during the plan and at
# most 3 GiB (new, .carry/gpu13) against the build before (.carry/gpu12), each
# also with --batches 430 (chunks as small as the 3 GiB cap makes them on 32
# cores), beside the in-memory count, medians of 3, interleaved
# (bench/sweep.py); (2) k-cliques R-MAT 22 K = 4 at --gpu-mem 1G, one GPU / two,
# 5 runs each after a warm-up, interleaved
set -u
N=$(pwd)/.carry/gpu13; P=$(pwd)/.carry/gpu12; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $N/tristream $P/tristream | cut -c1-16; } > $OUT/info.txt
s=$(date +%s); $N/tristream-gen --quiet --seed 1 --webgraph crawl --vertices 300000000 $W/c300m; echo "gen c300m rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
timeout 330 python3 bench/sweep.py $N $W/c300m --runs 3 --bounded "16G,16G" --before $P \
  --variant "bounded-b430=--host-mem 16G --gpu-mem 16G --batches 430" --jsonl $OUT/sweep-300m.jsonl > $OUT/sweep-300m.txt 2>&1
echo "sweep bench exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
rm -f $W/c300m*
$N/tristream-gen --quiet rmat --scale 22 --seed 1 $W/r22.tsg; cat $W/r22.tsg >/dev/null
ref=124171307855  # the CPU's count of this graph (bench/raw/h200x2-2026-11-27-cliques-gpus/call-f-info.txt)
for i in 0 1 2 3 4 5; do for a in "--gpu 0 --gpu-mem 1G" "--gpus 2 --gpu-mem 1G"; do
  [ $(( $(date +%s) - t0 )) -lt 560 ] || break 2
  s=$EPOCHREALTIME; $N/tristream count --quiet --json --k 4 $a $W/r22.tsg > $W/t.json 2>$W/t.err; rc=$?; e=$EPOCHREALTIME
  [ $i = 0 ] && continue
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%-26s rc=%s whole=%.2f own=%.2f k4=%s ok=%s parts=%s gpus=%s plan=%.2f count_wall=%.2f" % (sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["seconds"], d["cliques"], str(d["cliques"]) == sys.argv[6], d["partitions"], len(d.get("gpus", [])) or 1, d["stages"].get("plan",0), d["stages"].get("count_wall",0)))' $W/t.json "$a" $rc $s $e "$ref" >> $OUT/cliques.txt 2>&1 || echo "$a rc=$rc $(head -c 300 $W/t.err)" >> $OUT/cliques.txt
done; done
echo "cliques done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
cat $OUT/info.txt; tail -12 $OUT/sweep-300m.txt; cat $OUT/cliques.txt | cut -c1-200
