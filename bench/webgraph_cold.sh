#!/usr/bin/env bash
# bench/webgraph_cold.sh BUILD_A BUILD_B WORK_DIR [LOG2_VERTICES=26] [RUNS=2] -
# two builds side by side on a cold BVGraph crawl with its transpose (a
# copy, read apart, as LAW ships it): `tristream count --device gpu` end to
# end, the page cache dropped before each run (root), builds alternating;
# beside them dd's cold read of the two .graph files. Counts must agree.
set -eu
A=$1 Bb=$2 W=$3 L=${4:-26} RUNS=${5:-2}
mkdir -p "$W"
g="$W/web$L.tsg" c="$W/web$L"
now() { date +%s.%N; }
since() { python3 -c "print(round($(now) - $1, 3))"; }
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }
"$A/tristream-gen" --quiet web --vertices $((1 << L)) --seed 1 "$g"
"$A/tristream-convert" --quiet --to webgraph "$g" "$c"
for e in graph offsets properties; do rm -f "$c-t.$e"; cp "$c.$e" "$c-t.$e"; done
rm -f "$g"
drop
t=$(now); cat "$c.graph" "$c-t.graph" >/dev/null; echo "cold read of both .graph files (cat): $(since "$t") s, $(($(stat -c %s "$c.graph") * 2)) bytes"
for i in $(seq "$RUNS"); do
	for b in A B; do
		[ $b = A ] && d=$A || d=$Bb
		drop
		t=$(now)
		"$d/tristream" count --quiet --json --device gpu "$c" >"$W/$b.json"
		echo "$b $(since "$t") $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["triangles"], d["input"]["seconds"])' "$W/$b.json")"
	done
done | tee "$W/runs.txt"
python3 - "$W/runs.txt" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    b, t, tri, inp = line.split()
    rows.setdefault(b, []).append((float(t), tri, float(inp)))
counts = {r[1] for v in rows.values() for r in v}
print("counts agree:", counts if len(counts) == 1 else "NO %s" % counts)
for b, v in sorted(rows.items()):
    print("build %s: cold count median %.3f s, decode stage median %.3f s" % (b, statistics.median(r[0] for r in v), statistics.median(r[2] for r in v)))
sys.exit(len(counts) != 1)
PY
