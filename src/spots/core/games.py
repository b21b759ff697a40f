"""The game registry: every game of the package described once, and looked up by name (like ``pyspiel.load_game``).

Why: the command line, the web app, the arena and the generic tests are written
against ``GameSpec`` only, so adding a game is one new spec module and one line in
``BUILTIN``, and no front end names a game. ``get("double-spot")`` gives a spec;
``new_state("spots", players=3)`` a fresh game with checked options.

The specs live beside their engines (``spots.games.spots.spec``, ``spots.games.double_spot.spec``)
and are imported only when first asked for, so ``spots.core`` stays free of any game.
"""

from __future__ import annotations

import gettext
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from .advice import Advice
from .bots import Bot, make_bot
from .document import read_json, read_text
from .errors import StateFormatError
from .options import Option, validate_options
from .record import Record, RecordFormat

__all__ = ["BUILTIN", "GameSpec", "Outcome", "get", "load_position", "new_state", "register", "registry", "sniff",
           "spec_of_format", "spec_of_rules", "unregister"]

# The modules whose ``SPEC`` is registered on first use, in the order games are listed.
BUILTIN = ("spots.games.spots.spec", "spots.games.double_spot.spec")

Translations = gettext.NullTranslations


@dataclass(frozen=True)
class Outcome:
    """How one finished game ended, for the arena's report.

    ``ending``: a few words (``"target reached"``, ``"turn limit"``, ``"board full, a draw"``);
    ``turns``: the game's length in its own unit; ``busts``: per seat, when the game has busts.
    """

    ending: str
    turns: int
    winner: int | None  # the seat that won outright; None for a draw or a shared win
    busts: list[int] | None = None


