#!/usr/bin/env bash
# prepared in session 46 for the next: the groups' arena against the
# begin step. R-MAT 26 cold at a quarter, one GPU, four variants
# interleaved, three rounds, dd beside: default (arena at the start of
# gpu_arrival_begin), TSG_ARRIVAL_ARENA_LATE=1, TSG_ARRIVAL_ARENA_PAUSE_US=200,
# TSG_ARRIVAL_GROUP_ARENA=0. Build: .carry/gpu57b (branch s46-arena-contention).
# begin = build - rank - rows - tail from each run's JSON.
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W
B=$(pwd)/.carry/${BUILD:-gpu57b}
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg || exit 1
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
mapfile -t PROG < <(echo "$B/tristream"; ldd "$B/tristream" 2>/dev/null | awk '$3 ~ /^\// { print $3 }'
	ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 / { print $NF; exit }')
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; cat "${PROG[@]}" > /dev/null; }
Q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
run() { # label env...
	local l=$1; shift
	local a b rc
	a=$(date +%s.%N)
	env TSG_OPEN_PROFILE=1 TSG_ARRIVAL_GROUP_PROFILE=2 "$@" $B/tristream count --json --quiet --gpu 0 --gpu-mem $Q --io uring $W/r26.tsg > $OUT/j.tmp 2>$OUT/e.tmp
	rc=$?
	b=$(date +%s.%N)
	python3 -c "
import json
try: d=json.load(open('$OUT/j.tmp'))
except Exception: d={}
s=d.get('stages',{})
g=lambda k: s.get(k,0)
print('%-10s %6.2f rc=%s tri=%s read=%.2f engine=%.2f build=%.2f begin=%.2f rows=%.2f tail=%.2f' % ('$l', $b - $a, $rc, d.get('triangles'), g('read'), g('engine'), g('build'), g('build')-g('arrival_rank')-g('arrival_rows')-g('arrival_tail'), g('arrival_rows'), g('arrival_tail')))
" >> $OUT/runs.txt
	grep -E "open profile|groups|group 8" $OUT/e.tmp | cut -c1-260 | sed 's/^/    /' >> $OUT/runs.txt
}
for i in 1 2 3; do
	drop; a=$(date +%s.%N); dd if=$W/r26.tsg of=/dev/null bs=64M iflag=direct 2>/dev/null; b=$(date +%s.%N)
	echo "dd-r$i $(python3 -c "print('%.2f' % ($b - $a))")" >> $OUT/runs.txt
	drop; run def-r$i
	drop; run late-r$i TSG_ARRIVAL_ARENA_LATE=1
	drop; run pause-r$i TSG_ARRIVAL_ARENA_PAUSE_US=200
	drop; run none-r$i TSG_ARRIVAL_GROUP_ARENA=0
done
rm -f $OUT/j.tmp $OUT/e.tmp
grep -v "^    " $OUT/runs.txt
echo "done at $(( $(date +%s) - T0 ))s"
