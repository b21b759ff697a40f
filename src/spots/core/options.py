"""Options schemas: what a game's options are, and the one routine that checks values against them.

Why a schema and not code per front end: the command line flags, the web lobby's form
and its request checks, and ``spots games`` are all generated from the same list, so
a new option (or a new game) touches no front end. ``whole`` is the one whole-number
check of the package (options, saved files and requests alike).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RulesError

__all__ = ["Option", "validate_options", "whole"]


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
class Option:
    """One rules option of a game.

    ``kind`` is ``int`` (a whole number in [low, high]), ``choice`` (one of ``choices``) or ``text``
    (any text; the game's rules check it further, e.g. Spots' trick sets). A default of None means
    "worked out from the other options" (the rules say how); None is then also accepted as a value.
    ``label`` is the player-facing name (an English message id, translated where it is shown);
    ``help`` the one-line explanation for ``--help`` and the lobby.
    """

    name: str
    kind: str
    default: Any
    label: str
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in ("int", "choice", "text"):
            raise ValueError(f"option {self.name}: kind must be int, choice or text, not {self.kind!r}")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"option {self.name}: a choice needs its choices")

    @property
    def flag(self) -> str:
        """The command line flag: ``--turn-limit`` for ``turn_limit``."""
        return "--" + self.name.replace("_", "-")

    def check(self, value: Any) -> Any:
        """``value`` if it is allowed; else a RulesError naming the option and what is allowed."""
        if value is None and self.default is None:
            return None
        if self.kind == "int":
            return whole(self.name, value, self.low, self.high)
        if self.kind == "choice":
            if value not in self.choices:
                raise RulesError(f"{self.name} must be one of {', '.join(self.choices)}, not {value!r}")
            return value
        if not isinstance(value, str) or not value.strip():
            raise RulesError(f"{self.name} must be a non-empty text, not {value!r}")
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
                "help": self.help, "min": self.low, "max": self.high, "choices": list(self.choices) or None}


def validate_options(schema: tuple[Option, ...], given: Mapping[str, Any], game: str = "the game") -> dict[str, Any]:
    """The options in ``given`` checked against ``schema`` (defaults not filled in).

    An unknown name or a bad value raises RulesError naming it and what is allowed; nothing else
    happens, so a caller may check before it changes anything.
    """
    by_name = {option.name: option for option in schema}
    out: dict[str, Any] = {}
    for name, value in given.items():
        option = by_name.get(name)
        if option is None:
            raise RulesError(f"unknown option {name!r} for {game}; the options are: {', '.join(by_name)}")
        out[name] = option.check(value)
    return out
