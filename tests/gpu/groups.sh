#!/usr/bin/env bash
# tests/gpu/groups.sh [BUILD_DIR] [SHARED_GRAPHS_DIR] - the arrival layout
# in groups (kernels/gpu.h: the oriented rows outgrow the GPU's budget, so
# each group's edges with the earlier ones are counted at its end, their
# rows copied back a piece at a time). Graphs from tristream-gen (R-MAT,
# crawls) and the shared real graphs, each against tests/brute.c (no code
# shared with the engine) or its published count: budgets that force
# groups, region A capped (TSG_TEST_ARRIVAL_GROUP_ROWS) down to a batch so
# that a small graph takes many groups and pieces, several batch counts,
# every reader, the LZ4 file, hashed rows and small tables, per-vertex
# counts against the CPU's file (itself against brute); pairs whose records
# overflow one launch, and pairs not tallied (TSG_ARRIVAL_GROUP_TALLY=0);
# a group's own edges counted a unit of batches at a time, and a batch at a
# time (TSG_ARRIVAL_GROUP_UNITS=0);
# a group's batches counted against the earlier ones ahead of its end
# (TSG_ARRIVAL_GROUP_EARLY);
# the JSON says groups ran; a budget too small for a batch fails with exit 4;
# the rows' host memory pinned ahead, in chunks of 2 MiB (arrays across
# their bounds) and not at all (TSG_ARRIVAL_GROUP_ARENA=0);
# auto's choice of groups (the line lowered by TSG_TEST_AUTO_GROUPS_ROWS);
# a BVGraph crawl decoded as it is counted, in groups;
# TSG_TEST_ARRIVAL_GROUPS=1 takes groups where every row would fit, so
# that any batch count can be tried; groups on several GPUs (two and
# three contexts of GPU 0 where one is visible: tests/lib.sh's
# gpus_visible, NGPU overrides), against one
# GPU's JSON;
# compute-sanitizer's memcheck over many groups. Ends with "N passed, N failed".
set -u
SECONDS=0
B=${1:-build}
SHARED=${2:-../shared/graphs}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# check, ok, bad, skip, finish_checks, num, same
. "$(dirname "$0")/../lib.sh"
gen() { "$B/tristream-gen" --quiet "$@" || bad "tristream-gen $*"; }
# graph, args... -> triangles, or the groups, batches or exit that went wrong
cnt() {
	local g=$1
	shift
	"$B/tristream" count --quiet --json --device gpu --layout arrival "$@" "$g" 2>"$T/err" |
		python3 -c 'import json,sys; d=json.load(sys.stdin)
print(d["triangles"] if d["layout"] == "arrival" and d["groups"] > 0 else "no groups: %s layout, %s groups" % (d["layout"], d.get("groups")))' 2>/dev/null ||
		echo "ERR $(head -c 300 "$T/err")"
}
# the budget that cannot hold every row on the device: a third of the
# lists' bytes, plus 12 bytes a vertex (rank, id_of, a region's index)
budget() {
	"$B/tristream" info --json "$1" | python3 -c 'import json,sys; d=json.load(sys.stdin)
print(d["edges"] * 8 // 3 + d["id_range"] * 12 + 4194304)'
}

gen --seed 5 rmat --scale 16 "$T/r16.tsg"
gen --seed 6 rmat --scale 18 "$T/r18.tsg"
gen --seed 3 crawl --vertices 200000 --edge-factor 8 "$T/c.tsg"
"$B/tristream" compress --quiet "$T/r18.tsg" "$T/z.tsg" || bad "compress R-MAT 18"
graphs="$T/r16.tsg $T/r18.tsg $T/c.tsg"
for g in $graphs; do
	r=$("$B/tests/brute" "$g")
	num "$r" && ok || bad "no reference count for $(basename "$g")"
	eval "ref_$(basename "$g" .tsg)=\$r"
done
# each graph's per-vertex counts on the CPU, made once (R-MAT 16's checked
# against brute's below): $(cpv GRAPH)
cpv() { echo "$T/$(basename "$1" .tsg).cpu.pv"; }
for g in $graphs; do
	"$B/tristream" count --quiet --device cpu --per-vertex "$(cpv "$g")" "$g" >/dev/null 2>&1
done
for g in $graphs; do
	echo "groups.sh: $(basename "$g") from ${SECONDS}s"
	ref=$(eval echo "\$ref_$(basename "$g" .tsg)")
	m=$(budget "$g")
	for o in "" "--tile 64"; do
		got=$(cnt "$g" --gpu-mem "$m" $o)
		same "$got" "$ref" && ok || bad "$(basename "$g") groups, --gpu-mem $m $o: $got, not $ref"
	done
	# region A capped: many groups, pieces of one batch or a few
	for rows in 1 20000 100000; do
		for o in "--batches 16" "--batches 64"; do
			got=$(TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=$rows cnt "$g" $o)
			same "$got" "$ref" && ok || bad "$(basename "$g") groups, A at most $rows rows, $o: $got, not $ref"
		done
	done
	got=$(TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=100000 cnt "$g" --batches 200)
	same "$got" "$ref" && ok || bad "$(basename "$g") groups, A at most 100000 rows, 200 batches: $got, not $ref"
	for io in uring pread mmap; do
		got=$(TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=20000 cnt "$g" --batches 50 --io $io)
		same "$got" "$ref" && ok || bad "$(basename "$g") groups, --io $io: $got, not $ref"
	done
	got=$(TSG_TEST_MID_HASH_BITS=0 TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=20000 cnt "$g" --batches 40 --tile 64)
	same "$got" "$ref" && ok || bad "$(basename "$g") groups, hashed rows, 64 slots: $got, not $ref"
	# per-vertex counts: the CPU's file, itself against brute's (the
	# smallest graph's: brute takes minutes on the others)
	if [ "$g" = "$T/r16.tsg" ]; then
		"$B/tests/brute" --per-vertex "$g" >"$T/brute.pv"
		cmp -s "$(cpv "$g")" "$T/brute.pv" && ok || bad "$(basename "$g") CPU per-vertex differs from brute"
	fi
	for rows in 3000 0; do
		rm -f "$T/gpu.pv"
		got=$(TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=${rows/#0/} cnt "$g" --batches 30 --per-vertex "$T/gpu.pv")
		same "$got" "$ref" && [ -f "$T/gpu.pv" ] && cmp -s "$T/gpu.pv" "$(cpv "$g")" && ok ||
			bad "$(basename "$g") groups per-vertex (A at most ${rows/#0/any} rows): $got, not $ref, or files differ"
	done
done
# the LZ4 file, decoded as it is read
m18=$(budget "$T/r18.tsg") # R-MAT 18's own budget (the loops below set m per graph)
got=$(TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=50000 cnt "$T/z.tsg" --batches 33)
same "$got" "$ref_r18" && ok || bad "R-MAT 18 LZ4 in groups: $got, not $ref_r18"
# what the JSON says of the groups
TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=20000 "$B/tristream" count --quiet --json --device gpu --layout arrival \
	--batches 50 "$T/r18.tsg" >"$T/g.json" 2>/dev/null
python3 -c "
import json; d = json.load(open('$T/g.json')); a = d['arrival_groups']
assert d['triangles'] == $ref_r18 and d['groups'] >= 3, d
# every group's rows but the last's (no later group reads those) went out:
# 4 bytes an oriented edge (d['edges'] of them), 8 an id
assert a['group_rows'] > 0 and 0 < a['rows_out_bytes'] < 4 * d['edges'] + 8 * d['id_range'], a
assert a['rows_back_bytes'] > 0 and a['pair_launches'] > 0 and a['group_end_s'] >= 0, a
assert 'groups' in d['note'], d['note']" && ok || bad "groups said in the JSON and the note: $(head -c 400 "$T/g.json")"
# the groups' host rows pinned ahead (kernels/pinned_arena.cuh): chunks of
# 2 MiB, so that arrays and the pieces copied back cross the chunks' bounds
# (each its own registration); and no arena (TSG_ARRIVAL_GROUP_ARENA=0, a
# bench's comparison): every array cudaMallocHost'd, said as fallbacks
# with their reason
for g in $graphs; do
	ref=$(eval echo "\$ref_$(basename "$g" .tsg)")
	for env in "TSG_TEST_ARENA_CHUNK_MIB=2" "TSG_ARRIVAL_GROUP_ARENA=0"; do
		env $env TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=100000 "$B/tristream" count --quiet --json \
			--device gpu --layout arrival --batches 64 "$g" >"$T/a.json" 2>/dev/null
		python3 -c "
import json; d = json.load(open('$T/a.json')); a = d['arrival_groups']
assert d['triangles'] == $ref and d['groups'] >= 2, d
arena = '$env' != 'TSG_ARRIVAL_GROUP_ARENA=0'
assert (a['rows_alloc_fallbacks'] == 0) == arena and a['rows_alloc_fallbacks'] in (0, 3 * (d['groups'] - 1)), a
assert ('rows_alloc_fallback_why' in a) == (not arena), a
assert arena or 'TSG_ARRIVAL_GROUP_ARENA=0' in a['rows_alloc_fallback_why'], a
assert 0 <= a['rows_alloc_s'] <= a['group_end_s'], a" && ok ||
			bad "$(basename "$g") groups with $env: $(head -c 400 "$T/a.json")"
	done
done
# TSG_ARRIVAL_GROUP_TALLY=0 (a bench's comparison): no pair tallied, its
# sources cut into launches by rows as before the tally; and
# TSG_ARRIVAL_GROUP_UNITS=0 (another): a group's own edges counted a batch
# a launch, as before session 52 (units: below)
for g in $graphs; do
	ref=$(eval echo "\$ref_$(basename "$g" .tsg)")
	for knob in "TSG_ARRIVAL_GROUP_TALLY=0:untallied" "TSG_ARRIVAL_GROUP_UNITS=0:a batch a launch (units off)"; do
		for o in "--batches 64" "--batches 200" "--batches 16 --per-vertex $T/k.pv"; do
			rm -f "$T/k.pv"
			got=$(export "${knob%%:*}"; TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=100000 cnt "$g" $o)
			same "$got" "$ref" && { [ "${o#*per-vertex}" = "$o" ] || cmp -s "$T/k.pv" "$(cpv "$g")"; } && ok ||
				bad "$(basename "$g") groups ${knob#*:}, A at most 100000 rows, $o: $got, not $ref, or per-vertex files differ"
		done
	done
done
# units (arrival_unit_launch): a group's own edges counted a unit of
# consecutive batches at a time, as many as the record region surely
# holds (TSG_ARRIVAL_GROUP_UNITS=0, above: each batch alone). Per-vertex
# over units of several batches; the JSON says how many unit launches: none with the knob,
# fewer than the batches at a budget (256 batches: a unit holds several;
# R-MAT 18 and the crawl: R-MAT 16's rows fit that budget in 64 or 256
# batches, whose scratch is smaller than the default's, so no groups, the
# first GPU run of this check), one a batch where region A is capped to
# 400000 rows (its records, a quarter of A, hold a batch alone: each unit
# one batch, the flush after every batch tried)
for g in $graphs; do
	ref=$(eval echo "\$ref_$(basename "$g" .tsg)")
	[ "$g" = "$T/r16.tsg" ] && continue
	m=$(budget "$g")
	# per-vertex over units of several batches in several groups
	rm -f "$T/u.pv"
	got=$(cnt "$g" --gpu-mem "$m" --batches 256 --per-vertex "$T/u.pv")
	same "$got" "$ref" && [ -f "$T/u.pv" ] && cmp -s "$T/u.pv" "$(cpv "$g")" && ok ||
		bad "$(basename "$g") groups per-vertex, units at a budget: $got, not $ref, or files differ"
	for u in "" 0; do
		TSG_ARRIVAL_GROUP_UNITS=$u "$B/tristream" count --quiet --json --device gpu --layout arrival \
			--gpu-mem "$m" --batches 256 "$g" >"$T/u$u.json" 2>/dev/null
	done
	python3 -c "
import json; d = json.load(open('$T/u.json')); o = json.load(open('$T/u0.json'))
a, b = d['arrival_groups'], o['arrival_groups']
assert d['triangles'] == o['triangles'] == $ref and d['groups'] == o['groups'] >= 2, (d, o)
assert d['groups'] <= a['unit_launches'] < d['batches'] and b['unit_launches'] == 0, (a, b)" &&
		ok || bad "$(basename "$g") units said in the JSON, on and off: $(grep -ho '"arrival_groups":{[^}]*}' "$T/u.json" "$T/u0.json")"
done
TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=400000 "$B/tristream" count --quiet --json --device gpu \
	--layout arrival --batches 64 "$T/r18.tsg" >"$T/u1.json" 2>/dev/null
python3 -c "
import json; d = json.load(open('$T/u1.json')); a = d['arrival_groups']
assert d['triangles'] == $ref_r18 and a['unit_launches'] == d['batches'] == 64, a" &&
	ok || bad "units of one batch each (region A capped): $(head -c 400 "$T/u1.json")"
# records past what one launch may take (TSG_TEST_ARRIVAL_PAIR_RECORDS: a
# pair's launch held to 5000 records, a batch's launch still whole): the
# tallied pair cut into launches by rows. (TSG_ARRIVAL_GROUP_REC=1024
# alone never split there: the region holds at least a batch's entries,
# more than a pair of R-MAT 18's got; its first GPU run, session 39)
TSG_TEST_ARRIVAL_PAIR_RECORDS=5000 TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=400000 \
	"$B/tristream" count --quiet --json --device gpu --layout arrival --batches 256 "$T/r18.tsg" >"$T/s.json" 2>/dev/null
python3 -c "
import json; d = json.load(open('$T/s.json')); a = d['arrival_groups']
assert d['triangles'] == $ref_r18 and a['pair_split'] > 0, a" &&
	ok || bad "groups whose pairs' records take several launches: $(head -c 400 "$T/s.json")"
# TSG_ARRIVAL_GROUP_EARLY=N (a bench's knob): after N per mille of the
# batches, the current group's batches so far counted against the earlier
# groups, its end the rest. Exact at five settings on every graph, with
# region A capped, records held short (several launches a pair), pairs
# untallied, per-vertex; the JSON says where it acted (64 batches, 500 per
# mille: before batch 32) and the pieces it copied back, no fewer bytes
# came back than without it (more, unless a group ends at batch 32: region
# A of 400000 rows takes several batches a group; of 100000, one, so the
# knob only moved a group's end, its first GPU run), and the note names
# it; without the knob, nothing said
for g in $graphs; do
	ref=$(eval echo "\$ref_$(basename "$g" .tsg)")
	for pm in 1 300 500 940 999; do
		got=$(TSG_ARRIVAL_GROUP_EARLY=$pm TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=100000 cnt "$g" --batches 64)
		same "$got" "$ref" && ok || bad "$(basename "$g") groups, early at $pm per mille: $got, not $ref"
	done
	got=$(TSG_ARRIVAL_GROUP_EARLY=700 TSG_TEST_ARRIVAL_PAIR_RECORDS=5000 TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=20000 cnt "$g" --batches 100)
	same "$got" "$ref" && ok || bad "$(basename "$g") groups, early, records held short: $got, not $ref"
	got=$(TSG_ARRIVAL_GROUP_EARLY=600 TSG_ARRIVAL_GROUP_TALLY=0 TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=20000 cnt "$g" --batches 100)
	same "$got" "$ref" && ok || bad "$(basename "$g") groups, early, untallied: $got, not $ref"
	rm -f "$T/gpu.pv"
	got=$(TSG_ARRIVAL_GROUP_EARLY=800 TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=3000 cnt "$g" --batches 30 --per-vertex "$T/gpu.pv")
	same "$got" "$ref" && [ -f "$T/gpu.pv" ] && cmp -s "$T/gpu.pv" "$(cpv "$g")" && ok ||
		bad "$(basename "$g") groups per-vertex, early: $got, not $ref, or files differ"
done
for pm in "" 500; do
	TSG_ARRIVAL_GROUP_EARLY=$pm TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=400000 "$B/tristream" count \
		--quiet --json --device gpu --layout arrival --batches 64 "$T/r18.tsg" >"$T/e$pm.json" 2>/dev/null
done
python3 -c "
import json; d = json.load(open('$T/e500.json')); o = json.load(open('$T/e.json'))
a, b = d['arrival_groups'], o['arrival_groups']
assert d['triangles'] == o['triangles'] == $ref_r18 and d['groups'] == o['groups'] >= 2, (d, o)
assert a['early_batch'] == 32 and a['early_pieces'] > 0, a
assert a['rows_back_bytes'] >= b['rows_back_bytes'] > 0, (a, b)
assert 'TSG_ARRIVAL_GROUP_EARLY' in d['note'] and 'before it' in d['note'], d['note']
assert 'early_batch' not in b and 'EARLY' not in o['note'], (b, o['note'])" &&
	ok || bad "groups early: the JSON with and without it: $(grep -ho '"arrival_groups":{[^}]*}' "$T/e500.json" "$T/e.json")"
# auto takes groups only where the rows reach ENGINE_AUTO_GROUPS_ROWS (1.875
# GiB: R-MAT 18's do not, so the block layout) and fill at most 12 regions
# A. With the line lowered (TSG_TEST_AUTO_GROUPS_ROWS=1), at budgets of
# one to four times $m18: groups where --layout arrival's region A (its
# JSON's group_rows) takes the edges in 12 or fewer, else the block layout;
# and at least one budget of groups, or the rule went untried. The plan's
# layout reason says which: in groups, or every row held
lay=$("$B/tristream" count --quiet --json --device gpu --gpu-mem "$m18" "$T/r18.tsg" 2>/dev/null |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["layout"])' 2>/dev/null)
[ "$lay" = block ] && ok || bad "auto under a small --gpu-mem, rows below the line: $lay, not block"
took=0
for x in 1 2 3 4; do
	"$B/tristream" count --quiet --json --device gpu --layout arrival --gpu-mem $((m18 * x)) "$T/r18.tsg" >"$T/f.json" 2>/dev/null
	TSG_TEST_AUTO_GROUPS_ROWS=1 "$B/tristream" count --quiet --json --device gpu --gpu-mem $((m18 * x)) "$T/r18.tsg" >"$T/u.json" 2>/dev/null
	want=$(python3 -c "
import json; f = json.load(open('$T/f.json'))
g = f.get('arrival_groups')
print('fits' if not g else 'groups' if f['edges'] <= 12 * g['group_rows'] else 'block')" 2>/dev/null)
	got=$(python3 -c "
import json; d = json.load(open('$T/u.json'))
assert d['triangles'] == $ref_r18, d['triangles']
why = d['plan']['layout']['reason']  # the plan says what happened (session 53)
assert d['layout'] != 'arrival' or 'arrival layout' in d['plan']['kernel']['reason'], d['plan']
print('groups' if d['layout'] == 'arrival' and d['groups'] > 0 and 'auto' in d['note'] and
      'in groups' in why and 'holds every' not in why else
      'fits' if d['layout'] == 'arrival' and d['groups'] == 0 and 'holds every' in why else
      d['layout'])" 2>/dev/null)
	[ "$want" = groups ] && took=$((took + 1))
	[ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "auto, the line lowered, --gpu-mem $((m18 * x)): '$got', wanted '$want'"
done
[ $took -gt 0 ] && ok || bad "auto, the line lowered: no budget of 1-4 x $m18 took groups, the rule untried"
# a crawl decoded as it is counted (BVGraph with its transpose): its lists
# placed as they come, in groups
"$B/tristream-gen" --quiet --webgraph crawl --vertices 200000 --seed 3 "$T/dcrawl" || bad "tristream-gen --webgraph"
gen crawl --vertices 200000 --seed 3 "$T/dcrawl.tsg"
cref=$("$B/tests/brute" "$T/dcrawl.tsg")
for nb in 30 120; do
	TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=50000 "$B/tristream" count --quiet --json --device gpu \
		--layout arrival --batches $nb "$T/dcrawl" >"$T/d.json" 2>/dev/null
	python3 -c "
import json; d = json.load(open('$T/d.json'))
assert d['triangles'] == $cref and d['groups'] >= 2 and d['input']['decoded_while_counting'], d" && ok ||
		bad "BVGraph crawl decoded as counted, in groups, $nb batches: $(head -c 300 "$T/d.json"), brute $cref"
done
# groups on several GPUs (gpu.h): each builds the same groups, files its
# share of each batch's edges and counts every n-th piece of the earlier
# groups; the leader alone saves the rows. Two GPUs where there are two,
# else two and three contexts of GPU 0 (TRISTREAM_TEST_GPU_REPEAT, as
# tests/gpu/multi.sh: the same code, its exactness not its speed)
ngpu=$(gpus_visible)
# per: a budget for each where contexts share one GPU (without one, the
# first two contexts' default budgets left a third 508 MiB of an H100:
# exit 4, session 40's first run of this section)
per=""
if [ "$ngpu" -ge 2 ]; then
	gls="0,1"
	[ "$ngpu" -ge 3 ] && gls="$gls 0,1,2"
else
	gls="0,0 0,0,0"
	per="--gpu-mem 4G"
	export TRISTREAM_TEST_GPU_REPEAT=1
fi
for gl in $gls; do
	n=$(echo "$gl" | tr ',' '\n' | wc -l)
	for g in $graphs; do
		ref=$(eval echo "\$ref_$(basename "$g" .tsg)")
		m=$(budget "$g")
		got=$(cnt "$g" --gpus "$gl" --gpu-mem "$m")
		same "$got" "$ref" && ok || bad "$(basename "$g") groups on --gpus $gl, --gpu-mem $m: $got, not $ref"
		for rows in 1 20000 100000; do
			got=$(TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=$rows cnt "$g" --gpus "$gl" --batches 64 $per)
			same "$got" "$ref" && ok || bad "$(basename "$g") groups on --gpus $gl, A at most $rows rows: $got, not $ref"
		done
		rm -f "$T/gpu.pv"
		got=$(TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=3000 cnt "$g" --gpus "$gl" --batches 30 --per-vertex "$T/gpu.pv" $per)
		same "$got" "$ref" && [ -f "$T/gpu.pv" ] && cmp -s "$T/gpu.pv" "$(cpv "$g")" && ok ||
			bad "$(basename "$g") groups per-vertex on --gpus $gl: $got, not $ref, or files differ"
	done
	# every GPU took part, the pieces dealt among them, the rows saved once
	TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=20000 "$B/tristream" count --quiet --json --device gpu \
		--layout arrival --gpus "$gl" --batches 50 $per "$T/r18.tsg" >"$T/m.json" 2>/dev/null
	TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=20000 "$B/tristream" count --quiet --json --device gpu \
		--layout arrival --batches 50 $per "$T/r18.tsg" >"$T/o.json" 2>/dev/null
	python3 -c "
import json; d = json.load(open('$T/m.json')); o = json.load(open('$T/o.json'))
a, b = d['arrival_groups'], o['arrival_groups']
assert d['triangles'] == o['triangles'] == $ref_r18, (d['triangles'], o['triangles'])
assert len(d['gpus']) == $n and all(x['units'] == d['batches'] for x in d['gpus']), d['gpus']
assert d['groups'] == o['groups'] >= 3 and a['group_rows'] == b['group_rows'], (a, b)
assert a['rows_out_bytes'] == b['rows_out_bytes'], (a, b)
assert a['rows_back_bytes'] == b['rows_back_bytes'] and a['pair_launches'] == b['pair_launches'], (a, b)
assert 'groups on $n GPUs' in d['note'] and 'GPUs' not in o['note'], (d['note'], o['note'])" &&
		ok || bad "groups on --gpus $gl: the JSON against one GPU's: $(head -c 400 "$T/m.json")"
	# TSG_ARRIVAL_GROUP_EARLY is one device's: on several it does not act
	TSG_ARRIVAL_GROUP_EARLY=500 TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=20000 "$B/tristream" count \
		--quiet --json --device gpu --layout arrival --gpus "$gl" --batches 50 $per "$T/r18.tsg" >"$T/me.json" 2>/dev/null
	python3 -c "
import json; d = json.load(open('$T/me.json'))
assert d['triangles'] == $ref_r18 and d['groups'] >= 3, d
assert 'early_batch' not in d['arrival_groups'] and 'EARLY' not in d['note'], d" &&
		ok || bad "groups early on --gpus $gl: $(head -c 400 "$T/me.json")"
	# auto takes groups on every GPU listed (the line lowered)
	got=$(TSG_TEST_AUTO_GROUPS_ROWS=1 "$B/tristream" count --quiet --json --device gpu --gpus "$gl" \
		--gpu-mem "$m18" "$T/r18.tsg" 2>/dev/null | python3 -c '
import json,sys; d = json.load(sys.stdin)
print(d["triangles"] if d["layout"] == "arrival" and d["groups"] > 0 and len(d["gpus"]) == '"$n"' else
      "%s layout, %s groups, %s GPUs" % (d["layout"], d["groups"], len(d.get("gpus", []))))' 2>/dev/null)
	same "$got" "$ref_r18" && ok || bad "auto on --gpus $gl, the line lowered, --gpu-mem $m18: $got"
	# ... and where the file lies in the page cache (io_cached, so the plan's
	# cached rule was reached) and is large (the size lowered by
	# TSG_TEST_ALL_GPUS_EDGES): groups on every GPU too, said, and not the
	# ungrouped arrival layout's page-cache note
	cat "$T/r18.tsg" >/dev/null
	got=$(TSG_TEST_ALL_GPUS_EDGES=1 TSG_TEST_AUTO_GROUPS_ROWS=1 "$B/tristream" count --quiet --json --device gpu \
		--gpus "$gl" --gpu-mem "$m18" "$T/r18.tsg" 2>/dev/null | python3 -c '
import json,sys; d = json.load(sys.stdin); n = int(sys.argv[1])
print(d["triangles"] if d["layout"] == "arrival" and d["groups"] > 0 and len(d.get("gpus", [])) == n and
      "groups on %d GPUs" % n in d["note"] and "alone" not in d["note"] and
      "as the file was in the page cache" not in d["note"] and d.get("io_cached", 0) >= 0.9 else
      "%s layout, %s groups, %s GPUs, io_cached %s: %s" % (d["layout"], d["groups"],
      len(d.get("gpus", [])), d.get("io_cached"), d["note"]))' "$n" 2>/dev/null)
	same "$got" "$ref_r18" && ok || bad "auto on --gpus $gl, the file cached, --gpu-mem $m18: $got"
done
if command -v compute-sanitizer >/dev/null 2>&1; then
	gl=${gls%% *}
	TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=3000 compute-sanitizer --tool memcheck --error-exitcode 99 \
		--log-file "$T/san2" "$B/tristream" count --quiet --json --device gpu --layout arrival --gpus "$gl" \
		--batches 24 "$T/r16.tsg" >"$T/s2.json" 2>/dev/null
	rc=$?
	got=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["triangles"])' <"$T/s2.json" 2>/dev/null)
	same "$rc" 0 && same "$got" "$ref_r16" && ok ||
		bad "memcheck over groups on --gpus $gl: exit $rc, count $got: $(grep -m3 -E 'ERROR|Invalid' "$T/san2")"
fi
unset TRISTREAM_TEST_GPU_REPEAT
# a budget too small for a batch: exit 4, said
"$B/tristream" count --quiet --device gpu --layout arrival --gpu-mem 1M "$T/r18.tsg" >/dev/null 2>"$T/err"
rc=$?
same "$rc" 4 && grep -q "arrival" "$T/err" && ok || bad "--layout arrival --gpu-mem 1M: exit $rc, $(head -c 200 "$T/err")"
# the shared graphs against their published counts
while read -r name want; do
	f="$SHARED/$name"
	if [ ! -f "$f" ]; then
		skip "$name (not in $SHARED)"
		continue
	fi
	got=$(TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=30000 cnt "$f" --batches 40)
	same "$got" "$want" && ok || bad "$name in groups: $got, not $want"
done <<'EOF'
ca-HepPh.txt 3358499
soc-Slashdot0902.txt.gz 602592
email-Eu-core.txt 105461
ca-GrQc.txt 48260
EOF
if command -v compute-sanitizer >/dev/null 2>&1; then
	TSG_TEST_ARRIVAL_GROUPS=1 TSG_TEST_ARRIVAL_GROUP_ROWS=3000 compute-sanitizer --tool memcheck --error-exitcode 99 --log-file "$T/san" \
		"$B/tristream" count --quiet --json --device gpu --layout arrival --batches 24 --per-vertex "$T/s.pv" "$T/r16.tsg" >"$T/s.json" 2>/dev/null
	rc=$?
	same "$rc" 0 && ok || bad "memcheck over groups: exit $rc: $(grep -m3 -E 'ERROR|Invalid' "$T/san")"
	got=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["triangles"])' <"$T/s.json" 2>/dev/null)
	same "$got" "$ref_r16" && ok || bad "memcheck over groups: count $got, not $ref_r16"
else
	skip "compute-sanitizer not installed"
fi
echo "groups.sh: ${SECONDS}s"
finish_checks
