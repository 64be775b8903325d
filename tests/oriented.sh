#!/usr/bin/env bash
# tests/oriented.sh BUILD_DIR SOURCE_ROOT - a .tsg stored oriented
# (tristream-convert --oriented, docs/FORMAT.md) on the CPU backend: for
# R-MAT, Erdős–Rényi, web, a crawl, a clique (C(n,3)), a star (0), an
# empty graph and karate (45, tests/data), converted from their inputs,
# the count equals tests/brute's on the undirected file (which shares no
# code with the engine) and the undirected file's own, at 1 and 2 threads,
# several block counts, every --io mode and --host-mem short enough to map
# it; per-vertex counts (text and binary) and clustering byte for byte the
# undirected file's; k-cliques (--k, --k-all) the undirected file's and
# brute's; info and info --verify; the rows take half the list bytes.
# Every damage class, its checksums recomputed as a crafted file would
# have them (tests/tsg_forge), is exit 3 with no count, by every reader;
# layouts and options that need the undirected lists, exit 2 and one
# line; commands that need them, exit 3 naming the file. Checkpoints key
# on the file; under mpirun (where the build has MPI) two ranks count it
# too. Ends with "N passed, N failed" (", N skipped" where any was).
set -u
B=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# check, skip, finish_checks, num, same
. "$SRC/tests/lib.sh"
brute() { "$B/tests/brute" "$@"; }
gen() { "$B/tristream-gen" --quiet "$@"; }
conv() { "$B/tristream-convert" --quiet "$@"; }
forge() { "$B/tests/tsg_forge" "$@"; }
tc() { "$B/tristream" count --quiet --json --device cpu "$@"; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)" 2>/dev/null; }
rc_of() { "$@" >"$T/out" 2>"$T/err"; echo $?; }
same_file() { [ -s "$1" ] && [ -s "$2" ] && cmp -s "$1" "$2"; }
# stderr is one line holding $1, ending with the pointer to count's help
one_line() { [ "$(wc -l <"$T/err")" = 1 ] && grep -q -- "$1" "$T/err" && grep -q "; see tristream count --help$" "$T/err"; }
# a .tsg's header, by docs/FORMAT.md: "nv nedges nadj max48 hint56 flags"
# and each section "kind:size"
hdr() { python3 -c "
import struct, sys
b = open(sys.argv[1], 'rb').read(4096)
flags, = struct.unpack_from('<I', b, 12); nsec, = struct.unpack_from('<I', b, 20)
nv, ne, nadj, m48, m56 = struct.unpack_from('<5Q', b, 24)
secs = [struct.unpack_from('<IIQQQ', b, 64 + 32 * i) for i in range(nsec)]
print(nv, ne, nadj, m48, m56, flags, *('%d:%d' % (s[0], s[3]) for s in secs))" "$1"; }
# the rows of an oriented file: "r first second" for the first rank with
# at least two entries, and the offset of rank r (element index)
row2() { python3 -c "
import struct, sys
b = open(sys.argv[1], 'rb').read()
nsec, = struct.unpack_from('<I', b, 20)
sec = {k: (o, s) for k, _, o, s, _ in (struct.unpack_from('<IIQQQ', b, 64 + 32 * i) for i in range(nsec))}
o, s = sec[1]; nv = s // 8 - 1
off = struct.unpack_from('<%dQ' % (nv + 1), b, o)
for r in range(1, nv):
    if off[r + 1] - off[r] >= 2:
        print(r, off[r], nv, off[nv]); break" "$1"; }

# --- graphs: an undirected .tsg and an oriented one from the same input
gzip -dc "$SRC/tests/data/karate.txt.gz" >"$T/karate.txt"
conv "$T/karate.txt" "$T/karate.u.tsg"
gen --seed 3 rmat --scale 13 "$T/rmat.u.tsg"
gen --seed 4 er --vertices 4000 --edges 40000 "$T/er.u.tsg"
gen --seed 5 web --vertices 6000 "$T/web.u.tsg"
gen --seed 6 --webgraph crawl --vertices 5000 "$T/crawl"
conv "$T/crawl" "$T/crawl.u.tsg"
gen --seed 7 clique --vertices 30 "$T/clique.u.tsg"
gen --seed 8 star --vertices 50 "$T/star.u.tsg"
gen --seed 9 empty --vertices 20 "$T/empty.u.tsg"
graphs=(karate rmat er web crawl clique star empty)
for g in "${graphs[@]}"; do
	case $g in
	karate) in=$T/karate.txt ;;
	crawl) in=$T/crawl ;;
	*) in=$T/$g.u.tsg ;;
	esac
	check "$g: converted --oriented from $(basename "$in")" conv --oriented "$in" "$T/$g.o.tsg"
	eval "ref_$g=\$(brute \"\$T/\$g.u.tsg\")"
	eval "check \"$g: brute's count\" num \"\$ref_$g\""
done
check "karate: brute says 45 (published)" same "$ref_karate" 45
check "clique: brute says C(30,3) = 4060" same "$ref_clique" 4060
check "star: brute says 0" same "$ref_star" 0
check "empty: brute says 0" same "$ref_empty" 0

# --- the file: flags, counts, and half the list bytes
for g in "${graphs[@]}"; do
	read -r nv ne nadj m48 m56 flags s1 s2 s3 s4 <<<"$(hdr "$T/$g.o.tsg")"
	read -r unv une unadj um48 um56 uflags u1 u2 <<<"$(hdr "$T/$g.u.tsg")"
	check "$g: flag bit 2 (oriented) alone" same "$flags" 4
	check "$g: the same vertices and edges as the undirected file" eval '[ "$nv" = "$unv" ] && same "$ne" "$une"'
	check "$g: nadj = edges (each once)" same "$nadj" "$ne"
	check "$g: bytes 56 = the undirected maximum degree" same "$m56" "$um48"
	# the row piece checksums: 8 bytes, and 8 a piece of 16 MiB (one here, none when empty)
	check "$g: sections 1, 2, 5, 6: offsets, rows (half the lists), the rank map, the row piece checksums" \
		[ "$s1 $s2 $s3 $s4" = "1:$(((nv + 1) * 8)) 2:$((ne * 4)) 5:$((nv * 4)) 6:$((ne ? 16 : 8))" ] && [ "${u2#2:}" = $((2 * ne * 4)) ]
