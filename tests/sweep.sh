#!/usr/bin/env bash
# tests/sweep.sh BUILD_DIR - the sweep (src/sweep.h: a crawl counted in
# bounded memory) on the CPU backend, against tests/brute.c, which shares
# no code with the engine: crawls from tristream-gen (the brute count reads
# the .tsg the same arguments make, not the crawl) and R-MAT graphs written
# as BVGraph, forced through many blocks and chunks at several thread
# counts; per-vertex counts and clustering; checkpoints killed and resumed;
# --host-mem and a memory cgroup; every damage class of a crawl refused
# with exit 3. Ends with "N passed, N failed, N skipped".
set -u
B=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# check, skip, finish_checks, num, same, cg_run
. "$(dirname "$0")/lib.sh"
brute() { "$B/tests/brute" "$@"; }
gen() { "$B/tristream-gen" --quiet "$@"; }
sw() { "$B/tristream" count --quiet --device cpu --layout sweep "$@"; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])" 2>/dev/null; }
rc_of() { "$@" >"$T/out" 2>"$T/err"; echo $?; }
same_file() { [ -s "$1" ] && [ -s "$2" ] && cmp -s "$1" "$2"; }
# a graph's BVGraph files as BASE and BASE-t (a symmetric graph is its own
# transpose: the converter writes both)
as_crawl() { # TSG BASE
	"$B/tristream-convert" --quiet --to webgraph "$1" "$2" && [ -s "$2-t.properties" ]
}

# --- graphs and their reference counts
gen --seed 3 --webgraph crawl --vertices 20000 --edge-factor 6 "$T/c1"
gen --seed 3 crawl --vertices 20000 --edge-factor 6 "$T/c1.tsg"
gen --seed 4 --webgraph crawl --vertices 60000 "$T/c2"
gen --seed 4 crawl --vertices 60000 "$T/c2.tsg"
gen --seed 5 rmat --scale 13 "$T/r.tsg"
as_crawl "$T/r.tsg" "$T/r"
gen --seed 6 clique --vertices 30 "$T/k.tsg"
as_crawl "$T/k.tsg" "$T/k"
for g in c1 c2 r k; do
	eval "ref_$g=\$(brute \"\$T/$g.tsg\")"
	eval "check \"reference count of $g\" num \"\$ref_$g\""
done
check "the clique's count is C(30,3)" same "$ref_k" 4060

# --- exact through many blocks and chunks, at several thread counts
for g in c1 c2 r k; do
	eval "ref=\$ref_$g"
	for t in 1 2 3; do
		for p in 1 3 7; do
			for bt in 0 37; do
				o="--threads $t --partitions $p"
				[ $bt = 0 ] || o="$o --batches $bt"
				check "$g, sweep $o" same "$(sw $o --json "$T/$g" | field triangles)" "$ref"
			done
		done
	done
done
sw --json --threads 2 --partitions 7 --batches 37 "$T/c2" >"$T/p.json"
check "forced: several passes and chunks, said in JSON" python3 -c "
import json; d = json.load(open('$T/p.json'))
assert d['layout'] == 'sweep' and d['passes'] >= 3 and d['chunks'] >= 37, d
assert len(d['partition_stats']) == d['passes'] and sum(p['triangles'] for p in d['partition_stats']) == d['triangles'], d"
# a pass sweeps only the chunks after its block: pass p reads its block's
# chunks (its fill) and every chunk after them (its sweep), and its fill
# reads ahead of the chunk that does not fit as far as its slots reach (4
# on 2 threads); sweeping every chunk but the block's took about chunks *
# P. A chunk read is decoded, or copied from the chunks kept between
# passes: here (the block held to a share of the budget) every chunk the
# first pass swept past, so that only the first pass decodes
reads='n, P, s = d["chunks"], d["passes"], d["sweep"]
k, at, least = s["chunks_decoded"] + s["decoded_from_kept"], 0, 0
for p in d["partition_stats"]:
    least += p["block_chunks"] + n - (at + p["block_chunks"]); at += p["block_chunks"]
