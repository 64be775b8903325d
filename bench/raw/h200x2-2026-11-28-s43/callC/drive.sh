#!/usr/bin/env bash
# session 43 call C (two GPUs): gpu49 (7ac70ca: the oriented read begun
# early whatever the memory, staging made and GPUs closed a thread a GPU)
# against gpu46 (7ba006a), run for run: R-MAT 26 oriented warm (--gpu 0,
# --gpus 2) and plain warm (--gpus 2, --gpu 0), 4 rounds after a warm-up;
# the oriented file cold (--gpu 0, --gpus 2, --gpu 0 at a quarter of the
# plain file) 3 rounds beside dd. First ONLY=early oriented.sh on gpu49;
# after, tests/gpu lanes (LANES) to LIMIT.
set -u
B=.carry/gpu49 A=.carry/gpu46
T0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nproc; free -g | head -2;
  echo "new $(cat $B/commit) $(sha256sum $B/tristream | cut -c1-16)"; echo "before $(cat $A/commit) $(sha256sum $A/tristream | cut -c1-16)"; } > $OUT/info.txt 2>&1
CUDA_VISIBLE_DEVICES=0 ONLY=early bash tests/gpu/oriented.sh $B .carry/graphs > $OUT/early.txt 2>&1
echo "oriented.sh ONLY=early rc=$? $(tail -n 1 $OUT/early.txt) at $(( $(date +%s) - T0 ))s" | tee -a $OUT/info.txt
grep -E "^FAIL" $OUT/early.txt | head
W=/tmp/w; mkdir -p $W
LIBS="$(ldconfig -p | awk '/libcuda.so|libnvidia-ptxjitcompiler/ {print $NF}' | sort -u)"
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; cat $B/tristream $A/tristream $LIBS > /dev/null 2>&1; }
run() { # binary-dir graph label args...
	local x=$1 f=$2 l=$3; shift 3
	local a b
	a=$(date +%s.%N)
	timeout 90 $x/tristream count --json "$@" $f > $OUT/j.tmp 2>$OUT/e.tmp
	local rc=$?
	b=$(date +%s.%N)
	python3 -c "
import json
try: d=json.load(open('$OUT/j.tmp'))
except Exception: d={}
s=d.get('stages',{})
o=d.get('plan',{}).get('overlap',{})
print('%-20s %7.2f rc=%s tri=%s gpus=%s layout=%s own=%s engine=%s read=%s wait=%s count_wall=%s early=%s' % ('$l', $b - $a, $rc, d.get('triangles'), len(d.get('gpus',[])) or 1, d.get('layout'), d.get('seconds'), s.get('engine'), s.get('read'), s.get('read_wait'), s.get('count_wall'), 'begun before' in o.get('reason','')))
" | tee -a $OUT/runs.txt
	[ $rc = 0 ] || head -c 400 $OUT/e.tmp | tee -a $OUT/runs.txt
}
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg || exit 1
$B/tristream-convert --quiet --oriented $W/r26.tsg $W/r26.o.tsg || exit 1
echo "gen+convert done at $(( $(date +%s) - T0 ))s" | tee -a $OUT/runs.txt
Q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
cat $W/r26.o.tsg $W/r26.tsg > /dev/null
for i in 0 1 2 3 4; do # round 0: warm-up, not counted
	for x in A B; do
		eval d=\$$x
		run $d $W/r26.o.tsg $x-o1-warm-r$i --gpu 0
		run $d $W/r26.o.tsg $x-o2-warm-r$i --gpus 2
		run $d $W/r26.tsg $x-p1-warm-r$i --gpu 0
		run $d $W/r26.tsg $x-p2-warm-r$i --gpus 2
	done
done
rm -f $W/r26.tsg
for i in 1 2 3; do
	drop; a=$(date +%s.%N); dd if=$W/r26.o.tsg of=/dev/null bs=64M iflag=direct 2>/dev/null; b=$(date +%s.%N)
	echo "dd-cold-o            $(python3 -c "print(round($b - $a, 3))")" | tee -a $OUT/runs.txt
	for x in A B; do
		eval d=\$$x
		drop; run $d $W/r26.o.tsg $x-o1-cold-r$i --gpu 0
		drop; run $d $W/r26.o.tsg $x-o2-cold-r$i --gpus 2
		drop; run $d $W/r26.o.tsg $x-o1q-cold-r$i --gpu 0 --gpu-mem $Q
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
    elif p[0] == 'dd-cold-o': rows.setdefault('dd-cold-o', []).append(float(p[1]))
for k in sorted(rows, key=lambda k: (k[2:], k)):
    v = rows[k]
    print('%-14s median %.2f s (%.2f-%.2f) of %d' % (k, statistics.median(v), min(v), max(v), len(v)))
print('A = before (gpu46, 7ba006a), B = new (gpu49); o = oriented file, p = plain; 1 = --gpu 0, 2 = --gpus 2, 1q = --gpu 0 --gpu-mem a quarter of the plain file')
PY
echo "timings done at $(( $(date +%s) - T0 ))s" | tee -a $OUT/info.txt
if [ -n "${LANES:-}" ]; then
	mv $OUT/info.txt $OUT/call-info.txt
	LIMIT=$(( ${LIMIT:-560} - ($(date +%s) - T0) )) BUILD=gpu49 bash .carry/final42.sh
fi
