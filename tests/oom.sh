#!/usr/bin/env bash
# tests/oom.sh BUILD_DIR - every command under address-space limits (ulimit
# -v) from tight to loose: each run either succeeds with the exact result
# or ends with exit 4 and a one-line error (what could not be had), and
# leaves no output behind;
# never another exit, a crash, a wrong count or a partial file. The counts
# are compared with tests/brute's (no code shared with the engine); the
# paths: a .tsg (block layout, mapped, spilled under --host-mem, LSTC
# parts, per-vertex counts, k-cliques), text input, a crawl with its
# transpose (in memory and the sweep), and tristream-convert and
# tristream-gen writing every format. ASan builds reserve more address
# space than such limits allow: the script then skips (77).
# Ends with "N passed, N failed".
set -u
B=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# check, skip, finish_checks, num, same
. "$(dirname "$0")/lib.sh"
if nm "$B/tristream" 2>/dev/null | grep -q __asan_init; then
	skip "an ASan build: address-space limits not tried"
	finish_checks
fi
# limits in KiB, each a quarter above the last; by 1.1 GB every command
# here has room (a thread's C library arena alone takes 64 MiB of address
# space). At the tightest, how tight depending on the build and the
# libraries, the dynamic loader itself may fail (exit 127, before any of
# our code runs), or a library's own start-up may crash (the static CUDA
# runtime's initializer, before main, 2026-11-27: SIGSEGV at 14,000 KiB on
# a build with CUDA and Open MPI): a run at a limit where the bare program
# (the same tool's `--version`) cannot start either is passed over, not
# counted
LIMITS=$(python3 -c "print(' '.join(str(int(10000 * 1.25 ** i)) for i in range(22)))")
loader_failed() { # RC STDERR_FILE LIMIT [PROGRAM, default tristream]
	{ [ "$1" = 127 ] && grep -q "error while loading shared libraries" "$2"; } ||
		! (ulimit -v "$3" && "${4:-$B/tristream}" --version) >/dev/null 2>&1
}

"$B/tristream-gen" --quiet --seed 3 rmat --scale 16 "$T/r.tsg"
"$B/tristream-convert" --quiet --to text "$T/r.tsg" "$T/r.txt"
"$B/tristream-gen" --quiet --seed 3 --webgraph crawl --vertices 60000 "$T/c"
"$B/tristream-gen" --quiet --seed 3 crawl --vertices 60000 "$T/c.tsg"
ref=$("$B/tests/brute" "$T/r.tsg")
ref_c=$("$B/tests/brute" "$T/c.tsg")
ref_k4=$("$B/tests/brute" --k 4 "$T/r.tsg")
check "reference counts are numbers ($ref, $ref_c, $ref_k4)" sh -c "num() { case \$1 in '' | *[!0-9]*) return 1 ;; esac; }; num '$ref' && num '$ref_c' && num '$ref_k4'"
"$B/tests/brute" --per-vertex "$T/r.tsg" >"$T/r.pv.ref"

