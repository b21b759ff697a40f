"""A real ``spots serve`` process for the tests that need one (the server tests, several processes on PostgreSQL)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from support.processes import PATIENT_S


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux: /proc/PID/task/*/children)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def children_named(pid: int, word: str) -> list[int]:
    """The processes ``pid`` started whose command line has ``word``."""
    named = []
    for child in children(pid):
        try:
            if word.encode() in Path(f"/proc/{child}/cmdline").read_bytes():
                named.append(child)
        except OSError:
            continue  # gone meanwhile
    return named


class Server:
    """``python -m spots.web.server`` with extra options, its output kept in a file.

    ``db``: a SQLite file (the log goes beside it) or a PostgreSQL URL (then say where the ``log`` goes).
    """

    free_port = staticmethod(free_port)

    def __init__(self, db: Path | str, *options: str, log: Path | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.db, self.options, self.env = db, options, env
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log or Path(db).with_suffix(".log")
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        return self.launch().ready()

    def launch(self) -> Server:
        """Start the process without waiting for it (start several at once, then ``ready`` each)."""
        out = self.log.open("ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "spots.web.server", "--port", str(self.port), "--db",
                                      str(self.db), "--workers", "0", *self.options], stdout=out, stderr=out,
                                     env=None if self.env is None else {**os.environ, **self.env})
        return self

    def ready(self) -> Server:
        """Wait until the server answers (raises when it died or did not start within PATIENT_S)."""
        assert self.proc is not None
        deadline = time.time() + PATIENT_S
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the server died: " + self.log.read_text())
            try:
                if httpx.get(self.url + "/api/tables", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not answer within {PATIENT_S:.0f} s: " + self.log.read_text())

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, patience: float = 10.0) -> None:
        """SIGTERM, then a kill after ``patience`` seconds (a busy machine can be slow to end the worker processes)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(patience)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def rss_mb(self) -> float:
        assert self.proc is not None
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS")) / 1024


@contextmanager
def processes(url: str, logs: Path, count: int, *options: str) -> Iterator[list[Server]]:
    """``count`` server processes on one database (PostgreSQL), started together and stopped at the end."""
    servers = [Server(url, *options, log=logs / f"server{i}.log") for i in range(count)]
    for s in servers:
        s.launch()
    try:
        for s in servers:
            s.ready()
        yield servers
    finally:
        for s in servers:
            s.stop()
