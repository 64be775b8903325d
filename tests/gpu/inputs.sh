#!/usr/bin/env bash
# tests/gpu/inputs.sh [BUILD_DIR] [SHARED_GRAPHS_DIR] - inputs and --device
# auto on the GPU machine: text (built in memory), gzip through both
# decoders and the LAW crawl counted on the GPU against the CPU and the
# published count; --device auto taking the CPU for a small graph (and
# saying why, and with --checkpoint cutting the CPU's checkpoint units)
# and the GPU for R-MAT 20, each count equal to the other device's; the default budget read again where another process took
# memory first, and two counts at once on one GPU. Ends with "N passed,
# N failed" (", N skipped" where any was).
set -u
B=${1:-build}
SHARED=${2:-../shared/graphs}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# check, ok, bad, skip, finish_checks, num, same
. "$(dirname "$0")/../lib.sh"
field() { # key, json file -> value
	python3 -c 'import json,sys; d=json.load(open(sys.argv[2])); print(d.get(sys.argv[1], ""))' "$1" "$2" 2>/dev/null
}
count() { # out file, args... (the JSON of one count)
	local o=$1; shift
	"$B/tristream" count --quiet --json "$@" >"$o" 2>"$T/err" || { cat "$T/err"; : >"$o"; }
}
"$B/tristream-gen" --quiet rmat --scale 20 --seed 1 "$T/r20.tsg"
"$B/tristream-gen" --quiet web --vertices 65536 --seed 1 "$T/w16.tsg"
# text, in memory, on the GPU
"$B/tristream-convert" --quiet --to text "$T/r20.tsg" "$T/r20.el"
count "$T/cpu.json" --device cpu "$T/r20.tsg"
ref=$(field triangles "$T/cpu.json")
num "$ref" && ok || bad "CPU count of R-MAT 20: '$ref'"
count "$T/g.json" --device gpu "$T/r20.el"
same "$(field triangles "$T/g.json")" "$ref" && ok || bad "GPU count of the text: $(field triangles "$T/g.json") vs $ref"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not d["input"]["built_in_memory"])' "$T/g.json" && ok || bad "text not built in memory"
gzip -1 -c "$T/r20.el" >"$T/r20.el.gz"
for d in libdeflate zlib; do
	# (a conversion that fails leaves no JSON: the earlier one must not pass for it)
	: >"$T/g.json"
	"$B/tristream-convert" --quiet --gzip $d "$T/r20.el.gz" "$T/gz.tsg" &&
		count "$T/g.json" --device gpu "$T/gz.tsg"
	same "$(field triangles "$T/g.json")" "$ref" && ok || bad "gzip via $d: $(field triangles "$T/g.json")"
done
# the LAW crawl, merged with its transpose, on the GPU
C="$SHARED/cnr-2000/cnr-2000"
if [ -f "$C.properties" ]; then
	count "$T/g.json" --device gpu "$C"
	same "$(field triangles "$T/g.json")" 20977629 && ok || bad "cnr-2000 on the GPU: $(field triangles "$T/g.json")"
	[ "$(field device "$T/g.json")" = gpu ] && ok || bad "cnr-2000 with --device gpu ran on $(field device "$T/g.json")"
	# decoded on many threads (ranges parked), the context made meanwhile
	count "$T/g.json" --device gpu --threads 64 "$C"
	same "$(field triangles "$T/g.json")" 20977629 && ok || bad "cnr-2000 on the GPU, 64 threads: $(field triangles "$T/g.json")"
	count "$T/g.json" --device gpu --no-transpose "$C"
	same "$(field triangles "$T/g.json")" 20977629 && ok || bad "cnr-2000 on the GPU, sorted without its transpose: $(field triangles "$T/g.json")"
	# a crawl whose properties declare 400 M arcs: auto makes the context
	# while it is decoded (warm_early), then the decode fails: exit 3, no count
	mkdir -p "$T/big"; cp "$C".* "$C"-t.* "$T/big/"; chmod u+w "$T/big"/*
	sed -i 's/^arcs=.*/arcs=400000000/' "$T/big/cnr-2000.properties" "$T/big/cnr-2000-t.properties"
	"$B/tristream" count --quiet --json "$T/big/cnr-2000" >"$T/big.out" 2>"$T/err"; rc=$?
	[ $rc = 3 ] && ! grep -q triangles "$T/big.out" && ok || bad "a crawl declaring more arcs than it holds: exit $rc, output '$(cat "$T/big.out")'"
