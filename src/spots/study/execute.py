"""Running a study on Ray: chunks of games as tasks, rows written as each chunk finishes.

By default Ray starts inside the command on this machine (``workers`` CPUs);
``address`` joins a running cluster instead (``ray start --head`` on one machine,
``ray start --address=HEAD:6379`` on the others). At most ``workers`` chunks are
in flight at once. Each chunk's rows depend only on its games' seeds, so the
result is the same whatever the number of workers or the order chunks finish in.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from .play import play_chunk, reference_chunk, runner_for
from .spec import Config, Study, StudyError
from .store import ChunkStore


def _remote_chunk(config: Config, config_index: int, seed: int, start: int, stop: int, engine: str) -> list[Any]:
    # Ctrl-C on a terminal reaches every process of its group: the driver stops the study, so a
    # worker must not die mid-chunk on it (Ray then crashes completing a task that is not pending).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return play_chunk(config, config_index, seed, start, stop, engine)


class StopOnInterrupt:
    """While active, Ctrl-C (SIGINT) only asks the study to stop: the loop notices within
    ``POLL`` seconds, keeps the chunks already written and cancels the rest. A KeyboardInterrupt
    raised inside Ray's blocking calls could instead leave Ray half shut down and the command hung."""

    POLL = 0.5

    def __init__(self) -> None:
        self.requested = False
        self._previous: Any = None

    def _handle(self, signum: int, frame: Any) -> None:
        self.requested = True

    def __enter__(self) -> StopOnInterrupt:
        try:
            self._previous = signal.signal(signal.SIGINT, self._handle)
        except ValueError:  # not the main thread: Ctrl-C is the main thread's business
            self._previous = None
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


def check_address(address: str, timeout: float = 5.0) -> None:
    """Fail fast, with a clear message, when a cluster address does not answer."""
    if address in ("auto", "local") or address.startswith("ray://"):
        return
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise StudyError(f"--address must be HOST:PORT of a Ray head node (e.g. 10.0.0.5:6379), not {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise StudyError(
            f"cannot reach a Ray cluster at {address}: {exc.strerror or exc}; start one with "
            "'ray start --head --port=6379' and pass that node's HOST:6379"
        ) from None


def start_ray(address: str | None, workers: int | None) -> tuple[Any, bool]:
    """Ray, initialised (a local instance with ``workers`` CPUs, or the cluster at ``address``); and
    whether this call started it (so it is the one to shut it down)."""
    import ray

    if address:
        check_address(address)
    if ray.is_initialized():
        return ray, False
    if address:
        try:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise StudyError(f"cannot join the Ray cluster at {address}: {exc}") from None
    else:
        # Workers import spots from wherever this process does, and run at its priority: Ray would
        # otherwise add 15 to their nice value, so `nice -n 15 spots study` would run them at 19.
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        os.environ.setdefault("RAY_worker_niceness", "0")
        ray.init(num_cpus=workers or os.cpu_count() or 1, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.ERROR)
    return ray, True


def engines(study: Study, engine: str) -> list[str]:
    """Each configuration's engine, decided once here so every worker plays the same way."""
    return ["reference" if runner_for(c, engine) is reference_chunk else "fast" for c in study.configs]


def run_study(study: Study, out: Path, workers: int | None = None, address: str | None = None,
              engine: str = "auto", progress: bool = True) -> ChunkStore:
    """Play every chunk not yet on disk; return the store holding all of the study's rows."""
    if workers is not None and workers < 1:
        raise StudyError(f"--workers must be at least 1, not {workers}")
    store = ChunkStore(out, study)
    todo = [c for c in study.chunks() if not store.has(*c)]
    done_games = study.total_games - sum(stop - start for _, start, stop in todo)
    if not todo:
        return store
    chosen = engines(study, engine)
    ray, started = start_ray(address, workers)
    limit = workers or int(ray.cluster_resources().get("CPU", 1))
    remote = ray.remote(num_cpus=1, max_retries=2)(_remote_chunk)
    bar = Progress(study.total_games, done_games, enabled=progress)
    pending: dict[Any, tuple[int, int, int]] = {}
    queue = list(reversed(todo))
    with StopOnInterrupt() as interrupt:
        try:
            while (queue or pending) and not interrupt.requested:
                while queue and len(pending) < limit:
                    index, start, stop = chunk = queue.pop()
                    ref = remote.remote(study.configs[index], index, study.seed, start, stop, chosen[index])
                    pending[ref] = chunk
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=interrupt.POLL)
                for ref in ready:
                    chunk = pending.pop(ref)
                    store.write(*chunk, ray.get(ref))
                    bar.advance(chunk[2] - chunk[1])
        finally:
            bar.close()
            for ref in pending:
                ray.cancel(ref, force=True)
            if started:
                ray.shutdown()
    if interrupt.requested:
        raise KeyboardInterrupt  # after the clean-up: the chunks written so far stay, a rerun resumes
    return store


class Progress:
    """Games done, rate and time left, on standard error (redrawn on a terminal, a line every 10 s otherwise)."""

    def __init__(self, total: int, done: int = 0, enabled: bool = True, out: TextIO | None = None) -> None:
        self.total, self.done, self.first = total, done, done
        self.enabled = enabled
        self.out = out or sys.stderr
        self.start = self.last = time.monotonic()
        self.tty = self.out.isatty()
        self._draw(force=True)

    def advance(self, games: int) -> None:
        self.done += games
        self._draw()

    def line(self) -> str:
        elapsed = time.monotonic() - self.start
        rate = (self.done - self.first) / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        width = 30
        filled = width * self.done // max(1, self.total)
        eta = "?" if left != left else time.strftime("%H:%M:%S", time.gmtime(left))
        return (f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games, "
                f"{rate:.1f} games/s, {eta} left")

    def _draw(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if self.tty:
            print("\r" + self.line(), end="", file=self.out, flush=True)
        elif force or now - self.last >= 10 or self.done >= self.total:
            print(self.line(), file=self.out, flush=True)
            self.last = now

    def close(self) -> None:
        if self.enabled and self.tty:
            print(file=self.out, flush=True)
