#!/usr/bin/env bash
# A 1 M-page crawl (14.0 M arcs) counted by auto on a GPU host inside
# memory cgroups, by two builds: BEFORE (auto's in-memory figure for a
# GPU's count: 10 bytes an arc, 168 MiB here) and AFTER (11 an arc, 36 a
# node, the .graph files, 128 MiB for the CUDA runtime and 4 MiB a thread:
# 328 MiB at 2 threads). The host's peak in memory was 258 MiB above the
# binary's own (bench/raw/h200x2-2026-11-30-s61-crawl-peak-gpu/).
# Prints build, cgroup MiB, exit status, layout, triangles; the reference
# from tests/brute on the same crawl as a .tsg.
# bash run.sh BEFORE_DIR AFTER_DIR > table.txt   (as root, cgroups writable)
set -u
BEF=$1 AFT=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/../../../tests/lib.sh"
"$AFT/tristream-gen" --quiet --seed 7 --webgraph crawl --vertices 1000000 "$T/c"
"$AFT/tristream-gen" --quiet --seed 7 crawl --vertices 1000000 "$T/c.tsg"
echo "reference (tests/brute): $("$AFT/tests/brute" "$T/c.tsg")"
for mb in 250 290 340; do
	for b in before after; do
		x=$BEF; [ $b = after ] && x=$AFT
		cg_run $((mb << 20)) "$x/tristream" count --quiet --json --threads 2 "$T/c" >"$T/j" 2>"$T/e"
		rc=$?
		echo "$b ${mb}MiB exit=$rc $(python3 -c "import json; d = json.load(open('$T/j')); print(d['device'], d['layout'], d['triangles'])" 2>/dev/null || head -c 160 "$T/e" | tr '\n' ' ')"
	done
done
