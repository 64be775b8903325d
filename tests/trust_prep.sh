#!/usr/bin/env bash
# tests/trust_prep.sh BUILD_DIR - bench/trust-prep, the helper that writes
# TRUST's input files for bench/kernels.py: its files must hold the input
# graph (vertices with edges, every edge once, the same degrees), oriented
# from lower to higher degree, numbered in TRUST's three out-degree classes,
# and their triangles must be the independent brute counter's. Bad input
# and a missing folder fail with their exit codes and leave no file.
# Ends with "N passed, N failed".
set -u
B=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"

# Reads DIR's begin.bin / adjacent.bin and the graph's text edges; checks
# everything but the triangles, which it prints (nothing on a failure).
cat >"$T/check.py" <<'PY'
import array, sys
d, text = sys.argv[1], sys.argv[2]
b = array.array('q'); b.frombytes(open(d + '/begin.bin', 'rb').read())
a = array.array('i'); a.frombytes(open(d + '/adjacent.bin', 'rb').read())
edges = set()
for line in open(text):
    u, v = map(int, line.split()[:2])
    if u != v:
        edges.add((min(u, v), max(u, v)))
gdeg = {}
for u, v in edges:
    gdeg[u] = gdeg.get(u, 0) + 1
    gdeg[v] = gdeg.get(v, 0) + 1
n = len(b) - 1
def bad(why):
    sys.exit('trust-prep files: ' + why)
if n != len(gdeg): bad(f'{n} vertices, the graph has {len(gdeg)} with edges')
if b[0] != 0 or b[n] != len(a) or any(b[i] > b[i + 1] for i in range(n)): bad('offsets')
if len(a) != len(edges): bad(f'{len(a)} arcs for {len(edges)} edges')
arcs = set()
deg = [0] * n
for u in range(n):
    for v in a[b[u]:b[u + 1]]:
        if not 0 <= v < n or v == u: bad(f'arc {u} {v}')
        arcs.add((u, v))
        deg[u] += 1
        deg[v] += 1
if len(arcs) != len(a) or any((v, u) in arcs for u, v in arcs): bad('an edge twice')
if sorted(deg) != sorted(gdeg.values()): bad('degrees differ from the graph')
if any(deg[u] > deg[v] for u, v in arcs): bad('an arc from a higher degree to a lower')
cls = [0 if b[u + 1] - b[u] > 100 else 1 if b[u + 1] - b[u] >= 2 else 2 for u in range(n)]
if cls != sorted(cls): bad('ids not in out-degree classes >100, 2..100, <2')
out = [set(a[b[u]:b[u + 1]]) for u in range(n)]
print(sum(len(out[u] & out[v]) for u in range(n) for v in a[b[u]:b[u + 1]]))
PY

prep() { # graph text -> triangles from trust-prep's files, or nothing
	rm -rf "$T/d" && mkdir "$T/d" &&
		"$B/bench/trust-prep" "$1" "$T/d" >/dev/null && python3 "$T/check.py" "$T/d" "$2"
}
for g in "rmat --scale 11:rmat11" "rmat --scale 10 --edge-factor 48:dense10" \
	"web --vertices 4096:web12" "er --vertices 3000 --edge-factor 4:er" "clique --vertices 40:k40" \
	"star --vertices 300:star"; do
	name=${g##*:}
	# shellcheck disable=SC2086
	"$B/tristream-gen" --quiet ${g%%:*} --seed 1 "$T/$name.tsg" &&
		"$B/tristream-convert" --quiet --to text "$T/$name.tsg" "$T/$name.txt"
	check "$name: TRUST's files hold the graph, its triangles the brute counter's" \
		same "$(prep "$T/$name.tsg" "$T/$name.txt")" "$("$B/tests/brute" "$T/$name.txt")"
done

rc_of() { "$@" >/dev/null 2>"$T/err"; echo $?; }
check "no arguments: usage, exit 2" same "$(rc_of "$B/bench/trust-prep")" 2
head -c 6000 "$T/rmat11.tsg" >"$T/cut.tsg"
rm -rf "$T/d" && mkdir "$T/d"
check "a cut file: exit 3" same "$(rc_of "$B/bench/trust-prep" "$T/cut.tsg" "$T/d")" 3
check "a cut file: no file written" [ -z "$(ls -A "$T/d")" ]
check "a missing folder: exit 5" same "$(rc_of "$B/bench/trust-prep" "$T/rmat11.tsg" "$T/none")" 5
check "a missing folder: named" grep -q "$T/none" "$T/err"
finish_checks
