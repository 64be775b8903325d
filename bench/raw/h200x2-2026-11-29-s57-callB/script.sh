#!/usr/bin/env bash
# session 57 call B (two H200s): the GPUs' close at the end of a warm
# R-MAT 26 count: one after another (default), on a thread each
# (TSG_BENCH_CLOSE=parallel) or left to the process's exit (=skip); plain
# and oriented files, --gpu 0 and --gpus 2; a warm-up round, then 3
# rounds interleaved; every step stamped (TSG_OPEN_PROFILE=1).
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W $OUT/j
B=.carry/gpu81
{ date -u +%FT%TZ; nvidia-smi -L; nproc; free -g | head -2; echo "tristream $(sha256sum $B/tristream | cut -c1-16) commit $(cat $B/commit)"; } > $OUT/info.txt
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg
$B/tristream-convert --quiet --oriented $W/r26.tsg $W/r26o.tsg
echo "gen+convert $(( $(date +%s) - T0 ))s"
cat $W/r26.tsg $W/r26o.tsg > /dev/null
for i in 0 1 2 3; do
  for c in default parallel skip; do
    for v in "p1:--gpu 0:r26" "p2:--gpus 2:r26" "o1:--gpu 0:r26o" "o2:--gpus 2:r26o"; do
      IFS=: read l a f <<< "$v"
      s=$(date +%s.%N)
      TSG_BENCH_CLOSE=$c TSG_OPEN_PROFILE=1 $B/tristream count --json $a $W/$f.tsg > $OUT/j/$l-$c-$i.json 2> $OUT/j/$l-$c-$i.err
      e=$(date +%s.%N)
      echo "shell launch at $s" >> $OUT/j/$l-$c-$i.err; echo "shell end at $e" >> $OUT/j/$l-$c-$i.err
    done
  done
done
echo "runs done $(( $(date +%s) - T0 ))s"
python3 - <<'PY' | tee $OUT/table.txt
import json, glob, os, re, statistics
rows = {}
for f in sorted(glob.glob(os.environ['OUT'] + '/j/*.err')):
    l, c, i = os.path.basename(f)[:-4].rsplit('-', 2)
    if i == '0': continue
    st = {}
    for line in open(f):
        m = re.match(r'(?:process profile: |shell )(.*) at ([0-9.]+)$', line.strip())
        if m: st[m.group(1)] = float(m.group(2))
        m = re.match(r'open profile: (.*?) at ([0-9.]+) s', line.strip())
        if m: st['e:' + m.group(1)] = float(m.group(2))
    try: d = json.load(open(f[:-4] + '.json')); tri = d['triangles']
    except Exception: tri = None
    z = st['launch']
    rows.setdefault((l, c), []).append((st['end'] - z, st["main's return"] - z, st['end'] - st["main's return"],
        st.get('e:GPUs closed', 0) - st.get('e:block layout done', st.get('e:arrival layout done', 0)) if 'e:GPUs closed' in st else -1, tri))
print('config close whole(median; runs) main-return exit close tri')
for (l, c), v in sorted(rows.items()):
    m = lambda k: statistics.median(x[k] for x in v)
    print(l, c, '%.3f (%s)' % (m(0), ' '.join('%.2f' % x[0] for x in v)), '%.3f %.3f %.3f' % (m(1), m(2), m(3)), set(x[4] for x in v))
PY
rm -rf $W
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
