#!/bin/bash
# session 34, call G (two GPUs, the last 260 s of device time): the final
# build (.carry/gpu16, commit 88a02dc) under tests/gpu/multi.sh's arrival
# section (ONLY=arrival: the arrival layout on both GPUs, the leader's pages
# given back by its own thread, per-vertex counts, a checkpoint, a damaged
# file); then the oriented file's GPUs under --gpus all (the check
# multi.sh's block section now holds, run here alone): R-MAT 20 converted
# --oriented, auto (GPU 0 alone, said) and --overlap 16 (both), against
# tests/brute on the plain file.
set -u
N=$(pwd)/.carry/gpu16; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; sha256sum $N/tristream | cut -c1-16; } > $OUT/info.txt
ONLY=arrival timeout 150 bash tests/gpu/multi.sh $N .carry/data > $OUT/multi-arrival.txt 2>&1
echo "multi.sh ONLY=arrival: exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/multi-arrival.txt)" >> $OUT/info.txt
$N/tristream-gen --quiet rmat --scale 20 --seed 1 $W/r20.tsg && $N/tristream-convert --quiet --oriented $W/r20.tsg $W/o20.tsg
ref=$($N/tests/brute $W/r20.tsg)
for a in "--gpus all" "--gpus all --overlap 16"; do
  $N/tristream count --quiet --json $a $W/o20.tsg > $W/t.json 2>$W/t.err; rc=$?
  python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); n=len(d.get("gpus", [])) or 1; said="counted on GPU" in d.get("note","")
want = (2, False) if "overlap" in sys.argv[2] else (1, True)
ok = str(d["triangles"]) == sys.argv[3] and sys.argv[3].isdigit() and (n, said) == want
print("%s oriented R-MAT 20 %s: rc=%s triangles=%s ref=%s gpus=%d said=%s" % ("PASS" if ok else "FAIL", sys.argv[2], sys.argv[4], d["triangles"], sys.argv[3], n, said))' $W/t.json "$a" "$ref" $rc >> $OUT/oriented-gpus.txt 2>&1 || echo "FAIL $a rc=$rc $(head -c 300 $W/t.err)" >> $OUT/oriented-gpus.txt
done
echo "done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
cat $OUT/info.txt $OUT/oriented-gpus.txt; grep -h FAIL $OUT/multi-arrival.txt | head -20
