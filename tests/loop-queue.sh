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

# Kernels differ between machines of one kind (one has bfq, the next does
# not; writeback throttling is a configuration option): a test picks among
# what the kernel offers and never names one it may lack.

# offered_schedulers DISK: the I/O schedulers DISK's queue offers, one line
# ("none mq-deadline kyber"), without the brackets of the selected one.
offered_schedulers() {
  tr -d '[]' <"/sys/block/$1/queue/scheduler"
}

# pick_scheduler DISK CHOICE…: the first CHOICE that DISK's queue offers;
# prints nothing and fails when it offers none of them.
pick_scheduler() {
  local disk=$1 choice
  shift
  for choice; do
    case " $(offered_schedulers "$disk") " in *" $choice "*) echo "$choice"; return 0 ;; esac
  done
  return 1
}

# kernel_schedulers CHOICE…: those CHOICEs that some block device's queue
# offers, in CHOICE's order, one a line: for a matrix, whose loop device is
# not attached yet (every queue of the kernel lists its schedulers).
kernel_schedulers() {
  local offered choice
  offered=" $(cat /sys/block/*/queue/scheduler 2>/dev/null | tr -d '[]' | tr '\n' ' ') "
  for choice; do
    case "$offered" in *" $choice "*) echo "$choice" ;; esac
  done
}

# has_wbt DISK: the kernel has writeback throttling (CONFIG_BLK_WBT) for DISK.
has_wbt() {
  [ -e "/sys/block/$1/queue/wbt_lat_usec" ]
}

# queue_set_odd DISK: settings no kernel default has (a fresh loop device
# gets none, 2000 and 128), so that a matrix that put back nothing, or the
# defaults, fails the comparison: a scheduler other than none (kyber where
# offered, so that a cell's bfq or mq-deadline differs from it), 4321 µs
# where the kernel throttles writeback, and 256 KiB of read-ahead.
queue_set_odd() {
  local scheduler
  scheduler=$(pick_scheduler "$1" kyber mq-deadline bfq) && echo "$scheduler" >"/sys/block/$1/queue/scheduler"
  has_wbt "$1" && echo 4321 >"/sys/block/$1/queue/wbt_lat_usec"
  echo 256 >"/sys/block/$1/queue/read_ahead_kb"
}

# cell_scheduler DISK: a scheduler for a matrix cell on DISK after
# queue_set_odd: bfq where the kernel has it (it changes wbt_lat_usec as it
# is selected and left), else another that differs from DISK's own now.
cell_scheduler() {
  local own choice
  own=$(queue_scheduler "$1")
  for choice in bfq mq-deadline kyber none; do
    [ "$choice" = "$own" ] && continue
    pick_scheduler "$1" "$choice" && return 0
  done
  return 1
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
