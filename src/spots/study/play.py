"""The game runner: plays a chunk of a configuration's games and returns one summary row per game.

A game's result depends only on (study seed, configuration index, game number),
never on which worker plays it or what it played before: that is what makes a
study give the same rows on one worker or fifty.

The seam: ``runner_for`` picks how a chunk is played. The reference runner
plays any registered game through its ``GameSpec`` (``spots.core.games``: its states,
bots and summary); a row's columns are the summary's, then the game's own
(``GameSpec.study``: ``Studies.columns``, filled by ``Studies.row``), beside the ``SHARED_COLUMNS`` every
game's rows have. When the compiled batch simulator ``spots.fast`` is importable and offers
``study_rows(config: dict, games: list[tuple[int, int]]) -> list[dict]`` (game
number, game seed -> rows with the shared columns and Spots' own), Spots
configurations whose seats are all ``random`` or ``greedy`` (with at most a
``risk``) use it instead: ``spots.fast.study_rows`` (``src/spots/fast/study.py``),
checked against this runner by ``tests/test_fast_study.py``.
"""

from __future__ import annotations

import hashlib
import importlib
import random
from collections.abc import Callable
from typing import Any

from ..core.games import GameSpec, get
from ..core.play import Watch, parse_bot, play_out, seating
from ..core.protocol import GameState
from .spec import Config

Row = dict[str, Any]
ChunkRunner = Callable[[Config, int, list[tuple[int, int]]], list[Row]]

# The columns every game's study rows have (name -> type, as ``Studies.columns`` declares a game's own), filled
# from the game's ``Summary`` and the runner; ``end_reason`` is the kind of ending unless the game words it.
SHARED_COLUMNS = {
    "config": "int32", "game": "int32", "seed": "int64", "engine": "str", "kind": "str", "seats": "list[str]",
    "players": "int8", "target": "int16", "first_player": "int8", "winner": "int8", "returns": "list[float]",
    "turns": "int32", "turns_taken": "list[int32]", "scores": "list[int16]", "lead_changes": "int16",
    "end_reason": "str",
}


def row_columns(games: list[str]) -> dict[str, str]:
    """The columns of rows of these games: the shared ones, then each game's own (one type per name)."""
    out = dict(SHARED_COLUMNS)
    for game in dict.fromkeys(games):
        spec = get(game)
        for name, kind in spec.study.columns.items():
            if out.setdefault(name, kind) != kind:
                raise ValueError(f"study column {name!r} is {out[name]} in one game and {kind} in {spec.title}: "
                                 "a study mixing these games cannot store both")
    return out


def make_bot(game: str, spec: str, seed: int) -> Any:
    """A bot of the registered game ``game`` from its spec text (``name`` or ``name:key=value,...``)."""
    name, budget = parse_bot(spec)
    return get(game).make_bot(name, seed=seed, **budget)


def make_rules(config: Config, game_seed: int) -> Any:
    """The configuration's rules; what the game draws from a seed (a random trick set) comes from the game's own."""
    spec = get(config.game)
    return spec.rules(**{**spec.drawn_options(game_seed), **config.options})


def check_config(config: Config) -> None:
    """Raise ValueError if the configuration's rules or bots cannot be made."""
    try:
        rules = make_rules(config, 0)
    except TypeError as exc:
        raise ValueError(f"bad rules option: {exc}") from None
    players = get(config.game).seats(rules)
    if len(config.bots) > players:
        raise ValueError(f"{len(config.bots)} bots for {players} seats")
    for spec in config.bots:
        make_bot(config.game, spec, 0)


