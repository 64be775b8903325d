#!/bin/bash
# session 28, call F (2 GPUs): k-cliques under --gpus, the other GPUs opened
# only where one part does not hold the graph; R-MAT 22 K = 4
set -u
G=.carry/gpu2; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
export NCCL_NVLS_ENABLE=0
t0=$(date +%s)
{ nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; sha256sum $G/tristream | cut -c1-16; } > $OUT/info.txt
$G/tristream-gen --quiet rmat --scale 22 --seed 1 $W/r22.tsg; cat $W/r22.tsg >/dev/null
$G/tristream-gen --quiet rmat --scale 16 --seed 1 $W/r16.tsg
ref=$($G/tristream count --quiet --json --k 4 --device cpu $W/r22.tsg | python3 -c 'import json,sys; print(json.load(sys.stdin)["cliques"])')
echo "ref (--device cpu) $ref at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
for i in 0 1 2 3; do for a in "--gpu 0" "--gpus 2" "--gpus 2 --layout lstc" "--gpu 0 --gpu-mem 1G" "--gpus 2 --gpu-mem 1G" "--gpus 2 --partitions 2"; do
  s=$EPOCHREALTIME; $G/tristream count --quiet --json --k 4 $a $W/r22.tsg > $W/t.json 2>$W/t.err; rc=$?; e=$EPOCHREALTIME
  [ $i = 0 ] && continue
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%-26s rc=%s whole=%.2f own=%.2f k4=%s ok=%s parts=%s gpus=%s note=%s" % (sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["seconds"], d["cliques"], str(d["cliques"]) == sys.argv[6], d["partitions"], len(d.get("gpus", [])) or 1, d.get("note","")[:60]))' $W/t.json "$a" $rc $s $e "$ref" >> $OUT/timing.txt 2>&1 || echo "$a rc=$rc $(head -c 200 $W/t.err)" >> $OUT/timing.txt
done; done
for k in 4 5; do for a in "" "--layout lstc" "--gpu-mem 64M" "--partitions 3"; do
  kk="--k $k"
  c=$($G/tristream count --quiet --json $kk --device cpu $a $W/r16.tsg 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("clique_counts", d.get("cliques")))')
  gg=$($G/tristream count --quiet --json $kk --gpus 2 $a $W/r16.tsg 2>$W/e2 | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("clique_counts", d.get("cliques")), len(d.get("gpus", [])) or 1)')
  echo "r16 $kk $a: cpu '$c' gpus2 '$gg'" >> $OUT/checks.txt
done; done
echo "done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
cat $OUT/info.txt $OUT/timing.txt $OUT/checks.txt | cut -c1-220
