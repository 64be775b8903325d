#!/usr/bin/env bash
# bench/orient_crawl.sh BUILD_DIR [CNR_BASE] > table.txt
#
# A crawl counted on the CPU (block layout, decoded whole and merged with
# its transpose) with its rows oriented in one pass (auto's way, chosen on
# R-MAT 26 at 16 cores: 2.86 s against 3.83) or in two
# (partition/orient.h): whole process, the orientation's stage, the count
# and the peak RSS, variants interleaved, ROUNDS rounds (default 3),
# medians. A crawl's ids are local (sites of consecutive ids), so the
# second pass's rank lookups may cost less than the one pass's copy of
# every row. Crawls: cnr-2000 where CNR_BASE is given, and tristream-gen's
# of SIZES pages (default 1, 4 and 16 M), at 2 threads (SIZES2: those
# sizes only, default 1 and 4 M) and at the host's. Fails where a run
# fails or the two ways' counts differ.
set -u
B=$1 CNR=${2:-}
ROUNDS=${ROUNDS:-3}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
# one run: "wall_s orient_s count_s peak_KB triangles", or exits
run() { # OUT_JSON CMD...
	python3 -c '
import json, resource, subprocess, sys, time
t = time.monotonic()
r = subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], "w"), stderr=subprocess.DEVNULL)
w = time.monotonic() - t
if r.returncode:
    sys.exit("run failed (exit %d): %s" % (r.returncode, " ".join(sys.argv[2:])))
d = json.load(open(sys.argv[1])); s = d["stages"]
print("%.3f %.3f %.3f %d %d" % (w, s["orient_rank"] + s["orient_rows"] + s["orient_place"],
      s["count"], resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, d["triangles"]))' "$@"
}
printf '%-14s %10s %3s %-9s %8s %8s %8s %9s %s\n' crawl arcs thr orient whole_s orient_s count_s peak_MiB triangles
one() { # NAME BASE THREADS
	local r w
	: >"$T/rows"
	for r in $(seq "$ROUNDS"); do
		for w in one-pass two-pass; do
			echo "$w $(run "$T/j" "$B/tristream" count --json --quiet --device cpu \
				--threads "$3" --orient $w "$2")" >>"$T/rows" || exit 1
		done
	done
	python3 - "$T/rows" "$1" "$(sed -n 's/^arcs=//p' "$2.properties")" "$3" <<'EOF' || exit 1
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1])]
if len({r[5] for r in rows}) != 1:
    sys.exit("counts differ: %s" % sorted({r[5] for r in rows}))
for w in ("one-pass", "two-pass"):
    m = [r for r in rows if r[0] == w]
    med = lambda i: st.median(float(r[i]) for r in m)
    print("%-14s %10s %3s %-9s %8.3f %8.3f %8.3f %9.1f %s  (whole: %s)" % (
        sys.argv[2], sys.argv[3], sys.argv[4], w, med(1), med(2), med(3), med(4) / 1024,
        m[0][5], " ".join(r[1] for r in m)))
EOF
}
if [ -n "$CNR" ] && [ -f "$CNR.properties" ]; then
	one cnr-2000 "$CNR" 2
	one cnr-2000 "$CNR" "$(nproc)"
fi
for v in ${SIZES:-1000000 4000000 16000000}; do
	"$B/tristream-gen" --quiet --seed 7 --webgraph crawl --vertices "$v" "$T/c$v"
	for t in ${SIZES2-1000000 4000000}; do
		[ "$t" = "$v" ] && one "crawl-$v" "$T/c$v" 2
	done
	one "crawl-$v" "$T/c$v" "$(nproc)"
	rm -f "$T/c$v".* "$T/c$v"-t.*
done
