#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-monitor-data.py SRCDIR BUILDDIR: the monitor's Grafana dashboard is
valid JSON whose every query names a metric that `resprobe-cli monitor`
exports (read from engine/report/rp-metrics.c), its systemd units pass
`systemd-analyze verify`, and the user unit's command runs for a user who
never ran the program (issue 22). Speaks TAP."""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

src, build = sys.argv[1], sys.argv[2]
count = failures = 0


def tap(ok, what):
    global count, failures
    count += 1
    print(f"{'ok' if ok else 'not ok'} {count} - {what}", flush=True)
    failures += 0 if ok else 1


with open(os.path.join(src, "engine/report/rp-metrics.c")) as f:
    code = f.read()
exported = set(re.findall(r"(resprobe_[a-z_]+?)(?:\{| |\\n)", code))
exported |= {"resprobe_fsync_latency_seconds_bucket"}  # resprobe_%s_seconds_bucket of fsync_latency
try:
    with open(os.path.join(src, "data/grafana/resprobe-monitor-dashboard.json")) as f:
        dashboard = json.load(f)
    tap(True, "the dashboard is valid JSON")
except (OSError, ValueError) as e:
    print(f"# {e}")
    dashboard = {"panels": []}
    tap(False, "the dashboard is valid JSON")
exprs = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
tap(len(exprs) >= 4 and all(p.get("title") and p.get("gridPos") for p in dashboard["panels"]),
    f"the dashboard has titled, placed panels ({len(exprs)} queries)")
for want in ("histogram_quantile(0.5,", "histogram_quantile(0.99,", "resprobe_stalls_total", "resprobe_stall_causes_total"):
    tap(any(want in e for e in exprs), f"a panel shows {want}")
names = {n for e in exprs for n in re.findall(r"\bresprobe_[a-z_]+", e)}
unknown = sorted(n for n in names if n not in exported)
tap(not unknown, f"every metric the dashboard queries is exported ({', '.join(unknown) or 'all known'})")

analyze = shutil.which("systemd-analyze")
cli = os.environ.get("RESPROBE_CLI")
for unit, name in (("resprobe-monitor.service", "resprobe-monitor.service"),
                   ("resprobe-monitor-user.service", "resprobe-monitor.service")):
    path = os.path.join(build, "data", unit)
    with open(path) as f:
        text = f.read()
    tap("resprobe-cli monitor" in text and "ExecReload=kill -HUP $MAINPID" in text,
        f"{unit} runs the monitor and reloads with SIGHUP")
    # Issue 33: a limit of descriptors, at least what test-monitor-abuse.py
    # proves the monitor serves under (256), one value (soft = hard).
    limits = re.findall(r"^LimitNOFILE=(\d+)$", text, re.M)
    tap(len(limits) == 1 and int(limits[0]) >= 256, f"{unit} sets LimitNOFILE ({', '.join(limits) or 'none'})")
    if analyze is None or cli is None:
        print(f"ok {count + 1} - systemd-analyze verify {unit} # SKIP systemd-analyze or RESPROBE_CLI missing")
        count += 1
        continue
    with tempfile.TemporaryDirectory() as tmp:
        # The installed path does not exist in a build tree: the built CLI stands in.
        copy = os.path.join(tmp, name)
        with open(copy, "w") as f:
            f.write(re.sub(r"ExecStart=\S+/resprobe-cli", f"ExecStart={cli}", text))
        user = ["--user"] if "user" in unit else []
        # A user manager needs a runtime folder, which a CI shell lacks.
        runtime = os.path.join(tmp, "run")
        os.mkdir(runtime, 0o700)
        out = subprocess.run([analyze, "verify", "--man=no", *user, copy], capture_output=True, text=True,
                             env=dict(os.environ, SYSTEMD_LOG_LEVEL="warning", XDG_RUNTIME_DIR=runtime))
        problems = [l for l in (out.stdout + out.stderr).splitlines() if name in l or "resprobe" in l]
        for l in problems:
            print(f"# {l}")
        tap(out.returncode == 0 and not problems, f"systemd-analyze verify {unit}")

# A system and a user instance on one machine must not want one port
# (trial: both said 127.0.0.1:9829, and the second to start failed).
ports = {}
for unit in ("resprobe-monitor.service", "resprobe-monitor-user.service"):
    with open(os.path.join(build, "data", unit)) as f:
        found = re.findall(r"--listen\s+\S*:(\d+)", f.read())
    ports[unit] = found[0] if len(found) == 1 else None
tap(None not in ports.values() and len(set(ports.values())) == 2,
    f"the system and the user unit listen on different ports ({ports})")


def fresh_user_run():
    """The user unit's ExecStart line, run as a user who never ran the
    program: a new, empty home (as `nobody` when root, as CI is), no XDG
    folders, another port. It must measure its default folder, which it
    creates, and save its report on SIGTERM."""
    path = os.path.join(build, "data", "resprobe-monitor-user.service")
    with open(path) as f:
        line = next(l for l in f.read().splitlines() if l.startswith("ExecStart="))
    argv = line[len("ExecStart="):].split()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    argv = [cli] + [re.sub(r"^127\.0\.0\.1:\d+$", f"127.0.0.1:{port}", a) for a in argv[1:]]
    home = tempfile.mkdtemp(prefix="resprobe-test-fresh-home-")
    prefix = []
    if os.geteuid() == 0:
        nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        if subprocess.run(nobody + ["test", "-x", cli]).returncode == 0:
            os.chown(home, 65534, 65534)
            prefix = nobody
    os.chmod(home, 0o700)
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env["HOME"] = home
    folder = os.path.join(home, ".cache", "resprobe")
    print(f"# {' '.join(prefix + argv)} with HOME={home}", flush=True)
    proc = subprocess.Popen(prefix + argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    up = None
    try:
        deadline = time.monotonic() + 90  # only against a hang
        while up is None and proc.poll() is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
                    text = r.read().decode()
                if f'resprobe_monitor_up{{folder="{folder}"}} 1' in text:
                    up = text
            except OSError:
                pass
            time.sleep(0.2)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        reports = os.path.join(home, ".local", "share", "resprobe", "reports")
        saved = os.listdir(reports) if os.path.isdir(reports) else []
        shutil.rmtree(home, ignore_errors=True)
    for l in err.splitlines():
        print(f"# {l}")
    tap(up is not None, f"the user unit's command runs for a fresh user{' (nobody)' if prefix else ''}: "
        "its default folder made and measured")
    tap(proc.returncode == 0 and len(saved) == 1,
        f"SIGTERM stops it cleanly with its report (exit {proc.returncode}, {len(saved)} report)")


if cli is not None:
    fresh_user_run()
else:
    tap(False, "RESPROBE_CLI points at resprobe-cli")
print(f"1..{count}")
sys.exit(1 if failures else 0)
