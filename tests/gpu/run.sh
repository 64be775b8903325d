#!/usr/bin/env bash
# tests/gpu/run.sh - GPU correctness, run by a developer on the GPU machine.
#
#   tests/gpu/run.sh [BUILD_DIR] [SHARED_GRAPHS_DIR] [all|counts|kernels|sanitizer|batch] [I/N]
#
# The third argument runs a part only, default all (batch: the per-vertex,
# clustering and checkpoint checks, and their sanitizer runs; kernels:
# each graph's checks of the kernels in $KERNELS by name, their test hooks
# and policies, nothing else, so that a graph's kernels can be checked in
# a job of their own); I/N checks only the graphs whose index is I modulo
# N. (The whole takes over ten minutes, the device tool's limit for one
# command; R-MAT 19's counts alone took more on an H200, 2026-11-27, which
# is why tests/gpu/all.sh checks half the kernels in a kernels job.)
# Checks every GPU kernel (lstc, lstc-paper, lstc-hash, mid-hash, trust, fasttc, edge-merge, skiff
# under each CTA policy, auto) against the CPU count (itself checked
# against tests/brute) on real graphs (and cnr-2000, a LAW crawl, from its BVGraph files),
# R-MAT, Erdős–Rényi and exact-family graphs: the block layout with Q = 1,
# 2, 4, 8 blocks; the LSTC layout with P = 1, 4, two partitioning schemes
# and both pruning rules; forced small --gpu-mem (automatic out-of-core
# planning) for both layouts; the arrival layout with 1, 2, 7, 3000 and
# auto batches on every reader and the LZ4 file, its lists copied from
# pinned pages only, and an asymmetric file that overflows its rows (exit 3);
# every reader; --host-mem spilling, plain and
# compressed; per-vertex counts and clustering in every layout against the
# CPU's (itself checked against tests/brute); checkpoints killed and
# resumed, stopped by SIGTERM; then compute-sanitizer memcheck and racecheck
# on a small graph, every layout, per-vertex counting too. The real
# graphs: ego-Facebook and ca-GrQc bundled in tests/data, always; cnr-2000
# from SHARED_GRAPHS_DIR where present, else SKIPPED. A graph that cannot
# be made is a failure. Ends with "N passed, N failed" (", N skipped" where any was).
set -u
B=${1:-build}
SHARED=${2:-../shared/graphs}
PART=${3:-all}
SLICE=${4:-0/1}
# a part or slice of no meaning would check some other set, or none, and
# pass: refused before anything runs
case $PART in all | counts | kernels | sanitizer | batch) ;; *)
	echo "FAIL: part '$PART' is none of all, counts, kernels, sanitizer, batch"
	echo "0 passed, 1 failed"
	exit 1 ;;
esac
if ! [[ $SLICE =~ ^(0|[1-9][0-9]*)/[1-9][0-9]*$ ]] || [ "${SLICE%/*}" -ge "${SLICE#*/}" ]; then
	echo "FAIL: slice '$SLICE' is not I/N with 0 <= I < N"
	echo "0 passed, 1 failed"
	exit 1
fi
# KERNELS="mid-hash" (environment): check only these GPU kernels where
# every kernel is tried (after a change to one kernel)
KERNELS=${KERNELS:-lstc lstc-paper lstc-hash mid-hash trust fasttc skiff edge-merge auto}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
# check, ok, bad, skip, finish_checks, num, same, add_graph
. "$(dirname "$0")/../lib.sh"

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
if ! "$B/tristream" --version; then
	echo "FAIL: $B/tristream does not run here (missing shared libraries?)"
	echo "0 passed, 1 failed"
	exit 1
fi

count() { # graph, args... -> triangles (or ERR)
	local g=$1; shift
	"$B/tristream" count --quiet --json "$g" "$@" 2>"$T/err" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["triangles"])' 2>/dev/null || echo "ERR $(cat "$T/err")"
}

