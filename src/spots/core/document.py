"""Reading saved documents (states, records) for every game: one envelope, one set of errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, Self, TypeVar

from . import options
from .errors import RulesError, StateFormatError

T = TypeVar("T")

# What a corrupt field can raise while a state is rebuilt from it.
CORRUPT = (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError, RecursionError)


def read_text(path: str | Path) -> str:
    """A saved file's text; a missing, unreadable or non-UTF-8 file raises StateFormatError."""
    try:
        return Path(path).read_text("utf-8")
    except OSError as exc:
        raise StateFormatError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise StateFormatError(f"cannot read {str(path)!r}: it is not UTF-8 text") from None


def read_json(text: str, source: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateFormatError(f"{source}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise StateFormatError(f"{source}: the JSON is nested too deeply") from None


def whole(value: Any, what: str) -> int:
    """A saved count or seat: a whole number from 0, refusing floats, booleans and text.

    Every whole number a saved document holds counts something or names a seat, so a negative one is
    corrupt even when the totals still add up (``spots.core.options.whole`` does the checking).
    """
    return options.whole(what, value, low=0, error=StateFormatError)


def load_document(doc: Any, fmt: str, version: int, game: str, build: Callable[[dict[str, Any]], T],
                  kind: str = "state") -> T:
    """Check a saved document's format and version, then ``build`` it; any failure is a StateFormatError.

    ``kind`` names the document in messages ("state", "record"), so a player is told what file was wrong.
    """
    if not isinstance(doc, dict) or doc.get("format") != fmt:
        raise StateFormatError(f'not a {game} {kind}: expected an object with "format": "{fmt}"')
    if doc.get("version") != version:
        raise StateFormatError(f"unsupported {kind} version {doc.get('version')!r}; this engine reads {version}")
    try:
        return build(doc)
    except StateFormatError as exc:
        raise StateFormatError(f"corrupt {kind}: {exc}") from None
    except RulesError as exc:
        raise StateFormatError(f"bad rules in {kind}: {exc}") from None
    except CORRUPT as exc:
        raise StateFormatError(f"corrupt {kind}: {type(exc).__name__}: {exc}") from None


class SavedState:
    """``to_json`` / ``from_json`` for a game's state: the shared envelope around the state's own fields.

    A state class sets ``FORMAT``, ``VERSION`` and ``GAME`` and writes ``to_dict`` (with ``format`` and
    ``version`` in it) and ``_from_fields`` (rebuild from a checked document).
    """

    FORMAT: ClassVar[str]
    VERSION: ClassVar[int]
    GAME: ClassVar[str]  # the game's name in messages ("not a Spots state")

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def _from_fields(cls, doc: dict[str, Any]) -> Self:
        raise NotImplementedError

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_json(cls, text: str) -> Self:
        """Rebuild a state saved by ``to_json``; a corrupt document raises StateFormatError."""
        return cls.from_dict(read_json(text, "state"))

    @classmethod
    def from_dict(cls, doc: Any) -> Self:
        return load_document(doc, cls.FORMAT, cls.VERSION, cls.GAME, cls._from_fields)
