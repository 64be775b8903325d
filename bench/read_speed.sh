#!/usr/bin/env bash
# bench/read_speed.sh - issue #50's table: the whole process (as the shell
# sees it, start to exit) against the time to read the file, out of core
# and on several GPUs, one machine, one run, medians of RUNS, the stage
# times of tristream's --json beside each.
#
#   OUT=RESULT_DIR [RUNS=3] [EXPECT=N] [EXPECT_S1=N] [EXPECT_K=N] [EXPECT_K5=N] [GPUS2=0]
#       [DEV=cpu] [ROWS="dd 1 .. 10"] [GPU_MEM=SIZE] [HOST_MEM=4G]
#       [RUN_TIMEOUT=300] [COLD_PROGRAM=1] [BEFORE=BUILD_DIR ROWS_BEFORE="4 .."]
#       bench/read_speed.sh [BUILD_DIR=build-gpu] [SCALE=26] [WORK_DIR=/tmp/tsg-read-speed]
#
# BUILD_DIR holds tristream, tristream-gen and (rows 11, 12) tristream-convert. Generates R-MAT SCALE, SCALE-1
# and SCALE-4 (seed 1) and SCALE's LZ4 copy (tristream compress) in
# WORK_DIR, kept there for a later call. Cold: the page cache dropped
# before each run (/proc/sys/vm/drop_caches, where writable; the header
# says when it is not), the program's own files (tristream, its libraries,
# libcuda) read back so that only the graph is cold (COLD_PROGRAM=1: not),
# and the file read with O_DIRECT (--io uring). Warm:
# the file read into the page cache and counted once untimed first, then
# counted with the default --io (auto: mapped where the arrival layout is likely, else pread, from the cache). Rows (ROWS
# picks; "dd" is the dd and info lines):
#  dd  dd O_DIRECT of the file and of the LZ4 file; `tristream info` (read
#      and validate, nothing else) alone, cold
#  1   default (layout auto), cold
#  2   --gpu-mem 1/4 of the file's size (GPU_MEM overrides), cold, one GPU:
#      auto (the arrival layout in groups where the rows reach 1.875 GiB,
#      else the block layout), --layout block, and --layout arrival (in
#      groups) with TSG_ARRIVAL_GROUP_ARENA=0 (each group's host rows
#      allocated at its end, as before session 39)
#  3   the same on --gpus 2 (auto: groups on both), --gpus 2 --layout
#      block; warm, one GPU and --gpus 2 (auto: GPU 0 alone, the file
#      in the page cache)
#  4   --host-mem 4G (HOST_MEM overrides; spills: mapped input, scratch
#      files under --scratch-dir WORK_DIR), cold
#  5   the LZ4 file, cold
#  6   default, warm, one GPU
#  7   --gpus 2, warm
#  8   the LZ4 file, warm: one GPU / --gpus 2
#  9   R-MAT SCALE-1, warm: one GPU / --gpus 2
#  10  k-cliques, --k 4 and --k 5 on R-MAT SCALE-4, warm: one GPU / --gpus 2
#      (K = 5: the count is most of the run, and one part on both GPUs
#      shares its sources, src/clique_share.h)
#  11  the oriented file (tristream-convert --oriented: each edge once, in
#      rank order, about half the bytes), warm: one GPU (counted as read:
#      the default, row blocks read down; --overlap-cut columns, read up;
#      and --overlap off) / --gpus 2
#  12  the oriented file, cold: default / --overlap-cut columns / --gpu-mem
#      1/4 of the plain file, each counted as read, and with --overlap off
#      (x dd stays against the plain file's dd; its own dd is a dd line)
# A row's variants run round by round (round i: every variant's i-th run,
# in the row's order; warm ones read the file back first), not one
# variant's RUNS after another's, so the call's drift falls on all alike
# (before session 45 they ran one after another).
# Columns: whole = the process, median (min-max) of RUNS; own = the
# process's "seconds"; outside = whole - own (start-up and teardown);
# read, rows (the pass over the lists: arrival_rows or orient_rows), after
# (what followed the pass: arrival_tail, or orient_place + count_wall, or
# on LSTC parts build + count), GPU (copies + kernels of every GPU:
# stages.count): medians of RUNS; x dd = whole / the dd of the plain file
# (cold rows only).
# Under the table, for each GPU row, when the engine's first GPU was open
# and when the read ended (medians of the runs' TSG_OPEN_PROFILE stamps,
# seconds from the engine's start): a GPU that opens late (session 46
# saw 0.4 s and 1.0 s on one host) delays the arrival layout's pass and
# lengthens what follows the read.
# Checks: every run exits 0; every count is a number, one graph's counts
# agree across rows (the LZ4 file's with the plain one's) and equal
# EXPECT (R-MAT SCALE triangles), EXPECT_S1 (SCALE-1 triangles), EXPECT_K
# (SCALE-4 4-cliques), EXPECT_K5 (SCALE-4 5-cliques) where given; on the GPU, every run ran there (a run
# past RUN_TIMEOUT seconds fails: exit 124). Each check that fails: a FAIL
# line after the table, and exit 1. R-MAT 26 seed 1: 49154930897
# triangles (CPU-checked, bench/RESULTS.md); R-MAT 22 seed 1, K = 4:
# 124171307855 (GPU and CPU, bench/RESULTS.md's commands).
# GPUS2=0, or one GPU in `nvidia-smi -L`, skips the --gpus 2 runs; DEV=cpu
# (to try the script where there is no GPU) counts on the CPU and skips
# every GPU-only run; a skipped run is a line of the table that says why.
# BEFORE=BUILD_DIR (another build's tristream) with ROWS_BEFORE (rows)
# runs each of those rows' variants again with that build, run for run
# beside this one's (interleaved, the same cache state), as a row of its
# own marked "(BEFORE build)": a change against the build before it, side
# by side in one call.
# ROWS lets a long table be made in two calls on one machine (same OUT and
# WORK_DIR): the table shows every row in OUT, those of an earlier call
# marked. One JSON per run in OUT (NAME-I.json, .err, .meta: exit code and
# the shell's clock around it); the table last, also in OUT/table.md.
set -u
export LC_ALL=C # EPOCHREALTIME with a decimal point
[ -n "${EPOCHREALTIME:-}" ] || { echo "read_speed.sh: needs bash 5 (EPOCHREALTIME)" >&2; exit 2; }
B=${1:-build-gpu}; S=${2:-26}; D=${3:-/tmp/tsg-read-speed}
: "${OUT:?set OUT=RESULT_DIR}"
RUNS=${RUNS:-3}
DEV=${DEV:-gpu}
GPUS2=${GPUS2:-1}
ROWS_ASKED=${ROWS:-dd 1 2 3 4 5 6 7 8 9 10 11 12}
ROWS=" $ROWS_ASKED "
HOST_MEM=${HOST_MEM:-4G}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
case $DEV in gpu | cpu) ;; *) echo "read_speed.sh: DEV is gpu or cpu, not '$DEV'" >&2; exit 2 ;; esac
case $RUNS in '' | *[!0-9]* | 0) echo "read_speed.sh: RUNS is a number above 0" >&2; exit 2 ;; esac
case $S in '' | *[!0-9]*) echo "read_speed.sh: SCALE is a number" >&2; exit 2 ;; esac
[ "$S" -ge 6 ] || { echo "read_speed.sh: SCALE 6 or more (R-MAT SCALE-4 is counted)" >&2; exit 2; }
for t in tristream tristream-gen; do
	[ -x "$B/$t" ] || { echo "read_speed.sh: no $B/$t (BUILD_DIR holds tristream and tristream-gen)" >&2; exit 2; }