@dataclass(frozen=True)
class GameSpec:
    """Everything a front end needs from one game."""

    name: str  # the id on the command line, in URLs, the API and the database
    title: str
    players: tuple[int, int]  # fewest and most seats
    options: tuple[Option, ...]  # the rules options, in the order they are shown
    records: RecordFormat  # rules from/to plain data, record and state formats
    rules: Callable[..., Any]  # the game's Rules class: checked options -> rules (which check how they combine)
    load_state: Callable[[Any], Any]  # a saved state document (a dict) -> the state
    bots: Mapping[str, Callable[..., Bot]]  # bot name -> factory(seed=..., **budget)
    describe_move: Callable[..., str]  # (before, move, after=None, names=None, tr=None) -> one log line
    advise: Callable[..., list[Advice]]  # (state, seed=0, bot=None) -> the legal moves, best first
    render: Callable[[Any], str]  # the position as plain text
    outcome: Callable[[Any], Outcome]  # a finished state -> how it ended
    seats: Callable[[Any], int] = attrgetter("players")  # rules -> the number of seats
    turn: Callable[[Any], int] = attrgetter("turn")  # the state's turn counter (the arena counts each seat's turns)
    hint_bot: str = "expectimax"  # the bot the advisor ranks with, shown by ``spots hint``
    # The coach's evaluator (a ``spots.analysis.Evaluator`` at its fixed budget), imported when called; None: the
    # game's records cannot be analysed (``spots analyse``).
    coach: Callable[[], Any] | None = None
    terminal: str = ""  # "module:function" of the terminal front end, started as function(args, rules)
    web: str = ""  # "module:name" of the web app's view of the game (a ``spots.web.games.WebView``)
    summary: str = ""  # one line for ``spots games``
    blurb: str = ""  # one line for the lobby (a message id, translated where shown)
    seats_option: str = ""  # the option that is the number of seats, if any (the lobby sets it from the seats)
    # Option sets for short games, the first the game's defaults or close: the generic tests play each.
    quick: tuple[Mapping[str, Any], ...] = field(default=({},))
    aliases: tuple[str, ...] = field(default=())

    # ---------------------------------------------------------------- options and states

    def check_options(self, given: Mapping[str, Any], public: bool = False) -> dict[str, Any]:
        """``given`` checked against the options schema (see ``spots.core.options``; ``public``: a web lobby's)."""
        return validate_options(self.options, given, self.title, public)

    def make_rules(self, **given: Any) -> Any:
        """The game's rules from options (checked by the schema, then by the rules themselves)."""
        return self.rules(**self.check_options(given))

    def new_state(self, rules: Any = None) -> Any:
        """The initial state under ``rules`` (the defaults when None)."""
        return self.records.new_state(self.rules() if rules is None else rules)

    def option(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        raise KeyError(name)

    # ---------------------------------------------------------------- bots and records

    def make_bot(self, name: str, seed: int = 0, **budget: Any) -> Bot:
        """A bot of this game by name; a ValueError names the known bots or the bad option."""
        return make_bot(self.bots, name, seed, **budget)

    def record(self, state: Any, seats: list[str] | None = None, seed: int | None = None) -> Record:
        return self.records.of(state, seats, seed)

    def open_record(self, path: str) -> Record:
        return self.records.open(path)

    def load(self, doc: Any, source: str) -> Any:
        """A state from a saved document: a saved state as it is, a record replayed move by move."""
        if isinstance(doc, dict) and doc.get("format") == self.records.state:
            try:
                return self.load_state(doc)
            except StateFormatError as exc:
                raise StateFormatError(f"{source}: {exc}") from None
        return self.records.parse(doc, source).replay(source)

    def to_json(self) -> dict[str, Any]:
        """The spec as plain data (``GET /api/games`` and ``spots games``)."""
        return {"name": self.name, "title": self.title, "players": {"min": self.players[0], "max": self.players[1]},
                "bots": list(self.bots), "options": [o.to_json() for o in self.options],
                "record_format": self.records.record, "state_format": self.records.state}


_GAMES: dict[str, GameSpec] = {}
_loaded = False


def register(spec: GameSpec) -> GameSpec:
    """Add a game (a name already taken is an error: two games must not share one)."""
    known = _GAMES.get(spec.name)
    if known is not None and known is not spec:
        raise ValueError(f"a game named {spec.name!r} is already registered")
    _GAMES[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Remove a game added with ``register`` (tests that plug in a game of their own)."""
    registry()
    _GAMES.pop(name, None)


def registry() -> dict[str, GameSpec]:
    """Every registered game by name, the built-in ones first."""
    global _loaded
    if not _loaded:
        _loaded = True
        for module in BUILTIN:
            register(importlib.import_module(module).SPEC)
    return dict(_GAMES)


def get(name: str) -> GameSpec:
    """The game called ``name``; a ValueError lists the games."""
    games = registry()
    for spec in games.values():
        if name == spec.name or name in spec.aliases:
            return spec
    raise ValueError(f"unknown game {name!r}; the games are: {', '.join(games)}")


def new_state(name: str, **options: Any) -> Any:
    """A fresh game of ``name`` with checked options: ``new_state("double-spot", target=3)``."""
    spec = get(name)
    return spec.new_state(spec.make_rules(**options))


def spec_of_rules(rules: Any) -> GameSpec:
    """The game ``rules`` belong to (by the rules' class)."""
    for spec in registry().values():
        if isinstance(spec.rules, type) and isinstance(rules, spec.rules):
            return spec
    raise ValueError(f"{type(rules).__name__} are not the rules of a registered game")


def spec_of_format(fmt: Any) -> GameSpec | None:
    """The game whose record or saved state has this "format", if any."""
    for spec in registry().values():
        if fmt in spec.records.formats():
            return spec
    return None


def sniff(path: str, default: str = "spots") -> tuple[GameSpec, Any]:
    """The game a saved file belongs to (by its "format") and its parsed JSON.

    A file no game claims goes to ``default``, whose reader then says what is wrong with it.
    """
    source = str(path)
    doc = read_json(read_text(path), source)
    fmt = doc.get("format") if isinstance(doc, dict) else None
    return spec_of_format(fmt) or get(default), doc


def load_position(path: str) -> tuple[GameSpec, Any]:
    """The game and the position a saved state or record file holds (a record is replayed and checked)."""
    spec, doc = sniff(path)
    return spec, spec.load(doc, str(path))
