#!/usr/bin/env bash
# tests/repro.sh BUILD_DIR SRC_DIR - inputs that cannot lie (issue 51): the
# crafted inputs of tests/data/repro/ (copied from ../shared/repro, whose
# README says what each did), each of which must end in exit 3 with a
# message naming the file, or in its exact count, at --threads 1, 2, 3 and
# 16, in memory, under --host-mem (the sorted path), with --no-transpose
# and --layout arrival (decoded as counted) where they apply, and through
# tristream-convert; none may recurse without bound or allocate out of
# proportion to the file (some run under a 1 GiB address-space limit).
# Then variants of each that the repro files do not cover (CRLF and mixed
# line ends, a transpose of equal size that is not the graph's, checkpoints
# rewritten with their checksums recomputed by tests/ckpt_forge), and, in
# a build with MPI, the failure paths of src/dist.c: a failed MPI call on
# any rank ends every rank with exit 6 (never a hang: meson's timeout), a
# rank out of memory at the start ends every rank with exit 4 (test hook
# TSG_TEST_MPI_FAIL). Ends with "N passed, N failed".
set -u
B=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
TS="1 2 3 16"
# writable copies; the large ones are stored gzipped (the gzip input too,
# which stays as it is)
cp -r "$SRC/tests/data/repro" "$T/r"
chmod -R u+w "$T/r"
find "$T/r" -name '*.gz' ! -name 't2m_10.txt.gz' -exec gunzip {} +
R=$T/r

tc() { "$B/tristream" count --quiet --device cpu "$@"; }
conv() { "$B/tristream-convert" --quiet "$@"; }
rc_of() { "$@" >"$T/out" 2>"$T/err"; echo $?; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])" 2>/dev/null; }
# refused: exit 3 and the message names NAME (a path, or part of one)
refused() { # description, NAME, command...
	local what=$1 name=$2; shift 2
	local rc
	rc=$(rc_of "$@")
	check "$what: exit 3 (got $rc)" [ "$rc" = 3 ]
	check "$what: the message names $name" grep -qF -- "$name" "$T/err"
}
# counted: exit 0 and the JSON's triangles are exactly N
counted() { # description, N, command... (a count with --json)
	local what=$1 want=$2; shift 2
	local got
	got=$("$@" 2>"$T/err" | field triangles)
	check "$what: $got triangles, $want expected" same "$got" "$want"
}

# --- bv_deepref: a star whose 50,000 lists each copy the one before (a
# chain of references 49,999 long; maxrefcount 2^20 allows it). Decoded
# with no recursion at every thread count and path: 0 triangles, 49,999
# edges (a star has none)
D=$R/bv_deepref/c
for t in $TS; do
	for p in "" "--no-transpose" "--host-mem 32M" "--layout arrival"; do
		out=$(tc --json --threads $t $p "$D" 2>"$T/err")
		got=$(echo "$out" | field triangles) e=$(echo "$out" | field edges)
		check "bv_deepref T=$t $p: $got triangles, $e edges (0, 49999)" \
			sh -c "[ '$got' = 0 ] && [ '$e' = 49999 ]"
	done
done
for p in "" "--no-transpose"; do
	check "bv_deepref converts ($p)" conv --threads 16 $p "$D" "$T/deep.tsg"
	check "bv_deepref converted ($p): brute 0" same "$("$B/tests/brute" "$T/deep.tsg")" 0
done
# the same chain under maxrefcount=3: refused wherever the chain is met
mkdir "$T/deep3"
for f in c c-t; do
	cp "$R/bv_deepref/$f.graph" "$R/bv_deepref/$f.offsets" "$T/deep3/"
	sed 's/^maxrefcount=.*/maxrefcount=3/' "$R/bv_deepref/$f.properties" >"$T/deep3/$f.properties"
done
for t in $TS; do
	for p in "" "--no-transpose" "--host-mem 32M" "--layout arrival"; do
		refused "bv_deepref, maxrefcount=3, T=$t $p" "$T/deep3/c" tc --threads $t $p "$T/deep3/c"
	done
	refused "bv_deepref, maxrefcount=3: convert T=$t" "$T/deep3/c" conv --threads $t "$T/deep3/c" "$T/x.tsg"
done

