"""``python bench/startup.py``: how much CPU each command spends before it answers.

A command's start-up is mostly imports, so it is measured in CPU time (user + system, of the child process,
from ``getrusage``), which a busy machine disturbs far less than wall time; wall time is printed beside it.
Each figure is the median of ``--runs`` runs (5 by default), and each command is also given as its excess over
a bare ``python -c pass``, the part the program itself costs.

Measured: ``--help`` and ``--version`` of the four commands, and the client's way to its lobby: a real
``hanabi-client`` on a pseudo-terminal joins a real server on loopback, and its CPU is read from /proc at the
moment the lobby's header is on its screen (Linux only; skipped elsewhere).

As a player's second start finds them, the modules' compiled bytecode is cached (in a temporary folder,
``PYTHONPYCACHEPREFIX``, whatever ``PYTHONDONTWRITEBYTECODE`` says) and one unmeasured round fills the cache:
compiling the sources again at every start would more than double what is measured.
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import re
import resource
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
COMMANDS = ("hanabi-client", "hanabi-server", "hanabi-bot", "hanabi-replay")
LOBBY_HEADER = b"Table"  # the lobby's column header, on screen once the lobby is drawn
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


# Every child runs with its bytecode cached here (see the top of this file).
_CACHE = tempfile.mkdtemp(prefix="hanabi-startup-pycache-")
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONPYCACHEPREFIX": _CACHE}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(argv: list[str]) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of one run of ``argv`` to its end."""
    before, start = _children_cpu(), time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=ENV)
    return _children_cpu() - before, time.perf_counter() - start


def _process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a running process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime (fields 14 and 15 of stat)


def _start_server(folder: str) -> tuple[subprocess.Popen[str], int]:
    server = subprocess.Popen(
        [str(BIN / "hanabi-server"), "--host", "127.0.0.1", "--port", "0", "--db", ":memory:", "--no-announce"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**ENV, "XDG_DATA_HOME": folder},
    )
    assert server.stdout is not None
    for line in server.stdout:
        found = re.search(r"listening on port (\d+)", line)
        if found:
            return server, int(found.group(1))
    raise RuntimeError("the server stopped before it listened")


def lobby_once(port: int, folder: str, timeout: float = 30.0) -> tuple[float, float]:
    """CPU and wall seconds from starting ``hanabi-client 127.0.0.1:PORT`` to its lobby on screen."""
    env = {**ENV, "XDG_STATE_HOME": folder, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: the client on the pseudo-terminal
        os.execve(str(BIN / "hanabi-client"), [str(BIN / "hanabi-client"), f"127.0.0.1:{port}", "--name", "bench"],
                  env)
    seen = b""
    try:
        while LOBBY_HEADER not in seen:
            if time.perf_counter() - start > timeout:
                raise RuntimeError("the client did not show its lobby in time")
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                seen += os.read(fd, 65536)
        return _process_cpu(pid), time.perf_counter() - start
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)


def _median(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(c for c, _ in runs), statistics.median(w for _, w in runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="CPU and wall time of each command's start-up, medians.")
    parser.add_argument("--runs", type=int, default=5, help="runs of each measurement (default 5)")
    parser.add_argument("--json", action="store_true", help="print one JSON object at the end")
    args = parser.parse_args(argv)
    cases: dict[str, list[str]] = {"python -c pass": [sys.executable, "-c", "pass"]}
    for command in COMMANDS:
        for flag in ("--help", "--version"):
            cases[f"{command} {flag}"] = [str(BIN / command), flag]
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
    for case in cases.values():  # fills the bytecode cache, unmeasured
        run_once(case)
    for _ in range(args.runs):  # round by round, so a busy moment falls on every case alike
        for name, case in cases.items():
            runs[name].append(run_once(case))
    if sys.platform.startswith("linux"):
        with tempfile.TemporaryDirectory() as folder:
            server, port = _start_server(folder)
            try:
                lobby_once(port, folder)  # fills the bytecode cache of the client's screen and network
                runs["hanabi-client to its lobby"] = [lobby_once(port, folder) for _ in range(args.runs)]
            finally:
                server.terminate()
                server.wait()
    bare = _median(runs["python -c pass"])[0]
    figures = {}
    print(f"{'':<32} {'CPU ms':>8} {'over bare':>10} {'wall ms':>8}   (medians of {args.runs}; load "
          f"{os.getloadavg()[0]:.1f})")
    for name, measured in runs.items():
        cpu, wall = _median(measured)
        figures[name] = {"cpu_ms": round(cpu * 1000, 1), "over_bare_ms": round((cpu - bare) * 1000, 1),
                         "wall_ms": round(wall * 1000, 1)}
        print(f"{name:<32} {cpu * 1000:>8.0f} {(cpu - bare) * 1000:>10.0f} {wall * 1000:>8.0f}")
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        shutil.rmtree(_CACHE, ignore_errors=True)
