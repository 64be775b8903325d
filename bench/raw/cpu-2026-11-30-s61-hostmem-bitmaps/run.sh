#!/usr/bin/env bash
# R-MAT 23 (8.4 M ids) counted in memory on the CPU at 2 and 32 threads:
# the peak RSS (less the binary's own) against --host-mem's figure of the
# in-memory count (JSON host_mem.need_memory under --host-mem 1T, read from
# --plan-only) by the build BEFORE (no bitmap in the figure) and AFTER (the
# hash kernel's bitmap of every id, a thread each). --host-mem holds a
# count within SIZE + 24 MiB; a figure under the peak lets it run past.
# bash run.sh BEFORE_TRISTREAM AFTER_TRISTREAM GRAPH.tsg > table.txt
set -u
BEF=$1 AFT=$2 G=$3
base=$(/usr/bin/time -f %M "$AFT" --version 2>&1 >/dev/null | tail -n 1)
echo "baseline RSS of the binary: $base KB (subtracted)"
printf '%-3s %10s %10s %10s %s\n' thr peak_MiB before_MiB after_MiB triangles
for t in 2 32; do
	fig() { "$1" count --plan-only --json --device cpu --threads $t --host-mem 1T "$G" 2>/dev/null |
		python3 -c "import json,sys; print('%.1f' % (json.load(sys.stdin)['host_mem']['need_memory'] / 2**20))"; }
	/usr/bin/time -f %M -o "$G.time" "$AFT" count --quiet --json --device cpu --threads $t "$G" >"$G.json" || exit 1
	pk=$(tail -n 1 "$G.time")
	printf '%-3s %10.1f %10s %10s %s\n' $t "$(echo "($pk - $base) / 1024" | bc -l)" "$(fig "$BEF")" "$(fig "$AFT")" \
		"$(python3 -c "import json; print(json.load(open('$G.json'))['triangles'])")"
done
rm -f "$G.time" "$G.json"
