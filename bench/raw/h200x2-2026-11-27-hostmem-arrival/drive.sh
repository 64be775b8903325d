#!/bin/bash
# session 32, call C (two GPUs): #50.
# (1) --host-mem on auto takes the GPU's arrival layout over the mapped
#     file (gpu5) where its need fits: counts against tests/brute and the
#     CPU, the mode and layout the JSON reports, on five graphs;
# (2) bench/read_speed.sh rows dd 2 3 4 6 7 11 at R-MAT 26 with gpu5, then
#     row 4 (--host-mem 4G, cold) with gpu4 (the build before) on the same
#     files: medians of 3;
# (3) the anonymous memory of one --host-mem 4G run of gpu5 (RssAnon
#     sampled every 50 ms), the file warm.
set -u
N=$(pwd)/.carry/gpu5; O=$(pwd)/.carry/gpu4; W=/tmp/rs; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
export NCCL_NVLS_ENABLE=0
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $N/tristream $O/tristream | cut -c1-16; } > $OUT/info.txt
H=$OUT/hostmem-auto.txt
for spec in "rmat --scale 19 --edge-factor 16 --seed 4" "rmat --scale 21 --seed 1" "er --vertices 100000 --edge-factor 20 --seed 6" "web --vertices 200000 --seed 7" "star --vertices 5000"; do
  f=$W/g.tsg; $N/tristream-gen --quiet $spec $f
  bref=$($N/tests/brute $f); cref=$($N/tristream count --quiet --json --device cpu $f | python3 -c 'import json,sys; print(json.load(sys.stdin)["triangles"])')
  for b in 0 64; do
    bo=; [ $b = 0 ] || bo="--batches $b"
    budget=$($N/tristream count --quiet --json --device gpu --threads 4 $bo --host-mem 1T $f 2>$W/probe.err | python3 -c 'import json,sys; h=json.load(sys.stdin)["host_mem"]; a=h.get("need_arrival", 0)
print(("arrival %d %d" % (a, h["need_memory"])) if 0 < a < h["need_memory"] else ("spill %d %d" % ((h["need_spill"] + h["need_memory"]) // 2, h["need_memory"])))' 2>/dev/null)
    if [ -z "$budget" ]; then echo "$spec batches=$b: probe failed: $(head -c 300 $W/probe.err)" >> $H; continue; fi
    set -- $budget
    [ $b != 0 ] && [ $1 = spill ] && { echo "$spec batches=$b: need_arrival not below need_memory; not run" >> $H; continue; }
    $N/tristream count --quiet --json --device gpu --threads 4 $bo --host-mem $2 --scratch-dir $W $f > $W/hm.json 2>$W/hm.err
    rc=$?
    got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["triangles"], d["host_mem"]["mode"], d["layout"], "|", d.get("plan",{}).get("layout",{}).get("reason",""), "|", d.get("note",""))' $W/hm.json 2>&1 | cut -c1-400)
    echo "$spec batches=$b: brute=$bref cpu=$cref want=$1 budget=$2 need_memory=$3 rc=$rc got: $got $(head -c 200 $W/hm.err)" >> $H
  done
done
echo "hostmem checks done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
OUT=$W/out RUNS=3 EXPECT=49154930897 ROWS="dd 2 3 4 6 7 11" RUN_TIMEOUT=90 timeout 380 bash bench/read_speed.sh $N 26 $W/w > $OUT/read-speed.txt 2>&1
echo "read_speed (gpu5) exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
left=$(( 560 - ($(date +%s) - t0) ))
[ $left -gt 60 ] && { OUT=$W/out-old RUNS=3 EXPECT=49154930897 ROWS="4" RUN_TIMEOUT=60 timeout $left bash bench/read_speed.sh $O 26 $W/w > $OUT/read-speed-old.txt 2>&1; echo "read_speed (gpu4, row 4) exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt; }
f=$W/w/rmat26.tsg; [ -f $f ] || f=$(ls $W/w/*26*.tsg 2>/dev/null | head -1)
left=$(( 590 - ($(date +%s) - t0) ))
if [ -n "$f" ] && [ $left -gt 20 ]; then
  $N/tristream count --quiet --json --host-mem 4G --scratch-dir $W $f > $W/m.json 2>/dev/null & pid=$!
  peak=0; while kill -0 $pid 2>/dev/null; do a=$(awk '/RssAnon/{print $2}' /proc/$pid/status 2>/dev/null); [ -n "$a" ] && [ "$a" -gt "$peak" ] && peak=$a; sleep 0.05; done
  wait $pid; echo "R-MAT 26 --host-mem 4G (gpu5, warm): exit $? peak RssAnon ${peak} KiB; $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["triangles"], d["layout"], d["host_mem"])' $W/m.json 2>&1 | cut -c1-300)" >> $OUT/info.txt
fi
(cd $W/out && cp table.md $OUT/table.md; tar czf $OUT/read-speed-runs.tgz .) 2>/dev/null
(cd $W/out-old && cp table.md $OUT/table-old.md) 2>/dev/null
cat $OUT/info.txt; cut -c1-300 $H; tail -32 $OUT/read-speed.txt; tail -8 $OUT/read-speed-old.txt 2>/dev/null