done
if [ -n "${BEFORE:-}" ]; then
	[ -x "$BEFORE/tristream" ] || { echo "read_speed.sh: no $BEFORE/tristream (BEFORE)" >&2; exit 2; }
	BEFORE=$(cd "$BEFORE" && pwd)
fi
mkdir -p "$OUT" "$D" || exit 1
B=$(cd "$B" && pwd); OUT=$(cd "$OUT" && pwd); D=$(cd "$D" && pwd)
cd "$(dirname "$0")/.." || exit 1
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
CALL=$EPOCHREALTIME # marks this call's runs against an earlier call's in OUT
G=$D/rmat$S.tsg; GZ=$D/rmat$S.lz4.tsg
GO=$D/rmat$S.oriented.tsg
G1=$D/rmat$((S - 1)).tsg; GK=$D/rmat$((S - 4)).tsg

# The program's own files, read back after each drop unless COLD_PROGRAM=1:
# cold is the graph, not the binary and the driver a user's machine holds
mapfile -t PROG < <(echo "$B/tristream"; ldd "$B/tristream" 2>/dev/null | awk '$3 ~ /^\// { print $3 }'
	ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 / { print $NF; exit }')

# The machine, first
NGPU=none
command -v nvidia-smi >/dev/null && NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
# the earlier calls' headers, for their rows in the table
[ -f "$OUT/machine.txt" ] && cat "$OUT/machine.txt" >>"$OUT/machine.earlier.txt"
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "host: $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)," \
		"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	if [ "$NGPU" != none ]; then
		nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader 2>&1 |
			sed 's/^/device: GPU /'
	else
		echo "device: no nvidia-smi"
	fi
	# the checkout's commit need not be the binary's (a build carried from
	# elsewhere): its hash says which binary ran
	echo "build: $("$B/tristream" --version 2>&1 | head -1), binary sha256 $(sha256sum "$B/tristream" | cut -c1-16), checkout $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	[ -z "${BEFORE:-}" ] || echo "BEFORE build (rows ${ROWS_BEFORE:-none}): binary sha256 $(sha256sum "$BEFORE/tristream" | cut -c1-16)"
	echo "work dir: $D ($(stat -f -c %T "$D"); tmpfs would make every read a cached one)"
	echo "DEV=$DEV RUNS=$RUNS SCALE=$S GPUS2=$GPUS2 ROWS=\"$ROWS_ASKED\""
	if sync && echo 3 2>/dev/null >/proc/sys/vm/drop_caches; then
		echo "page cache: dropped before each cold run; then read back:" \
			"$([ "${COLD_PROGRAM:-0}" = 1 ] && echo "nothing (COLD_PROGRAM=1)" ||
				echo "tristream, its libraries and libcuda.so.1 where found (${#PROG[@]} files)")"
	else
		echo "page cache: CANNOT be dropped (/proc/sys/vm/drop_caches): cold runs read with O_DIRECT," \
			"but --host-mem's mapped file may come from the cache"
	fi
} | tee "$OUT/machine.txt"
drop() {
	sync
	echo 3 2>/dev/null >/proc/sys/vm/drop_caches || true
	[ "${COLD_PROGRAM:-0}" = 1 ] || cat "${PROG[@]}" >/dev/null
}
picked() { case $ROWS in *" $1 "*) return 0 ;; esac; return 1; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# Graphs, made once into WORK_DIR (each written atomically by the tool)
make_graph() { # path scale
	[ -f "$1" ] && return 0
	echo "generating R-MAT $2 (seed 1): $1"
	"$B/tristream-gen" --quiet rmat --scale "$2" --seed 1 "$1" ||
		{ echo "FAIL: tristream-gen rmat --scale $2 exited $?"; exit 1; }
}
make_lz4() {
	[ -f "$GZ" ] && return 0
	echo "compressing: $GZ"
	"$B/tristream" compress --quiet "$G" "$GZ" || { echo "FAIL: tristream compress exited $?"; exit 1; }
}
make_oriented() {
	[ -f "$GO" ] && return 0
	echo "orienting: $GO"
	"$B/tristream-convert" --quiet --oriented "$G" "$GO" ||
		{ echo "FAIL: tristream-convert --oriented exited $?"; exit 1; }
}
for r in dd 1 2 3 4 5 6 7 8 11 12; do picked "$r" && { make_graph "$G" "$S"; break; }; done
for r in dd 5 8; do picked "$r" && { make_lz4; break; }; done
for r in 11 12; do picked "$r" && { make_oriented; break; }; done
picked 9 && make_graph "$G1" $((S - 1))
picked 10 && make_graph "$GK" $((S - 4))

