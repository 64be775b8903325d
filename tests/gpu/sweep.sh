#!/usr/bin/env bash
# tests/gpu/sweep.sh [BUILD_DIR] [SHARED_GRAPHS_DIR] - the sweep (a crawl in
# bounded memory, src/sweep.h) on the GPU: crawls from tristream-gen and
# R-MAT graphs written as BVGraph, counted through many blocks (--partitions,
# a small --gpu-mem) and chunks (--batches) at several thread counts, each
# against tests/brute.c on the .tsg the same arguments make (no code shared
# with the engine); per-vertex counts and clustering against it; the LAW
# crawl against its published count; a checkpoint killed and resumed; a
# wrong transpose refused; compute-sanitizer's memcheck and racecheck over
# a small sweep; a default budget read again, said. Ends with "N passed,
# N failed".
set -u
SECONDS=0
B=${1:-build}
SHARED=${2:-../shared/graphs}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# check, ok, bad, skip, finish_checks, num, same
. "$(dirname "$0")/../lib.sh"
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])" 2>/dev/null; }
gen() { "$B/tristream-gen" --quiet "$@" || bad "tristream-gen $*"; }
sw() { "$B/tristream" count --quiet --json --device gpu --layout sweep "$@"; }

gen --seed 3 --webgraph crawl --vertices 20000 --edge-factor 6 "$T/c1"
gen --seed 3 crawl --vertices 20000 --edge-factor 6 "$T/c1.tsg"
gen --seed 4 --webgraph crawl --vertices 500000 "$T/c2"
gen --seed 4 crawl --vertices 500000 "$T/c2.tsg"
gen --seed 5 rmat --scale 16 "$T/r.tsg"
"$B/tristream-convert" --quiet --to webgraph "$T/r.tsg" "$T/r" || bad "R-MAT 16 as BVGraph"
for g in c1 c2 r; do
	eval "ref_$g=\$(\"\$B/tests/brute\" \"\$T/$g.tsg\")"
	eval "num \"\$ref_$g\"" && ok || bad "no reference count for $g"
done
for g in c1 c2 r; do
	eval "ref=\$ref_$g"
	for o in "" "--partitions 3" "--partitions 7 --batches 37" "--threads 1 --partitions 2" \
		"--threads 4 --batches 100" "--gpu-mem 256M"; do
		got=$(sw $o "$T/$g" | field triangles)
		same "$got" "$ref" && ok || bad "$g, sweep $o: $got, not $ref"
	done
done
# a default budget taken away between its read and its allocation
# (TSG_TEST_BUDGET_RACE=1: half the free memory taken then) is read again
# and said in the sweep's note as in the other layouts'; with --gpu-mem,
# never read again, nothing said
TSG_TEST_BUDGET_RACE=1 sw --partitions 3 "$T/c2" >"$T/race.json"
python3 -c "
import json; d = json.load(open('$T/race.json'))
assert d['triangles'] == $ref_c2 and d['layout'] == 'sweep' and d['device'] == 'gpu', d
assert 'read again 1 time,' in d['note'], d['note']" && ok ||
	bad "sweep, default budget taken away once: $(head -c 400 "$T/race.json")"
TSG_TEST_BUDGET_RACE=1 sw --partitions 3 --gpu-mem 1G "$T/c2" >"$T/race.json"
python3 -c "
import json; d = json.load(open('$T/race.json'))
assert d['triangles'] == $ref_c2 and 'read again' not in d.get('note', ''), d" && ok ||
	bad "sweep, --gpu-mem 1G beside a process taking half: $(head -c 400 "$T/race.json")"
sw --threads 2 --partitions 5 --batches 40 "$T/c2" >"$T/p.json"
TSG_TEST_SWEEP_KEEP=0 sw --threads 2 --partitions 5 --batches 40 "$T/c2" >"$T/p0.json"
# pass p reads its block's chunks and the chunks after them, and its fill
# reads ahead as far as its slots reach (3 on the GPU at 2 threads);
# sweeping every chunk but the block's took about chunks * P. A chunk read
# is decoded or copied from those kept in host memory between passes
reads='n, P, s = d["chunks"], d["passes"], d["sweep"]
k, at, least = s["chunks_decoded"] + s["decoded_from_kept"], 0, 0
for p in d["partition_stats"]:
    least += p["block_chunks"] + n - (at + p["block_chunks"]); at += p["block_chunks"]
assert at == n and least <= k <= least + 3 * P < n * P, (n, P, k, least)'
python3 -c "
import json; d = json.load(open('$T/p.json'))
assert d['device'] == 'gpu' and d['layout'] == 'sweep' and d['passes'] >= 4, d
$reads" && ok || bad "several passes on the GPU, said; each sweeping only the chunks after its block"
# the host's budget (90% of what is available) leaves room beside the
# pinned buffers for every chunk the first pass swept past: only it decodes
python3 -c "
import json; d = json.load(open('$T/p.json')); n, s = d['chunks'], d['sweep']
first = d['partition_stats'][0]['block_chunks']
assert d['triangles'] == $ref_c2, d
assert s['kept_chunks'] == n - first and s['kept_failed'] == 0 and s['kept_bytes'] > 0, s
assert s['decoded_from_kept'] > 0 and s['chunks_decoded'] <= n + 3, s
assert s['runtime_bytes'] > 0, s" && ok ||
	bad "chunks kept on the host between the GPU's passes, as JSON says, what opening the device added measured"
