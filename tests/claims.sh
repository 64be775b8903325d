#!/usr/bin/env bash
# tests/claims.sh SOURCE_ROOT - every measured figure of the user-facing
# documents names the raw file it comes from (issue 51: README once gave a
# figure whose cited file held a timeout, and an H200 run's times after an
# H100 paragraph).
#
# The rule, for each block of README.md, docs/USAGE.md, docs/SCALING.md,
# docs/PERFORMANCE.md, docs/ARCHITECTURE.md, docs/PYTHON.md and the format
# documents (docs/FORMAT*.md: arithmetic such as "2 × edges" is excused as
# not measured). A block is a table row, a list item ("- ", "* ", "1. ")
# with its continuation lines, or a paragraph (lines between blank lines);
# fenced code is skipped. bench/RESULTS.md, a log, is checked by section
# (the end of this script).
#  1. A block that holds a figure must name a raw source: a path
#     bench/raw/... that exists under SOURCE_ROOT, or bench/RESULTS.md#ANCHOR
#     where ANCHOR is a heading of bench/RESULTS.md. A figure is a number
#     (or a range "a–b") followed by a unit of time, rate, ratio or share:
#     s, ms, µs, min, seconds, minutes, GB/s, MB/s, GiB/s, arcs/s, ×, %, or
#     x written right after the number ("2.91x").
#  2. Every bench/raw/... path named anywhere in those files exists (no
#     braces or globs: name the file).
#  2b. A table row may take its source from the table's caption: the
#     block just before the table (a paragraph or list item, not a
#     heading) when that block names a raw source itself. A row's own
#     source is still the better one where rows come from several runs.
#  3. A figure that is no measurement (a rule's threshold, a formula) is
#     excused by a comment in its block: <!-- not measured: F1; F2 -->. Each
#     excused figure must occur in the block; only those figures are
#     excused.
# The rule is per block, not per figure: a block naming one raw file for
# two figures passes even if one came from elsewhere, so keep a block's
# figures to the files it names.
#
# Before the real files, the rule runs on made-up documents that must fail
# (a figure without a raw path, a raw path that does not exist, a stale
# excuse) and one that must pass, so this check is shown able to fail on
# every run. Ends with "N passed, N failed".
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 1
. tests/lib.sh
export LC_ALL=C.UTF-8