# meta: exit code, the shell's clock before and after, this call
meta() { printf '%s %s %s %s\n' "$1" "$2" "$3" "$CALL" >"$4"; }
# dd and info: RUNS times each, cold
if picked dd; then
	rm -f "$OUT"/dd-*.* "$OUT"/info-*.*
	echo "$RUNS" >"$OUT/dd.runs"
	for i in $(seq 1 "$RUNS"); do
		for f in plain:"$G" lz4:"$GZ" $([ -f "$GO" ] && echo oriented:"$GO"); do
			drop
			t0=$EPOCHREALTIME
			dd if="${f#*:}" of=/dev/null bs=64M iflag=direct 2>"$OUT/dd-${f%%:*}-$i.txt"
			rc=$?; t1=$EPOCHREALTIME
			meta $rc "$t0" "$t1" "$OUT/dd-${f%%:*}-$i.meta"
			echo "dd ${f%%:*} $i: exit $rc, $(secs "$t0" "$t1") s"
		done
		drop
		t0=$EPOCHREALTIME
		"$B/tristream" info --io uring --json "$G" >"$OUT/info-$i.json" 2>"$OUT/info-$i.err"
		rc=$?; t1=$EPOCHREALTIME
		meta $rc "$t0" "$t1" "$OUT/info-$i.meta"
		echo "info $i: exit $rc, $(secs "$t0" "$t1") s"
	done
