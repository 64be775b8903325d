#!/usr/bin/env bash
# session 56: `tristream info` of R-MAT 22 stored oriented (tristream-gen
# --seed 1 rmat --scale 22, tristream-convert --oriented; 307 MB, in the
# page cache), the build before (ca1950d) against the degrees counted in
# each thread's own counters for the top ranks, on this 2-core machine;
# 7 rounds interleaved, medians.
set -u
F=${F:-/tmp/r22o.tsg}
cat "$F" > /dev/null
for r in 1 2 3 4 5 6 7; do
	for t in 1 2; do
		for b in old new; do
			s=$(date +%s.%N)
			/tmp/ts-$b info --threads $t "$F" > /tmp/info-$b.txt || echo "rc $? $b"
			echo "$b t$t $(python3 -c "print('%.3f' % ($(date +%s.%N) - $s))")"
		done
		cmp -s /tmp/info-old.txt /tmp/info-new.txt || echo "outputs differ, round $r"
	done
done > runs.txt
python3 - <<'PY' | tee table.txt
import statistics
rows = {}
for l in open('runs.txt'):
    p = l.split()
    if len(p) == 3: rows.setdefault((p[0], p[1]), []).append(float(p[2]))
for k in sorted(rows): print('%s %s: median %.3f s (%s)' % (k[0], k[1], statistics.median(rows[k]), ' '.join('%.2f' % x for x in rows[k])))
PY
