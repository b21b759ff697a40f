"""Options schemas: what a game's options are, and the one routine that checks values against them.

Why a schema and not code per front end: the command line flags, the web lobby's form
and its request checks, and ``spots games`` are all generated from the same list, so
a new option (or a new game) touches no front end. ``whole`` is the one whole-number
check of the package (options, saved files and requests alike).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any

from .errors import RulesError

__all__ = ["Lobby", "Option", "defaults_of", "validate_options", "whole"]


def whole(name: str, value: Any, low: int | None = None, high: int | None = None,
          error: Callable[[str], Exception] = RulesError) -> int:
    """``value`` if it is a whole number in [low, high] (either bound optional); else ``error`` says what is allowed.

    Booleans, floats and text are refused even when they look like numbers (``True``, ``2.0``, ``"2"``).
    """
    if not isinstance(value, int) or isinstance(value, bool):
        raise error(f"{name} must be a whole number, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            allowed = f"from {low} to {high}"
        else:
            allowed = f"at least {low}" if low is not None else f"at most {high}"
        raise error(f"{name} must be {allowed}, not {value}")
    return value


@dataclass(frozen=True)
class Lobby:
    """How a web lobby offers an option: its create-table form is generated from these, and checked by them.

    ``place``: ``main`` (at the top of the game's form) or ``variant`` (under Variants).
    ``cap``: the bounds a public server accepts when tighter than the option's own (no 5,000 dice).
    ``presets``: a menu of values with their labels (message ids) instead of a free field.
    ``picks``: for a text option, the items (value, label, look) a custom list may be ticked from (``look``: a
    style word for the page, e.g. a tile's colour); the
    menu then offers ``custom``, and the request may give the list itself (or under ``custom_field``).
    ``picked``: the items ticked at first; ``picks_label``: the legend over the items.
    """

    place: str = "variant"
    cap: tuple[int, int] | None = None
    presets: tuple[tuple[Any, str], ...] = ()
    picks: tuple[tuple[str, str, str], ...] = ()
    picked: tuple[str, ...] = ()
    picks_label: str = ""
    custom_field: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"place": self.place, "cap": list(self.cap) if self.cap else None,
                "presets": [{"value": v, "label": label} for v, label in self.presets],
                "picks": [{"value": v, "label": label, "look": look} for v, label, look in self.picks]}


CUSTOM = "custom"  # the menu entry of an option with picks that asks for a list


@dataclass(frozen=True)
class Option:
    """One rules option of a game.

    ``kind`` is ``int`` (a whole number in [low, high]), ``choice`` (one of ``choices``) or ``text``
    (any text; the game's rules check it further, e.g. Spots' trick sets). A default of None means
    "worked out from the other options" (the rules say how); None is then also accepted as a value.
    ``label`` is the player-facing name (an English message id, translated where it is shown);
    ``help`` the one-line explanation for ``--help`` and the lobby. ``lobby`` says how a web lobby offers
    it (None: it does not, e.g. a file path); ``drawn``: a seed the server draws itself, never asked for.
    """

    name: str
    kind: str
    default: Any
    label: str
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    lobby: Lobby | None = Lobby()
    drawn: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("int", "choice", "text"):
            raise ValueError(f"option {self.name}: kind must be int, choice or text, not {self.kind!r}")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"option {self.name}: a choice needs its choices")

    @property
    def flag(self) -> str:
        """The command line flag: ``--turn-limit`` for ``turn_limit``."""
        return "--" + self.name.replace("_", "-")

    def check(self, value: Any, public: bool = False) -> Any:
        """``value`` if it is allowed; else a RulesError naming the option and what is allowed.

        ``public``: as a public server's lobby takes it (its caps; a list picked from the picks).
        """
        if value is None and self.default is None:
            return None
        if self.kind == "int":
            low, high = self.lobby.cap if public and self.lobby and self.lobby.cap else (self.low, self.high)
            return whole(self.name, value, low, high)
        if self.kind == "choice":
            if value not in self.choices:
                raise RulesError(f"{self.name} must be one of {', '.join(self.choices)}, not {value!r}")
            return value
        if public and self.lobby and self.lobby.picks:
            return self.check_pick(value)
        if not isinstance(value, str) or not value.strip():
            raise RulesError(f"{self.name} must be a non-empty text, not {value!r}")
        return value

    def check_pick(self, value: Any) -> Any:
        """A lobby's value of an option with picks: one of its menu's values, or a list of picks."""
        assert self.lobby is not None
        menu = [v for v, _ in self.lobby.presets]
        if isinstance(value, list):
            items = {v for v, _, _ in self.lobby.picks}
            if all(isinstance(v, str) and v in items for v in value):
                return value
            raise RulesError(f"a custom {self.name} list holds only these: {', '.join(sorted(items))}")
        if value not in menu:
            raise RulesError(f"{self.name} must be one of {', '.join(map(str, menu))} or a list of picks")
        return value

    def allowed(self) -> str:
        """What values are allowed, in a few words (for help texts and ``spots games``)."""
        if self.kind == "choice":
            return " | ".join(self.choices)
        if self.kind == "int":
            if self.low is not None and self.high is not None:
                return f"{self.low}-{self.high}"
            if self.low is not None:
                return f">= {self.low}"
            return "whole number"
        return "text"

    def to_json(self) -> dict[str, Any]:
        """The schema entry as plain data (``GET /api/games``)."""
        return {"name": self.name, "type": self.kind, "default": self.default, "label": self.label,
                "help": self.help, "min": self.low, "max": self.high, "choices": list(self.choices) or None,
                "lobby": self.lobby.to_json() if self.lobby else None}


def validate_options(schema: tuple[Option, ...], given: Mapping[str, Any], game: str = "the game",
                     public: bool = False) -> dict[str, Any]:
    """The options in ``given`` checked against ``schema`` (defaults not filled in).

    An unknown name or a bad value raises RulesError naming it and what is allowed; nothing else
    happens, so a caller may check before it changes anything. ``public``: a public server's lobby
    request, which may set only the options a lobby offers, within their caps.
    """
    by_name = {option.name: option for option in schema if not public or option.lobby is not None}
    out: dict[str, Any] = {}
    for name, value in given.items():
        option = by_name.get(name)
        if option is None:
            raise RulesError(f"unknown option {name!r} for {game}; the options are: {', '.join(by_name)}")
        out[name] = option.check(value, public)
    return out


def defaults_of(rules: type) -> dict[str, Any]:
    """The defaults a game's rules dataclass declares, by option name.

    Why: a game's defaults are written once, on its ``Rules``; its options schema (``Option.default``),
    and through it the command line, the lobby and the research adapters, read them from here.
    """
    return {f.name: f.default for f in fields(rules) if f.init and f.default is not MISSING}
