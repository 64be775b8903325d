#!/usr/bin/env python3
"""bench/hold_mem.py CAP_GIB READY_FILE - hold the host's memory down to
CAP_GIB of MemAvailable, for a bound where no memory cgroup can be made
(the device machines refuse memory.max): anonymous memory, locked (mlock:
never reclaimed or swapped), so that what runs beside it has at most
CAP_GIB of RAM for itself and its page cache; past that the kernel's OOM
killer ends it (this holder asks to be spared: oom_score_adj -1000, root).

Writes "held H GiB, MemAvailable A GiB" to READY_FILE once the memory is
locked, then sleeps until killed. Exit 1 where MemAvailable is already
at or under CAP_GIB (nothing to hold; the caller says so) or the memory
cannot be locked (not root, or RLIMIT_MEMLOCK): the bound would not hold.
"""
import ctypes
import mmap
import os
import sys
import time


def mem_available_kib():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1])
    raise SystemExit("hold_mem: no MemAvailable in /proc/meminfo")


def main():
    cap_kib = int(float(sys.argv[1]) * (1 << 20))
    ready = sys.argv[2]
    hold = (mem_available_kib() - cap_kib) * 1024
    if hold <= 0:
        print("hold_mem: MemAvailable is already under the cap", file=sys.stderr)
        return 1
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("-1000")
    except OSError:
        pass  # not root: the holder may be chosen; the caller checks it lived
    # in pieces of at most 1 GiB, until MemAvailable is at the cap: what
    # the kernel counts as available moves as the page cache settles
    libc = ctypes.CDLL(None, use_errno=True)
    pieces, held = [], 0
    while hold > 0:
        n = min(hold, 1 << 30)
        n -= n % mmap.PAGESIZE
        if n <= 0:
            break
        m = mmap.mmap(-1, n, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
        if libc.mlock(ctypes.c_void_p(addr), ctypes.c_size_t(n)) != 0:
            print("hold_mem: mlock of %d bytes failed (errno %d)" % (n, ctypes.get_errno()),
                  file=sys.stderr)
            return 1
        pieces.append(m)
        held += n
        hold = (mem_available_kib() - cap_kib) * 1024
    with open(ready + ".tmp", "w") as f:
        f.write("held %.1f GiB, MemAvailable %.1f GiB\n"
                % (held / 2**30, mem_available_kib() / 2**20))
    os.rename(ready + ".tmp", ready)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    sys.exit(main())
