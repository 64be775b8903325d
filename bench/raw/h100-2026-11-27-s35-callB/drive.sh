#!/bin/bash
# session 35, call B (one GPU): the arrival layout's orienting beside the
# count (two streams) and its in-edges searched once. Before .carry/gpu17
# (44b4de7), new .carry/gpu18. R-MAT 26: warm, interleaved, 4 rounds after
# a warm-up each; cold 2 rounds. Exactness: per-vertex counts of R-MAT 22
# and cnr-2000 (arrival, several batch counts) against the CPU's, byte for
# byte; then tests/gpu/run.sh counts 1/11 (KERNELS=auto) on the new build.
set -u
A=$(pwd)/.carry/gpu17; N=$(pwd)/.carry/gpu18; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $A/tristream $N/tristream | cut -c1-16; } > $OUT/info.txt
s=$(date +%s); $N/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg; echo "gen r26 rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
$N/tristream-gen --quiet rmat --scale 22 --seed 3 $W/r22.tsg
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; for f in $A/tristream $N/tristream /usr/local/cuda/lib64/libcudart.so* $(ldconfig -p | sed -n 's/.*=> \(.*libcuda.so.1\)$/\1/p'); do cat $f > /dev/null 2>&1; done; }
one() { # name, build, then options
  local name=$1 b=$2; shift 2
  s=$EPOCHREALTIME; $b/tristream count --quiet --json --device gpu "$@" $W/r26.tsg > $W/$name.json 2>$W/t.err; rc=$?; e=$EPOCHREALTIME
  python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); st=d.get("stages",{})
ps=d.get("partition_stats",[])
print("%-14s rc=%s whole=%.2f ok=%s layout=%s kernel_ms=%.0f read=%.2f rows=%.2f tail=%.2f count=%.2f engine=%.2f" % (sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["triangles"]==49154930897, d.get("layout"), sum(p.get("kernel_ms",0) for p in ps), st.get("read",0), st.get("arrival_rows",0), st.get("arrival_tail",0), st.get("count",0), st.get("engine",0)))' $W/$name.json "$name" $rc $s $e >> $OUT/runs.txt 2>&1 || echo "$name rc=$rc $(head -c 300 $W/t.err)" >> $OUT/runs.txt
}
cat $W/r26.tsg > /dev/null
one warm-before $A; one warm-new $N
for i in 1 2 3 4; do one warm-before-$i $A; one warm-new-$i $N; done
for i in 1 2; do drop; one cold-before-$i $A; drop; one cold-new-$i $N; done
# per-vertex counts, byte for byte against the CPU's
pv=0; pvbad=0
$N/tristream count --quiet --device cpu --per-vertex $W/r22.cpu $W/r22.tsg > /dev/null
$N/tristream count --quiet --device cpu --per-vertex $W/cnr.cpu .carry/data/cnr-2000/cnr-2000 > /dev/null
for k in 1 2 7 64 1000; do
  for g in r22 cnr; do
    f=$W/r22.tsg; [ $g = cnr ] && f=.carry/data/cnr-2000/cnr-2000
    $N/tristream count --quiet --device gpu --layout arrival --batches $k --per-vertex $W/$g.gpu $f > $W/$g.gpu.n 2>$W/$g.err
    if [ -s $W/$g.cpu ] && cmp -s $W/$g.cpu $W/$g.gpu; then pv=$((pv+1)); else pvbad=$((pvbad+1)); echo "per-vertex $g K=$k differs: $(head -c 200 $W/$g.err)" >> $OUT/runs.txt; fi
  done
done
echo "per-vertex arrival vs CPU: $pv same, $pvbad differ" >> $OUT/runs.txt
KERNELS=auto timeout $(( 585 - ($(date +%s) - t0) )) bash tests/gpu/run.sh $N .carry/data counts 1/11 > $OUT/run-counts-1of11.txt 2>&1
echo "tests/gpu/run.sh counts 1/11 (KERNELS=auto): exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/run-counts-1of11.txt)" >> $OUT/info.txt
tar czf $OUT/runs.tgz -C $W $(cd $W && ls *.json)
cat $OUT/info.txt $OUT/runs.txt; grep -h FAIL $OUT/run-counts-1of11.txt | head