fi

# One count, timed by the shell: NAME I ARGS... (BIN: another tristream)
count1() {
	local name=$1 i=$2 t0 t1 rc bin=${BIN:-$B/tristream}
	shift 2
	t0=$EPOCHREALTIME
	# TSG_OPEN_PROFILE: the engine's stamps on stderr (the GPU open, the
	# read's end), for the "started" lines under the table
	TSG_OPEN_PROFILE=1 timeout "$RUN_TIMEOUT" "$bin" count --quiet --json "$@" \
		>"$OUT/$name-$i.json" 2>"$OUT/$name-$i.err"
	rc=$?; t1=$EPOCHREALTIME
	meta $rc "$t0" "$t1" "$OUT/$name-$i.meta"
	echo "$name $i: exit $rc, $(secs "$t0" "$t1") s"
}
ORDER=0
# A row's variants are run together, round by round (row_flush): round i
# runs every variant's i-th count in the row's order, so that drift over
# the call (the disk, the host) falls on every variant alike rather than
# on whichever ran last. PENDING: one line a variant, its fields name, ab,
# temp, env, graph, args parted by the unit separator (\x1f, not IFS
# whitespace, so an empty field stays one); args and env quoted for eval.
PENDING_ROW= PENDING=
# One pass over the queued variants: I = warmup (the warm ones alone: one
# run untimed each, NAME-warmup, its count checked too) or a round's number.
# Cold: the cache dropped first; warm: the file read back first (a cold
# variant before it dropped it).
row_round() { # I
	local name ab temp envs graph args n bin
	while IFS=$'\x1f' read -r name ab temp envs graph args; do
		[ -n "$name" ] || continue
		[ "$1" != warmup ] || [ "$temp" = warm ] || continue
		for n in "$name" $ab; do
			if [ "$temp" = cold ]; then drop; else cat "$graph" >/dev/null; fi
			bin=; [ "$n" = "$name" ] || bin='BIN=$BEFORE/tristream'
			eval "$envs $bin count1 \"\$n\" \"\$1\" --device \"\$DEV\" $args \"\$graph\""
		done
	done <<<"$PENDING"
}
row_flush() {
	local i
	if [ -n "$PENDING" ]; then
		row_round warmup
		for i in $(seq 1 "$RUNS"); do row_round "$i"; done
	fi
	PENDING= PENDING_ROW=
}
# A variant of a row: ROW NAME GRAPH_KEY cold|warm NEEDS LABEL GRAPH ARGS...
# NEEDS: - (any device), gpu (a GPU), gpus2 (two GPUs). Cold: each run
# after the cache is dropped; warm: the file read, one run untimed
# (NAME-warmup, its count checked too), then the timed ones. Queued for
# its row's rounds (row_flush, called where the row changes and at the
# end); TSG_ARRIVAL_GROUP_ARENA given in the call's environment goes with
# it.
variant() {
	local row=$1 name=$2 key=$3 temp=$4 needs=$5 label=$6 graph=$7 why= ab= n
	shift 7
	[ "$row" = "$PENDING_ROW" ] || row_flush
	ORDER=$((ORDER + 1))
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$row" "$ORDER" "$key" "$temp" "$label" \
		"$(echo --device "$DEV" "$@" "${graph##*/}")" >"$OUT/$name.info"
	picked "$row" || return 0
	# the build before, run for run beside this one (BEFORE, ROWS_BEFORE)
	case " ${ROWS_BEFORE:-} " in *" $row "*) [ -n "${BEFORE:-}" ] && ab=$name-before ;; esac
	if [ -n "$ab" ]; then
		ORDER=$((ORDER + 1))
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$row" "$ORDER" "$key" "$temp" "$label (BEFORE build)" \
			"$(echo --device "$DEV" "$@" "${graph##*/}") (BEFORE)" >"$OUT/$ab.info"
	fi
	for n in "$name" $ab; do
		rm -f "$OUT/$n.skip" "$OUT/$n.runs" "$OUT/$n"-*.json "$OUT/$n"-*.err "$OUT/$n"-*.meta
	done
	if [ "$needs" != - ] && [ "$DEV" != gpu ]; then
		why="skipped: no GPU (DEV=$DEV)"
	elif [ "$needs" = gpus2 ] && [ "$GPUS2" = 0 ]; then
		why="skipped: one GPU (GPUS2=0)"
	elif [ "$needs" = gpus2 ] && [ "$NGPU" != none ] && [ "$NGPU" -lt 2 ]; then
		why="skipped: one GPU (nvidia-smi -L lists $NGPU)"
	fi
	if [ -n "$why" ]; then
		for n in "$name" $ab; do printf '%s %s\n' "$CALL" "$why" >"$OUT/$n.skip"; done
		echo "$name: $why"
		return 0
	fi
	for n in "$name" $ab; do echo "$RUNS" >"$OUT/$n.runs"; done
	local envs=
	[ -z "${TSG_ARRIVAL_GROUP_ARENA+x}" ] || envs="TSG_ARRIVAL_GROUP_ARENA=$(printf '%q' "$TSG_ARRIVAL_GROUP_ARENA")"
	PENDING_ROW=$row
	PENDING+="$name"$'\x1f'"$ab"$'\x1f'"$temp"$'\x1f'"$envs"$'\x1f'"$graph"$'\x1f'"$([ $# = 0 ] || printf '%q ' "$@")"$'\n'
}
if [ -n "${GPU_MEM:-}" ]; then
	QUARTER=$GPU_MEM; QLABEL="--gpu-mem $GPU_MEM (GPU_MEM)"
