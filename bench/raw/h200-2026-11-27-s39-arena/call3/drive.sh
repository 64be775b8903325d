#!/usr/bin/env bash
# session 39 call 3: groups.sh; R-MAT 26 at a quarter: group sizes, with their timelines
set -u
B=.carry/gpu27
export PATH=$PATH:/usr/local/cuda/bin
{ nvidia-smi -L; nproc; free -g | head -2; cat $B/commit; } > $OUT/info.txt 2>&1
timeout ${GT:-300} bash tests/gpu/groups.sh $B .carry/graphs > $OUT/groups.txt 2>&1
echo "groups.sh rc=$?" | tee -a $OUT/info.txt
grep -E "FAIL|passed" $OUT/groups.txt | head -20
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
	TSG_ARRIVAL_GROUP_PROFILE=2 $B/tristream count --json "$@" $W/r26.tsg > $OUT/j.tmp 2>$OUT/e.tmp
	local rc=$?
	b=$(date +%s.%N)
	grep "groups " $OUT/e.tmp | sed "s/^/$l: /" >> $OUT/prof.txt
	python3 -c "
import json,sys
try: d=json.load(open('$OUT/j.tmp'))
except Exception: d={}
s=d.get('stages',{}); g=d.get('arrival_groups',{})
print('%-22s %7.2f rc=%s tri=%s layout=%s groups=%s endS=%.2f allocS=%s fb=%s tail=%s count=%s rows=%s' % ('$l', $(python3 -c "print(round($b - $a, 3))"), $rc, d.get('triangles'), d.get('layout'), d.get('groups'), g.get('group_end_s',0), g.get('rows_alloc_s'), g.get('rows_alloc_fallbacks'), s.get('arrival_tail'), s.get('count'), s.get('arrival_rows')))
" | tee -a $OUT/runs.txt
	[ $rc = 0 ] || head -c 300 $OUT/e.tmp
	case $l in *cold*) cp $OUT/j.tmp $OUT/last-$l.json 2>/dev/null ;; esac
}
for i in 1 2; do
	drop; a=$(date +%s.%N); dd if=$W/r26.tsg of=/dev/null bs=64M iflag=direct 2>/dev/null; b=$(date +%s.%N)
	echo "dd-cold                $(python3 -c "print(round($b - $a, 3))")" | tee -a $OUT/runs.txt
	drop; run groups-q-cold --layout arrival --gpu-mem $Q
	drop; TSG_ARRIVAL_GROUP_TAIL=8 run tail8-q-cold --layout arrival --gpu-mem $Q
	drop; TSG_ARRIVAL_GROUP_TAIL=2 run tail2-q-cold --layout arrival --gpu-mem $Q
	drop; TSG_ARRIVAL_GROUP_B=4 run b4-q-cold --layout arrival --gpu-mem $Q
done
cat $W/r26.tsg > /dev/null
run groups-q-warm --layout arrival --gpu-mem $Q
TSG_ARRIVAL_GROUP_TAIL=8 run tail8-q-warm --layout arrival --gpu-mem $Q
TSG_ARRIVAL_GROUP_TAIL=2 run tail2-q-warm --layout arrival --gpu-mem $Q
TSG_ARRIVAL_GROUP_B=4 run b4-q-warm --layout arrival --gpu-mem $Q
grep -v "^.*: group [0-9]" $OUT/prof.txt | grep -v note
rm -f $OUT/j.tmp $OUT/e.tmp