# --- bv_chain_threads: maxrefcount=1 and a chain of 7: the same answer at
# every thread count (it was counted at 1-2 threads, refused at 3+)
D=$R/bv_chain_threads/g
for t in $TS; do
	for p in "" "--no-transpose" "--host-mem 32M" "--layout arrival"; do
		refused "bv_chain_threads T=$t $p" "$D" tc --threads $t $p "$D"
	done
	refused "bv_chain_threads: convert T=$t" "$D" conv --threads $t "$D" "$T/x.tsg"
	refused "bv_chain_threads: convert --no-transpose T=$t" "$D" conv --threads $t --no-transpose "$D" "$T/x.tsg"
done
check "bv_chain_threads: the message names the chain" grep -q "chain of references longer than maxrefcount" "$T/err"

# --- bv_transpose_hostmem: a transpose that is not the graph's (one arc
# more) is refused on every path, the sorted one too (--host-mem); a
# transpose of the same size whose arcs differ (the graph as its own
# transpose: it is not symmetric) by the hash check of both
D=$R/bv_transpose_hostmem/g
mkdir "$T/selft"
cp "$R/bv_transpose_hostmem/g.graph" "$T/selft/s.graph"
cp "$R/bv_transpose_hostmem/g.properties" "$T/selft/s.properties"
cp "$R/bv_transpose_hostmem/g.graph" "$T/selft/s-t.graph"
cp "$R/bv_transpose_hostmem/g.properties" "$T/selft/s-t.properties"
for t in $TS; do
	for p in "" "--host-mem 1M" "--host-mem 32M" "--layout arrival"; do
		refused "bv_transpose_hostmem T=$t $p" "$D" tc --threads $t $p "$D"
		refused "a same-size transpose that is not the graph's T=$t $p" "$T/selft/s" \
			tc --threads $t $p "$T/selft/s"
	done
	for c in "" "--relabel" "--to text"; do
		refused "bv_transpose_hostmem: convert $c T=$t" "$D" conv --threads $t $c "$D" "$T/x.out"
		refused "a same-size transpose: convert $c T=$t" "$T/selft/s" conv --threads $t $c "$T/selft/s" "$T/x.out"
	done
done
check "the same-size transpose: said to be no transpose" grep -q "is not the transpose of" "$T/err"
# --no-transpose ignores BASE-t, as asked: the graph alone, the same count
# at every thread count
ref=$(tc --json --threads 1 --no-transpose "$D" | field triangles)
check "bv_transpose_hostmem --no-transpose counts (the transpose ignored): $ref" num "$ref"
for t in 2 3 16; do
	counted "bv_transpose_hostmem --no-transpose T=$t" "$ref" tc --json --threads $t --no-transpose "$D"
done

# --- bv_huge_nodes: 2^32 - 2 nodes in a 216-byte crawl: refused before
# anything is allocated for them (1 GiB of address space is plenty)
D=$R/bv_huge_nodes/wgsmall
for t in $TS; do
	for p in "" "--no-transpose" "--host-mem 32M"; do
		refused "bv_huge_nodes T=$t $p" "$D" sh -c "ulimit -v 1048576; exec $B/tristream count --quiet --device cpu --threads $t $p $D"
	done
	refused "bv_huge_nodes: convert T=$t" "$D" sh -c "ulimit -v 1048576; exec $B/tristream-convert --quiet --threads $t $D $T/x.tsg"
done
check "bv_huge_nodes: the message gives the bound" grep -q "each node's list takes one at least" "$T/err"

# --- text_cr_only: lone CR line ends; 1 triangle (0-1-2)
D=$R/text_cr_only/cr.txt
for t in $TS; do
	counted "text_cr_only T=$t" 1 tc --json --threads $t "$D"
	counted "text_cr_only T=$t --host-mem 32M" 1 tc --json --threads $t --host-mem 32M "$D"
done
check "text_cr_only converts" conv "$D" "$T/cr.tsg"
check "text_cr_only converted: brute 1" same "$("$B/tests/brute" "$T/cr.tsg")" 1
check "text_cr_only converted: 3 edges" sh -c "$B/tristream info --json $T/cr.tsg | grep -q '\"edges\":3'"
# CRLF, lone CR, a comment, a third column and blank lines mixed: 2
# triangles; line numbers count each end once
printf '# c\r0 1 9\r\n1 2\r\r2 0\n2 3\r\n3 0 7\r' >"$T/mixed.txt"
for t in $TS; do counted "mixed line ends T=$t" 2 tc --json --threads $t "$T/mixed.txt"; done
printf '0 1\r\n1 2\r2 0\rbanana\r\n' >"$T/crbad.txt"
refused "a bad line after CR and CRLF ends" "$T/crbad.txt:4:" tc "$T/crbad.txt"

