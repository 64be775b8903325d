#!/bin/bash
# #50: the arrival layout on two GPUs: correctness, then warm timings
set -u
G=.carry/gpu; W=/tmp/w; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nproc; free -g | head -2
git log --oneline -1 2>/dev/null
t0=$(date +%s)
ONLY=arrival timeout 220 bash tests/gpu/multi.sh $G .carry/data > $OUT/multi-arrival.txt 2>&1; echo "multi ONLY=arrival: exit $? ($(( $(date +%s) - t0 )) s): $(tail -1 $OUT/multi-arrival.txt)"
grep -E "FAIL|bad" $OUT/multi-arrival.txt | head -20
row() { # name, graph, args... : three warm runs, wall and JSON
  local name=$1 g=$2; shift 2
  for i in 1 2 3; do
    local a=$(date +%s.%N)
    $G/tristream count --quiet --json "$@" $g > $W/r.json 2>$W/r.err; local rc=$?
    local b=$(date +%s.%N)
    python3 - "$name" "$rc" "$a" "$b" $W/r.json <<'PY' | tee -a $OUT/warm.txt
import json,sys
name,rc,a,b,f=sys.argv[1:]
try: d=json.load(open(f))
except Exception: d={}
st=d.get("stages",{})
print(f"{name:28s} rc={rc} wall={float(b)-float(a):6.2f} tri={d.get('triangles')} layout={d.get('layout')} P={d.get('partitions')} sec={d.get('seconds',0):.2f} read={st.get('read',0):.2f} build={st.get('build',0):.2f} count={st.get('count',0):.2f} cwall={st.get('count_wall',0):.2f} engine={st.get('engine',0):.2f} gpus={[round(x.get('kernel_ms',0)) for x in d.get('gpus',[])]} note={d.get('note','')[:80]}")
PY
    cp $W/r.json $OUT/last-$name.json 2>/dev/null
  done
}
for S in 25 26; do
  t=$(date +%s); $G/tristream-gen --quiet rmat --scale $S --seed 1 $W/r$S.tsg; echo "gen $S: $(( $(date +%s) - t )) s"
  cat $W/r$S.tsg > /dev/null
  row "r$S-1gpu" $W/r$S.tsg --gpu 0
  row "r$S-2gpu-auto" $W/r$S.tsg --gpus 2
  row "r$S-2gpu-block" $W/r$S.tsg --gpus 2 --layout block
done
$G/tristream compress --quiet $W/r26.tsg $W/r26.lz4.tsg; cat $W/r26.lz4.tsg >/dev/null
row "r26lz4-1gpu" $W/r26.lz4.tsg --gpu 0
row "r26lz4-2gpu" $W/r26.lz4.tsg --gpus 2
echo "total $(( $(date +%s) - t0 )) s"
