#!/usr/bin/env bash
# session 55 call A (two H200s): where an oriented file's warm count goes,
# one GPU against two (per-unit JSON, open-profile stamps); then multi.sh
# arrival on HEAD (gpu69 = 98280f5) in the rest of the call.
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W $OUT/j
B=.carry/gpu69
nvidia-smi -L; nproc; free -g | head -2
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg
echo "gen $(( $(date +%s) - T0 ))s"
$B/tristream-convert --quiet --oriented $W/r26.tsg $W/r26o.tsg
echo "convert $(( $(date +%s) - T0 ))s"
rm -f $W/r26.tsg
ls -l $W
cat $W/r26o.tsg > /dev/null
for i in 0 1 2 3; do
  for v in "g1:--gpu 0" "g2:--gpus 2" "g1off:--gpu 0 --overlap off" "g2off:--gpus 2 --overlap off" "g2o32:--gpus 2 --overlap 32"; do
    l=${v%%:*}; a=${v#*:}
    s=$(date +%s.%N)
    TSG_OPEN_PROFILE=1 $B/tristream count --json $a $W/r26o.tsg > $OUT/j/$l-$i.json 2> $OUT/j/$l-$i.err
    python3 -c "print($(date +%s.%N) - $s)" > $OUT/j/$l-$i.time
  done
done
for i in 0 1 2; do s=$(date +%s.%N); $B/tristream info $W/r26o.tsg > /dev/null; echo "info $(python3 -c "print($(date +%s.%N) - $s)")"; done
echo "runs done $(( $(date +%s) - T0 ))s"
python3 - <<'PY' | tee $OUT/summary.txt
import json, glob, statistics, os
rows = {}
for f in sorted(glob.glob(os.environ['OUT'] + '/j/*.json')):
    l, i = os.path.basename(f)[:-5].rsplit('-', 1)
    if i == '0': continue
    try: d = json.load(open(f))
    except Exception: print(f, 'no json'); continue
    t = float(open(f[:-5] + '.time').read().split()[-1])
    s = d.get('stages', {})
    rows.setdefault(l, []).append((t, d.get('seconds'), s.get('read'), s.get('count'), d.get('triangles'), len(d.get('gpus') or [])))
for l, v in rows.items():
    print(l, 'whole', statistics.median(x[0] for x in v), 'own', statistics.median(x[1] for x in v), 'read', statistics.median(x[2] or 0 for x in v), 'tri', set(x[4] for x in v), 'gpus', set(x[5] for x in v))
PY
grep -h "open profile" $OUT/j/g1-1.err $OUT/j/g2-1.err
rm -rf $W
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
BUILD=gpu69 OUT=$OUT LIMIT=$(( 580 - ($(date +%s) - T0) )) LANES="0,1:multi-arrival,multi-lstc" bash .carry/lanes.sh
