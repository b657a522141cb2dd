#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-monitor.py: `resprobe-cli monitor` with a real Prometheus and a real
node_exporter (issue 22, acceptance 1, 2 and 4). Speaks TAP.

1. Prometheus (Debian's `prometheus`, on loopback, a storage folder of its
   own, a free port, scraping every second) scrapes the monitor's /metrics;
   after two scrapes with samples, histogram_quantile(0.99, …) of the fsync
   histogram at the last scrape agrees, to within one bucket, with the p99
   of the monitor's own report over the same samples (the first N of its
   fsync series, N being the scraped count).
2. `promtool check metrics` passes on /metrics and on the textfile, which a
   real prometheus-node-exporter (textfile collector only) serves unchanged.
4. A port in use, an unwritable textfile folder, a folder removed while
   monitoring (down within the period, its session's report saved), SIGHUP
   (a new period, its report saved) and SIGTERM (a clean stop, the last
   report saved; without --report-every none, and no word of one), the
   same folder given twice: a clear message, nothing lost.

No timed assertion: every wait is for a condition, with a generous guard
against a hang. Everything started is stopped on every exit path.
"""
import csv
import io
import json
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

CLI = os.environ.get("RESPROBE_CLI")
HANG_GUARD = 90  # seconds: only against a hang, never a measured limit

count = 0
failures = 0
procs = []


def tap(ok, what, skip=None):
    global count, failures
    count += 1
    # A message quoted in a description may have lines of its own: one TAP line.
    what = " | ".join(line for line in str(what).splitlines() if line.strip())
    if skip is not None:
        print(f"ok {count} - {what} # SKIP {skip}", flush=True)
        return
    print(f"{'ok' if ok else 'not ok'} {count} - {what}", flush=True)
    if not ok:
        failures += 1


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(args, **kwargs):
    proc = subprocess.Popen(args, stdout=kwargs.pop("stdout", subprocess.PIPE),
                            stderr=kwargs.pop("stderr", subprocess.PIPE), text=True, **kwargs)
    procs.append(proc)
    return proc


def stop(proc, sig=signal.SIGTERM):
    if proc.poll() is None:
        proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=HANG_GUARD)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    return proc.returncode, out or "", err or ""


def wait_for(condition, what, guard=HANG_GUARD):
    """Polls @condition until it returns a true value; None after the guard."""
    deadline = time.monotonic() + guard
    while time.monotonic() < deadline:
        try:
            value = condition()
        except (OSError, ValueError, KeyError, IndexError):
            value = None
        if value:
            return value
        time.sleep(0.2)
    print(f"# gave up waiting for {what}", flush=True)
    return None


def http_get(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode()


def promql(port, query, at=None):
    params = {"query": query}
    if at is not None:
        params["time"] = repr(at)
    body = http_get(f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode(params))
    data = json.loads(body)
    if data.get("status") != "success":
        raise ValueError(body)
    return data["data"]["result"]


def bounds():
    """The monitor's bucket bounds, read from its own exposition."""
    return BOUNDS


def bucket_index(value):
    for i, b in enumerate(BOUNDS):
        if value <= b:
            return i
    return len(BOUNDS)


def p99(values):
    """Hyndman & Fan definition 7, as the report's statistics."""
    xs = sorted(values)
    h = (len(xs) - 1) * 0.99
    lo = math.floor(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo])


def fsync_samples(report):
    out = subprocess.run([CLI, "export", report, "--format", "csv", "-o", report + ".csv"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise ValueError(out.stderr)
    with open(report + ".csv") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    name_col = header.index("series")
    value_col = header.index("value")
    return [float(r[value_col]) for r in rows[1:] if r[name_col] == "fsync_latency"]


def promtool_ok(text):
    out = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, text=True)
    if out.returncode != 0:
        print("# promtool: " + (out.stdout + out.stderr).replace("\n", "\n# "), flush=True)
    return out.returncode == 0


def reports_in(folder):
    return sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".json"))


