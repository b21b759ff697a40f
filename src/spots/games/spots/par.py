"""Par of a solo deal, and the bot's race on the same dice.

Par is the strongest bot's mean turns to the target on the deal's keyed dice: ``games`` games, the bot seeded
0, 1, ... (expectimax samples in its search, so its games differ while the dice stay the deal's), with a 95%
interval of the mean (Student's t). Where the rules are a solved variant (``solve.py``) par is the exact
optimum, the fewest expected turns, and the bot is ``optimal``. The race is game 0 of par, told turn by turn.
A par is worked out once and cached as JSON (``PAR_CACHE`` or ``~/.cache/spots/par``); ``spots par`` prints it,
the same figures from the same command on any machine. Standard library only.
"""

from __future__ import annotations

import json
import math
import os
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ...core.play import Watch, play_out
from .bots import BOTS
from .daily import Deal
from .keyed import KeyedDice
from .solve import variant_of
from .state import State

PAR_BOT = "expectimax"  # the strongest general bot (docs/bots.md)
PAR_GAMES = 20
CACHE_ENV = "SPOTS_PAR_CACHE"
VERSION = 1  # of the cached document; a new way of computing par gets a new number

# Student's t for a two-sided 95% interval, by degrees of freedom (beyond 30: the normal 1.96).
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
       2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t95(df: int) -> float:
    return T95[df - 1] if 1 <= df <= len(T95) else 1.959964


@dataclass
class RaceTurn:
    """The bot's table at the end of one of its turns."""

    turn: int
    dogs: int  # scored
    busts: int
    treats: int
    moves: list[str]  # its decisions in that turn, in notation


@dataclass
class Par:
    deal: str
    key: str
    bot: str
    games: int
    mean: float
    low: float
    high: float
    exact: float | None  # the solved optimum's expected turns, where the variant is solved
    turns: list[int]  # per game
    busts: list[int]
    race: list[RaceTurn]

    @property
    def value(self) -> float:
        """The par a score is set against: the exact optimum where there is one, else the bot's mean."""
        return self.exact if self.exact is not None else self.mean

    def to_dict(self) -> dict[str, Any]:
        return {"version": VERSION, **asdict(self), "value": self.value}

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> Par:
        doc = {k: v for k, v in doc.items() if k not in ("version", "value")}
        doc["race"] = [RaceTurn(**turn) for turn in doc["race"]]
        return cls(**doc)


class RaceLog(Watch):
    """Records the bot's table after each of its turns (the watch hears a turn start before its first decision)."""

    def __init__(self) -> None:
        self.turns: list[RaceTurn] = []
        self.moves: list[str] = []

    def turn(self, state: Any, seat: int) -> None:
        if state.turn > 1:
            self.close(state, state.turn - 1)

    def move(self, state: Any, seat: int, move: str, seconds: float) -> None:
        self.moves.append(move)

    def close(self, state: State, turn: int) -> None:
        player = state.players[0]
        self.turns.append(RaceTurn(turn, player.scored_count(), state.busts[0], player.treats, self.moves))
        self.moves = []


def par_bot(deal: Deal) -> str:
    """The bot par is measured with: ``optimal`` where the variant is solved, else the strongest general bot."""
    return "optimal" if variant_of(deal.rules) is not None else PAR_BOT


def play_deal(deal: Deal, bot: str, seed: int, watch: Watch | None = None) -> State:
    """One game of the deal by a bot (seeded ``seed``) on the deal's keyed dice."""
    state = play_out(State(deal.rules), [BOTS[bot](seed=seed)], KeyedDice(deal.key), watch, lambda s: s.turn)
    return state


def compute_par(deal: Deal, games: int = PAR_GAMES, bot: str | None = None,
                raced: Callable[[list[RaceTurn]], None] | None = None,
                played: Callable[[int], None] | None = None) -> Par:
    """Par of a deal: ``games`` games of the bot on its keyed dice (a solved variant: the exact optimum).

    ``raced`` hears the race (game 0) as soon as it is played, before the other games; ``played`` hears how many
    games are done after each (the progress a waiting player is shown).
    """
    if games < 2:
        raise ValueError(f"par needs at least 2 games for its interval, not {games}")
    solved = variant_of(deal.rules)
    exact = None
    if solved is not None:
        from .optimal import solution_for

        exact = solution_for(solved).expected_turns()
    bot = bot or par_bot(deal)
    if bot not in BOTS:
        raise ValueError(f"unknown bot {bot!r}; the bots are: {', '.join(BOTS)}")
    turns, busts, race = [], [], RaceLog()
    for seed in range(games):
        state = play_deal(deal, bot, seed, race if seed == 0 else None)
        if seed == 0:
            race.close(state, state.turn)
            if raced is not None:
                raced(race.turns)
        turns.append(state.turn)
        busts.append(state.busts[0])
        if played is not None:
            played(seed + 1)
    mean = statistics.fmean(turns)
    half = t95(games - 1) * statistics.stdev(turns) / math.sqrt(games)
    return Par(deal.name, deal.key, bot, games, mean, mean - half, mean + half, exact, turns, busts, race.turns)


def cache_dir() -> Path:
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "spots" / "par")


def cache_path(deal: Deal, games: int, bot: str | None) -> Path:
    return cache_dir() / f"{deal.name}-{deal.key}-{bot or 'best'}-{games}.json"


def cached_par(deal: Deal, games: int = PAR_GAMES, bot: str | None = None) -> Par | None:
    """The deal's par if the cache has it (a damaged or older file counts as none)."""
    path = cache_path(deal, games, bot)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return Par.from_dict(doc) if doc.get("version") == VERSION else None
    except (OSError, ValueError, TypeError, KeyError):
        return None


def par_of(deal: Deal, games: int = PAR_GAMES, bot: str | None = None, cached: bool = True,
           raced: Callable[[list[RaceTurn]], None] | None = None,
           played: Callable[[int], None] | None = None) -> Par:
    """The deal's par from the cache, else worked out (and cached)."""
    found = cached_par(deal, games, bot) if cached else None
    if found is not None:
        return found
    par = compute_par(deal, games, bot, raced, played)
    path = cache_path(deal, games, bot)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(par.to_dict(), indent=1) + "\n", encoding="utf-8")
        temporary.replace(path)
    except OSError:
        pass  # a read-only home: par is still given, only not kept
    return par
