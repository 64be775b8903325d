#!/usr/bin/env bash
# session 52 call D: R-MAT 26 at a quarter of the GPU's memory, one GPU:
# units of batches (default) against a batch a launch
# (TSG_ARRIVAL_GROUP_UNITS=0), warm then cold (page cache dropped), dd
# beside, interleaved, three rounds each.
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W
B=$(pwd)/.carry/${BUILD:-gpu64}
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg || exit 1
echo "gen done at $(( $(date +%s) - T0 ))s" >> $OUT/runs.txt
mapfile -t PROG < <(echo "$B/tristream"; ldd "$B/tristream" 2>/dev/null | awk '$3 ~ /^\// { print $3 }'
	ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 / { print $NF; exit }')
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; cat "${PROG[@]}" > /dev/null; }
Q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
cat > $W/stamp.py <<'PY'
import sys, time, json
line = sys.stdin.readline(); t1 = time.time()
rest = sys.stdin.read(); t2 = time.time()
open(sys.argv[1], 'w').write(line)
print('%.3f %.3f' % (t1, t2))
PY
run() { # label io args... -- env...
	local l=$1 io=$2; shift 2
	local args=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	local a b rc st
	a=$(date +%s.%N)
	st=$( { env TSG_OPEN_PROFILE=1 TSG_ARRIVAL_GROUP_PROFILE=2 "$@" $B/tristream count --json --quiet --gpu 0 --gpu-mem $Q --io $io "${args[@]}" $W/r26.tsg 2>$W/e.tmp; echo $? > $W/rc; } | python3 $W/stamp.py $W/j.tmp)
	b=$(date +%s.%N)
	rc=$(cat $W/rc)
	python3 -c "
import json
try: d=json.load(open('$W/j.tmp'))
except Exception: d={}
s=d.get('stages',{}); g=lambda k: s.get(k,0)
a=d.get('arrival_groups',{})
t1,t2='$st'.split() if '$st' else (0,0)
t1=float(t1); t2=float(t2)
print('%-12s %6.2f rc=%s tri=%s seconds=%.2f read=%.2f engine=%.2f count=%.2f rows=%.2f tail=%.2f groups=%s gend=%.2f launches=%s units=%s back=%.2fG batches=%s' % ('$l', $b - $a, $rc, d.get('triangles'), d.get('seconds',0), g('read'), g('engine'), g('count'), g('arrival_rows'), g('arrival_tail'), a.get('groups','-'), a.get('group_end_s',0), a.get('pair_launches','-'), a.get('unit_launches','-'), a.get('rows_back_bytes',0)/1e9, d.get('plan',{}).get('batches', d.get('batches','-'))))
" >> $OUT/runs.txt
	grep -E "open profile: (arrival|first)|groups profile|groups:|arena" $W/e.tmp | cut -c1-260 | sed 's/^/    /' >> $OUT/runs.txt
	[ "$rc" = 0 ] || tail -3 $W/e.tmp | sed 's/^/    ERR /' >> $OUT/runs.txt
}
# warm: the file in the page cache, read once first
cat $W/r26.tsg > /dev/null
run warm0 auto
for i in 1 2 3; do
	run def-w$i auto
	run u0-w$i auto -- TSG_ARRIVAL_GROUP_UNITS=0
done
echo "warm done at $(( $(date +%s) - T0 ))s" >> $OUT/runs.txt
for i in 1 2 3; do
	drop; a=$(date +%s.%N); dd if=$W/r26.tsg of=/dev/null bs=64M iflag=direct 2>/dev/null; b=$(date +%s.%N)
	echo "dd-r$i $(python3 -c "print('%.2f' % ($b - $a))")" >> $OUT/runs.txt
	drop; run def-c$i uring
	drop; run u0-c$i uring -- TSG_ARRIVAL_GROUP_UNITS=0
done
grep -v "^    " $OUT/runs.txt
echo "done at $(( $(date +%s) - T0 ))s"
