#!/usr/bin/env bash
# tests/batch.sh BUILD_DIR SRC_DIR - what overnight batch jobs rely on, on the
# CPU backend: per-vertex counts and clustering against tests/brute.c (which
# shares no code with the engine) in every layout, in and out of core;
# checkpoints killed at random moments and resumed, stopped by SIGTERM,
# damaged, mismatched; a checkpoint directory over many graphs.
# Ends with "N passed, N failed".
set -u
B=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# check, num, same, cg_run, wait_size
. "$(dirname "$0")/lib.sh"
# two files with the same bytes, neither empty
same_file() { [ -s "$1" ] && [ -s "$2" ] && cmp -s "$1" "$2"; }
brute() { "$B/tests/brute" "$@"; }
ts() { "$B/tristream" count --quiet --device cpu "$@"; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }
rc_of() { "$@" >"$T/out" 2>"$T/err"; echo $?; }
# a count killed (SIGKILL) after SECONDS, waited for until it is gone
# (timeout -s KILL kills itself too and does not wait)
killed_after() {
	local d=$1; shift
	"$B/tristream" count --quiet --device cpu "$@" >/dev/null 2>&1 &
	local pid=$!
	sleep "$d"
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
}

# --- per-vertex counts and clustering
gzip -dc "$SRC/tests/data/karate.txt.gz" >"$T/karate.txt"
"$B/tristream-convert" --quiet "$T/karate.txt" "$T/karate.tsg"
brute --per-vertex "$T/karate.txt" >"$T/karate.ref"
check "reference per-vertex counts sum to 3 x 45" same "$(awk '{s+=$2} END {print s}' "$T/karate.ref")" 135
check "reference clustering of karate is NetworkX's (0.2557, 0.5706)" \
	python3 -c "t, a = map(float, open('/dev/stdin').read().split()); assert round(t, 4) == 0.2557 and round(a, 4) == 0.5706" < <(brute --clustering "$T/karate.txt")
for l in block lstc arrival; do
	ts --layout $l --per-vertex "$T/k-$l.pv" "$T/karate.tsg" >/dev/null
	check "karate per-vertex, $l layout" same_file "$T/k-$l.pv" "$T/karate.ref"
	ts --layout $l --json --clustering "$T/karate.tsg" >"$T/k.json"
	check "karate clustering, $l layout" python3 -c "
import json; d = json.load(open('$T/k.json'))
t, a = map(float, open('/dev/stdin').read().split())
assert abs(d['transitivity'] - t) < 1e-6 and abs(d['average_clustering'] - a) < 1e-6, d" < <(brute --clustering "$T/karate.txt")
done
check "text output names the figures" sh -c "$B/tristream count --quiet --device cpu --clustering $T/karate.tsg | grep -q '^transitivity: 0.255682'"
# random graphs of several shapes, every layout, in and out of core
i=0
for spec in "er --vertices 300 --edges 4000" "rmat --scale 11" "web --vertices 3000" "crawl --vertices 20000 --edge-factor 6" "clique --vertices 40" "star --vertices 50" "empty --vertices 10"; do
	i=$((i+1))
	"$B/tristream-gen" --quiet --seed $i $spec "$T/g$i.tsg"
	brute --per-vertex "$T/g$i.tsg" >"$T/g$i.ref"
	for opt in "--layout block" "--layout block --partitions 5" "--layout block --cpu-kernel merge --partitions 3" \
		   "--layout block --cpu-kernel wedge" "--layout lstc --partitions 4" "--layout lstc --partitions 3 --scheme hash" \
		   "--layout arrival --batches 7"; do
		rm -f "$T/g.pv"
		ts $opt --per-vertex "$T/g.pv" "$T/g$i.tsg" >/dev/null 2>"$T/err"
		if [ -s "$T/g$i.ref" ]; then
			check "per-vertex ${spec%% *} ($opt)" same_file "$T/g.pv" "$T/g$i.ref"
		else # no edges: nothing to list
			check "per-vertex ${spec%% *} ($opt): empty" sh -c "[ -f $T/g.pv ] && [ ! -s $T/g.pv ]"
		fi
	done
