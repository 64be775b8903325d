#!/usr/bin/env bash
# tests/mpi.sh BUILD_DIR SRC_DIR [SHARED_GRAPHS_DIR] - tristream count as
# several MPI ranks (mpirun --oversubscribe, CPU backend) against one
# process and tests/brute: every layout, 1, 2, 3 ranks and more ranks than
# units, block units taken by whichever rank is free (each by one), dealt
# by cost under a checkpoint, k-cliques, --k-all, per-vertex counts and clustering, the shared
# graphs, checkpoints (a file a rank; resumed, cut, another rank count);
# a rank fed a damaged file or another graph fails the whole job with the
# rank named and no count; --read ranges (every rank count, reader and
# plan size, reordered files read in part, per-vertex, checkpoints,
# fall-backs said, damage found by one rank's checks or the summed
# symmetry hash; a BVGraph crawl with its transpose by ranges, a
# transpose that is not the crawl's); the ranks of one host building one
# oriented graph (each a slice, summed checks, damage in one slice, per-
# vertex, --read all, --read auto on the CPU: the host build; an MPI that
# cannot share memory: each rank its own, said); ranks on several hosts of
# unequal size (a test hook on one host); a rank bound to one core
# says so. Skipped (exit 77, said) in a build without MPI.
# Ends with "N passed, N failed" (", N skipped" where any was).
set -u
B=$1
SRC=$2
SHARED=${3:-$SRC/../shared/graphs}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
if ! command -v mpirun >/dev/null || ! grep -q TSG_HAVE_MPI "$B/build.ninja" 2>/dev/null; then
	skip "this build has no MPI (or mpirun is missing); tristream under mpirun not checked"
	finish_checks
fi
# CI runs as root; Open MPI refuses that unless told
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mp() { local n=$1; shift; mpirun -n "$n" --oversubscribe "$@"; }
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['$1'])" 2>/dev/null; }
tc() { "$B/tristream" count --quiet --json --device cpu "$@"; }

"$B/tristream-gen" --quiet rmat --scale 12 --seed 3 "$T/rmat12.tsg"
"$B/tristream-gen" --quiet er --vertices 3000 --edges 40000 --seed 4 "$T/er.tsg"
gzip -dc "$SRC/tests/data/karate.txt.gz" >"$T/karate.txt"
for g in rmat12 er; do
	ref=$("$B/tests/brute" "$T/$g.tsg")
	for n in 1 2 3; do
		for l in "" "--layout block --partitions 4" "--layout lstc" "--layout lstc --partitions 2" \
			"--layout arrival --batches 7" "--cpu-kernel merge"; do
			out=$(mp $n "$B/tristream" count --quiet --json --device cpu $l "$T/$g.tsg")
			got=$(echo "$out" | field triangles)
			check "$g -n $n $l: $got, brute $ref" same "$got" "$ref"
			if [ $n -gt 1 ]; then
				r=$(echo "$out" | field ranks)
				check "$g -n $n $l: ranks $r in the JSON" same "$r" "$n"
			fi
		done
	done
	echo "$g: $ref triangles on 1, 2, 3 ranks"
done
# an LZ4 file; the per-rank times
"$B/tristream" compress --quiet "$T/rmat12.tsg" "$T/rmat12.lz4.tsg"
out=$(mp 3 "$B/tristream" count --quiet --json --device cpu "$T/rmat12.lz4.tsg")
got=$(echo "$out" | field triangles)
check "3 ranks on an LZ4 file: $got" same "$got" "$("$B/tests/brute" "$T/rmat12.tsg")"
got=$(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["compression"], *(len(d[k]) for k in ("rank_read_s", "rank_build_s", "rank_count_s", "rank_count_wall_s")))')
check "3 ranks: LZ4 read, a time per rank for each stage: '$got'" [ "$got" = "lz4 3 3 3 3" ]
# the host's CPUs shared by its ranks unless --threads says otherwise
share=$(( $(nproc) / 3 )); [ "$share" -ge 1 ] || share=1
got=$(echo "$out" | field threads)
check "3 ranks on one host: $got threads a rank, $share expected" same "$got" "$share"
got=$(mp 3 "$B/tristream" count --quiet --json --device cpu --threads 5 "$T/rmat12.tsg" | field threads)
check "3 ranks with --threads 5: $got" same "$got" 5
# the block layout's units taken by whichever rank is free (a shared
# count, dist.h): every unit counted once, by one rank
units() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["rank_deal"], sum(d["rank_units"]), d["partitions"], len(d["rank_units"]))' 2>/dev/null; }
out=$(mp 3 "$B/tristream" count --quiet --json --device cpu --layout block --partitions 5 "$T/rmat12.tsg")
got=$(echo "$out" | field triangles)
check "3 ranks, 15 units taken as ranks are free: $got" same "$got" "$("$B/tests/brute" "$T/rmat12.tsg")"
got=$(echo "$out" | units)
check "3 ranks, 15 units: taken, each by one rank: '$got'" [ "$got" = "taken 15 15 3" ]
# the job's counting part spans every rank's (told from one moment)
got=$(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["job_count_wall_s"] >= max(d["rank_count_wall_s"]) - 1e-6, d["job_count_wall_s"] < d["seconds"])' 2>/dev/null)
check "3 ranks: job_count_wall_s spans each rank's counting: '$got'" [ "$got" = "True True" ]
got=$(mp 4 "$B/tristream" count --quiet --json --device cpu --layout block --partitions 1 "$T/rmat12.tsg" | units)
check "4 ranks, 1 unit: taken by one rank: '$got'" [ "$got" = "taken 1 1 4" ]
# a checkpoint keeps the deal by cost (each rank's file resumes its units)
out=$(mp 3 "$B/tristream" count --quiet --json --device cpu --layout block --partitions 5 --checkpoint "$T/ckd" "$T/rmat12.tsg")
got=$(echo "$out" | units)
check "3 ranks with a checkpoint: dealt by cost: '$got'" [ "$got" = "cost 15 15 3" ]
check "3 ranks with a checkpoint, dealt: $(echo "$out" | field triangles)" same "$(echo "$out" | field triangles)" "$("$B/tests/brute" "$T/rmat12.tsg")"
rm -f "$T"/ckd.rank*
# more ranks than units: the spare ranks count nothing, the sum holds
got=$(mp 4 "$B/tristream" count --quiet --json --device cpu --layout lstc --partitions 1 "$T/rmat12.tsg" | field triangles)
check "4 ranks, 1 part: $got" same "$got" "$("$B/tests/brute" "$T/rmat12.tsg")"
got=$(mp 5 "$B/tristream" count --quiet --json --device cpu --layout arrival --batches 2 "$T/er.tsg" | field triangles)
check "5 ranks, 2 batches: $got" same "$got" "$("$B/tests/brute" "$T/er.tsg")"
# k-cliques and every size
for k in 4 6; do
	ref=$("$B/tests/brute" --k $k "$T/rmat12.tsg")
	got=$(mp 3 "$B/tristream" count --quiet --json --device cpu --k $k "$T/rmat12.tsg" | field cliques)
	check "3 ranks K=$k: $got, brute $ref" same "$got" "$ref"
