#!/usr/bin/env bash
# session 57 call D (two H200s): tests/gpu parts on the final build (gpu82 = 7d5655b)
set -u
BUILD=gpu82 OUT=$OUT LIMIT=570 LANES="0:oriented,batch-0 1:clique-late 0,1:multi-block,sweep" bash .carry/lanes.sh