done
# bounded host memory: the oriented graph spilled to a scratch file
read -r need spill < <(ts --json --host-mem 1G "$T/g2.tsg" | python3 -c "import json,sys; h = json.load(sys.stdin)['host_mem']; print(h['need_memory'], h['need_spill'])")
ts --json --host-mem $(( (need + spill) / 2 )) --per-vertex "$T/g.pv" "$T/g2.tsg" >"$T/spill.json"
check "per-vertex with the graph spilled (--host-mem)" sh -c "grep -q '\"mode\":\"spill\"' $T/spill.json && cmp -s $T/g.pv $T/g2.ref"
# the per-thread figure holds the CPU kernel's bitmap of every id (R-MAT
# 23 in memory on 32 threads peaked 25 MiB over a figure without it): on 2
# M ids, 256 KiB a thread beside the ranking's 512 KiB
"$B/tristream-gen" --quiet --seed 2 rmat --scale 21 --edge-factor 1 "$T/wide.tsg"
nvw=$("$B/tristream" info --json "$T/wide.tsg" | field id_range)
read -r m2 m32 < <(for t in 2 32; do "$B/tristream" count --quiet --plan-only --json --device cpu \
	--threads $t --host-mem 1T "$T/wide.tsg" | python3 -c "import json,sys; print(json.load(sys.stdin)['host_mem']['need_memory'])"; done | tr '\n' ' ')
check "--host-mem's figure grows by each thread's histograms and bitmap (${m2:-?} -> ${m32:-?})" \
	python3 -c "assert $nvw >= 1 << 21 and $m32 - $m2 >= 30 * (512 * 1024 + $nvw // 8), $m32 - $m2"
rm -f "$T/wide.tsg"
# the wedge kernel's records (16 bytes an oriented edge, 8 a vertex) are in
# both figures: left out before, --host-mem did not bound them (an R-MAT
# 20 spilled under --host-mem 100M was killed by a 124 MiB cgroup)
"$B/tristream-gen" --quiet --seed 3 rmat --scale 18 "$T/wq.tsg"
ne=$("$B/tristream" info --json "$T/wq.tsg" | field edges)
hm_of() { "$B/tristream" count --quiet --plan-only --json --device cpu --threads 2 --host-mem 1T "$@" "$T/wq.tsg" |
	python3 -c "import json,sys; h = json.load(sys.stdin)['host_mem']; print(h['need_memory'], h['need_spill'])"; }
read -r hmem hspill < <(hm_of --cpu-kernel hash)
read -r wmem wspill < <(hm_of --cpu-kernel wedge)
# (--plan-only counts nothing per vertex: these two count)
hpv_of() { ts --json --threads 2 --host-mem 1T --per-vertex "$T/wq.pv" "$@" "$T/wq.tsg" |
	python3 -c "import json,sys; h = json.load(sys.stdin)['host_mem']; print(h['need_spill'])"; }