done
a=$(mp 3 "$B/tristream" count --quiet --json --device cpu --k-all "$T/rmat12.tsg" | field clique_counts)
b=$(tc --k-all "$T/rmat12.tsg" | field clique_counts)
check "3 ranks --k-all: '$a' vs one process '$b'" eval '[ -n "$a" ] && [ "$a" = "$b" ]'
# per-vertex counts and clustering: rank 0 writes the file
mp 3 "$B/tristream" count --quiet --device cpu --per-vertex "$T/pv3.txt" "$T/karate.txt" >/dev/null
"$B/tests/brute" --per-vertex "$T/karate.txt" >"$T/pvb.txt"
check "3 ranks per-vertex file equals brute's" cmp -s "$T/pv3.txt" "$T/pvb.txt"
got=$(mp 2 "$B/tristream" count --quiet --json --device cpu --clustering "$T/karate.txt" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.4f %.4f" % (d["transitivity"], d["average_clustering"]))')
check "2 ranks karate clustering: '$got'" [ "$got" = "0.2557 0.5706" ]
# a text edge list, converted by every rank
got=$(mp 2 "$B/tristream" count --quiet --json --device cpu "$T/karate.txt" | field triangles)
check "2 ranks on a text file: $got" same "$got" 45

# failures: the whole job fails, the rank is named, no count
head -c 3000 "$T/rmat12.tsg" >"$T/bad.tsg"
cat >"$T/pick.sh" <<EOF
#!/bin/sh
# rank 1 gets \$2, the others \$1
if [ "\$OMPI_COMM_WORLD_RANK" = 1 ]; then g=\$2; else g=\$1; fi
exec "$B/tristream" count --quiet --device cpu "\$g"
EOF
chmod +x "$T/pick.sh"
mp 3 "$T/pick.sh" "$T/rmat12.tsg" "$T/bad.tsg" >"$T/out" 2>"$T/err"
rc=$?
check "a damaged file on rank 1: exit $rc, not 3" [ $rc = 3 ]
check "a damaged file on rank 1: named" grep -q "rank 1:" "$T/err"
check "a damaged file on rank 1: no count" [ ! -s "$T/out" ]
mp 3 "$T/pick.sh" "$T/rmat12.tsg" "$T/er.tsg" >"$T/out" 2>"$T/err"
rc=$?
check "another graph on rank 1: exit $rc, not 3" [ $rc = 3 ]
check "another graph on rank 1: said" grep -q "different graphs" "$T/err"
check "another graph on rank 1: no count" [ ! -s "$T/out" ]
# a rank launched with other options: refused before any work (a rank
# whose command line fails, here --plan-only under mpirun, once left the
# others waiting in their first collective; other options that parse, a
# partial count or a wait in another collective)
cat >"$T/pickopt.sh" <<EOF
#!/bin/sh
# rank 1 gets \$1 as an extra option
x=; if [ "\$OMPI_COMM_WORLD_RANK" = 1 ]; then x=\$1; fi
exec "$B/tristream" count --quiet --json --device cpu --layout block --partitions 3 \$x "\$2"
EOF
chmod +x "$T/pickopt.sh"
mp 3 "$T/pickopt.sh" --plan-only "$T/rmat12.tsg" >"$T/out" 2>"$T/err"
rc=$?
check "--plan-only on rank 1 alone: exit $rc (2), rank 1 named, no count" eval '[ $rc = 2 ] && grep -q "rank 1: usage error" "$T/err" && [ ! -s "$T/out" ]'
mp 3 "$T/pickopt.sh" --stats "$T/rmat12.tsg" >"$T/out" 2>"$T/err"
rc=$?
check "--stats on rank 1 alone: exit $rc, counted (not an option the ranks must share)" eval '[ $rc = 0 ] && same "$(field triangles <"$T/out")" "$("$B/tests/brute" "$T/rmat12.tsg")"'
mp 3 "$T/pickopt.sh" --read=ranges "$T/rmat12.tsg" >"$T/out" 2>"$T/err"
rc=$?
check "--read ranges on rank 1 alone: exit $rc (2), said, no count" eval '[ $rc = 2 ] && grep -q "different options" "$T/err" && ! grep -q triangles "$T/out"'
# --help on one rank: it printed the help and stopped while the others
# waited in their next collective (a hang)
mp 3 "$T/pickopt.sh" --help "$T/rmat12.tsg" >"$T/out" 2>"$T/err"
rc=$?
check "--help on rank 1 alone: exit $rc (2), said, no count" eval '[ $rc = 2 ] && grep -q "some ranks only" "$T/err" && ! grep -q triangles "$T/out"'
mp 2 "$B/tristream" count --help >"$T/out" 2>"$T/err"
rc=$?
check "--help on every rank: exit $rc (0), the help" eval '[ $rc = 0 ] && grep -q "usage: tristream count" "$T/out"'
# checkpoints under mpirun: a file a rank (FILE.rankR) holding its units;
# a rerun takes them back, a rank whose file lost records counts those
# units again, and another rank count is refused
ckref=$("$B/tests/brute" "$T/rmat12.tsg")
ckq() { python3 -c "import json,sys; d=json.load(sys.stdin); c=d['checkpoint']; print(d['triangles'], c['units_resumed'], c['units_recorded'], c['torn_record_dropped'])" 2>/dev/null; }
for l in "--layout block --partitions 4" "--layout lstc --partitions 5" "--layout arrival --batches 6"; do
	rm -f "$T"/ck.*
	first=$(mp 3 "$B/tristream" count --quiet --json --device cpu $l --checkpoint "$T/ck" "$T/rmat12.tsg" | ckq)
	set -- $first
	check "checkpoint -n 3 $l: count $1" same "$1" "$ckref"
	check "checkpoint -n 3 $l: one file a rank" eval '[ -s "$T/ck.rank0" ] && [ -s "$T/ck.rank1" ] && [ -s "$T/ck.rank2" ] && [ ! -e "$T/ck" ]'
	units=$3
	res=$2
	check "checkpoint -n 3 $l: units recorded ($units), none resumed" eval 'same "$res" 0 && num "$units" && [ "$units" -gt 3 ]'
	again=$(mp 3 "$B/tristream" count --quiet --json --device cpu $l --checkpoint "$T/ck" "$T/rmat12.tsg" | ckq)
	set -- $again
	check "checkpoint rerun $l: count $1" same "$1" "$ckref"
	res=$2 rec=$3
	check "checkpoint rerun $l: every unit resumed ($res of $units), none counted" eval 'same "$res" "$units" && same "$rec" 0'
	# rank 1 loses all but its plan and first unit, plus a torn half record
	head -c 128 "$T/ck.rank1" >"$T/ck.cut" && printf 'half a record' >>"$T/ck.cut" && mv "$T/ck.cut" "$T/ck.rank1"
	part=$(mp 3 "$B/tristream" count --quiet --json --device cpu $l --checkpoint "$T/ck" "$T/rmat12.tsg" | ckq)
	set -- $part
	check "checkpoint, rank 1's file cut, $l: count $1" same "$1" "$ckref"
	res=$2 rec=$3 torn=$4
	check "checkpoint, rank 1's file cut, $l: resumed $res + recorded $rec = $units units, torn record said ($torn)" eval 'num "$res" && num "$rec" && same "$((res + rec))" "$units" && [ "$rec" -gt 0 ] && [ "$torn" = True ]'
done
mp 2 "$B/tristream" count --quiet --device cpu --layout lstc --partitions 5 --checkpoint "$T/ck" "$T/rmat12.tsg" >"$T/out" 2>"$T/err"
rc=$?
check "checkpoint of 3 ranks rerun on 2: exit $rc, not 2" [ $rc = 2 ]
check "checkpoint of 3 ranks rerun on 2: no count" [ ! -s "$T/out" ]
check "checkpoint of 3 ranks rerun on 2: a rank named" grep -q "rank 0:" "$T/err"
mkdir -p "$T/ckd"
got=$(mp 2 "$B/tristream" count --quiet --json --device cpu --checkpoint "$T/ckd" "$T/rmat12.tsg" "$T/er.tsg" | python3 -c 'import json,sys; print(" ".join(str(json.loads(l)["triangles"]) for l in sys.stdin), end=" ")' 2>/dev/null)
check "--checkpoint DIR under mpirun, two graphs: $got" [ "$got" = "$ckref $("$B/tests/brute" "$T/er.tsg") " ]
check "--checkpoint DIR under mpirun: a file a rank and graph" [ "$(ls "$T/ckd" | grep -c '\.rank[01]$')" = 4 ]

# --read ranges: each rank reads its slice of the lists and the rows of its
# units (src/ranges.h); the same counts as brute on every file, layout
# size, reader and rank count, a byte count a rank in the JSON
"$B/tristream-gen" --quiet web --vertices 20000 --seed 2 "$T/web.tsg"
"$B/tristream" reorder --quiet "$T/web.tsg" "$T/webr.tsg"
"$B/tristream" compress --quiet "$T/webr.tsg" "$T/webr.lz4.tsg"
wref=$("$B/tests/brute" "$T/web.tsg")
got=$("$B/tests/brute" "$T/webr.tsg")
check "reorder keeps the count: $got, before $wref" same "$got" "$wref"
rb() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['triangles'], d['read_ranges'], d.get('ranges_lists_bytes', -1), *d.get('rank_read_bytes', []))" 2>/dev/null; }
# by_ranges NAME REF N "OPTIONS" FILE: the count is REF, read by ranges, a
# byte count a rank, none over the lists' bytes (which are more than 0)
by_ranges() {
	local name=$1 ref=$2 n=$3 l=$4 f=$5 nb by lb over=
	set -- $(mp $n "$B/tristream" count --quiet --json --device cpu --read ranges $l "$f" | rb)
	check "$name -n $n --read ranges $l: ${1:-}, brute $ref" same "${1:-}" "$ref"
	nb=$(($# - 3)) by=${2:-} lb=${3:-0}
	[ $# -gt 3 ] && shift 3 && for b; do [ "$b" -le "$lb" ] || over="$over $b"; done
	check "$name -n $n --read ranges $l: read by ranges ($by), a byte count a rank ($nb)" eval '[ "$by" = True ] && [ "$nb" = "$n" ]'
	check "$name -n $n --read ranges $l: no rank read more than the lists' $lb bytes ($over)" eval 'num "$lb" && [ "$lb" -gt 0 ] && [ -z "$over" ]'
}
for g in rmat12 er webr rmat12.lz4 webr.lz4; do # LZ4: whole chunks, compressed bytes
	ref=$("$B/tests/brute" "$T/${g%.lz4}.tsg")
	for n in 2 3 5; do
		for l in "--partitions 1" "--partitions 4" "--partitions 7 --io mmap"; do
			by_ranges "$g" "$ref" $n "$l" "$T/$g.tsg"
		done
	done
done
# a renumbered crawl: a rank's units hold few stretches of the file, so
# with 8 ranks each reads less than every list (at 8 blocks too, where a
# deal by the fewest new bytes alone gave one rank every list: the deal
# keeps units off a rank they would make the busiest)
for p in 4 8; do
	set -- $(mp 8 "$B/tristream" count --quiet --json --device cpu --read ranges --partitions $p "$T/webr.tsg" | rb)
	total=${3:-0}
	most=0
	[ $# -gt 3 ] && shift 3 && for b; do [ "$b" -gt "$most" ] && most=$b; done
	check "8 ranks by ranges, reordered crawl, $p blocks: the most a rank read ($most) is less than the lists ($total)" eval 'num "$most" && [ "$most" -gt 0 ] && [ "$most" -lt "$total" ]'
done
mp 3 "$B/tristream" count --quiet --device cpu --read ranges --partitions 4 --per-vertex "$T/pvr.txt" "$T/webr.tsg" >/dev/null
"$B/tests/brute" --per-vertex "$T/webr.tsg" >"$T/pvrb.txt"
check "3 ranks by ranges: per-vertex file equals brute's" cmp -s "$T/pvr.txt" "$T/pvrb.txt"
rm -f "$T"/ckr.*
a=$(mp 3 "$B/tristream" count --quiet --json --device cpu --read ranges --partitions 4 --checkpoint "$T/ckr" "$T/webr.tsg" | ckq)
b=$(mp 3 "$B/tristream" count --quiet --json --device cpu --read ranges --partitions 4 --checkpoint "$T/ckr" "$T/webr.tsg" | ckq)
set -- $b
cnt=${1:-} res=${2:-} rec=${3:-}
check "3 ranks by ranges, checkpoint rerun: '$a' then '$b'" eval 'same "$cnt" "$wref" && num "$res" && [ "$res" -gt 0 ] && same "$rec" 0'
# an LZ4 chunk damaged: the rank that decodes it finds its checksum wrong
cp "$T/webr.lz4.tsg" "$T/webr.lz4.bad.tsg"
printf '\x55\x55' | dd of="$T/webr.lz4.bad.tsg" bs=1 seek=$(( $(stat -c %s "$T/webr.lz4.tsg") / 2 )) conv=notrunc 2>/dev/null
mp 3 "$B/tristream" count --quiet --device cpu --read ranges "$T/webr.lz4.bad.tsg" >"$T/out" 2>"$T/err"
rc=$?
check "3 ranks by ranges on a damaged LZ4 file: exit $rc (3), the chunk named, no count" eval '[ $rc = 3 ] && grep -q "compressed chunk" "$T/err" && [ ! -s "$T/out" ]'
# a crawl with its transpose (BVGraph) by ranges: each rank decodes its
# slice of both files, the ranks exchange the slices' degrees, then each
# decodes the rest of its units' rows (io_webgraph_open_ranges); the same
# count as brute on the crawl's .tsg, per-vertex counts byte for byte
"$B/tristream-gen" --quiet --seed 4 --webgraph crawl --vertices 20000 "$T/cw"
"$B/tristream-gen" --quiet --seed 4 crawl --vertices 20000 "$T/cw.tsg"
cref=$("$B/tests/brute" "$T/cw.tsg")
for n in 2 3 5; do # bytes: of the .graph files the decoded lists span
	for l in "--partitions 1" "--partitions 4" "--partitions 7 --threads 3"; do
		by_ranges crawl "$cref" $n "$l" "$T/cw"
	done
done
# more ranks than vertices in some slices: empty slices decode nothing
"$B/tristream-gen" --quiet --seed 2 --webgraph crawl --vertices 40 "$T/cw40"
"$B/tristream-gen" --quiet --seed 2 crawl --vertices 40 "$T/cw40.tsg"
got=$(mp 9 "$B/tristream" count --quiet --json --device cpu --read ranges "$T/cw40" | field triangles)
check "crawl of 40 pages, 9 ranks by ranges: $got" same "$got" "$("$B/tests/brute" "$T/cw40.tsg")"
mp 3 "$B/tristream" count --quiet --device cpu --read ranges --partitions 4 --per-vertex "$T/pvc.txt" "$T/cw" >/dev/null
"$B/tests/brute" --per-vertex "$T/cw.tsg" >"$T/pvcb.txt"
check "3 ranks by ranges on a crawl: per-vertex file equals brute's" cmp -s "$T/pvc.txt" "$T/pvcb.txt"
# the graph's own files as its transpose (as many nodes and arcs, other
# arcs): only the slices' sums, added over the ranks, can tell
mkdir -p "$T/mix"
for e in graph offsets properties; do cp "$T/cw.$e" "$T/mix/cw.$e"; cp "$T/cw.$e" "$T/mix/cw-t.$e"; done
mp 3 "$B/tristream" count --quiet --device cpu --read ranges --partitions 4 "$T/mix/cw" >"$T/out" 2>"$T/err"
rc=$?
check "3 ranks by ranges, a transpose that is not the crawl's: exit $rc (3), said, no count" eval '[ $rc = 3 ] && grep -q "is not the transpose" "$T/err" && [ ! -s "$T/out" ]'
# damage in the middle of the .graph: the rank that decodes it fails the job
mkdir -p "$T/dmg"
for e in graph offsets properties; do cp "$T/cw.$e" "$T/dmg/cw.$e"; cp "$T/cw-t.$e" "$T/dmg/cw-t.$e"; done
printf '\xff\xff\xff\xff' | dd of="$T/dmg/cw.graph" bs=1 seek=$(( $(stat -c %s "$T/cw.graph") / 2 )) conv=notrunc 2>/dev/null
mp 3 "$B/tristream" count --quiet --device cpu --read ranges --partitions 4 "$T/dmg/cw" >"$T/out" 2>"$T/err"
rc=$?
check "3 ranks by ranges, a damaged .graph: exit $rc (3), a rank named, no count" eval '[ $rc = 3 ] && grep -q "rank [0-9]" "$T/err" && [ ! -s "$T/out" ]'
if [ -f "$SHARED/cnr-2000/cnr-2000.graph" ]; then
	got=$(mp 3 "$B/tristream" count --quiet --json --device cpu --read ranges --partitions 4 "$SHARED/cnr-2000/cnr-2000" | field triangles)
	check "3 ranks by ranges, cnr-2000 (LAW crawl): $got" same "$got" 20977629
else
	skip "cnr-2000 by ranges ($SHARED/cnr-2000 not found; not bundled)"
fi
# where ranges cannot be read, every list is, and the note says why
out=$(tc --read ranges "$T/er.tsg")
check "one process --read ranges: counted, the note says every list was read" eval 'same "$(echo "$out" | field triangles)" "$("$B/tests/brute" "$T/er.tsg")" && echo "$out" | field note | grep -q "every list was read"'
for l in "--k 4" "--layout lstc" "--layout arrival"; do
	mp 2 "$B/tristream" count --quiet --device cpu --read ranges $l "$T/er.tsg" >"$T/out" 2>"$T/err"
	rc=$?
	check "--read ranges $l: exit $rc, not 2 (a usage error), no count" eval '[ $rc = 2 ] && [ ! -s "$T/out" ]'
done
# a rank that fails before the ranges step (rank 1 asks for a GPU that
# this machine lacks) while the others are inside it: they meet at one
# agreement, the job ends with rank 1 named, and the next graph of the run
# starts clean and fails the same way (not a stale failure, not a hang)
cat >"$T/pickdev.sh" <<EOF
#!/bin/sh
if [ "\$OMPI_COMM_WORLD_RANK" = 1 ]; then d=gpu; else d=cpu; fi
exec "$B/tristream" count --quiet --json --device \$d --read ranges --partitions 4 "\$@"
EOF
chmod +x "$T/pickdev.sh"
mp 3 "$T/pickdev.sh" "$T/webr.tsg" "$T/er.tsg" >"$T/out" 2>"$T/err"
rc=$?
check "ranges, rank 1 failing before the step: exit $rc, not 6" [ $rc = 6 ]
check "ranges, rank 1 failing before the step: named for both graphs" [ "$(grep -c 'rank 1:' "$T/err")" = 2 ]
check "ranges, rank 1 failing before the step: no count" eval '! grep -q "\"triangles\"" "$T/out"'
# after a graph failed, the next graph of the run starts clean (dist_begin):
# rank 1's first file is damaged, every rank's second is good
cat >"$T/pick2.sh" <<EOF
#!/bin/sh
if [ "\$OMPI_COMM_WORLD_RANK" = 1 ]; then g=\$2; else g=\$1; fi
exec "$B/tristream" count --quiet --json --device cpu --read ranges --partitions 4 "\$g" "\$3"
EOF
chmod +x "$T/pick2.sh"
got=$(mp 3 "$T/pick2.sh" "$T/rmat12.tsg" "$T/bad.tsg" "$T/er.tsg" 2>/dev/null | tail -1 | field triangles)
check "ranges, a failed graph then a good one: the second counted ($got)" same "$got" "$("$B/tests/brute" "$T/er.tsg")"
# damage only ranks reading by ranges can see: a list's middle entry moved
# to another id between its neighbours (order kept, symmetry broken), and
# a byte flipped in a list; the job fails, no count
nvw=$("$B/tristream" info --json "$T/webr.tsg" | field vertices)
python3 - "$T/webr.tsg" "$nvw" "$T/wsym.tsg" "$T/wbad.tsg" <<'PY'
import struct, sys
src, nv, sym, bad = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
d = bytearray(open(src, 'rb').read())
lists = (4096 + (nv + 1) * 8 + 4095) // 4096 * 4096
off = struct.unpack_from('<%dQ' % (nv + 1), d, 4096)
s = bytearray(d)
for v in range(nv - 1, 0, -1):  # the last slice: rank 2's
    lo = off[v]
    if off[v + 1] - lo >= 3:
        a = struct.unpack_from('<3I', s, lists + 4 * lo)
        if a[1] + 1 < a[2] and a[1] + 1 != v:
            struct.pack_into('<I', s, lists + 4 * (lo + 1), a[1] + 1)
            break
open(sym, 'wb').write(s)
d[lists + 4 * off[nv // 10] + 2] ^= 0xff
open(bad, 'wb').write(d)
PY
for f in "wsym:not symmetric" "wbad:bad neighbour list"; do
	mp 3 "$B/tristream" count --quiet --device cpu --read ranges --partitions 4 "$T/${f%%:*}.tsg" >"$T/out" 2>"$T/err"
	rc=$?
	check "3 ranks by ranges, ${f%%:*}.tsg: exit $rc, not 3, no count" eval '[ $rc = 3 ] && [ ! -s "$T/out" ]'
	check "3 ranks by ranges, ${f%%:*}.tsg: '${f#*:}' said" grep -q "${f#*:}" "$T/err"
done
# the ranks of one host build one oriented graph (src/hostbuild.h): each
# reads a slice of the lists (a crawl: decodes it), the slices are the
# lists once over (a plain file), the count is brute's
hb() { python3 -c "import json,sys; d=json.load(sys.stdin); b=d.get('rank_read_bytes', []); r=d['stages'].get('release', -1); print(d['triangles'], d['host_build'], d.get('host_ranks', 0), d.get('host_lists_bytes', -1), sum(b), max(b or [0]), len(b), int(0 <= r <= d['seconds']))" 2>/dev/null; }
# by_host NAME REF N FILE [OPTIONS]: sets cnt built hr lb sum most nb rel
# (rel: 1 where stages.release, the shared block's free, is inside seconds)
by_host() {
	local name=$1 ref=$2 n=$3 f=$4; shift 4
	read -r cnt built hr lb sum most nb rel < <(mp $n "$B/tristream" count --quiet --json --device cpu "$@" "$f" | hb)
	check "$name -n $n $*: ${cnt:-}, brute $ref" same "${cnt:-}" "$ref"
}
for f in rmat12 er webr rmat12.lz4 webr.lz4 cw; do
	case $f in cw) g=$T/cw ref=$cref ;; *) g=$T/$f.tsg ref=$("$B/tests/brute" "$T/${f%.lz4}.tsg") ;; esac
	for n in 2 3; do
		by_host "$f on one host" "$ref" $n "$g" --layout block --partitions 4 --read host
		check "$f -n $n on one host: built by its $n ranks (${built:-} ${hr:-}), a byte count a rank (${nb:-}), its release timed (${rel:-})" eval '[ "${built:-}" = True ] && [ "${hr:-}" = $n ] && [ "${nb:-}" = $n ] && [ "${rel:-}" = 1 ]'
		case $f in
		*.lz4|cw) check "$f -n $n: no rank read more than the lists (most ${most:-} of ${lb:-}), all of them some (${sum:-})" eval 'num "${lb:-}" && [ "$lb" -gt 0 ] && [ "$most" -le "$lb" ] && [ "$sum" -ge $((lb - n)) ]' ;;
		*) check "$f -n $n: slices that add up to the lists (${sum:-} of ${lb:-} bytes, most ${most:-})" eval 'num "${lb:-}" && [ "$lb" -gt 0 ] && [ "$sum" = "$lb" ] && [ "$most" -lt "$lb" ]' ;;
		esac
	done
done
by_host "--read all" "$wref" 3 "$T/webr.tsg" --layout block --partitions 4 --read all
check "--read all, 3 ranks on one host: each oriented alone (${built:-}, ${nb:-} byte counts)" eval '[ "${built:-}" = False ] && [ "${nb:-}" = 0 ]'
read -r cnt built hr lb sum most nb rel < <(mpirun -n 1 --bind-to none "$B/tristream" count --quiet --json --device cpu --layout block "$T/webr.tsg" | hb)
check "one rank: ${cnt:-}, not a host build (${built:-})" eval 'same "${cnt:-}" "$wref" && [ "${built:-}" = False ]'
by_host "--no-transpose crawl" "$cref" 2 "$T/cw" --layout block --no-transpose --read host
# --read auto (the default) builds one graph a host on the CPU too, as
# --read host does; the lists read once over the host's ranks
read -r cnt built hr lb sum most nb rel < <(mp 2 "$B/tristream" count --quiet --json --device cpu --layout block --partitions 4 "$T/webr.tsg" | hb)
check "--read auto on the CPU: ${cnt:-}, one graph built by the host's 2 ranks (${built:-} ${hr:-}), slices adding up to the lists (${sum:-} of ${lb:-})" eval 'same "${cnt:-}" "$wref" && [ "${built:-}" = True ] && [ "${hr:-}" = 2 ] && num "${lb:-}" && [ "${sum:-}" = "$lb" ]'
mp 3 "$B/tristream" count --quiet --device cpu --layout block --partitions 4 --read host --per-vertex "$T/pvh.txt" "$T/webr.tsg" >/dev/null
check "3 ranks building one graph: per-vertex file equals brute's" cmp -s "$T/pvh.txt" "$T/pvrb.txt"
mp 3 "$B/tristream" count --quiet --device cpu --layout block --partitions 4 --read host --per-vertex "$T/pvhc.txt" "$T/cw" >/dev/null
check "3 ranks building one graph of a crawl: per-vertex file equals brute's" cmp -s "$T/pvhc.txt" "$T/pvcb.txt"
got=$(mp 2 "$B/tristream" count --quiet --json --device cpu --layout block --partitions 5 --read host "$T/rmat12.tsg" | units)
check "2 ranks building one graph: the units taken, each by one rank: '$got'" [ "$got" = "taken 15 15 2" ]
mp 3 "$T/pickopt.sh" --read=host "$T/rmat12.tsg" >"$T/out" 2>"$T/err"
rc=$?
check "--read host on rank 1 alone: exit $rc (2), said, no count" eval '[ $rc = 2 ] && grep -q "different options" "$T/err" && ! grep -q triangles "$T/out"'
# an MPI whose one-sided component cannot make memory the host's ranks
# share (osc/pt2pt, as ranks on several hosts without RDMA atomics get):
# the host build is left, said, each rank orients its own (a plain file, a
# crawl); the units are still taken as ranks are free, rank 0's fetches
# answered while it counts (dist_counter's pump)
pt2pt=0
ompi_info 2>/dev/null | grep -q "MCA osc: pt2pt" && pt2pt=1
# own_graphs LABEL REF N FILE [OPTIONS]: N ranks under osc pt2pt count REF,
# each rank orienting its own graph, and the note says why
# (TSG_TEST_RANKS_A_HOST, where set, reaches the ranks)
own_graphs() {
	local label=$1 ref=$2 n=$3 f=$4 out note
	shift 4
	out=$(mp $n ${TSG_TEST_RANKS_A_HOST:+-x TSG_TEST_RANKS_A_HOST} --mca osc pt2pt "$B/tristream" count --quiet --json --device cpu --layout block --partitions 4 "$@" "$f" 2>"$T/err")
	read -r cnt built hr lb sum most nb rel < <(echo "$out" | hb)
	note=$(echo "$out" | field note)
	check "$label: ${cnt:-}, each rank its own graph (${built:-}), said ('$note')" eval 'same "${cnt:-}" "$ref" && [ "${built:-}" = False ] && [[ "$note" == *"MPI cannot make memory"* ]]'
}
if [ $pt2pt = 1 ]; then
	for f in "$T/webr.tsg:$wref" "$T/cw:$cref"; do
		for rd in auto host; do
			own_graphs "osc pt2pt --read $rd $(basename "${f%%:*}")" "${f#*:}" 2 "${f%%:*}" --read $rd
		done
	done
	out=$(mp 3 --mca osc pt2pt "$B/tristream" count --quiet --json --device cpu --layout block --partitions 5 --read all "$T/rmat12.tsg")
	got=$(echo "$out" | units)
	check "osc pt2pt, 3 ranks: the units taken, each by one rank: '$got'" [ "$got" = "taken 15 15 3" ]
	got=$(echo "$out" | field triangles)
	check "osc pt2pt, 3 ranks taking units: $got, brute's" same "$got" "$("$B/tests/brute" "$T/rmat12.tsg")"
else
	skip "Open MPI here has no osc/pt2pt; ranks that cannot share memory not checked"
fi
# ranks on several hosts, on this one (TSG_TEST_RANKS_A_HOST=K: each K
# ranks a host, src/dist.c): hosts of unequal size (2 + 1) take the same
# steps, a host of one rank building alone where the others build
# together; every --read; a plain file, an LZ4 file, a crawl; per-vertex
# counts; damage in one slice; an MPI that cannot share memory
hosts_run() { local k=$1 n=$2; shift 2; TSG_TEST_RANKS_A_HOST=$k mp $n -x TSG_TEST_RANKS_A_HOST "$B/tristream" count --quiet --json --device cpu --layout block --partitions 4 "$@"; }
r12=$("$B/tests/brute" "$T/rmat12.tsg")
for kn in "2 3" "2 4" "1 3"; do
	read -r k n <<<"$kn"
	for f in "rmat12.tsg:$r12" "rmat12.lz4.tsg:$r12" "cw:$cref"; do
		for rd in auto all ranges; do
			read -r cnt built hr lb sum most nb rel < <(hosts_run $k $n --read $rd "$T/${f%%:*}" 2>"$T/err" | hb)
			want=$([ $k -ge 2 ] && [ $rd = auto ] && echo True || echo False)
			check "$n ranks, $k a host, --read $rd, ${f%%:*}: ${cnt:-} (brute ${f#*:}), host build ${built:-} ($want)" eval 'same "${cnt:-}" "${f#*:}" && [ "${built:-}" = $want ]'
		done
	done
done
hosts_run 2 3 --read auto --per-vertex "$T/pvk.txt" "$T/webr.tsg" >/dev/null 2>&1
check "3 ranks, 2 a host: per-vertex file equals brute's" cmp -s "$T/pvk.txt" "$T/pvrb.txt"
hosts_run 2 3 --read auto "$T/wsym.tsg" >"$T/out" 2>"$T/err"
rc=$?
check "3 ranks, 2 a host, an asymmetric file: exit $rc (3), said, no count" eval '[ $rc = 3 ] && grep -q "not symmetric" "$T/err" && ! grep -q triangles "$T/out"'
[ $pt2pt = 1 ] && TSG_TEST_RANKS_A_HOST=2 own_graphs "osc pt2pt, 3 ranks, 2 a host" "$wref" 3 "$T/webr.tsg"
# damage in one rank's slice is every rank's failure: the summed symmetry
# hash, or the slice's own checks; exit 3, no count
for f in "wsym.tsg:not symmetric" "wbad.tsg:bad neighbour list" "webr.lz4.bad.tsg:compressed chunk" \
	"dmg/cw:rank [0-9]"; do
	mp 3 "$B/tristream" count --quiet --device cpu --layout block --partitions 4 --read host "$T/${f%%:*}" >"$T/out" 2>"$T/err"
	rc=$?
	check "3 ranks building one graph, ${f%%:*}: exit $rc (3), '${f#*:}' said, no count" eval '[ $rc = 3 ] && grep -q "${f#*:}" "$T/err" && [ ! -s "$T/out" ]'
done
# a rank the launcher bound to fewer CPUs than its share runs a thread on
# each, and says so (Open MPI binds a rank to one core when it starts one)
if [ "$(nproc)" -ge 2 ]; then
	got=$(mpirun -n 1 "$B/tristream" count --json --device cpu "$T/er.tsg" 2>"$T/err" | field threads)
	check "mpirun -n 1, bound to one core: $got thread, said" eval '[ "$got" = 1 ] && grep -q "may run on 1 of" "$T/err"'
	got=$(mpirun -n 1 --bind-to none "$B/tristream" count --json --device cpu "$T/er.tsg" 2>"$T/err" | field threads)
	check "mpirun -n 1 --bind-to none: $got threads (nproc $(nproc)), nothing said" eval '[ "$got" = "$(nproc)" ] && ! grep -q "may run on" "$T/err"'
else
	skip "one CPU here; a rank bound to fewer CPUs than its share not checked"
fi
# the bundled real graphs (tests/data), their published counts
gr=$SRC/tests/data/ca-GrQc.txt.gz
got=$(mp 3 "$B/tristream" count --quiet --json --device cpu "$gr" | field triangles)
check "3 ranks ca-GrQc (its gzip text): $got" same "$got" 48260
got=$(mp 3 "$B/tristream" count --quiet --json --device cpu --k 5 "$gr" | field cliques)
check "3 ranks ca-GrQc 5-cliques: $got" same "$got" 2215500
"$B/tristream-convert" --quiet "$SRC/tests/data/facebook_combined.txt.gz" "$T/fb.tsg"
got=$(mp 2 "$B/tristream" count --quiet --json --device cpu --layout block --partitions 3 "$T/fb.tsg" | field triangles)
check "2 ranks ego-Facebook, block layout: $got" same "$got" 1612010
if [ -f "$SHARED/cnr-2000/cnr-2000.graph" ]; then
	got=$(mp 2 "$B/tristream" count --quiet --json --device cpu "$SHARED/cnr-2000/cnr-2000" | field triangles)
	check "2 ranks cnr-2000 from its BVGraph files: $got" same "$got" 20977629
else
	skip "2 ranks on cnr-2000 ($SHARED/cnr-2000 not found; not bundled)"
fi
finish_checks
