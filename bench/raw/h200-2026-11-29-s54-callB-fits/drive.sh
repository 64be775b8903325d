#!/usr/bin/env bash
# session 54 call A: groups_ab at a quarter (warm, cold), builds side by
# side: old (gpu66, 3f1e393: id_of over the whole id range) and new (gpu67,
# id_of from the first rank with entries); then tests/gpu groups.sh on new.
set -u
T0=$(date +%s)
mkdir -p /tmp/o
OUT=/tmp/o/q EXPECT=49154930897 VARIANTS="old@.carry/gpu66:TSG_ARRIVAL_GROUP_PROFILE=2 ; idof@.carry/gpu67:TSG_ARRIVAL_GROUP_PROFILE=2 ; fits@.carry/gpu68:TSG_ARRIVAL_GROUP_PROFILE=2" WORK_DIR=/tmp/w bash bench/groups_ab.sh .carry/gpu68 > /tmp/o/q.log 2>&1
echo "quarter done at $(( $(date +%s) - T0 ))s" | tee -a /tmp/o/q.log
python3 - <<'PY' > /tmp/o/groups.txt
import json, glob
for f in sorted(glob.glob('/tmp/o/q/*.json')):
    try: d = json.load(open(f))
    except Exception: print(f, 'no json'); continue
    a = d.get('arrival_groups', {})
    st = d.get('stages', {})
    print(f.split('/')[-1], d.get('seconds'), d.get('groups'), a.get('group_rows'), a.get('pair_launches'), a.get('unit_launches'), a.get('rows_back_bytes'), a.get('group_end_s'), st.get('read'), st.get('arrival_tail'), st.get('count'))
PY
cat /tmp/o/groups.txt; grep -h "^group " /tmp/o/q/warm-*-1.err
rm -f /tmp/w/rmat26.tsg
tar czf $OUT/ab.tgz -C /tmp/o .
cp /tmp/o/q/table.md $OUT/quarter.md
BUILD=gpu68 OUT=$OUT LIMIT=$(( 575 - ($(date +%s) - T0) )) LANES="0:groups" bash .carry/lanes.sh
cat $OUT/quarter.md