pspill=$(hpv_of --cpu-kernel wedge)
hpspill=$(hpv_of --cpu-kernel hash)
check "--cpu-kernel wedge's records in both figures (${hspill:-?} -> ${wspill:-?})" python3 -c "
w = 16 * ${ne:-0} + 8 * 2
assert ${ne:-0} > 1 << 20 and $wspill - $hspill >= w and $wmem - $hmem >= w, ($hspill, $wspill)"
check "... not where per-vertex counts run hash instead (${pspill:-?})" [ "${pspill:-x}" = "${hpspill:-y}" ]
# in memory, one pass holds where each row lies and a copy of the rows;
# two hold neither (a review's finding: the figure held them either way)
read -r omem ospill < <(hm_of --orient one-pass)
read -r tmem tspill < <(hm_of --orient two-pass)
check "--orient two-pass's in-memory figure leaves out one pass's copy (${omem:-?} -> ${tmem:-?})" python3 -c "
nv = int('$("$B/tristream" info --json "$T/wq.tsg" | field id_range)')
assert $omem - $tmem >= 8 * nv + 4 * ${ne:-0} and $ospill == $tspill and ${ne:-0} > 0, ($omem, $tmem)"
wlim=$(( (wspill >> 20) + 1 ))
check "--host-mem below wedge's spill: exit 4" [ "$(rc_of ts --cpu-kernel wedge --host-mem $((wlim - 2))M "$T/wq.tsg")" = 4 ]
check "... naming its records and hash" grep -q "of which .* are --cpu-kernel wedge's records .*--cpu-kernel hash holds none" "$T/err"
ref_wq=$(brute "$T/wq.tsg")
# where no GPU is, auto counts on the CPU (a CUDA build falls back), so
# its figures hold the records too (a review's finding: they did not, and
# a 244 MiB cgroup killed such a count under --host-mem 220M)
if [ "$(gpus_visible)" = 0 ]; then
	aspill=$("$B/tristream" count --quiet --json --threads 2 --cpu-kernel wedge --host-mem 1T "$T/wq.tsg" |
		python3 -c "import json,sys; print(json.load(sys.stdin)['host_mem']['need_spill'])")
	check "--device auto with no GPU here: wedge's records in its figure too (${aspill:-?})" \
		[ "${aspill:-x}" = "${wspill:-y}" ]
fi
cg_run $(((wlim + 24) << 20)) "$B/tristream" count --quiet --device cpu --threads 2 --json \
	--cpu-kernel wedge --host-mem ${wlim}M "$T/wq.tsg" >"$T/wq.json" 2>"$T/err"
cgrc=$?
if [ $cgrc = 99 ]; then
	skip "wedge spilled within a memory cgroup (no cgroup here)"
else
	check "wedge spilled at --host-mem ${wlim}M in a cgroup of SIZE + 24 MiB: exact ($cgrc)" python3 -c "
import json; d = json.load(open('$T/wq.json'))
assert d['host_mem']['mode'] == 'spill' and d['kernel'] == 'cpu-wedge' and d['triangles'] == int('$ref_wq'), d"
fi
rm -f "$T/wq.tsg"
# binary form: nv little-endian u64, summing to 3 x triangles
ts --per-vertex "$T/g2.bin" --per-vertex-format binary "$T/g2.tsg" >/dev/null
check "binary per-vertex: 8 bytes a vertex, same counts" python3 -c "
import struct
b = open('$T/g2.bin', 'rb').read()
nv = int('$("$B/tristream" info --json "$T/g2.tsg" | field id_range)')
assert len(b) == 8 * nv, (len(b), nv)
c = struct.unpack('<%dQ' % nv, b)
ref = dict(map(int, l.split()) for l in open('$T/g2.ref'))
assert all(c[v] == ref.get(v, 0) for v in range(nv))
assert sum(c) == 3 * $(brute "$T/g2.tsg")"
check "the wedge kernel's replacement is said" sh -c "$B/tristream count --device cpu --cpu-kernel wedge --per-vertex $T/w.pv $T/g2.tsg 2>&1 >/dev/null | grep -q 'cpu-hash ran instead of cpu-wedge (per-vertex counts)'"
ts --json --cpu-kernel wedge --per-vertex "$T/w.pv" "$T/g2.tsg" >"$T/w.json"
check "the JSON names the kernel that ran" sh -c "grep -q '\"kernel\":\"cpu-hash\"' $T/w.json && grep -q '\"note\":\"cpu-hash ran instead' $T/w.json"
# each unit names the kernel that counted it, in every layout with units
for l in "--layout block --partitions 3" "--layout lstc --partitions 3"; do
	for kk in hash merge wedge; do
		ts --json $l --cpu-kernel $kk "$T/g2.tsg" >"$T/k.json"
		check "units name their kernel ($l, $kk)" python3 -c "