# One block a line: "LINE<TAB>text", its lines joined by spaces.
blocks() {
	awk '
	function flush() { if (buf != "") print start "\t" buf; buf = "" }
	/^[ \t]*```/ { flush(); fence = !fence; next }
	fence { next }
	/^[ \t]*$/ { flush(); next }
	/^[ \t]*\|/ { flush(); start = NR; buf = $0; flush(); next }
	/^[ \t]*([-*]|[0-9]+\.)[ \t]/ { flush() }
	/^#/ { flush(); start = NR; buf = $0; flush(); next }
	{ gsub(/\t/, " "); if (buf == "") { start = NR; buf = $0 } else buf = buf " " $0 }
	END { flush() }' "$1"
}

# bench/RESULTS.md's headings as anchors (GitHub's: lower case, only
# letters, digits, "-", "_" and spaces kept, spaces as "-"; a character
# outside ASCII is dropped, so a heading with one may not match: it fails
# closed).
anchors() {
	awk '/^#+ / { s = $0; sub(/^#+ +/, "", s); s = tolower(s)
		gsub(/[^a-z0-9 _-]/, "", s); gsub(/ /, "-", s); print s }' bench/RESULTS.md
}

num='[0-9]+([.,][0-9]+)*'
unit='(ms|µs|us|s|min|seconds|minutes|GB/s|MB/s|GiB/s|MiB/s|arcs/s|×|%)'
fig="(^|[^A-Za-z0-9_.^/-])$num( ?(–|-) ?$num)? ?$unit([^A-Za-z0-9/]|\$)|(^|[^A-Za-z0-9_.^/-])$num( ?(–|-) ?$num)?x([^A-Za-z0-9]|\$)"

# check_doc FILE: prints one line per broken block ("FILE:LINE: why");
# returns the number of them.
check_doc() {
	local f=$1 bad=0 line text rest ex e p figs srcs=0 a
	local anc cap=0
	anc=$(anchors)
	while IFS=$'\t' read -r line text; do
		rest=$text
		# excused figures: each must be in the block; then dropped
		while [[ $rest =~ \<!--\ not\ measured:\ ([^>]*)--\> ]]; do
			ex=${BASH_REMATCH[1]}
			rest=${rest/"${BASH_REMATCH[0]}"/}
			IFS=';' read -ra list <<<"$ex"
			for e in "${list[@]}"; do
				e=$(echo "$e" | sed 's/^ *//; s/ *$//')
				[ -n "$e" ] || continue
				if [[ $rest != *"$e"* ]]; then
					echo "$f:$line: excused figure \"$e\" is not in the block"
					bad=$((bad+1))
				fi
				rest=${rest//"$e"/}
			done
		done
		srcs=0
		for p in $(grep -oE 'bench/raw/[A-Za-z0-9._/{}*+-]+' <<<"$rest" | sed 's/[.]*$//'); do
			if [ -e "$p" ]; then
				srcs=$((srcs+1))
			else
				echo "$f:$line: $p does not exist"
				bad=$((bad+1))
			fi
		done
		for a in $(grep -oE 'bench/RESULTS\.md#[A-Za-z0-9_-]+' <<<"$rest" | sed 's/.*#//'); do
			if grep -qxF -- "$a" <<<"$anc"; then
				srcs=$((srcs+1))
			else
				echo "$f:$line: bench/RESULTS.md has no heading #$a"
				bad=$((bad+1))
			fi
		done
		# the caption's sources reach the rows of the table just after it
		if [[ $text =~ ^[[:space:]]*\| ]]; then
			[ "$srcs" = 0 ] && srcs=$cap
		elif [[ $text =~ ^# ]]; then
			cap=0
		else
			cap=$srcs
		fi
		figs=$(grep -oE -- "$fig" <<<"$rest" | head -3 | tr '\n' ' ')
		if [ -n "$figs" ] && [ "$srcs" = 0 ]; then
			echo "$f:$line: figures without a raw file: $figs"
			bad=$((bad+1))
		fi
	done < <(blocks "$f")
	return $((bad > 255 ? 255 : bad))
}

# --- the rule on made-up documents first: it must be able to fail
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
raw=$(git ls-files 'bench/raw/*' 2>/dev/null | head -1)
[ -n "$raw" ] || raw=$(find bench/raw -type f | head -1)
check "a raw file to cite exists" [ -n "$raw" ]
printf 'The count took 7.41 s.\n' >"$T/nosrc.md"
printf 'The count took 7.41 s (`bench/raw/no-such-dir/x.txt`).\n' >"$T/missing.md"
printf 'Auto takes it where 8x faster. <!-- not measured: 9x -->\n' >"$T/stale.md"
printf '| a | 1.96× | `bench/raw/no-such-dir/` |\n' >"$T/row.md"
printf -- '- ran in 3 s (`%s`)\n- and in 4 s\n' "$raw" >"$T/item.md"
printf 'Took 3 s (bench/RESULTS.md#no-such-heading).\n' >"$T/anchor.md"
printf 'Took 7.41 s (`%s`); rule: 90%% of the file cached. <!-- not measured: 90%% -->\n\n```\nrun 5 s\n```\n\n| 2.14× | `%s` |\n' \
	"$raw" "$raw" >"$T/good.md"
printf '\nTook 3 s (bench/RESULTS.md#commands).\n' >>"$T/good.md"
printf '\nMeasured in one run (`%s`):\n\n| a | b |\n|---|---|\n| x | 1.96× |\n| y | 2.5 s |\n' "$raw" >>"$T/good.md"
printf 'Measured in one run:\n\n| a | b |\n|---|---|\n| x | 1.96× |\n' >"$T/capnone.md"
printf 'Measured (`%s`):\n\n## Later\n\n| a | b |\n|---|---|\n| x | 1.96× |\n' "$raw" >"$T/caphead.md"
printf 'Measured (`%s`):\n\n| x | 1.96× |\n\nThen this.\n\n| y | 2.5 s |\n' "$raw" >"$T/capnext.md"
for m in nosrc missing stale row item anchor capnone caphead capnext; do
	out=$(check_doc "$T/$m.md")
	check "made-up $m.md fails the rule" [ -n "$out" ]
done
out=$(check_doc "$T/good.md")
check "made-up good.md passes the rule ($out)" [ -z "$out" ]

# --- the documents
for d in README.md docs/USAGE.md docs/PERFORMANCE.md docs/SCALING.md docs/ARCHITECTURE.md docs/PYTHON.md docs/FORMAT.md docs/FORMAT-WEBGRAPH.md; do
	check "$d exists" [ -f "$d" ]
	[ -f "$d" ] || continue
	out=$(check_doc "$d")
	[ -z "$out" ] || echo "$out"
	check "$d: every figure names its raw file" [ -z "$out" ]
done
# --- bench/RESULTS.md, a log: each section (a "## " heading to the next)
# that holds a figure names a raw file somewhere in it, or says that none
# was kept ("no raw file"), so a session's figures can be traced
sections_without_raw() { # FILE -> "FILE:LINE: heading" per section that fails
	awk -v f="$1" -v fig="$fig" '
	function done() { if (h != "" && figs && !raw) print f ":" hl ": " substr(h, 1, 80) }
	/^## / { done(); h = $0; hl = NR; raw = 0; figs = 0; next }
	/bench\/raw\/|no raw file/ { raw = 1 }
	$0 ~ fig { figs = 1 }
	END { done() }' "$1"
}
printf '## one\n\nTook 3 s (`%s`).\n\n## two\n\nTook 4 s.\n' "$raw" >"$T/log.md"
out=$(sections_without_raw "$T/log.md")
check "made-up log: the section without a raw file fails, the other passes ($out)" [ "$out" = "$T/log.md:5: ## two" ]
out=$(sections_without_raw bench/RESULTS.md)
[ -z "$out" ] || echo "$out"
check "bench/RESULTS.md: every section with figures names a raw file" [ -z "$out" ]
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
