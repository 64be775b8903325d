#!/usr/bin/env bash
# session 57: `tristream info` of a cached R-MAT 22 (plain, oriented, LZ4),
# --io pread (what auto did for a cached file before) against auto (now:
# the file mapped), 7 rounds interleaved, on the 2-core development
# machine; outputs compared byte for byte less JSON io.
set -eu
B=${B:-build-test}; W=${W:-/tmp}
[ -f $W/r22.tsg ] || $B/tristream-gen --quiet --seed 1 rmat --scale 22 $W/r22.tsg
[ -f $W/r22o.tsg ] || $B/tristream-convert --quiet --oriented $W/r22.tsg $W/r22o.tsg
[ -f $W/r22z.tsg ] || $B/tristream compress $W/r22.tsg $W/r22z.tsg >/dev/null
nproc; $B/tristream --version
for f in r22 r22o r22z; do
	cat $W/$f.tsg >/dev/null
	for m in pread auto; do
		$B/tristream info --json --io $m $W/$f.tsg | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.pop("io")); print(json.dumps(d, sort_keys=True))' >$W/info-$f-$m.txt
	done
	echo "$f: auto read by $(head -n 1 $W/info-$f-auto.txt), pread by $(head -n 1 $W/info-$f-pread.txt); the rest $(cmp -s <(tail -n +2 $W/info-$f-auto.txt) <(tail -n +2 $W/info-$f-pread.txt) && echo the same || echo DIFFERENT)"
done
for i in 1 2 3 4 5 6 7; do
	for f in r22 r22o r22z; do
		for m in pread auto; do
			s=$(date +%s.%N); $B/tristream info --io $m $W/$f.tsg >/dev/null; e=$(date +%s.%N)
			echo "$f $m $(python3 -c "print('%.3f' % ($e - $s))")"
		done
	done
done | tee $W/info-times.txt >/dev/null
python3 - $W/info-times.txt <<'PY'
import sys, statistics
t = {}
for line in open(sys.argv[1]):
    f, m, s = line.split()
    t.setdefault((f, m), []).append(float(s))
print("| file | --io pread (before, for a cached file) | auto (mapped) |")
print("|---|---|---|")
for f in ["r22", "r22o", "r22z"]:
    p, a = t[(f, "pread")], t[(f, "auto")]
    print(f"| {f} | {statistics.median(p):.3f} s ({min(p):.2f}-{max(p):.2f}) | {statistics.median(a):.3f} s ({min(a):.2f}-{max(a):.2f}) |")
PY