else
	skip "$C not found (not bundled); the crawl not counted on the GPU"
fi
# a web-like crawl written by the writer: auto (small: the CPU) and the GPU
"$B/tristream-convert" --quiet --to webgraph "$T/w16.tsg" "$T/w16crawl"
count "$T/c.json" --device cpu "$T/w16.tsg"
count "$T/a.json" "$T/w16crawl"
count "$T/g.json" --device gpu "$T/w16crawl"
[ "$(field device "$T/a.json")" = cpu ] && ok || bad "auto on the web 2^16 crawl chose $(field device "$T/a.json")"
same "$(field triangles "$T/a.json")" "$(field triangles "$T/c.json")" && ok || bad "auto on the crawl: $(field triangles "$T/a.json") vs $(field triangles "$T/c.json")"
same "$(field triangles "$T/g.json")" "$(field triangles "$T/c.json")" && ok || bad "GPU on the crawl: $(field triangles "$T/g.json") vs $(field triangles "$T/c.json")"
# a directed crawl with its real transpose (tristream-gen --webgraph) on the
# GPU, against the brute-force counter on the .tsg of the same seed
"$B/tristream-gen" --quiet --webgraph crawl --vertices 200000 --seed 3 "$T/dcrawl"
"$B/tristream-gen" --quiet crawl --vertices 200000 --seed 3 "$T/dcrawl.tsg"
cref=$("$B/tests/brute" "$T/dcrawl.tsg")
count "$T/g.json" --device gpu "$T/dcrawl"
same "$(field triangles "$T/g.json")" "$cref" && ok || bad "GPU on the directed crawl: $(field triangles "$T/g.json") vs $cref (brute force)"
count "$T/g.json" --device gpu --no-transpose "$T/dcrawl"
same "$(field triangles "$T/g.json")" "$cref" && ok || bad "GPU on the directed crawl, sorted: $(field triangles "$T/g.json") vs $cref"
# counted as decoded: the device takes each batch's lists as they are
# placed (pinned batch by batch), for any batch count; and decoded whole
streamed() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["layout"], d["input"]["decoded_while_counting"])' "$1" 2>/dev/null; }
count "$T/g.json" --device gpu "$T/dcrawl"
[ "$(streamed "$T/g.json")" = "arrival True" ] && ok || bad "GPU on the directed crawl: not decoded while counted ($(streamed "$T/g.json"))"
for nb in 1 5 300; do
	count "$T/g.json" --device gpu --layout arrival --batches $nb "$T/dcrawl"
	same "$(field triangles "$T/g.json")" "$cref" && [ "$(streamed "$T/g.json")" = "arrival True" ] && ok ||
		bad "GPU, crawl decoded while counted, $nb batches: $(field triangles "$T/g.json") ($(streamed "$T/g.json")) vs $cref"
done
for a in --decode-first "--layout block"; do
	count "$T/g.json" --device gpu $a "$T/dcrawl"
	same "$(field triangles "$T/g.json")" "$cref" && python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["input"]["decoded_while_counting"])' "$T/g.json" && ok ||
		bad "GPU, crawl $a: $(field triangles "$T/g.json") ($(streamed "$T/g.json")) vs $cref"
done
if command -v compute-sanitizer >/dev/null; then
	compute-sanitizer --tool memcheck --error-exitcode 99 --log-file "$T/san" "$B/tristream" count --quiet --json --device gpu --layout arrival --batches 5 "$T/dcrawl" >"$T/s.json" 2>/dev/null
	rc=$?
	[ $rc = 0 ] && same "$(field triangles "$T/s.json")" "$cref" && ok || bad "memcheck, crawl decoded while counted: exit $rc, $(field triangles "$T/s.json"): $(grep -m3 -E 'ERROR|Invalid' "$T/san")"
else
	skip "compute-sanitizer not found; the crawl decoded while counted not checked under it"
