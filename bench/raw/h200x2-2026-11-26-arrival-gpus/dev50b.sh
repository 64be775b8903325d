#!/bin/bash
# #50: the arrival layout on two GPUs after the in-edge fix; auto's one GPU
set -u
G=.carry/gpu; W=/tmp/w; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
nvidia-smi --query-gpu=index,name --format=csv,noheader; sha256sum $G/tristream | cut -c1-16
t0=$(date +%s)
ONLY=arrival timeout 200 bash tests/gpu/multi.sh $G .carry/data > $OUT/multi-arrival.txt 2>&1; echo "multi ONLY=arrival: exit $? ($(( $(date +%s) - t0 )) s): $(tail -1 $OUT/multi-arrival.txt)"
grep -E "FAIL" $OUT/multi-arrival.txt | head -20
$G/tristream-gen --quiet rmat --scale 25 --seed 1 $W/r25.tsg; cat $W/r25.tsg >/dev/null
for i in 1 2 3; do for a in "--gpu 0" "--gpus 2" "--gpus 2 --layout arrival"; do
  s=$(date +%s.%N); $G/tristream count --quiet --json $a $W/r25.tsg > $W/r.json; rc=$?; e=$(date +%s.%N)
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%-28s rc=%s wall=%.2f tri=%s layout=%s gpus=%s note=%s" % (sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["triangles"], d["layout"], [round(x["kernel_ms"]) for x in d.get("gpus",[])], d.get("note","")[:60]))' $W/r.json "$a" $rc $s $e | tee -a $OUT/r25.txt
done; done
echo "total $(( $(date +%s) - t0 )) s"
