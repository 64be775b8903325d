#!/usr/bin/env bash
# scripts/tsan.sh [BUILD_DIR [--build-only]] - ThreadSanitizer over the threaded input
# paths: a CPU-only build with -Db_sanitize=thread (in BUILD_DIR, default
# build-tsan), then the reader and builder tests, the WebGraph decoder's
# tests (per-thread decoders, parked chunks), and whole runs through the
# paths that only large inputs take: a text read in stripes and built with
# the copy following the sort (5 threads), a .tsg read buffered on helper
# threads, a crawl counted while it is decoded (placing threads hand
# chunks to the arrival batches), all counted and compared with the plain
# build's count (build-test). Any report fails: ThreadSanitizer exits 66 on one.
# Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
BT=${1:-build-tsan}
REF=build-test
. tests/lib.sh
if [ ! -d "$BT" ]; then
	meson setup "$BT" -Db_sanitize=thread -Dcuda=disabled -Dmpi=disabled \
		--buildtype=debugoptimized >/dev/null || { echo "FAIL: cannot configure $BT"; exit 1; }
fi
ninja -C "$BT" >/dev/null || { echo "FAIL: cannot build $BT"; exit 1; }
[ "${2:-}" = --build-only ] && exit 0 # scripts/test.sh builds it while meson's tests run
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
tri() { "$1" count --quiet --device cpu --json --threads 5 "${@:2}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["triangles"])'; }
export TSAN_OPTIONS="exitcode=66 second_deadlock_stack=1"
for t in format builder webgraph; do
	check "tsan: test_$t" env TMPDIR="$T" "$BT/tests/test_$t"
done
"$REF/tristream-gen" --quiet rmat --scale 17 --seed 2 "$T/r17.tsg"
"$REF/tristream-gen" --quiet rmat --scale 18 --seed 2 "$T/r18.tsg"
"$REF/tristream-convert" --quiet --to text "$T/r17.tsg" "$T/r17.el"
check "tsan: the text is past the striped read's 16 MiB" [ "$(stat -c %s "$T/r17.el")" -gt $((16 << 20)) ]
check "tsan: the .tsg's lists are past the parallel read's 16 MiB" [ "$(stat -c %s "$T/r18.tsg")" -gt $((20 << 20)) ]
check "tsan: convert a text on 5 threads" "$BT/tristream-convert" --quiet --threads 5 "$T/r17.el" "$T/c17.tsg"
edges() { "$REF/tristream" info --json "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["edges"])'; }
check "tsan: the converted graph has the generated one's edges" same "$(edges "$T/c17.tsg")" "$(edges "$T/r17.tsg")"
check "tsan: and its triangles" same "$(tri "$REF/tristream" "$T/c17.tsg")" "$(tri "$REF/tristream" "$T/r17.tsg")"
check "tsan: count a text in memory, 5 threads" same "$(tri "$BT/tristream" "$T/r17.el")" "$(tri "$REF/tristream" "$T/r17.tsg")"
check "tsan: count a .tsg read by helper threads (--io pread)" same "$(tri "$BT/tristream" --io pread "$T/r18.tsg")" "$(tri "$REF/tristream" "$T/r18.tsg")"
"$REF/tristream-gen" --quiet --seed 3 --webgraph crawl --vertices 60000 "$T/cw"
check "tsan: count a crawl while it is decoded, 5 threads, 40 batches" same "$(tri "$BT/tristream" --layout arrival --batches 40 "$T/cw")" "$(tri "$REF/tristream" --decode-first "$T/cw")"
check "tsan: a crawl decoded ahead, its count failing before it reads (no GPU: exit 6)" sh -c "$BT/tristream count --quiet --device gpu --layout arrival $T/cw 2>/dev/null; [ \$? = 6 ]"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