# --- mtx_nnz_bounds: fewer entries than nnz, entries past the size line
for f in trunc over; do
	D=$R/mtx_nnz_bounds/$f.mtx
	for t in $TS; do
		refused "mtx $f T=$t" "$D" tc --threads $t "$D"
		refused "mtx $f T=$t --host-mem 32M" "$D" tc --threads $t --host-mem 32M "$D"
	done
	refused "mtx $f: convert" "$D" conv "$D" "$T/x.tsg"
	refused "mtx $f: convert --skip-bad-lines" "$D" conv --skip-bad-lines "$D" "$T/x.tsg"
done
refused "mtx: too few entries, said" "says 9" tc "$R/mtx_nnz_bounds/trunc.mtx"
refused "mtx: an entry past the size line, said" "over.mtx:6: entry outside the 3 x 3 matrix" tc "$R/mtx_nnz_bounds/over.mtx"
# more entries than nnz, all inside the matrix
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n3 1\n' >"$T/more.mtx"
refused "mtx: more entries than nnz" "$T/more.mtx" tc "$T/more.mtx"
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 2\n3 1\n' >"$T/right.mtx"
counted "mtx: as many entries as nnz" 1 tc --json "$T/right.mtx"

# --- empty_tsg, and one rule for empty inputs in both tools
D=$R/empty_tsg/empty.tsg
for t in $TS; do
	refused "empty.tsg T=$t" "$D" tc --threads $t "$D"
	refused "empty.tsg --allow-empty T=$t" "$D" tc --threads $t --allow-empty "$D"
done
refused "empty.tsg: info" "$D" "$B/tristream" info "$D"
refused "empty.tsg: convert" "$D" conv "$D" "$T/x.tsg"
refused "empty.tsg: convert --allow-empty" "$D" conv --allow-empty "$D" "$T/x.tsg"
head -c 100 "$SRC/tests/data/karate.txt.gz" | gzip -dc 2>/dev/null >"$T/garbage.tsg"
printf 'not a graph\n' >>"$T/garbage.tsg"
refused "a .tsg without the magic: count" "$T/garbage.tsg" tc "$T/garbage.tsg"
refused "a .tsg without the magic: convert" "$T/garbage.tsg" conv --skip-bad-lines "$T/garbage.tsg" "$T/x.tsg"
printf '# nothing\n' >"$T/nothing.txt"
: >"$T/zero.txt"
for f in nothing.txt zero.txt; do
	for t in $TS; do
		refused "$f, no edges: count T=$t" "$T/$f" tc --threads $t "$T/$f"
		counted "$f --allow-empty T=$t" 0 tc --json --threads $t --allow-empty "$T/$f"
	done
	refused "$f: convert" "$T/$f" conv "$T/$f" "$T/x.tsg"
	check "$f: convert --allow-empty" conv --allow-empty "$T/$f" "$T/x.tsg"
done
"$B/tristream-gen" --quiet empty --vertices 5 "$T/e5.tsg"
counted "a .tsg of no edges is a graph: counted" 0 tc --json "$T/e5.tsg"
conv --to webgraph "$T/e5.tsg" "$T/e5w"
for p in "" "--no-transpose" "--host-mem 32M"; do
	refused "a crawl of 0 arcs $p" "$T/e5w" tc $p "$T/e5w"
	counted "a crawl of 0 arcs --allow-empty $p" 0 tc --json --allow-empty $p "$T/e5w"
done
for p in "" "--no-transpose"; do
	refused "a crawl of 0 arcs: convert $p" "$T/e5w" conv $p "$T/e5w" "$T/x.tsg"
	check "a crawl of 0 arcs: convert --allow-empty $p" conv --allow-empty $p "$T/e5w" "$T/x.tsg"
done
check "count --help names --allow-empty" sh -c "$B/tristream count --help | grep -q -- --allow-empty"

# --- text_huge_id: a 10-byte file declaring 214,748,364 vertices, and a
# triangle with one id that far: refused at once, naming --relabel, within
# 1 GiB of address space (it took 7.5 GB); --relabel counts it exactly in
# memory in proportion to its edges
for f in h.txt hid.txt; do
	D=$R/text_huge_id/$f
	for t in $TS; do
		for p in "" "--host-mem 32M"; do
			refused "text_huge_id $f T=$t $p" "$D" sh -c "ulimit -v 1048576; exec $B/tristream count --quiet --device cpu --threads $t $p $D"
		done
	done
	check "text_huge_id $f: --relabel named" grep -q -- "--relabel" "$T/err"
	refused "text_huge_id $f: convert" "$D" sh -c "ulimit -v 1048576; exec $B/tristream-convert --quiet $D $T/x.tsg"
