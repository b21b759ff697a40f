"""Dice anyone can check: a secret seed committed to before the first roll, the players' salts, and the check.

Why: online dice come from the server, and a player who thinks they were against them had only its word. Now
the server draws a secret seed when a table is made and shows everyone its commitment (a SHA-256) from the
start; each seated player may add a salt of their own; every chance event the server draws is keyed by the
seed, the salts said so far and the event's place in the record, so neither the server (bound by its
commitment) nor any player alone (the seed is secret until the end) chose the dice. When the game ends the
seed is revealed and goes into the record, and ``verify`` recomputes every drawn chance event and the
commitment from the record alone (``spots verify RECORD``).

A salt counts from the move it was said before: ``Salt.at`` is the number of moves in the record when it came,
so the events drawn before it (the opening deal, drawn when the table is made) never depend on it.
Standard library only; every key is a SHA-256, the same on every machine.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import StateFormatError

__all__ = ["Commitment", "Salt", "Verdict", "commit_to", "event_dice", "verify"]

MAX_SALT = 64  # characters of a salt: plenty for 256 bits in hex, little for anything else
PREFIX = "spots-dice"


@dataclass(frozen=True)
class Salt:
    """A seat's salt and the number of moves in the record when it was said (it keys the events after)."""

    seat: int
    salt: str
    at: int

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "salt": self.salt, "at": self.at}


@dataclass(frozen=True)
class Commitment:
    """A table's dice: the commitment, the salts so far and, once the game is over, the seed."""

    commitment: str
    salts: tuple[Salt, ...] = ()
    seed: str | None = field(default=None, repr=False)  # secret until the end: never in a repr or a log line
    # A named deal's dice (the daily deal): the seed is the deal's key, and every event comes from the game's own
    # keyed dice of that deal (``GameSpec.dealing``), the same for every table of the deal, with no salts.
    deal: bool = False
    # The server's rule for showing the seed: None, once the game is over; a date (YYYY-MM-DD, UTC), once the game
    # is over and that day has begun (a daily deal's key, kept until the day is over for everyone). Not recorded.
    reveal_from: str | None = field(default=None, compare=False)

    def to_dict(self, reveal: bool) -> dict[str, Any]:
        """The record's ``dice`` block: the seed only when ``reveal`` (the game is over)."""
        doc: dict[str, Any] = {"commitment": self.commitment, "salts": [s.to_dict() for s in self.salts]}
        if self.deal:
            doc["deal"] = True
        if reveal and self.seed is not None:
            doc["seed"] = self.seed
        return doc

    @classmethod
    def parse(cls, doc: Any, source: str = "record") -> Commitment:
        """A record's ``dice`` block checked; StateFormatError says what is wrong."""
        if not isinstance(doc, dict) or not isinstance(doc.get("commitment"), str):
            raise StateFormatError(f"{source}: 'dice' must be an object with the 'commitment' (hex), 'salts' and, "
                                   "once the game is over, the 'seed'")
        seed = doc.get("seed")
        if seed is not None and not isinstance(seed, str):
            raise StateFormatError(f"{source}: the dice seed must be text, not {seed!r}")
        salts = doc.get("salts", [])
        if not isinstance(salts, list):
            raise StateFormatError(f"{source}: 'salts' must be a list of {{seat, salt, at}}")
        deal = doc.get("deal", False)
        if not isinstance(deal, bool):
            raise StateFormatError(f"{source}: the dice's 'deal' must be true or false, not {deal!r}")
        return cls(doc["commitment"], tuple(_salt(s, source) for s in salts), seed, deal)


def _salt(doc: Any, source: str) -> Salt:
    ok = isinstance(doc, dict) and isinstance(doc.get("salt"), str) and all(
        isinstance(doc.get(k), int) and not isinstance(doc.get(k), bool) and doc[k] >= 0 for k in ("seat", "at"))
    if not ok:
        raise StateFormatError(f"{source}: each salt must be {{\"seat\": N, \"salt\": text, \"at\": N}}, not {doc!r}")
    return Salt(doc["seat"], doc["salt"], doc["at"])


