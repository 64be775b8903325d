#!/usr/bin/env bash
# session 45 call A (two GPUs): ONLY=early oriented.sh on gpu54 (3a05bd3 +
# TSG_PREAD_HELPERS) while R-MAT 26 is made; then warm R-MAT 26: info and
# count with 4 / 8 / 16 pread helpers, auto (no early read: cached) and
# --io pread (early read), 3 rounds interleaved; --gpus 2 warm.
set -u
B=.carry/gpu54
T0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nproc; free -g | head -2; uname -r;
  echo "build $(cat $B/commit) $(sha256sum $B/tristream | cut -c1-16)"; } > $OUT/info.txt 2>&1
W=/tmp/w; mkdir -p $W
( $B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg; echo "gen rc=$? at $(( $(date +%s) - T0 ))s" >> $OUT/info.txt ) &
GEN=$!
CUDA_VISIBLE_DEVICES=0,1 ONLY=early timeout 280 bash tests/gpu/oriented.sh $B .carry/graphs > $OUT/early.txt 2>&1
echo "oriented.sh ONLY=early rc=$? $(tail -n 1 $OUT/early.txt) at $(( $(date +%s) - T0 ))s" | tee -a $OUT/info.txt
grep -E "^FAIL|read (was stopped|had ended)" $OUT/early.txt | head -20
wait $GEN
[ -s $W/r26.tsg ] || exit 1
run() { # label env-helpers args...
	local l=$1 h=$2; shift 2
	local a b
	a=$(date +%s.%N)
	TSG_PREAD_HELPERS=$h TSG_OPEN_PROFILE=1 timeout 90 $B/tristream "$@" > $OUT/j.tmp 2>$OUT/e.tmp
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
run warmup 4 count --json --gpu 0 $W/r26.tsg
for i in 1 2 3; do
	for h in 4 8 16; do
		run info-h$h-r$i $h info --json $W/r26.tsg
		run auto-h$h-r$i $h count --json --gpu 0 $W/r26.tsg
		run pread-h$h-r$i $h count --json --gpu 0 --io pread $W/r26.tsg
	done
	run mmap-r$i 4 count --json --gpu 0 --io mmap $W/r26.tsg
	run gpus2-h16-r$i 16 count --json --gpus 2 $W/r26.tsg
	run gpus2arr-h16-r$i 16 count --json --gpus 2 --layout arrival $W/r26.tsg
done
rm -rf $W $OUT/j.tmp $OUT/e.tmp
python3 - $OUT/runs.txt <<'PY' | tee $OUT/table.txt
import sys, statistics, re
rows = {}
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) < 2: continue
    m = re.match(r'(.+)-r(\d)$', p[0])
    if m: rows.setdefault(m.group(1), []).append(float(p[1]))
for k in rows:
    v = rows[k]
    print('%-16s median %.2f s (%.2f-%.2f) of %d' % (k, statistics.median(v), min(v), max(v), len(v)))
print('R-MAT 26 plain warm; hN = TSG_PREAD_HELPERS=N; auto = --gpu 0 (cached: no early read), pread = --gpu 0 --io pread (early read), gpus2 = --gpus 2 auto, gpus2arr = --gpus 2 --layout arrival')
PY
echo "timings done at $(( $(date +%s) - T0 ))s" | tee -a $OUT/info.txt