done
check "hid.txt: convert --relabel within 1 GiB" sh -c "ulimit -v 1048576; exec $B/tristream-convert --quiet --relabel $R/text_huge_id/hid.txt $T/hid.tsg"
counted "hid.txt relabelled" 1 tc --json "$T/hid.tsg"
check "hid.txt relabelled: 4 vertices" sh -c "$B/tristream info --json $T/hid.tsg | grep -q '\"vertices\":4,'"
check "h.txt: convert --relabel --allow-empty within 1 GiB" sh -c "ulimit -v 1048576; exec $B/tristream-convert --quiet --relabel --allow-empty $R/text_huge_id/h.txt $T/h.tsg"
# legal ids up to 2^32 - 2 in a file of lines enough are not refused
# (here a vertex-count line of 2^20 + 1 over 65,537 lines, 16 vertices a line)
python3 -c "
print(1048577)
for i in range(65536): print(i, i + 1)" >"$T/dense.txt"
counted "a vertex-count line within 16 a line is taken" 0 tc --json "$T/dense.txt"

# --- gz_short_member: a whole member, then 10 bytes of a second
D=$R/gz_short_member/t2m_10.txt.gz
for g in libdeflate zlib auto; do
	for t in 1 4 16; do
		refused "gz_short_member --gzip $g T=$t" "$D" conv --gzip $g --threads $t "$D" "$T/x.tsg"
	done
done
for t in $TS; do refused "gz_short_member: count T=$t" "$D" tc --threads $t "$D"; done
# a whole second member, and bytes that are no member after the last,
# still pass with both decoders
printf '0 1\n1 2\n' | gzip >"$T/two.gz"
printf '2 0\n' | gzip >>"$T/two.gz"
cp "$T/two.gz" "$T/tail.gz"
printf 'trailing' >>"$T/tail.gz"
for g in libdeflate zlib; do
	for f in two tail; do
		conv --gzip $g "$T/$f.gz" "$T/x.tsg"
		check "$f.gz with $g: 1 triangle" same "$("$B/tests/brute" "$T/x.tsg")" 1
	done
done

# --- ckpt_crafted: a checkpoint that does not add up is refused
G=$R/ckpt_crafted/rmat7.tsg
ref=$("$B/tests/brute" "$G")
check "rmat7: brute $ref" same "$ref" 1276
cp "$R/ckpt_crafted/done.ckpt" "$T/done.ckpt"
refused "done.ckpt (a total of 3 amid the units)" "$T/done.ckpt" tc --layout block --partitions 4 --checkpoint "$T/done.ckpt" "$G"
# unitidx.ckpt moves unit 0's count to unit 1 with its checksum recomputed:
# each unit's record carries a key of the plan and its index, which the
# moved record does not match
cp "$R/ckpt_crafted/unitidx.ckpt" "$T/unitidx.ckpt"
refused "unitidx.ckpt (unit 0's count moved to unit 1)" "$T/unitidx.ckpt" tc --layout lstc --partitions 3 --checkpoint "$T/unitidx.ckpt" "$G"
forge() { "$B/tests/ckpt_forge" "$@"; }
fresh() { # a complete checkpoint of the block layout's 10 units at T/$1
	rm -f "$T/$1"
	tc --layout block --partitions 4 --checkpoint "$T/$1" "$G" >/dev/null
}
fresh ok.ckpt
counted "a complete checkpoint gives the total" "$ref" tc --json --layout block --partitions 4 --checkpoint "$T/ok.ckpt" "$G"
# records: 0 plan, 1..10 the units in the order counted, 11 the total
fresh a.ckpt; forge "$T/a.ckpt" 11 3 10 999
refused "a total that is not the units' sum" "$T/a.ckpt" tc --layout block --partitions 4 --checkpoint "$T/a.ckpt" "$G"
fresh b.ckpt; forge "$T/b.ckpt" 12 2 3 0
refused "a unit recorded after the total" "$T/b.ckpt" tc --layout block --partitions 4 --checkpoint "$T/b.ckpt" "$G"
fresh c.ckpt; head -c $((64 + 32 * 5)) "$T/c.ckpt" >"$T/c2.ckpt"; mv "$T/c2.ckpt" "$T/c.ckpt"
cp "$T/c.ckpt" "$T/c3.ckpt"
counted "a cut checkpoint (4 units) resumes" "$ref" tc --json --layout block --partitions 4 --checkpoint "$T/c3.ckpt" "$G"
forge "$T/c.ckpt" 5 2 "$(od -An -tu4 -j $((64 + 32 * 4 + 4)) -N4 "$T/c.ckpt" | tr -d ' ')" 0
refused "a unit recorded twice (same count)" "$T/c.ckpt" tc --layout block --partitions 4 --checkpoint "$T/c.ckpt" "$G"
fresh d.ckpt; head -c $((64 + 32)) "$T/d.ckpt" >"$T/d2.ckpt"; mv "$T/d2.ckpt" "$T/d.ckpt"
forge "$T/d.ckpt" 1 3 10 "$ref"
refused "a total without the units" "$T/d.ckpt" tc --layout block --partitions 4 --checkpoint "$T/d.ckpt" "$G"
check "a total without the units: said" grep -q "0 of its 10 units" "$T/err"
fresh e.ckpt; forge "$T/e.ckpt" 11 3 9 "$ref"
refused "a total naming another unit count" "$T/e.ckpt" tc --layout block --partitions 4 --checkpoint "$T/e.ckpt" "$G"

