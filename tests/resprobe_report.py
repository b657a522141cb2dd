# SPDX-License-Identifier: GPL-3.0-or-later
"""resprobe_report.py: the samples of a report's series in Python, version 1 or 2.

A reference decoder of docs/REPORT-FORMAT.md ("Sample blocks") for the test
scripts and the benchmarks, independent of the C reader it checks:

    import json, resprobe_report
    report = json.load(open("run.json"))
    for t, value in resprobe_report.samples(report["series"]["fsync_latency"]):
        ...
"""

import base64
import struct
import zlib


def _varint(data, pos):
    n = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        n |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return n, pos


def _unzigzag(z):
    return (z >> 1) ^ -(z & 1)


def decode_block(text):
    """The [t, value] pairs of one base64 block."""
    data = zlib.decompress(base64.b64decode(text, validate=True))
    count, pos = _varint(data, 0)
    (base,) = struct.unpack_from("<d", data, pos)
    pos += 8
    times = [base]
    bits = 0
    for _ in range(count - 1):
        delta, pos = _varint(data, pos)
        bits += _unzigzag(delta)
        (offset,) = struct.unpack("<f", struct.pack("<I", bits))
        times.append(base + offset)
    values = []
    for _ in range(count):
        h, pos = _varint(data, pos)
        d = h & 15
        if d == 15:
            (value,) = struct.unpack_from("<d", data, pos)
            pos += 8
        else:
            value = _unzigzag(h >> 4) / 10.0 ** d
        values.append(value)
    if pos != len(data):
        raise ValueError("trailing bytes in a block")
    return [[t, v] for t, v in zip(times, values)]


def samples(series):
    """The [t, value] pairs of a series object: its "samples" (version 1)
    or its decoded "blocks" (version 2)."""
    if "blocks" in series:
        points = [p for block in series["blocks"] for p in decode_block(block)]
        if len(points) != series["count"]:
            raise ValueError("count {} but {} samples".format(series["count"], len(points)))
        return points
    return series.get("samples", [])
