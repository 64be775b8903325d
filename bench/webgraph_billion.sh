#!/usr/bin/env bash
# bench/webgraph_billion.sh BUILD_DIR WORK_DIR [KIND=crawl] [VERTICES] - a
# crawl-like graph of about a billion edges counted on the GPU from a cold
# file: as a BVGraph crawl with its transpose (LAW ships two files, read
# apart), as a plain .tsg and as an LZ4 .tsg of the same undirected graph,
# beside dd's read of the plain file. The page cache is dropped before each
# (echo 3 > /proc/sys/vm/drop_caches: root). RUNS (3) rounds of the five,
# medians printed. Counts must agree. The crawl twice: counted as it is
# decoded (the default: its batches go to the arrival layout as their lists
# are placed) and with --decode-first (decoded whole, then counted). DEVICE=cpu counts on the CPU (a
# try-out without a GPU).
# KIND crawl: tristream-gen crawl (sites sharing menus, as LAW's crawls
# compress), its links directed as generated (--webgraph: the crawl and its
# real transpose, each about as many arcs as the graph has edges, as a LAW
# crawl); 75 M pages, about 1.0 G edges by default.
# KIND web: tristream-gen web (links at random distances, about 11 bits a
# link), written undirected by --to webgraph, so each file holds every
# edge twice, the transpose a copy; 2^27 pages, 1.0 G edges by default
# (the run of 2026-11-24, seventh session).
set -eu
B=$1 W=$2 K=${3:-crawl}
case $K in crawl) N=${4:-75000000} ;; web) N=${4:-$((1 << 27))} ;; *) echo "KIND: crawl or web" >&2; exit 2 ;; esac
mkdir -p "$W"; rm -f "$W/times"
g="$W/$K$N.tsg" c="$W/$K$N" z="$W/$K$N.lz4.tsg"
now() { date +%s.%N; }
since() { python3 -c "print(round($(now) - $1, 3))"; }
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }
t=$(now); "$B/tristream-gen" --quiet "$K" --vertices "$N" --seed 1 "$g"; echo "gen: $(since "$t") s"
if [ "$K" = crawl ]; then
	t=$(now); "$B/tristream-gen" --quiet --webgraph crawl --vertices "$N" --seed 1 "$c"; echo "gen --webgraph (directed, and its transpose): $(since "$t") s"
else
	t=$(now); "$B/tristream-convert" --quiet --to webgraph "$g" "$c"; echo "writer (--to webgraph, all threads): $(since "$t") s"
	for e in graph offsets properties; do rm -f "$c-t.$e"; cp "$c.$e" "$c-t.$e"; done
fi
t=$(now); "$B/tristream" compress "$g" "$z" >/dev/null; echo "compress: $(since "$t") s"
echo "sizes: .tsg $(stat -c %s "$g"), LZ4 .tsg $(stat -c %s "$z"), .graph $(stat -c %s "$c.graph") and -t $(stat -c %s "$c-t.graph") ($(grep -h 'arcs\|bitsperlink' "$c.properties" "$c-t.properties" | tr '\n' ' ')), .offsets $(stat -c %s "$c.offsets") and $(stat -c %s "$c-t.offsets")"
runs=${RUNS:-3}
for r in $(seq "$runs"); do # the five cold reads in turn, RUNS times
	drop
	t=$(now); dd if="$g" of=/dev/null bs=64M 2>/dev/null; echo "run $r dd plain .tsg (cold): $(since "$t") s" | tee -a "$W/times"
	for v in crawl crawl_decode_first tsg lz4; do
		a=
		case $v in crawl) f=$c ;; crawl_decode_first) f=$c a=--decode-first ;; tsg) f=$g ;; lz4) f=$z ;; esac
		drop
		t=$(now)
		"$B/tristream" count --quiet --json --device "${DEVICE:-gpu}" $a "$f" >"$W/$v.json"
		echo "run $r count $v (cold): $(since "$t") s: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); i=d.get("input") or {}; print(d["triangles"], "triangles,", d["edges"], "edges,", d["layout"], "layout, input", i.get("seconds", "-"), "s, decoded while counting", i.get("decoded_while_counting", "-"), ", read", d["stages"]["read"], "s, engine", d["stages"].get("engine", "-"), "s")' "$W/$v.json")" | tee -a "$W/times"
		cp "$W/$v.json" "$W/$v.$r.json"
	done
done
python3 - "$W" "$runs" <<'PY'
import json, re, statistics, sys
w, runs = sys.argv[1], int(sys.argv[2])
t = {}
for line in open(w + "/times"):
    m = re.match(r"run \d+ (dd plain .tsg|count \w+) \(cold\): ([0-9.]+) s", line)
    t.setdefault(m.group(1), []).append(float(m.group(2)))
dd = statistics.median(t["dd plain .tsg"])
print("| cold, median of %d | seconds | / dd of the plain .tsg |" % runs)
print("|---|---|---|")
for k, v in t.items():
    print("| %s | %.2f (%s) | %.2f |" % (k, statistics.median(v), ", ".join("%.2f" % x for x in v), statistics.median(v) / dd))
c = {"%s.%d" % (v, r): json.load(open("%s/%s.%d.json" % (w, v, r)))["triangles"] for v in ("crawl", "crawl_decode_first", "tsg", "lz4") for r in range(1, runs + 1)}
print("counts agree:", len(set(c.values())) == 1, sorted(set(c.values())))
sys.exit(len(set(c.values())) != 1)
PY