done
for g in rmat er web crawl; do
	check "$g: the oriented file is smaller ($(stat -c %s "$T/$g.o.tsg") of $(stat -c %s "$T/$g.u.tsg") bytes)" \
		[ "$(stat -c %s "$T/$g.o.tsg")" -lt "$(stat -c %s "$T/$g.u.tsg")" ]
done

# --- counts: brute's, the undirected file's, by every path
for g in "${graphs[@]}"; do
	eval "ref=\$ref_$g"
	for t in 1 2; do
		for p in 0 1 3 5; do
			o="--threads $t"
			[ "$p" = 0 ] || o="$o --partitions $p"
			got=$(tc $o "$T/$g.o.tsg" | field "['triangles']")
			check "$g oriented, $o: $got, brute $ref" same "$got" "$ref"
			[ "$t$p" = 23 ] || continue
			check "$g undirected, $o: the same" same "$(tc $o "$T/$g.u.tsg" | field "['triangles']")" "$ref"
		done
	done
	for io in mmap pread uring; do
		check "$g oriented, --io $io" same "$(tc --io $io "$T/$g.o.tsg" | field "['triangles']")" "$ref"
	done
	check "$g oriented, --cpu-kernel merge" same "$(tc --cpu-kernel merge --partitions 2 "$T/$g.o.tsg" | field "['triangles']")" "$ref"
done
check "rmat oriented, io_uring disabled: the pread fall-back" same "$(TSG_DISABLE_URING=1 tc --io uring "$T/rmat.o.tsg" | field "['triangles']")" "$ref_rmat"
# io_uring's request size (TSG_URING_CHUNK_KIB, a bench's knob; 16 MiB by
# default, so a small file is one read): from 4 KiB, many reads in flight
# over the rows read from the top down and checked by pieces; a value out
# of range or not a number leaves the default
for kib in 4 12 64 1024 65536 3 70000 x; do
	check "rmat oriented, --io uring, requests of '$kib' KiB" same "$(TSG_URING_CHUNK_KIB=$kib tc --io uring "$T/rmat.o.tsg" | field "['triangles']")" "$ref_rmat"
done
# --host-mem short of reading it whole: mapped, said
out=$(tc --host-mem 1400K --threads 2 "$T/rmat.o.tsg")
check "rmat oriented, --host-mem 1400K: counted" same "$(echo "$out" | field "['triangles']")" "$ref_rmat"
check "... mapped, the note says so, nothing spilled to scratch files" python3 -c "
import json, sys; d = json.loads(sys.argv[1])
assert d['io'] == 'mmap' and d['host_mem']['mode'] == 'spill', d
assert 'its rows are mapped instead' in d['note'] and 'scratch_dir' not in d['plan'], d" "$out"
check "rmat oriented, --host-mem 1400K --partitions 4 --threads 1" same "$(tc --host-mem 1400K --partitions 4 --threads 1 "$T/rmat.o.tsg" | field "['triangles']")" "$ref_rmat"
check "rmat oriented, --host-mem 1G: read whole" [ "$(tc --host-mem 1G "$T/rmat.o.tsg" | field "['host_mem']['mode']")" = in-memory ]
check "--host-mem below even the mapped count's needs: exit 4" [ "$(rc_of "$B/tristream" count --quiet --host-mem 4K "$T/rmat.o.tsg")" = 4 ]
# what the result says of it
out=$(tc "$T/rmat.o.tsg")
uout=$(tc "$T/rmat.u.tsg")
check "rmat: JSON says oriented, the block layout, nothing oriented, and why" python3 -c "
import json, sys; d = json.loads(sys.argv[1]); u = json.loads(sys.argv[2])
assert d['oriented'] is True and u['oriented'] is False, (d, u)
assert d['layout'] == 'block' and d['orient'] == 'none' and d['plan']['orient']['chosen'] == 'none', d
assert 'oriented .tsg' in d['plan']['layout']['reason'], d
assert d['stages']['build'] == 0 and d['lists_streamed'] is False, d
assert (d['vertices'], d['edges'], d['id_range']) == (u['vertices'], u['edges'], u['id_range']), (d, u)" "$out" "$uout"
for g in star crawl karate; do
	check "$g: vertices and edges as the undirected file's" python3 -c "
import json, sys; d = json.loads(sys.argv[1]); u = json.loads(sys.argv[2])
assert (d['vertices'], d['edges']) == (u['vertices'], u['edges']), (d, u)" "$(tc "$T/$g.o.tsg")" "$(tc "$T/$g.u.tsg")"
done
"$B/tristream" count --device cpu "$T/star.o.tsg" >"$T/out" 2>/dev/null
check "star: the text says 50 vertices (the centre has in-edges only), stored oriented" grep -q "^graph: 50 vertices, 49 edges, stored oriented$" "$T/out"
check "--plan-only on an oriented file" eval '[ "$(rc_of "$B/tristream" count --quiet --plan-only --partitions 3 "$T/rmat.o.tsg")" = 0 ]'

# --- per-vertex counts and clustering: byte for byte the undirected file's
for g in "${graphs[@]}"; do
	for fmt in text binary; do
		rm -f "$T/pu" "$T/po"
		"$B/tristream" count --quiet --device cpu --per-vertex "$T/pu" --per-vertex-format $fmt "$T/$g.u.tsg" >/dev/null
		"$B/tristream" count --quiet --device cpu --threads 2 --partitions 3 --per-vertex "$T/po" \
			--per-vertex-format $fmt "$T/$g.o.tsg" >/dev/null
		if [ "$g$fmt" = emptytext ]; then # no vertex with an edge: no line
			check "$g --per-vertex $fmt: empty, as the undirected file's" eval '[ -f "$T/po" ] && [ ! -s "$T/po" ] && [ ! -s "$T/pu" ]'
		else
			check "$g --per-vertex $fmt: the undirected file's, byte for byte" same_file "$T/pu" "$T/po"
		fi
	done
	brute --per-vertex "$T/$g.u.tsg" >"$T/pb"
	"$B/tristream" count --quiet --device cpu --per-vertex "$T/po" "$T/$g.o.tsg" >/dev/null
	[ "$g" = empty ] || check "$g --per-vertex: brute's" same_file "$T/pb" "$T/po"
	cu=$(tc --clustering "$T/$g.u.tsg" | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['transitivity'], d['average_clustering'])")
	co=$(tc --clustering --threads 1 "$T/$g.o.tsg" | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['transitivity'], d['average_clustering'])")
	check "$g --clustering: the undirected file's ($co)" eval '[ -n "$co" ] && [ "$co" = "$cu" ]'
