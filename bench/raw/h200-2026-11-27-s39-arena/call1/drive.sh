#!/usr/bin/env bash
# session 39 call 1: pinned allocation costs; where the group ends' host time goes
set -u
B=.carry/gpu25
export PATH=$PATH:/usr/local/cuda/bin
{ nvidia-smi -L; nproc; free -g | head -2; cat $B/commit; } > $OUT/info.txt 2>&1
nvcc -O2 -o /tmp/pa bench/pinned_alloc.cu && { /tmp/pa 512 4096; /tmp/pa 64 4096; } 2>&1 | tee $OUT/pinned.txt
W=/tmp/w; mkdir -p $W
t0=$(date +%s.%N)
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg || exit 1
echo "gen $(python3 -c "print(round($(date +%s.%N) - $t0, 1))") s" | tee -a $OUT/info.txt
size=$(stat -c %s $W/r26.tsg); Q=$((size / 4))
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
run() { # label, args...
	local l=$1; shift
	local a b
	a=$(date +%s.%N)
	$B/tristream count --json "$@" $W/r26.tsg > $OUT/j.tmp 2>$OUT/e.tmp
	local rc=$?
	b=$(date +%s.%N)
	grep "groups profile" $OUT/e.tmp | sed "s/^/$l: /" >> $OUT/prof.txt
	python3 -c "
import json,sys
try: d=json.load(open('$OUT/j.tmp'))
except Exception: d={}
s=d.get('stages',{}); g=d.get('arrival_groups',{})
print('%-22s %7.2f rc=%s tri=%s layout=%s groups=%s back=%.1fG launches=%s endS=%.2f tail=%s count=%s rows=%s' % ('$l', $(python3 -c "print(round($b - $a, 3))"), $rc, d.get('triangles'), d.get('layout'), d.get('groups'), g.get('rows_back_bytes',0)/1e9, g.get('pair_launches'), g.get('group_end_s',0), s.get('arrival_tail'), s.get('count'), s.get('arrival_rows')))
" | tee -a $OUT/runs.txt
	[ $rc = 0 ] || head -c 300 $OUT/e.tmp
	case $l in *cold*) cp $OUT/j.tmp $OUT/last-$l.json 2>/dev/null ;; esac
}
drop; a=$(date +%s.%N); dd if=$W/r26.tsg of=/dev/null bs=64M iflag=direct 2>/dev/null; b=$(date +%s.%N)
echo "dd-cold                $(python3 -c "print(round($b - $a, 3))")" | tee -a $OUT/runs.txt
drop; TSG_ARRIVAL_GROUP_PROFILE=2 run groups-q-cold --layout arrival --gpu-mem $Q
cat $W/r26.tsg > /dev/null
TSG_ARRIVAL_GROUP_PROFILE=2 run groups-q-warm --layout arrival --gpu-mem $Q
TSG_ARRIVAL_GROUP_PROFILE=1 run groups-prof-warm --layout arrival --gpu-mem $Q
run block-q-warm --gpu-mem $Q
cat $OUT/prof.txt
rm -f $OUT/j.tmp $OUT/e.tmp