# --host-mem on auto (src/hostmem.h): a budget of the arrival layout's
# need where that is below the in-memory count's, else of the spill's:
# the count, the mode the JSON reports (arrival / spill) and the layout
# that ran must agree with the budget; hm_arrivals counts R-MAT 19's
hm_arrivals=0
hm_arrival() { # file, expected count
	local f=$1 ref=$2 want budget got
	budget=$("$B/tristream" count --quiet --json --device gpu --threads 4 --host-mem 1T "$f" 2>/dev/null |
		python3 -c 'import json,sys; h=json.load(sys.stdin)["host_mem"]; a=h.get("need_arrival", 0)
print(("arrival %d" % a) if 0 < a < h["need_memory"] else ("spill %d" % ((h["need_spill"] + h["need_memory"]) // 2)), "only" if 0 < a < h["need_spill"] else "")' 2>/dev/null)
	local only=${budget##* }
	budget=${budget% *}
	want=${budget% *}
	"$B/tristream" count --quiet --json --device gpu --threads 4 --host-mem "${budget#* }" \
		--scratch-dir "$T" "$f" >"$T/hm.json" 2>"$T/err"
	got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["triangles"], d["host_mem"]["mode"], d["layout"])' "$T/hm.json" 2>/dev/null)
	case $f in *z.tsg) [ "$want" = spill ] || bad "$(basename "$f"): an LZ4 file offered the arrival layout under --host-mem" ;; esac
	case $f in */rmat19.tsg) [ "$want" = arrival ] && [ "$got" = "$ref arrival arrival" ] && hm_arrivals=$((hm_arrivals + 1)) ;; esac
	[ -n "$want" ] && [ "$got" = "$ref $want ${want/spill/block}" ] && ok ||
		bad "$(basename "$f") --host-mem ${budget:-?} on auto: '$got', want '$ref $want' ($(head -c 200 "$T/err"))"
	# below the spill's need too: a GPU that cannot hold the rows is exit 4,
	# never a spill past the budget; one that can (a graph of a few
	# thousand edges fits --gpu-mem 1M; R-MAT 19 never does) counts it
	# exactly, by the arrival layout
	if [ "$want" = arrival ] && [ "$only" = only ]; then
		"$B/tristream" count --quiet --json --device gpu --threads 4 --gpu-mem 1M --host-mem "${budget#* }" \
			--scratch-dir "$T" "$f" >"$T/hm1.json" 2>"$T/err"
		local rc=$?
		got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["triangles"], d["host_mem"]["mode"], d["layout"])' "$T/hm1.json" 2>/dev/null)
		case "$rc $f" in
		"0 "*/rmat19.tsg) bad "rmat19.tsg --host-mem ${budget#* } below the spill's need, --gpu-mem 1M: counted ('$got'), the rows cannot fit" ;;
		"0 "*) [ "$got" = "$ref arrival arrival" ] && ok ||
			bad "$(basename "$f") --host-mem ${budget#* } below the spill's need, --gpu-mem 1M: exit 0, '$got', want '$ref arrival arrival'" ;;
		*) [ "$rc" = 4 ] && grep -q "spilling needs more than that budget" "$T/err" && ok ||
			bad "$(basename "$f") --host-mem ${budget#* } below the spill's need, --gpu-mem 1M: exit $rc ($(head -c 200 "$T/err"))" ;;
		esac
	fi
}

graphs=()
gen() { "$B/tristream-gen" --quiet "$@"; }
# (the sanitizer's graph and the damaged files' source: a check, so that
# a failure to make it is never read as those checks passing)
check "making rmat12.tsg" gen rmat --scale 12 --seed 2 "$T/rmat12.tsg"
add_graph "$T/rmat16.tsg" gen rmat --scale 16 --seed 3
add_graph "$T/rmat19.tsg" gen rmat --scale 19 --edge-factor 16 --seed 4
add_graph "$T/rmat14dense.tsg" gen rmat --scale 14 --edge-factor 64 --seed 5
add_graph "$T/er.tsg" gen er --vertices 100000 --edge-factor 20 --seed 6
# crawl-like: rows short enough for edge-merge's block step (edge_merge.cu)
add_graph "$T/web.tsg" gen web --vertices 200000 --seed 7
add_graph "$T/clique.tsg" gen clique --vertices 300
add_graph "$T/star.tsg" gen star --vertices 5000
add_graph "$T/empty.tsg" gen empty --vertices 10
# real graphs with published counts: the bundled ones (tests/data) always
for f in facebook_combined.txt ca-GrQc.txt; do
	add_graph "$T/$f.tsg" "$B/tristream-convert" --quiet "$(dirname "$0")/../data/$f.gz"
done
# a LAW crawl, symmetrized (published count 20,977,629), from its BVGraph files
if [ -f "$SHARED/cnr-2000/cnr-2000.graph" ]; then
	add_graph "$T/cnr-2000.tsg" "$B/tristream-convert" --quiet "$SHARED/cnr-2000/cnr-2000"
else
	skip "$SHARED/cnr-2000 not found (not bundled); the WebGraph crawl not checked"
