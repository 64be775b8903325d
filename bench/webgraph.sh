#!/usr/bin/env bash
# bench/webgraph.sh BUILD_DIR WORK_DIR [LOG2_VERTICES] [RUNS] - BVGraph input
# against the same graph as a .tsg, side by side in one run, warm page cache:
#   writer:  tristream-convert --to webgraph (one run)
#   decode:  tristream-convert CRAWL OUT.tsg (merged with the transpose), its
#            decode rate (arcs of both graphs per second, from --json)
#   count:   tristream count on the crawl (merged in memory) vs on the .tsg,
#            GPU and CPU; the crawl sorted without its transpose (GPU)
# Medians of RUNS (default 3), variants alternating. Counts must agree.
# KIND=crawl takes tristream-gen crawl (a crawl's redundancy) for web.
set -eu
B=$1 W=$2 L=${3:-22} RUNS=${4:-3} K=${KIND:-web}
mkdir -p "$W"
g="$W/$K$L.tsg" c="$W/$K$L"
"$B/tristream-gen" --quiet "$K" --vertices $((1 << L)) --seed 1 "$g"
t0=$(date +%s.%N)
"$B/tristream-convert" --quiet --to webgraph "$g" "$c"
t1=$(date +%s.%N)
echo "graph: $K 2^$L: $("$B/tristream" info --json "$g" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["vertices"], "vertices,", d["edges"], "edges")')"
echo "sizes: .tsg $(stat -c %s "$g") bytes, .graph $(stat -c %s "$c.graph") bytes ($(grep bitsperlink "$c.properties"))"
echo "writer: $(python3 -c "print(round($t1 - $t0, 3))") s (one run)"
run() { # label, command... -> "label seconds triangles extra"
	local s e out label=$1
	shift
	s=$(date +%s.%N)
	out=$("$@")
	e=$(date +%s.%N)
	echo "$out" | python3 -c "
import json, sys
d = json.load(sys.stdin)
t = d.get('triangles', '-')
x = d.get('arcs_per_second') or (d.get('input') or {}).get('seconds', '')
print('$label', round($e - $s, 4), t, x)"
}
for i in $(seq "$RUNS"); do
	run decode "$B/tristream-convert" --quiet --json "$c" "$W/back.tsg"
	run crawl-gpu "$B/tristream" count --quiet --json --device gpu "$c"
	run tsg-gpu "$B/tristream" count --quiet --json --device gpu "$g"
	run crawl-cpu "$B/tristream" count --quiet --json --device cpu "$c"
	run tsg-cpu "$B/tristream" count --quiet --json --device cpu "$g"
	run crawl-sorted-gpu "$B/tristream" count --quiet --json --device gpu --no-transpose --scratch-dir "$W" "$c"
done | tee "$W/runs.txt"
cmp -s "$g" "$W/back.tsg" && echo "round trip: byte-identical" || { echo "round trip: DIFFERENT"; exit 1; }
python3 - "$W/runs.txt" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    rows.setdefault(f[0], []).append(f[1:])
counts = {r[1] for v in rows.values() for r in v if r[1] != "-"}
print("counts agree:", counts if len(counts) == 1 else "NO: %s" % counts)
print("%-18s %10s %s" % ("variant", "median s", "extra (decode: arcs/s; count: input seconds)"))
for k, v in rows.items():
    med = statistics.median(float(r[0]) for r in v)
    extra = [r[2] for r in v if len(r) > 2]
    print("%-18s %10.3f %s" % (k, med, " ".join(extra)))
if len(counts) != 1:
    sys.exit(1)
PY