assert at == n and least <= k <= least + 4 * P < n * P, (n, P, k, least)'
check "a pass reads its block and the chunks after it, no more" python3 -c "
import json; d = json.load(open('$T/p.json'))
$reads"
check "chunks kept: all those after the first block, decoded once, read from memory after" python3 -c "
import json; d = json.load(open('$T/p.json')); n, s = d['chunks'], d['sweep']
first = d['partition_stats'][0]['block_chunks']
assert s['kept_chunks'] == n - first and s['kept_failed'] == 0 and s['kept_bytes'] > 0, s
assert s['decoded_from_kept'] > 0 and s['chunks_decoded'] <= n + 4, s
assert s['runtime_bytes'] == 0, s  # the CPU: no device opened"
TSG_TEST_SWEEP_KEEP=0 sw --json --threads 2 --partitions 7 --batches 37 "$T/c2" >"$T/p0.json"
check "TSG_TEST_SWEEP_KEEP=0: the same count, nothing kept, every read decoded" python3 -c "
import json; d = json.load(open('$T/p0.json')); s = d['sweep']
assert d['triangles'] == $ref_c2 and d['passes'] >= 3, d
assert s['kept_chunks'] == s['kept_bytes'] == s['decoded_from_kept'] == 0, s
$reads"
check "the sweep's text output" sh -c "$B/tristream count --quiet --device cpu --layout sweep $T/c1 | grep -qx 'triangles: $ref_c1'"

# --- chunks kept between passes (src/sweep.c, keep_plan): the last chunks
# whose bounds fit what the budget leaves beside a block held to a share of
# it (--partitions), decoded once in the first pass and copied in later
# ones; TSG_TEST_SWEEP_KEEP=BYTES lowers that room (0: none kept). Odd
# budgets, every room, several threads: the same counts
kept() { # JSON -> "passes kept_chunks decoded_from_kept kept_failed kept_bytes"
	python3 -c "import json,sys; d = json.load(sys.stdin); s = d['sweep']
print(d['passes'], s['kept_chunks'], s['decoded_from_kept'], s['kept_failed'], s['kept_bytes'])" 2>/dev/null
}
kept_ok() { # PASSES KEPT FROM FAILED: several passes, chunks kept and read, none refused
	[ "${1:-0}" -ge 2 ] && [ "${2:-0}" -gt 0 ] && [ "${3:-0}" -gt 0 ] && [ "${4:-x}" = 0 ]
}
fewer_ok() { # KEPT FROM BYTES KEPT_ALL BYTES_ALL: some kept, fewer, in half the room
	[ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] && [ "$1" -lt "${4:-0}" ] &&
		[ $((${3:-0} * 2)) -le "${5:-0}" ]
}
for g in c1 c2 r; do
	eval "ref=\$ref_$g"
	for t in 1 2 3; do
		for o in "--host-mem 23M --partitions 5" "--host-mem 30M --partitions 3 --batches 50"; do
			sw --json --threads $t $o "$T/$g" >"$T/k.json"
			check "$g, kept chunks, --threads $t $o" same "$(field triangles <"$T/k.json")" "$ref"
			read -r P n from failed bytes < <(kept <"$T/k.json")
			check "... several passes, chunks kept ($n) and read from memory ($from)" \
				kept_ok "$P" "$n" "$from" "$failed"
			# half the bytes kept: fewer chunks (a chunk's bound is more
			# than its size), still some, the same count
			TSG_TEST_SWEEP_KEEP=$((bytes / 2)) sw --json --threads $t $o "$T/$g" >"$T/k2.json"
			check "... room for half of them, the same count" same "$(field triangles <"$T/k2.json")" "$ref"
			read -r P2 n2 from2 failed2 bytes2 < <(kept <"$T/k2.json")
			check "... and fewer kept ($n2 of $n), within the room" \
				fewer_ok "$n2" "$from2" "$bytes2" "$n" "$bytes"
		done
	done
done
# memory refused: under an address-space limit (ulimit -v) from tight to
# loose, every run is exact or ends with exit 4 and says what could not be
# had (any stage: offsets, ranks, threads, chunk buffers, the block,
# decoding; at the tightest, where the bare program cannot start either,
# the dynamic loader's or a library's start-up failure before our code
# runs is passed over); where a kept
# chunk's memory alone is refused, it is decoded again when needed
# (kept_failed) and the count is the same. ASan reserves more address space
# than any such limit allows: not tried there
if nm "$B/tristream" 2>/dev/null | grep -q __asan_init; then
	skip "an ASan build: address-space limits not tried (3 checks)"
