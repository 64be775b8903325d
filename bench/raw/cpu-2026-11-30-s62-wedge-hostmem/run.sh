#!/usr/bin/env bash
# --cpu-kernel wedge under --host-mem: the figures with and without its
# records, and runs in memory cgroups of SIZE + 24 MiB (tests/lib.sh's
# cg_run), on R-MAT 20 (tristream-gen --seed 1 rmat --scale 20), 2
# threads. Before 471a3ab the records were outside the figures: that
# build spilled at --host-mem 100M and a 124 MiB cgroup killed it (exit
# 137, seen in session 62 on cac250a's build; tests/batch.sh's new checks
# fail on it, 4 of them).
# bash run.sh BUILD_DIR SRC_DIR > table.txt
set -u
B=$1 SRC=$2
. "$SRC/tests/lib.sh"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$B/tristream-gen" --quiet --seed 1 rmat --scale 20 "$T/g.tsg"
for k in hash wedge; do
	echo "$k figures: $("$B/tristream" count --quiet --plan-only --json --device cpu --threads 2 \
		--cpu-kernel $k --host-mem 1T "$T/g.tsg" | python3 -c 'import json,sys; print(json.load(sys.stdin)["host_mem"])')"
done
for run in "hash 100M 124" "wedge 100M 124" "wedge 250M 274" "wedge 270M 294" "wedge 300M 324"; do
	set -- $run
	cg_run $(( $3 << 20 )) "$B/tristream" count --quiet --json --device cpu --threads 2 \
		--cpu-kernel $1 --host-mem $2 "$T/g.tsg" >"$T/o.json" 2>"$T/err"
	rc=$?
	echo "$1 --host-mem $2 in a $3 MiB cgroup: exit $rc $(python3 -c "import json; d=json.load(open('$T/o.json')); print(d['triangles'], d['host_mem']['mode'], d['kernel'])" 2>/dev/null) $(head -c 240 "$T/err")"
done