elif [ -f "$G" ]; then
	QUARTER=$(($(stat -c %s "$G") / 4)); QLABEL="--gpu-mem 1/4 of the file ($QUARTER B)"
else
	QUARTER=1; QLABEL="--gpu-mem 1/4 of the file" # not run in this call
fi
variant 1 c-default main cold - "default (layout auto), cold" "$G" --io uring
variant 2 c-quarter-1gpu main cold gpu "$QLABEL, cold, one GPU" "$G" \
	--io uring --gpu-mem "$QUARTER"
# the block layout at the same budget (auto's before session 39), and the
# groups with their host rows allocated at each group's end
variant 2 c-quarter-block main cold gpu "${QLABEL%% (*}, --layout block, cold, one GPU" "$G" \
	--io uring --gpu-mem "$QUARTER" --layout block
TSG_ARRIVAL_GROUP_ARENA=0 variant 2 c-quarter-groups-noarena main cold gpu \
	"${QLABEL%% (*}, --layout arrival (groups, TSG_ARRIVAL_GROUP_ARENA=0), cold, one GPU" "$G" \
	--io uring --gpu-mem "$QUARTER" --layout arrival
variant 3 c-quarter-2gpu main cold gpus2 "${QLABEL%% (*}, --gpus 2, cold" "$G" \
	--io uring --gpu-mem "$QUARTER" --gpus 2
# the block layout on both (auto's before session 40), and warm: auto
# takes groups on GPU 0 alone where the file lies in the page cache
variant 3 c-quarter-2gpu-block main cold gpus2 "${QLABEL%% (*}, --gpus 2 --layout block, cold" "$G" \
	--io uring --gpu-mem "$QUARTER" --gpus 2 --layout block
