#!/usr/bin/env bash
# session 54 call C: tests/gpu on the final build (gpu68), one job at a time
set -u
BUILD=gpu68 OUT=$OUT LIMIT=570 LANES="0:inputs,sanitizer,clique-sanitizer,counts-5,counts-6,kernels-5,counts-7,counts-8" bash .carry/lanes.sh
# lanes.sh: bench/raw/h200-2026-11-28-s44-callB-gpu-tests/lanes.sh with BUILD's default gpu66 (BUILD=gpu68 given here)