else
	bad_rc="" inexact="" refused="" refused_wrong=""
	for v in $(seq 10000 2000 80000); do
		(ulimit -v $v && "$B/tristream" count --quiet --json --device cpu --layout sweep --threads 2 \
			--host-mem 30M --partitions 3 "$T/c2") >"$T/av.json" 2>"$T/av.err"
		rc=$?
		if [ $rc = 0 ]; then
			got=$(field triangles <"$T/av.json")
			same "$got" "$ref_c2" || inexact="$inexact $v"
			read -r P n from failed bytes < <(kept <"$T/av.json")
			if [ "${failed:-0}" -gt 0 ]; then
				refused="$refused $v:$n/$failed"
				same "$got" "$ref_c2" || refused_wrong="$refused_wrong $v"
			fi
		elif { [ $rc = 127 ] && grep -q "error while loading shared libraries" "$T/av.err"; } ||
			! (ulimit -v $v && "$B/tristream" --version) >/dev/null 2>&1; then
			: # the dynamic loader's own failure, or a library's start-up
			  # (the static CUDA runtime's initializer crashed at 14,000
			  # KiB, 2026-11-27), before any of our code ran: the bare
			  # program cannot start under this limit either
		elif [ $rc != 4 ] || ! grep -q "^tristream: error: ." "$T/av.err"; then
			bad_rc="$bad_rc $v:$rc"
		fi
	done
	check "address-space limits 10-80 MB: exit 0, or 4 with an error line, alone (${bad_rc:-none else})" [ -z "$bad_rc" ]
	check "... every count exact (${inexact:-none inexact})" [ -z "$inexact" ]
	if [ -n "$refused" ]; then
		check "... kept chunks refused memory, decoded again, exact (limit:kept/refused${refused})" \
			[ -z "$refused_wrong" ]
	else
		skip "no limit here refused a kept chunk alone: kept_failed not reached"
	fi
fi
# no room: the block takes the budget's rest where --partitions does not
# hold it to a share
sw --json --host-mem 20M "$T/c2" >"$T/k.json"
read -r P n from failed bytes < <(kept <"$T/k.json")
check "--host-mem 20M alone: $P passes, exact, nothing kept" sh -c \
	"[ '$(field triangles <"$T/k.json")' = '$ref_c2' ] && [ '${P:-0}' -ge 2 ] && [ '$n $from $bytes' = '0 0 0' ]"

# --- per-vertex counts and clustering against the reference and against
# the in-memory path (byte for byte), chunks kept
brute --per-vertex "$T/c2.tsg" >"$T/c2.ref"
"$B/tristream" count --quiet --device cpu --layout block --per-vertex "$T/c2.mem.pv" "$T/c2" >/dev/null
check "per-vertex counts in memory" same_file "$T/c2.mem.pv" "$T/c2.ref"
sw --json --partitions 5 --per-vertex "$T/c2.pv" "$T/c2" >"$T/pv.json"
check "per-vertex counts through 5 blocks" same_file "$T/c2.pv" "$T/c2.ref"
check "... byte for byte the in-memory path's" same_file "$T/c2.pv" "$T/c2.mem.pv"
check "... chunks kept and read from memory" python3 -c "
import json; s = json.load(open('$T/pv.json'))['sweep']
assert s['kept_chunks'] > 0 and s['decoded_from_kept'] > 0, s"
for t in 1 3; do
	sw --threads $t --host-mem 23M --partitions 5 --batches 40 --per-vertex "$T/c2.pv$t" "$T/c2" >/dev/null
	check "per-vertex counts, chunks kept, --threads $t --host-mem 23M: the in-memory path's" \
		same_file "$T/c2.pv$t" "$T/c2.mem.pv"
done
sw --json --clustering --partitions 3 "$T/c2" >"$T/cl.json"
check "clustering through 3 blocks" python3 -c "
import json; d = json.load(open('$T/cl.json'))
t, a = map(float, open('/dev/stdin').read().split())
assert abs(d['transitivity'] - t) < 1e-6 and abs(d['average_clustering'] - a) < 1e-6, d" < <(brute --clustering "$T/c2.tsg")

