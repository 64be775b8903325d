#!/usr/bin/env bash
# session 40 call D: why groups on two GPUs are slower warm: R-MAT 26 at a
# quarter, file cached; one GPU against groups forced on both
# (--layout arrival --gpus 2), with the lists' pages given back at the end
# (TSG_ARRIVAL_UNPIN=end) and without the rows' arena; profiles
set -u
B=.carry/gpu42
export PATH=$PATH:/usr/local/cuda/bin
{ nvidia-smi -L; nproc; cat $B/commit; } > $OUT/info.txt 2>&1
W=/tmp/w; mkdir -p $W
run() { # label env args...
	local l=$1 e=$2; shift 2
	local a b
	a=$(date +%s.%N)
	env $e timeout 60 $B/tristream count --json "$@" $W/r26.tsg > $OUT/j.tmp 2>$OUT/e.tmp
	local rc=$?
	b=$(date +%s.%N)
	python3 -c "
import json
try: d=json.load(open('$OUT/j.tmp'))
except Exception: d={}
s=d.get('stages',{}); g=d.get('arrival_groups',{})
print('%-16s %7.2f rc=%s tri=%s gpus=%s endS=%.2f tail=%s count=%s pin=%s unpin=%s' % ('$l', $(python3 -c "print(round($b - $a, 3))"), $rc, d.get('triangles'), len(d.get('gpus',[])), g.get('group_end_s',0), s.get('arrival_tail'), s.get('count'), s.get('arrival_pin'), s.get('arrival_unpin')))
" | tee -a $OUT/runs.txt
	grep -h "groups profile\|^group \|groups:" $OUT/e.tmp | sed "s/^/$l: /" >> $OUT/prof.txt
}
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg || exit 1
Q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
cat $W/r26.tsg > /dev/null
for i in 1 2; do
	run one X=1 --gpu 0 --gpu-mem $Q
	run two X=1 --layout arrival --gpus 2 --gpu-mem $Q
	run two-unpin-end TSG_ARRIVAL_UNPIN=end --layout arrival --gpus 2 --gpu-mem $Q
	run one-unpin-end TSG_ARRIVAL_UNPIN=end --gpu 0 --gpu-mem $Q
	run two-no-arena TSG_ARRIVAL_GROUP_ARENA=0 --layout arrival --gpus 2 --gpu-mem $Q
done
run two-prof-end "TSG_ARRIVAL_GROUP_PROFILE=2 TSG_ARRIVAL_UNPIN=end" --layout arrival --gpus 2 --gpu-mem $Q
run two-prof TSG_ARRIVAL_GROUP_PROFILE=2 --layout arrival --gpus 2 --gpu-mem $Q
run one-prof TSG_ARRIVAL_GROUP_PROFILE=2 --gpu 0 --gpu-mem $Q
rm -f $W/r26.tsg $OUT/j.tmp $OUT/e.tmp
