"""Building a puzzle set: bots play seeded games, every decision of them is judged (``judge``), the puzzles kept.

Reproducible: game ``i`` of a build seeded ``s`` has its own seed, from which its seats, rules and dice follow, so
the same command gives the same puzzles (in the same order) on any machine, with one worker or many. With more
than one worker the games are shared out as Ray tasks (``spots.study.execute.start_ray``: a local Ray, or a
cluster's ``--address``).
"""

from __future__ import annotations

import gzip
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..analysis.engine import evaluator_of
from ..core import games
from .judge import Puzzle, judge, kit_of

__all__ = ["SHIPPED", "Build", "build", "game_seed", "puzzles_of_game", "read_puzzles", "shipped", "write_puzzles"]

SHIPPED = Path(__file__).resolve().parent / "data"  # the shipped sets, one per game: GAME.jsonl.gz


@dataclass
class Build:
    """A build's puzzles (in game order, each position once) and how many decisions were turned down, by reason."""

    puzzles: list[Puzzle] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    games: int = 0

    def add(self, other: Build) -> None:
        known = {p.id for p in self.puzzles}
        self.puzzles += [p for p in other.puzzles if p.id not in known]
        self.refused.update(other.refused)
        self.games += other.games


def game_seed(seed: int, game: int) -> int:
    """Game ``game``'s own seed in a build seeded ``seed`` (random.Random of a string is the same on every machine)."""
    return random.Random(f"spots-puzzles:{seed}:{game}").randrange(2**31)


def _positions(spec: Any, rules: Any, bots: Sequence[str], seed: int) -> Iterator[tuple[int, int, Any]]:
    """Each decision of a seeded game of ``bots`` (after the setup), with its step and the count of chance events
    before it (decisions between the same two chance events are one choice made in parts: a roll's dice)."""
    state = spec.new_state(rules)
    seats = [spec.make_bot(name, seed=seed + s) for s, name in enumerate(bots)]
    rng = random.Random(seed)
    step = events = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance(rng)
            events += 1
        else:
            if spec.turn(state) > 0:
                yield step, events, state.clone()
            state.apply_action(seats[state.current_player()].choose(state))
        step += 1


def _rules_of(spec: Any, seed: int, players: Sequence[int], options: Mapping[str, Any]) -> Any:
    """A game's rules: its seats from ``players``, for Spots a trick set drawn from the seed (every tile meets
    puzzles), then the ``options`` given (the game's own names: ``target``...), else the game's defaults."""
    names = {o.name for o in spec.options}
    drawn: dict[str, Any] = {"players": players[seed % len(players)]} if "players" in names else {}
    if "tricks" in names and "tricks_seed" in names:
        drawn.update(tricks="random", tricks_seed=seed)
    return spec.make_rules(**{**drawn, **options})


def puzzles_of_game(game: str, seed: int, players: Sequence[int], bots: Sequence[str],
                    options: Mapping[str, Any] | None = None) -> Build:
    """Every puzzle of one seeded game (what a worker does)."""
    spec = games.get(game)
    rules = _rules_of(spec, seed, players, options or {})
    seats = [bots[s % len(bots)] for s in range(spec.seats(rules))]
    screen, kit = evaluator_of(spec), kit_of(spec)
    out = Build(games=1)
    taken = -1  # the chance event after which a puzzle was taken: one puzzle per choice, not one per die of it
    for step, events, state in _positions(spec, rules, seats, seed):
        if events == taken:
            out.refused["same-choice"] += 1
            continue
        verdict = judge(spec, state, screen, kit, {"bots": seats, "seed": seed, "step": step})
        if verdict.puzzle is None:
            out.refused[verdict.reason] += 1
        else:
            out.add(Build([verdict.puzzle]))
            taken = events
    return out


def _chunk(game: str, seeds: list[int], players: Sequence[int], bots: Sequence[str],
           options: Mapping[str, Any]) -> Build:
    out = Build()
    for seed in seeds:
        out.add(puzzles_of_game(game, seed, players, bots, options))
    return out


def build(game: str, count: int, seed: int = 0, players: Sequence[int] = (2,), bots: Sequence[str] = ("greedy",),
          workers: int = 1, address: str | None = None, options: Mapping[str, Any] | None = None,
          chunk: int = 4, first: int = 0) -> Build:
    """The puzzles of ``count`` seeded games from game number ``first``, in game order (the same whatever
    ``workers``: builds of games 0-99 and 100-199 together are the build of games 0-199); ``options``: rules
    options every game takes (e.g. a shorter ``target``)."""
    spec = games.get(game)
    kit_of(spec)  # a game without puzzles is refused before anything starts
    options = dict(options or {})
    _rules_of(spec, 0, players, options)  # bad options are refused here, not in a worker
    seeds = [game_seed(seed, i) for i in range(first, first + count)]
    chunks = [seeds[i:i + chunk] for i in range(0, count, chunk)]
    out = Build()
    if workers <= 1 and address is None:
        for seeds_of in chunks:
            out.add(_chunk(game, seeds_of, players, bots, options))
        return out
    from ..study.execute import start_ray

    ray, started = start_ray(address, workers)
    try:
        remote = ray.remote(num_cpus=1)(_chunk)
        for result in ray.get([remote.remote(game, seeds_of, players, bots, options) for seeds_of in chunks]):
            out.add(result)
    finally:
        if started:
            ray.shutdown()
    return out


def write_puzzles(path: Path, puzzles: Iterable[Puzzle]) -> int:
    """One JSON object per line (gzip where the name ends in .gz); returns how many."""
    lines = [p.to_line() + "\n" for p in puzzles]
    text = "".join(lines)
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    else:
        path.write_text(text, encoding="utf-8")
    return len(lines)


def read_puzzles(path: Path) -> list[Puzzle]:
    """A puzzle file; a damaged line is a clear error naming the file and the line."""
    raw = path.read_bytes()
    text = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8")
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(Puzzle.from_line(line))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}, line {number}: not a puzzle ({exc!r}); each line must be one puzzle's JSON "
                             "object, as 'spots puzzles export' writes") from None
    return out


def shipped(game: str) -> list[Puzzle]:
    """The set that comes with the package for ``game`` (empty where there is none)."""
    path = SHIPPED / f"{game}.jsonl.gz"
    return read_puzzles(path) if path.exists() else []
