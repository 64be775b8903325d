#!/usr/bin/env bash
# session 46 call A (two GPUs): tests/gpu lanes on gpu56 (HEAD) while
# R-MAT 26 is made; then where the quarter's tail goes on this host:
# cold --gpu-mem 1/4, --gpu 0 and --gpu 1, groups profile, dd beside.
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W
B=$(pwd)/.carry/gpu56
( $B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg ) &
GEN=$!
mkdir -p $OUT/t
OUT=$OUT/t BUILD=gpu56 LIMIT=${LIMIT:-330} LANES=${LANES:-"0,1:oriented-early,groups 0:counts-1,counts-2 1:counts-3,counts-7"} bash .carry/final42.sh
wait $GEN
[ -s $W/r26.tsg ] || exit 1
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
PROG="$B/tristream $(ldconfig -p | awk '/libcuda\.so\.1 / { print $NF; exit }')"
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; cat $PROG > /dev/null; }
Q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
{ nvidia-smi topo -m; numactl -H 2>/dev/null | head -3; lscpu | grep -i numa; } > $OUT/topo.txt 2>&1
run() { # label args...
	local l=$1; shift
	local a b rc
	a=$(date +%s.%N)
	TSG_ARRIVAL_GROUP_PROFILE=2 $B/tristream count --json "$@" $W/r26.tsg > $OUT/j.tmp 2>$OUT/e.tmp
	rc=$?
	b=$(date +%s.%N)
	python3 -c "
import json
try: d=json.load(open('$OUT/j.tmp'))
except Exception: d={}
s=d.get('stages',{})
print('%-14s %6.2f rc=%s tri=%s layout=%s own=%s stages=%s' % ('$l', $b - $a, $rc, d.get('triangles'), d.get('layout'), d.get('seconds'), json.dumps(s)))
" >> $OUT/runs.txt
	grep -E "^group|groups" $OUT/e.tmp | sed 's/^/    /' >> $OUT/runs.txt
	[ $rc = 0 ] || head -c 400 $OUT/e.tmp >> $OUT/runs.txt
}
for i in 1 2 3; do
	drop; a=$(date +%s.%N); dd if=$W/r26.tsg of=/dev/null bs=64M iflag=direct 2>/dev/null; b=$(date +%s.%N)
	echo "dd-r$i $(python3 -c "print('%.2f' % ($b - $a))")" >> $OUT/runs.txt
	for g in 0 1; do drop; run q-gpu$g-r$i --gpu $g --gpu-mem $Q --io uring; done
	drop; run full-gpu0-r$i --gpu 0 --io uring
done
run q-warm-gpu0 --gpu 0 --gpu-mem $Q
run q-warm-gpu1 --gpu 1 --gpu-mem $Q
rm -f $OUT/j.tmp $OUT/e.tmp
grep -v "^    " $OUT/runs.txt | awk '{print $1, $2, $3, $4}'
echo "done at $(( $(date +%s) - T0 ))s"
