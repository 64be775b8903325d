#!/bin/bash
# session 34, call C (one GPU): where the arrival layout's batch thread
# spends its time. Build .carry/gpu14 (JSON stages arrival_pin / arrival_unpin
# / arrival_wait: the thread's time registering and unregistering the lists'
# pages, and waiting for the device). R-MAT 26: warm --gpu 0 (3 runs),
# warm --io mmap (2), cold default (2, page cache dropped).
set -u
N=$(pwd)/.carry/gpu14; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $N/tristream | cut -c1-16; } > $OUT/info.txt
s=$(date +%s); $N/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg; echo "gen r26 rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; for f in $N/tristream /usr/local/cuda/lib64/libcudart.so* $(ldconfig -p | sed -n 's/.*=> \(.*libcuda.so.1\)$/\1/p'); do cat $f > /dev/null 2>&1; done; }
one() { # name, then options
  local name=$1; shift
  s=$EPOCHREALTIME; $N/tristream count --quiet --json --device gpu "$@" $W/r26.tsg > $W/t.json 2>$W/t.err; rc=$?; e=$EPOCHREALTIME
  cp $W/t.json $OUT/$name.json 2>/dev/null
  python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); st=d.get("stages",{})
print("%-14s rc=%s whole=%.2f own=%.2f tri=%s io=%s read=%.2f rank=%.2f rows=%.2f tail=%.2f pin=%.2f unpin=%.2f wait=%.2f device=%.2f engine=%.2f pinned=%s/%s" % (sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["seconds"], d["triangles"], d.get("io"), st.get("read",0), st.get("arrival_rank",0), st.get("arrival_rows",0), st.get("arrival_tail",0), st.get("arrival_pin",-1), st.get("arrival_unpin",-1), st.get("arrival_wait",-1), st.get("count",0), st.get("engine",0), d.get("lists_pinned_bytes"), d.get("lists_bytes")))' $W/t.json "$name" $rc $s $e >> $OUT/pin.txt 2>&1 || echo "$name rc=$rc $(head -c 300 $W/t.err)" >> $OUT/pin.txt
}
cat $W/r26.tsg > /dev/null
one warmup
for i in 1 2 3; do one warm-$i; done
for i in 1 2; do one mmap-$i --io mmap; done
for i in 1 2; do drop; one cold-$i; done
echo "done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
tar czf $OUT/runs.tgz -C $OUT $(cd $OUT && ls *.json) && rm -f $OUT/*.json
cat $OUT/info.txt $OUT/pin.txt
