#!/usr/bin/env bash
# session 40 call A: R-MAT 26 at a quarter on two GPUs: groups on GPU 0
# (--gpu 0), groups on both (--gpus 2, auto), the block layout on both
# (--gpus 2 --layout block); cold rounds beside dd, then warm
set -u
B=.carry/gpu40
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
print('%-20s %7.2f rc=%s tri=%s layout=%s groups=%s gpus=%s endS=%.2f back=%s tail=%s count=%s' % ('$l', $(python3 -c "print(round($b - $a, 3))"), $rc, d.get('triangles'), d.get('layout'), d.get('groups'), len(d.get('gpus',[])), g.get('group_end_s',0), g.get('rows_back_bytes'), s.get('arrival_tail'), s.get('count')))
" | tee -a $OUT/runs.txt
	[ $rc = 0 ] || head -c 400 $OUT/e.tmp | tee -a $OUT/runs.txt
	case $l in *cold*) cp $OUT/j.tmp $OUT/last-$l.json 2>/dev/null ;; esac
}
dd_cold() {
	drop; local a=$(date +%s.%N); dd if=$1 of=/dev/null bs=64M iflag=direct 2>/dev/null; local b=$(date +%s.%N)
	echo "dd-cold-$2           $(python3 -c "print(round($b - $a, 3))")" | tee -a $OUT/runs.txt
}
# a quick check first: small graph, groups forced, two GPUs against brute
$B/tristream-gen --quiet --seed 6 rmat --scale 18 $W/r18.tsg
echo "r18 brute $($B/tests/brute $W/r18.tsg)" | tee -a $OUT/runs.txt
TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=20000 run $W/r18.tsg r18-two-forced --layout arrival --gpus 2 --batches 64
TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=20000 run $W/r18.tsg r18-one-forced --layout arrival --batches 64
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg || exit 1
echo "gen done at $(( $(date +%s) - T0 ))s" | tee -a $OUT/runs.txt
Q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
for i in 1 2 3; do
	dd_cold $W/r26.tsg r26
	drop; run $W/r26.tsg one-q-cold --gpu 0 --gpu-mem $Q
	drop; run $W/r26.tsg two-q-cold --gpus 2 --gpu-mem $Q
	drop; run $W/r26.tsg block2-q-cold --gpus 2 --layout block --gpu-mem $Q
done
cat $W/r26.tsg > /dev/null
for i in 1 2 3; do
	run $W/r26.tsg one-q-warm --gpu 0 --gpu-mem $Q
	run $W/r26.tsg two-q-warm --gpus 2 --gpu-mem $Q
	run $W/r26.tsg block2-q-warm --gpus 2 --layout block --gpu-mem $Q
done
TSG_ARRIVAL_GROUP_PROFILE=2 $B/tristream count --json --gpus 2 --gpu-mem $Q $W/r26.tsg > /dev/null 2> $OUT/prof.txt
echo "done at $(( $(date +%s) - T0 ))s" | tee -a $OUT/runs.txt
rm -f $OUT/j.tmp $OUT/e.tmp
