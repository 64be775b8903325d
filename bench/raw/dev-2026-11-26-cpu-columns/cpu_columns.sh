#!/usr/bin/env bash
# bench/cpu_columns.sh - the CPU's block layout with every row in memory:
# one unit (--partitions 1, the default before 2026-11-26) against the
# columns it now cuts (block_opts.columns: up to 16 columns of at least
# 4 Mi entries), side by side, alternating, RUNS times each; medians of
# the whole process (the shell's clock) and of the JSON's count stage.
# Every count must agree and be a number.
#
#   OUT=DIR [RUNS=3] bench/cpu_columns.sh BUILD_DIR GRAPH.tsg...
set -u
: "${OUT:?set OUT=RESULT_DIR}"
RUNS=${RUNS:-3}
B=$1; shift
mkdir -p "$OUT" || exit 1
n=0
for g in "$@"; do
	n=$((n + 1))
	for i in $(seq 1 "$RUNS"); do
		for v in one columns; do
			a=; [ $v = one ] && a="--partitions 1"
			t=$EPOCHREALTIME
			# shellcheck disable=SC2086 # a: two words on purpose
			"$B/tristream" count --quiet --json --device cpu $a "$g" >"$OUT/$n-$v-$i.json" 2>"$OUT/$n-$v-$i.err"
			echo "$? $(python3 -c "print($EPOCHREALTIME - $t)") $g" >"$OUT/$n-$v-$i.meta"
		done
	done
done
python3 - "$OUT" "$RUNS" "$n" <<'PY'
import json, os, statistics, sys
out, runs, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
bad = 0
print(f"{'graph':28} {'variant':8} {'units':>5} {'whole s':>8} {'count s':>8}  count   (medians of {runs})")
for k in range(1, n + 1):
    seen = set()
    for v in ("one", "columns"):
        w, c, units, g = [], [], None, "?"
        for i in range(1, runs + 1):
            rc, wall, g = open(f"{out}/{k}-{v}-{i}.meta").read().split(maxsplit=2)
            try:
                d = json.load(open(f"{out}/{k}-{v}-{i}.json"))
            except Exception:
                d = {}
            t = d.get("triangles")
            if rc != "0" or not isinstance(t, int):
                print(f"FAIL: {g} {v} run {i}: exit {rc}, count {t!r}"); bad = 1; continue
            seen.add(t); w.append(float(wall)); c.append(d["stages"]["count"]); units = d.get("partitions")
        if w:
            print(f"{os.path.basename(g.strip()):28} {v:8} {units!s:>5} {statistics.median(w):8.2f} {statistics.median(c):8.2f}  {t}")
    if len(seen) != 1:
        print(f"FAIL: graph {k}: counts differ or are missing: {sorted(seen)}"); bad = 1
sys.exit(bad)
PY
