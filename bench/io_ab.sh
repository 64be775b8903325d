#!/usr/bin/env bash
# bench/io_ab.sh OLD_BUILD NEW_BUILD WORK_DIR [RUNS] - two builds side by
# side, runs alternating, medians of RUNS (default 5), on what the input
# path decides: a web-like 2^21 graph counted end to end from a warm file
# (CPU and auto), R-MAT 22 as text converted (tristream-convert, with its
# read/build/write stages) and counted straight from the text, R-MAT 22 and
# 24 .tsg counted on the GPU from a warm file, and R-MAT 24 from a cold one
# (page cache dropped before each run, so both builds read the disk). The
# converter writes a new file each run (the last run's output is removed
# before the clock starts: replacing it would time the file system freeing
# the old one, 0.2 s for R-MAT 22).
# Whole processes, wall clock; every count of a row must agree. ONLY=REGEX
# keeps the rows whose name matches.
set -eu
ONLY=${ONLY:-.}
O=$1 N=$2 W=$3 RUNS=${4:-5}
mkdir -p "$W"
"$N/tristream-gen" --quiet web --vertices $((1 << 21)) --seed 1 "$W/web21.tsg"
"$N/tristream-gen" --quiet rmat --scale 22 --seed 1 "$W/r22.tsg"
echo "r24" | grep -Eq "$ONLY" && "$N/tristream-gen" --quiet rmat --scale 24 --seed 1 "$W/r24.tsg"
"$N/tristream-convert" --quiet --to text "$W/r22.tsg" "$W/r22.el"
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }
warm() { cat "$@" >/dev/null; }
# row NAME PREP CMD... : PREP runs before every timed run (warm or drop)
row() {
	local name=$1 prep=$2
	shift 2
	echo "$name" | grep -Eq "$ONLY" || return 0
	local to=() tn=() co="" cn="" i b s e out c
	for i in $(seq "$RUNS"); do
		for b in O N; do
			local bin=$O
			[ $b = N ] && bin=$N
			eval "$prep"
			s=$(date +%s.%N)
			out=$("$bin/$1" "${@:2}" 2>/dev/null)
			e=$(date +%s.%N)
			c=$(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("triangles", d.get("edges")), d.get("io", "-"), d.get("device", "-"), "%.3f/%.3f/%.3f" % (d["read_seconds"], d["build_seconds"], d["write_seconds"]) if "read_seconds" in d else "")')
			if [ $b = O ]; then to+=("$(python3 -c "print($e - $s)")"); co=$c; else tn+=("$(python3 -c "print($e - $s)")"); cn=$c; fi
			echo "$name run $i $b: $(python3 -c "print('%.3f' % ($e - $s))") s $c" >&2
		done
	done
	[ "${co%% *}" = "${cn%% *}" ] && [ -n "${co%% *}" ] || { echo "COUNTS DIFFER on $name: '$co' / '$cn'"; exit 1; }
	python3 - "$name" "${to[*]}" "${tn[*]}" "$cn" <<'PY'
import statistics, sys
name, a, b, c = sys.argv[1:]
ma = statistics.median(map(float, a.split())); mb = statistics.median(map(float, b.split()))
print("%-28s %9.3f %9.3f %6.2fx   %s" % (name, ma, mb, ma / mb, c))
PY
}
printf '%-28s %9s %9s %7s   %s\n' row "old s" "new s" "old/new" "count, new: io device (convert: read/build/write s)"
row "web21 count cpu" "warm $W/web21.tsg" tristream count --quiet --json --device cpu "$W/web21.tsg"
row "web21 count auto" "warm $W/web21.tsg" tristream count --quiet --json "$W/web21.tsg"
row "r22 text convert" "warm $W/r22.el; rm -f $W/out.tsg" tristream-convert --quiet --json "$W/r22.el" "$W/out.tsg"
row "r22 count text (gpu)" "warm $W/r22.el" tristream count --quiet --json --device gpu "$W/r22.el"
row "r22 count gpu" "warm $W/r22.tsg" tristream count --quiet --json --device gpu "$W/r22.tsg"
row "r24 count gpu" "warm $W/r24.tsg" tristream count --quiet --json --device gpu "$W/r24.tsg"
row "r24 count gpu cold" "drop" tristream count --quiet --json --device gpu "$W/r24.tsg"
