#!/usr/bin/env bash
# session 54 call D: more of tests/gpu on the final build (gpu68), one job at a time
set -u
BUILD=gpu68 OUT=$OUT LIMIT=360 LANES="0:counts-9,counts-10,kernels-4,kernels-6,batch-0" bash .carry/lanes.sh
