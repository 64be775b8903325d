#!/usr/bin/env bash
# A crawl's in-memory count where a GPU counts: the host's peak RSS (less
# the binary's own, as in bench/raw/cpu-2026-11-30-s60-crawl-peak/) against
# the figure auto took for it there before (src/sweep.c
# sweep_in_memory_bytes: 10 bytes an arc, 36 a node with the offsets, never
# measured before: gpu_old), the one after this measurement (11 an arc, 36
# a node, the .graph files, 128 MiB for the CUDA runtime, 4 MiB a thread:
# gpu_new, as gpu89 built it; the final code takes 13 an arc, above it) and
# the CPU's (sweep_in_memory_bytes_cpu, 12 an arc then; 16 in the final
# code), at 2 threads and the host's. table-callC.txt: the first version of
# this script (no gpu_new) on gpu88; table-callD.txt: this one on gpu89.
# bash run.sh BUILD_DIR [CNR_BASE] > table.txt
set -u
B=$1 CNR=${2:-}
DEV=${DEV:-gpu} # cpu: to try the script where no GPU is
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
peak() { # CMD...: the child's peak RSS in KB; its stdout to $T/j
	python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], "w"), stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if r.returncode == 0 else -r.returncode)' "$T/j" "$@"
}
base=$(peak "$B/tristream" --version)
echo "baseline RSS of the binary: $base KB (subtracted)"
printf '%-12s %9s %11s %3s %-6s %-8s %10s %8s %9s %9s %9s\n' crawl nodes arcs thr device layout peak_MiB per_arc gpu_old gpu_new cpu_fig
one() { # name base
	local n a g t pk
	n=$(sed -n 's/^nodes=//p' "$2.properties"); a=$(sed -n 's/^arcs=//p' "$2.properties")
	g=$(( $(stat -c %s "$2.graph") + $(stat -c %s "$2-t.graph") ))
	for t in 2 $(nproc); do
		pk=$(peak "$B/tristream" count --json --quiet --device $DEV --threads $t "$2")
		python3 -c "
import json
n, a, g, t, pk, b = $n, $a, $g, $t, $pk, $base
d = json.load(open('$T/j'))
offs = 2 * (n + 1) * 8
gpu = a * 10 + n * 8 + offs + n * 12
new = a * 11 + n * 8 + offs + n * 12 + g + (128 << 20) + t * (4 << 20)
cpu = a * 12 + n * 88 + g + t * (5 << 18)
real = (pk - b) * 1024
print('%-12s %9d %11d %3d %-6s %-8s %10.1f %8.2f %9.1f %9.1f %9.1f %s%s%s' % ('$1', n, a, t, d['device'], d['layout'], real / 2**20, real / a, gpu / 2**20, new / 2**20, cpu / 2**20, d['triangles'], '' if gpu >= real else '  OLD GPU FIGURE BELOW PEAK', '' if new >= real else '  NEW GPU FIGURE BELOW PEAK'))"
	done
}
[ -n "$CNR" ] && [ -f "$CNR.properties" ] && one cnr-2000 "$CNR"
for v in ${SIZES:-1000000 4000000 16000000}; do
	"$B/tristream-gen" --quiet --seed 7 --webgraph crawl --vertices $v "$T/c$v"
	one "crawl-$v" "$T/c$v"
	rm -f "$T/c$v".*  "$T/c$v"-t.*
done
