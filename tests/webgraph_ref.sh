#!/usr/bin/env bash
# tests/webgraph_ref.sh BUILD_DIR SRC_DIR [SHARED_GRAPHS_DIR] - tristream's
# BVGraph files checked by a second decoder, tests/bvgraph_ref.py, written
# from LAW's description of the format and not from io/webgraph.c: crawls
# from tristream-gen --webgraph (a graph and its transpose) and graphs
# written by tristream-convert --to webgraph (generated, bundled real
# graphs, text), decoded there and compared arc for arc with tristream's
# own export of the same graph (tristream-convert --to text); the
# reference decoder itself refuses damaged files; and LAW's cnr-2000 from
# ../shared/graphs where present (325,557 nodes, 3,216,152 arcs, 2,738,969
# edges once symmetrized), itself and written again by tristream.
# Ends with "N passed, N failed" (", N skipped" where any was).
set -u
B=$1
SRC=$2
SHARED=${3:-$SRC/../shared/graphs}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$SRC/tests/lib.sh"
ref() { python3 "$SRC/tests/bvgraph_ref.py" "$@"; }
conv() { "$B/tristream-convert" --quiet "$@"; }
# tristream's edges of a graph (any input), each once as "u v", u < v, sorted
text_of() { conv --to text "$1" "$T/text.tmp" && sort -k1,1n -k2,2n "$T/text.tmp" && rm -f "$T/text.tmp"; }
# both directions of each edge of an edge file, sorted as decoded
both_ways() { awk '{ print $1, $2; print $2, $1 }' "$1" | sort -k1,1n -k2,2n; }
info() { "$B/tristream" info --json "$1" | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['vertices'], d['edges'])"; }
# same_file A B: both non-empty, equal
same_file() { [ -s "$1" ] && [ -s "$2" ] && cmp -s "$1" "$2"; }

# --- crawls from the generator: directed, with their transpose
for spec in "4 20000" "9 3000"; do
	read -r seed nv <<<"$spec"
	c=$T/crawl$seed
	"$B/tristream-gen" --quiet --seed $seed --webgraph crawl --vertices $nv "$c"
	"$B/tristream-gen" --quiet --seed $seed crawl --vertices $nv "$c.tsg"
	out=$(ref --transpose --edges "$c.ref" "$c")
	check "crawl $spec decoded by the reference, its transpose the transpose: '$out'" eval '[ -n "$out" ]'
	read -r _ n _ arcs _ <<<"$out"
	check "crawl $spec: $n nodes, as the generator's .tsg" same "$n" "$(info "$c.tsg" | cut -d' ' -f1)"
	check "crawl $spec: $arcs arcs, as .properties says" same "$arcs" "$(sed -n 's/^arcs=//p' "$c.properties")"
	text_of "$c.tsg" >"$c.txt"
	check "crawl $spec: the reference's undirected edges are the generator's .tsg's" same_file "$c.ref" "$c.txt"
	text_of "$c" >"$c.txt2"
	check "crawl $spec: and tristream's reading of the crawl's files" same_file "$c.ref" "$c.txt2"
done

# --- the writer: graphs written by tristream-convert --to webgraph
gzip -dc "$SRC/tests/data/karate.txt.gz" >"$T/karate.txt"
"$B/tristream-gen" --quiet --seed 3 web --vertices 30000 "$T/web.tsg"
"$B/tristream-gen" --quiet --seed 5 rmat --scale 14 "$T/rmat.tsg"
"$B/tristream-gen" --quiet clique --vertices 300 "$T/clique.tsg"
"$B/tristream-gen" --quiet --seed 4 crawl --vertices 20000 "$T/crawl.tsg"
for g in "$T/karate.txt" "$T/web.tsg" "$T/rmat.tsg" "$T/clique.tsg" "$T/crawl.tsg" \
	"$SRC/tests/data/facebook_combined.txt.gz" "$SRC/tests/data/email-Eu-core.txt.gz"; do
	n=$(basename "$g")
	w=$T/w-$n
	check "$n: convert --to webgraph" conv --to webgraph "$g" "$w"
	out=$(ref --transpose --arcs "$w.arcs" --edges "$w.edges" "$w")
	check "$n: written files decoded by the reference: '$out'" eval '[ -n "$out" ]'
	text_of "$g" >"$w.txt"
	check "$n: the reference's edges are tristream's (--to text)" same_file "$w.edges" "$w.txt"
	both_ways "$w.txt" >"$w.both"
	check "$n: every edge written both ways, nothing else" same_file "$w.arcs" "$w.both"
done
check "ego-Facebook written and decoded: 88,234 edges" same "$(wc -l <"$T/w-facebook_combined.txt.gz.edges")" 88234
check "email-Eu-core written and decoded: 16,064 edges" same "$(wc -l <"$T/w-email-Eu-core.txt.gz.edges")" 16064

# --- the reference refuses damage (a decoder that accepted anything would
# check nothing): a flipped bit, a cut file, an arc count one off
w=$T/w-web.tsg
mkdir -p "$T/dmg"
damage() { rm -f "$T/dmg/"*; for e in graph offsets properties; do cp "$w.$e" "$T/dmg/d.$e"; done; }
damage; python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[len(b)//3]^=0x10; open(sys.argv[1],'wb').write(b)" "$T/dmg/d.graph"
check "the reference refuses a flipped bit" eval '! ref "$T/dmg/d" >/dev/null 2>"$T/err" && grep -q "bvgraph_ref:" "$T/err"'
damage; head -c 5000 "$w.graph" >"$T/dmg/d.graph"
check "the reference refuses a cut .graph" eval '! ref "$T/dmg/d" >/dev/null 2>&1'
damage; sed -i 's/^arcs=\([0-9]*\)/echo arcs=$((\1 + 1))/e' "$T/dmg/d.properties"
check "the reference refuses an arc count one off" eval '! ref "$T/dmg/d" >/dev/null 2>"$T/err" && grep -q "arcs decoded" "$T/err"'
damage; rm "$T/dmg/d.offsets"
check "the reference decodes without .offsets" eval '[ "$(ref "$T/dmg/d")" = "$(ref "$w")" ]'

# --- LAW's cnr-2000 (../shared/graphs/README.md), where present: LAW's own
# files, then written again by tristream
C=$SHARED/cnr-2000/cnr-2000
if [ -f "$C.graph" ] && [ -f "$C-t.graph" ]; then
	out=$(ref --transpose --edges "$T/cnr.ref" "$C")
	check "cnr-2000 by the reference: '$out' (published: 325557 nodes, 3216152 arcs, 9318741 bits)" \
		[ "$out" = "nodes 325557 arcs 3216152 bits 9318741" ]
	check "cnr-2000 symmetrized: 2,738,969 edges" same "$(wc -l <"$T/cnr.ref")" 2738969
	conv "$C" "$T/cnr.tsg"
	text_of "$T/cnr.tsg" >"$T/cnr.txt"
	check "cnr-2000: the reference's edges are tristream's" same_file "$T/cnr.ref" "$T/cnr.txt"
	conv --to webgraph "$T/cnr.tsg" "$T/cnrw"
	out=$(ref --edges "$T/cnrw.ref" "$T/cnrw")
	check "cnr-2000 written by tristream, decoded by the reference: '$out'" [ "$out" != "" ]
	check "cnr-2000 written by tristream: the same edges" same_file "$T/cnrw.ref" "$T/cnr.txt"
else
	skip "$SHARED/cnr-2000 not found (not bundled); LAW's crawl not decoded by the reference"
fi
finish_checks