done
check "karate --clustering: brute's" eval '[ "$(brute --clustering "$T/karate.u.tsg")" = "$(tc --clustering "$T/karate.o.tsg" | python3 -c "import json,sys; d=json.load(sys.stdin); print(\"%.6f %.6f\" % (d[\"transitivity\"], d[\"average_clustering\"]))")" ]'

# --- k-cliques: on the CPU from the rows, the undirected file's and brute's
for g in karate rmat er web crawl clique star; do
	for k in 4 5; do
		want=$(tc --k $k "$T/$g.u.tsg" | field "['cliques']")
		for o in "" "--partitions 3 --threads 1" "--kclique-method pivot" "--kclique-method orient --threads 2"; do
			got=$(tc --k $k $o "$T/$g.o.tsg" | field "['cliques']")
			check "$g --k $k $o: $got, the undirected file's $want" same "$got" "$want"
		done
	done
	a=$(tc --k-all "$T/$g.u.tsg" | field "['clique_counts']")
	b=$(tc --k-all --partitions 2 "$T/$g.o.tsg" | field "['clique_counts']")
	check "$g --k-all: $b" eval '[ -n "$b" ] && [ "$a" = "$b" ]'
done
for g in karate clique er; do
	check "$g --k 4: brute's" same "$(tc --k 4 "$T/$g.o.tsg" | field "['cliques']")" "$(brute --k 4 "$T/$g.u.tsg")"
done
check "clique --k 5: C(30,5) = 142506" same "$(tc --k 5 "$T/clique.o.tsg" | field "['cliques']")" 142506
out=$("$B/tristream" count --quiet --json --k-all "$T/rmat.o.tsg")
check "--k-all under device auto: the CPU, said, no note on --k-all" python3 -c "
import json, sys; d = json.loads(sys.argv[1])
assert d['device'] == 'cpu' and d['layout'] == 'block' and d['kernel'] == 'cpu-clique-pivot', d
assert '--k-all does not apply' not in d.get('note', ''), d
assert d['plan']['device']['chosen'] == 'cpu', d" "$out"

# --- info and info --verify
for g in "${graphs[@]}"; do
	check "$g: info --verify" eval '[ "$(rc_of "$B/tristream" info --verify "$T/$g.o.tsg")" = 0 ]'
	check "... says it is oriented" grep -q "^format: tristream binary v1, oriented: rank-ordered rows, each edge once$" "$T/out"
	check "$g: info --json: oriented, and the undirected file's counts and histogram" python3 -c "
import json, sys; d = json.loads(sys.argv[1]); u = json.loads(sys.argv[2])
assert d['oriented'] is True and u['oriented'] is False and d['symmetry_exact'] is True, d
for k in ('vertices', 'edges', 'id_range', 'max_degree', 'mean_degree', 'degree_histogram'):
    assert d[k] == u[k], (k, d[k], u[k])
assert d['max_out_degree'] <= d['max_degree'], d" "$("$B/tristream" info --json --verify "$T/$g.o.tsg")" "$("$B/tristream" info --json "$T/$g.u.tsg")"
done

# an oriented file's degrees by id (io_graph_load_degrees): the top 2^18
# ranks in each thread's own counters, the rest atomic; R-MAT 19's ids
# pass 2^18, so both kinds count, at 1, 2 and 3 threads
gen --seed 3 rmat --scale 19 "$T/r19.u.tsg" && conv --oriented "$T/r19.u.tsg" "$T/r19.o.tsg"
u19=$("$B/tristream" info --json "$T/r19.u.tsg")
for t in 1 2 3; do
	check "R-MAT 19 oriented, info --threads $t: the undirected file's degrees and histogram" python3 -c "
import json, sys; d = json.loads(sys.argv[1]); u = json.loads(sys.argv[2])
assert d['oriented'] is True and u['oriented'] is False and d['id_range'] > 1 << 18, d
for k in ('vertices', 'edges', 'id_range', 'max_degree', 'mean_degree', 'degree_histogram'):
    assert d[k] == u[k], (k, d[k], u[k])" "$("$B/tristream" info --json --threads $t "$T/r19.o.tsg")" "$u19"
done