fi
"$B/tests/brute" --per-vertex "$T/dcrawl.tsg" >"$T/dcrawl.pvref"
"$B/tristream" count --quiet --device gpu --per-vertex "$T/dcrawl.pv" "$T/dcrawl" >/dev/null 2>"$T/err"
[ -s "$T/dcrawl.pvref" ] && cmp -s "$T/dcrawl.pv" "$T/dcrawl.pvref" && ok || bad "GPU, crawl decoded while counted: per-vertex counts differ from the reference"
# --device auto: the CPU for a small web-like graph, the GPU for R-MAT 20
count "$T/a.json" "$T/w16.tsg"
count "$T/c.json" --device gpu "$T/w16.tsg"
[ "$(field device "$T/a.json")" = cpu ] && ok || bad "auto on web 2^16 chose $(field device "$T/a.json")"
field note "$T/a.json" | grep -q -- "--device auto" && ok || bad "auto's CPU choice not explained: $(field note "$T/a.json")"
same "$(field triangles "$T/a.json")" "$(field triangles "$T/c.json")" && ok || bad "auto (cpu) and gpu counts differ on web 2^16"
# a checkpoint where auto settles on the CPU: the CPU's checkpoint units
# (6 blocks, 21), as with --device cpu, not its default one unit (before:
# one, recorded only when done); a rerun replays them
rm -f "$T/ack"
count "$T/k.json" --checkpoint "$T/ack" "$T/w16.tsg"
python3 -c '
import json, sys; d = json.load(open(sys.argv[1])); p = d["plan"]["partitions"]
assert d["device"] == "cpu" and d["partitions"] == 21 and d["checkpoint"]["units_recorded"] == 21, d
assert p["chosen"] == "6 blocks, 21 units" and "--checkpoint on the CPU" in p["reason"], p
assert d["triangles"] == int(sys.argv[2]), d' "$T/k.json" "$(field triangles "$T/c.json")" && ok ||
	bad "auto (cpu) with --checkpoint: not 21 units recorded: $(head -c 600 "$T/k.json")"
count "$T/k.json" --checkpoint "$T/ack" "$T/w16.tsg"
same "$(field triangles "$T/k.json")" "$(field triangles "$T/c.json")" &&
	python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["checkpoint"].get("finished_earlier") is not True)' "$T/k.json" &&
	ok || bad "auto (cpu) checkpoint rerun, not replayed: $(head -c 400 "$T/k.json")"
count "$T/a.json" "$T/r20.tsg"
[ "$(field device "$T/a.json")" = gpu ] && ok || bad "auto on R-MAT 20 chose $(field device "$T/a.json")"
same "$(field triangles "$T/a.json")" "$ref" && ok || bad "auto (gpu) count on R-MAT 20 differs"
# The default budget is the memory free when the GPU opens: where another
# process takes memory between that read and the allocation (two jobs
# started together on one card), it is read again and the note says so.
# TSG_TEST_BUDGET_RACE=1 takes half the free memory at that moment; a
# --gpu-mem budget (1G here, below the half left) is never read again.
TSG_TEST_BUDGET_RACE=1 count "$T/b.json" --device gpu "$T/r20.tsg"
same "$(field triangles "$T/b.json")" "$ref" && field note "$T/b.json" | grep -q "read again 1 time," && ok ||
	bad "default budget taken away once: $(field triangles "$T/b.json") vs $ref, note '$(field note "$T/b.json")'"
TSG_TEST_BUDGET_RACE=1 count "$T/b.json" --device gpu --gpu-mem 1G "$T/r20.tsg"
same "$(field triangles "$T/b.json")" "$ref" && ! field note "$T/b.json" | grep -q "read again" && ok ||
	bad "--gpu-mem 1G beside a process taking half: $(field triangles "$T/b.json") vs $ref, note '$(field note "$T/b.json")'"
# two counts started together on this GPU, each with the default budget:
# both count (before, the second could fail with exit 4 at its allocation)
for i in 1 2 3; do
	"$B/tristream" count --quiet --json --device gpu "$T/r20.tsg" >"$T/p1.json" 2>"$T/p1.err" &
	p1=$!
	"$B/tristream" count --quiet --json --device gpu "$T/r20.tsg" >"$T/p2.json" 2>"$T/p2.err"
	rc2=$?
	wait $p1
	rc1=$?
	[ $rc1 = 0 ] && [ $rc2 = 0 ] && same "$(field triangles "$T/p1.json")" "$ref" &&
		same "$(field triangles "$T/p2.json")" "$ref" && ok ||
		bad "two counts at once on one GPU, round $i: exit $rc1 / $rc2, $(field triangles "$T/p1.json") / $(field triangles "$T/p2.json") vs $ref: $(cat "$T/p1.err" "$T/p2.err" | head -c 300)"
done
finish_checks