fi
# GRAPHS_ONLY=1 (tests/scripts.sh, with stand-in tools): the graphs made, then stop
if [ -n "${GRAPHS_ONLY:-}" ]; then printf 'graph %s\n' "${graphs[@]##*/}"; finish_checks; fi
[ "$PART" = sanitizer ] && graphs=()
sel=(); i=0
for g in "${graphs[@]}"; do
	[ $((i % ${SLICE#*/})) = "${SLICE%/*}" ] && sel+=("$g")
	i=$((i + 1))
done
graphs=("${sel[@]}")
for g in "${graphs[@]}"; do
	ref=$(count "$g" --device cpu)
	# every comparison below needs a real count: an error on both sides
	# must never pass as "equal"
	case $ref in ''|*[!0-9]*) bad "$(basename "$g"): CPU count failed: $ref"; continue ;; esac
	# and the CPU count itself is checked against the independent counter
	bref=$("$B/tests/brute" "$g")
	case $bref in ''|*[!0-9]*) bad "$(basename "$g"): reference counter failed" ;;
		"$ref") ok ;; *) bad "$(basename "$g"): CPU $ref, reference counter $bref" ;; esac
	case $(basename "$g") in
		clique.tsg) [ "$ref" = 4455100 ] && ok || bad "clique CPU count $ref" ;;
		facebook_combined.txt.tsg) [ "$ref" = 1612010 ] && ok || bad "facebook CPU count $ref" ;;
		ca-GrQc.txt.tsg) [ "$ref" = 48260 ] && ok || bad "ca-GrQc CPU count $ref" ;;
		cnr-2000.tsg) [ "$ref" = 20977629 ] && ok || bad "cnr-2000 CPU count $ref"
			# and straight from the crawl's files, merged with the transpose and sorted
			for nt in "" --no-transpose; do
				got=$(count "$SHARED/cnr-2000/cnr-2000" --device gpu $nt)
				[ "$got" = 20977629 ] && ok || bad "cnr-2000 from BVGraph $nt on the GPU: $got"
			done ;;
	esac
	bytes=$(stat -c %s "$g")
	if [ "$PART" != batch ]; then # batch: per-vertex counts and checkpoints only
		for k in $KERNELS; do
			for p in 1 2 4 8; do # block layout: Q blocks, Q(Q+1)/2 units
				got=$(count "$g" --device gpu --kernel $k --partitions $p)
				[ "$got" = "$ref" ] && ok || bad "$(basename "$g") $k block Q=$p: $got, CPU $ref"
			done
			for p in 1 4; do
				for s in edge hash; do
					got=$(count "$g" --device gpu --kernel $k --layout lstc --partitions $p --scheme $s)
					[ "$got" = "$ref" ] && ok || bad "$(basename "$g") $k lstc P=$p $s: $got, CPU $ref"
				done
			done
			got=$(count "$g" --device gpu --kernel $k --layout lstc --partitions 3 --prune lstc)
			[ "$got" = "$ref" ] && ok || bad "$(basename "$g") $k lstc-prune: $got, CPU $ref"
		done
		# mid-hash falls back to lstc for a unit past its source-entry limit
		# (2^32 - 2^24; lowered here by the test hook): the count stays
		# exact and the result names what ran, per unit and in the note
		# (not in the kernels part: a check of the counts part's)
		[ "$PART" = kernels ] || for l in "--partitions 4" "--layout lstc --partitions 3"; do
			TSG_TEST_MID_HASH_MAX=2000 "$B/tristream" count --quiet --json --device gpu \
				--kernel mid-hash $l "$g" >"$T/fb.json" 2>"$T/fb.err"
			python3 - "$T/fb.json" "$ref" <<'PY' && ok || bad "$(basename "$g") mid-hash fall-back $l: $(head -c 300 "$T/fb.json") $(head -c 200 "$T/fb.err")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["triangles"] == int(sys.argv[2]), j["triangles"]
parts = [p for p in j["partition_stats"] if "kernel" in p]
big = [p for p in parts if p["kernel"] == "lstc"]
assert set(p["kernel"] for p in parts) <= {"mid-hash", "lstc"}, parts
assert j.get("kernel_fallback_units", 0) == len(big), (j.get("kernel_fallback_units"), len(big))
if big:
    assert "lstc ran instead of mid-hash for %d of %d units" % (len(big), len(parts)) in j["note"], j["note"]
    assert j["kernel"] == ("lstc" if len(big) == len(parts) else "mid-hash"), j["kernel"]
else:
    assert j["kernel"] == "mid-hash" and ("note" not in j or "instead of mid-hash" not in j["note"]), j
PY
		done
		# auto: each unit names the kernel it ran, one auto may choose; the
		# note says how many units each got; the top-level kernel is the
		# one every unit ran, or "auto" where they differ
		[ "$PART" = kernels ] || for l in "--partitions 1" "--partitions 4" "--gpu-mem $(( bytes / 8 + 65536 ))"; do
			"$B/tristream" count --quiet --json --device gpu --kernel auto --layout block $l "$g" \
				>"$T/au.json" 2>"$T/au.err"
			python3 - "$T/au.json" "$ref" <<'PY' && ok || bad "$(basename "$g") auto report $l: $(head -c 300 "$T/au.json") $(head -c 200 "$T/au.err")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["triangles"] == int(sys.argv[2]), j["triangles"]
ran = [p["kernel"] for p in j["partition_stats"] if "kernel" in p]
assert ran and set(ran) <= {"mid-hash", "lstc-hash", "edge-merge"}, ran
assert j["kernel"] == (ran[0] if len(set(ran)) == 1 else "auto"), (j["kernel"], ran)
for k in set(ran):
    assert "%s for %d of %d units" % (k, ran.count(k), len(ran)) in j["note"], j["note"]
