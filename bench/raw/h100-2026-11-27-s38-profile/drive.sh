#!/usr/bin/env bash
set -u
B=.carry/gpu24
export PATH=$PATH:/usr/local/cuda/bin
{ nvidia-smi -L; which nsys ncu; ls -d /opt/nvidia/* /usr/local/cuda*/bin/nsys 2>/dev/null; } > $OUT/info.txt 2>&1
W=/tmp/w; mkdir -p $W
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg || exit 1
size=$(stat -c %s $W/r26.tsg); Q=$((size / 4))
cat $W/r26.tsg > /dev/null
for p in 1 0; do
	a=$(date +%s.%N)
	TSG_ARRIVAL_GROUP_PROFILE=$p $B/tristream count --json --layout arrival --gpu-mem $Q $W/r26.tsg > $OUT/p$p.json 2> $OUT/p$p.err
	b=$(date +%s.%N)
	echo "profile=$p wall $(python3 -c "print(round($b - $a, 2))") $(grep -h 'groups profile' $OUT/p$p.err)" | tee -a $OUT/prof.txt
done
python3 -c "
import json
d=json.load(open('$OUT/p0.json')); ps=d['partition_stats']
ms=[p['kernel_ms'] for p in ps]
print('triangles', d['triangles'], 'groups', d['groups'], d['arrival_groups'])
print('batch ms sum', round(sum(ms)), 'top', [(i, round(ms[i])) for i in sorted(range(len(ms)), key=lambda i:-ms[i])[:14]])
" | tee -a $OUT/prof.txt
