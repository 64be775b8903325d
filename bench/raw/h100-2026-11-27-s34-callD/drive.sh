#!/bin/bash
# session 34, call D (one GPU): the arrival layout's unpinning off the batch
# thread. Build .carry/gpu15: TSG_ARRIVAL_UNPIN=inline (the build before:
# the batch thread unregisters each batch's pages), thread (the new default:
# a thread of its own), end (all after the last batch). R-MAT 26: warm, the
# three modes interleaved, 4 rounds after a warm-up; cold default and
# --host-mem 4G (arrival over the mapped file), inline / thread, 2 rounds.
set -u
N=$(pwd)/.carry/gpu15; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $N/tristream | cut -c1-16; } > $OUT/info.txt
s=$(date +%s); $N/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg; echo "gen r26 rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; for f in $N/tristream /usr/local/cuda/lib64/libcudart.so* $(ldconfig -p | sed -n 's/.*=> \(.*libcuda.so.1\)$/\1/p'); do cat $f > /dev/null 2>&1; done; }
one() { # name, mode, then options
  local name=$1 mode=$2; shift 2
  s=$EPOCHREALTIME; TSG_ARRIVAL_UNPIN=$mode $N/tristream count --quiet --json --device gpu "$@" $W/r26.tsg > $W/t.json 2>$W/t.err; rc=$?; e=$EPOCHREALTIME
  cp $W/t.json $OUT/$name.json 2>/dev/null
  python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); st=d.get("stages",{})
ok = d["triangles"] == 49154930897
print("%-18s rc=%s whole=%.2f own=%.2f ok=%s io=%s layout=%s read=%.2f rows=%.2f tail=%.2f pin=%.2f unpin=%.2f wait=%.2f device=%.2f engine=%.2f" % (sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["seconds"], ok, d.get("io"), d.get("layout"), st.get("read",0), st.get("arrival_rows",0), st.get("arrival_tail",0), st.get("arrival_pin",-1), st.get("arrival_unpin",-1), st.get("arrival_wait",-1), st.get("count",0), st.get("engine",0)))' $W/t.json "$name" $rc $s $e >> $OUT/unpin.txt 2>&1 || echo "$name rc=$rc $(head -c 300 $W/t.err)" >> $OUT/unpin.txt
}
cat $W/r26.tsg > /dev/null
one warmup thread
for i in 1 2 3 4; do for m in inline thread end; do one warm-$m-$i $m; done; done
for i in 1 2; do for m in inline thread; do drop; one cold-$m-$i $m; done; done
for i in 1 2; do for m in inline thread; do drop; one hostmem-$m-$i $m --host-mem 4G --scratch-dir $W; done; done
echo "done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
tar czf $OUT/runs.tgz -C $OUT $(cd $OUT && ls *.json) && rm -f $OUT/*.json
cat $OUT/info.txt $OUT/unpin.txt
