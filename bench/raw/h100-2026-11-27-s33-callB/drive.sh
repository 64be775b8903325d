#!/bin/bash
# session 33, call B (one GPU): the build before (.carry/gpu7, 989a4c4) against
# the new one (.carry/gpu8, 36f41c1: slots keep source rows, plans skip the
# isolated ranks and take larger source blocks) on R-MAT 26 at a quarter of
# its file of GPU memory, warm (alternating, 3 runs each) and cold; cold
# reads by io_uring with larger requests (TSG_URING_CHUNK_KIB) against dd;
# then tests/gpu/run.sh counts 1/11 on the new build (the kept-rows check)
set -u
A=$(pwd)/.carry/gpu7; N=$(pwd)/.carry/gpu8; W=/tmp/a; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; sha256sum $A/tristream $N/tristream | cut -c1-16; } > $OUT/info.txt
[ -f $W/r26.tsg ] || { s=$(date +%s); $N/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg; echo "gen r26 rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt; }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; for f in $A/tristream $N/tristream /usr/local/cuda/lib64/libcudart.so* $(ldconfig -p | sed -n 's/.*=> \(.*libcuda.so.1\)$/\1/p'); do cat $f > /dev/null 2>&1; done; }
q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
# one run: NAME BUILD ENV (X=Y, or TSG_NONE=1) ARGS... ; appends a line to runs.txt, keeps the JSON
one() { local name=$1 b=$2 e=$3; shift 3; local s=$EPOCHREALTIME
  env $e $b/tristream count --quiet --json --device gpu "$@" $W/r26.tsg > $W/$name.json 2>$W/$name.err; local rc=$?
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); st=d["stages"]; print(sys.argv[2], "rc", sys.argv[3], "whole %.2f" % (float(sys.argv[5])-float(sys.argv[4])), d["triangles"], "units", d.get("partitions"), "blocks", d.get("blocks"), "h2d", d["h2d_bytes"], "kept", d.get("h2d_kept_bytes"), "read %.2f" % st.get("read",0), "count %.2f" % st.get("count",0), "count_wall %.2f" % st.get("count_wall",0), "io", d["io"])' $W/$name.json "$name" $rc $s $EPOCHREALTIME >> $OUT/runs.txt 2>&1 || echo "$name rc=$rc $(tail -c 300 $W/$name.err)" >> $OUT/runs.txt; }
cat $W/r26.tsg > /dev/null
one warmup-old $A TSG_NONE=1 --gpu-mem $q; one warmup-new $N TSG_NONE=1 --gpu-mem $q
for i in 1 2 3; do one warm-old-$i $A TSG_NONE=1 --gpu-mem $q; one warm-new-$i $N TSG_NONE=1 --gpu-mem $q; done
cp $W/warm-new-3.json $OUT/q-warm-new.json
echo "warm A/B done at $(el) s" >> $OUT/info.txt
for rep in 1 2; do
  for k in 1024 4096 16384 65536; do
    [ $(el) -lt 300 ] || break 2
    drop; s=$EPOCHREALTIME; TSG_URING_CHUNK_KIB=$k $N/tristream info --io uring $W/r26.tsg > /dev/null 2>&1; echo "rep $rep info uring chunk ${k}K cold: $(python3 -c "print('%.2f' % ($EPOCHREALTIME - $s))") rc=$?" >> $OUT/io.txt
  done
  drop; s=$EPOCHREALTIME; dd if=$W/r26.tsg of=/dev/null bs=64M iflag=direct 2>/dev/null; echo "rep $rep dd 64M cold: $(python3 -c "print('%.2f' % ($EPOCHREALTIME - $s))")" >> $OUT/io.txt
done
echo "io done at $(el) s" >> $OUT/info.txt
for rep in 1 2; do
  for v in "old-uring $A TSG_NONE=1 --io uring" "new-uring $N TSG_NONE=1 --io uring" "new-uring16M $N TSG_URING_CHUNK_KIB=16384 --io uring" "new-mmap $N TSG_NONE=1 --io mmap"; do
    [ $(el) -lt 390 ] || break 2
    set -- $v; name=$1; shift
    drop; one cold-$name-$rep "$@" --gpu-mem $q
  done
done
echo "cold done at $(el) s" >> $OUT/info.txt
left=$(( 585 - $(el) ))
if [ $left -gt 60 ]; then
  KERNELS=auto timeout $left bash tests/gpu/run.sh $N .carry/data counts 1/11 > $OUT/run-counts-1of11.txt 2>&1
  echo "tests/gpu/run.sh counts 1/11 (KERNELS=auto) new build: exit $? at $(el) s: $(tail -1 $OUT/run-counts-1of11.txt)" >> $OUT/info.txt
fi
cat $OUT/info.txt $OUT/io.txt; cut -c1-260 $OUT/runs.txt; grep -E "FAIL" $OUT/run-counts-1of11.txt 2>/dev/null | head -5
