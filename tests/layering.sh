#!/usr/bin/env bash
# tests/layering.sh SOURCE_ROOT - includes run one way (docs/ARCHITECTURE.md):
#   tools, tests, fuzz, bench  >  src  >  partition  >  kernels  >  io  >  base
# A file may include headers of its own folder and of folders below it, each
# named with its folder ("io/graph.h"); system headers (<...>) are free.
# Fails, naming the file and line, on an include that points up or sideways,
# or on a bare project include whose folder cannot be told.
# Ends with "N passed, N failed".
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 1
rank() {
	case $1 in
	base) echo 0 ;; io) echo 1 ;; kernels) echo 2 ;; partition) echo 3 ;; src) echo 4 ;;
	tools | tests | fuzz | bench) echo 5 ;; *) echo -1 ;;
	esac
}
pass=0
fail=0
files=$(git ls-files 'base/*' 'io/*' 'kernels/*' 'partition/*' 'src/*' 'tools/*' 'tests/*' 'bench/*' 2>/dev/null |
	grep -E '\.(c|h|cu|cuh)$')
[ -n "$files" ] || files=$(find base io kernels partition src tools tests bench -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh')
for f in $files; do
	dir=${f%%/*}
	[ "$dir" = tests ] && case $f in tests/fuzz/*) dir=fuzz ;; esac
	own=$(rank "$dir")
	while IFS=: read -r line inc; do
		inc=${inc#*\"}
		inc=${inc%%\"*}
		case $inc in
		version.h | testlib.h | fuzz.h) pass=$((pass + 1)); continue ;; # generated, or a test folder's own
		*/*) to=${inc%%/*} ;;
		*) echo "FAIL: $f:$line: include \"$inc\" does not name its folder"; fail=$((fail + 1)); continue ;;
		esac
		r=$(rank "$to")
		if [ "$r" -lt 0 ]; then
			echo "FAIL: $f:$line: include \"$inc\" names no known folder"; fail=$((fail + 1))
		elif [ "$to" != "$dir" ] && [ "$r" -ge "$own" ]; then
			echo "FAIL: $f:$line: $dir/ includes \"$inc\", which is not below it"; fail=$((fail + 1))
		else
			pass=$((pass + 1))
		fi
	done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | cut -d: -f1,2-)
done
echo "$pass passed, $fail failed"
[ "$pass" -gt 0 ] && [ "$fail" = 0 ]
