#!/usr/bin/env bash
# The main job (README): installs dependencies, builds, converts the bundled
# graph and counts its triangles (on the GPU if one is usable, else the CPU).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq meson ninja-build pkg-config gcc liburing-dev libxxhash-dev zlib1g-dev liblz4-dev libdeflate-dev libmetis-dev >/dev/null
export PATH="$PATH:/usr/local/cuda/bin"
cuda=disabled
command -v nvcc >/dev/null && cuda=enabled
[ -d build ] || meson setup build -Dcuda=$cuda >/dev/null
ninja -C build >/dev/null
./build/tristream-convert tests/data/karate.txt.gz build/karate.tsg
./build/tristream count build/karate.tsg