# --- checkpoints: a finished count, and one killed and resumed
ck=$T/sweep.ckpt
check "checkpointed sweep" same "$(sw --json --partitions 4 --batches 40 --checkpoint "$ck" "$T/c2" | field triangles)" "$ref_c2"
check "a finished crawl is not counted again" sh -c "$B/tristream count --quiet --device cpu --layout sweep --partitions 4 --batches 40 --checkpoint $ck $T/c2 | grep -q 'counted by an earlier run'"
rm -f "$ck"
# killed at fractions of a whole count's time, so that the kills fall
# inside it on a fast machine or a loaded one (batch.sh does the same)
t0=$(date +%s%N)
sw --threads 1 --partitions 6 --batches 200 "$T/c2" >/dev/null
full=$(( ($(date +%s%N) - t0) / 1000000 ))
for f in 25 50 75; do
	"$B/tristream" count --quiet --device cpu --layout sweep --threads 1 --partitions 6 --batches 200 \
		--checkpoint "$ck" "$T/c2" >/dev/null 2>&1 &
	pid=$!
	sleep "$(printf '%d.%03d' $((full * f / 100000)) $((full * f / 100 % 1000)))"
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
done
sw --json --threads 1 --partitions 6 --batches 200 --checkpoint "$ck" "$T/c2" >"$T/res.json"
check "killed three times, resumed: the same count" same "$(field triangles <"$T/res.json")" "$ref_c2"
check "the resumed run says what it took from the checkpoint" python3 -c "
import json; c = json.load(open('$T/res.json'))['checkpoint']
assert c.get('finished_earlier') or c['units_resumed'] + c['units_recorded'] > 0, c"
# the same made certain: a pause after each record (a test hook), killed
# once three are on file (header 64, plan 32, a record 32; a pass's first
# record is where its block ended, not a count: src/sweep.c), so the
# rerun resumes from a run cut short, not one that had finished
rm -f "$ck"
TSG_TEST_CKPT_RECORD_PAUSE_MS=100 "$B/tristream" count --quiet --device cpu --layout sweep --threads 1 \
	--partitions 6 --batches 200 --checkpoint "$ck" "$T/c2" >/dev/null 2>&1 &
pid=$!
wait_size "$ck" $((96 + 3 * 32)) $pid
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
sw --json --threads 1 --partitions 6 --batches 200 --checkpoint "$ck" "$T/c2" >"$T/res.json"
check "killed after its first record (the record pause), resumed: the same count, units taken from the file" python3 -c "
import json; d = json.load(open('$T/res.json')); c = d['checkpoint']
assert d['triangles'] == $ref_c2 and not c.get('finished_earlier') and c['units_resumed'] >= 1, d"
# the kept chunks are only a cache: a checkpoint made keeping them resumes
# keeping none, and one made keeping none resumes keeping them
for made in "" 0; do
	rm -f "$ck"
	resume=$([ -z "$made" ] && echo 0)
	for f in 35 70; do
		TSG_TEST_SWEEP_KEEP=$made "$B/tristream" count --quiet --device cpu --layout sweep --threads 1 \
			--partitions 6 --batches 200 --checkpoint "$ck" "$T/c2" >/dev/null 2>&1 &
		pid=$!
		sleep "$(printf '%d.%03d' $((full * f / 100000)) $((full * f / 100 % 1000)))"
		kill -KILL $pid 2>/dev/null
		wait $pid 2>/dev/null
	done
	TSG_TEST_SWEEP_KEEP=$resume sw --json --threads 1 --partitions 6 --batches 200 --checkpoint "$ck" \
		"$T/c2" >"$T/res.json"
	check "killed keeping ${made:-all}, resumed keeping ${resume:-all}: the same count" \
		same "$(field triangles <"$T/res.json")" "$ref_c2"
	check "... the resumed run kept chunks as it was told" python3 -c "
import json; d = json.load(open('$T/res.json'))
assert d['checkpoint'].get('finished_earlier') or (d['sweep']['kept_chunks'] > 0) == ('$resume' == ''), d"
done
check "other budgets than the checkpoint's: exit 2" [ "$(rc_of sw --partitions 2 --batches 200 --checkpoint "$ck" "$T/c2")" = 2 ]

