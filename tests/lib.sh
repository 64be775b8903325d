# tests/lib.sh - what the shell tests share (sourced): a check counter and
# the count comparison.
pass=0; fail=0
check() { # description, condition...
	local what=$1; shift
	if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $what"; fi
}
# A count comparison passes only on two equal decimal numbers: an empty or
# non-numeric side (a failed run) fails it, so "" = "" can never pass.
num() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }
same() { num "$1" && num "$2" && [ "$1" = "$2" ]; }
