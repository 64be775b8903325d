#!/usr/bin/env bash
# bench/batch.sh BUILD_DIR WORK_DIR [RUNS] [SCALES] - what batch-job features
# cost on the GPU, side by side in one run, warm page cache, medians of RUNS
# (default 3):
#  - per-vertex counts (--per-vertex to a file) and --clustering against the
#    plain count, R-MAT SCALES (default "21 22 23 24"), default layout, and
#    the block layout at 1/4 of the in-memory footprint (--gpu-mem);
#  - --checkpoint on against off on the largest scale with 66 units (block
#    layout, --partitions 11), and a resume of a finished half; the same
#    for the arrival layout with 32 batches.
# Every variant's count must equal the plain one's, and the per-vertex sum
# 3 x triangles. Prints a table.
set -eu
B=$1 W=$2 RUNS=${3:-3} SCALES=${4:-"21 22 23 24"}
mkdir -p "$W"
run() { # label graph args... -> "seconds triangles" (wall, whole process)
	local s e out
	s=$(date +%s.%N)
	out=$("$B/tristream" count --quiet --json --device gpu "$@")
	e=$(date +%s.%N)
	echo "$(python3 -c "print($e - $s)") $(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["triangles"])')"
}
# two equal decimal counts (an empty one, a failed run, never matches)
same() { case $1 in '' | *[!0-9]*) return 1 ;; esac; [ "$1" = "$2" ]; }
median() { python3 -c "import statistics,sys; print('%.3f' % statistics.median(map(float, sys.argv[1:])))" "$@"; }
printf '%-10s %-22s %9s %9s %7s %s\n' graph variant "plain s" "variant s" ratio check
last=
for l in $SCALES; do
	g="$W/rmat$l.tsg"
	[ -f "$g" ] || "$B/tristream-gen" --quiet rmat --scale $l --seed 1 "$g"
	last=$g
	cat "$g" >/dev/null
	bytes=$(stat -c %s "$g")
	for layout in "" "--layout block --gpu-mem $((bytes / 4))"; do
		for v in "--per-vertex $W/pv.txt" "--per-vertex $W/pv.bin --per-vertex-format binary" "--clustering"; do
			tp=() tv=() ok=yes
			for i in $(seq "$RUNS"); do # alternate: drift hits both alike
				read -r t n < <(run "$g" $layout)
				tp+=("$t"); ref=$n
				read -r t n < <(run "$g" $layout $v)
				tv+=("$t")
				same "$n" "$ref" || ok="COUNT DIFFERS ($n vs $ref)"
			done
			case $v in *pv.txt*) s=$(awk '{s+=$2} END {printf "%d", s}' "$W/pv.txt"); [ "$s" = $((3 * ref)) ] || ok="per-vertex sum $s";; esac
			p=$(median "${tp[@]}") q=$(median "${tv[@]}")
			printf '%-10s %-22s %9s %9s %7.2f %s\n' "rmat$l" "$(echo "${layout:+1/4 mem }${v##*--}" | cut -c1-22)" "$p" "$q" "$(python3 -c "print($q / $p)")" "$ok"
		done
	done
done
# checkpoints: LABEL KEEP ARGS... - plain against --checkpoint, and a resume
# from a checkpoint cut to its header, its plan and KEEP unit records (64,
# 32 and 32 bytes)
ckpt_rows() {
	local label=$1 keep=$2; shift 2
	local tp=() tv=() tr=() ok=yes t n ref p q r
	for i in $(seq "$RUNS"); do
		rm -f "$W/ck"
		read -r t n < <(run "$g" "$@")
		tp+=("$t"); ref=$n
		read -r t n < <(run "$g" "$@" --checkpoint "$W/ck")
		tv+=("$t")
		same "$n" "$ref" || ok="COUNT DIFFERS ($n vs $ref)"
		head -c $((64 + 32 * (keep + 1))) "$W/ck" >"$W/ck.half" && mv "$W/ck.half" "$W/ck"
		read -r t n < <(run "$g" "$@" --checkpoint "$W/ck")
		tr+=("$t")
		same "$n" "$ref" || ok="RESUMED COUNT DIFFERS ($n vs $ref)"
	done
	p=$(median "${tp[@]}") q=$(median "${tv[@]}") r=$(median "${tr[@]}")
	printf '%-10s %-22s %9s %9s %7.2f %s\n' "$(basename "$g" .tsg)" "$label" "$p" "$q" "$(python3 -c "print($q / $p)")" "$ok"
	printf '%-10s %-22s %9s %9s %7.2f %s\n' "$(basename "$g" .tsg)" "$label, resumed half" "$p" "$r" "$(python3 -c "print($r / $p)")" "$ok"
}
g=$last
# block: 66 units, a durable record after each
ckpt_rows "checkpoint, 66 units" 33 --layout block --partitions 11
# arrival (default where the rows fit): 32 batches, each recorded once the
# device has counted it; a resume places the recorded half's rows without
# counting them
ckpt_rows "arrival ckpt, 32 batch" 16 --layout arrival --batches 32
