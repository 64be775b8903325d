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
# The shared real graphs (../shared/graphs/README.md) as T/NAME.tsg, each
# where present: grqc, email, fb, slash, hepph, cnr (the LAW crawl,
# symmetrized). B is the build folder.
convert_shared() {
	local B=$1 S=$2 T=$3 f n
	for f in ca-GrQc.txt:grqc email-Eu-core.txt:email facebook_combined.txt:fb \
		soc-Slashdot0902.txt.gz:slash ca-HepPh.txt:hepph; do
		n=${f##*:} f=${f%%:*}
		[ -f "$S/$f" ] && "$B/tristream-convert" --quiet --skip-bad-lines "$S/$f" "$T/$n.tsg"
	done
	[ -f "$S/cnr-2000/cnr-2000.graph" ] && "$B/tristream-convert" --quiet "$S/cnr-2000/cnr-2000" "$T/cnr.tsg"
	return 0
}
