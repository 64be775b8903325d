#!/usr/bin/env bash
# tests/scripts.sh SOURCE_ROOT - the project's own scripts parse and name
# nothing undefined: pyflakes3 on every tracked .py (a cleanup that moved
# helpers into bench/benchlib.py once left bench/multigpu.py calling a
# function that no longer existed, which only a run on two GPUs would have
# shown), bash -n on every tracked .sh. Without pyflakes3 the Python half
# is SKIPPED, visibly. Ends with "N passed, N failed".
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 1
pass=0
fail=0
if command -v pyflakes3 >/dev/null; then
	for f in $(git ls-files '*.py'); do
		if out=$(pyflakes3 "$f" 2>&1); then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "FAIL: $out"
		fi
	done
else
	echo "SKIPPED: pyflakes3 is missing (Debian: python3-pyflakes); Python scripts not checked"
fi
for f in $(git ls-files '*.sh') .ci/run; do
	if out=$(bash -n "$f" 2>&1); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $f: $out"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
