#!/usr/bin/env bash
# session 43 call A (two GPUs): the oriented file's read begun before the
# GPUs open (gpu47) against the build before (gpu46), run for run: R-MAT 26
# stored oriented, warm (5 rounds) and cold (3 rounds), --gpu 0 and
# --gpus 2; first ONLY=early tests/gpu/oriented.sh on gpu47; after the
# timings, tests/gpu lanes (LANES) until LIMIT.
set -u
B=.carry/gpu47 A=.carry/gpu46
T0=$(date +%s)
export PATH=$PATH:/usr/local/cuda/bin
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
print('%-18s %7.2f rc=%s tri=%s gpus=%s own=%s engine=%s read=%s wait=%s count_wall=%s busy=%s early=%s' % ('$l', $b - $a, $rc, d.get('triangles'), len(d.get('gpus',[])) or 1, d.get('seconds'), s.get('engine'), s.get('read'), s.get('read_wait'), s.get('count_wall'), [round(x['busy_s'],2) for x in d.get('gpus',[])], 'begun before' in o.get('reason','')))
" | tee -a $OUT/runs.txt
	[ $rc = 0 ] || head -c 400 $OUT/e.tmp | tee -a $OUT/runs.txt
}
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg || exit 1
$B/tristream-convert --quiet --oriented $W/r26.tsg $W/r26.o.tsg || exit 1
rm -f $W/r26.tsg
echo "gen+convert done at $(( $(date +%s) - T0 ))s" | tee -a $OUT/runs.txt
cat $W/r26.o.tsg > /dev/null
for i in 0 1 2 3 4 5; do # round 0: warm-up, not counted
	for x in A B; do
		eval d=\$$x
		run $d $W/r26.o.tsg $x-1-warm-r$i --gpu 0
		run $d $W/r26.o.tsg $x-2-warm-r$i --gpus 2
	done
done
for i in 1 2 3; do
	drop; a=$(date +%s.%N); dd if=$W/r26.o.tsg of=/dev/null bs=64M iflag=direct 2>/dev/null; b=$(date +%s.%N)
	echo "dd-cold-o          $(python3 -c "print(round($b - $a, 3))")" | tee -a $OUT/runs.txt
	for x in A B; do
		eval d=\$$x
		drop; run $d $W/r26.o.tsg $x-1-cold-r$i --gpu 0
		drop; run $d $W/r26.o.tsg $x-2-cold-r$i --gpus 2
	done
done
rm -rf $W $OUT/j.tmp $OUT/e.tmp
python3 - $OUT/runs.txt <<'PY' | tee $OUT/table.txt
import sys, statistics, re
rows = {}
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) < 2: continue
    m = re.match(r'([AB]-\d-(warm|cold))-r(\d)', p[0])
    if m and m.group(3) != '0': rows.setdefault(m.group(1), []).append(float(p[1]))
    elif p[0] == 'dd-cold-o': rows.setdefault('dd-cold-o', []).append(float(p[1]))
for k in sorted(rows):
    v = rows[k]
    print('%-12s median %.2f s (%.2f-%.2f) of %d' % (k, statistics.median(v), min(v), max(v), len(v)))
print('A = before (gpu46), B = new (gpu47); 1 = --gpu 0, 2 = --gpus 2')
PY
echo "timings done at $(( $(date +%s) - T0 ))s" | tee -a $OUT/info.txt
if [ -n "${LANES:-}" ]; then
	mv $OUT/info.txt $OUT/call-info.txt
	LIMIT=$(( ${LIMIT:-560} - ($(date +%s) - T0) )) BUILD=gpu47 bash .carry/final42.sh
fi
