#!/usr/bin/env bash
# session 45 call C (two GPUs): tests/gpu on gpu55 (4717eeb: auto maps a
# cached plain file for the arrival layout) in lanes, R-MAT 26 made
# meanwhile; then warm R-MAT 26, gpu54 (3a05bd3+knob: auto reads a cached
# file buffered, no early read) against gpu55, --gpu 0 and --gpus 2,
# warm-up + 4 rounds interleaved.
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W
( .carry/gpu55/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg ) &
GEN=$!
mkdir -p $OUT/t
OUT=$OUT/t BUILD=gpu55 LIMIT=${LIMIT:-400} LANES="0,1:oriented-early,multi-arrival,groups 0:counts-0,counts-1 1:counts-4,counts-5,counts-6" bash .carry/final42.sh
wait $GEN
[ -s $W/r26.tsg ] || exit 1
A=.carry/gpu54 B=.carry/gpu55
run() { # label bindir args...
	local l=$1 x=$2; shift 2
	local a b
	a=$(date +%s.%N)
	TSG_OPEN_PROFILE=1 timeout 90 $x/tristream count --json "$@" $W/r26.tsg > $OUT/j.tmp 2>$OUT/e.tmp
	local rc=$?
	b=$(date +%s.%N)
	python3 -c "
import json
try: d=json.load(open('$OUT/j.tmp'))
except Exception: d={}
s=d.get('stages',{})
print('%-18s %7.2f rc=%s tri=%s layout=%s gpus=%s own=%s engine=%s read=%s early=%s io=%s cached=%s' % ('$l', $b - $a, $rc, d.get('triangles'), d.get('layout'), len(d.get('gpus') or []), d.get('seconds'), s.get('engine'), s.get('read'), d.get('lists_read_early'), d.get('io'), d.get('io_cached')))
" | tee -a $OUT/runs.txt
	grep "open profile" $OUT/e.tmp | tr '\n' '|' | sed 's/open profile: //g' >> $OUT/runs.txt; echo >> $OUT/runs.txt
	[ $rc = 0 ] || head -c 400 $OUT/e.tmp | tee -a $OUT/runs.txt
}
cat $W/r26.tsg > /dev/null
for i in 0 1 2 3 4; do
	for x in A B; do
		eval d=\$$x
		run $x-g1-r$i $d --gpu 0
		run $x-g2-r$i $d --gpus 2
	done
done
rm -rf $W $OUT/j.tmp $OUT/e.tmp
python3 - $OUT/runs.txt <<'PY' | tee $OUT/table.txt
import sys, statistics, re
rows = {}
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) < 2: continue
    m = re.match(r'(.+)-r(\d)$', p[0])
    if m and m.group(2) != '0': rows.setdefault(m.group(1), []).append(float(p[1]))
for k in sorted(rows):
    v = rows[k]
    print('%-10s median %.2f s (%.2f-%.2f) of %d' % (k, statistics.median(v), min(v), max(v), len(v)))
print('R-MAT 26 plain warm; A = gpu54 (3a05bd3: cached file read buffered, not early), B = gpu55 (4717eeb: mapped, walked early); g1 = --gpu 0, g2 = --gpus 2')
PY
echo "done at $(( $(date +%s) - T0 ))s" | tee -a $OUT/t/info.txt
