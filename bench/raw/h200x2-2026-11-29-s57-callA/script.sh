#!/usr/bin/env bash
# session 57 call A (two H200s): where a warm R-MAT 26 count's whole
# process goes, plain --gpu 0, oriented --gpu 0 and --gpus 2, every step
# stamped (TSG_OPEN_PROFILE=1: the process's own steps in epoch seconds
# beside the shell's launch and end); then tests/gpu on gpu80 in lanes.
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W $OUT/j
B=.carry/gpu80
nvidia-smi -L; nproc; free -g | head -2
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg
echo "gen $(( $(date +%s) - T0 ))s"
$B/tristream-convert --quiet --oriented $W/r26.tsg $W/r26o.tsg
echo "convert $(( $(date +%s) - T0 ))s"
cat $W/r26.tsg $W/r26o.tsg > /dev/null
for i in 0 1 2 3; do
  for v in "p1:--gpu 0:r26" "o1:--gpu 0:r26o" "o2:--gpus 2:r26o"; do
    IFS=: read l a f <<< "$v"
    s=$(date +%s.%N)
    TSG_OPEN_PROFILE=1 $B/tristream count --json $a $W/$f.tsg > $OUT/j/$l-$i.json 2> $OUT/j/$l-$i.err
    e=$(date +%s.%N)
    echo "shell launch at $s" >> $OUT/j/$l-$i.err; echo "shell end at $e" >> $OUT/j/$l-$i.err
  done
done
echo "runs done $(( $(date +%s) - T0 ))s"
python3 - <<'PY' | tee $OUT/summary.txt
import json, glob, statistics, os, re
rows = {}
for f in sorted(glob.glob(os.environ['OUT'] + '/j/*.err')):
    l, i = os.path.basename(f)[:-4].rsplit('-', 1)
    if i == '0': continue
    st = {}
    for line in open(f):
        m = re.match(r'(process profile|shell): (.*) at ([0-9.]+)', line)
        if m: st[m.group(2)] = float(m.group(3))
    try: d = json.load(open(f[:-4] + '.json')); tri = d['triangles']; own = d['seconds']
    except Exception: tri = None; own = None
    z = st.get('launch')
    print(l, i, 'tri', tri, 'own', own, ' '.join('%s=%.3f' % (k, v - z) for k, v in sorted(st.items(), key=lambda kv: kv[1])))
PY
grep -h "open profile" $OUT/j/p1-1.err $OUT/j/o1-1.err $OUT/j/o2-1.err
rm -rf $W
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
BUILD=gpu80 OUT=$OUT LIMIT=$(( 585 - ($(date +%s) - T0) )) LANES="0,1:multi-lstc,multi-arrival 0:clique-early,clique-sanitizer,inputs 1:oriented,counts-0" bash .carry/lanes.sh