def salts_text(salts: Sequence[Salt]) -> str:
    """The salts as JSON text: how a server keeps them (and compares them before it writes drawn events)."""
    return json.dumps([s.to_dict() for s in salts])


def salts_from_text(text: str | None, source: str = "the table's salts") -> tuple[Salt, ...]:
    """Salts kept as ``salts_text`` wrote them (None: none yet); StateFormatError when they are not."""
    salts = json.loads(text or "[]")
    if not isinstance(salts, list):
        raise StateFormatError(f"{source}: 'salts' must be a list of {{seat, salt, at}}")
    return tuple(_salt(s, source) for s in salts)


def check_salt(text: Any) -> str:
    """A player's salt as given, or ValueError saying what a salt may be."""
    if not isinstance(text, str) or not 1 <= len(text) <= MAX_SALT or not text.isprintable():
        raise ValueError(f"a salt is 1 to {MAX_SALT} printable characters (the page makes one; any text of your own "
                         "will do)")
    return text


def digest(seed: str) -> str:
    """The commitment to a seed: what everyone sees before the first roll."""
    return hashlib.sha256(f"{PREFIX}-commitment\x1f{seed}".encode()).hexdigest()


def commit_to() -> Commitment:
    """A new secret seed (256 bits from the OS) and its commitment."""
    seed = secrets.token_hex(32)
    return Commitment(digest(seed), (), seed)


def event_dice(seed: str, salts: Sequence[Salt], move: int) -> random.Random:
    """The generator of the chance event that is move number ``move`` (from 0) of the record: keyed by the seed,
    the salts said before it, in the order said, and the move's place."""
    said = [f"{s.seat}:{s.salt}" for s in salts if s.at <= move]
    key = "\x1f".join([PREFIX, seed, *said, str(move)])
    return random.Random(hashlib.sha256(key.encode()).hexdigest())


@dataclass(frozen=True)
class Verdict:
    """What a check of a record's dice found: ``ok``, how many events it checked, and the words."""

    ok: bool
    events: int
    words: str


def verify(new_state: Callable[[], Any], moves: Sequence[str], dice: Commitment | None,
           racers: Callable[[Any], Sequence[int]] = lambda state: (),
           draw: Callable[[int], random.Random] | None = None) -> Verdict:
    """Recompute every chance event the server drew in ``moves`` (from ``new_state()``) and the commitment.

    ``racers``: the seats that race for a chance event instead of the server drawing it (Double Spot's claim
    race: the players' own moves, not checked). ``draw``: the generator of the event that is move number ``m``
    (default: ``event_dice`` of the seed and salts; a named deal's own keyed dice for a ``deal``).
    """
    if dice is None:
        return Verdict(False, 0, "no commitment: this record was made before the dice were committed to, or "
                                 "off the server (a tutorial's or a named deal's dice)")
    if dice.seed is None:
        return Verdict(False, 0, "the seed is not revealed yet: it is, and the record holds it, once the game is over")
    if digest(dice.seed) != dice.commitment:
        return Verdict(False, 0, f"the seed does not match its commitment: SHA-256 gives {digest(dice.seed)}, the "
                                 f"table showed {dice.commitment}")
    state, events = new_state(), 0
    for index, move in enumerate(moves):
        if state.is_chance_node() and not racers(state):
            generator = draw(index) if draw is not None else event_dice(dice.seed, dice.salts, index)
            drawn = state.clone().sample_chance(generator)
            events += 1
            if drawn != move:
                return Verdict(False, events, f"chance event {events} (move {index + 1}) does not match: the record "
                                              f"says {move!r}, the seed and salts give {drawn!r}")
        state.apply_action(move)
    return Verdict(True, events, f"all {events} chance events match (and the seed matches its commitment)")