def game_seed(study_seed: int, config_index: int, game: int) -> int:
    """A 63-bit seed for one game, from a hash (the same on every machine and Python)."""
    digest = hashlib.sha256(f"{study_seed}:{config_index}:{game}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class Tally(Watch):
    """What a study counts while a game is played: turns taken, lead changes, each seat's decisions."""

    def __init__(self, spec: GameSpec, seats: int) -> None:
        self.spec = spec
        self.turns_taken = [0] * seats
        self.decisions: list[tuple[int, str]] = []
        self.leader: int | None = None
        self.changes = 0

    def turn(self, state: GameState, seat: int) -> None:
        self.turns_taken[seat] += 1
        self.lead(state)

    def move(self, state: GameState, seat: int, move: str, seconds: float) -> None:
        self.decisions.append((seat, move))

    def lead(self, state: GameState) -> None:
        """The sole leader (kept as it was on a tie) and the lead changes counted so far."""
        scores = self.spec.summarize(state).scores
        best = max(scores)
        if scores.count(best) != 1:
            return
        now = scores.index(best)
        self.changes += self.leader is not None and now != self.leader
        self.leader = now


def play_game(config: Config, game: int, seed: int) -> Row:
    """One game of the configuration played out and summarised: the summary's columns, then the game's own."""
    spec = get(config.game)
    rules = make_rules(config, seed)
    seats = seating(config.bots, spec.seats(rules), game)
    players = [make_bot(config.game, bot, seed + s) for s, bot in enumerate(seats)]
    tally = Tally(spec, len(seats))
    state = play_out(spec.new_state(rules), players, random.Random(seed), tally, spec.turn)
    tally.lead(state)  # a lead change made by the last move counts too
    summary, end = spec.summarize(state), spec.outcome(state)
    row: Row = {
        "game": game, "seed": seed, "kind": spec.name, "seats": seats, "players": len(seats),
        "target": summary.target or 0, "first_player": 0, "winner": -1 if end.winner is None else end.winner,
        "returns": state.returns(), "turns": summary.turn, "turns_taken": tally.turns_taken,
        "scores": list(summary.scores), "lead_changes": tally.changes, "end_reason": end.termination.value,
    }
    own = dict(spec.study.row(rules, state, tally.decisions)) if spec.study.row is not None else {}
    undeclared = sorted(set(own) - set(SHARED_COLUMNS) - set(spec.study.columns))
    missing = sorted(set(spec.study.columns) - set(own))
    if undeclared or missing:
        raise ValueError(f"{spec.title}'s study row must fill exactly the columns its Studies.columns declares "
                         f"(undeclared: {', '.join(undeclared) or 'none'}; missing: {', '.join(missing) or 'none'})")
    return {**row, **own}


def reference_chunk(config: Config, config_index: int, games: list[tuple[int, int]]) -> list[Row]:
    return [{"config": config_index, "engine": "reference", **play_game(config, g, s)} for g, s in games]


def _fast_chunk(config: Config) -> ChunkRunner | None:
    """The fast simulator's runner when it is installed and says it plays this configuration."""
    try:
        fast = importlib.import_module("spots.fast")  # the fast extra (Numba), which imports nothing of the studies
    except ImportError:
        return None
    supports = getattr(fast, "supports", None)
    if supports is None or not supports(config.to_dict()):
        return None
    try:
        study_rows = fast.study_rows
    except (ImportError, AttributeError):  # no Numba (spots.fast says how to install it), or no study_rows
        return None

    def run(config: Config, config_index: int, games: list[tuple[int, int]]) -> list[Row]:
        return [{"config": config_index, "engine": "fast", **row} for row in study_rows(config.to_dict(), games)]

    return run


def runner_for(config: Config, engine: str = "auto") -> ChunkRunner:
    """The fast simulator where it plays the configuration and is available (or demanded), else the reference."""
    if engine not in ("auto", "fast", "reference"):
        raise ValueError(f"engine must be auto, fast or reference, not {engine!r}")
    fast = _fast_chunk(config) if engine != "reference" else None
    if engine == "fast" and fast is None:
        raise ValueError("engine fast needs spots.fast (with study_rows) and only random/greedy Spots seats")
    return fast or reference_chunk


def play_chunk(config: Config, config_index: int, study_seed: int, start: int, stop: int,
               engine: str = "auto") -> list[Row]:
    """Games ``start`` to ``stop - 1`` of one configuration (what one Ray task does)."""
    games = [(g, game_seed(study_seed, config_index, g)) for g in range(start, stop)]
    return runner_for(config, engine)(config, config_index, games)
