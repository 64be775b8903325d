#!/bin/bash
# session 34, call B (two GPUs): warm, is the arrival layout on both GPUs
# (each orients every batch and counts half its edges) faster end to end than
# on one, where the file is in the page cache and the GPU, not the read, is
# the bound? R-MAT 25 and 26 (plain files): --gpu 0 / --gpus 2 --layout
# arrival / --gpus 2 (auto: GPU 0 alone); R-MAT 26 oriented: --gpu 0 /
# --gpus 2 --overlap 16; 3 runs each after a warm-up, interleaved. Build
# .carry/gpu13 (0a254c5).
set -u
N=$(pwd)/.carry/gpu13; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $N/tristream | cut -c1-16; } > $OUT/info.txt
s=$(date +%s); $N/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg; echo "gen r26 rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
s=$(date +%s); $N/tristream-gen --quiet rmat --scale 25 --seed 1 $W/r25.tsg; echo "gen r25 rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
s=$(date +%s); $N/tristream-convert --quiet --oriented $W/r26.tsg $W/r26.o.tsg; echo "convert r26 --oriented rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
for f in r26.tsg r25.tsg r26.o.tsg; do cat $W/$f > /dev/null; done
for i in 0 1 2 3; do for a in "--gpu 0|r26.tsg" "--gpus 2 --layout arrival|r26.tsg" "--gpus 2|r26.tsg" \
    "--gpu 0|r25.tsg" "--gpus 2 --layout arrival|r25.tsg" "--gpus 2|r25.tsg" "--gpu 0|r26.o.tsg" "--gpus 2 --overlap 16|r26.o.tsg"; do
  [ $(( $(date +%s) - t0 )) -lt 540 ] || break 2
  opts=${a%|*}; f=${a#*|}
  s=$EPOCHREALTIME; $N/tristream count --quiet --json --device gpu $opts $W/$f > $W/t.json 2>$W/t.err; rc=$?; e=$EPOCHREALTIME
  cp $W/t.json $OUT/run-$i-$(echo "$f $opts" | tr ' /' '__').json 2>/dev/null
  [ $i = 0 ] && continue
  python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); st=d.get("stages",{})
g=d.get("gpus",[]); busy="/".join("%.2f" % x.get("busy_s",0) for x in g) if g else "-"
print("%-10s %-28s rc=%s whole=%.2f own=%.2f tri=%s layout=%s gpus=%s read=%.2f count=%.2f count_wall=%.2f busy=%s note=%s" % (sys.argv[6], sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["seconds"], d["triangles"], d["layout"], len(g) or 1, st.get("read",0), st.get("count",0), st.get("count_wall",0), busy, d.get("note","")[:120]))' $W/t.json "$opts" $rc $s $e $f >> $OUT/warm.txt 2>&1 || echo "$f $opts rc=$rc $(head -c 300 $W/t.err)" >> $OUT/warm.txt
done; done
echo "done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
tar czf $OUT/runs.tgz -C $OUT $(cd $OUT && ls run-*.json) && rm -f $OUT/run-*.json
cat $OUT/info.txt; cut -c1-250 $OUT/warm.txt
