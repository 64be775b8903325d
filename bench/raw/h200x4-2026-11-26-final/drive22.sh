#!/usr/bin/env bash
# next session: the GPU suite on the binaries of 64c0bc6's product code (.carry/gpu;
# sha256 of tristream: see the closing note), on nvidia-h200-x4, in parts:
# JOBS="multi sanitizer batch-0 batch-1 counts-2 counts-6 counts-7" first, the other
# counts slices in a later session on the same binaries (no product change between).
set -u
O=/tmp/res; mkdir -p $O
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0
echo "$(date -u +%FT%TZ) sha256 $(sha256sum .carry/gpu/tristream | cut -c1-16)" >> $O/progress.txt
JOBS=${JOBS:-"multi sanitizer batch-0 batch-1 counts-2 counts-6 counts-7"} bash tests/gpu/all.sh .carry/gpu .carry/graphs $O 8
echo "$(date -u +%FT%TZ) all.sh exit $? END-OF-DRIVER" >> $O/progress.txt
