# SPDX-License-Identifier: GPL-3.0-or-later
# loop-queue.sh: loop devices of a test's own and the queue and bdi settings
# a matrix must put back, for the root tests that source it
# (test-loop-stack.sh, test-matrix-restore.sh, the matrix rows of
# test-faults.sh, test-usbstick.sh). Defines functions only: sourcing it
# changes nothing.

# loop_control add [FIRST] → the index of a new loop device, the first free
# one from FIRST (default 300) up (LOOP_CTL_ADD of linux/loop.h), so that
# no other user's device is touched; loop_control remove N removes it.
loop_control() {
  python3 - "$@" <<'PY'
import errno, fcntl, os, sys, time
LOOP_CTL_ADD, LOOP_CTL_REMOVE = 0x4C80, 0x4C81
fd = os.open("/dev/loop-control", os.O_RDWR)
if sys.argv[1] == "add":
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    for index in range(first, 1000):
        try:
            print(fcntl.ioctl(fd, LOOP_CTL_ADD, index)); break
        except OSError as e:
            if e.errno != errno.EEXIST: raise
else:
    # A device just detached is busy for a moment (the detach completes asynchronously).
    for attempt in range(50):
        try:
            fcntl.ioctl(fd, LOOP_CTL_REMOVE, int(sys.argv[2])); break
        except OSError as e:
            if e.errno != errno.EBUSY or attempt == 49: raise
            time.sleep(0.1)
PY
}

# queue_scheduler DISK: the scheduler sysfs marks as chosen ("[bfq]"), or
# the file's only word where the kernel marks none.
queue_scheduler() {
  local file=/sys/block/$1/queue/scheduler chosen
  chosen=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$file")
  [ -n "$chosen" ] || chosen=$(cat "$file")
  echo "$chosen"
}

# queue_settings DISK: what outlives a loop device's detach, one line to
# compare before and after: scheduler, wbt_lat_usec, read_ahead_kb and, for
# a loop device, its direct I/O ("unbound" when it has no backing file).
queue_settings() {
  local q=/sys/block/$1/queue dio=unbound
  [ -r "/sys/block/$1/loop/dio" ] && dio=$(cat "/sys/block/$1/loop/dio")
  echo "scheduler=$(queue_scheduler "$1") wbt=$(cat "$q/wbt_lat_usec" 2>/dev/null)" \
       "read_ahead_kb=$(cat "$q/read_ahead_kb") dio=$dio"
}

# queue_set_odd DISK: settings no kernel default has (a fresh loop device
# gets none, 2000 and 128), so that a matrix that put back nothing, or the
# defaults, fails the comparison.
queue_set_odd() {
  echo kyber >"/sys/block/$1/queue/scheduler"
  echo 4321 >"/sys/block/$1/queue/wbt_lat_usec"
  echo 256 >"/sys/block/$1/queue/read_ahead_kb"
}

# backing_disk PATH: the whole disk under the file system of PATH (a
# partition's parent).
backing_disk() {
  local path
  path=$(readlink -f "/sys/dev/block/$(findmnt -n -o MAJ:MIN -T "$1" | head -1 | tr -d ' ')")
  [ -e "$path/partition" ] && path=$(dirname "$path")
  basename "$path"
}

# bdi_dir DISK: the sysfs directory of DISK's backing device info
# (/sys/class/bdi/MAJ:MIN), where its per-device dirty limits are.
bdi_dir() {
  echo "/sys/class/bdi/$(basename "$(readlink "/sys/block/$1/bdi")")"
}

# bdi_limits BDI_DIR: the dirty limits a matrix cell sets and must put back,
# one line to compare before and after: max_ratio (percent), max_ratio_fine
# (parts per million) and strict_limit (0 or 1).
bdi_limits() {
  echo "max_ratio=$(cat "$1/max_ratio") max_ratio_fine=$(cat "$1/max_ratio_fine") strict_limit=$(cat "$1/strict_limit")"
}
