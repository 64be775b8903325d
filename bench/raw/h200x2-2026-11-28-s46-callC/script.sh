#!/usr/bin/env bash
# session 46 call C (two GPUs): why bench/read_speed.sh's quarter runs end
# 1.7-2.2 s after the read and direct runs 0.5-1.0 s (call B, same host):
# the quarter cold, interleaved, A = direct (call B's), B = A + --device gpu,
# C = A under timeout(1), D = read_speed.sh's own command line. Then tests/gpu lanes.
set -u
T0=$(date +%s)
W=/tmp/rsw; mkdir -p $W
B=$(pwd)/.carry/gpu56
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/rmat26.tsg
echo "gen $(( $(date +%s) - T0 )) s" > $OUT/runs.txt
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
mapfile -t PROG < <(echo "$B/tristream"; ldd "$B/tristream" 2>/dev/null | awk '$3 ~ /^\// { print $3 }'
	ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 / { print $NF; exit }')
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; cat "${PROG[@]}" > /dev/null; }
Q=$(( $(stat -c %s $W/rmat26.tsg) / 4 ))
run() { # label cmd...
	local l=$1; shift
	local a b rc
	a=$(date +%s.%N)
	TSG_OPEN_PROFILE=1 "$@" > $OUT/j.tmp 2>$OUT/e.tmp
	rc=$?
	b=$(date +%s.%N)
	python3 -c "
import json
try: d=json.load(open('$OUT/j.tmp'))
except Exception: d={}
s=d.get('stages',{})
print('%-8s %6.2f rc=%s tri=%s own=%s read=%.2f engine=%.2f rank=%.2f rows=%.2f tail=%.2f' % ('$l', $b - $a, $rc, d.get('triangles'), d.get('seconds'), s.get('read',0), s.get('engine',0), s.get('arrival_rank',0), s.get('arrival_rows',0), s.get('arrival_tail',0)))
" >> $OUT/runs.txt
	grep "open profile" $OUT/e.tmp | cut -c1-300 | sed 's/^/    /' >> $OUT/runs.txt
}
cd $W
for i in 1 2 3; do
	[ $(( $(date +%s) - T0 )) -gt 200 ] && break
	drop; run A-r$i $B/tristream count --json --quiet --gpu-mem $Q --io uring $W/rmat26.tsg
	drop; run B-r$i $B/tristream count --json --quiet --device gpu --gpu-mem $Q --io uring $W/rmat26.tsg
	drop; run C-r$i timeout 300 $B/tristream count --json --quiet --gpu-mem $Q --io uring $W/rmat26.tsg
	drop; run D-r$i timeout 300 $B/tristream count --quiet --json --device gpu --io uring --gpu-mem $Q rmat26.tsg
done
cd - > /dev/null
rm -f $OUT/j.tmp $OUT/e.tmp
grep -v "^    " $OUT/runs.txt
mkdir -p $OUT/t
OUT=$OUT/t BUILD=gpu56 LIMIT=$(( 560 - ($(date +%s) - T0) )) LANES=${LANES:-"0:counts-2,counts-9 1:sanitizer,counts-10"} bash .carry/final42.sh > /dev/null 2>&1
cat $OUT/t/gpu-tests-summary.txt
echo "done at $(( $(date +%s) - T0 ))s"