import json
j = json.load(open('$T/k.json'))
ran = {p.get('kernel') for p in j['partition_stats']}
assert len(j['partition_stats']) > 1 and ran == {j['kernel']}, (ran, j['kernel'])
# wedge takes ids in rank order: the LSTC parts run hash, and say so
want = 'cpu-hash' if ('lstc' in '$l' and '$kk' == 'wedge') else 'cpu-$kk'
assert j['kernel'] == want, j['kernel']
assert (want != 'cpu-$kk') == ('ran instead' in j.get('note', ''))"
	done
done
ts --json --cpu-kernel wedge --per-vertex "$T/w.pv" --layout block --partitions 3 "$T/g2.tsg" >"$T/k.json"
check "per-vertex units name cpu-hash, not wedge" python3 -c "
import json
j = json.load(open('$T/k.json'))
assert {p.get('kernel') for p in j['partition_stats']} == {'cpu-hash'}"
# an output that cannot be written: an error, and the old file untouched
echo keep >"$T/old.pv"
check "per-vertex into a missing directory exits 5" [ "$(rc_of ts --per-vertex "$T/nodir/x.pv" "$T/g2.tsg")" = 5 ]
if [ -c /dev/full ] && [ -w /dev/full ]; then
	check "per-vertex to /dev/full exits 5" [ "$(rc_of ts --per-vertex /dev/full "$T/g2.tsg")" = 5 ]
	check "/dev/full is still a device" [ -c /dev/full ]
fi
check "per-vertex to a pipe" same "$(ts --per-vertex /dev/stdout "$T/g2.tsg" | grep -vc ':')" "$(wc -l <"$T/g2.ref")"
check "a failed count leaves the old per-vertex file" sh -c "! $B/tristream count --quiet --device cpu --per-vertex $T/old.pv $T/missing.tsg 2>/dev/null; [ \"\$(cat $T/old.pv)\" = keep ]"
check "--per-vertex with two graphs exits 2" [ "$(rc_of ts --per-vertex "$T/x.pv" "$T/g1.tsg" "$T/g2.tsg")" = 2 ]
check "--per-vertex-format alone exits 2" [ "$(rc_of ts --per-vertex-format binary "$T/g1.tsg")" = 2 ]
check "--per-vertex with --checkpoint exits 2" [ "$(rc_of ts --per-vertex "$T/x.pv" --checkpoint "$T/ck" "$T/g1.tsg")" = 2 ]

# --- checkpoints
"$B/tristream-gen" --quiet --seed 3 rmat --scale 16 "$T/big.tsg"
ref=$(brute "$T/big.tsg")
slow="--threads 1 --cpu-kernel merge"
# the kills land at fractions of the time a whole count took here (W), so
# they fall before the first record, among the units and near the end on
# a fast machine or a slow one, a loaded one too
declare -A Wof
at() { python3 -c "import sys; print('%.3f' % max(0.01, float(sys.argv[1]) * float(sys.argv[2])))" "$1" "$2"; }
for l in "block --partitions 12" "lstc --partitions 12" "arrival --batches 24"; do
	set -- $l
	ck="$T/ck-$1"
	rm -f "$ck"
	ts $slow --layout $l --json --checkpoint "$ck" "$T/big.tsg" >"$T/first.json"
	W=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds'])" "$T/first.json")
	Wof[$1]=$W
	check "checkpointed count, $1 layout (${W}s)" same "$(field triangles <"$T/first.json")" "$ref"
	check "rerun of a finished graph reports its total" same "$(ts $slow --layout $l --json --checkpoint "$ck" "$T/big.tsg" | field triangles)" "$ref"
	check "a finished graph is not counted again" sh -c "$B/tristream count --quiet --device cpu $slow --layout $l --checkpoint $ck $T/big.tsg | grep -q 'counted by an earlier run'"
	# killed at random moments, each time from scratch, then resumed
	for f in 0.02 0.15 0.3 0.5 0.7 0.9; do
		d=$(at $f "$W")
		rm -f "$ck"
		killed_after $d $slow --layout $l --checkpoint "$ck" "$T/big.tsg"
		got=$(ts $slow --layout $l --json --checkpoint "$ck" "$T/big.tsg" | field triangles)
		check "$1 layout killed after ${d}s ($f of a count), resumed" same "$got" "$ref"
	done
	# killed again and again on one checkpoint: each run gets further
	rm -f "$ck"
	for k in 1 2 3 4 5; do
		killed_after "$(at 0.1 "$W")" $slow --layout $l --checkpoint "$ck" "$T/big.tsg"
	done
	ts $slow --layout $l --json --checkpoint "$ck" "$T/big.tsg" >"$T/resume.json"
	check "$1 layout killed five times, resumed" same "$(field triangles <"$T/resume.json")" "$ref"
	check "$1 layout: resumed units are marked" python3 -c "
