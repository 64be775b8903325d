#!/usr/bin/env bash
# session 39 call 5: R-MAT 26 and 25 at a quarter, auto (groups where the
# rows reach 2 GiB) against --layout block, medians; then tests/gpu/groups.sh
set -u
B=.carry/gpu28
T0=$(date +%s)
export PATH=$PATH:/usr/local/cuda/bin
{ nvidia-smi -L; nproc; free -g | head -2; cat $B/commit; sha256sum $B/tristream | cut -c1-16; } > $OUT/info.txt 2>&1
W=/tmp/w; mkdir -p $W
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
run() { # graph label args...
	local f=$1 l=$2; shift 2
	local a b
	a=$(date +%s.%N)
	$B/tristream count --json "$@" $f > $OUT/j.tmp 2>$OUT/e.tmp
	local rc=$?
	b=$(date +%s.%N)
	python3 -c "
import json,sys
try: d=json.load(open('$OUT/j.tmp'))
except Exception: d={}
s=d.get('stages',{}); g=d.get('arrival_groups',{})
print('%-26s %7.2f rc=%s tri=%s layout=%s groups=%s endS=%.2f fb=%s tail=%s count=%s' % ('$l', $(python3 -c "print(round($b - $a, 3))"), $rc, d.get('triangles'), d.get('layout'), d.get('groups'), g.get('group_end_s',0), g.get('rows_alloc_fallbacks'), s.get('arrival_tail'), s.get('count')))
" | tee -a $OUT/runs.txt
	[ $rc = 0 ] || head -c 300 $OUT/e.tmp
	case $l in *cold*) cp $OUT/j.tmp $OUT/last-$l.json 2>/dev/null ;; esac
}
dd_cold() {
	drop; local a=$(date +%s.%N); dd if=$1 of=/dev/null bs=64M iflag=direct 2>/dev/null; local b=$(date +%s.%N)
	echo "dd-cold-$2                $(python3 -c "print(round($b - $a, 3))")" | tee -a $OUT/runs.txt
}
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg || exit 1
Q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
for i in 1 2 3; do
	dd_cold $W/r26.tsg r26
	drop; run $W/r26.tsg r26-auto-q-cold --gpu-mem $Q
	drop; run $W/r26.tsg r26-block-q-cold --layout block --gpu-mem $Q
done
cat $W/r26.tsg > /dev/null
for i in 1 2 3; do
	run $W/r26.tsg r26-auto-q-warm --gpu-mem $Q
	run $W/r26.tsg r26-block-q-warm --layout block --gpu-mem $Q
done
rm -f $W/r26.tsg
$B/tristream-gen --quiet --seed 1 rmat --scale 25 $W/r25.tsg || exit 1
Q=$(( $(stat -c %s $W/r25.tsg) / 4 ))
for i in 1 2; do
	dd_cold $W/r25.tsg r25
	drop; run $W/r25.tsg r25-auto-q-cold --gpu-mem $Q
	drop; run $W/r25.tsg r25-groups-q-cold --layout arrival --gpu-mem $Q
	drop; run $W/r25.tsg r25-block-q-cold --layout block --gpu-mem $Q
done
cat $W/r25.tsg > /dev/null
for i in 1 2; do
	run $W/r25.tsg r25-groups-q-warm --layout arrival --gpu-mem $Q
	run $W/r25.tsg r25-block-q-warm --layout block --gpu-mem $Q
done
rm -f $W/r25.tsg $OUT/j.tmp $OUT/e.tmp
left=$(( 585 - ($(date +%s) - T0) ))
echo "groups.sh with ${left}s left" | tee -a $OUT/info.txt
timeout $left bash tests/gpu/groups.sh $B .carry/graphs > $OUT/groups.txt 2>&1
echo "groups.sh rc=$?" | tee -a $OUT/info.txt
grep -E "FAIL|passed" $OUT/groups.txt | head -20