def acceptance_1_and_2(work):
    folder = os.path.join(work, "dir")
    textfile = os.path.join(work, "textfile")
    reports = os.path.join(work, "reports")
    for d in (folder, textfile, reports):
        os.mkdir(d)
    port, prom_port, node_port = free_port(), free_port(), free_port()
    # Many small fsyncs: PromQL's quantile takes the sample of rank
    # ceil(0.99 N), the report's (Hyndman & Fan 7) interpolates from rank
    # 0.99 N + 0.01, one rank lower for most N. With 99 samples those were
    # the largest and the second largest, 1.0 s and 0.32 s, two buckets
    # apart (ASan build, loaded machine); with 500 or more they are
    # neighbours inside the tail, not its two ends.
    monitor = start([CLI, "monitor", "--dir", folder, "--interval", "0.02",
                     "--listen", f"127.0.0.1:{port}",
                     "--textfile", textfile, "--report-every", "1h", "--reports", reports])
    metrics = wait_for(lambda: "resprobe_fsync_latency_seconds_count" in http_get(f"http://127.0.0.1:{port}/metrics")
                       and http_get(f"http://127.0.0.1:{port}/metrics"), "the monitor's first fsync samples")
    tap(metrics is not None, "the monitor serves /metrics with an fsync histogram")
    global BOUNDS
    BOUNDS = sorted({float(line.split('le="')[1].split('"')[0]) for line in (metrics or "").splitlines()
                     if line.startswith("resprobe_fsync_latency_seconds_bucket") and 'le="+Inf"' not in line})
    tap(len(BOUNDS) == 29 and abs(BOUNDS[0] - 1e-5) < 1e-12 and 0.1 in BOUNDS and 1.0 in BOUNDS and 10.0 in BOUNDS,
        f"fixed log-spaced buckets, 10 µs to 100 s, with 0.1, 1 and 10 s ({len(BOUNDS)} bounds)")
    tap(metrics is not None and promtool_ok(metrics), "promtool check metrics passes on /metrics")

    config = os.path.join(work, "prometheus.yml")
    with open(config, "w") as f:
        f.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                "scrape_configs:\n  - job_name: resprobe\n    static_configs:\n"
                f"      - targets: ['127.0.0.1:{port}']\n")
    prometheus = start(["prometheus", f"--config.file={config}", f"--storage.tsdb.path={work}/tsdb",
                        f"--web.listen-address=127.0.0.1:{prom_port}"],
                       stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "prometheus.log"), "w"))
    scrapes = wait_for(lambda: [r for r in promql(prom_port, "count_over_time(resprobe_fsync_latency_seconds_count[1h])")
                                if float(r["value"][1]) >= 2] and
                       [r for r in promql(prom_port, "resprobe_fsync_latency_seconds_count") if float(r["value"][1]) >= 500],
                       "two scrapes by Prometheus, the last with 500 samples", 240)
    tap(bool(scrapes), "Prometheus scraped the monitor twice")
    quantile = count_at = None
    if scrapes:
        last = promql(prom_port, "timestamp(resprobe_fsync_latency_seconds_count)")
        at = float(last[0]["value"][1])
        count_at = int(float(promql(prom_port, "resprobe_fsync_latency_seconds_count", at)[0]["value"][1]))
        quantile = float(promql(prom_port, "histogram_quantile(0.99, resprobe_fsync_latency_seconds_bucket)", at)[0]["value"][1])
        print(f"# at {at}: {count_at} fsync samples scraped, PromQL p99 {quantile}", flush=True)

    node = start(["prometheus-node-exporter", f"--web.listen-address=127.0.0.1:{node_port}",
                  "--collector.disable-defaults", "--collector.textfile",
                  f"--collector.textfile.directory={textfile}"],
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    node_text = wait_for(lambda: "resprobe_fsync_latency_seconds_bucket" in http_get(f"http://127.0.0.1:{node_port}/metrics")
                         and http_get(f"http://127.0.0.1:{node_port}/metrics"), "node_exporter serving the textfile")
    tap(node_text is not None and "node_textfile_scrape_error 0" in node_text,
        "prometheus-node-exporter reads the textfile without an error")
    with open(os.path.join(textfile, "resprobe.prom")) as f:
        tap(promtool_ok(f.read()), "promtool check metrics passes on the textfile")
    tap(not [n for n in os.listdir(textfile) if n != "resprobe.prom"], "only resprobe.prom is left in the textfile folder")

    code, out, err = stop(monitor)
    tap(code == 0, f"SIGTERM stops the monitor cleanly (exit {code})")
    saved = reports_in(reports)
    tap(len(saved) == 1 and "Report saved to" in out, "SIGTERM saves the period's report")
    if quantile is not None and saved:
        samples = fsync_samples(saved[0])
        tap(len(samples) >= count_at, f"the report holds the scraped samples ({len(samples)} ≥ {count_at})")
        own = p99(samples[:count_at])
        print(f"# report p99 of the first {count_at}: {own}; buckets {bucket_index(quantile)} and {bucket_index(own)}",
              flush=True)
        tap(abs(bucket_index(quantile) - bucket_index(own)) <= 1,
            "histogram_quantile(0.99) agrees with the report's p99 within one bucket")
    else:
        tap(False, "the report holds the scraped samples")
        tap(False, "histogram_quantile(0.99) agrees with the report's p99 within one bucket")
    for proc in (node, prometheus):
        stop(proc)


def bad_input(work):
    folder = os.path.join(work, "bad")
    os.mkdir(folder)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = subprocess.run([CLI, "monitor", "--dir", folder, "--listen", f"127.0.0.1:{port}"],
                             capture_output=True, text=True, timeout=HANG_GUARD)
    tap(out.returncode == 2 and f"--listen 127.0.0.1:{port}" in out.stderr and "in use" in out.stderr,
        f"a port in use: exit 2 and a message naming it ({out.stderr.strip()})")
    out = subprocess.run([CLI, "monitor", "--dir", folder, "--listen", "localhost:x"], capture_output=True, text=True)
    tap(out.returncode == 2 and "--listen" in out.stderr, "a bad --listen: exit 2 naming the option")

    readonly = os.path.join(work, "readonly")
    os.mkdir(readonly)
    os.chmod(readonly, 0o500)
    if os.geteuid() == 0:
        # root writes anywhere: a file where the folder should be instead
        readonly = os.path.join(work, "not-a-folder")
        open(readonly, "w").close()
    out = subprocess.run([CLI, "monitor", "--dir", folder, "--textfile", readonly], capture_output=True, text=True)
    tap(out.returncode == 2 and "--textfile" in out.stderr and readonly in out.stderr,
        f"an unwritable textfile folder: exit 2 naming it ({out.stderr.strip()})")
    # Folder options named as typed, and a missing textfile folder said so
    # (trial: "--load-dir: load_directory: …", "--textfile …: Not a directory").
    missing = os.path.join(work, "no-such-folder")
    for args, needle in ((["--textfile", missing], f"--textfile: folder “{missing}” does not exist"),
                         (["--textfile", ""], "--textfile: an empty folder name"),
                         (["--reports", ""], "--reports: an empty folder name"),
                         (["--load-dir", ""], "--load-dir: an empty folder name")):
        out = subprocess.run([CLI, "monitor", "--dir", folder] + args, capture_output=True, text=True, timeout=60)
        tap(out.returncode == 2 and needle in out.stderr, f"monitor {args}: exit 2, {out.stderr.strip()}")
    out = subprocess.run([CLI, "monitor", "--dir", ""], capture_output=True, text=True, timeout=60)
    tap(out.returncode == 2 and "--dir: an empty folder name" in out.stderr, f"monitor --dir '': exit 2, {out.stderr.strip()}")
    tap(not os.path.exists(missing), "the missing textfile folder was not made")
    tap(os.listdir(folder) == [], "nothing left in the monitored folder")

    # A folder removed while monitoring, then SIGHUP (a new period), then SIGTERM.
    gone = os.path.join(work, "gone")
    kept = os.path.join(work, "kept")
    reports = os.path.join(work, "bad-reports")
    os.mkdir(gone)
    os.mkdir(kept)
    port = free_port()
    monitor = start([CLI, "monitor", "--dir", gone, "--dir", kept, "--interval", "0.1", "--listen", str(port),
                     "--report-every", "1h", "--reports", reports])
    up = wait_for(lambda: http_get(f"http://127.0.0.1:{port}/metrics").count("resprobe_fsync_latency_seconds_count") == 2,
                  "both folders measured")
    tap(bool(up), "two folders monitored, a histogram each")
    shutil.rmtree(gone)
    # Noticed by the next harvest or scrape, within the period (of an hour):
    # the probe's unlinked file never fails, the monitor looks at the folder.
    down = wait_for(lambda: f'resprobe_monitor_up{{folder="{gone}"}} 0' in http_get(f"http://127.0.0.1:{port}/metrics"),
                    "the removed folder marked down within the period")
    tap(bool(down), "a removed folder is down within the period, without a SIGHUP")
    # Its session stopped: its report holds what it measured until then.
    tap(bool(wait_for(lambda: len(reports_in(reports)) == 1, "the removed folder's report")),
        "the removed folder's session ended with its report")
    text = http_get(f"http://127.0.0.1:{port}/metrics")
    tap(f'resprobe_monitor_up{{folder="{kept}"}} 1' in text, "the other folder is still measured")
    tap(monitor.poll() is None, "the monitor still runs")
    monitor.send_signal(signal.SIGHUP)
    # The new period tries the folder again: still gone, still down.
    wait_for(lambda: len(reports_in(reports)) == 2, "SIGHUP's report of the kept folder")
    tap(f'resprobe_monitor_up{{folder="{gone}"}} 0' in http_get(f"http://127.0.0.1:{port}/metrics"),
        "after SIGHUP the removed folder is still down")
    code, out, err = stop(monitor)
    saved = reports_in(reports)
    print("# " + err.strip().replace("\n", "\n# "), flush=True)
    tap(code == 0 and gone in err and "does not exist" in err, f"the removed folder is named in a message (exit {code})")
    # The removed folder's session: a report; SIGHUP ended the kept one's
    # first period: a report; SIGTERM its second: one.
    tap(len(saved) == 3 and out.count("Report saved to") == 3,
        f"the removal, SIGHUP and SIGTERM each saved their reports ({len(saved)})")
    tap(os.listdir(kept) == [], "nothing left in the monitored folder")

    # The same folder twice (X and X/): refused, naming it.
    out = subprocess.run([CLI, "monitor", "--dir", kept, "--dir", kept + "/"], capture_output=True, text=True,
                         timeout=HANG_GUARD)
    tap(out.returncode == 2 and f"“{kept}” and “{kept}/” are the same folder" in out.stderr,
        f"the same folder given twice: exit 2 naming it ({out.stderr.strip()})")

    # Without --report-every, SIGTERM saves no report and says none. On the
    # way: a textfile folder removed while running is named at the next
    # write (SIGHUP's; said once until it works again or the next SIGHUP),
    # and /metrics goes on serving.
    port = free_port()
    textfile = os.path.join(work, "textfile-later")
    os.mkdir(textfile)
    monitor = start([CLI, "monitor", "--dir", kept, "--listen", str(port), "--reports", reports + "-none",
                     "--textfile", textfile])
    wait_for(lambda: f'resprobe_monitor_up{{folder="{kept}"}} 1' in http_get(f"http://127.0.0.1:{port}/metrics"),
             "the monitor without --report-every running")
    # Clients that keep the connection alive and then drop it (curl does,
    # one a scrape): the server closes each after its response, so none is
    # left open (libsoup 3.2 kept them in CLOSE-WAIT, an fd each, for ever).
    fds_before = len(os.listdir(f"/proc/{monitor.pid}/fd"))
    closed = 0
    for _ in range(20):
        # The timeout only guards against a connection never closed (the
        # defect): the first such ends the loop.
        with socket.create_connection(("127.0.0.1", port), timeout=HANG_GUARD / 3) as c:
            c.sendall(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            data = b""
            try:
                while chunk := c.recv(65536):
                    data += chunk
            except socket.timeout:
                break
            closed += data.startswith(b"HTTP/1.1 200")
    fds_after = len(os.listdir(f"/proc/{monitor.pid}/fd"))
    tap(closed == 20 and fds_after <= fds_before + 1,
        f"kept-alive requests: the server closes each connection ({closed} of 20), fds {fds_before} then {fds_after}")
    shutil.rmtree(textfile)
    monitor.send_signal(signal.SIGHUP)
    # The period's end counts it, then writes the textfile, in one go.
    served = wait_for(lambda: "resprobe_monitor_periods_total 1" in http_get(f"http://127.0.0.1:{port}/metrics"),
                      "the period SIGHUP ended")
    served = served and f'resprobe_monitor_up{{folder="{kept}"}} 1' in http_get(f"http://127.0.0.1:{port}/metrics")
    code, out, err = stop(monitor)
    print("# " + err.strip().replace("\n", "\n# "), flush=True)
    tap(bool(served) and "--textfile" in err and textfile in err and "No such file or directory" in err,
        "a textfile folder removed while running: a message naming it, /metrics still served")
    tap(code == 0 and "Stopping…" in err and "report" not in (out + err).lower() and not os.path.exists(reports + "-none"),
        f"without --report-every SIGTERM says nothing of reports and saves none ({err.strip()})")


def main():
    if CLI is None:
        print("Bail out! RESPROBE_CLI must point at resprobe-cli")
        return 1
    for program in ("prometheus", "promtool", "prometheus-node-exporter"):
        if shutil.which(program) is None:
            print(f"Bail out! {program} is missing: build-aux/install-deps.sh installs it")
            return 1
    work = tempfile.mkdtemp(prefix="resprobe-test-monitor-")
    os.chmod(work, 0o755)
    try:
        acceptance_1_and_2(work)
        bad_input(work)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        shutil.rmtree(work, ignore_errors=True)
    print(f"1..{count}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
