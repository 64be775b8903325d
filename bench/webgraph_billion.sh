#!/usr/bin/env bash
# bench/webgraph_billion.sh BUILD_DIR WORK_DIR [LOG2_VERTICES=27] - a
# crawl-like graph of about a billion edges (tristream-gen web, 2^27
# vertices) counted on the GPU from a cold file, as a BVGraph crawl with
# its transpose (a copy, not a link: LAW ships two files, read apart), as a
# plain .tsg and as an LZ4 .tsg, beside dd's read of the plain file. The
# page cache is dropped before each (echo 3 > /proc/sys/vm/drop_caches:
# root). One run each: the graph takes minutes to make. Counts must agree.
set -eu
B=$1 W=$2 L=${3:-27}
mkdir -p "$W"
g="$W/web$L.tsg" c="$W/web$L" z="$W/web$L.lz4.tsg"
now() { date +%s.%N; }
since() { python3 -c "print(round($(now) - $1, 3))"; }
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }
t=$(now); "$B/tristream-gen" --quiet web --vertices $((1 << L)) --seed 1 "$g"; echo "gen: $(since "$t") s"
t=$(now); "$B/tristream-convert" --quiet --to webgraph "$g" "$c"; echo "writer (--to webgraph, all threads): $(since "$t") s"
for e in graph offsets properties; do rm -f "$c-t.$e"; cp "$c.$e" "$c-t.$e"; done
t=$(now); "$B/tristream" compress "$g" "$z" >/dev/null; echo "compress: $(since "$t") s"
echo "sizes: .tsg $(stat -c %s "$g"), LZ4 .tsg $(stat -c %s "$z"), .graph $(stat -c %s "$c.graph") x 2 ($(grep bitsperlink "$c.properties")), .offsets $(stat -c %s "$c.offsets") x 2"
drop
t=$(now); dd if="$g" of=/dev/null bs=64M 2>/dev/null; echo "dd plain .tsg (cold): $(since "$t") s"
for v in crawl tsg lz4; do
	case $v in crawl) f=$c ;; tsg) f=$g ;; lz4) f=$z ;; esac
	drop
	t=$(now)
	"$B/tristream" count --quiet --json --device gpu "$f" >"$W/$v.json"
	echo "count $v (cold): $(since "$t") s: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["triangles"], "triangles,", d["edges"], "edges, input", (d.get("input") or {}).get("seconds", "-"), "s")' "$W/$v.json")"
done
python3 - "$W" <<'PY'
import json, sys
c = {v: json.load(open("%s/%s.json" % (sys.argv[1], v)))["triangles"] for v in ("crawl", "tsg", "lz4")}
print("counts agree:", len(set(c.values())) == 1, c)
sys.exit(len(set(c.values())) != 1)
PY
