"""The move notation of section 10 of the rules: parsing and canonical printing.

A move is text such as ``place 4 wilbur`` or ``roll 1 3 3 6``. ``parse`` reads
it into a ``Move`` (its kind and arguments) and checks only its *form*;
whether the move is legal is the state's business. ``str(move)`` prints the
canonical text, so ``str(parse(text))`` round-trips: lower case, single
spaces, dice lists in ascending order. A trick's name alone (``walk``) is read as
``trick walk`` where no move begins with that word: ``dig`` still needs ``trick dig``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .errors import MalformedMoveError
from .tricks import TILES

NAME = re.compile(r"^[a-z0-9][a-z0-9'.&-]*$")

# The longest move text read, spaces included: far above any real move (a roll of the whole
# supply, ``roll`` and 40 dice, is 84 characters), so only junk is refused, before it is split.
MAX_TEXT = 200

# kind -> the shape of its arguments, for error messages.
FORMS: dict[str, str] = {
    "score": "score",
    "continue": "continue",
    "stop": "stop",
    "reroll": "reroll  |  reroll <dice> (Track)",
    "trick": "trick <tile>",
    "place": "place <die> <dog>",
    "bury": "bury <die>",
    "choose": "choose <die>",
    "pick": "pick <dice>",
    "discard": "discard [<dice>]",
    "set-aside": "set-aside <count>",
    "dig": "dig <seat> <die> up|down",
    "move": "move <dog> <die> <dog> <die>",
    "take": "take yard <die>  |  take <dog> <die>",
    "roll": "roll <dice>",
    "reveal": "reveal <dog>",
}


class Move(NamedTuple):
    """A parsed move: its kind and its arguments (ints for dice and seats, str for names)."""

    kind: str
    args: tuple[int | str, ...] = ()

    def __str__(self) -> str:
        return " ".join([self.kind, *map(str, self.args)])


def _malformed(text: str, why: str) -> MalformedMoveError:
    forms = list(FORMS.values())
    return MalformedMoveError(text, f"malformed move ({why})", forms, label="Moves have the forms")


def _die(text: str, token: str) -> int:
    if token not in ("1", "2", "3", "4", "5", "6"):
        raise _malformed(text, f"{token!r} is not a die face from 1 to 6")
    return int(token)


def _name(text: str, token: str) -> str:
    if not NAME.match(token):
        raise _malformed(text, f"{token!r} is not a name (lower case, hyphens for spaces)")
    return token


def parse(text: object) -> Move:
    """Read a move's text; raise MalformedMoveError (an IllegalMoveError) if its form is wrong."""
    if not isinstance(text, str):
        raise _malformed(str(text), f"a move is text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise _malformed(text[:40] + "...", f"{len(text)} characters; a move has at most {MAX_TEXT}")
    tokens = text.strip().lower().split()
    if not tokens:
        raise _malformed(text, "empty")
    kind, rest = tokens[0], tokens[1:]
    if kind not in FORMS and kind in TILES and not rest:
        return Move("trick", (kind,))  # the shorthand a player types: 'walk' for 'trick walk'
    if kind not in FORMS:
        raise _malformed(text, f"unknown move {kind!r}; moves begin with one of {', '.join(FORMS)}, "
                               "or are a trick's name alone")

    def arity(*counts: int) -> None:
        if len(rest) not in counts:
            also = f"; the trick is 'trick {kind}'" if kind in TILES and not rest else ""
            raise _malformed(text, f"expected the form '{FORMS[kind]}'{also}")

    if kind in ("score", "continue", "stop"):
        arity(0)
        return Move(kind)
    if kind in ("reroll", "pick", "discard", "roll"):
        if kind in ("pick", "roll") and not rest:
            raise _malformed(text, f"expected the form '{FORMS[kind]}'")
        return Move(kind, tuple(sorted(_die(text, t) for t in rest)))
    if kind in ("trick", "reveal"):
        arity(1)
        return Move(kind, (_name(text, rest[0]),))
    if kind == "place":
        arity(2)
        return Move(kind, (_die(text, rest[0]), _name(text, rest[1])))
    if kind in ("bury", "choose"):
        arity(1)
        return Move(kind, (_die(text, rest[0]),))
    if kind == "set-aside":
        arity(1)
        if not (rest[0].isascii() and rest[0].isdigit()) or len(rest[0]) > 3:
            raise _malformed(text, f"{rest[0]!r} is not a count of dice")
        return Move(kind, (int(rest[0]),))
    if kind == "dig":
        arity(3)
        if not (rest[0].isascii() and rest[0].isdigit()) or len(rest[0]) > 1:
            raise _malformed(text, f"{rest[0]!r} is not a seat number")
        if rest[2] not in ("up", "down"):
            raise _malformed(text, f"{rest[2]!r} must be 'up' or 'down'")
        return Move(kind, (int(rest[0]), _die(text, rest[1]), rest[2]))
    if kind == "move":
        arity(4)
        return Move(kind, (_name(text, rest[0]), _die(text, rest[1]), _name(text, rest[2]), _die(text, rest[3])))
    # take
    arity(2)
    return Move(kind, (_name(text, rest[0]), _die(text, rest[1])))


def canonical(text: object) -> str:
    """The canonical text of a move (raises MalformedMoveError if malformed)."""
    return str(parse(text))
