#!/bin/bash
# session 35, call C (one GPU): the arrival layout's unpinning thread for a
# mapped file, held back by the batch thread (at most 4 batches' pages
# pinned), against the build before (gpu17, 44b4de7: such pages given back
# inline). R-MAT 26 cold (page cache dropped): dd O_DIRECT, --host-mem 4G
# before / new, 3 rounds interleaved; --io mmap cold before / new; warm
# default before / new; the oriented file (tristream-convert --oriented)
# warm, new. Then tests/gpu/run.sh counts 1/11 (KERNELS=auto) on the new
# build (its unpin check now with --io mmap and the pinned-at-once bound).
set -u
A=$(pwd)/.carry/gpu17; N=$(pwd)/.carry/gpu19; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $A/tristream $N/tristream | cut -c1-16; } > $OUT/info.txt
s=$(date +%s); $N/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg; echo "gen r26 rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; for f in $A/tristream $N/tristream /usr/local/cuda/lib64/libcudart.so* $(ldconfig -p | sed -n 's/.*=> \(.*libcuda.so.1\)$/\1/p'); do cat $f > /dev/null 2>&1; done; }
one() { # name, build, file, then options
  local name=$1 b=$2 f=$3; shift 3
  s=$EPOCHREALTIME; /usr/bin/time -f "%M" -o $W/rss $b/tristream count --quiet --json --device gpu "$@" $f > $W/$name.json 2>$W/t.err; rc=$?; e=$EPOCHREALTIME
  python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); st=d.get("stages",{})
ps=d.get("partition_stats",[])
print("%-16s rc=%s whole=%.2f ok=%s layout=%s mode=%s kernel_ms=%.0f read=%.2f rows=%.2f tail=%.2f unpin=%.2f wait=%.2f pinned_most=%s rss_mib=%d" % (sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["triangles"]==49154930897, d.get("layout"), d.get("host_mem",{}).get("mode","-"), sum(p.get("kernel_ms",0) for p in ps), st.get("read",0), st.get("arrival_rows",0), st.get("arrival_tail",0), st.get("arrival_unpin",-1), st.get("arrival_wait",-1), d.get("lists_pinned_most","-"), int(open(sys.argv[6]).read().split()[-1])//1024))' $W/$name.json "$name" $rc $s $e $W/rss >> $OUT/runs.txt 2>&1 || echo "$name rc=$rc $(head -c 300 $W/t.err)" >> $OUT/runs.txt
}
for i in 1 2 3; do
  drop; dd if=$W/r26.tsg of=/dev/null bs=64M iflag=direct 2>&1 | tail -1 | sed "s/^/dd-$i: /" >> $OUT/runs.txt
  drop; one hostmem-before-$i $A $W/r26.tsg --host-mem 4G --scratch-dir $W
  drop; one hostmem-new-$i $N $W/r26.tsg --host-mem 4G --scratch-dir $W
done
for i in 1 2; do
  drop; one mmap-before-$i $A $W/r26.tsg --io mmap
  drop; one mmap-new-$i $N $W/r26.tsg --io mmap
done
cat $W/r26.tsg > /dev/null
one warm-before $A $W/r26.tsg; one warm-new $N $W/r26.tsg
for i in 1 2 3; do one warm-before-$i $A $W/r26.tsg; one warm-new-$i $N $W/r26.tsg; done
s=$(date +%s); $N/tristream-convert --quiet --oriented $W/r26.tsg $W/r26o.tsg; echo "convert --oriented rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
rm -f $W/r26.tsg; cat $W/r26o.tsg > /dev/null
for i in 0 1 2 3; do one oriented-warm-$i $N $W/r26o.tsg; done
rm -f $W/r26o.tsg
KERNELS=auto timeout $(( 585 - ($(date +%s) - t0) )) bash tests/gpu/run.sh $N .carry/data counts 1/11 > $OUT/run-counts-1of11.txt 2>&1
echo "tests/gpu/run.sh counts 1/11 (KERNELS=auto): exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/run-counts-1of11.txt)" >> $OUT/info.txt
tar czf $OUT/runs.tgz -C $W $(cd $W && ls *.json)
cat $OUT/info.txt $OUT/runs.txt; grep -h FAIL $OUT/run-counts-1of11.txt | head
