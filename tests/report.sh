#!/usr/bin/env bash
# tests/report.sh BUILD_DIR SRC_DIR - the human-readable output of tristream
# count (src/report.c), line by line, against independent values: the
# count lines ("triangles: N", "K-cliques: N", every size of --k-all), the
# clustering lines and the per-vertex file against tests/brute.c (no code
# shared with the engine) and the published counts of the bundled graphs
# (tests/data/README.md); "graph: V vertices, E edges" against a count of
# the edge list made here in Python; the device, time, checkpoint and
# per-vertex lines and the several-graphs table in their exact form (the
# times as numbers). A count printed one off, a line missing or an extra
# one fails. Ends with "N passed, N failed".
set -u
B=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$SRC/tests/lib.sh"
brute() { "$B/tests/brute" "$@"; }
ts() { "$B/tristream" count --quiet --device cpu --threads 2 "$@"; }
# lines_are FILE LINE...: FILE holds exactly these lines; a LINE starting
# with ~ is a regular expression the whole line must match
lines_are() {
	python3 - "$@" <<'PY'
import re, sys
got = open(sys.argv[1]).read().split("\n")
if got and got[-1] == "":
    got.pop()
want = sys.argv[2:]
ok = len(got) == len(want) and all(
    re.fullmatch(w[1:], g) if w.startswith("~") else g == w for g, w in zip(got, want))
if not ok:
    print("  got:  %r\n  want: %r" % (got, want))
sys.exit(0 if ok else 1)
PY
}
# the "graph:" line of a text edge list, counted here: the vertices with an
# edge and the undirected edges (loops and duplicates dropped), and where
# some ids below the largest have no edge, the ids' range
graph_line() {
	python3 - "$1" <<'PY'
import gzip, re, sys
op = gzip.open if sys.argv[1].endswith(".gz") else open
top, edges = -1, set()
with op(sys.argv[1], "rt") as f:
    for line in f:
        m = re.match(r"\s*(\d+)[\s,]+(\d+)", line)
        if m:
            u, v = int(m.group(1)), int(m.group(2))
            top = max(top, u, v)
            if u != v:
                edges.add((min(u, v), max(u, v)))
nv = len({x for e in edges for x in e})
print("graph: %d vertices, %d edges%s" % (nv, len(edges), "" if nv == top + 1 else " (ids 0 .. %d)" % top))
PY
}
s3='[0-9]+\.[0-9]{3}s'
TIME="~time: read $s3, validate $s3, plan $s3, build $s3, count $s3, total $s3( \(build ran under the read\))?"

gzip -dc "$SRC/tests/data/karate.txt.gz" >"$T/karate.txt"
# the graphs: the karate club as text, the bundled SNAP graphs converted
declare -A ve pub=([karate]=45 [grqc]=48260 [email]=105461 [fb]=1612010)
declare -A file=([karate]=$T/karate.txt [grqc]=$SRC/tests/data/ca-GrQc.txt.gz
	[email]=$SRC/tests/data/email-Eu-core.txt.gz [fb]=$SRC/tests/data/facebook_combined.txt.gz)
for g in karate grqc email fb; do
	[ $g = karate ] || check "convert the bundled $g" "$B/tristream-convert" --quiet "${file[$g]}" "$T/$g.tsg"
	[ $g = karate ] && in=$T/karate.txt || in=$T/$g.tsg
	ref=$(brute "$in")
	check "reference counter on $g: $ref, published ${pub[$g]}" same "$ref" "${pub[$g]}"
	ve[$g]=$(graph_line "${file[$g]}")
	check "$g: ${ve[$g]}, counted here" eval '[[ "${ve[$g]}" =~ ^graph:\ [0-9]+\ vertices ]]'
	ts "$in" >"$T/out"
	check "$g, default output: triangles, graph, device, time" lines_are "$T/out" \
		"triangles: ${pub[$g]}" "${ve[$g]}" \
		"device: cpu (2 threads), kernel cpu-hash, 1 unit (block layout, 1 source block)" "$TIME"
done
# other layouts: the same count line, their own device line
in=$T/email.tsg
ts --partitions 4 "$in" >"$T/out"
check "block layout, 4 blocks" lines_are "$T/out" "triangles: 105461" "${ve[email]}" \
	"device: cpu (2 threads), kernel cpu-hash, 10 units (block layout, 4 source blocks)" "$TIME"
ts --layout lstc --partitions 3 --scheme hash --cpu-kernel merge "$in" >"$T/out"
check "lstc layout, 3 parts" lines_are "$T/out" "triangles: 105461" "${ve[email]}" \
	"device: cpu (2 threads), kernel cpu-merge, 3 partitions (lstc layout, hash, prune local)" "$TIME"
ts --layout arrival --batches 5 "$in" >"$T/out"
check "arrival layout, 5 batches" lines_are "$T/out" "triangles: 105461" "${ve[email]}" \
	"~device: cpu \(2 threads\), kernel cpu-merge, 5 batches \(arrival layout: counted as read\)" "$TIME"
ts --plan-only "$in" >"$T/out"
check "--plan-only: not counted, said" lines_are "$T/out" "triangles: not counted (--plan-only)" \
	"${ve[email]}" "device: cpu (2 threads), kernel cpu-hash, 1 unit (block layout, 1 source block)" "$TIME"
