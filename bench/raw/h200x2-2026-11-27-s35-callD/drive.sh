#!/bin/bash
# session 35, call D (two GPUs): the final build (.carry/gpu19, commit
# a4a0620). Timings first: R-MAT 26 warm, --gpu 0 against --gpus 2 (auto:
# the arrival layout on both past 3 GiB of rows), a warm-up then 3 rounds
# interleaved; k-cliques R-MAT 22 K = 4 warm, default (auto: one part, the
# first GPU alone under --gpus 2) --gpu 0 against --gpus 2, 5 rounds
# interleaved. Then tests/gpu/multi.sh ONLY=arrival and ONLY=block.
set -u
N=$(pwd)/.carry/gpu19; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $N/tristream | cut -c1-16; } > $OUT/info.txt
s=$(date +%s); $N/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg; echo "gen r26 rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
$N/tristream-gen --quiet rmat --scale 22 --seed 1 $W/r22.tsg
one() { # name, file, expected key=value, then options
  local name=$1 f=$2 want=$3; shift 3
  s=$EPOCHREALTIME; $N/tristream count --quiet --json "$@" $f > $W/$name.json 2>$W/t.err; rc=$?; e=$EPOCHREALTIME
  python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); st=d.get("stages",{})
k,v=sys.argv[6].split("=")
print("%-16s rc=%s whole=%.2f ok=%s layout=%s gpus=%d plan=%.2f count=%.2f count_wall=%.2f engine=%.2f note=%s" % (sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), str(d.get(k))==v, d.get("layout"), len(d.get("gpus",[])) or 1, st.get("plan",0), st.get("count",0), st.get("count_wall",0), st.get("engine",0), d.get("note","")[:90]))' $W/$name.json "$name" $rc $s $e "$want" >> $OUT/runs.txt 2>&1 || echo "$name rc=$rc $(head -c 300 $W/t.err)" >> $OUT/runs.txt
}
cat $W/r26.tsg > /dev/null
one r26-warmup $W/r26.tsg triangles=49154930897 --gpus 2
for i in 1 2 3; do one r26-gpu0-$i $W/r26.tsg triangles=49154930897 --gpu 0; one r26-gpus2-$i $W/r26.tsg triangles=49154930897 --gpus 2; done
one k4-warmup $W/r22.tsg cliques=124171307855 --k 4 --gpu 0
for i in 1 2 3 4 5; do one k4-gpu0-$i $W/r22.tsg cliques=124171307855 --k 4 --gpu 0; one k4-gpus2-$i $W/r22.tsg cliques=124171307855 --k 4 --gpus 2; done
rm -f $W/r26.tsg
echo "timings done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
ONLY=arrival timeout $(( 585 - ($(date +%s) - t0) )) bash tests/gpu/multi.sh $N .carry/data > $OUT/multi-arrival.txt 2>&1
echo "tests/gpu/multi.sh ONLY=arrival: exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/multi-arrival.txt)" >> $OUT/info.txt
ONLY=block timeout $(( 585 - ($(date +%s) - t0) )) bash tests/gpu/multi.sh $N .carry/data > $OUT/multi-block.txt 2>&1
echo "tests/gpu/multi.sh ONLY=block: exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/multi-block.txt)" >> $OUT/info.txt
tar czf $OUT/runs.tgz -C $W $(cd $W && ls *.json)
cat $OUT/info.txt $OUT/runs.txt; grep -h FAIL $OUT/multi-*.txt | head