PY
		done
		# trust's buckets lowered to 2 and 5 levels by the test hook: full
		# buckets spill into the next ones, N(a) is tabled in pieces of 32
		# and 80 (warp) or 1024 and 2560 (CTA) ids, in memory and out of core
		case " $KERNELS " in *" trust "*)
			for lv in 2 5; do
				for l in "--partitions 1" "--partitions 4" "--layout lstc --partitions 3"; do
					got=$(TSG_TEST_TRUST_LEVELS=$lv count "$g" --device gpu --kernel trust $l)
					[ "$got" = "$ref" ] && ok || bad "$(basename "$g") trust levels $lv $l: $got, CPU $ref"
				done
			done ;;
		esac
		# skiff's other CTA policies, and its neighbourhood narrowed to 1
		# and 3 slots by the test hook: keys go to the overflow node
		case " $KERNELS " in *" skiff "*)
			for cta in block-degree block-index warp-index; do
				for hop in "" 1 3; do
					for l in "--partitions 1" "--partitions 4" "--layout lstc --partitions 3"; do
						[ -z "$hop" ] && [ $cta = block-degree ] && continue # above
						got=$(TSG_TEST_SKIFF_HOP=$hop count "$g" --device gpu --kernel skiff --cta-policy $cta $l)
						[ "$got" = "$ref" ] && ok || bad "$(basename "$g") skiff $cta hop '$hop' $l: $got, CPU $ref"
					done
				done
			done
			"$B/tristream" count --quiet --json --device gpu --kernel skiff --cta-policy warp-index "$g" >"$T/sk.json" 2>/dev/null
			grep -q '"cta_policy":"warp-index"' "$T/sk.json" && grep -q '"kernel":"skiff"' "$T/sk.json" &&
				ok || bad "$(basename "$g") skiff JSON names its policy: $(head -c 300 "$T/sk.json")" ;;
		esac
		# out of core, each kernel by name (a budget far below the graph:
		# automatic planning); here, not with auto's checks below, so that
		# the kernels part (tests/gpu/all.sh's kernels-I) runs them
		for div in 4 16; do
			mem=$(( bytes / div + 65536 ))
			for k in lstc-hash mid-hash trust fasttc skiff edge-merge; do
				case " $KERNELS " in *" $k "*) ;; *) continue ;; esac
				got=$(count "$g" --device gpu --gpu-mem $mem --kernel $k)
				[ "$got" = "$ref" ] && ok || bad "$(basename "$g") block $k --gpu-mem $mem: $got, CPU $ref"
			done
		done
		[ "$PART" = kernels ] && { echo "checked $(basename "$g"): the kernels $KERNELS"; continue; }
		# out of core: a budget far below the graph forces automatic planning
		for div in 4 16; do
			mem=$(( bytes / div + 65536 ))
			got=$(count "$g" --device gpu --gpu-mem $mem)
			[ "$got" = "$ref" ] && ok || bad "$(basename "$g") block --gpu-mem $mem: $got, CPU $ref"
			# one GPU keeps each slot's source rows for its next unit of the
			# same block (gpu_keep_sources): R-MAT 19's plans have blocks
			# of many units, so some source rows are read, not copied
			if [ "$(basename "$g")" = rmat19.tsg ] && [ $div = 4 ]; then
				"$B/tristream" count --quiet --json --device gpu --gpu-mem $mem "$g" >"$T/kp.json" 2>/dev/null
				python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert str(d["triangles"]) == sys.argv[2] and d["layout"] == "block" and d["h2d_kept_bytes"] > 0' "$T/kp.json" "$ref" &&
					ok || bad "rmat19.tsg --gpu-mem $mem: source rows kept in the slots: $(head -c 300 "$T/kp.json")"
			fi
			# auto on the crawl-like graph: every unit edge-merge, so the units
			# are cut again without mid-hash's scratch, and the note says so
			# (src/pipeline_gpu.c, auto_replan)
			if [ "$(basename "$g")" = web.tsg ] && [ $div = 16 ]; then
				"$B/tristream" count --quiet --json --device gpu --gpu-mem $mem "$g" >"$T/rp.json" 2>/dev/null
				python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert str(d["triangles"]) == sys.argv[2] and "cut for edge-merge" in d["note"]' "$T/rp.json" "$ref" &&
					ok || bad "web.tsg auto --gpu-mem $mem: its units cut for edge-merge: $(head -c 300 "$T/rp.json")"
			fi
			# mid-hash's scratch grows a part by 8 bytes an entry: where one
			# vertex's part then exceeds the budget, a clear error is right too.
			# (Small graphs only: LSTC parts under a tiny budget take minutes
			# to build on R-MAT 19, and the kernel gains nothing there.)
			if [ "$bytes" -lt 8000000 ]; then
				got=$(count "$g" --device gpu --gpu-mem $mem --kernel mid-hash --layout lstc)
				case $got in
					"$ref"|*"alone needs more than the partition budget"*) ok ;;
					*) bad "$(basename "$g") lstc mid-hash --gpu-mem $mem: $got, CPU $ref" ;;
				esac
			fi
			got=$(count "$g" --device gpu --gpu-mem $mem --layout lstc)
			# an LSTC part cannot shrink below one vertex's neighbourhood, which
			# in a clique is the whole graph: a clear out-of-memory error, never
			# a wrong count (the block layout splits the lists and fits)
			if [ "$(basename "$g")" = clique.tsg ]; then
				case $got in *"alone needs more than the partition budget"*) ok ;; *) bad "clique budget: $got" ;; esac
				continue
			fi
			[ "$got" = "$ref" ] && ok || bad "$(basename "$g") lstc --gpu-mem $mem: $got, CPU $ref"
		done
		"$B/tristream" compress --quiet "$g" "$T/z.tsg" # LZ4 file, decoded on load
		got=$(count "$T/z.tsg" --device gpu)
		[ "$got" = "$ref" ] && ok || bad "$(basename "$g") compressed: $got, CPU $ref"
		for io in mmap pread; do # lists checked and oriented as each reader brings them
			got=$(count "$g" --device gpu --io $io --partitions 2)
			[ "$got" = "$ref" ] && ok || bad "$(basename "$g") --io $io: $got, CPU $ref"
		done
		# bounded host memory: a budget between what spilling and what the
		# in-memory count need (both from the JSON) makes the block layout
		# spill
		for f in "$g" "$T/z.tsg"; do
			need=$("$B/tristream" count --quiet --json --device gpu --threads 4 --host-mem 1T "$f" 2>/dev/null |
				python3 -c 'import json,sys; h=json.load(sys.stdin)["host_mem"]; print((h["need_spill"] + h["need_memory"]) // 2)' 2>/dev/null)
			for p in 1 3; do
				got=$(count "$f" --device gpu --threads 4 --host-mem "${need:-0}" --scratch-dir "$T" --layout block --partitions $p)
				[ "$got" = "$ref" ] && ok || bad "$(basename "$f") --host-mem spill Q=$p: $got, CPU $ref"
			done
			# and that budget really made it spill
			mode=$("$B/tristream" count --quiet --json --device gpu --threads 4 --host-mem "${need:-0}" \
				--scratch-dir "$T" --layout block "$f" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["host_mem"]["mode"])' 2>/dev/null)
			[ "$mode" = spill ] && ok || bad "$(basename "$f") --host-mem ${need:-0}: mode '$mode', not spill"
		done
		# auto under a budget below the in-memory count's: the arrival layout
		# over the mapped plain file where its own need fits, else the
		# spill; the LZ4 file always spills
		for f in "$g" "$T/z.tsg"; do
			hm_arrival "$f" "$ref"
		done
		for p in 1 3; do # the oriented graph in pinned memory: asynchronous copies
			got=$(count "$g" --device gpu --pin-host on --partitions $p)
			[ "$got" = "$ref" ] && ok || bad "$(basename "$g") pinned Q=$p: $got, CPU $ref"
		done
		# the arrival layout: batches counted as the file is read, every reader
		for k in 1 2 7 auto; do
			for io in uring pread mmap; do
				got=$(count "$g" --device gpu --layout arrival --batches $k --io $io)
				[ "$got" = "$ref" ] && ok || bad "$(basename "$g") arrival K=$k $io: $got, CPU $ref"
			done
			got=$(count "$T/z.tsg" --device gpu --layout arrival --batches $k)
			[ "$got" = "$ref" ] && ok || bad "$(basename "$g") arrival K=$k lz4: $got, CPU $ref"
		done
		# many batches, most of them sharing pages of the lists (pinned once)
		got=$(count "$g" --device gpu --layout arrival --batches 3000)
		[ "$got" = "$ref" ] && ok || bad "$(basename "$g") arrival K=3000: $got, CPU $ref"
		# the lists go to the device from pinned pages, never through staging
		for f in "--io uring $g" "--io pread $g" "--io mmap $g" "--io mmap $T/z.tsg" "$T/z.tsg"; do
			pin=$("$B/tristream" count --quiet --json --device gpu --layout arrival --batches 3 $f |
				python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["lists_pinned_bytes"] == j["lists_bytes"] > 0 or j["lists_bytes"] == 0)')
			[ "$pin" = True ] && ok || bad "$(basename "$g") arrival lists pinned ($f): $pin"
		done
		# the pages given back on a thread of their own (the default), on
		# the batch thread, or after the last batch: the same count, and
		# the JSON's host times; a mapped file's pages (what --host-mem
		# counts) never more than four batches' pinned at once where the
		# thread gives them back, held back by the batch thread (inline and
		# at the end hold no such bound)
		for io in pread mmap; do
			for m in inline thread end; do
				got=$(TSG_ARRIVAL_UNPIN=$m "$B/tristream" count --quiet --json --device gpu --layout arrival \
					--batches 64 --io $io "$g" | python3 -c 'import json,sys; d=json.load(sys.stdin); s=d["stages"]
ok = all(s[k] >= 0 for k in ("arrival_pin", "arrival_unpin", "arrival_wait")) and (s["arrival_unpin"] > 0 or d["lists_bytes"] == 0)
held = d["lists_pinned_most"]
ok = ok and held >= (1 if d["lists_bytes"] else 0) and (sys.argv[1] != "mmap" or sys.argv[2] != "thread" or held <= 4)
print(d["triangles"] if ok else "stages %s, pinned at once %s" % (s, held))' $io $m 2>/dev/null)
				[ "$got" = "$ref" ] && ok || bad "$(basename "$g") arrival $io, pages given back $m: $got, CPU $ref"
			done
		done
		got=$(count "$g" --device gpu --layout arrival --batches 5 --tile 64)
		[ "$got" = "$ref" ] && ok || bad "$(basename "$g") arrival slots 64: $got, CPU $ref"
		lay=$("$B/tristream" count --quiet --json --device gpu "$g" | python3 -c 'import json,sys; print(json.load(sys.stdin)["layout"])')
		[ "$lay" = arrival ] && ok || bad "$(basename "$g") default layout on the GPU: $lay"
		for tile in 64 1024; do
			got=$(count "$g" --device gpu --kernel lstc-paper --tile $tile --partitions 2)
			[ "$got" = "$ref" ] && ok || bad "$(basename "$g") tile $tile: $got, CPU $ref"
		done
		for tile in 64 256 4096; do # mid-hash table slots: 64 tables long lists in pieces
			got=$(count "$g" --device gpu --kernel mid-hash --tile $tile --partitions 2)
			[ "$got" = "$ref" ] && ok || bad "$(basename "$g") mid-hash slots $tile: $got, CPU $ref"
			# every out(b) hashed: a test graph's short spans would
			# otherwise all go to the bitmap
			got=$(TSG_TEST_MID_HASH_BITS=0 count "$g" --device gpu --kernel mid-hash --tile $tile --partitions 2)
			[ "$got" = "$ref" ] && ok || bad "$(basename "$g") mid-hash hashed, slots $tile: $got, CPU $ref"
		done
		got=$(TSG_TEST_MID_HASH_BITS=0 count "$g" --device gpu --layout arrival --batches 5 --tile 64)
		[ "$got" = "$ref" ] && ok || bad "$(basename "$g") arrival hashed, slots 64: $got, CPU $ref"
	fi
	# per-vertex counts (mid-hash only; another kernel asked for is replaced
	# and said): every layout, in and out of core, against the CPU's file
	"$B/tristream" count --quiet --device cpu --per-vertex "$T/cpu.pv" "$g" >/dev/null 2>&1
	if [ "$bytes" -lt 3000000 ]; then # and the CPU's against the independent counter
		"$B/tests/brute" --per-vertex "$g" >"$T/brute.pv"
		cmp -s "$T/cpu.pv" "$T/brute.pv" && ok || bad "$(basename "$g") CPU per-vertex differs from brute"
	fi
	nv=$("$B/tristream" info --json "$g" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id_range"])')
	for opt in "--partitions 1" "--partitions 3" "--gpu-mem $(( bytes / 4 + 65536 + nv * 8 ))" \
		   "--layout lstc --partitions 1" "--layout lstc --partitions 4 --kernel lstc" \
		   "--layout arrival --batches 1" "--layout arrival --batches 5" "--layout auto"; do
		rm -f "$T/gpu.pv"
		got=$(count "$g" --device gpu $opt --per-vertex "$T/gpu.pv")
		[ "$got" = "$ref" ] && [ -f "$T/gpu.pv" ] && cmp -s "$T/gpu.pv" "$T/cpu.pv" && ok ||
			bad "$(basename "$g") per-vertex $opt: $got, CPU $ref, files differ"
	done
	for opt in "--partitions 3 --tile 64" "--layout arrival --batches 5 --tile 64"; do # hashed rows
		rm -f "$T/gpu.pv"
		got=$(TSG_TEST_MID_HASH_BITS=0 count "$g" --device gpu $opt --per-vertex "$T/gpu.pv")
		[ "$got" = "$ref" ] && [ -f "$T/gpu.pv" ] && cmp -s "$T/gpu.pv" "$T/cpu.pv" && ok ||
			bad "$(basename "$g") per-vertex hashed $opt: $got, CPU $ref, files differ"
	done
	cl=$("$B/tristream" count --quiet --json --device gpu --clustering "$g" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["transitivity"], d["average_clustering"])')
	clc=$("$B/tristream" count --quiet --json --device cpu --clustering "$g" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["transitivity"], d["average_clustering"])')
	[ -n "$cl" ] && [ "$cl" = "$clc" ] && ok || bad "$(basename "$g") clustering GPU '$cl', CPU '$clc'"
	echo "checked $(basename "$g"): $ref triangles"
done
[ "$PART" = kernels ] && finish_checks # the rest is the other parts'
# R-MAT 19 under --host-mem on auto must have taken the arrival layout
# (its need is well below the in-memory count's)
case " ${graphs[*]} " in
*/rmat19.tsg\ *) [ "$PART" = batch ] || { [ "$hm_arrivals" -gt 0 ] && ok ||
	bad "--host-mem on auto never took the arrival layout (rmat19 among the graphs)"; } ;;
esac

# checkpoints on the GPU: killed at random moments and resumed, stopped by
# SIGTERM (exit 8), arrival batches resumed from a checkpoint cut short
if [ "$PART" != sanitizer ] && [ "${SLICE%/*}" = 0 ]; then
	g="$T/rmat19.tsg"
	ref=$(count "$g" --device cpu)
	case $ref in ''|*[!0-9]*) bad "checkpoints: CPU count failed: $ref"; ref=NO-REFERENCE ;; esac
	for l in "--partitions 8" "--layout lstc --partitions 8 --kernel mid-hash" "--layout arrival --batches 16"; do
		for d in 0.3 0.6 0.9 1.2; do
			rm -f "$T/ck"
			# (not timeout -s KILL: it kills itself too and does not wait
			# for the process, whose exit from the driver takes a while)
			"$B/tristream" count --quiet --device gpu $l --checkpoint "$T/ck" "$g" >/dev/null 2>&1 &
			pid=$!
			sleep $d
			kill -KILL $pid 2>/dev/null
			wait $pid 2>/dev/null
			got=$(count "$g" --device gpu $l --checkpoint "$T/ck")
			[ "$got" = "$ref" ] && ok || bad "checkpoint $l killed after ${d}s: $got, CPU $ref"
		done
	done
	rm -f "$T/ck"
	"$B/tristream" count --quiet --device gpu --partitions 40 --kernel lstc-paper --checkpoint "$T/ck" "$g" >/dev/null 2>"$T/err" &
	pid=$!
	# once a unit is recorded (header 64 bytes, plan and unit records 32)
	wait_size "$T/ck" 128 $pid
	kill -TERM $pid
	wait $pid
	rc=$?
	got=$(count "$g" --device gpu --partitions 40 --kernel lstc-paper --checkpoint "$T/ck")
	[ $rc = 8 ] && [ "$got" = "$ref" ] && ok || bad "checkpoint SIGTERM: rc $rc, then $got, CPU $ref"
	echo "checkpoint SIGTERM after the first unit: exit $rc"
	# arrival: a whole run's checkpoint cut after 5 of its 16 batches
	# (header 64 bytes, plan 32, a record 32 a batch): the rerun places
	# those 5 batches' rows without counting them and counts the rest
	rm -f "$T/ck2"
	got=$(count "$g" --device gpu --layout arrival --batches 16 --checkpoint "$T/ck2")
	[ "$got" = "$ref" ] && [ "$(stat -c %s "$T/ck2")" = $((64 + 32 * 18)) ] && ok ||
		bad "checkpoint arrival: $got (CPU $ref), $(stat -c %s "$T/ck2") bytes"
	truncate -s $((64 + 32 * 6)) "$T/ck2"
	out=$("$B/tristream" count --quiet --json --device gpu --layout arrival --batches 16 --checkpoint "$T/ck2" "$g" |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["triangles"], d["layout"], d["checkpoint"]["units_resumed"])')
	[ "$out" = "$ref arrival 5" ] && ok || bad "arrival resumed from 5 batches: '$out', CPU $ref"
	# SIGTERM once a batch is recorded: exit 8 with some of the 64 batches
	# recorded, not all, and the rerun resumes exactly those and completes
	# it. Each record is followed by a pause (a test hook), so the signal
	# lands before the last batch however fast the GPU: exit 0 is a fault
	rm -f "$T/ck2"
	TSG_TEST_CKPT_RECORD_PAUSE_MS=200 "$B/tristream" count --quiet --device gpu --layout arrival --batches 64 --checkpoint "$T/ck2" "$g" >/dev/null 2>&1 &
	pid=$!
	wait_size "$T/ck2" 128 $pid # header 64, plan 32, a record 32
	kill -TERM $pid 2>/dev/null
	wait $pid
	rc=$?
	n=$(( ($(stat -c %s "$T/ck2" 2>/dev/null || echo 0) - 96) / 32 )) # header 64, plan 32, a record 32
	out=$("$B/tristream" count --quiet --json --device gpu --layout arrival --batches 64 --checkpoint "$T/ck2" "$g" |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["triangles"], d["checkpoint"]["units_resumed"])')
	[ $rc = 8 ] && [ $n -ge 1 ] && [ $n -lt 64 ] && [ "$out" = "$ref $n" ] && ok ||
		bad "checkpoint arrival SIGTERM: rc $rc, $n batches recorded, then '$out' (count, batches resumed), CPU $ref"
	echo "checkpoint arrival SIGTERM after the first batch: exit $rc, $n of 64 batches recorded"
	lay=$("$B/tristream" count --quiet --json --device gpu --checkpoint "$T/ck3" "$g" | python3 -c 'import json,sys; print(json.load(sys.stdin)["layout"])')
	[ "$lay" = arrival ] && ok || bad "checkpoint with the auto layout on the GPU: layout $lay, not arrival (it fits)"
