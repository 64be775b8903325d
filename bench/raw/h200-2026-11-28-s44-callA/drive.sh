#!/usr/bin/env bash
# session 44 call A (two GPUs): gpu51 (cadd3f2: a plain file's read begun
# before the GPUs open for the arrival layout; early reads stoppable)
# against gpu50 (71780d9), run for run on R-MAT 26 plain: cold --gpu 0,
# cold at a quarter (groups), cold --host-mem 4G (3 rounds, dd beside),
# warm --gpu 0 (warm-up + 4). First ONLY=early oriented.sh on gpu51 on both
# GPUs while the graph is made.
set -u
B=.carry/gpu51 A=.carry/gpu50
T0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nproc; free -g | head -2;
  echo "new $(cat $B/commit) $(sha256sum $B/tristream | cut -c1-16)"; echo "before $(cat $A/commit) $(sha256sum $A/tristream | cut -c1-16)"; } > $OUT/info.txt 2>&1
W=/tmp/w; mkdir -p $W
( $B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg; echo "gen rc=$? at $(( $(date +%s) - T0 ))s" >> $OUT/info.txt ) &
GEN=$!
CUDA_VISIBLE_DEVICES=0,1 ONLY=early timeout 300 bash tests/gpu/oriented.sh $B .carry/graphs > $OUT/early.txt 2>&1
echo "oriented.sh ONLY=early rc=$? $(tail -n 1 $OUT/early.txt) at $(( $(date +%s) - T0 ))s" | tee -a $OUT/info.txt
grep -E "^FAIL|read (was stopped|had ended)" $OUT/early.txt | head -20
wait $GEN
[ -s $W/r26.tsg ] || exit 1
LIBS="$(ldconfig -p | awk '/libcuda.so|libnvidia-ptxjitcompiler/ {print $NF}' | sort -u)"
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; cat $B/tristream $A/tristream $LIBS > /dev/null 2>&1; }
run() { # binary-dir graph label args...
	local x=$1 f=$2 l=$3; shift 3
	local a b
	a=$(date +%s.%N)
	TSG_OPEN_PROFILE=1 timeout 90 $x/tristream count --json "$@" $f > $OUT/j.tmp 2>$OUT/e.tmp
	local rc=$?
	b=$(date +%s.%N)
	python3 -c "
import json
try: d=json.load(open('$OUT/j.tmp'))
except Exception: d={}
s=d.get('stages',{})
print('%-16s %7.2f rc=%s tri=%s layout=%s groups=%s own=%s engine=%s read=%s early=%s' % ('$l', $b - $a, $rc, d.get('triangles'), d.get('layout'), d.get('groups'), d.get('seconds'), s.get('engine'), s.get('read'), d.get('lists_read_early')))
" | tee -a $OUT/runs.txt
	grep "open profile" $OUT/e.tmp | tr '\n' '|' | sed 's/open profile: //g' >> $OUT/runs.txt; echo >> $OUT/runs.txt
	[ $rc = 0 ] || head -c 400 $OUT/e.tmp | tee -a $OUT/runs.txt
}
Q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
for i in 1 2 3; do
	drop; a=$(date +%s.%N); dd if=$W/r26.tsg of=/dev/null bs=64M iflag=direct 2>/dev/null; b=$(date +%s.%N)
	echo "dd-cold          $(python3 -c "print(round($b - $a, 3))")" | tee -a $OUT/runs.txt
	for x in A B; do
		eval d=\$$x
		drop; run $d $W/r26.tsg $x-p1-cold-r$i --gpu 0
		drop; run $d $W/r26.tsg $x-pq-cold-r$i --gpu 0 --gpu-mem $Q
		drop; run $d $W/r26.tsg $x-ph-cold-r$i --gpu 0 --host-mem 4G
	done
done
cat $W/r26.tsg > /dev/null
for i in 0 1 2 3 4; do
	for x in A B; do
		eval d=\$$x
		run $d $W/r26.tsg $x-p1-warm-r$i --gpu 0
	done
done
rm -rf $W $OUT/j.tmp $OUT/e.tmp
python3 - $OUT/runs.txt <<'PY' | tee $OUT/table.txt
import sys, statistics, re
rows = {}
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) < 2: continue
    m = re.match(r'([AB]-\w+-(warm|cold))-r(\d)', p[0])
    if m and m.group(3) != '0': rows.setdefault(m.group(1), []).append(float(p[1]))
    elif p[0] == 'dd-cold': rows.setdefault('dd-cold', []).append(float(p[1]))
for k in sorted(rows, key=lambda k: (k[2:], k)):
    v = rows[k]
    print('%-14s median %.2f s (%.2f-%.2f) of %d' % (k, statistics.median(v), min(v), max(v), len(v)))
print('A = before (gpu50, 71780d9), B = new (gpu51, cadd3f2); R-MAT 26 plain; p1 = --gpu 0, pq = --gpu 0 --gpu-mem a quarter of the file, ph = --gpu 0 --host-mem 4G')
PY
echo "timings done at $(( $(date +%s) - T0 ))s" | tee -a $OUT/info.txt
