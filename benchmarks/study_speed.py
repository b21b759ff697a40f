"""Study throughput: games per second on Ray with 1 and 2 workers, against plain multiprocessing.

    python benchmarks/study_speed.py [--games 400] [--chunk 20] [--runs 3] [--bots greedy] [--players 2]
                                     [--engines reference,fast]

Every way plays the same chunks of the same study (greedy bots, beginner set by
default) and must produce the same rows (checked), once per engine: the reference
engine, and the compiled simulator ``spots.fast`` (its rows mean the same but its dice
differ). The simulator's compilation is loaded from Numba's cache before the timings. Ray's start-up (``ray.init``
plus a first task round trip) is timed on its own; a tiny warm-up study then lets
the workers import the engine; neither counts in the Ray rates. Multiprocessing
rates include starting the pool (spawned processes, which import the engine).
Each rate is the median over ``--runs`` runs.
A figure, not a test.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from spots.study.execute import run_study, start_ray
from spots.study.play import play_chunk
from spots.study.spec import Study, parse_study


def _job(job: tuple[Study, int, int, str]) -> list[dict[str, Any]]:
    study, start, stop, engine = job
    return play_chunk(study.configs[0], 0, study.seed, start, stop, engine)


def plain(study: Study, processes: int, engine: str) -> tuple[float, list[dict[str, Any]]]:
    jobs = [(study, start, stop, engine) for _, start, stop in study.chunks()]
    begin = time.perf_counter()
    if processes == 0:
        rows = [r for job in jobs for r in _job(job)]
    else:
        # spawn, not fork: this process may already run Numba's OpenMP threads (the fast engine)
        with ProcessPoolExecutor(max_workers=processes, mp_context=multiprocessing.get_context("spawn")) as pool:
            rows = [r for chunk in pool.map(_job, jobs) for r in chunk]
    return time.perf_counter() - begin, rows


def on_ray(study: Study, workers: int, engine: str = "auto") -> tuple[float, list[dict[str, Any]]]:
    with tempfile.TemporaryDirectory() as folder:
        begin = time.perf_counter()
        store = run_study(study, Path(folder), workers=workers, engine=engine, progress=False)
        seconds = time.perf_counter() - begin
        return seconds, store.load()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--chunk", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--engines", default="reference,fast", help="comma-separated: reference, fast")
    args = parser.parse_args()
    study = parse_study({"name": "speed", "games": args.games, "chunk": args.chunk, "seed": 1,
                         "base": {"bots": [args.bots], "players": args.players}}, "benchmark")
    begin = time.perf_counter()
    ray, _ = start_ray(None, 2)
    ray.get(ray.remote(lambda: 1).remote())
    startup = time.perf_counter() - begin
    print(f"{args.games} games of {args.players}-player {args.bots}, chunks of {args.chunk}, "
          f"median of {args.runs} runs")
    print(f"Ray start-up (local, 2 CPUs, first task answered): {startup:.1f} s")
    warm = parse_study({"name": "warm", "games": 4, "chunk": 1, "base": {"players": args.players,
                        "target": 1}}, "warm-up")
    on_ray(warm, 2, "reference")  # both workers import the engine once, outside the timings
    engines = args.engines.split(",")
    if "fast" in engines:
        play_chunk(warm.configs[0], 0, 0, 0, 2, "fast")  # Numba's cache loaded (or compiled) here, not timed
        on_ray(warm, 2, "fast")
    print(f"{'engine':<10} {'way':<30} {'games/s':>9}  runs")
    for engine in engines:
        measure(study, engine, args.runs)
    ray.shutdown()


def measure(study: Study, engine: str, runs: int) -> None:
    """Every way of running the study with one engine, each checked to give the same rows."""
    ways = [("one process, no pool", lambda: plain(study, 0, engine)),
            ("multiprocessing, 1 process", lambda: plain(study, 1, engine)),
            ("multiprocessing, 2 processes", lambda: plain(study, 2, engine)),
            ("Ray, 1 worker", lambda: on_ray(study, 1, engine)),
            ("Ray, 2 workers", lambda: on_ray(study, 2, engine))]
    reference: list[dict[str, Any]] | None = None
    for name, run in ways:
        rates = []
        for _ in range(runs):
            seconds, rows = run()
            rows = sorted(rows, key=lambda r: r["game"])
            reference = reference or rows
            if rows != reference or {r["engine"] for r in rows} != {engine}:
                raise SystemExit(f"{engine}, {name}: different rows")
            rates.append(len(rows) / seconds)
        print(f"{engine:<10} {name:<30} {statistics.median(rates):>9.1f}  " + " ".join(f"{r:.1f}" for r in rates))


if __name__ == "__main__":
    main()