variant 3 w-quarter-1gpu main warm gpu "${QLABEL%% (*}, warm, one GPU" "$G" --gpu-mem "$QUARTER"
variant 3 w-quarter-2gpu main warm gpus2 "${QLABEL%% (*}, --gpus 2, warm" "$G" --gpu-mem "$QUARTER" --gpus 2
variant 4 c-hostmem main cold - "--host-mem $HOST_MEM, cold" "$G" --host-mem "$HOST_MEM" --scratch-dir "$D"
variant 5 c-lz4 main cold - "LZ4 file, cold" "$GZ" --io uring
variant 6 w-default-1gpu main warm - "default, warm, one GPU" "$G"
variant 7 w-default-2gpu main warm gpus2 "--gpus 2, warm" "$G" --gpus 2
variant 8 w-lz4-1gpu main warm - "LZ4 file, warm, one GPU" "$GZ"
variant 8 w-lz4-2gpu main warm gpus2 "LZ4 file, warm, --gpus 2" "$GZ" --gpus 2
variant 9 w-s1-1gpu s1 warm - "R-MAT $((S - 1)), warm, one GPU" "$G1"
variant 9 w-s1-2gpu s1 warm gpus2 "R-MAT $((S - 1)), warm, --gpus 2" "$G1" --gpus 2
variant 10 w-k4-1gpu k4 warm - "R-MAT $((S - 4)) --k 4, warm, one GPU" "$GK" --k 4
variant 10 w-k4-2gpu k4 warm gpus2 "R-MAT $((S - 4)) --k 4, warm, --gpus 2" "$GK" --k 4 --gpus 2
row_flush
variant 10 w-k5-1gpu k5 warm - "R-MAT $((S - 4)) --k 5, warm, one GPU" "$GK" --k 5
variant 10 w-k5-2gpu k5 warm gpus2 "R-MAT $((S - 4)) --k 5, warm, --gpus 2" "$GK" --k 5 --gpus 2
variant 11 w-or-1gpu main warm - "oriented file, warm, one GPU" "$GO"
variant 11 w-or-cols-1gpu main warm - "oriented file, --overlap-cut columns (read up), warm, one GPU" "$GO" --overlap-cut columns
variant 11 w-or-off-1gpu main warm - "oriented file, --overlap off, warm, one GPU" "$GO" --overlap off
variant 11 w-or-2gpu main warm gpus2 "oriented file, warm, --gpus 2" "$GO" --gpus 2
variant 12 c-or-default main cold - "oriented file, cold" "$GO" --io uring
variant 12 c-or-cols main cold - "oriented file, --overlap-cut columns (read up), cold" "$GO" --io uring --overlap-cut columns
variant 12 c-or-off main cold - "oriented file, --overlap off, cold" "$GO" --io uring --overlap off
variant 12 c-or-quarter main cold gpu "oriented file, ${QLABEL%% (*}, cold" "$GO" \
	--io uring --gpu-mem "$QUARTER"
variant 12 c-or-quarter-off main cold gpu "oriented file, ${QLABEL%% (*}, --overlap off, cold" "$GO" \
	--io uring --gpu-mem "$QUARTER" --overlap off
row_flush

python3 - "$OUT" "$CALL" "$DEV" "$RUNS" "$S" "${EXPECT:-}" "${EXPECT_S1:-}" "${EXPECT_K:-}" "${EXPECT_K5:-}" <<'PY' | tee "$OUT/table.md"
import glob, json, os, re, statistics, sys
out, call, dev, runs, scale = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
expect = {"main": sys.argv[6], "s1": sys.argv[7], "k4": sys.argv[8], "k5": sys.argv[9]}
graphs = {"main": f"R-MAT {scale} (plain, LZ4 and oriented file)", "s1": f"R-MAT {scale - 1}",
          "k4": f"R-MAT {scale - 4} 4-cliques", "k5": f"R-MAT {scale - 4} 5-cliques"}
fails = []

def meta(path):
    """(exit code, whole seconds, from this call) of a run, or None."""
    try:
        rc, t0, t1, c = open(path).read().split()
        return int(rc), float(t1) - float(t0), c == call
    except (OSError, ValueError):
        return None

def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None

def f2(x):
    return "-" if x is None else f"{x:.2f}"

print()
print(open(os.path.join(out, "machine.txt")).read().rstrip())
print()
earlier_calls = False  # whether a result of an earlier call is shown

# dd and info
def nruns(name):
    """How many timed runs the call that made name's results asked for."""
    try:
        return int(open(os.path.join(out, name + ".runs")).read())
    except (OSError, ValueError):
        return runs

def timed(prefix):
    ts, bad, earlier = [], [], False
    for i in range(1, nruns("dd") + 1):
        m = meta(os.path.join(out, f"{prefix}-{i}.meta"))
        if m is None:
            continue
        earlier |= not m[2]
        (ts if m[0] == 0 else bad).append(m[1] if m[0] == 0 else m[0])
    return ts, bad, earlier

def dd_own(prefix):
    """dd's own seconds ("..., 7.6 s, 1.2 GB/s"), median of the runs."""
    xs = []
    for p in glob.glob(os.path.join(out, f"{prefix}-[0-9]*.txt")):
        m = re.search(r"copied, ([0-9.]+) s", open(p).read())
        xs.append(float(m.group(1)) if m else None)
    return med(xs)