# --- --host-mem: the sweep is taken where the crawl would not fit
gen --seed 7 --webgraph crawl --vertices 1000000 "$T/big"
gen --seed 7 crawl --vertices 1000000 "$T/big.tsg"
ref_big=$(brute "$T/big.tsg")
check "reference count of a 1M-page crawl" num "$ref_big"
"$B/tristream" count --quiet --device cpu --json --host-mem 100M "$T/big" >"$T/hm.json"
check "--host-mem below the in-memory need: the sweep, exact" python3 -c "
import json; d = json.load(open('$T/hm.json'))
assert d['layout'] == 'sweep' and d['triangles'] == $ref_big and 'host-mem' in d['plan']['layout']['reason'], d"
check "... in several passes, the block taking all the budget leaves: nothing kept" python3 -c "
import json; d = json.load(open('$T/hm.json')); s = d['sweep']
assert d['passes'] >= 2 and s['kept_chunks'] == s['decoded_from_kept'] == s['kept_bytes'] == 0, s"
# ... with --checkpoint: the CPU's checkpoint units, said as the sweep's
# source blocks (planned for the block layout before auto took the sweep)
rm -f "$T/hm.ckpt"
"$B/tristream" count --quiet --device cpu --json --host-mem 100M --checkpoint "$T/hm.ckpt" "$T/big" >"$T/hm.json"
check "--host-mem below the need, --checkpoint: the sweep, exact, its units said as source blocks" python3 -c "
import json; d = json.load(open('$T/hm.json')); p = d['plan']['partitions']
assert d['layout'] == 'sweep' and d['triangles'] == $ref_big and d['passes'] >= 6, d
assert '--checkpoint on the CPU: 6 source blocks or more' in p['reason'] and 'units' not in p['reason'].split(',')[0], p"
check "--host-mem that holds the crawl: no sweep" sh -c "$B/tristream count --quiet --device cpu --json --host-mem 4G $T/c1 | grep -qv '\"layout\":\"sweep\"'"
# --host-mem over the CPU's figure of the in-memory count (about 258 MiB
# at 2 threads here): merged with its transpose in memory, as without it,
# not sorted through a scratch .tsg (before: 3x the time, more memory)
"$B/tristream" count --quiet --device cpu --threads 2 --json --host-mem 320M "$T/big" >"$T/hm.json"
check "--host-mem 320M holds the crawl: merged in memory, no scratch .tsg, exact" python3 -c "
import json; d = json.load(open('$T/hm.json')); h = d['host_mem']; i = d['input']
assert d['layout'] == 'block' and d['triangles'] == $ref_big, d
assert not i['scratch_tsg'] and i['transpose_merged'], i
assert h['mode'] == 'in-memory' and 250 << 20 < h['need_memory'] <= 270 << 20 and 'need_spill' not in h, h
assert 'holds its count in memory on the CPU' in d['plan']['input']['reason'], d['plan']['input']
assert 'scratch_dir' not in d['plan'], d['plan']"
"$B/tristream" count --quiet --device cpu --threads 2 --json --plan-only --scratch-dir "$T" --host-mem 320M "$T/big" >"$T/hm.json"
check "... its plan lists no scratch directory either, and says why (--plan-only)" python3 -c "
import json; d = json.load(open('$T/hm.json'))
assert 'scratch_dir' not in d['plan'] and d['host_mem']['mode'] == 'in-memory', d['plan']
assert '--scratch-dir: not used, --host-mem holds the crawl' in str(d.get('notes', d.get('note'))), d"
"$B/tristream" count --quiet --device cpu --threads 2 --json --plan-only --orient one-pass --host-mem 320M "$T/big" >"$T/hm.json"
check "... --orient one-pass, its second copy of the rows: 16 bytes an arc (about 311 MiB)" python3 -c "
import json; h = json.load(open('$T/hm.json'))['host_mem']
assert h['mode'] == 'in-memory' and 300 << 20 < h['need_memory'] <= 320 << 20, h"
"$B/tristream" count --quiet --device cpu --threads 2 --json --host-mem 240M "$T/big" >"$T/hm.json"
check "--host-mem 240M, below that figure: the sweep, exact" python3 -c "
import json; d = json.load(open('$T/hm.json'))
assert d['layout'] == 'sweep' and d['triangles'] == $ref_big, d"
# the figure against SIZE decides, not only the sweep's choice before it
# (which --layout block leaves out)
"$B/tristream" count --quiet --device cpu --threads 2 --json --host-mem 240M --layout block "$T/big" >"$T/hm.json"
check "--host-mem 240M --layout block, below that figure: through a scratch .tsg, exact" python3 -c "
import json; d = json.load(open('$T/hm.json'))
assert d['input']['scratch_tsg'] and d['triangles'] == $ref_big, d"
"$B/tristream" count --quiet --device cpu --threads 2 --json --host-mem 100M --layout block "$T/big" >"$T/hm.json"
check "--host-mem 100M --layout block: the scratch .tsg spilled, two passes said as the spill's (a review's finding)" python3 -c "
import json; d = json.load(open('$T/hm.json')); o = d['plan']['orient']
assert d['input']['scratch_tsg'] and d['host_mem']['mode'] == 'spill' and d['triangles'] == $ref_big, d
assert o['chosen'] == 'two-pass' and o['reason'].startswith('--host-mem spills'), o"
for o in "--per-vertex $T/hm.pv" "--checkpoint $T/hm2.ckpt" "--cpu-kernel wedge"; do
	rm -f "$T/hm2.ckpt"
	"$B/tristream" count --quiet --device cpu --threads 2 --json --host-mem 320M $o "$T/big" >"$T/hm.json"
	check "--host-mem 320M with ${o%% *} (not measured so): through a scratch .tsg, exact" python3 -c "
