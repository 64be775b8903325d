#!/usr/bin/env bash
# cnr-2000 (with its transpose) on the CPU, with and without --host-mem
# that holds it: 5 rounds interleaved, whole process, medians (min-max).
# bash run.sh BUILD_DIR CRAWL_BASE > table.txt
set -u
B=$1 G=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for r in 1 2 3 4 5; do
	for v in none 16G; do
		a=; [ $v != none ] && a="--host-mem $v"
		/usr/bin/time -f "%e %M" -o "$T/t" "$B/tristream" count --quiet --json --device cpu $a "$G" >"$T/j" || exit 1
		python3 -c "
import json; d = json.load(open('$T/j')); print('$v', open('$T/t').read().split()[0], open('$T/t').read().split()[1], d['triangles'], d['plan']['input']['chosen'])" >>"$T/rows"
	done
done
python3 - "$T/rows" <<'PY'
import sys, statistics as st
rows = [l.split(None, 4) for l in open(sys.argv[1])]
counts = {r[3] for r in rows}
assert len(counts) == 1, counts
print("cnr-2000, CPU, whole process, 5 rounds interleaved; triangles", counts.pop())
print("%-14s %-22s %-22s %s" % ("--host-mem", "seconds median (min-max)", "peak RSS KB median", "input"))
for v in ("none", "16G"):
    s = [float(r[1]) for r in rows if r[0] == v]; m = [int(r[2]) for r in rows if r[0] == v]
    print("%-14s %.2f (%.2f-%.2f)%8s %-22d %s" % (v, st.median(s), min(s), max(s), "", st.median(m), [r[4].strip() for r in rows if r[0] == v][0]))
PY
