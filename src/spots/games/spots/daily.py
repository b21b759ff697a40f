"""Solo Spots every day: the daily deal of a date, the set challenges, and how a solo game is scored.

Why a hash of the date and not ``hash()`` or a clock-seeded generator: every machine, on any Python, must
deal the same game for a date (``tests/test_solo.py`` pins one), and neighbouring dates must share nothing.
The deal's SHA-256 gives both the trick set (Howl, Roll Over and one tile per colour, the ``random`` set
drawn from it) and the key of its keyed dice (``keyed.py``), so the game itself is the same for everyone.
That public deal is practice (the terminal's): the server's daily deal is an HMAC of the date under its host's
secret, so nobody can solve tomorrow's deal tonight (``docs/fairplay.md``). Standard library only.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from .errors import RulesError
from .rules import Rules
from .solve import VARIANTS
from .state import State
from .tricks import N_

DAILY_TARGET = 6  # the standard game's target


@dataclass(frozen=True)
class Deal:
    """A solo game everyone plays on the same keyed dice: its name, rules and the key of its dice."""

    name: str  # ``daily-2026-12-01`` or a challenge's name
    key: str  # the key of the keyed dice (``KeyedDice(key)``)
    options: dict[str, Any] = field(hash=False)  # the rules options (keyed dice on)

    @property
    def rules(self) -> Rules:
        return Rules(**self.options)


def utc_today() -> date:
    return datetime.now(UTC).date()


def parse_day(text: str | None) -> date:
    """A date written YYYY-MM-DD (None: today in UTC); a clear error for anything else."""
    if text is None or text == "":
        return utc_today()
    try:
        return date.fromisoformat(text)
    except (TypeError, ValueError):
        raise RulesError(f"a date is written YYYY-MM-DD (e.g. 2026-12-01), not {text!r}") from None


def daily_deal(day: date, secret: str | None = None) -> Deal:
    """The daily deal of a date (UTC), unrelated between dates.

    ``secret``: the server's deal, keyed by its host's secret (an HMAC of the date), which nobody can compute
    before the server shows the day's key, once the day is over. None: the public practice deal of the date
    (``spots play --daily``, ``spots par``), the same on every machine and computable by anyone.
    """
    text = f"spots-daily:{day.isoformat()}".encode()
    digest = (hashlib.sha256(text) if secret is None else hmac.new(secret.encode(), text, hashlib.sha256)).digest()
    tricks_seed = int.from_bytes(digest[:4], "big")
    tricks = list(Rules(tricks="random", tricks_seed=tricks_seed).tricks)
    options = {"players": 1, "tricks": tricks, "target": DAILY_TARGET, "keyed_dice": "on"}
    return Deal(f"daily-{day.isoformat()}", digest[4:12].hex(), options)


# ----------------------------------------------------------------- scores


@dataclass(frozen=True)
class Score:
    """A finished solo game: turns to the target (fewer is better), then busts (fewer break ties)."""

    turns: int
    busts: int
    reached: bool  # the target was reached (not the turn limit)
    treats: int

    def sort_key(self) -> tuple[int, int, int]:
        return (0 if self.reached else 1, self.turns, self.busts)


def score_of(state: State) -> Score:
    if not state.is_terminal():
        raise ValueError("a score is given at the end of a game; this one is still being played")
    return Score(state.turn, state.busts[0], state.winner == 0, state.players[0].treats)


# ----------------------------------------------------------------- challenges


@dataclass(frozen=True)
class Goal:
    """A challenge's goal: its words (a message id, with ``{n}``) and the test a finished game must pass."""

    text: str
    n: int
    test: Callable[[Score, int], bool]

    def met(self, score: Score) -> bool:
        return score.reached and self.test(score, self.n)


def _within(score: Score, n: int) -> bool:
    return score.turns <= n


def _no_bust(score: Score, n: int) -> bool:
    return score.busts <= n


def _treats(score: Score, n: int) -> bool:
    return score.treats >= n


WITHIN = N_("Score the target within {n} turns")
NO_BUST = N_("Never bust")
TREATS = N_("End with at least {n} treats")


@dataclass(frozen=True)
class Challenge:
    """A set scenario: a deal (its dice keyed by the challenge's name), a goal, and medals measured from par."""

    name: str
    title: str  # a message id
    options: dict[str, Any]
    goal: Goal

    @property
    def deal(self) -> Deal:
        return Deal(self.name, hashlib.sha256(f"spots-challenge:{self.name}".encode()).digest()[:8].hex(),
                    {**self.options, "players": 1, "keyed_dice": "on"})


CHALLENGES: dict[str, Challenge] = {c.name: c for c in (
    Challenge("agility-six", N_("Agility course: six dogs in 28 turns"), {"tricks": "agility-course", "target": 6},
              Goal(WITHIN, 28, _within)),  # par 21.85: no bot game of 20 took under 17
    Challenge("clean-sheet", N_("Clean sheet: three dogs, no bust"), {"tricks": "beginner", "target": 3},
              Goal(NO_BUST, 0, _no_bust)),
    Challenge("treat-hoard", N_("Treat hoard: three dogs and eight treats"),
              {"tricks": "dog-park", "target": 3, "starting_treats": 2}, Goal(TREATS, 8, _treats)),
    Challenge("first-pair", N_("First pair: one dog, solved exactly"), dict(VARIANTS["solo-1-pair"]),
              Goal(WITHIN, 6, _within)),  # a solved variant (docs/solved.md): its par is the exact optimum
)}

MEDALS = ("gold", "silver", "bronze")
MEDAL_WORDS = {"gold": N_("gold"), "silver": N_("silver"), "bronze": N_("bronze")}
SILVER_SLACK = 1.25  # silver: within a quarter more turns than par


def medal(challenge: Challenge, score: Score, par: float) -> str | None:
    """Gold at par or better, silver within a quarter over par, bronze for meeting the goal; else none."""
    if not challenge.goal.met(score):
        return None
    if score.turns <= par:
        return "gold"
    if score.turns <= par * SILVER_SLACK:
        return "silver"
    return "bronze"


def challenge_named(name: str) -> Challenge:
    if name not in CHALLENGES:
        raise RulesError(f"unknown challenge {name!r}; the challenges are: {', '.join(CHALLENGES)}")
    return CHALLENGES[name]


def deal_named(name: str, secret: str | None = None) -> Deal:
    """``daily-YYYY-MM-DD`` (the server's with its ``secret``, else the practice deal) or a challenge's name; a
    clear error for anything else."""
    if name.startswith("daily-"):
        return daily_deal(parse_day(name.removeprefix("daily-")), secret)
    if name in CHALLENGES:
        return CHALLENGES[name].deal
    raise RulesError(f"there is no solo deal {name!r}: a daily deal is daily-YYYY-MM-DD, a challenge one of: "
                     + ", ".join(CHALLENGES))