# --- damage: exit 3, no count, the file named, by every reader
cp "$T/rmat.o.tsg" "$T/good.tsg"
read -r r first nv nadj <<<"$(row2 "$T/good.tsg")"
read -r _ _ _ maxout hint _ <<<"$(hdr "$T/good.tsg")"
check "a row of two entries found" num "$first"
# $T/bad.tsg refused: exit 3, no count, the file named, by every reader
refused_file() { # name
	local name=$1 io
	for io in mmap pread uring; do
		check "$name, --io $io: exit 3" [ "$(rc_of "$B/tristream" count --quiet --device cpu --io $io "$T/bad.tsg")" = 3 ]
		check "$name, --io $io: no count, the file named" eval '[ ! -s "$T/out" ] && grep -q "bad.tsg" "$T/err"'
	done
	check "$name: info, exit 3" [ "$(rc_of "$B/tristream" info "$T/bad.tsg")" = 3 ]
	check "$name: --k 4, exit 3" [ "$(rc_of "$B/tristream" count --quiet --k 4 "$T/bad.tsg")" = 3 ]
}
damage() { # name, tsg_forge args...
	local name=$1; shift
	cp "$T/good.tsg" "$T/bad.tsg"
	if forge "$T/bad.tsg" "$@"; then
		refused_file "$name"
	else
		bad "$name: tsg_forge failed"
	fi
}
# an element of a section of good.tsg (kind, index, width 4 or 8)
elem() { python3 -c "
import struct, sys; b = open(sys.argv[1], 'rb').read()
nsec, = struct.unpack_from('<I', b, 20)
sec = {k: o for k, _, o, s, _ in (struct.unpack_from('<IIQQQ', b, 64 + 32 * i) for i in range(nsec))}
print(struct.unpack_from('<I' if sys.argv[4] == '4' else '<Q', b, sec[int(sys.argv[2])] + int(sys.argv[3]) * int(sys.argv[4]))[0])" "$T/good.tsg" "$@"; }
second=$((first + 1))
v0=$(elem 2 "$first" 4)
v1=$(elem 2 "$second" 4)
mid=$((nv / 2 + 1))
check "the elements read back" eval 'num "$v0" && num "$v1" && [ "$v0" -lt "$v1" ] && [ "$(elem 1 $((mid - 1)) 8)" -gt 0 ]'
damage "a downward entry (rank $r's first entry = $((r - 1)))" 2 "$first" 4 $((r - 1))
damage "an entry equal to its rank" 2 "$first" 4 "$r"
damage "a row with an entry twice (rank $r's first = its second)" 2 "$first" 4 "$v1"
cp "$T/good.tsg" "$T/bad.tsg"
if forge "$T/bad.tsg" 2 "$first" 4 "$v1" && forge "$T/bad.tsg" 2 "$second" 4 "$v0"; then
	refused_file "an unsorted row (rank $r's first two entries swapped)"
	check "... the error names the rank" grep -q "rank $r has a bad row" "$T/err"
else
	bad "the swap: tsg_forge failed"
fi
damage "an entry equal to nv" 2 "$second" 4 "$nv"
damage "an entry past nv" 2 "$second" 4 $((nv + 1000))
damage "offsets past nadj (a middle one)" 1 "$mid" 8 $((nadj + 1))
damage "offsets ending past nadj" 1 "$nv" 8 $((nadj + 1))
damage "offsets not monotone" 1 "$mid" 8 $(($(elem 1 $((mid - 1)) 8) - 1))
damage "a wrong maximum out-degree (one more)" 0 48 8 $((maxout + 1))
damage "a wrong maximum out-degree (one less)" 0 48 8 $((maxout - 1))
damage "a maximum out-degree over the degree hint" 0 56 8 $((maxout - 1))
damage "a rank map with an id twice" 5 1 4 "$(elem 5 0 4)"
damage "a rank map with an id past nv" 5 7 4 "$nv"
damage "a bad row checksum" --stale 2 "$second" 4 $((v1 + 1))
damage "a bad offset checksum" --stale 1 1 8 1
damage "a bad rank map checksum" --stale 5 0 4 1
damage "an unknown flag bit (3)" 0 12 4 $((4 | 8))
damage "the oriented flag with LZ4's" 0 12 4 6
damage "edges not equal to its entries" 0 32 8 $((nadj + 1))
damage "a rank map section of the wrong size" 0 $((64 + 2 * 32 + 16)) 8 4
cp "$T/good.tsg" "$T/bad.tsg"
forge "$T/bad.tsg" 5 1 4 "$(elem 5 0 4)"
"$B/tristream" count --quiet "$T/bad.tsg" >/dev/null 2>"$T/err"
check "the error says the rank map is not a permutation" grep -q "rank map is not a permutation" "$T/err"
head -c 8192 "$T/good.tsg" >"$T/bad.tsg"
refused_file "a truncated file"
# the degree hint cannot change a count: only info --verify checks it
cp "$T/good.tsg" "$T/hint.tsg"
forge "$T/hint.tsg" 0 56 8 $((hint + 1))
check "a wrong degree hint: counted all the same" same "$(tc "$T/hint.tsg" | field "['triangles']")" "$ref_rmat"
check "... info without --verify: exit 0" [ "$(rc_of "$B/tristream" info "$T/hint.tsg")" = 0 ]
check "... info --verify: exit 3, saying so" eval '[ "$(rc_of "$B/tristream" info --verify "$T/hint.tsg")" = 3 ] && grep -q "maximum degree is $((hint + 1)), the rows say $hint" "$T/err"'

# --- what needs the undirected lists: refused with one line, or named
refused() { # description, text the message must hold, count args...
	local what=$1 why=$2; shift 2
	check "$what: exit 2" [ "$(rc_of "$B/tristream" count --quiet "$@")" = 2 ]
	check "$what: one line saying why" one_line "$why"
	check "$what: no count" [ ! -s "$T/out" ]
}
O=$T/rmat.o.tsg
for l in arrival lstc sweep; do
	refused "--layout $l" "--layout $l needs the undirected lists: .*rmat.o.tsg is an oriented .tsg" --layout $l "$O"
done
refused "--batches (the arrival layout)" "the arrival layout (--batches applies to the arrival layout) needs the undirected lists" --batches 3 "$O"
refused "--read ranges" "--read ranges shares the orienting" --read ranges "$O"
refused "--read host" "--read host shares the orienting" --read host "$O"
refused "--orient" "--orient shapes how the graph is oriented: .*is stored oriented" --orient two-pass "$O"
refused "--pin-host" "--pin-host shapes how the graph is oriented" --pin-host on "$O"
refused "--order degeneracy" "--order degeneracy orients the undirected lists" --order degeneracy --k 4 "$O"
refused "--prune with --k" "--prune applies to the lstc layout: .*is an oriented .tsg" --prune closed --k 4 "$O"
refused "--scheme with --k" "--scheme applies to the lstc layout" --scheme hash --k 4 "$O"
refused "--k 4 --device gpu" "k-cliques of an oriented .tsg are counted on the CPU: not with --device gpu" --k 4 --device gpu "$O"
check "the undirected file takes --layout arrival" same "$(tc --layout arrival "$T/rmat.u.tsg" | field "['triangles']")" "$ref_rmat"
# a run of several graphs: the refusal is the oriented one's alone
rc=$(rc_of "$B/tristream" count --quiet --device cpu --layout lstc "$T/rmat.u.tsg" "$O")
check "several graphs, --layout lstc: the undirected one counted, the oriented one refused" \
	eval '[ "$rc" = 2 ] && grep -q "rmat.u.tsg  *$ref_rmat .*ok$" "$T/out" && grep -q "rmat.o.tsg .*usage error (exit 2)$" "$T/out"'
# commands that need the undirected lists name the file, exit 3
for cmd in "reorder"; do
	check "tristream $cmd of an oriented file: exit 3" [ "$(rc_of "$B/tristream" $cmd --quiet "$O" "$T/x.tsg")" = 3 ]
	check "... naming it, no output" eval 'grep -q "rmat.o.tsg: an oriented .tsg" "$T/err" && [ ! -e "$T/x.tsg" ]'
done
for to in text webgraph; do
	check "tristream-convert --to $to of an oriented file: exit 3" [ "$(rc_of "$B/tristream-convert" --quiet --to $to "$O" "$T/x")" = 3 ]
done
check "tristream-convert --oriented of an oriented file: exit 3" [ "$(rc_of "$B/tristream-convert" --quiet --oriented "$O" "$T/x.tsg")" = 3 ]
check "tristream-convert --oriented --to text: exit 2" [ "$(rc_of "$B/tristream-convert" --oriented --to text "$T/karate.txt" "$T/x")" = 2 ]
check "... and no output" [ ! -e "$T/x.tsg" ] && [ ! -e "$T/x" ]
# converted from every input kind: a gzip text, an LZ4 .tsg, --relabel
"$B/tristream" compress --quiet "$T/rmat.u.tsg" "$T/rmat.lz4.tsg"
check "converted --oriented from an LZ4 .tsg: the same file" eval 'conv --oriented "$T/rmat.lz4.tsg" "$T/x.tsg" && cmp -s "$T/x.tsg" "$T/rmat.o.tsg"'
check "converted --oriented from gzip text" eval 'conv --oriented "$SRC/tests/data/karate.txt.gz" "$T/x.tsg" && cmp -s "$T/x.tsg" "$T/karate.o.tsg"'
check "converted --oriented --relabel from ca-GrQc: 48260 (published)" eval 'conv --oriented --relabel "$SRC/tests/data/ca-GrQc.txt.gz" "$T/x.tsg" && same "$(tc "$T/x.tsg" | field "[\"triangles\"]")" 48260'
check "converted --oriented --threads 1: the same file" eval 'conv --oriented --threads 1 "$T/rmat.u.tsg" "$T/x.tsg" && cmp -s "$T/x.tsg" "$T/rmat.o.tsg"'
out=$("$B/tristream-convert" --quiet --json --oriented "$T/rmat.u.tsg" "$T/x.tsg")
check "convert --oriented --json: oriented, counts, max degrees" python3 -c "
import json, sys; d = json.loads(sys.argv[1])
assert d['oriented'] is True and d['edges'] == int(sys.argv[2]) and d['max_out_degree'] == int(sys.argv[3]), d" "$out" "$(hdr "$T/rmat.o.tsg" | cut -d' ' -f2)" "$maxout"

# --- the rows in LZ4 chunks (--oriented --compress lz4): both flags, the
# same graph; every count, cut and --io the plain oriented file's; each
# chunk checked as it comes (its own checksum), so a damaged one is exit 3
# with no count, read up or down
OZ=$T/rmat.oz.tsg
out=$("$B/tristream-convert" --quiet --json --oriented --compress lz4 "$T/rmat.u.tsg" "$OZ")
check "convert --oriented --compress lz4: json says lz4" eval 'echo "$out" | field "[\"compression\"]" | grep -qx lz4'
check "... flags oriented and LZ4, sections offsets, chunks, index, rank map" eval '[ "$(hdr "$OZ" | cut -d" " -f6-)" = "6 1:$((nv * 8 + 8)) 3:$(hdr "$OZ" | tr " " "\n" | sed -n "s/^3://p") 4:$(hdr "$OZ" | tr " " "\n" | sed -n "s/^4://p") 5:$((nv * 4))" ]'
check "... smaller than the plain oriented file" [ "$(stat -c %s "$OZ")" -lt "$(stat -c %s "$O")" ]
for g in er web crawl clique star empty karate; do
	conv --oriented --compress lz4 "$T/$g.u.tsg" "$T/$g.oz.tsg"
	check "$g, oriented LZ4" same "$(tc "$T/$g.oz.tsg" | field "['triangles']")" "$(tc "$T/$g.u.tsg" | field "['triangles']")"
done
for cut in columns rows; do
	for ov in off 1 7; do
		for io in mmap pread uring; do
			for th in 1 3; do
				check "oriented LZ4, --overlap $ov --overlap-cut $cut --io $io --threads $th" same "$(tc --overlap $ov --overlap-cut $cut --io $io --threads $th "$OZ" | field "['triangles']")" "$ref_rmat"
			done
		done
	done
done
rm -f "$T/pvz"
tc --overlap 7 --overlap-cut rows --per-vertex "$T/pvz" "$OZ" >/dev/null
"$B/tristream" count --quiet --device cpu --per-vertex "$T/pvu2" "$T/rmat.u.tsg" >/dev/null
check "oriented LZ4 --per-vertex: the undirected file's, byte for byte" same_file "$T/pvz" "$T/pvu2"
check "oriented LZ4 --k 4: the undirected file's" same "$(tc --k 4 "$T/karate.oz.tsg" | field "['cliques']")" "$(tc --k 4 "$T/karate.u.tsg" | field "['cliques']")"
check "oriented LZ4: tristream info --verify" eval '"$B/tristream" info --verify "$OZ" >/dev/null 2>&1'
rm -f "$T/x.tsg" "$T/y.tsg"
check "tristream compress of the oriented file: convert's LZ4 file, byte for byte" eval '"$B/tristream" compress --quiet "$O" "$T/x.tsg" && same_file "$T/x.tsg" "$OZ"'
check "tristream decompress of it: the plain oriented file, byte for byte" eval '"$B/tristream" decompress --quiet "$OZ" "$T/y.tsg" && same_file "$T/y.tsg" "$O"'
# a byte of a chunk changed, near the section's start (read last when read
# down) and near its end (read first)
zat=$(python3 -c "
import struct, sys
b = open(sys.argv[1], 'rb').read(4096)
nsec, = struct.unpack_from('<I', b, 20)
for i in range(nsec):
    k, _, o, n, _ = struct.unpack_from('<IIQQQ', b, 64 + 32 * i)
    if k == 3: print(o + 100, o + n - 100)" "$OZ")
check "the compressed row section found" eval '[ "$(echo "$zat" | wc -w)" = 2 ]'
for at in $zat; do
	cp "$OZ" "$T/badz.tsg"
	printf '\x55\xaa' | dd of="$T/badz.tsg" bs=1 seek="$at" conv=notrunc 2>/dev/null
	for cut in columns rows; do
		for ov in off 1 7; do
			for th in 1 4; do
				check "a damaged chunk at byte $at, --overlap $ov --overlap-cut $cut --threads $th: exit 3, no count" eval \
					'[ "$(rc_of "$B/tristream" count --quiet --device cpu --overlap $ov --overlap-cut $cut --threads $th "$T/badz.tsg")" = 3 ] && [ ! -s "$T/out" ] && grep -q badz.tsg "$T/err"'
			done
		done
	done
done
# lies with every checksum recomputed (tests/tsg_forge): more row entries
# than the chunks could hold, the chunk index gone (its kind renamed), a
# chunk's first vertex moved
for dmg in "row entries the chunks cannot hold|0 32 8 4000000000|0 40 8 4000000000" \
	"no chunk index|0 128 4 9" "the first chunk's first vertex moved|4 0 8 1"; do
	cp "$OZ" "$T/badz.tsg"
	ok_forge=1
	rest=${dmg#*|}
	while [ -n "$rest" ]; do
		one=${rest%%|*}
		# shellcheck disable=SC2086 # the forge's arguments, split on purpose
		forge "$T/badz.tsg" $one || ok_forge=0
		[ "$rest" = "$one" ] && rest= || rest=${rest#*|}
	done
	if [ $ok_forge = 1 ]; then
		for cut in columns rows; do
			check "oriented LZ4, ${dmg%%|*}, --overlap-cut $cut: exit 3, no count" eval \
				'[ "$(rc_of "$B/tristream" count --quiet --device cpu --overlap-cut $cut "$T/badz.tsg")" = 3 ] && [ ! -s "$T/out" ] && grep -q badz.tsg "$T/err"'
		done
	else
		bad "oriented LZ4, ${dmg%%|*}: tsg_forge failed"
	fi
done

# --- checkpoints key on the file
rm -f "$T/ck"
check "a checkpoint of the oriented file" same "$(tc --checkpoint "$T/ck" "$O" | field "['triangles']")" "$ref_rmat"
check "... finished, read back" same "$(tc --checkpoint "$T/ck" "$O" | field "['triangles']")" "$ref_rmat"
check "... not taken for the undirected file" eval '[ "$(rc_of "$B/tristream" count --quiet --device cpu --checkpoint "$T/ck" "$T/rmat.u.tsg")" != 0 ] && [ ! -s "$T/out" ]'

# --- counted as read (--overlap, src/lists_bg.h): units in the order
# their rows arrive, each waiting for its own; columns where every row is
# at hand (the CPU), the budget's units (--partitions) in read order; and
# with --overlap-cut rows (the GPU's default) row blocks, the file read
# from its end down
for cut in columns rows; do
	for ov in off auto 1 2 7 64 4096; do
		for th in 1 3; do
			check "--overlap $ov --overlap-cut $cut --threads $th" same "$(tc --overlap $ov --overlap-cut $cut --threads $th "$O" | field "['triangles']")" "$ref_rmat"
		done
	done
	for io in mmap pread uring; do
		check "--overlap 9 --overlap-cut $cut --io $io" same "$(tc --overlap 9 --overlap-cut $cut --io $io "$O" | field "['triangles']")" "$ref_rmat"
	done
	check "--overlap 5 --overlap-cut $cut --partitions 4" same "$(tc --overlap 5 --overlap-cut $cut --partitions 4 "$O" | field "['triangles']")" "$ref_rmat"
	for g in er web crawl clique star empty karate; do
		check "$g, --overlap 6 --overlap-cut $cut" same "$(tc --overlap 6 --overlap-cut $cut "$T/$g.o.tsg" | field "['triangles']")" "$(tc "$T/$g.u.tsg" | field "['triangles']")"
	done
done
check "the plan says 7 columns" eval '[ "$(tc --overlap 7 "$O" | field "['"'"'plan'"'"']['"'"'overlap'"'"']['"'"'chosen'"'"']")" = "7 columns" ]'
check "... or 7 row blocks read down" eval '[ "$(tc --overlap 7 --overlap-cut rows "$O" | field "['"'"'plan'"'"']['"'"'overlap'"'"']['"'"'chosen'"'"']")" = "7 row blocks, read from the top rank down" ]'
check "... and off where asked" eval '[ "$(tc --overlap off "$O" | field "['"'"'plan'"'"']['"'"'overlap'"'"']['"'"'chosen'"'"']")" = off ]'
check "... --partitions 4: its units in read order" eval 'tc --overlap 3 --partitions 4 "$O" | field "['"'"'plan'"'"']['"'"'overlap'"'"']['"'"'chosen'"'"']" | grep -q "units in read order"'
check "... the wait for the read in the stages" eval 'tc --overlap 7 "$O" | field "['"'"'stages'"'"']['"'"'read_wait'"'"']" | grep -Eq "^[0-9.e-]+$"'
"$B/tristream" count --quiet --device cpu --per-vertex "$T/pvu" "$T/rmat.u.tsg" >/dev/null
for cut in columns rows; do
	rm -f "$T/pv7" "$T/ck7"
	tc --overlap 7 --overlap-cut $cut --threads 3 --per-vertex "$T/pv7" "$O" >/dev/null
	check "--overlap 7 --overlap-cut $cut --per-vertex: the undirected file's, byte for byte" same_file "$T/pv7" "$T/pvu"
	check "--overlap 7 --overlap-cut $cut with a checkpoint" same "$(tc --overlap 7 --overlap-cut $cut --checkpoint "$T/ck7" "$O" | field "['triangles']")" "$ref_rmat"
	check "... read back" same "$(tc --overlap 7 --overlap-cut $cut --checkpoint "$T/ck7" "$O" | field "['triangles']")" "$ref_rmat"
	check "... not taken for other units (--partitions 3)" eval '[ "$(rc_of "$B/tristream" count --quiet --device cpu --overlap 7 --overlap-cut $cut --partitions 3 --checkpoint "$T/ck7" "$O")" != 0 ] && [ ! -s "$T/out" ]'
done
for opt in "--overlap 4" "--overlap-cut rows"; do
	# shellcheck disable=SC2086 # the option and its value, split on purpose
	check "$opt on an undirected file: exit 2" [ "$(rc_of "$B/tristream" count --quiet $opt "$T/rmat.u.tsg")" = 2 ]
	check "... naming the option" grep -q -- "${opt% *} applies to an oriented" "$T/err"
done
for v in 0 x -1 4097; do
	check "--overlap $v: exit 2" [ "$(rc_of "$B/tristream" count --quiet --overlap "$v" "$O")" = 2 ]
done
for v in "" x row columns,rows; do
	check "--overlap-cut '$v': exit 2" [ "$(rc_of "$B/tristream" count --quiet --overlap-cut "$v" "$O")" = 2 ]
done
# damage past the first column (late in the file), or below the top row
# blocks (early in the file, read last down): the units before it may be
# counted, but the count is never reported (exit 3, nothing on stdout), at
# any width
late=$((nv * 3 / 4))
lfirst=$(elem 1 "$late" 8)
lv=$(elem 2 "$lfirst" 4)
check "a late row found" eval 'num "$lfirst" && [ "$lv" -gt "$late" ]'
early=$((nv / 8))
efirst=$(elem 1 "$early" 8)
ev=$(elem 2 "$efirst" 4)
check "an early row found" eval 'num "$efirst" && [ "$ev" -gt "$early" ]'
for dmg in "a late downward entry|2 $lfirst 4 $((late - 1))" "a late entry past nv|2 $lfirst 4 $((nv + 5))" \
	"a stale row checksum|--stale 2 $lfirst 4 $((lv + 1))" \
	"an early downward entry|2 $efirst 4 $((early - 1))" "an early stale row checksum|--stale 2 $efirst 4 $((ev + 1))"; do
	cp "$T/good.tsg" "$T/bad.tsg"
	# shellcheck disable=SC2086 # the forge's arguments, split on purpose
	if forge "$T/bad.tsg" ${dmg#*|}; then
		for cut in columns rows; do
			for ov in 1 3 16; do
				for th in 1 4; do
					check "${dmg%%|*}, --overlap $ov --overlap-cut $cut --threads $th: exit 3, no count" eval \
						'[ "$(rc_of "$B/tristream" count --quiet --device cpu --overlap $ov --overlap-cut $cut --threads $th "$T/bad.tsg")" = 3 ] && [ ! -s "$T/out" ] && grep -q bad.tsg "$T/err"'
				done
			done
		done
	else
		bad "${dmg%%|*}: tsg_forge failed"
	fi
done

# --- the rows' piece checksums (section 6, 16 MiB pieces): rows of 17.6 MB,
# two pieces, the top one short. Read down (--overlap-cut rows) each piece
# is checked as it comes, so a damaged one is named; read up, the section's
# checksum says it; damage to section 6 itself is exit 3 either way; and a
# file without section 6 (as written before it) counts as before
gen --seed 10 er --vertices 600000 --edges 4400000 "$T/big.u.tsg"
conv --oriented "$T/big.u.tsg" "$T/big.o.tsg"
ref_big=$(brute "$T/big.u.tsg")
check "big: brute's count" num "$ref_big"
read -r _ bne _ _ _ _ _ _ _ bs4 <<<"$(hdr "$T/big.o.tsg")"
check "big: two pieces ($bne edges, section 6 '$bs4')" eval '[ $((bne * 4)) -gt $((16 << 20)) ] && [ $((bne * 4)) -le $((32 << 20)) ] && [ "$bs4" = 6:24 ]'
for cut in columns rows; do
	for io in mmap pread uring; do
		check "big, --overlap-cut $cut --io $io: brute's" same "$(tc --overlap-cut $cut --io $io "$T/big.o.tsg" | field "['triangles']")" "$ref_big"
	done
done
check "big: info --verify" eval '[ "$(rc_of "$B/tristream" info --verify "$T/big.o.tsg")" = 0 ]'
# where a section lies: "offset size"
sec() { python3 -c "
import struct, sys
b = open(sys.argv[1], 'rb').read(4096)
nsec, = struct.unpack_from('<I', b, 20)
for i in range(nsec):
    k, _, o, n, _ = struct.unpack_from('<IIQQQ', b, 64 + 32 * i)
    if k == int(sys.argv[2]): print(o, n)" "$1" "$2"; }
read -r o2 n2 <<<"$(sec "$T/big.o.tsg" 2)"
read -r o6 n6 <<<"$(sec "$T/big.o.tsg" 6)"
check "big: sections 2 and 6 found" eval 'num "$o2" && num "$n2" && num "$o6" && [ "$n6" = 24 ]'
# flip a byte of $T/big.o.tsg at $1 into $T/bad.tsg
flip() { cp "$T/big.o.tsg" "$T/bad.tsg" && printf '\x5a' | dd of="$T/bad.tsg" bs=1 seek="$1" conv=notrunc 2>/dev/null; }
for where in "top|$((o2 + n2 - 100))|1" "bottom|$((o2 + 100))|0"; do
	IFS='|' read -r name at piece <<<"$where"
	flip "$at"
	for io in mmap pread uring; do
		for th in 1 4; do
			check "a row byte damaged near the $name, --overlap-cut rows --io $io --threads $th: exit 3, no count" eval \
				'[ "$(rc_of "$B/tristream" count --quiet --device cpu --overlap-cut rows --io $io --threads $th "$T/bad.tsg")" = 3 ] && [ ! -s "$T/out" ]'
			check "... piece $piece named" grep -q "bad.tsg: checksum mismatch in the row section, piece $piece (" "$T/err"
		done
	done
	check "a row byte damaged near the $name, read up: exit 3, no count" eval \
		'[ "$(rc_of "$B/tristream" count --quiet --device cpu --overlap-cut columns "$T/bad.tsg")" = 3 ] && [ ! -s "$T/out" ]'
	check "... the section's checksum" grep -q "bad.tsg: checksum mismatch in the row section (file is corrupt)" "$T/err"
	check "... info: exit 3" [ "$(rc_of "$B/tristream" info "$T/bad.tsg")" = 3 ]
done
# section 6 itself: a checksum's byte, its piece size (checksums recomputed)
flip $((o6 + 12))
for cut in columns rows; do
	check "a byte of section 6 damaged, --overlap-cut $cut: exit 3, no count" eval \
		'[ "$(rc_of "$B/tristream" count --quiet --device cpu --overlap-cut $cut "$T/bad.tsg")" = 3 ] && [ ! -s "$T/out" ]'
	check "... its checksum named" grep -q "bad.tsg: checksum mismatch in the row piece checksum section" "$T/err"
done
cp "$T/big.o.tsg" "$T/bad.tsg"
if forge "$T/bad.tsg" 6 0 8 8192; then
	for cut in columns rows; do
		check "section 6 with pieces of 8 KiB, --overlap-cut $cut: exit 3" eval \
			'[ "$(rc_of "$B/tristream" count --quiet --device cpu --overlap-cut $cut "$T/bad.tsg")" = 3 ] && grep -q "bad.tsg: .*row piece checksums" "$T/err"'
	done
else
	bad "section 6's piece size: tsg_forge failed"
fi
# section 6 dropped from the table (entry zeroed, 3 sections, the header's
# checksum recomputed by tsg_forge): read as a file written before it
for g in big rmat; do
	cp "$T/$g.o.tsg" "$T/old.tsg"
	python3 -c "
import sys
with open(sys.argv[1], 'r+b') as f:
    f.seek(64 + 3 * 32); f.write(bytes(32))" "$T/old.tsg"
	if forge "$T/old.tsg" 0 20 4 3; then
		eval "ref=\$ref_$g"
		check "$g without section 6: 3 sections" eval '[ "$(hdr "$T/old.tsg" | wc -w)" = 9 ]'
		for cut in columns rows; do
			for io in pread uring; do
				check "$g without section 6, --overlap-cut $cut --io $io: brute's" same "$(tc --overlap-cut $cut --io $io "$T/old.tsg" | field "['triangles']")" "$ref"
			done
		done
		check "$g without section 6: info --verify" eval '[ "$(rc_of "$B/tristream" info --verify "$T/old.tsg")" = 0 ]'
	else
		bad "$g without section 6: tsg_forge failed"
	fi
done
read -r o2 n2 <<<"$(sec "$T/old.tsg" 2)"
cp "$T/old.tsg" "$T/bad.tsg"
printf '\x5a' | dd of="$T/bad.tsg" bs=1 seek=$((o2 + n2 - 100)) conv=notrunc 2>/dev/null
check "without section 6, a row byte damaged near the top, --overlap-cut rows: exit 3, no count" eval \
	'[ "$(rc_of "$B/tristream" count --quiet --device cpu --overlap-cut rows "$T/bad.tsg")" = 3 ] && [ ! -s "$T/out" ]'
check "... the section's checksum, once every row is in" grep -q "bad.tsg: checksum mismatch in the row section (file is corrupt)" "$T/err"
# compress and decompress: no section 6 in the LZ4 file, and back byte for byte
rm -f "$T/x.tsg" "$T/y.tsg"
"$B/tristream" compress --quiet "$T/big.o.tsg" "$T/x.tsg"
"$B/tristream" decompress --quiet "$T/x.tsg" "$T/y.tsg"
check "big: compressed, no section 6" eval '[ -s "$T/x.tsg" ] && ! hdr "$T/x.tsg" | grep -q " 6:"'
check "big: compress then decompress: the convert --oriented file, byte for byte" same_file "$T/y.tsg" "$T/big.o.tsg"
check "big compressed: brute's, read down" same "$(tc --overlap-cut rows "$T/x.tsg" | field "['triangles']")" "$ref_big"

# --- two MPI ranks (where the build has MPI)
# the library (src/api.c, through the CLI's own count path) and Python:
# the same numbers from the oriented file as from the undirected one
if [ -f "$B/libtristream.so" ]; then
	lib() { # file -> triangles, transitivity, average clustering, summed local clustering
		TRISTREAM_LIB="$B/libtristream.so" PYTHONPATH="$SRC/python" python3 -c '
import sys, tristream as t
f = sys.argv[1]
c = t.clustering(f, device="cpu")
print(t.count(f, device="cpu"), t.transitivity(f, device="cpu"), t.average_clustering(f, device="cpu"), repr(sum(sorted(c))))' "$1" 2>&1
	}
	u=$(lib "$T/rmat.u.tsg"); o=$(lib "$T/rmat.o.tsg")
	check "the library on the oriented file: '$o', the undirected one's '$u'" eval '[ -n "$u" ] && [ "$u" = "$o" ] && num "${u%% *}"'
else
	skip "no libtristream.so in $B: the library on an oriented file not checked"
fi
if command -v mpirun >/dev/null && grep -q TSG_HAVE_MPI "$B/build.ninja" 2>/dev/null; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
	mp() { mpirun -n 2 --oversubscribe "$B/tristream" count --quiet --json --device cpu "$@"; }
	check "2 ranks: triangles" same "$(mp "$O" | field "['triangles']")" "$ref_rmat"
	check "2 ranks, --partitions 4" same "$(mp --partitions 4 "$O" | field "['triangles']")" "$ref_rmat"
	check "2 ranks, --k 4" same "$(mp --k 4 "$O" | field "['cliques']")" "$(tc --k 4 "$T/rmat.u.tsg" | field "['cliques']")"
	rm -f "$T/pm"
	mp --per-vertex "$T/pm" "$O" >/dev/null
	"$B/tristream" count --quiet --device cpu --per-vertex "$T/pu" "$T/rmat.u.tsg" >/dev/null
	check "2 ranks, --per-vertex: the undirected file's" same_file "$T/pm" "$T/pu"
else
	skip "this build has no MPI (or mpirun is missing): two ranks on an oriented file not checked"
fi
finish_checks