import json; d = json.load(open('$T/resume.json'))
n = sum(1 for p in d['partition_stats'] if p.get('resumed'))
assert n == d['checkpoint']['units_resumed'] and n + d['checkpoint']['units_recorded'] == d['partitions'], d['checkpoint']"
done
# SIGTERM: the unit in flight finishes, exit 8, and the rest follows on a rerun
ck="$T/ck-term"
rm -f "$ck"
"$B/tristream" count --quiet --device cpu $slow --partitions 12 --checkpoint "$ck" "$T/big.tsg" >"$T/out" 2>"$T/err" &
pid=$!
wait_size "$ck" 128 $pid # a unit recorded: header 64, plan 32, a record 32
kill -TERM $pid
wait $pid
trc=$?
check "SIGTERM exits 8" [ $trc = 8 ]
check "SIGTERM says how to go on" grep -q "rerun with it to go on" "$T/err"
check "SIGTERM prints no count" sh -c "! grep -q triangles $T/out"
ts $slow --partitions 12 --json --checkpoint "$ck" "$T/big.tsg" >"$T/resume.json"
check "after SIGTERM, the rerun completes the count" same "$(field triangles <"$T/resume.json")" "$ref"
check "after SIGTERM, some units were resumed" python3 -c "
import json; c = json.load(open('$T/resume.json'))['checkpoint']; assert c['units_resumed'] > 0, c"
# the same made certain by the test hook tests/gpu/run.sh uses on a fast
# GPU: a pause after each record, so the signal lands before the last; the
# rerun resumes exactly the units on file
ck="$T/ck-hook"
rm -f "$ck"
TSG_TEST_CKPT_RECORD_PAUSE_MS=200 "$B/tristream" count --quiet --device cpu --partitions 8 --checkpoint "$ck" "$T/big.tsg" >/dev/null 2>"$T/err" &
pid=$!
wait_size "$ck" 128 $pid # a unit recorded: header 64, plan 32, a record 32
kill -TERM $pid
wait $pid
trc=$?
n=$(( ($(stat -c %s "$ck") - 96) / 32 )) # header 64, plan 32, a record 32
check "SIGTERM under the record pause: exit 8, $n of 36 units recorded" eval '[ $trc = 8 ] && [ $n -ge 1 ] && [ $n -lt 36 ]'
check "... the hook said so" grep -q "TSG_TEST_CKPT_RECORD_PAUSE_MS: a unit recorded" "$T/err"
ts --partitions 8 --json --checkpoint "$ck" "$T/big.tsg" >"$T/resume.json"
check "... the rerun resumes those $n and completes the count" python3 -c "
import json; d = json.load(open('$T/resume.json'))
assert d['triangles'] == $ref and d['checkpoint']['units_resumed'] == $n, d"
ck="$T/ck-int"
rm -f "$ck"
"$B/tristream" count --quiet --device cpu $slow --layout lstc --partitions 12 --checkpoint "$ck" "$T/big.tsg" >/dev/null 2>&1 &
pid=$!
wait_size "$ck" 128 $pid # a unit recorded: header 64, plan 32, a record 32
kill -INT $pid
wait $pid
check "SIGINT exits 8 (lstc layout)" [ $? = 8 ]
check "after SIGINT, the rerun completes the count" same "$(ts $slow --layout lstc --partitions 12 --json --checkpoint "$ck" "$T/big.tsg" | field triangles)" "$ref"
# a file whose lists fail their checks only at the read's end (a checksum
# that no longer matches, the lists still sorted and in range; tests/tsg_forge
# --stale), counted with a checkpoint: exit 3 and no unit recorded, so the
# file restored (the same header, which names the graph) is counted afresh,
# not from counts made from the damaged lists (a review's finding, session
# 49: the oriented file's block units and the arrival layout's batches were
# recorded as the read went). The stream's reason says why it did not
"$B/tristream-gen" --quiet --seed 5 er --vertices 2000 --edge-factor 8 "$T/ce.tsg"
"$B/tristream-convert" --quiet --oriented "$T/ce.tsg" "$T/ce.o.tsg"
ce_ref=$(brute "$T/ce.tsg")
# INDEX VALUE: the last entry of the first list (section kind 2) whose last
# entry is below nv - 1, and nv - 1: the list stays sorted and in range
last_entry() { python3 -c "
import struct, sys; b = open(sys.argv[1], 'rb').read()
nsec, = struct.unpack_from('<I', b, 20)
sec = {k: (o, s) for k, _, o, s, _ in (struct.unpack_from('<IIQQQ', b, 64 + 32 * i) for i in range(nsec))}
n = sec[1][1] // 8 - 1
off = struct.unpack_from('<%dQ' % (n + 1), b, sec[1][0])
for v in range(n):
    i = off[v + 1] - 1
    if off[v + 1] > off[v] and struct.unpack_from('<I', b, sec[2][0] + 4 * i)[0] < n - 1:
        print(i, n - 1); break" "$1"; }
for c in "ce.o.tsg|--partitions 8" "ce.o.tsg|--partitions 8 --overlap-cut rows" "ce.tsg|--layout arrival --batches 8"; do
	f=${c%%|*} a=${c#*|} ck="$T/ck-damaged"
	rm -f "$ck"
	cp "$T/$f" "$T/damaged.tsg"
	# shellcheck disable=SC2046 # INDEX VALUE, split on purpose
	set -- $(last_entry "$T/$f")
	if [ $# = 2 ] && "$B/tests/tsg_forge" "$T/damaged.tsg" --stale 2 "$1" 4 "$2"; then
		# shellcheck disable=SC2086 # the options, split on purpose
		check "$f $a, damaged lists, --checkpoint: exit 3" [ "$(rc_of ts $a --checkpoint "$ck" "$T/damaged.tsg")" = 3 ]
		cp "$T/$f" "$T/damaged.tsg"
		# shellcheck disable=SC2086
		ts $a --json --checkpoint "$ck" "$T/damaged.tsg" >"$T/restored.json"
		check "$f $a, the file restored: counted afresh, exact" python3 -c "
import json; d = json.load(open('$T/restored.json')); c = d['checkpoint']
assert d['triangles'] == $ce_ref and c['units_resumed'] == 0 and c['units_recorded'] > 0, (d['triangles'], c)"
		check "$f $a: the count says it read the file first" python3 -c "
import json; d = json.load(open('$T/restored.json')); o = d['plan'].get('overlap', {})
assert d['lists_streamed'] is False and ('arrival' in '$a' or (o['chosen'] == 'off' and '--checkpoint' in o['reason'])), (o, d['lists_streamed'])"
	else
		bad "$f: tsg_forge or the entry's search failed"
	fi
done
# damaged and mismatched checkpoints
ck="$T/ck-d"
rm -f "$ck"
ts --partitions 6 --checkpoint "$ck" "$T/big.tsg" >/dev/null
size=$(stat -c %s "$ck")
head -c $((64 + 32 * 8 + 13)) "$ck" >"$T/torn"   # a crash while appending record 8
cp "$T/torn" "$ck"
# (not --quiet: the note is on stderr with the progress)
"$B/tristream" count --device cpu --partitions 6 --json --checkpoint "$ck" "$T/big.tsg" >"$T/torn.json" 2>"$T/torn.err"
check "torn last record: the count is right" same "$(field triangles <"$T/torn.json")" "$ref"
check "torn last record: dropped and said" sh -c "grep -q 'incomplete last record' $T/torn.err && grep -q '\"torn_record_dropped\":true' $T/torn.json"
check "torn last record: 7 units resumed" same "$(python3 -c "import json; print(json.load(open('$T/torn.json'))['checkpoint']['units_resumed'])")" 7
head -c $((64 + 32 * 8)) "$T/torn" >"$ck"
printf '\x01' | dd of="$ck" bs=1 seek=$((64 + 32 * 3 + 9)) conv=notrunc 2>/dev/null
check "a damaged record exits 3" [ "$(rc_of ts --partitions 6 --checkpoint "$ck" "$T/big.tsg")" = 3 ]
check "a damaged record is named" grep -q "damaged: record 3 fails its checksum" "$T/err"
check "a damaged record prints no count" [ ! -s "$T/out" ]
echo "not a checkpoint at all, but long enough to hold a header of sixty-four bytes ..." >"$ck"
check "a foreign file exits 3" [ "$(rc_of ts --partitions 6 --checkpoint "$ck" "$T/big.tsg")" = 3 ]
rm -f "$ck"
ts --partitions 6 --checkpoint "$ck" "$T/g2.tsg" >/dev/null
check "another graph's checkpoint exits 2" [ "$(rc_of ts --partitions 6 --checkpoint "$ck" "$T/big.tsg")" = 2 ]
check "another graph's checkpoint is named" grep -q "made for another graph" "$T/err"
rm -f "$ck"
# killed once its checkpoint holds a record (not after a share of a run's
# time: on a loaded 2-core CI machine 0.3 of it once passed before the
# file was made, and the checks below then met no checkpoint)
"$B/tristream" count --quiet --device cpu $slow --partitions 12 --checkpoint "$ck" "$T/big.tsg" >/dev/null 2>&1 &
pid=$!
wait_size "$ck" 128 $pid # a unit recorded: header 64, plan 32, a record 32
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
check "a checkpoint to resume from" [ "$(stat -c %s "$ck" 2>/dev/null || echo 0)" -ge 128 ]
check "other options exit 2" [ "$(rc_of ts $slow --partitions 8 --checkpoint "$ck" "$T/big.tsg")" = 2 ]
check "other options are named" grep -q "other counting options" "$T/err"
check "other layout exits 2" [ "$(rc_of ts $slow --layout lstc --partitions 12 --checkpoint "$ck" "$T/big.tsg")" = 2 ]
check "the same options still resume" same "$(ts $slow --partitions 12 --json --checkpoint "$ck" "$T/big.tsg" | field triangles)" "$ref"
check "--checkpoint with --plan-only exits 2" [ "$(rc_of ts --plan-only --checkpoint "$T/ck-p" "$T/big.tsg")" = 2 ]
check "a checkpoint in a missing directory exits 5" [ "$(rc_of ts --checkpoint "$T/nodir/ck" "$T/big.tsg")" = 5 ]
# two runs creating one checkpoint at once: run A finds no file and pauses
# (a test hook) while run B creates it and counts; A must then take B's
# file as any existing checkpoint (in use: exit 2; finished: replayed),
# never replace it and record into a file no longer named (it did)
ck=$T/ck-race
rm -f "$ck"
TSG_TEST_CKPT_CREATE_PAUSE_MS=1500 "$B/tristream" count --quiet --device cpu --json --partitions 6 \
	--checkpoint "$ck" "$T/big.tsg" >"$T/race-a.json" 2>"$T/race-a.err" &
pid=$!
sleep 0.5
ts --json --partitions 6 --checkpoint "$ck" "$T/big.tsg" >"$T/race-b.json"
wait $pid
rca=$?
check "a checkpoint created beside a paused run: exact, created" python3 -c "
import json; d = json.load(open('$T/race-b.json')); assert d['triangles'] == $ref and d['checkpoint']['created'], d"
check "the paused run takes the other's checkpoint (exit $rca)" python3 -c "
import json, sys
if $rca == 2:
    assert 'in use by another run' in open('$T/race-a.err').read()
else:
    d = json.load(open('$T/race-a.json'))
    c = d['checkpoint']
    assert $rca == 0 and d['triangles'] == $ref and not c.get('created') and c.get('finished_earlier'), d"
check "their checkpoint replays the count" same "$(ts --json --partitions 6 --checkpoint "$ck" "$T/big.tsg" | field triangles)" "$ref"
# both paused, so that both try to create it: one file, and a run that
# counts is the one that made it (it is locked before it is named: locked
# after, the other run could take the lock first, and count on a file it
# had not made while its maker was refused)
for round in 1 2 3; do
	rm -f "$ck"
	for x in a b; do
		TSG_TEST_CKPT_CREATE_PAUSE_MS=800 "$B/tristream" count --quiet --device cpu --json --partitions 6 \
			--checkpoint "$ck" "$T/big.tsg" >"$T/race2-$x.json" 2>"$T/race2-$x.err" &
		eval "pid_$x=\$!"
	done
	wait $pid_a; rc_a=$?
	wait $pid_b; rc_b=$?
	check "two runs creating one checkpoint, round $round (exit $rc_a, $rc_b)" python3 -c "
import json
counted = 0
for x, rc in (('a', $rc_a), ('b', $rc_b)):
    if rc == 2:
        assert 'in use by another run' in open('$T/race2-%s.err' % x).read(), x
        continue
    assert rc == 0, (x, rc)
    d = json.load(open('$T/race2-%s.json' % x))
    c = d['checkpoint']
    assert d['triangles'] == $ref, d
    if not c.get('finished_earlier'):
        assert c['created'], (x, c)
        counted += 1
assert counted == 1, counted"
done
# a symbolic link to nothing cannot be named over: said, exit 2 (not the
# open's "No such file", exit 5); a link to a checkpoint works as the file
ln -s "$T/no-such-checkpoint" "$T/ck-dangling"
check "a checkpoint path that is a link to nothing exits 2" [ "$(rc_of ts --partitions 6 --checkpoint "$T/ck-dangling" "$T/big.tsg")" = 2 ]
check "... and says so" grep -q "symbolic link to a file that does not exist" "$T/err"
ln -s "$ck" "$T/ck-link"
check "a link to a checkpoint resumes it" same "$(ts --json --partitions 6 --checkpoint "$T/ck-link" "$T/big.tsg" | field triangles)" "$ref"
# many graphs with a checkpoint directory: a rerun skips the graphs done
printf '%s\n%s\n%s\n' "$T/karate.tsg" "$T/g1.tsg" "$T/g2.tsg" >"$T/m.txt"
ts --json --checkpoint "$T/ckdir" --manifest "$T/m.txt" >"$T/m1.json"
check "checkpoint directory: one file per graph" [ "$(ls "$T/ckdir" | wc -l)" = 3 ]
ts --json --checkpoint "$T/ckdir" --manifest "$T/m.txt" "$T/big.tsg" >"$T/m2.json"
check "checkpoint directory: done graphs skipped, a new one counted" python3 -c "
import json
rows = [json.loads(l) for l in open('$T/m2.json')]
assert [r['triangles'] for r in rows] == [$ref, 45, $(brute "$T/g1.tsg"), $(brute "$T/g2.tsg")], rows
assert all(r['checkpoint'].get('finished_earlier') for r in rows[1:]) and not rows[0]['checkpoint'].get('finished_earlier'), rows"
finish_checks
