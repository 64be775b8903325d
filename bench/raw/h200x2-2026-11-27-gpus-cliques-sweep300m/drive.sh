#!/bin/bash
# session 32, call B (two GPUs): (1) k-cliques R-MAT 22 K = 4 on one GPU /
# two, whole and at --gpu-mem 1G (31st session: the parts GPU 0 alone
# needs, planned once and shared), interleaved, 3 runs after a warm-up;
# (2) the 300 M-page crawl in memory / sweep one pass / 16G,16G on this
# 32-core host (bench/sweep.py, medians of 3); (3) ONLY=lstc tests/gpu/multi.sh
set -u
G=$(pwd)/.carry/gpu4; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
export NCCL_NVLS_ENABLE=0
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; sha256sum $G/tristream | cut -c1-16; } > $OUT/info.txt
$G/tristream-gen --quiet rmat --scale 22 --seed 1 $W/r22.tsg; cat $W/r22.tsg >/dev/null
ref=124171307855  # the CPU's count of this graph (bench/raw/h200x2-2026-11-27-cliques-gpus/call-f-info.txt)
for i in 0 1 2 3; do for a in "--gpu 0" "--gpus 2" "--gpu 0 --gpu-mem 1G" "--gpus 2 --gpu-mem 1G"; do
  s=$EPOCHREALTIME; $G/tristream count --quiet --json --k 4 $a $W/r22.tsg > $W/t.json 2>$W/t.err; rc=$?; e=$EPOCHREALTIME
  [ $i = 0 ] && continue
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%-26s rc=%s whole=%.2f own=%.2f k4=%s ok=%s parts=%s gpus=%s stages=%s note=%s" % (sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["seconds"], d["cliques"], str(d["cliques"]) == sys.argv[6], d["partitions"], len(d.get("gpus", [])) or 1, json.dumps(d.get("stages")), d.get("note","")))' $W/t.json "$a" $rc $s $e "$ref" >> $OUT/cliques.txt 2>&1 || echo "$a rc=$rc $(head -c 300 $W/t.err)" >> $OUT/cliques.txt
done; done
echo "cliques done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
s=$(date +%s); $G/tristream-gen --quiet --seed 1 --webgraph crawl --vertices 300000000 $W/c300m; echo "gen c300m rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
timeout 260 python3 bench/sweep.py $G $W/c300m --runs 3 --bounded "16G,16G" --jsonl $OUT/sweep-300m.jsonl > $OUT/sweep-300m.txt 2>&1
echo "sweep bench exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
rm -f $W/c300m*
left=$(( 580 - ($(date +%s) - t0) ))
ONLY=lstc timeout $left bash tests/gpu/multi.sh $G .carry/data > $OUT/multi-lstc.txt 2>&1; echo "multi.sh ONLY=lstc exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
cat $OUT/info.txt; cut -c1-220 $OUT/cliques.txt; tail -15 $OUT/sweep-300m.txt; grep -E "FAIL|passed" $OUT/multi-lstc.txt | tail -6
