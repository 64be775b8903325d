#!/usr/bin/env bash
# session 46 call B (two GPUs): R-MAT 26 (+ LZ4) made while two tests/gpu
# lanes run; then bench/read_speed.sh rows dd 1 2 4 on gpu56 (HEAD); then
# the quarter cold with and without --gpu 0, interleaved (session 45's
# table ran without --gpu: 1.62 s after the read; call A with --gpu: 0.5-0.7).
set -u
T0=$(date +%s)
R=/tmp/rs W=/tmp/rsw; mkdir -p $R $W
B=$(pwd)/.carry/gpu56
( $B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/rmat26.tsg && echo "gen $(( $(date +%s) - T0 )) s" > $OUT/gen.txt &&
  $B/tristream compress --quiet $W/rmat26.tsg $W/rmat26.lz4.tsg && echo "lz4 $(( $(date +%s) - T0 )) s" >> $OUT/gen.txt ) &
GEN=$!
mkdir -p $OUT/t
OUT=$OUT/t BUILD=gpu56 LIMIT=${TLIM:-150} LANES=${LANES:-"0:counts-2 1:counts-8"} bash .carry/final42.sh > /dev/null 2>&1
wait $GEN
echo "tests+gen done at $(( $(date +%s) - T0 )) s" >> $OUT/gen.txt
EXPECT=49154930897 OUT=$R ROWS="${ROWS:-dd 1 2 4}" timeout ${LIM:-330} bash bench/read_speed.sh .carry/gpu56 26 $W > $OUT/log.txt 2>&1
echo "read_speed rc=$? at $(( $(date +%s) - T0 )) s" >> $OUT/log.txt
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
PROG="$B/tristream $(ldconfig -p | awk '/libcuda\.so\.1 / { print $NF; exit }')"
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; cat $PROG > /dev/null; }
Q=$(( $(stat -c %s $W/rmat26.tsg) / 4 ))
run() { # label args...
	local l=$1; shift
	local a b rc
	a=$(date +%s.%N)
	TSG_OPEN_PROFILE=1 $B/tristream count --json --quiet "$@" $W/rmat26.tsg > $OUT/j.tmp 2>$OUT/e.tmp
	rc=$?
	b=$(date +%s.%N)
	python3 -c "
import json
try: d=json.load(open('$OUT/j.tmp'))
except Exception: d={}
s=d.get('stages',{})
print('%-14s %6.2f rc=%s tri=%s own=%s read=%.2f engine=%.2f rows=%.2f tail=%.2f' % ('$l', $b - $a, $rc, d.get('triangles'), d.get('seconds'), s.get('read',0), s.get('engine',0), s.get('arrival_rows',0), s.get('arrival_tail',0)))
" >> $OUT/runs.txt
	grep "open profile" $OUT/e.tmp | cut -c1-300 | sed 's/^/    /' >> $OUT/runs.txt
}
for i in 1 2 3; do
	[ $(( $(date +%s) - T0 )) -gt 560 ] && break
	drop; run q-nogpu-r$i --gpu-mem $Q --io uring
	drop; run q-gpu0-r$i --gpu 0 --gpu-mem $Q --io uring
done
rm -f $OUT/j.tmp $OUT/e.tmp
tar czf $OUT/rs.tgz -C /tmp rs
cp $R/table.md $OUT/ 2>/dev/null
cat $OUT/gen.txt $OUT/t/gpu-tests-summary.txt; grep -v "^    " $OUT/runs.txt; tail -n 22 $OUT/log.txt | cut -c1-250
echo "done at $(( $(date +%s) - T0 ))s"
