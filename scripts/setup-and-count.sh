#!/usr/bin/env bash
# The main job (README): installs dependencies, builds, converts the bundled
# graph and counts its triangles (on the GPU if one is usable, else the CPU).
#
# A fresh Debian machine often runs apt on its own at first boot
# (unattended-upgrades), holding apt's and dpkg's locks for minutes; apt-get
# would then fail at once. So each apt-get call first waits, up to APT_WAIT
# seconds (default 300), for those locks to be free, saying who holds them,
# and apt-get itself waits as long (DPkg::Lock::Timeout) for a lock taken
# in between. Past that it stops with a message naming the holder.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
apt_wait=${APT_WAIT:-300}
case $apt_wait in '' | *[!0-9]*) echo "setup-and-count: APT_WAIT must be a number of seconds" >&2; exit 2 ;; esac

# The pids holding a lock (fcntl, as apt and dpkg take them) on apt's or
# dpkg's lock files, from /proc/locks (matched by inode).
apt_lock_holders() {
	local f ino
	for f in /var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock \
		/var/cache/apt/archives/lock; do
		[ -e "$f" ] || continue
		ino=$(stat -c %i "$f") || continue
		awk -v ino="$ino" '{ n = split($6, d, ":"); if (d[n] == ino) print $5 }' /proc/locks 2>/dev/null
	done | sort -u
}

wait_for_apt() {
	local waited=0 pids who
	while pids=$(apt_lock_holders) && [ -n "$pids" ]; do
		who=$(for p in $pids; do printf '%s (%s) ' "$p" "$(cat "/proc/$p/comm" 2>/dev/null || echo '?')"; done)
		if [ "$waited" -ge "$apt_wait" ]; then
			echo "setup-and-count: apt/dpkg is still locked by pid ${who}after ${apt_wait} s;" \
				"let it finish (or stop it) and run this script again, or set APT_WAIT" >&2
			exit 1
		fi
		[ $((waited % 30)) = 0 ] &&
			echo "setup-and-count: waiting for apt/dpkg, locked by pid ${who}(${waited} of ${apt_wait} s)" >&2
		sleep 5
		waited=$((waited + 5))
	done
}

apt_get() {
	wait_for_apt
	$SUDO apt-get -o DPkg::Lock::Timeout="$apt_wait" "$@"
}

apt_get update -qq
apt_get install -y -qq meson ninja-build pkg-config gcc liburing-dev libxxhash-dev zlib1g-dev liblz4-dev libdeflate-dev libmetis-dev >/dev/null
export PATH="$PATH:/usr/local/cuda/bin"
cuda=disabled
command -v nvcc >/dev/null && cuda=enabled
[ -d build ] || meson setup build -Dcuda=$cuda >/dev/null
ninja -C build >/dev/null
./build/tristream-convert tests/data/karate.txt.gz build/karate.tsg
./build/tristream count build/karate.tsg
