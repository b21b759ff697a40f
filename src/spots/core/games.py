"""The game registry: every game of the package described once, and looked up by name (like ``pyspiel.load_game``).

Why: the command line, the web app, the arena and the generic tests are written
against ``GameSpec`` only, so adding a game is one new spec module and one line in
``BUILTIN``, and no front end names a game. ``get("double-spot")`` gives a spec;
``new_state("spots", players=3)`` a fresh game with checked options.

The specs live beside their engines (``spots.games.spots.spec``, ``spots.games.double_spot.spec``)
and are imported only when first asked for, so ``spots.core`` stays free of any game.
"""

from __future__ import annotations

import argparse
import gettext
import importlib
import os
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from .advice import Advice
from .bots import Bot, make_bot
from .commitment import Commitment, Verdict, verify
from .document import read_json, read_text
from .errors import StateFormatError
from .options import Option, validate_options
from .protocol import Game, GameState
from .record import Record, RecordFormat
from .undo import Step, Takeback, take_back, takeback
from .undo import rule as undo_rule
from .webview import WebView

if TYPE_CHECKING:
    from pathlib import Path

    from ..analysis.evaluator import Evaluator
    from ..study.spec import Study

    # A study report kind of the game's own: (study, its rows, the report's folder) -> Markdown lines
    StudyReport = Callable[[Study, list[dict[str, Any]], Path], list[str]]

__all__ = ["BUILTIN", "COLUMN_TYPES", "Advise", "AnySpec", "Command", "CommandLine", "Dealing", "DescribeMove",
           "GameSpec", "LobbyBot", "Outcome", "PlayMode", "Studies", "Subcommands", "Summary", "Terminal",
           "Termination", "get", "load_position", "new_state", "register", "registry", "sniff", "spec_of_format",
           "spec_of_rules", "unregister"]

# The modules whose ``SPEC`` is registered on first use, in the order games are listed.
BUILTIN = ("spots.games.spots.spec", "spots.games.double_spot.spec")
# More games, each a module whose ``SPEC`` is registered after the built-in ones: "mygame,other.game".
PLUGINS = "SPOTS_GAMES"

Translations = gettext.NullTranslations


class Termination(StrEnum):
    """How a game ended, as a kind the shells can count and compare (the game's own words are ``Outcome.ending``)."""

    TARGET = "target"  # a player reached the goal (a score, the last stone, ...)
    LIMIT = "limit"  # a length limit stopped it (Spots' turn limit): the leaders share the win
    EXHAUSTED = "exhausted"  # nothing was left to play (a full board): the scores decide, or it is a draw


TERMINATION_WORDS = {Termination.TARGET: "target reached", Termination.LIMIT: "turn limit",
                     Termination.EXHAUSTED: "board full"}


@dataclass(frozen=True)
class Outcome:
    """How one finished game ended, for the arena's report, the lobby and the studies.

    ``termination``: the kind of ending; ``turns``: the game's length in its own unit; ``winner``: the seat
    that won outright (None for a draw or a shared win); ``busts``: per seat, when the game has busts;
    ``words``: the game's own few words when the kind's (``TERMINATION_WORDS``) do not say it all.
    """

    termination: Termination
    turns: int
    winner: int | None
    busts: list[int] | None = None
    words: str = ""

    @property
    def ending(self) -> str:
        """A few words: ``"target reached"``, ``"turn limit"``, ``"board full, a draw"``, ..."""
        return self.words or TERMINATION_WORDS[self.termination]


@dataclass(frozen=True)
class LobbyBot:
    """A bot offered to players (the web lobby and the docs' lists), with its strength in a word.

    ``level``: a message id (``easiest``, ``easy``, ``strong``, ``strongest``) taken from the bot's measured
    matches (docs/bots.md, docs/double-spot.md); ``why``: those figures in a few words, for the docs.
    """

    name: str
    level: str
    why: str = ""