dd = None
for what, prefix in (("dd O_DIRECT, file", "dd-plain"), ("dd O_DIRECT, LZ4 file", "dd-lz4"),
                     ("dd O_DIRECT, oriented file", "dd-oriented"),
                     ("tristream info --io uring (read + validate alone), cold", "info")):
    ts, bad, earlier = timed(prefix)
    mark = " (earlier call)" if earlier else ""
    earlier_calls |= earlier
    if bad:
        fails.append(f"{what}: exit {bad[0]}")
        print(f"{what}: failed (exit {bad[0]}){mark}")
    elif not ts:
        print(f"{what}: not run (ROWS)")
    else:
        own = dd_own(prefix) if prefix.startswith("dd") else None
        print(f"{what}: {statistics.median(ts):.2f} s whole, median of {len(ts)} "
              f"({min(ts):.2f}-{max(ts):.2f})" + (f"; dd's own {own:.2f} s" if own else "") + mark)
        if prefix == "dd-plain":
            dd = statistics.median(ts)
print()

variants = []
for p in glob.glob(os.path.join(out, "*.info")):
    row, order, key, temp, label, args = open(p).read().rstrip("\n").split("\t")
    variants.append((int(row), int(order), os.path.basename(p)[:-5], key, temp, label, args))
variants.sort()

counts = {}  # graph key -> {count: [run names]}
head = ("| row | run | whole | own | outside | read | rows | after | GPU | layout | units "
        "| GPUs | io | x dd | count |")
print(head)
print("|" + "---|" * (head.count("|") - 1))
notes, gpu_busy, commands, started = [], [], [], []

def stamps(name, i):
    """The run's TSG_OPEN_PROFILE stamps: (first GPU opened, the read's end), None where absent."""
    try:
        text = open(os.path.join(out, f"{name}-{i}.err"), errors="replace").read()
    except OSError:
        return None, None
    o = re.search(r"^open profile: first GPU opened at ([0-9.]+) s", text, re.M)
    r = re.search(r"^open profile: .*the read's end at ([0-9.]+) s", text, re.M)
    return (float(o.group(1)) if o else None), (float(r.group(1)) if r else None)

