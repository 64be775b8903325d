#!/bin/bash
# session 28, call G (2 GPUs), final build: k-cliques R-MAT 22 K = 4 one /
# two GPUs (the parts the first GPU alone needs), then ONLY=lstc
# tests/gpu/multi.sh
set -u
G=.carry/gpu2; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
export NCCL_NVLS_ENABLE=0
t0=$(date +%s)
{ nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; sha256sum $G/tristream | cut -c1-16; } > $OUT/info.txt
$G/tristream-gen --quiet rmat --scale 22 --seed 1 $W/r22.tsg; cat $W/r22.tsg >/dev/null
ref=124171307855  # call F's CPU count of this graph (bench/raw/h200x2-2026-11-27-cliques-gpus/call-f-info.txt)
for i in 0 1 2 3; do for a in "--gpu 0" "--gpus 2" "--gpu 0 --gpu-mem 1G" "--gpus 2 --gpu-mem 1G"; do
  s=$EPOCHREALTIME; $G/tristream count --quiet --json --k 4 $a $W/r22.tsg > $W/t.json 2>$W/t.err; rc=$?; e=$EPOCHREALTIME
  [ $i = 0 ] && continue
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%-26s rc=%s whole=%.2f own=%.2f k4=%s ok=%s parts=%s gpus=%s note=%s" % (sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["seconds"], d["cliques"], str(d["cliques"]) == sys.argv[6], d["partitions"], len(d.get("gpus", [])) or 1, d.get("note","")[:60]))' $W/t.json "$a" $rc $s $e "$ref" >> $OUT/timing.txt 2>&1 || echo "$a rc=$rc $(head -c 200 $W/t.err)" >> $OUT/timing.txt
done; done
echo "timing done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
ONLY=lstc timeout 300 bash tests/gpu/multi.sh $G .carry/data > $OUT/multi-lstc.txt 2>&1; echo "multi.sh ONLY=lstc exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
cat $OUT/info.txt $OUT/timing.txt | cut -c1-200; grep -E "FAIL|passed" $OUT/multi-lstc.txt | tail -6
