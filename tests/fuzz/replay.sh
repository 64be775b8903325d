#!/usr/bin/env bash
# replay.sh EXE DIR... - runs a fuzz target once on every file in the DIRs
# (the seed corpus and the crashes found so far); fails if there are none.
set -u
exe=$1; shift
files=()
for d in "$@"; do
	[ -d "$d" ] || continue
	for f in "$d"/*; do [ -f "$f" ] && files+=("$f"); done
done
[ ${#files[@]} -gt 0 ] || { echo "no inputs in $*"; echo "0 passed, 1 failed"; exit 1; }
exec "$exe" "${files[@]}"
