#!/usr/bin/env bash
# session 57 call C (one H200): what the GPU's open and close cost inside a
# warm R-MAT 26 count (stamps in gpu_prewarm, gpu_open, gpu_close), and
# whether a smaller budget (--gpu-mem 24G: a smaller cudaMalloc) shortens
# the whole; a warm-up round, then 3 rounds interleaved.
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W $OUT/j
B=.carry/gpu82
{ date -u +%FT%TZ; nvidia-smi -L; nproc; free -g | head -2; echo "tristream $(sha256sum $B/tristream | cut -c1-16) commit $(cat $B/commit)"; } > $OUT/info.txt
$B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg
$B/tristream-convert --quiet --oriented $W/r26.tsg $W/r26o.tsg
echo "gen+convert $(( $(date +%s) - T0 ))s"
cat $W/r26.tsg $W/r26o.tsg > /dev/null
for i in 0 1 2 3; do
  for v in "p1:--gpu 0:r26" "p1m:--gpu 0 --gpu-mem 24G:r26" "o1:--gpu 0:r26o" "o1m:--gpu 0 --gpu-mem 24G:r26o"; do
    IFS=: read l a f <<< "$v"
    s=$(date +%s.%N)
    TSG_OPEN_PROFILE=1 $B/tristream count --json $a $W/$f.tsg > $OUT/j/$l-$i.json 2> $OUT/j/$l-$i.err
    e=$(date +%s.%N)
    echo "shell launch at $s" >> $OUT/j/$l-$i.err; echo "shell end at $e" >> $OUT/j/$l-$i.err
  done
done
echo "runs done $(( $(date +%s) - T0 ))s"
python3 - <<'PY' | tee $OUT/table.txt
import json, glob, os, re, statistics
rows = {}
for f in sorted(glob.glob(os.environ['OUT'] + '/j/*.err')):
    l, i = os.path.basename(f)[:-4].rsplit('-', 1)
    st = []; z = None
    for line in open(f):
        m = re.match(r'(?:process profile: |shell )(.*) at ([0-9.]+)$', line.strip())
        if m:
            st.append((m.group(1), float(m.group(2))))
            if m.group(1) == 'launch': z = float(m.group(2))
    end = dict(st)['end']
    try: d = json.load(open(f[:-4] + '.json')); tri = d['triangles']; lay = d['layout']
    except Exception: tri = None; lay = None
    rows.setdefault(l, []).append(end - z)
    if i == '1':
        print(l, lay, tri, ' '.join('%s=%.3f' % (k.replace(' ', '_'), v - z) for k, v in sorted(st, key=lambda kv: kv[1])))
for l, v in rows.items():
    print(l, 'whole median %.3f of rounds 1-3:' % statistics.median(v[1:]), ' '.join('%.2f' % x for x in v))
PY
grep -h "open profile" $OUT/j/o1-1.err $OUT/j/p1-1.err
rm -rf $W
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