import json; d = json.load(open('$T/hm.json'))
assert d['input']['scratch_tsg'] and d['triangles'] == $ref_big, d"
done
check "--host-mem too small for even the sweep: exit 4" [ "$(rc_of sw --host-mem 1M "$T/big")" = 4 ]
check "... saying what it needs" grep -q "the sweep holds" "$T/err"
cg_run $((128 << 20)) "$B/tristream" count --quiet --device cpu --threads 2 --layout block "$T/big" >/dev/null 2>&1
cgrc=$?
if [ $cgrc != 99 ]; then
	check "in a 128 MiB cgroup the in-memory count fails ($cgrc)" [ $cgrc != 0 ]
	cg_run $((128 << 20)) "$B/tristream" count --quiet --device cpu --threads 2 --json "$T/big" >"$T/cg.json" 2>"$T/err"
	check "... and auto takes the sweep there by itself, exact" python3 -c "
import json; d = json.load(open('$T/cg.json'))
assert d['layout'] == 'sweep' and d['triangles'] == $ref_big and 'available' in d['plan']['layout']['reason'], d"
	# between the figure a GPU's path holds (about 168 MiB here) and the
	# CPU's figure (258 MiB; its peak 187 in two passes, 254 in one, the
	# way before): where the CPU counts,
	# auto takes the sweep (before: in memory, killed by the cgroup, 137)
	# (no --device where no GPU is here: auto on a CUDA build falls back to
	# the CPU, the case that was killed; where one is, --device cpu)
	dev=; [ "$(gpus_visible)" = 0 ] || dev="--device cpu"
	cg_run $((230 << 20)) "$B/tristream" count --quiet --threads 2 --json $dev "$T/big" >"$T/cg.json" 2>"$T/err"
	cgrc=$?
	check "in a 230 MiB cgroup, the CPU's in-memory need (258 MiB) over it: the sweep, exact (exit $cgrc)" python3 -c "
import json; d = json.load(open('$T/cg.json'))
assert d['layout'] == 'sweep' and d['triangles'] == $ref_big and 'available' in d['plan']['layout']['reason'], d"
	for hm in 72 100; do # the bound: --host-mem B holds within B + 24 MiB
		cg_run $(((hm + 24) << 20)) "$B/tristream" count --quiet --device cpu --threads 2 --json \
			--host-mem ${hm}M "$T/big" >"$T/cg.json" 2>"$T/err"
		check "--host-mem ${hm}M counts in a $((hm + 24)) MiB cgroup, by the sweep" python3 -c "
import json; d = json.load(open('$T/cg.json'))
assert d['layout'] == 'sweep' and d['triangles'] == $ref_big, d"
	done
	cg_run $(((320 + 24) << 20)) "$B/tristream" count --quiet --device cpu --threads 2 --json \
		--host-mem 320M "$T/big" >"$T/cg.json" 2>"$T/err"
	check "--host-mem 320M counts in a 344 MiB cgroup, merged in memory" python3 -c "
