#!/usr/bin/env bash
# session 52 call F: what R-MAT 16 at groups.sh's budget does with 256 batches
B=$(pwd)/.carry/gpu64; T=/tmp/f; mkdir -p $T
$B/tristream-gen --quiet --seed 5 rmat --scale 16 $T/r16.tsg
m=$($B/tristream info --json $T/r16.tsg | python3 -c 'import json,sys; d=json.load(sys.stdin)
print(d["edges"] * 8 // 3 + d["id_range"] * 12 + 4194304)')
echo "budget $m; brute $($B/tests/brute $T/r16.tsg)"
for u in "" 0; do
	for nb in 256 64; do
		TSG_ARRIVAL_GROUP_UNITS=$u $B/tristream count --quiet --json --device gpu --layout arrival --gpu-mem $m --batches $nb $T/r16.tsg > $T/j 2> $T/e; rc=$?
		echo "units='$u' batches=$nb rc=$rc $(python3 -c "import json; d=json.load(open('$T/j')); print(d['triangles'], d['groups'], d['batches'], d.get('arrival_groups',{}).get('unit_launches'), d['note'][:150])" 2>&1 | tail -1) $(head -c 200 $T/e)"
	done
done
