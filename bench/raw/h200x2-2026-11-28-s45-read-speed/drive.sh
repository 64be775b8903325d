#!/usr/bin/env bash
# session 45 calls D/E (two GPUs): bench/read_speed.sh on gpu55 (4717eeb),
# rows in two calls on one machine (same OUT and WORK_DIR under /tmp).
set -u
R=/tmp/rs
mkdir -p $R
EXPECT=49154930897 EXPECT_K=124171307855 OUT=$R ROWS="$ROWS" timeout ${LIM:-540} bash bench/read_speed.sh .carry/gpu55 26 /tmp/rsw > $OUT/log-$TAG.txt 2>&1
echo "read_speed rc=$?" >> $OUT/log-$TAG.txt
tar czf $OUT/rs-$TAG.tgz -C /tmp rs
cp $R/table.md $OUT/ 2>/dev/null
tail -n 45 $OUT/log-$TAG.txt
