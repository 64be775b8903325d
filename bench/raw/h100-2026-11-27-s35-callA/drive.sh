#!/bin/bash
# session 35, call A (one GPU): where the device's time goes. R-MAT 26 warm:
# the arrival layout (default), the block layout in memory, --gpu-mem 1/4
# (units); each once plain (JSON stages) and once under ncu (kernel
# durations summed by kernel name: ncu_sum.py).
set -u
N=$(pwd)/.carry/gpu17; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $N/tristream | cut -c1-16; which ncu; } > $OUT/info.txt
s=$(date +%s); $N/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg; echo "gen r26 rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
cat $W/r26.tsg > /dev/null
one() { # name, then options
  local name=$1; shift
  s=$EPOCHREALTIME; $N/tristream count --quiet --json --device gpu "$@" $W/r26.tsg > $W/$name.json 2>$W/t.err; rc=$?; e=$EPOCHREALTIME
  python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); st=d.get("stages",{})
ps=d.get("partition_stats",[])
print("%-12s rc=%s whole=%.2f ok=%s layout=%s parts=%d kernel_ms=%.0f" % (sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["triangles"]==49154930897, d.get("layout"), len(ps), sum(p.get("kernel_ms",0) for p in ps)), {k: round(v,2) for k,v in st.items() if v > 0.005})' $W/$name.json "$name" $rc $s $e >> $OUT/runs.txt 2>&1 || echo "$name rc=$rc $(head -c 300 $W/t.err)" >> $OUT/runs.txt
}
prof() { # name, then options
  local name=$1; shift
  s=$(date +%s)
  timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --csv $N/tristream count --quiet --device gpu "$@" $W/r26.tsg > $W/$name.csv 2>$W/$name.err
  echo "ncu $name rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
  python3 .carry/ncu_sum.py $W/$name.csv "$name" >> $OUT/kernels.txt 2>&1; echo >> $OUT/kernels.txt
  tail -3 $W/$name.err >> $OUT/info.txt
}
one warmup
for i in 1 2; do one arrival-$i; one block-$i --layout block; one quarter-$i --gpu-mem 2240M; done
prof ncu-arrival
prof ncu-block --layout block
prof ncu-quarter --gpu-mem 2240M
echo "done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
tar czf $OUT/runs.tgz -C $W $(cd $W && ls *.json)
cat $OUT/info.txt $OUT/runs.txt $OUT/kernels.txt
