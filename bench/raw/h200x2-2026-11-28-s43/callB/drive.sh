#!/usr/bin/env bash
# session 43 call B (two GPUs): where a run's start goes. bench/gpu_open_cost
# (the runtime, contexts, budgets: one GPU, two in parallel, two serial);
# gpu48 (d7a68ad + TSG_OPEN_PROFILE stamps) on R-MAT 26 oriented and plain,
# warm, --gpu 0 and --gpus 2; the oriented file cold at a quarter of the
# plain file's size: budget units read up (as before) against read down
# (TSG_TEST_STREAM_EARLY=1, top first), beside dd.
set -u
B=.carry/gpu48
T0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nproc; free -g | head -2; cat $B/commit; } > $OUT/info.txt 2>&1
for i in 1 2 3; do for m in "1 parallel" "2 parallel" "2 serial"; do .carry/gpu_open_cost $m; done; done > $OUT/open_cost.txt 2>&1
cat $OUT/open_cost.txt
W=/tmp/w; mkdir -p $W
LIBS="$(ldconfig -p | awk '/libcuda.so|libnvidia-ptxjitcompiler/ {print $NF}' | sort -u)"
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; cat $B/tristream $LIBS > /dev/null 2>&1; }
run() { # graph label args...
	local f=$1 l=$2; shift 2
	local a b
	a=$(date +%s.%N)
	TSG_OPEN_PROFILE=1 timeout 90 $B/tristream count --json "$@" $f > $OUT/j.tmp 2>$OUT/e.tmp
	local rc=$?
	b=$(date +%s.%N)
	python3 -c "
import json
try: d=json.load(open('$OUT/j.tmp'))
except Exception: d={}
s=d.get('stages',{})
print('%-22s %7.2f rc=%s tri=%s gpus=%s own=%s engine=%s read=%s wait=%s count_wall=%s layout=%s' % ('$l', $b - $a, $rc, d.get('triangles'), len(d.get('gpus',[])) or 1, d.get('seconds'), s.get('engine'), s.get('read'), s.get('read_wait'), s.get('count_wall'), d.get('layout')))
" | tee -a $OUT/runs.txt
	grep "open profile" $OUT/e.tmp | sed "s/^/    /" | tee -a $OUT/runs.txt
	[ $rc = 0 ] || head -c 400 $OUT/e.tmp | tee -a $OUT/runs.txt
}
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg || exit 1
$B/tristream-convert --quiet --oriented $W/r26.tsg $W/r26.o.tsg || exit 1
echo "gen+convert done at $(( $(date +%s) - T0 ))s" | tee -a $OUT/runs.txt
Q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
cat $W/r26.o.tsg $W/r26.tsg > /dev/null
for i in 0 1 2; do
	run $W/r26.o.tsg o-1-warm-r$i --gpu 0
	run $W/r26.o.tsg o-2-warm-r$i --gpus 2
done
for i in 0 1; do
	run $W/r26.tsg p-1-warm-r$i --gpu 0
	run $W/r26.tsg p-2-warm-r$i --gpus 2
done
rm -f $W/r26.tsg
for i in 1 2 3; do
	drop; a=$(date +%s.%N); dd if=$W/r26.o.tsg of=/dev/null bs=64M iflag=direct 2>/dev/null; b=$(date +%s.%N)
	echo "dd-cold-o              $(python3 -c "print(round($b - $a, 3))")" | tee -a $OUT/runs.txt
	drop; run $W/r26.o.tsg q-up-cold-r$i --gpu 0 --gpu-mem $Q
	drop; export TSG_TEST_STREAM_EARLY=1; run $W/r26.o.tsg q-down-cold-r$i --gpu 0 --gpu-mem $Q; unset TSG_TEST_STREAM_EARLY
done
rm -rf $W $OUT/j.tmp $OUT/e.tmp
echo "done at $(( $(date +%s) - T0 ))s" | tee -a $OUT/info.txt