# k-cliques: the count line and the method line
for g in karate email; do
	[ $g = karate ] && in=$T/karate.txt || in=$T/$g.tsg
	for k in 4 5; do
		ref=$(brute --k $k "$in")
		check "reference counter: $g has $ref $k-cliques" num "$ref"
		for m in orient pivot; do
			ts --k $k --kclique-method $m "$in" >"$T/out"
			check "$g --k $k $m" lines_are "$T/out" "$k-cliques: $ref" \
				"~clique method: $m \(largest out-list [0-9]+\)" "${ve[$g]}" \
				"device: cpu (2 threads), kernel cpu-clique-$m, 1 partition (lstc layout, edge, prune local)" "$TIME"
		done
	done
	# --k-all (karate: brute's counts of every size take a second, email's
	# twenty): a line for every size up to the largest clique, each brute's
	[ $g = karate ] || continue
	[[ ${ve[$g]} =~ ^graph:\ ([0-9]+)\ vertices,\ ([0-9]+)\ edges$ ]] # every id has an edge
	want=("1-cliques: ${BASH_REMATCH[1]:-}" "2-cliques: ${BASH_REMATCH[2]:-}")
	for ((k = 3; k <= 32; k++)); do
		ref=$(brute --k $k "$in")
		num "$ref" || { check "reference counter on $g, K=$k" false; break; }
		[ "$ref" = 0 ] && break
		want+=("$k-cliques: $ref")
	done
	ts --k-all "$in" >"$T/out"
	check "$g --k-all: ${#want[@]} sizes" lines_are "$T/out" "${want[@]}" \
		"~clique method: pivot \(largest out-list [0-9]+\)" "${ve[$g]}" \
		"device: cpu (2 threads), kernel cpu-clique-pivot, 1 partition (lstc layout, edge, prune local)" "$TIME"
done
# (1-cliques are the graph's vertices, the ids up to the largest: karate's
# 34 members, each with an edge)
check "karate: 34 vertices, 78 edges counted here (published)" [ "${ve[karate]}" = "graph: 34 vertices, 78 edges" ]
# clustering and per-vertex counts
for g in karate grqc; do
	[ $g = karate ] && in=$T/karate.txt || in=$T/$g.tsg
	read -r tr av < <(brute --clustering "$in")
	check "reference counter: $g's clustering '$tr' '$av'" eval '[ -n "$tr" ] && [ -n "$av" ]'
	brute --per-vertex "$in" >"$T/pv.ref"
	ts --clustering --per-vertex "$T/pv.txt" --layout lstc --partitions 3 "$in" >"$T/out"
	check "$g --clustering --per-vertex" lines_are "$T/out" "triangles: ${pub[$g]}" \
		"transitivity: $tr" "average clustering: $av" "per-vertex counts: $T/pv.txt" \
		"${ve[$g]}" \
		"device: cpu (2 threads), kernel cpu-hash, 3 partitions (lstc layout, edge, prune local)" "$TIME"
	check "$g: the per-vertex file is brute's" eval '[ -s "$T/pv.ref" ] && cmp -s "$T/pv.txt" "$T/pv.ref"'
done
check "karate: NetworkX's transitivity and average clustering" eval '[ "$(brute --clustering "$T/karate.txt")" = "0.255682 0.570638" ]'
# a checkpoint: recorded, then finished earlier
ts --partitions 4 --checkpoint "$T/ck" "$T/email.tsg" >"$T/out"
check "checkpoint recorded" lines_are "$T/out" "triangles: 105461" "checkpoint: $T/ck (0 units resumed, 10 recorded)" \
	"${ve[email]}" "device: cpu (2 threads), kernel cpu-hash, 10 units (block layout, 4 source blocks)" "$TIME"
ts --partitions 4 --checkpoint "$T/ck" "$T/email.tsg" >"$T/out"
check "checkpoint finished earlier" lines_are "$T/out" "triangles: 105461" \
	"checkpoint: $T/ck (counted by an earlier run; nothing counted now)"
# several graphs: each one's lines after "== PATH", a blank line, the
# table (counts right-aligned, seconds as numbers), "N of M graphs counted"
ts "$T/karate.txt" "$T/grqc.tsg" "$T/none.tsg" >"$T/out" 2>"$T/err"
rc=$?
dev="device: cpu (2 threads), kernel cpu-hash, 1 unit (block layout, 1 source block)"
row() { printf '~%s\n' "$(printf '%-40s %20s' "$1" "$2" | sed 's/[][\.*^$()+?{}|]/\\&/g') +[0-9]+\.[0-9]{3}  ok"; }
check "several graphs: exit $rc (3: the missing one), each graph's lines, the table" eval '[ $rc = 3 ] &&
	lines_are "$T/out" "== $T/karate.txt" "triangles: 45" "${ve[karate]}" "$dev" "$TIME" "" \
	"== $T/grqc.tsg" "triangles: 48260" "${ve[grqc]}" "$dev" "$TIME" "" "== $T/none.tsg" "" \
	"$(printf "%-40s %20s %10s  %s" graph triangles seconds status)" \
	"$(row "$T/karate.txt" "$(brute "$T/karate.txt")")" "$(row "$T/grqc.tsg" "$(brute "$T/grqc.tsg")")" \
	"$(printf "%-40s %20s %10s  %s" "$T/none.tsg" - - "bad input (exit 3)")" "2 of 3 graphs counted"'
finish_checks