import json; d = json.load(open('$T/cg.json'))
assert d['layout'] == 'block' and not d['input']['scratch_tsg'] and d['triangles'] == $ref_big, d"
	# a denser crawl (45 arcs a node; LAW's have 25-45): in one pass, 12
	# bytes an arc (the figure first taken) let --host-mem 256M merge it in
	# memory, and a 280 MiB cgroup killed it (peak about 292 MiB); in two
	# (auto's way for a crawl) its peak is about 215 MiB and its figure,
	# at 12, 256 MiB: 240M takes the sweep, 260M merges it within 284 MiB
	gen --seed 7 --webgraph crawl --vertices 400000 --edge-factor 60 "$T/dense"
	gen --seed 7 crawl --vertices 400000 --edge-factor 60 "$T/dense.tsg"
	ref_dense=$(brute "$T/dense.tsg")
	check "reference count of the dense crawl" num "$ref_dense"
	for hm in 240 260; do
		cg_run $(((hm + 24) << 20)) "$B/tristream" count --quiet --device cpu --threads 2 --json \
			--host-mem ${hm}M "$T/dense" >"$T/cg.json" 2>"$T/err"
		cgrc=$?
		check "dense crawl, --host-mem ${hm}M in a $((hm + 24)) MiB cgroup: exact (exit $cgrc)" python3 -c "
import json; d = json.load(open('$T/cg.json'))
assert d['triangles'] == $ref_dense and (d['layout'] == 'sweep') == ($hm == 240), d
assert $hm == 240 or not d['input']['scratch_tsg'], d"
	done
	# with the block held to a third, the chunks kept fill what it leaves:
	# still within the bound
	cg_run $((124 << 20)) "$B/tristream" count --quiet --device cpu --threads 2 --json \
		--host-mem 100M --partitions 3 "$T/big" >"$T/cg.json" 2>"$T/err"
	check "--host-mem 100M --partitions 3, chunks kept, in a 124 MiB cgroup" python3 -c "
import json; d = json.load(open('$T/cg.json'))
assert d['layout'] == 'sweep' and d['triangles'] == $ref_big and d['sweep']['kept_chunks'] > 0, d"
else
	skip "no memory cgroup can be made here: the bound itself not tried (10 checks)"
fi

# --- a crawl that lies: exit 3 naming the file, on the sweep too
flip() { # FILE DIVISOR COUNT MASK: COUNT bytes from 1/DIVISOR of FILE on, XORed with MASK
	python3 -c 'import sys
p, d, n, m = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4], 0)
b = bytearray(open(p, "rb").read())
for i in range(len(b) // d, len(b) // d + n): b[i] ^= m
open(p, "wb").write(bytes(b))' "$@"
}
damaged_copy() { # a copy of c1 in T/bad, to damage
	rm -rf "$T/bad"; mkdir "$T/bad"
	for f in "$T"/c1.* "$T"/c1-t.*; do cp "$f" "$T/bad/${f##*/}"; done
}
refused() { # WHAT ARGS...: exit 3, and the message names a file of the crawl
	local what=$1; shift
	check "$what: exit 3" [ "$(rc_of sw "$@" "$T/bad/c1")" = 3 ]
	check "$what: the message names the crawl" grep -q "$T/bad/c1" "$T/err"
}
damaged_copy; gen --seed 9 --webgraph crawl --vertices 20000 --edge-factor 6 "$T/other"
for x in graph offsets properties; do cp "$T/other-t.$x" "$T/bad/c1-t.$x"; done
refused "the transpose of another crawl"
for t in 1 3; do
	check "another transpose, $t threads, 4 blocks: exit 3" [ "$(rc_of sw --threads $t --partitions 4 "$T/bad/c1")" = 3 ]
done
damaged_copy; truncate -s $(($(stat -c %s "$T/bad/c1.graph") / 2)) "$T/bad/c1.graph"
refused "a .graph cut in half (offsets past its end)"
# damaged .offsets: decoded on every thread in pieces that fall into step
# (io/webgraph.c, bv_read_offsets_par) where there are several threads, on
# one thread serially; both must refuse alike, with the same message
offsets_lie() { # WHAT: exit 3 at 1 and 3 threads, the same message, naming the file
	local what=$1 m1 m3
	check "$what: exit 3, one thread" [ "$(rc_of sw --threads 1 "$T/bad/c1")" = 3 ]
	m1=$(cat "$T/err")
	check "$what: exit 3, three threads" [ "$(rc_of sw --threads 3 "$T/bad/c1")" = 3 ]
	m3=$(cat "$T/err")
	check "$what: the same message on one thread and on three" [ -n "$m1" ] && [ "$m1" = "$m3" ]
	check "$what: the message names the crawl" grep -q "$T/bad/c1" "$T/err"
}
check "c1's offsets span several of the parallel decoder's pieces (4 Kibit at least)" \
	[ "$(stat -c %s "$T/c1.offsets")" -gt 24576 ]
