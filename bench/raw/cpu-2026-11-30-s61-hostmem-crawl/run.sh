#!/usr/bin/env bash
# cnr-2000 (with its transpose) on the CPU, with and without a --host-mem
# that holds it, by two builds side by side: BEFORE (a crawl under
# --host-mem always sorted through a scratch .tsg) and AFTER (merged in
# memory where the CPU's figure fits SIZE). 5 rounds interleaved, whole
# process, medians (min-max); fails on counts that disagree.
# bash run.sh BEFORE_TRISTREAM AFTER_TRISTREAM CRAWL_BASE > table.txt
set -u
BEF=$1 AFT=$2 G=$3
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for r in 1 2 3 4 5; do
	for b in before after; do
		x=$BEF; [ $b = after ] && x=$AFT
		for v in none 16G; do
			a=; [ $v != none ] && a="--host-mem $v"
			/usr/bin/time -f "%e %M" -o "$T/t" "$x" count --quiet --json --device cpu $a "$G" >"$T/j" || exit 1
			python3 -c "
import json; d = json.load(open('$T/j')); t = open('$T/t').read().split()
print('$b', '$v', t[0], t[1], d['triangles'], d['plan']['input']['chosen'])" >>"$T/rows"
		done
	done
done
python3 - "$T/rows" <<'PY'
import sys, statistics as st
rows = [l.split(None, 5) for l in open(sys.argv[1])]
counts = {r[4] for r in rows}
assert len(counts) == 1, counts
print("cnr-2000, CPU, whole process, 5 rounds interleaved; triangles", counts.pop())
print("%-7s %-11s %-24s %-20s %s" % ("build", "--host-mem", "seconds median (min-max)", "peak RSS KB median", "input"))
for b in ("before", "after"):
    for v in ("none", "16G"):
        rr = [r for r in rows if r[0] == b and r[1] == v]
        s = [float(r[2]) for r in rr]; m = [int(r[3]) for r in rr]
        print("%-7s %-11s %-24s %-20d %s" % (b, v, "%.2f (%.2f-%.2f)" % (st.median(s), min(s), max(s)), st.median(m), rr[0][5].strip()))
PY