@dataclass(frozen=True)
class Summary:
    """What a shell shows of a position without knowing the game: seats, scores, goal, whose turn, the end."""

    seats: int
    scores: tuple[int, ...]  # per seat, in the game's own unit (dogs scored, cards taken, ...)
    target: int | None  # the score that wins, when the game has one
    turn: int  # the game's turn counter
    seat: int | None  # whose turn it is (also while a chance event of that turn is pending); None once over
    outcome: Outcome | None = None  # how it ended, once it has
    details: Mapping[str, Any] = field(default_factory=dict)  # the game's own facts for a lobby row (plain data)

    @property
    def winner(self) -> int | None:
        return None if self.outcome is None else self.outcome.winner


RulesT = TypeVar("RulesT")
StateT = TypeVar("StateT", bound=GameState)
StateC = TypeVar("StateC", bound=GameState, contravariant=True)
RulesC = TypeVar("RulesC", contravariant=True)


class DescribeMove(Protocol[StateC]):
    """A game's log line for one move: ``(before, move, after=None, names=None, tr=None) -> str``."""

    def __call__(self, before: StateC, move: str, after: StateC | None = None, names: list[str] | None = None,
                 tr: Translations | None = None, /) -> str: ...


class Advise(Protocol[StateC]):
    """A game's advisor: ``(state, seed=0, bot=None) -> the legal moves, best first``."""

    def __call__(self, state: StateC, seed: int = 0, bot: str | None = None) -> list[Advice]: ...