for row, _, name, key, temp, label, args in variants:
    cells = [str(row), label]
    skip = os.path.join(out, name + ".skip")
    if os.path.exists(skip):
        c, why = open(skip).read().rstrip("\n").split(" ", 1)
        print("| " + " | ".join(cells + [why + ("" if c == call else " (earlier call)")]) + " |")
        earlier_calls |= c != call
        continue
    if not [f for f in os.listdir(out) if re.fullmatch(re.escape(name) + r"-(warmup|[0-9]+)\.meta", f)]:
        print("| " + " | ".join(cells + ["not run (ROWS)"]) + " |")
        continue
    results, failed, earlier, n_v = [], [], False, nruns(name)
    for i in ["warmup"] + [str(k) for k in range(1, n_v + 1)]:
        m = meta(os.path.join(out, f"{name}-{i}.meta"))
        if m is None:
            if i != "warmup":
                failed.append(f"run {i} missing")
                fails.append(f"{name} run {i}: missing (an interrupted call?)")
            continue
        earlier |= not m[2]
        if m[0] != 0:
            err = open(os.path.join(out, f"{name}-{i}.err"), errors="replace").read()
            # its own words, not the profile's stamps (TSG_OPEN_PROFILE=1)
            err = " / ".join(x for x in err.splitlines() if " profile: " not in x).strip()
            failed.append(f"exit {m[0]}" + (" (timeout)" if m[0] == 124 else ""))
            fails.append(f"{name} run {i}: exit {m[0]}: {err[-300:]}")
            continue
        try:
            j = json.load(open(os.path.join(out, f"{name}-{i}.json")))
        except (OSError, ValueError) as e:
            failed.append("no JSON")
            fails.append(f"{name} run {i}: exit 0 but no JSON result ({e})")
            continue
        n = j.get("cliques" if key in ("k4", "k5") else "triangles")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            failed.append("no count")
            fails.append(f"{name} run {i}: no numeric count in its JSON ({n!r})")
            continue
        counts.setdefault(key, {}).setdefault(n, []).append(f"{name}-{i}")
        if j.get("device") != dev:
            failed.append(f"ran on {j.get('device')}")
            fails.append(f"{name} run {i}: asked for --device {dev}, ran on {j.get('device')!r}")
            continue
        if i != "warmup":
            results.append((m[1], j, stamps(name, i)))
    earlier_calls |= earlier
    if failed:
        print("| " + " | ".join(cells + ["failed: " + ", ".join(failed)]) + " |")
        continue
    whole = [w for w, _, _ in results]
    js = [j for _, j, _ in results]
    opened = [o for _, _, (o, _) in results if o is not None]
    read_end = [r for _, _, (_, r) in results if r is not None]
    st = lambda k: med(j["stages"].get(k) for j in js)
    own = med(j.get("seconds") for j in js)
    lay = js[0].get("layout", "?")
    if lay == "arrival":
        rows, after = st("arrival_rows"), st("arrival_tail")
    elif lay == "block":
        rows = st("orient_rows")
        after = med(j["stages"].get("orient_place", 0) +
                    j["stages"].get("count_wall", j["stages"].get("count", 0)) for j in js)
    else:
        rows = None
        after = med(j["stages"].get("build", 0) +
                    j["stages"].get("count_wall", j["stages"].get("count", 0)) for j in js)
    units = js[0].get("partitions")
    unit = {"arrival": "batch", "block": "unit", "lstc": "part"}.get(lay, "piece")
    unit += "" if units == 1 else "es" if unit == "batch" else "s"
    ngpu = len(js[0]["gpus"]) if "gpus" in js[0] else 1
    io = js[0].get("io", "-") + (f" ({js[0]['io_cached']:.2f} cached)" if "io_cached" in js[0] else "")
    mode = js[0].get("host_mem", {}).get("mode")
    if mode and mode != "in-memory":
        io += f", {mode}"
    if js[0].get("compression") == "lz4":
        io += ", lz4"
    if js[0].get("oriented"):
        io += ", oriented"
    wm = statistics.median(whole)
    ratio = f"{wm / dd:.2f}" if temp == "cold" and dd else "-"
    n = js[0].get("cliques" if key in ("k4", "k5") else "triangles")
    cells += [f"{wm:.2f} ({min(whole):.2f}-{max(whole):.2f})" + ("" if n_v == runs else f" of {n_v}") +
              (" (earlier call)" if earlier else ""),
              f2(own), f2(wm - own if own is not None else None), f2(st("read")), f2(rows), f2(after),
              f2(st("count")) if dev == "gpu" else "-", lay, f"{units} {unit}", str(ngpu) if dev == "gpu" else "-", io, ratio,
              f"{n:,}" + (f" {key[1]}-cliques" if key in ("k4", "k5") else "")]
    print("| " + " | ".join(cells) + " |")
    if ngpu > 1:
        busy = [med(j["gpus"][g].get("busy_s") for j in js) for g in range(ngpu)]
        gpu_busy.append(f"row {row} {label}: busy per GPU " + " / ".join(f2(b) for b in busy) + " s")
    if opened:
        started.append(f"row {row} {label}: first GPU open at {f2(med(opened))} s "
                       f"({f2(min(opened))}-{f2(max(opened))})" +
                       (f", the read's end at {f2(med(read_end))} s" if read_end else "") +
                       f" (stamps of {len(opened)} runs)")
    commands.append(f"row {row} {label}: tristream count {args}")
    if js[0].get("note"):
        notes.append(f"row {row} {label}: {js[0]['note'][:300]}")
    ov = js[0].get("plan", {}).get("overlap")
    if ov:
        notes.append(f"row {row} {label}: overlap {ov.get('chosen')}" +
                     (f", units waited {f2(st('read_wait'))} s for the read" if "read_wait" in js[0]["stages"] else ""))
print()
print(f"whole: the process as the shell timed it, median (min-max) of {runs}; the other times:")
print("medians of the same runs' --json (seconds, stages); GPU: copies + kernels, all GPUs.")
for line in gpu_busy + started + notes + commands:
    print(line)
prev = os.path.join(out, "machine.earlier.txt")
if earlier_calls and os.path.exists(prev):
    for c in open(prev).read().split("date: ")[1:]:
        print("earlier call: date:", "; ".join(c.splitlines()[:3]))

for key, what in graphs.items():
    by = counts.get(key)
    if not by:
        continue
    if len(by) != 1:
        fails.append(f"{what}: counts differ: " +
                     "; ".join(f"{n} ({', '.join(v)})" for n, v in sorted(by.items())))
    elif expect[key] and str(next(iter(by))) != expect[key]:
        fails.append(f"{what}: {next(iter(by))}, expected {expect[key]}")
    else:
        n = next(iter(by))
        print(f"{what}: {n} in each of {sum(map(len, by.values()))} runs" +
              (", as expected" if expect[key] else ""))
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
PY
exit "${PIPESTATUS[0]}"
