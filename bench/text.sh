#!/usr/bin/env bash
# bench/text.sh BUILD_DIR WORK_DIR GAPBS_DIR [RUNS] [SCALES] - text edge
# lists to a triangle count, tristream against GAPBS, side by side in one
# run, warm page cache, medians of RUNS (default 3), variants alternating:
#   ts-convert    tristream-convert G.el G.tsg  (the converter alone)
#   ts-conv+count tristream-convert, then tristream count G.tsg (whole processes)
#   ts-count-text tristream count G.el (converted in memory)
#   gz-libdeflate tristream-convert --gzip libdeflate G.el.gz (scales <= 22)
#   gz-zlib       tristream-convert --gzip zlib G.el.gz       (scales <= 22)
#   gzm-libdeflate tristream-convert --gzip libdeflate G.m.gz: the text cut in
#                 64 pieces gzipped apart and joined (64 members, as bgzip
#                 or cat makes), decoded on every thread (scales <= 22)
#   gapbs-conv+tc GAPBS converter -f G.el -s -b G.sg, then tc -f G.sg -n 1
#   gapbs-tc-text GAPBS tc -f G.el -s -n 1 (builds the graph in memory)
# G.el is R-MAT (tristream-gen rmat --scale S --seed 1) written by
# tristream-convert --to text: "u v" lines, each edge once. GAPBS is built
# from its public repository (sbeamer/gapbs) with -O3 -fopenmp; its code is
# not part of tristream. Every run's count must equal every other's.
set -eu
B=$1 W=$2 G=$3 RUNS=${4:-3} SCALES=${5:-"21 22"}
mkdir -p "$W"
# counts are parsed after the clock stops: only the tools are timed
tri_ts() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["triangles"])' "$1"; }
tri_gapbs() { awk '/ triangles$/ { print $1 }' "$1"; }
o="$W/out.txt"
for S in $SCALES; do
	g="$W/r$S"
	"$B/tristream-gen" --quiet rmat --scale "$S" --seed 1 "$g.ref.tsg"
	"$B/tristream-convert" --quiet --to text "$g.ref.tsg" "$g.el"
	rm -f "$g.ref.tsg"
	bytes=$(stat -c %s "$g.el")
	if [ "$S" -le 22 ]; then
		gzip -1 -c "$g.el" >"$g.el.gz"
		mkdir -p "$W/parts" && rm -f "$W/parts"/*
		split -n l/64 -d -a 2 "$g.el" "$W/parts/p"
		ls "$W/parts"/p* | xargs -P "$(nproc)" -n 1 gzip -1
		cat "$W/parts"/p*.gz >"$g.m.gz"
		rm -rf "$W/parts"
	fi
	for i in $(seq "$RUNS"); do
		# every tool writes a new file: replacing last run's would time the
		# file system freeing it (0.2 s for R-MAT 22 on ext4)
		rm -f "$g.tsg" "$g.sg"
		s=$(date +%s.%N)
		"$B/tristream-convert" --quiet --json "$g.el" "$g.tsg" >"$W/conv.json"
		m=$(date +%s.%N)
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("# convert stages: read+parse %.3f s, build %.3f s, write %.3f s" % (d["read_seconds"], d["build_seconds"], d["write_seconds"]))' "$W/conv.json" >&2
		"$B/tristream" count --quiet --json "$g.tsg" >"$o"
		e=$(date +%s.%N)
		c=$(tri_ts "$o")
		echo "$S ts-convert $(python3 -c "print($m - $s)") - $bytes"
		echo "$S ts-conv+count $(python3 -c "print($e - $s)") $c $bytes"
		s=$(date +%s.%N)
		"$B/tristream" count --quiet --json "$g.el" >"$o"
		e=$(date +%s.%N)
		c=$(tri_ts "$o")
		echo "$S ts-count-text $(python3 -c "print($e - $s)") $c $bytes"
		if [ -f "$g.el.gz" ]; then
			for d in libdeflate zlib; do
				rm -f "$g.gz.tsg"
				s=$(date +%s.%N)
				"$B/tristream-convert" --quiet --gzip $d "$g.el.gz" "$g.gz.tsg"
				e=$(date +%s.%N)
				cmp -s "$g.tsg" "$g.gz.tsg" || { echo "gzip $d: a different graph"; exit 1; }
				echo "$S gz-$d $(python3 -c "print($e - $s)") - $bytes"
			done
			rm -f "$g.gz.tsg"
			s=$(date +%s.%N)
			"$B/tristream-convert" --quiet --gzip libdeflate "$g.m.gz" "$g.gz.tsg"
			e=$(date +%s.%N)
			cmp -s "$g.tsg" "$g.gz.tsg" || { echo "gzip members: a different graph"; exit 1; }
			echo "$S gzm-libdeflate $(python3 -c "print($e - $s)") - $bytes"
		fi
		s=$(date +%s.%N)
		"$G/converter" -f "$g.el" -s -b "$g.sg" >/dev/null
		"$G/tc" -f "$g.sg" -n 1 -a >"$o"
		e=$(date +%s.%N)
		c=$(tri_gapbs "$o")
		echo "$S gapbs-conv+tc $(python3 -c "print($e - $s)") $c $bytes"
		s=$(date +%s.%N)
		"$G/tc" -f "$g.el" -s -n 1 -a >"$o"
		e=$(date +%s.%N)
		c=$(tri_gapbs "$o")
		echo "$S gapbs-tc-text $(python3 -c "print($e - $s)") $c $bytes"
	done
	rm -f "$g.sg" "$g.gz.tsg" "$g.el.gz" "$g.m.gz"
done | tee "$W/runs.txt"
python3 - "$W/runs.txt" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    s, k, t, c, b = line.split()
    rows.setdefault(s, {}).setdefault(k, []).append((float(t), c, int(b)))
ok = True
for s, v in rows.items():
    counts = {c for r in v.values() for _, c, _ in r if c != "-"}
    good = len(counts) == 1 and next(iter(counts)).isdigit()
    ok &= good
    med = {k: statistics.median(t for t, _, _ in r) for k, r in v.items()}
    gb = next(iter(v.values()))[0][2] / 1e9
    print("R-MAT %s: %.2f GB of text; counts agree: %s" % (s, gb, counts if good else "NO %s" % counts))
    print("  %-14s %9s %9s" % ("variant", "median s", "GB/s"))
    for k, m in med.items():
        print("  %-14s %9.3f %9.2f" % (k, m, gb / m))
    if "gapbs-conv+tc" in med and "ts-conv+count" in med:
        print("  convert + count: GAPBS / tristream = %.2fx" % (med["gapbs-conv+tc"] / med["ts-conv+count"]))
    if "gapbs-tc-text" in med and "ts-count-text" in med:
        print("  count on the text: GAPBS / tristream = %.2fx" % (med["gapbs-tc-text"] / med["ts-count-text"]))
    if "gapbs-conv+tc" in med and "ts-count-text" in med:
        print("  GAPBS convert + tc / tristream count on the text = %.2fx" % (med["gapbs-conv+tc"] / med["ts-count-text"]))
sys.exit(0 if ok else 1)
PY
