# SPDX-License-Identifier: GPL-3.0-or-later
"""block_witness.py: every request of a block device as another tracer saw
it, for tests/test-kernel-figures.sh: trace-cmd's report (-t) of
block:block_rq_issue/block_rq_complete, or bpftrace's lines "I SECTOR RWBS
NS" and "C SECTOR RWBS SECTORS NS"; paired by sector and operation as
biolatency does (and as the product does, engine/parts/rp-trace-block.c)."""
import re


def op_of(rwbs):
    """read, write or flush from rwbs: an optional pre-flush F, then the
    operation (block/blk-core.c blk_fill_rwbs())."""
    if len(rwbs) > 1 and rwbs[0] == "F" and rwbs[1] in "RWDFN":
        rwbs = rwbs[1:]
    return {"R": "read", "W": "write", "F": "flush"}.get(rwbs[:1])


_FTRACE = re.compile(r"\s(\d+)\.(\d{9}): block_rq_(issue|complete):\s+\d+,\d+ (\S+) (?:\d+ )?\(.*?\) (\d+) \+ (\d+)")


def ftrace_events(path):
    """(ns, "I" or "C", sector, rwbs, sectors) of trace-cmd report -t's lines."""
    events = []
    for line in open(path):
        m = _FTRACE.search(line)
        if m:
            ns = int(m.group(1)) * 10**9 + int(m.group(2))
            events.append((ns, "I" if m.group(3) == "issue" else "C", int(m.group(5)), m.group(4), int(m.group(6))))
    return events


def bpf_events(path):
    """The same of bpftrace's lines."""
    events = []
    for line in open(path):
        f = line.split()
        if f and f[0] == "I" and len(f) == 4:
            events.append((int(f[3]), "I", int(f[1]), f[2], 1))
        elif f and f[0] == "C" and len(f) == 5:
            events.append((int(f[4]), "C", int(f[1]), f[2], int(f[3])))
    return events


def requests(events, start_ns, end_ns):
    """{"read": [(issued_ns, latency_s)…], "write": […]}: the requests issued
    from start_ns on and completed by end_ns (CLOCK_MONOTONIC, as bpftrace's
    nsecs and the trace clock mono)."""
    # In time order: bpftrace prints each CPU's buffer in turn.
    events = sorted(events)
    issued, out = {}, {"read": [], "write": []}
    for ns, kind, sector, rwbs, sectors in events:
        op = op_of(rwbs)
        if op not in out:
            continue
        key = (sector, op)
        if kind == "I":
            issued[key] = ns
        elif sectors > 0 and key in issued:   # 0 sectors: the end of a flush sequence, not a request's data
            at = issued.pop(key)
            if start_ns <= at and ns <= end_ns:
                out[op].append((at, (ns - at) * 1e-9))
    return out


def pct(values, p):
    """Hyndman & Fan definition 7, as the product's (rp_stats_percentile())."""
    v = sorted(values)
    h = (len(v) - 1) * p
    lo = int(h)
    return v[lo] + (h - lo) * (v[min(lo + 1, len(v) - 1)] - v[lo])