# Runs `tristream count --json ARGS` under every limit; each run exact
# (field KEY against WANT; a per-vertex file, where PV names one, equal to
# the reference's) or exit 4 with an error line, its output file absent.
count_sweep() { # NAME KEY WANT PV ARGS...
	local name=$1 key=$2 want=$3 pv=$4 v rc got bad="" ok=0 oom=0
	shift 4
	for v in $LIMITS; do
		rm -f "$T/pv.out"
		(ulimit -v "$v" && exec "$B/tristream" count --quiet --json --device cpu "$@") \
			>"$T/o.json" 2>"$T/o.err"
		rc=$?
		if [ $rc = 0 ]; then
			got=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['$key'])" "$T/o.json" 2>/dev/null)
			if ! same "$got" "$want" || { [ -n "$pv" ] && ! cmp -s "$T/pv.out" "$T/r.pv.ref"; }; then
				bad="$bad $v:wrong($got)"
			fi
			ok=$((ok + 1))
		elif [ $rc = 4 ] && grep -q "^tristream: error: ." "$T/o.err" && [ ! -e "$T/pv.out" ]; then
			oom=$((oom + 1))
		elif loader_failed "$rc" "$T/o.err" "$v"; then
			:
		else
			bad="$bad $v:exit$rc"
		fi
	done
	check "$name: under every limit exact or exit 4, nothing left ($ok counted, $oom out of memory${bad:+;$bad})" \
		sh -c "[ -z '$bad' ] && [ $ok -gt 0 ] && [ $oom -gt 0 ]"
}
count_sweep ".tsg, block layout" triangles "$ref" "" "$T/r.tsg"
count_sweep ".tsg mapped" triangles "$ref" "" --io mmap "$T/r.tsg"
count_sweep ".tsg under --host-mem 4M (spilled)" triangles "$ref" "" --host-mem 4M --scratch-dir "$T" "$T/r.tsg"
count_sweep ".tsg, LSTC parts" triangles "$ref" "" --layout lstc --partitions 4 "$T/r.tsg"
count_sweep ".tsg, per-vertex counts" triangles "$ref" pv --per-vertex "$T/pv.out" "$T/r.tsg"
count_sweep ".tsg, 4-cliques" cliques "$ref_k4" "" --k 4 "$T/r.tsg"
count_sweep "text input" triangles "$ref" "" "$T/r.txt"
count_sweep "a crawl with its transpose, in memory" triangles "$ref_c" "" "$T/c"
count_sweep "a crawl with its transpose, the sweep" triangles "$ref_c" "" --layout sweep --partitions 3 "$T/c"

# The writers: each run's output whole (and counted right) or absent, exit
# 0 or 4; no temporary left in the directory either way.
write_sweep() { # NAME OUT_FILES CMD...
	local name=$1 outs=$2 v rc bad="" ok=0 oom=0 f
	shift 2
	for v in $LIMITS; do
		mkdir -p "$T/w" && rm -rf "$T/w"/* "$T/w"/.[!.]* 2>/dev/null
		(ulimit -v "$v" && exec "$@") >/dev/null 2>"$T/w.err"
		rc=$?
		if [ $rc = 0 ]; then
			ok=$((ok + 1))
			for f in $outs; do [ -s "$T/w/$f" ] || bad="$bad $v:no-$f"; done
			f=${outs%% *}
			case $f in *.graph) f=${f%.graph} ;; esac # a BVGraph by its basename
			got=$("$B/tristream" count --quiet --json --device cpu "$T/w/$f" 2>/dev/null |
				python3 -c 'import json,sys; print(json.load(sys.stdin)["triangles"])' 2>/dev/null)
			same "$got" "$WANT" || bad="$bad $v:wrong($got)"
		elif [ $rc = 4 ] && grep -q "^tristream-[a-z]*: error: ." "$T/w.err"; then
			oom=$((oom + 1))
			[ -z "$(ls -A "$T/w")" ] || bad="$bad $v:left($(ls -A "$T/w" | head -3 | tr '\n' ' '))"
		elif loader_failed "$rc" "$T/w.err" "$v" "$1"; then
			:
		else
			bad="$bad $v:exit$rc"
		fi
	done
	check "$name: under every limit whole and exact or exit 4 and nothing left ($ok written, $oom out of memory${bad:+;$bad})" \
		sh -c "[ -z '$bad' ] && [ $ok -gt 0 ] && [ $oom -gt 0 ]"
}
WANT=$ref write_sweep "convert text to .tsg" "x.tsg" "$B/tristream-convert" --quiet "$T/r.txt" "$T/w/x.tsg"
WANT=$ref write_sweep "convert text to an LZ4 .tsg" "x.tsg" "$B/tristream-convert" --quiet --compress lz4 "$T/r.txt" "$T/w/x.tsg"
WANT=$ref write_sweep "convert .tsg to an oriented .tsg" "x.tsg" "$B/tristream-convert" --quiet --oriented "$T/r.tsg" "$T/w/x.tsg"
WANT=$ref write_sweep "convert to BVGraph" "x.graph x.offsets x.properties" \
	"$B/tristream-convert" --quiet --to webgraph "$T/r.tsg" "$T/w/x"
WANT=$ref_c write_sweep "gen a crawl as BVGraph" "x.graph x.offsets x.properties x-t.graph x-t.offsets x-t.properties" \
	"$B/tristream-gen" --quiet --seed 3 --webgraph crawl --vertices 60000 "$T/w/x"
finish_checks