damaged_copy; truncate -s $(($(stat -c %s "$T/bad/c1.offsets") * 3 / 5)) "$T/bad/c1.offsets"
offsets_lie "an .offsets cut short"
damaged_copy; python3 - "$T/bad/c1-t.offsets" <<'EOF'
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
b[len(b) // 2:] = bytes(len(b) - len(b) // 2) # zeros: one unary run to the end
open(p, 'wb').write(bytes(b))
EOF
offsets_lie "an .offsets whose second half is zeros"
damaged_copy; python3 - "$T/bad/c1.offsets" <<'EOF'
import sys
# gaps of about 2^56 (gamma: 55 zeros, a one, 55 ones) from the middle on:
# their sums pass 2^64; the first offset past the .graph is the one named
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
h = len(b) // 2
bits = ('0' * 55 + '1' + '1' * 55) * ((len(b) - h) * 8 // 111)
bits += '0' * (-len(bits) % 8)
big = int(bits, 2).to_bytes(len(bits) // 8, 'big')
b[h:h + len(big)] = big
open(p, 'wb').write(bytes(b))
EOF
offsets_lie "an .offsets of gaps near 2^56 from its middle on"
damaged_copy; flip "$T/bad/c1.offsets" 4 32 0x5a
offsets_lie "an .offsets with flipped bits"
damaged_copy; sed -i 's/^arcs=.*/arcs=12345/' "$T/bad/c1.properties" "$T/bad/c1-t.properties"
refused "arcs the lists do not have"
damaged_copy; sed -i 's/^nodes=.*/nodes=4000000000/' "$T/bad/c1.properties" "$T/bad/c1-t.properties"
refused "nodes the files cannot hold"
damaged_copy; flip "$T/bad/c1.graph" 3 64 0xa5
refused "flipped bits in the lists"
rm -f "$T/bad/c1-t.properties"
check "--layout sweep without a transpose: exit 3" [ "$(rc_of sw "$T/bad/c1")" = 3 ]
check "--layout sweep on a .tsg: exit 2" [ "$(rc_of sw "$T/c1.tsg")" = 2 ]
check "--layout sweep with --k: exit 2" [ "$(rc_of sw --k 4 "$T/c1")" = 2 ]

# --- bench/crawl_gsh.sh, the driver of the gsh-sized count, on the CPU at a
# small size: both routes, the memory held down by bench/hold_mem.py (to
# half a GiB under what is available), the counts equal to tests/brute's
# count of the .tsg the same arguments make
gen --seed 1 --edge-factor 48 crawl --vertices 30000 "$T/g48.tsg"
g48=$(brute "$T/g48.tsg")
check "reference count of the edge-factor-48 crawl" num "$g48"
av=$(awk '/^MemAvailable:/ { printf "%.2f", $2 / 1048576 - 0.5 }' /proc/meminfo)
MEM_CAP=$av DEVICE=cpu COUNT_CPUS=0 HOST_MEM=24M ROUTE2=1 \
	bash "$(dirname "$0")/../bench/crawl_gsh.sh" "$B" "$T/gsh" 30000 48 >"$T/gsh.out" 2>&1
gsh_rc=$?
if grep -q "^FAIL: memory not held.*mlock" "$T/gsh.out"; then
	skip "bench/crawl_gsh.sh: memory cannot be locked here (mlock); its run not tried"
else
	check "bench/crawl_gsh.sh on the CPU exits 0" [ $gsh_rc = 0 ]
	row=$(grep "^| 30000 " "$T/gsh.out")
	check "bench/crawl_gsh.sh: both routes count tests/brute's count" \
		same "$(echo "$row" | awk -F'|' '{ gsub(/ /, "", $9); print $9 }')" "$g48"
	check "bench/crawl_gsh.sh: route 2 the same" \
		same "$(echo "$row" | awk -F'|' '{ gsub(/ /, "", $10); print $10 }')" "$g48"
	check "bench/crawl_gsh.sh: the memory held through route 1" grep -q "^route 1's memory cap: .*held to the end" "$T/gsh.out"
fi

finish_checks