fi

# a partition too large for the slot gives a clear error, not a wrong count
[ "$PART" = sanitizer ] || for layout in block lstc; do
	out=$("$B/tristream" count --quiet --device gpu --gpu-mem 1M --partitions 1 --layout $layout "$T/rmat19.tsg" 2>&1)
	rc=$?
	[ $rc = 4 ] && echo "$out" | grep -q "does not fit" && ok || bad "oversized $layout partition: rc $rc: $out"
done
[ "$PART" = sanitizer ] || {
	out=$("$B/tristream" count --quiet --device gpu --gpu-mem 1M --layout arrival "$T/rmat19.tsg" 2>&1)
	rc=$?
	[ $rc = 4 ] && echo "$out" | grep -q "use --layout block" && ok || bad "arrival over budget: rc $rc: $out"
}

# an asymmetric file whose lists pass every per-list check: the arrival
# batches are oriented on the device before the read's last checks fail;
# more rows than the device's row array holds, no count, exit 3
asym=$(python3 "$(dirname "$0")/asymmetric.py" "$T/rmat12.tsg" "$T/asym.tsg")
[ "$PART" = sanitizer ] || for k in 1 4; do
	"$B/tristream" count --quiet --device gpu --layout arrival --batches $k "$T/asym.tsg" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 3 ] && [ ! -s "$T/out" ] && [ "${asym% *}" -gt "${asym#* }" ] && ok ||
		bad "asymmetric file, arrival K=$k: rc $rc, rows/edges $asym: $(cat "$T/out" "$T/err")"