python3 -c "
import json; d = json.load(open('$T/p0.json')); s = d['sweep']
assert d['triangles'] == $ref_c2 and d['passes'] >= 4, d
assert s['kept_chunks'] == s['kept_bytes'] == s['decoded_from_kept'] == 0, s
$reads" && ok || bad "TSG_TEST_SWEEP_KEEP=0 on the GPU: the same count, nothing kept"
# the chunk buffers are pinned during the plan, sized from the chunk size it
# is given; where the plan's chunks outgrow them (R-MAT 16's hub: 19,244
# entries in both files, past the 3,638 that --batches 1000 asks a chunk)
# the lists' buffers are pinned again after it (the offsets' still fit:
# 4,096 nodes a chunk either way, so exactly half are taken), and the
# count is the same
for o in "" "--batches 1000"; do
	sw $o "$T/r" >"$T/pin.json"
	got=$(field triangles <"$T/pin.json")
	same "$got" "$ref_r" && ok || bad "r, sweep $o (pinning): $got, not $ref_r"
	python3 -c "
import json, sys; s = json.load(open('$T/pin.json'))['sweep']
n, t = s['pin_buffers'], s['pin_taken']
assert n > 0 and (t == n if '$o' == '' else 2 * t == n), (n, t)" && ok ||
		bad "r, sweep $o: chunk buffers pinned during the plan and taken as JSON says"
done
echo "counts done ($SECONDS s)"
# per-vertex counts and clustering
"$B/tests/brute" --per-vertex "$T/c2.tsg" >"$T/c2.ref"
"$B/tristream" count --quiet --device gpu --layout sweep --partitions 3 --per-vertex "$T/c2.pv" "$T/c2" >/dev/null
[ -s "$T/c2.pv" ] && cmp -s "$T/c2.pv" "$T/c2.ref" && ok || bad "per-vertex counts through 3 blocks"
sw --clustering --partitions 2 "$T/c2" >"$T/cl.json"
python3 -c "
import json; d = json.load(open('$T/cl.json'))
t, a = map(float, open('/dev/stdin').read().split())
assert abs(d['transitivity'] - t) < 1e-6 and abs(d['average_clustering'] - a) < 1e-6, d" < <("$B/tests/brute" --clustering "$T/c2.tsg") && ok || bad "clustering"
# the LAW crawl
C="$SHARED/cnr-2000/cnr-2000"
if [ -f "$C.properties" ]; then
	for o in "" "--partitions 4 --batches 50"; do
		got=$(sw $o "$C" | field triangles)
		same "$got" 20977629 && ok || bad "cnr-2000, sweep $o: $got"
	done
else
	skip "$C absent: cnr-2000 on the GPU sweep not tried (2 checks)"
fi
# a checkpoint killed and resumed
ck=$T/ck
for d in 0.5 1.0 1.5; do
	"$B/tristream" count --quiet --device gpu --layout sweep --partitions 6 --batches 300 \
		--checkpoint "$ck" "$T/c2" >/dev/null 2>&1 &
	pid=$!
	sleep $d
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
done
got=$(sw --partitions 6 --batches 300 --checkpoint "$ck" "$T/c2" | field triangles)
same "$got" "$ref_c2" && ok || bad "killed three times and resumed: $got"
# ... and killed once three records are on file, each record held 100 ms
# (the test hook): the kill then lands before the end, so the rerun resumes
# units from a run cut short, not a finished one's (the kills above may
# come after the end)
rm -f "$ck"
TSG_TEST_CKPT_RECORD_PAUSE_MS=100 "$B/tristream" count --quiet --device gpu --layout sweep \
	--partitions 6 --batches 300 --checkpoint "$ck" "$T/c2" >/dev/null 2>&1 &
pid=$!
wait_size "$ck" $((96 + 3 * 32)) $pid
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
sw --partitions 6 --batches 300 --checkpoint "$ck" "$T/c2" >"$T/res.json"
python3 -c "
import json; d = json.load(open('$T/res.json')); c = d['checkpoint']
assert d['triangles'] == $ref_c2 and not c.get('finished_earlier') and c['units_resumed'] >= 1, d" &&
	ok || bad "killed after three records (the record pause), resumed: $(head -c 300 "$T/res.json")"
# a transpose of another crawl (a copy of c1 with o's transpose)
gen --seed 9 --webgraph crawl --vertices 20000 --edge-factor 6 "$T/o"
for x in graph offsets properties; do cp "$T/c1.$x" "$T/w.$x"; cp "$T/o-t.$x" "$T/w-t.$x"; done
sw "$T/w" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 3 ] && grep -q "$T/w" "$T/err" && ok || bad "another crawl's transpose: exit $rc"
echo "checkpoint done ($SECONDS s)"
# compute-sanitizer over a small sweep through several blocks
if command -v compute-sanitizer >/dev/null; then
	for tool in memcheck racecheck; do
		compute-sanitizer --tool $tool --error-exitcode 99 --log-file "$T/san.log" \
			"$B/tristream" count --quiet --json --device gpu --layout sweep --partitions 3 \
			--batches 20 "$T/c1" >"$T/san.json" 2>"$T/san.err"
		rc=$?
		got=$(field triangles <"$T/san.json")
		[ $rc = 0 ] && same "$got" "$ref_c1" && ok || { bad "compute-sanitizer $tool: exit $rc, $got"; tail -n 20 "$T/san.log" "$T/san.err"; }
	done
else
	bad "compute-sanitizer not found"
fi
echo "($SECONDS s)"
finish_checks
