#!/usr/bin/env bash
# session 52 call C: R-MAT 26 warm on the whole GPU (the arrival layout in
# one region): the batch count's effect on the device's time (JSON stage
# count) and the whole run, --batches 16/32/64/120/241, interleaved, three
# rounds; the default (auto) beside.
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W
B=$(pwd)/.carry/${BUILD:-gpu63}
[ -f $W/r26.tsg ] || $B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg || exit 1
echo "gen done at $(( $(date +%s) - T0 ))s" >> $OUT/c.txt
cat $W/r26.tsg > /dev/null
run() { # label args...
	local l=$1; shift
	local a b rc
	a=$(date +%s.%N)
	$B/tristream count --json --quiet --gpu 0 "$@" $W/r26.tsg > $W/j.tmp 2> $W/e.tmp; rc=$?
	b=$(date +%s.%N)
	python3 -c "
import json
try: d=json.load(open('$W/j.tmp'))
except Exception: d={}
s=d.get('stages',{}); g=lambda k: s.get(k,0)
print('%-10s %6.2f rc=%s tri=%s seconds=%.2f read=%.2f count=%.2f rows=%.2f tail=%.2f layout=%s batches=%s' % ('$l', $b - $a, $rc, d.get('triangles'), d.get('seconds',0), g('read'), g('count'), g('arrival_rows'), g('arrival_tail'), d.get('layout'), d.get('plan',{}).get('batches',{}).get('chosen')))
" >> $OUT/c.txt
	[ "$rc" = 0 ] || tail -3 $W/e.tmp | sed 's/^/    ERR /' >> $OUT/c.txt
}
run warm0
for i in 1 2 3; do
	run auto-w$i
	for n in 16 32 64 120 241; do run b$n-w$i --batches $n; done
done
echo "done at $(( $(date +%s) - T0 ))s" >> $OUT/c.txt
cat $OUT/c.txt