# --- MPI: every call checked; a failure ends every rank, never a hang
if command -v mpirun >/dev/null && grep -q TSG_HAVE_MPI "$B/build.ninja" 2>/dev/null; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
	# mpirun 4.1 itself crashes now and then (SIGSEGV in its help-message
	# server) when a rank calls MPI_Abort under MALLOC_PERTURB_, which meson
	# sets: the ranks get it, mpirun does not
	mp() {
		if [ -n "${MALLOC_PERTURB_:-}" ]; then
			env -u MALLOC_PERTURB_ mpirun -x MALLOC_PERTURB_="$MALLOC_PERTURB_" -n 2 --oversubscribe "$@"
		else
			mpirun -n 2 --oversubscribe "$@"
		fi
	}
	got=$(mp "$B/tristream" count --quiet --json --device cpu --layout block "$G" 2>/dev/null | field triangles)
	check "2 ranks count rmat7: $got" same "$got" "$ref"
	for w in dist_agree:0 dist_agree:1 dist_same_u64:1 dist_sum_u64:0 dist_gather_rows:1 \
		 dist_counter_open:1 dist_host_alloc:1 dist_host_free:0; do
		rc=$(TSG_TEST_MPI_FAIL=$w rc_of mp "$B/tristream" count --quiet --device cpu --layout block "$G")
		check "MPI call failing in $w: every rank ends, exit 6 (got $rc)" [ "$rc" = 6 ]
	done
	TSG_TEST_MPI_FAIL=dist_agree:0 mp "$B/tristream" count --quiet --device cpu "$G" >"$T/out" 2>&1
	check "a failing MPI call is named" grep -q 'MPI: MPI_Allreduce.* in dist_agree failed' "$T/out"
	# both ranks end on their own and say why. What they said is read from
	# a second run in which mpirun does not kill the job at the first
	# non-zero exit (it then exits 0), since that kill dropped the other
	# rank's last line now and then (CI, 2026-11-26)
	for w in dist_init_alloc:0 dist_init_alloc:1; do
		rc=$(TSG_TEST_MPI_FAIL=$w rc_of mp "$B/tristream" count --quiet --device cpu "$G")
		check "a rank out of memory at the start ($w): every rank ends, exit 4 (got $rc)" [ "$rc" = 4 ]
		OMPI_MCA_orte_abort_on_non_zero_status=0 TSG_TEST_MPI_FAIL=$w rc_of mp "$B/tristream" count --quiet --device cpu "$G" >/dev/null
		check "a rank out of memory at the start ($w): said" grep -q "rank ${w#*:} ran out of memory starting MPI" "$T/err"
	done
	# the other rank learns it in the first collective and ends on its own
	# (not killed by mpirun for the one that left)
	check "a rank out of memory at the start: the other says so" grep -q "another rank ran out of memory starting MPI" "$T/err"
else
	skip "this build has no MPI (or mpirun is missing): the MPI failure checks not run"
fi

finish_checks
