#!/usr/bin/env bash
# session 54 call C: tests/gpu on the final build (gpu68), one job at a time
set -u
BUILD=gpu68 OUT=$OUT LIMIT=570 LANES="0:inputs,sanitizer,clique-sanitizer,counts-5,counts-6,kernels-5,counts-7,counts-8" bash .carry/lanes.sh
