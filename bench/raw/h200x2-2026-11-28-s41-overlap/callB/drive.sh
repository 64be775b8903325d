#!/usr/bin/env bash
# session 41 call B: main e4cc842 (shares at once). R-MAT 26 at a quarter, warm:
# --gpu 0 against groups on both (--layout arrival --gpus 2) and auto --gpus 2
# (GPU 0 alone, the file in the page cache); then multi.sh ONLY=lstc, ONLY=block
set -u
B=.carry/gpu44
T0=$(date +%s)
export PATH=$PATH:/usr/local/cuda/bin
{ nvidia-smi -L; nproc; free -g | head -2; cat $B/commit; sha256sum $B/tristream | cut -c1-16; } > $OUT/info.txt 2>&1
W=/tmp/w; mkdir -p $W
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
run() { # graph label args...
	local f=$1 l=$2; shift 2
	local a b
	a=$(date +%s.%N)
	timeout 60 $B/tristream count --json "$@" $f > $OUT/j.tmp 2>$OUT/e.tmp
	local rc=$?
	b=$(date +%s.%N)
	python3 -c "
import json,sys
try: d=json.load(open('$OUT/j.tmp'))
except Exception: d={}
s=d.get('stages',{}); g=d.get('arrival_groups',{})
print('%-20s %7.2f rc=%s tri=%s layout=%s groups=%s gpus=%s endS=%.2f tail=%s count=%s pin=%s unpin=%s busy=%s' % ('$l', $(python3 -c "print(round($b - $a, 3))"), $rc, d.get('triangles'), d.get('layout'), d.get('groups'), len(d.get('gpus',[])), g.get('group_end_s',0), s.get('arrival_tail'), s.get('count'), s.get('arrival_pin'), s.get('arrival_unpin'), [round(x['busy_s'],2) for x in d.get('gpus',[])]))
" | tee -a $OUT/runs.txt
	[ $rc = 0 ] || head -c 400 $OUT/e.tmp | tee -a $OUT/runs.txt
	grep -h "groups profile\|^group \|groups:" $OUT/e.tmp | sed "s/^/$l: /" >> $OUT/prof.txt
}
dd_cold() {
	drop; local a=$(date +%s.%N); dd if=$1 of=/dev/null bs=64M iflag=direct 2>/dev/null; local b=$(date +%s.%N)
	echo "dd-cold-$2           $(python3 -c "print(round($b - $a, 3))")" | tee -a $OUT/runs.txt
}
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg || exit 1
echo "gen done at $(( $(date +%s) - T0 ))s" | tee -a $OUT/runs.txt
Q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
cat $W/r26.tsg > /dev/null
run $W/r26.tsg warmup --gpu 0 --gpu-mem $Q
for i in 1 2 3; do
	run $W/r26.tsg one-q-warm --gpu 0 --gpu-mem $Q
	run $W/r26.tsg both-q-warm --gpus 2 --layout arrival --gpu-mem $Q
	run $W/r26.tsg auto2-q-warm --gpus 2 --gpu-mem $Q
done
export TSG_ARRIVAL_GROUP_PROFILE=2
run $W/r26.tsg both-q-warm-prof --gpus 2 --layout arrival --gpu-mem $Q
unset TSG_ARRIVAL_GROUP_PROFILE
rm -f $W/r26.tsg $OUT/j.tmp $OUT/e.tmp
for part in lstc block; do
	left=$(( ${LIMIT:-420} - ($(date +%s) - T0) ))
	[ $left -gt 30 ] || { echo "multi.sh $part not run" | tee -a $OUT/info.txt; continue; }
	echo "multi.sh $part with ${left}s left" | tee -a $OUT/info.txt
	ONLY=$part timeout $left bash tests/gpu/multi.sh $B .carry/graphs > $OUT/multi-$part.txt 2>&1
	echo "multi.sh $part rc=$? at $(( $(date +%s) - T0 ))s" | tee -a $OUT/info.txt
	grep -E "FAIL|passed" $OUT/multi-$part.txt | head -10
done
