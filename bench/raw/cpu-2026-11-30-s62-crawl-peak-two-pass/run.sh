#!/usr/bin/env bash
# Session 62: bench/raw/cpu-2026-11-30-s61-crawl-peak-dense/run.sh as it was, run on
# the 2-core development machine with the build where auto orients a crawl
# in two passes (plan.c, 2026-11-30; the figure still 16 bytes an arc
# in the code it ran): table.txt. fig12_MiB, every peak under it, is the
# figure src/sweep.c now takes for two passes; fig16 stays for one.
# A crawl's in-memory count on the CPU at several densities (arcs a node):
# its peak RSS (less the binary's own) against the CPU's figure of its need
# (src/sweep.c sweep_in_memory_bytes_cpu) with 12 bytes an arc (session
# 60's, measured at 10-14 arcs a node only) and with 16, the rest as it is
# (88 a node, 1.25 MiB a thread, both .graph files); per_arc_net is the
# peak less those other terms, per arc. A review found the 12 short at
# 23-45 arcs a node (denser LAW crawls have 25-45).
# bash run.sh BUILD_DIR [CNR_BASE] > table.txt
set -u
B=$1 CNR=${2:-}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
base=$(/usr/bin/time -f %M "$B/tristream" --version 2>&1 >/dev/null | tail -n 1)
echo "baseline RSS of the binary: $base KB (subtracted)"
printf '%-14s %8s %10s %6s %3s %9s %8s %11s %9s %9s\n' crawl nodes arcs a/node thr peak_MiB per_arc per_arc_net fig12_MiB fig16_MiB
one() { # name base
	local n a g t pk
	n=$(sed -n 's/^nodes=//p' "$2.properties"); a=$(sed -n 's/^arcs=//p' "$2.properties")
	g=$(( $(stat -c %s "$2.graph") + $(stat -c %s "$2-t.graph") ))
	for t in 2 16; do
		pk=$(/usr/bin/time -f %M "$B/tristream" count --quiet --device cpu --threads $t "$2" 2>&1 >/dev/null | tail -n 1)
		python3 -c "
n, a, g, t, pk, b = $n, $a, $g, $t, $pk, $base
rest = n * 88 + g + t * (5 << 18)
f12, f16 = a * 12 + rest, a * 16 + rest
real = (pk - b) * 1024
print('%-14s %8d %10d %6.1f %3d %9.1f %8.2f %11.2f %9.1f %9.1f%s%s' % ('$1', n, a, a / n, t, real / 2**20, real / a, (real - rest) / a, f12 / 2**20, f16 / 2**20, '' if f12 >= real else '  12 BELOW PEAK', '' if f16 >= real else '  16 BELOW PEAK'))"
	done
}
[ -n "$CNR" ] && [ -f "$CNR.properties" ] && one cnr-2000 "$CNR"
for v in "400000 8" "400000 30" "400000 60" "1000000 16" "2000000 30"; do
	set -- $v
	"$B/tristream-gen" --quiet --seed 7 --webgraph crawl --vertices $1 --edge-factor $2 "$T/c"
	one "crawl-$1-e$2" "$T/c"
	rm -f "$T"/c.* "$T"/c-t.*
done
