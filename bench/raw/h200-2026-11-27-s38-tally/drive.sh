#!/usr/bin/env bash
# tallied pairs: groups.sh, then R-MAT 26 at a quarter: warm profile, cold block vs groups
set -u
B=.carry/gpu24
export PATH=$PATH:/usr/local/cuda/bin
{ nvidia-smi -L; nproc; cat $B/commit; } > $OUT/info.txt 2>&1
timeout 300 bash tests/gpu/groups.sh $B .carry/graphs > $OUT/groups.txt 2>&1
echo "groups.sh rc=$?" | tee -a $OUT/info.txt
grep -E "FAIL|passed" $OUT/groups.txt | head -8
W=/tmp/w; mkdir -p $W
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg || exit 1
size=$(stat -c %s $W/r26.tsg); Q=$((size / 4))
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
run() { # label, args...
	local l=$1; shift
	local a b rc
	a=$(date +%s.%N)
	$B/tristream count --json "$@" $W/r26.tsg > $OUT/j.tmp 2>$OUT/e.tmp
	rc=$?
	b=$(date +%s.%N)
	python3 -c "
import json
try: d=json.load(open('$OUT/j.tmp'))
except Exception: d={}
s=d.get('stages',{}); g=d.get('arrival_groups',{})
print('%-18s %7.2f rc=%s tri=%s layout=%s groups=%s back=%.1fG launches=%s tallies=%s split=%s endS=%.2f tail=%s count=%s' % ('$l', $(python3 -c "print(round($b - $a, 3))"), $rc, d.get('triangles'), d.get('layout'), d.get('groups'), g.get('rows_back_bytes',0)/1e9, g.get('pair_launches'), g.get('pair_tallies'), g.get('pair_split'), g.get('group_end_s',0), s.get('arrival_tail'), s.get('count')))
" | tee -a $OUT/runs.txt
	grep -h "groups profile" $OUT/e.tmp | tee -a $OUT/runs.txt
	[ $rc = 0 ] || head -c 300 $OUT/e.tmp
	case $l in groups-q-cold2) cp $OUT/j.tmp $OUT/groups-q-cold.json ;; block-q-cold2) cp $OUT/j.tmp $OUT/block-q-cold.json ;; esac
}
cat $W/r26.tsg > /dev/null
TSG_ARRIVAL_GROUP_PROFILE=1 run groups-prof-warm --layout arrival --gpu-mem $Q
run groups-q-warm --layout arrival --gpu-mem $Q
run block-q-warm --gpu-mem $Q
for i in 1 2; do
	drop; a=$(date +%s.%N); dd if=$W/r26.tsg of=/dev/null bs=64M iflag=direct 2>/dev/null; b=$(date +%s.%N)
	echo "dd-cold            $(python3 -c "print(round($b - $a, 3))")" | tee -a $OUT/runs.txt
	drop; run block-q-cold$i --gpu-mem $Q
	drop; run groups-q-cold$i --layout arrival --gpu-mem $Q
done
rm -f $OUT/j.tmp $OUT/e.tmp