class Subcommands(Protocol):
    """The ``spots`` command line's subcommands (``argparse``'s ``add_subparsers()``), which game commands add to."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


# A game's own subcommand of ``spots`` (``spots tiles``): a function that adds its parser, whose ``run`` default is
# the command (``args -> exit status``); the command line adds every registered game's.
Command = Callable[[Subcommands], None]


class Terminal(Protocol[RulesC]):
    """A game's own terminal front end: ``(the command line's arguments, rules or None) -> exit status``."""

    def __call__(self, args: argparse.Namespace, rules: RulesC | None, /) -> int: ...


@dataclass(frozen=True)
class PlayMode:
    """A way of playing that a game adds to ``spots play`` (Spots' ``--daily`` and ``--challenge``).

    ``add_options``: adds its options to the ``play`` parser; ``start``: (the arguments, the rules options given on
    the command line) -> the exit status when the mode was asked for, else None (the ordinary game is played).
    """

    add_options: Callable[[argparse.ArgumentParser], None]
    start: Callable[[argparse.Namespace, dict[str, Any]], int | None]


@dataclass(frozen=True)
class CommandLine(Generic[RulesT]):
    """What a game adds to the ``spots`` command: its own terminal front end (None: the generic one,
    ``spots.play.generic``, plays it; a function that imports the play extra only when called), its own
    subcommands (a name no other command has) and its ways of playing ``spots play`` (Spots' daily deal)."""

    terminal: Terminal[RulesT] | None = None
    commands: tuple[Command, ...] = ()
    play_modes: tuple[PlayMode, ...] = ()


@dataclass(frozen=True)
class Dealing(Generic[RulesT]):
    """A game that deals keyed dice (Spots' ``keyed_dice`` rules), so that two tables can meet the same dice.

    ``table_dice``: the generator a table of these rules draws from, given the one the shell would use
    (a deal of the table's own, its key drawn from that generator); ``deal``: the rules and dice of the deal a
    key names, (rules, key) -> (rules, dice), for duplicate play (``spots arena --duplicate``, as duplicate bridge
    deals the same cards at every table).
    """

    table_dice: Callable[[RulesT, random.Random], random.Random]
    deal: Callable[[RulesT, str], tuple[RulesT, random.Random]]


# The types a study column may have (``Studies.columns``; ``spots.study.store`` maps them to Parquet's).
COLUMN_TYPES = ("str", "bool", "float", "int8", "int16", "int32", "int64")


@dataclass(frozen=True)
class Studies(Generic[RulesT, StateT]):
    """What a game adds to balance studies (``spots study``).

    Every game's rows have the shared columns (``spots.study.play.SHARED_COLUMNS``: seats, winner, scores, turns, ...,
    filled from the ``Summary``); a game declares its own beside them in ``columns`` (name -> a type of
    ``COLUMN_TYPES`` or ``list[type]``) and fills them with ``row``: (rules, final state, [(seat, move) of each
    decision]) -> columns (it may also give a shared column in its own words, as ``end_reason``).
    ``rows_version`` is raised when what the rows count changes, so a study's store never mixes rows counted two
    ways; ``rules_in_full``: a study's fingerprint holds the rules in full, not only the options it names (for a
    game whose defaults have changed). ``reports``: the game's own report kinds (kind -> section, which imports
    its plotting only when called); ``named``: its built-in studies (``spots study --list``).
    """

    columns: Mapping[str, str] = field(default_factory=dict)
    row: Callable[[RulesT, StateT, list[tuple[int, str]]], Mapping[str, Any]] | None = None
    rows_version: int = 1
    rules_in_full: bool = False
    reports: Mapping[str, StudyReport] = field(default_factory=dict)
    named: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, kind in self.columns.items():
            if not is_column_type(kind):
                raise ValueError(f"study column {name!r} has type {kind!r}; a column is one of "
                                 f"{', '.join(COLUMN_TYPES)} or list[...] of one")


def is_column_type(kind: str) -> bool:
    """Is ``kind`` a study column's type: one of ``COLUMN_TYPES``, or ``list[...]`` of a column type?"""
    if kind.startswith("list[") and kind.endswith("]"):
        return is_column_type(kind[5:-1])
    return kind in COLUMN_TYPES


@dataclass(frozen=True)
class GameSpec(Generic[RulesT, StateT]):
    """Everything a front end needs from one game, typed by the game's rules and state classes
    (``GameSpec[Rules, State]``), so mypy follows each face to the game's own code.

    It is the one description of a game: its rules and states come from its ``Game`` (OpenSpiel's
    definition, which its ``records`` name), its record files from ``records``; what it adds to one shell is
    that shell's part (``web``, ``cli``, ``study``, ``dealing``), empty or None when it adds nothing. The shells
    (command line, terminal, web app, studies, research adapters) read nothing else.
    """

    name: str  # the id on the command line, in URLs, the API and the database
    title: str
    players: tuple[int, int]  # fewest and most seats
    options: tuple[Option, ...]  # the rules options, in the order they are shown
    records: RecordFormat[RulesT, StateT]  # the record and state formats; ``records.game`` builds rules and states
    load_state: Callable[[Any], StateT]  # a saved state document (a dict) -> the state
    bots: Mapping[str, Callable[..., Bot]]  # bot name -> factory(seed=..., **budget)
    describe_move: DescribeMove[StateT]  # (before, move, after=None, names=None, tr=None) -> one log line
    advise: Advise[StateT]  # (state, seed=0, bot=None) -> the legal moves, best first
    render: Callable[[StateT], str]  # the position as plain text
    summarize: Callable[[StateT], Summary]  # any state -> what a shell shows of it, and how it ended once over
    seats: Callable[[RulesT], int] = attrgetter("players")  # rules -> the number of seats
    turn: Callable[[StateT], int] = attrgetter("turn")  # the state's turn counter (the arena counts each seat's turns)
    hint_bot: str = "expectimax"  # the bot the advisor ranks with, shown by ``spots hint``
    # The coach's evaluator (a ``spots.analysis.Evaluator`` at its fixed budget), imported when called; None: the
    # game's records cannot be analysed (``spots analyse``).
    coach: Callable[[], Evaluator] | None = None
    # The game's puzzle kit (a ``spots.puzzles.PuzzleKit``: the deep evaluators a puzzle's answer must satisfy, and
    # its themes), imported when called; None: the game has no puzzles yet.
    puzzles: Callable[[], Any] | None = None
    # What the game adds to the shells: the web app's view of it (a ``spots.core.webview.WebView``, declared in
    # the game's folder; None: not hosted), the command line, balance studies, and keyed dice (None: plain dice).
    web: WebView[StateT] | None = None
    cli: CommandLine[RulesT] = field(default_factory=CommandLine)
    study: Studies[RulesT, StateT] = field(default_factory=Studies)
    dealing: Dealing[RulesT] | None = None
    summary: str = ""  # one line for ``spots games``
    blurb: str = ""  # one line for the lobby (a message id, translated where shown)
    seats_option: str = ""  # the option that is the number of seats, if any (the lobby sets it from the seats)
    # Option sets for short games, the first the game's defaults or close: the generic tests play each.
    quick: tuple[Mapping[str, Any], ...] = field(default=({},))
    # Text that looks like the game's notation but is no move of it (``roll 7 7``): the generic tests check that
    # each raises MalformedMoveError, not a plain IllegalMoveError, and changes nothing.
    malformed: tuple[str, ...] = field(default=())
    aliases: tuple[str, ...] = field(default=())
    # The bots players are offered, weakest first; the others (a frozen baseline, a research agent) stay for the
    # arena, the terminal and Python. Empty: every bot, with no level.
    lobby_bots: tuple[LobbyBot, ...] = field(default=())
    # The undo rule in the game's own words, with an example (a message id): a refused undo says it. The rule is
    # the same for every game (``spots.core.undo``: your own moves of this turn since the last chance event).
    undo_rule: str = ""

    # ---------------------------------------------------------------- options and states

    @property
    def game(self) -> type[Game[RulesT, StateT]]:
        """The game's definition (``protocol.Game``: its rules and state classes), as its records name it."""
        return self.records.game

    @property
    def rules(self) -> Callable[..., RulesT]:
        """The game's Rules class: checked options -> rules (which check how they combine)."""
        rules: Callable[..., RulesT] = self.game.RULES
        return rules

    def check_options(self, given: Mapping[str, Any], public: bool = False) -> dict[str, Any]:
        """``given`` checked against the options schema (see ``spots.core.options``; ``public``: a web lobby's)."""
        return validate_options(self.options, given, self.title, public)

    def make_rules(self, **given: Any) -> RulesT:
        """The game's rules from options (checked by the schema, then by the rules themselves)."""
        return self.rules(**self.check_options(given))

    def new_state(self, rules: RulesT | None = None) -> StateT:
        """The initial state under ``rules`` (the defaults when None)."""
        return self.records.new_state(self.rules() if rules is None else rules)

    def option(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        raise KeyError(name)

    def drawn_options(self, seed: int) -> dict[str, Any]:
        """The options the game draws from a seed (a random trick set's), set from one game's ``seed``."""
        return {o.name: seed % (2**31) for o in self.options if o.drawn}

    # ---------------------------------------------------------------- undo

    def takeback(self, state: StateT, tail: list[Step] | None = None) -> Takeback:
        """Which of the latest moves the player to move may take back (``tail``: the steps since the last chance
        event, when the caller keeps them; else the history is replayed)."""
        if tail is not None:
            return undo_rule(tail, state, self.turn)
        return takeback(partial(self.new_state, self.rules_of(state)), state, self.turn)

    def take_back(self, state: StateT, seat: int | None, count: int = 1, tail: list[Step] | None = None) -> StateT:
        """The position without ``seat``'s last ``count`` moves (``UndoRefused`` when the rule forbids it)."""
        return take_back(partial(self.new_state, self.rules_of(state)), state, seat, self.turn, count, tail)

    def table_dice(self, rules: RulesT, dice: random.Random) -> random.Random:
        """The generator a table of ``rules`` draws its chance events from (the game's ``dealing``, if any)."""
        return dice if self.dealing is None else self.dealing.table_dice(rules, dice)

    def outcome(self, state: StateT) -> Outcome:
        """How a finished game ended (its summary's ``outcome``: said once, by ``summarize``)."""
        end = self.summarize(state).outcome
        if end is None:
            raise ValueError(f"this {self.title} game is not over: it has no outcome yet")
        return end

    def rules_of(self, state: StateT) -> RulesT:
        return state.rules  # type: ignore[attr-defined]

    # ---------------------------------------------------------------- bots and records

    def offered_bots(self) -> tuple[LobbyBot, ...]:
        """The bots a lobby offers (``lobby_bots``, else every bot), weakest first."""
        return self.lobby_bots or tuple(LobbyBot(name, "") for name in self.bots)

    def make_bot(self, name: str, seed: int = 0, **budget: Any) -> Bot:
        """A bot of this game by name; a ValueError names the known bots or the bad option."""
        return make_bot(self.bots, name, seed, **budget)

    def record(self, state: StateT, seats: list[str] | None = None, seed: int | None = None,
               bots: list[str | None] | None = None, stand_ins: list[tuple[int, int, int]] | None = None,
               dice: Commitment | None = None) -> Record:
        return self.records.of(state, seats, seed, bots, stand_ins, dice)

    def verify_dice(self, record: Record) -> Verdict:
        """Check a record's committed dice: every chance event the server drew, and the seed's commitment."""
        racers = self.web.racers if self.web is not None else (lambda state: ())
        dice, dealing = record.dice, self.dealing
        draw = None  # each event from the committed seed and the salts ...
        if dice is not None and dice.deal and dice.seed is not None and dealing is not None:
            key = dice.seed  # ... or, for a named deal, every event from the deal's own keyed dice
            draw = lambda move: dealing.deal(record.rules, key)[1]  # noqa: E731
        return verify(partial(self.new_state, record.rules), record.moves, dice, racers, draw)

    def open_record(self, path: str) -> Record:
        return self.records.open(path)

    def load(self, doc: Any, source: str) -> StateT:
        """A state from a saved document: a saved state as it is, a record replayed move by move."""
        if isinstance(doc, dict) and doc.get("format") == self.records.state:
            try:
                return self.load_state(doc)
            except StateFormatError as exc:
                raise StateFormatError(f"{source}: {exc}") from None
        state: StateT = self.records.parse(doc, source).replay(source)
        return state

    def to_json(self) -> dict[str, Any]:
        """The spec as plain data (``GET /api/games`` and ``spots games``)."""
        return {"name": self.name, "title": self.title, "players": {"min": self.players[0], "max": self.players[1]},
                "bots": list(self.bots), "options": [o.to_json() for o in self.options],
                "lobby_bots": [{"name": b.name, "level": b.level} for b in self.offered_bots()],
                "record_format": self.records.record, "state_format": self.records.state}


AnySpec = GameSpec[Any, Any]  # a game the caller does not know (the shells')

_GAMES: dict[str, AnySpec] = {}
_loaded = False


def register(spec: AnySpec) -> AnySpec:
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


def registry() -> dict[str, AnySpec]:
    """Every registered game by name, the built-in ones first."""
    global _loaded
    if not _loaded:
        _loaded = True
        for module in BUILTIN:
            register(importlib.import_module(module).SPEC)
        for module in filter(None, (m.strip() for m in os.environ.get(PLUGINS, "").split(","))):
            try:
                register(importlib.import_module(module).SPEC)
            except (ImportError, AttributeError) as exc:
                raise ValueError(f"{PLUGINS} names {module!r}, which is not a module with a SPEC: {exc}") from None
    return dict(_GAMES)


def get(name: str) -> AnySpec:
    """The game called ``name``; a ValueError lists the games."""
    games = registry()
    for spec in games.values():
        if name == spec.name or name in spec.aliases:
            return spec
    raise ValueError(f"unknown game {name!r}; the games are: {', '.join(games)}")


def new_state(name: str, **options: Any) -> GameState:
    """A fresh game of ``name`` with checked options: ``new_state("double-spot", target=3)``."""
    spec = get(name)
    return spec.new_state(spec.make_rules(**options))


def spec_of_rules(rules: object) -> AnySpec:
    """The game ``rules`` belong to (by the rules' class)."""
    for spec in registry().values():
        if isinstance(rules, spec.game.RULES):
            return spec
    raise ValueError(f"{type(rules).__name__} are not the rules of a registered game")


def spec_of_format(fmt: object) -> AnySpec | None:
    """The game whose record or saved state has this "format", if any."""
    for spec in registry().values():
        if fmt in spec.records.formats():
            return spec
    return None


def sniff(path: str, default: str = "spots") -> tuple[AnySpec, Any]:
    """The game a saved file belongs to (by its "format") and its parsed JSON.

    A file no game claims goes to ``default``, whose reader then says what is wrong with it.
    """
    source = str(path)
    doc = read_json(read_text(path), source)
    fmt = doc.get("format") if isinstance(doc, dict) else None
    return spec_of_format(fmt) or get(default), doc


def load_position(path: str) -> tuple[AnySpec, GameState]:
    """The game and the position a saved state or record file holds (a record is replayed and checked)."""
    spec, doc = sniff(path)
    return spec, spec.load(doc, str(path))
