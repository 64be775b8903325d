#!/bin/bash
# session 29, call B (one GPU): --kernel auto's per-unit choice in
# out-of-core block plans. Crawl, web and R-MAT 2^24 (plain and oriented)
# at a quarter of the plain file's size of GPU memory, warm, auto against
# each kernel forced; then R-MAT 26 plain at a quarter warm (auto, mid-hash)
# and cold beside dd (oriented and plain, mid-hash). One run each.
set -u
B=.carry/gpu2; W=/tmp/rs; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nproc; sha256sum $B/tristream | cut -c1-16; } > $OUT/info.txt
row() { # label args...
  local l=$1; shift
  s=$EPOCHREALTIME; timeout 120 $B/tristream count --quiet --json "$@" > $W/json-$l.json 2>$W/r.err; rc=$?; e=$EPOCHREALTIME
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); st=d["stages"]; ps=d.get("partition_stats") or []; print("%-16s rc=%s whole=%.2f own=%.2f tri=%s read=%.2f count=%.2f cwall=%.2f units=%s h2d=%.1fGB kern=%.3f copy=%.2f kernel=%s | %s" % (sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["seconds"], d["triangles"], st["read"], st["count"], st.get("count_wall",0), d["partitions"], d.get("h2d_bytes",0)/1e9, sum(p.get("kernel_ms",0) for p in ps)/1e3, sum(p.get("h2d_ms",0) for p in ps)/1e3, d["kernel"], d.get("note","")[:160]))' $W/json-$l.json $l $rc $s $e >> $OUT/runs.txt 2>&1 || { echo "$l rc=$rc"; tail -2 $W/r.err; } >> $OUT/runs.txt
}
$B/tristream-gen --quiet --seed 1 crawl --vertices 16777216 $W/crawl.tsg
$B/tristream-gen --quiet --seed 1 web --vertices 16777216 $W/web.tsg
$B/tristream-gen --quiet --seed 1 rmat --scale 24 $W/r24.tsg
for g in crawl web r24; do $B/tristream-convert --quiet --oriented $W/$g.tsg $W/$g.o.tsg; done
echo "made small at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
for g in crawl web r24; do
  Q=$(( $(stat -c %s $W/$g.tsg) / 4 )); cat $W/$g.tsg $W/$g.o.tsg > /dev/null
  row $g-full $W/$g.tsg --layout block
  for k in auto mid-hash edge-merge lstc-hash; do row $g-q-$k $W/$g.tsg --gpu-mem $Q --kernel $k; done
  for k in auto mid-hash edge-merge; do row $g-oq-$k $W/$g.o.tsg --gpu-mem $Q --kernel $k; done
done
rm -f $W/*.tsg
echo "small done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
$B/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg && $B/tristream-convert --quiet --oriented $W/r26.tsg $W/r26.o.tsg
Q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
echo "made r26 at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
cat $W/r26.tsg > /dev/null
row r26-q-auto $W/r26.tsg --gpu-mem $Q
row r26-q-mid $W/r26.tsg --gpu-mem $Q --kernel mid-hash
cold() { sync; echo 3 > /proc/sys/vm/drop_caches; }
for i in 1 2; do
  cold; s=$EPOCHREALTIME; dd if=$W/r26.tsg of=/dev/null bs=8M iflag=direct 2>/dev/null; e=$EPOCHREALTIME
  echo "dd-plain cold whole=$(python3 -c "print('%.2f' % ($e - $s))")" >> $OUT/runs.txt
  cold; row r26-oq-mid-cold$i $W/r26.o.tsg --gpu-mem $Q --kernel mid-hash --io uring
  cold; row r26-oq-auto-cold$i $W/r26.o.tsg --gpu-mem $Q --io uring
done
cold; row r26-q-mid-cold $W/r26.tsg --gpu-mem $Q --kernel mid-hash --io uring
echo "runs done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
(cd $W && tar czf $OUT/runs-json.tgz json-*.json)
cat $OUT/info.txt $OUT/runs.txt
