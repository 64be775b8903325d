#!/usr/bin/env bash
# Issue #16's bench on the final build b7b8481 (.carry/gpu): one GPU
# against two (--gpus 2, mpirun -n 2 with the host build and with --read
# all), R-MAT 24-26 in the page cache and 26 at 1/4 of the footprint,
# medians of 3; R-MAT 24 and 25 from a cold file (one run each).
# Poll with run calls that name no carry.
set -u
O=/tmp/res2; mkdir -p $O
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0
cp -a .carry/gpu /tmp/gpu-b7b8481
step() { echo "$(date -u +%FT%TZ) $*" >> $O/progress.txt; }
step "sha256 $(sha256sum /tmp/gpu-b7b8481/tristream | cut -c1-16); $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tr '\n' ';') $(nproc) cores; $(mpirun --version | head -1)"
step "multigpu.py 24 25 26 --runs 3 --quarter 26 --cold 24,25 --no-arrival"
python3 bench/multigpu.py /tmp/gpu-b7b8481 24 25 26 --runs 3 --quarter 26 --cold 24,25 --no-arrival \
	--out $O/multigpu.jsonl > $O/multigpu.txt 2> $O/multigpu-stderr.txt
step "multigpu.py exit $? END-OF-DRIVER"
