#!/usr/bin/env bash
# session 48 call: R-MAT 26 cold at a quarter of the GPU's memory, one GPU,
# dd beside; default against TSG_ARRIVAL_GROUP_EARLY=963/984/992 (the last
# group's batches before 232/237/239 of 241 counted ahead of its end),
# interleaved, three rounds. Each run stamped from the shell: its start,
# the JSON line's arrival on the pipe, the pipe's end, the wait's end.
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W
B=$(pwd)/.carry/${BUILD:-gpu58}
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
run() { # label env...
	local l=$1; shift
	local a b rc st
	a=$(date +%s.%N)
	st=$( { env TSG_OPEN_PROFILE=1 TSG_ARRIVAL_GROUP_PROFILE=2 "$@" $B/tristream count --json --quiet --gpu 0 --gpu-mem $Q --io uring $W/r26.tsg 2>$OUT/e.tmp; echo $? > $W/rc; } | python3 $W/stamp.py $W/j.tmp)
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
print('%-10s %6.2f rc=%s tri=%s json_at=%.2f eof_at=%.2f seconds=%.2f read=%.2f engine=%.2f rows=%.2f tail=%.2f gend=%.2f early=%s back=%.2fG' % ('$l', $b - $a, $rc, d.get('triangles'), t1-$a, t2-$a, d.get('seconds',0), g('read'), g('engine'), g('arrival_rows'), g('arrival_tail'), a.get('group_end_s',0), a.get('early_batch','-'), a.get('rows_back_bytes',0)/1e9))
" >> $OUT/runs.txt
	grep -E "open profile|groups|group 8|early" $OUT/e.tmp | cut -c1-300 | sed 's/^/    /' >> $OUT/runs.txt
}
for i in 1 2 3; do
	drop; a=$(date +%s.%N); dd if=$W/r26.tsg of=/dev/null bs=64M iflag=direct 2>/dev/null; b=$(date +%s.%N)
	echo "dd-r$i $(python3 -c "print('%.2f' % ($b - $a))")" >> $OUT/runs.txt
	drop; run def-r$i
	drop; run e963-r$i TSG_ARRIVAL_GROUP_EARLY=963
	drop; run e984-r$i TSG_ARRIVAL_GROUP_EARLY=984
	drop; run e992-r$i TSG_ARRIVAL_GROUP_EARLY=992
done
rm -f $OUT/e.tmp
grep -v "^    " $OUT/runs.txt
echo "done at $(( $(date +%s) - T0 ))s"