done
# a budget too small to open the device: exit 4, and the error says what is
# free on the card (the usual cause: other processes hold it)
"$B/tristream" count --quiet --device gpu --gpu-mem 4096 "$T/rmat12.tsg" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 4 ] && [ ! -s "$T/out" ] && grep -q "MiB free" "$T/err" && ok || bad "tiny --gpu-mem: rc $rc: $(cat "$T/out" "$T/err")"
# a corrupt byte mid-lists, and a cut file: batches stop, pinned pages are let go
cp "$T/rmat12.tsg" "$T/bad.tsg"
printf '\x55\x55\x55\x55' | dd of="$T/bad.tsg" bs=1 seek=120000 conv=notrunc 2>/dev/null
head -c 150000 "$T/rmat12.tsg" >"$T/cut.tsg"
[ "$PART" = sanitizer ] || for f in bad cut; do
	for io in uring mmap; do
		"$B/tristream" count --quiet --device gpu --layout arrival --batches 4 --io $io "$T/$f.tsg" >"$T/out" 2>"$T/err"
		rc=$?
		[ $rc = 3 ] && [ ! -s "$T/out" ] && ok || bad "$f file, arrival, $io: rc $rc: $(cat "$T/out" "$T/err")"
	done
done

if [ "$PART" = counts ]; then
	echo "sanitizer checks not asked for"
