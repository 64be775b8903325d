#!/usr/bin/env bash
# A crawl's in-memory count on the CPU: its peak RSS against the sweep's
# two figures of its need (src/sweep.c: sweep_in_memory_bytes, 10 bytes an
# arc, and sweep_in_memory_bytes_cpu, 12 an arc, 88 a node, 1.25 MiB a thread
# and both .graph files), at 2 and 16 threads; then, in memory cgroups,
# what auto (no --device) does with a 2 M-page crawl (exit 137: killed).
# bash run.sh BUILD_DIR [CNR_BASE] > table.txt   (memory cgroups: as root)
set -u
B=$1 CNR=${2:-}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/../../../tests/lib.sh"
base=$(/usr/bin/time -f %M "$B/tristream" --version 2>&1 >/dev/null | tail -n 1)
echo "baseline RSS of the binary: $base KB (subtracted)"
printf '%-12s %9s %11s %3s %10s %9s %9s %9s\n' crawl nodes arcs thr peak_MiB per_arc old_MiB new_MiB
one() { # name base
	local n a g t pk
	n=$(sed -n 's/^nodes=//p' "$2.properties"); a=$(sed -n 's/^arcs=//p' "$2.properties")
	g=$(( $(stat -c %s "$2.graph") + $(stat -c %s "$2-t.graph") ))
	for t in 2 16; do
		pk=$(/usr/bin/time -f %M "$B/tristream" count --quiet --device cpu --threads $t "$2" 2>&1 >/dev/null | tail -n 1)
		python3 -c "
n, a, g, t, pk, b = $n, $a, $g, $t, $pk, $base
old = a * 10 + n * 8 + 2 * (n + 1) * 8 + n * 12
new = a * 12 + n * 88 + g + t * (5 << 18)
real = (pk - b) * 1024
print('%-12s %9d %11d %3d %10.1f %9.2f %9.1f %9.1f%s' % ('$1', n, a, t, real / 2**20, real / a, old / 2**20, new / 2**20, '' if new >= real else '  NEW BELOW PEAK'))"
	done
}
[ -n "$CNR" ] && [ -f "$CNR.properties" ] && one cnr-2000 "$CNR"
for v in 500000 1000000 2000000 4000000; do
	"$B/tristream-gen" --quiet --seed 7 --webgraph crawl --vertices $v "$T/c$v"
	one "crawl-$v" "$T/c$v"
done
echo
echo "auto (no --device, --threads 2) on crawl-2000000 in a memory cgroup:"
for mb in 380 480 560; do
	cg_run $((mb << 20)) "$B/tristream" count --quiet --json --threads 2 "$T/c2000000" >"$T/j" 2>/dev/null
	rc=$?
	echo "  ${mb} MiB: exit $rc $(python3 -c "import json; d = json.load(open('$T/j')); print(d['layout'], d['triangles'])" 2>/dev/null)"
done
