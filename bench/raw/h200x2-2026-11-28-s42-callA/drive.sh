#!/usr/bin/env bash
# session 42 call A (two GPUs): R-MAT 26 at a quarter, cold, --gpus 2 under
# auto: the build before (59f7175: GPU 1 started by the engine) against
# 7ba006a (every GPU started early where the rows pass --gpu-mem), run for
# run, beside dd; then tests/gpu/groups.sh on both GPUs and on GPU 0 alone
# (NGPU=1), on 7ba006a
set -u
B=.carry/gpu46 A=.carry/gpu-before
T0=$(date +%s)
export PATH=$PATH:/usr/local/cuda/bin
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nproc; free -g | head -2;
  echo "new $(cat $B/commit) $(sha256sum $B/tristream | cut -c1-16)"; echo "before $(cat $A/commit) $(sha256sum $A/tristream | cut -c1-16)"; } > $OUT/info.txt 2>&1
W=/tmp/w; mkdir -p $W
LIBS="$(ldconfig -p | awk '/libcuda.so|libnvidia-ptxjitcompiler/ {print $NF}' | sort -u)"
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; cat $B/tristream $A/tristream $LIBS > /dev/null 2>&1; }
run() { # binary-dir graph label args...
	local x=$1 f=$2 l=$3; shift 3
	local a b
	a=$(date +%s.%N)
	timeout 90 $x/tristream count --json "$@" $f > $OUT/j.tmp 2>$OUT/e.tmp
	local rc=$?
	b=$(date +%s.%N)
	python3 -c "
import json
try: d=json.load(open('$OUT/j.tmp'))
except Exception: d={}
s=d.get('stages',{})
print('%-16s %7.2f rc=%s tri=%s layout=%s groups=%s gpus=%s own=%s read=%s plan=%s count=%s tail=%s busy=%s' % ('$l', $b - $a, $rc, d.get('triangles'), d.get('layout'), d.get('groups'), len(d.get('gpus',[])), s.get('seconds'), s.get('read'), s.get('plan'), s.get('count'), s.get('arrival_tail'), [round(x['busy_s'],2) for x in d.get('gpus',[])]))
" | tee -a $OUT/runs.txt
	[ $rc = 0 ] || head -c 400 $OUT/e.tmp | tee -a $OUT/runs.txt
}
dd_cold() {
	drop; local a=$(date +%s.%N); dd if=$1 of=/dev/null bs=64M iflag=direct 2>/dev/null; local b=$(date +%s.%N)
	echo "dd-cold          $(python3 -c "print(round($b - $a, 3))")" | tee -a $OUT/runs.txt
}
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg || exit 1
echo "gen done at $(( $(date +%s) - T0 ))s" | tee -a $OUT/runs.txt
Q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
for i in 1 2 3; do
	dd_cold $W/r26.tsg
	drop; run $A $W/r26.tsg before-2-cold --gpus 2 --gpu-mem $Q
	drop; run $B $W/r26.tsg new-2-cold --gpus 2 --gpu-mem $Q
done
rm -f $W/r26.tsg $OUT/j.tmp $OUT/e.tmp
python3 - $OUT/runs.txt <<'PY' | tee -a $OUT/runs.txt
import sys, statistics
rows = {}
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) >= 2 and p[0] in ('dd-cold', 'before-2-cold', 'new-2-cold'):
        rows.setdefault(p[0], []).append(float(p[1]))
for k, v in rows.items():
    print('median %-14s %.2f s of %s' % (k, statistics.median(v), v))
PY
for job in groups groups1; do
	left=$(( ${LIMIT:-570} - ($(date +%s) - T0) ))
	[ $left -gt 30 ] || { echo "$job not run (no time)" | tee -a $OUT/info.txt; continue; }
	if [ $job = groups ]; then timeout $left bash tests/gpu/groups.sh $B .carry/graphs
	else NGPU=1 CUDA_VISIBLE_DEVICES=0 timeout $left bash tests/gpu/groups.sh $B .carry/graphs; fi > $OUT/$job.txt 2>&1
	echo "$job rc=$? $(tail -n 1 $OUT/$job.txt) at $(( $(date +%s) - T0 ))s" | tee -a $OUT/info.txt
	grep -E "^FAIL" $OUT/$job.txt | head -10
done