elif command -v compute-sanitizer >/dev/null; then
	kernels=""
	for k in lstc lstc-hash mid-hash trust fasttc skiff edge-merge; do case " $KERNELS " in *" $k "*) kernels="$kernels $k" ;; esac; done
	[ "$PART" = batch ] && kernels=""
	# one tristream count under compute-sanitizer's $tool: expected exit
	# status, a label, then count's arguments (environment assignments in
	# front of the call reach the program)
	sanitize() {
		local want=$1 label=$2; shift 2
		compute-sanitizer --tool $tool --error-exitcode 99 "$B/tristream" count --quiet \
			--device gpu "$@" >"$T/san" 2>&1
		local rc=$?
		[ $rc = "$want" ] && ok || { bad "compute-sanitizer $tool $label rc $rc"; tail -20 "$T/san"; }
		grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$T/san" | sed "s/^/$tool $label: /"
	}
	for tool in memcheck racecheck; do
		for k in $kernels; do
			for layout in block lstc; do
				sanitize 0 "$k $layout" --kernel $k --layout $layout --partitions 3 "$T/rmat12.tsg"
			done
		done
		case " $kernels " in *" trust "*) # full buckets spilling, tables in pieces
			TSG_TEST_TRUST_LEVELS=2 sanitize 0 "trust levels 2" --kernel trust --partitions 2 "$T/rmat12.tsg" ;;
		esac
		case " $kernels " in *" mid-hash "*) # rows hashed in pieces as well as bitmaps
			TSG_TEST_MID_HASH_BITS=0 sanitize 0 "mid-hash hashed" --kernel mid-hash --tile 64 --partitions 2 "$T/rmat12.tsg" ;;
		esac
		case " $kernels " in *" edge-merge "*) # short rows: the block step first
			sanitize 0 "edge-merge short rows" --kernel edge-merge --partitions 2 "$T/web.tsg" ;;
		esac
		case " $kernels " in *" skiff "*) # the index policies; overflow nodes
			for v in "block-index 32" "warp-index 32" "block-degree 1" "warp-index 1"; do
				TSG_TEST_SKIFF_HOP=${v#* } sanitize 0 "skiff $v" --kernel skiff --cta-policy ${v% *} \
					--partitions 2 "$T/rmat12.tsg"
			done ;;
		esac
		[ "$PART" = batch ] || sanitize 0 arrival --layout arrival --batches 4 "$T/rmat12.tsg"
		for layout in "--layout block --partitions 3" "--layout lstc --partitions 3" "--layout arrival --batches 4"; do
			sanitize 0 "per-vertex $layout" $layout --per-vertex "$T/san.pv" "$T/rmat12.tsg"
		done
		sanitize 3 "arrival asymmetric" --layout arrival --batches 4 "$T/asym.tsg"
	done
else
	# asked for by name, the sanitizer is the part: its absence fails it
	if [ "$PART" = sanitizer ]; then
		bad "compute-sanitizer not found: the sanitizer part cannot run"
	else
		skip "compute-sanitizer not found: sanitizer checks not run"
	fi
fi
finish_checks
