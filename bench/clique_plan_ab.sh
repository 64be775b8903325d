#!/usr/bin/env bash
# bench/clique_plan_ab.sh OLD_BUILD NEW_BUILD GRAPH [P...] - the k-clique
# plan's closed listing on the host, two builds side by side in one run:
# `tristream count --device cpu --k 4 --partitions P --plan-only` (every
# part built by listing its triangles, nothing counted), the builds
# alternating over RUNS rounds (default 3), medians of the JSON's plan and
# build stages and of the whole run. The parts must come out the same in
# both builds (partition_stats without times: "same", else "DIFFER").
# P defaults to 2 and 4; THREADS (default: the CPU's) is --threads.
set -u
O=$1 N=$2 G=$3
shift 3
PS=${*:-2 4}
RUNS=${RUNS:-3}
TH=${THREADS:+--threads $THREADS}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "graph $G, $(nproc) cores, ${THREADS:-all} threads, $RUNS rounds; old $O, new $N"
printf '%-4s %-22s %-22s %-22s %s\n' P "old plan+build (s)" "new plan+build (s)" "old/new whole (s)" parts
for p in $PS; do
	for i in $(seq "$RUNS"); do
		for b in old new; do
			B=$O
			[ $b = new ] && B=$N
			s=$(date +%s.%N)
			# shellcheck disable=SC2086
			"$B/tristream" count --quiet --device cpu $TH --k 4 --partitions "$p" --plan-only \
				--json "$G" >"$W/$b-$i.json" || { echo "P=$p $b: FAILED"; exit 1; }
			echo "$(date +%s.%N) - $s" | bc >"$W/$b-$i.wall"
		done
	done
	python3 - "$W" "$p" "$RUNS" <<'PY'
import json, statistics, sys
w, p, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
def load(b, i):
    d = json.load(open(f"{w}/{b}-{i}.json"))
    parts = [{k: v for k, v in s.items() if not k.endswith("_s")} for s in d["partition_stats"]]
    st = d["stages"]
    return st["plan"] + st["build"], float(open(f"{w}/{b}-{i}.wall").read()), parts
old = [load("old", i) for i in range(1, runs + 1)]
new = [load("new", i) for i in range(1, runs + 1)]
same = all(x[2] == old[0][2] for x in old + new) and len(old[0][2]) > 0
med = lambda xs: statistics.median(xs)
fmt = lambda xs: f"{med(xs):.2f} ({min(xs):.2f}-{max(xs):.2f})"
print(f"{p:<4} {fmt([x[0] for x in old]):<22} {fmt([x[0] for x in new]):<22} "
      f"{med([x[1] for x in old]):.2f} / {med([x[1] for x in new]):.2f}{'':<8} "
      f"{len(old[0][2])} {'same' if same else 'DIFFER'}")
PY
done
