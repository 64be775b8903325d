#!/bin/bash
# session 34, call E (two GPUs): with the leader's unpinning on a thread of
# its own (.carry/gpu15), is the arrival layout on both GPUs faster warm than
# on one? R-MAT 25 and 26 (plain files, page cache): --gpu 0 / --gpus 2
# --layout arrival / --gpus 2 (auto: GPU 0 alone), and on R-MAT 26 --gpus 2
# --layout arrival with TSG_ARRIVAL_UNPIN=inline (the build before); a
# warm-up, then 3 rounds interleaved.
set -u
N=$(pwd)/.carry/gpu15; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $N/tristream | cut -c1-16; } > $OUT/info.txt
s=$(date +%s); $N/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg; echo "gen r26 rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
s=$(date +%s); $N/tristream-gen --quiet rmat --scale 25 --seed 1 $W/r25.tsg; echo "gen r25 rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
for f in r26.tsg r25.tsg; do cat $W/$f > /dev/null; done
for i in 0 1 2 3; do for a in "thread|--gpu 0|r26.tsg" "thread|--gpus 2 --layout arrival|r26.tsg" "inline|--gpus 2 --layout arrival|r26.tsg" "thread|--gpus 2|r26.tsg" \
    "thread|--gpu 0|r25.tsg" "thread|--gpus 2 --layout arrival|r25.tsg" "thread|--gpus 2|r25.tsg"; do
  [ $(( $(date +%s) - t0 )) -lt 400 ] || break 2
  mode=${a%%|*}; rest=${a#*|}; opts=${rest%|*}; f=${rest#*|}
  s=$EPOCHREALTIME; TSG_ARRIVAL_UNPIN=$mode $N/tristream count --quiet --json --device gpu $opts $W/$f > $W/t.json 2>$W/t.err; rc=$?; e=$EPOCHREALTIME
  cp $W/t.json $OUT/run-$i-$mode-$(echo "$f $opts" | tr ' /' '__').json 2>/dev/null
  [ $i = 0 ] && continue
  python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); st=d.get("stages",{})
g=d.get("gpus",[]); busy="/".join("%.2f" % x.get("busy_s",0) for x in g) if g else "-"
print("%-8s %-6s %-26s rc=%s whole=%.2f own=%.2f tri=%s gpus=%s rows=%.2f tail=%.2f pin=%.2f unpin=%.2f device=%.2f busy=%s" % (sys.argv[6], sys.argv[7], sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["seconds"], d["triangles"], len(g) or 1, st.get("arrival_rows",0), st.get("arrival_tail",0), st.get("arrival_pin",-1), st.get("arrival_unpin",-1), st.get("count",0), busy))' $W/t.json "$opts" $rc $s $e $f $mode >> $OUT/warm.txt 2>&1 || echo "$f $opts rc=$rc $(head -c 300 $W/t.err)" >> $OUT/warm.txt
done; done
echo "done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
tar czf $OUT/runs.tgz -C $OUT $(cd $OUT && ls run-*.json) && rm -f $OUT/run-*.json
cat $OUT/info.txt; cut -c1-220 $OUT/warm.txt
