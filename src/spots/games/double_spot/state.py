"""The Double Spot state machine: one position, its legal moves and its transitions.

Same shape as ``spots.games.spots.state`` (see ``spots.core.protocol``): every
decision and chance event is a move in the notation of section 6 of the rules
(``roll blue``, ``drop 3 green``, ``reveal p07``; ``claim 0`` with the ``first``
claim rule). The board is kept as seat 0 sees it; seat 1's moves are written from
its own side and turned around here, so a record reads naturally for each mover.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...core.document import SavedState
from ...core.errors import IllegalMoveError, MalformedMoveError
from ...core.fields import Schema, slot
from ...core.protocol import CHANCE, TERMINAL
from ...core.protocol import Game as BaseGame
from . import load as loader
from .load import FACES, PHASES
from .patterns import FLIP, KIND, Board, Card, on_board, standard_deck, through
from .rules import Rules

KINDS = ("blue-green", "pink-yellow")
FACE_KIND = {**KIND, "blue-green": "blue-green", "pink-yellow": "pink-yellow"}

# Phases: what the state waits for.
ROLL, REVEAL, CLAIM, DROP, OVER = PHASES
CHANCE_PHASES = (ROLL, REVEAL, CLAIM)

FORMS = {"roll": "roll FACE", "drop": "drop COLUMN COLOUR", "reveal": "reveal CARD", "claim": "claim SEAT"}
STATE_FORMAT = "double-spot-state"
STATE_VERSION = 1


def seen_by(seat: int, colour: str) -> str:
    """A disc face as seat ``seat`` sees it (the board stores seat 0's side)."""
    return colour if seat == 0 else FLIP[colour]


def face_colours(face: str) -> tuple[str, ...]:
    """The colours a die face lets the mover show toward themself."""
    if face == "blue-green":
        return ("blue", "green")
    if face == "pink-yellow":
        return ("pink", "yellow")
    return (face,)


def _copy_columns(columns: list[list[Any]]) -> list[list[Any]]:
    return [list(col) for col in columns]


def _key_columns(columns: list[list[Any]]) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(col) for col in columns)


def _sorted_tuple(cards: list[str]) -> tuple[str, ...]:
    return tuple(sorted(cards))


def _malformed(move: str) -> str:
    """Why ``move`` (lower case, single spaces) is not Double Spot notation at all; empty when it is."""
    word, *args = move.split() or [""]
    if word not in FORMS:
        return "not Double Spot notation (roll, drop, reveal or claim)"
    if len(args) != len(FORMS[word].split()) - 1:
        return f"a {word} move has the form {FORMS[word]!r}"
    if word == "drop" and (not args[0].isdigit() or args[1] not in FLIP):
        return f"a drop names a column number and a colour: {FORMS['drop']!r}"
    if (word == "roll" and args[0] not in FACES) or (word == "claim" and args[0] not in ("0", "1")):
        return f"{args[0]!r} is not a {'die face' if word == 'roll' else 'seat (0 or 1)'}"
    return ""


@dataclass(init=False, eq=False, repr=False)
class State(SavedState):
    """A position of Double Spot. The fields are declared once below, each with how it is copied, keyed, saved
    and loaded (``spots.core.fields``, as Spots' state), so a clone, the position key and the JSON follow."""

    FORMAT, VERSION, GAME = STATE_FORMAT, STATE_VERSION, "Double Spot"

    # The fields, in the order of the saved document (documented in docs/double-spot.md).
    rules: Rules = field(metadata=slot("rules", key=None, dump=Rules.to_dict, load=loader.rules))
    phase: str = field(metadata=slot("phase", load=loader.one_of("phase", PHASES)))  # what the state waits for
    seat: int = field(metadata=slot("seat", load=loader.seat_at("seat")))  # whose turn it is
    turn: int = field(metadata=slot("turn", key=None, load=loader.turn))  # turns completed so far
    die: str | None = field(metadata=slot("die", load=loader.one_of("die", FACES, optional=True)))  # rolled face
    board: Board = field(metadata=slot("board", copy=_copy_columns, key=_key_columns, dump=_copy_columns,
                                       load=loader.board))  # as seat 0 sees it, each column from the bottom
    holders: list[str | None] = field(metadata=slot("holders", copy=list, key=tuple, dump=list, load=loader.holders))
    deck: list[str] = field(metadata=slot("deck", copy=list, key=_sorted_tuple, dump=sorted,
                                          load=loader.deck))  # not yet revealed; each reveal is uniform over them
    won: list[list[str]] = field(metadata=slot("won", copy=_copy_columns, key=_key_columns, dump=_copy_columns,
                                               load=loader.won))
    refill: list[int] = field(metadata=slot("refill", copy=list, key=tuple, dump=list,
                                            load=loader.refill))  # holders still to fill, in order
    claiming: int | None = field(metadata=slot("claiming", load=loader.seat_at("claiming", optional=True)))
    passing: bool = field(metadata=slot("passing", load=loader.flag("passing")))  # the turn passes after refills
    winner: int | None = field(metadata=slot("winner", load=loader.seat_at("winner", optional=True)))
    end_reason: str | None = field(metadata=slot("end_reason", key=None,
                                                 load=loader.one_of("end_reason", loader.ENDS, optional=True)))
    lifted: int = field(metadata=slot("lifted", load=loader.lifted, absent=0))  # times the full frame was lifted
    _history: list[str] = field(metadata=slot("history", copy=list, key=None, dump=list, load=loader.history))

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules if rules is not None else Rules()
        self.cards: dict[str, Card] = {c.id: c for c in standard_deck()}
        self.board: Board = [[] for _ in range(self.rules.columns)]
        self.supply = {kind: self.rules.disc_supply for kind in KINDS}
        self.holders: list[str | None] = [None, None]
        self.deck: list[str] = list(self.cards)  # not yet revealed; each reveal is uniform over them
        self.won: list[list[str]] = [[], []]
        self.seat = 0
        self.turn = 0
        self.phase = REVEAL
        self.die: str | None = None
        self.refill: list[int] = [0, 1]  # holders still to fill, in order
        self.claiming: int | None = None  # holder whose card is being raced for
        self.passing = False  # the mover has dropped; the turn passes once refills are done
        self.winner: int | None = None
        self.end_reason: str | None = None
        self.lifted = 0  # times the full frame has been lifted (rules option ``lifts``)
        self._history: list[str] = []
        self._legal: list[str] | None = None
        self._advance()

    # ----------------------------------------------------------------- queries

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase in CHANCE_PHASES:
            return CHANCE
        return self.seat

    def is_chance_node(self) -> bool:
        return self.phase in CHANCE_PHASES

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def history(self) -> list[str]:
        return list(self._history)

    def scores(self) -> list[int]:
        return [len(w) for w in self.won]

    def full(self) -> bool:
        return all(len(col) >= self.rules.rows for col in self.board)

    def returns(self) -> list[float]:
        """1 for the winner and 0 for the loser; a draw gives each 0.5."""
        if self.phase != OVER:
            return [0.0, 0.0]
        if self.winner is None:
            return [0.5, 0.5]
        return [1.0 if s == self.winner else 0.0 for s in range(2)]

    def view(self, seat: int) -> Board:
        """The board as ``seat`` sees it: columns from their left, colours on their side."""
        cols = self.board if seat == 0 else self.board[::-1]
        return [[seen_by(seat, c) for c in col] for col in cols]

    def showing(self) -> list[Card | None]:
        return [None if h is None else self.cards[h] for h in self.holders]

    def legal_actions(self) -> list[str]:
        """The legal moves (or chance outcomes) in notation, in a stable order."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def chance_outcomes(self, exact: bool = False) -> list[tuple[str, Any]]:
        """Every outcome of the pending chance event with its probability (all are equally likely)."""
        if not self.is_chance_node():
            return []
        moves = self.legal_actions()
        share = Fraction(1, len(moves))
        return [(m, share if exact else float(share)) for m in moves]

    # ------------------------------------------------------------- transitions

    def apply_action(self, action: object, player: int | None = None) -> None:
        """Apply a move given as notation; a refused move raises IllegalMoveError and changes nothing."""
        text = action if isinstance(action, str) else str(action)
        if self.phase == OVER:
            raise IllegalMoveError(text, "the game is over; no move is accepted", [])
        legal = self.legal_actions()
        if player is not None and player != self.current_player():
            who = "a chance event" if self.is_chance_node() else f"seat {self.seat}"
            raise IllegalMoveError(text, f"seat {player} cannot move now: it is {who}'s turn", legal)
        move = " ".join(text.lower().split())
        if move not in legal:
            malformed = _malformed(move)
            if malformed:
                raise MalformedMoveError(text, malformed, legal)
            raise IllegalMoveError(text, self._why_illegal(move), legal)
        self._apply(move)

    def apply_trusted(self, move: str) -> None:
        """Apply a move taken from ``legal_actions()`` without checking it again (for search)."""
        self._apply(move)

    def sample_chance(self, rng: random.Random) -> str:
        """Draw the pending chance event from ``rng``, apply it and return its notation."""
        if not self.is_chance_node():
            raise IllegalMoveError("sample_chance", "this is not a chance node", self.legal_actions())
        moves = self.legal_actions()
        move = moves[int(rng.random() * len(moves))]
        self._apply(move)
        return move

    def clone(self) -> State:
        """A copy sharing only immutable values (the disc supply is replaced, never changed, so it is shared)."""
        return SCHEMA.clone(self)

    def key(self) -> tuple[Any, ...]:
        """A hashable summary of the position (not its history): equal keys, equal futures."""
        return SCHEMA.flat_key(self)

    # ------------------------------------------------------------- machinery

    def _why_illegal(self, move: str) -> str:
        word = move.split()[0]
        expected = {ROLL: "roll", REVEAL: "reveal", CLAIM: "claim", DROP: "drop"}[self.phase]
        if word != expected:
            who = "chance" if self.is_chance_node() else f"seat {self.seat}"
            return f"a {word!r} move is not what is pending: {who} must {expected}"
        if word == "drop":
            return f"illegal drop for seat {self.seat} after rolling {self.die} (a full column or a colour not rolled)"
        return f"illegal {word} outcome here"

    def _compute_legal(self) -> list[str]:
        if self.phase == ROLL:
            return [f"roll {f}" for f in FACES if self.supply[FACE_KIND[f]] > 0]
        if self.phase == REVEAL:
            return [f"reveal {c}" for c in sorted(self.deck)]
        if self.phase == CLAIM:
            return ["claim 0", "claim 1"]
        if self.phase == DROP:
            assert self.die is not None
            colours = face_colours(self.die)
            moves = []
            for n in range(1, self.rules.columns + 1):
                if len(self.board[self.column_index(n)]) < self.rules.rows:
                    moves += [f"drop {n} {c}" for c in colours]
            return moves
        return []

    def column_index(self, n: int) -> int:
        """Column ``n`` (1-based, from the mover's left) as an index into seat 0's board."""
        return n - 1 if self.seat == 0 else self.rules.columns - n

    def _apply(self, move: str) -> None:
        parts = move.split()
        phase = self.phase
        self.phase = ""
        self._legal = None
        if phase == ROLL:
            self.die = parts[1]
        elif phase == DROP:
            self._drop(int(parts[1]), parts[2])
        elif phase == REVEAL:
            self._reveal(parts[1])
        elif phase == CLAIM:
            holder = self.claiming
            assert holder is not None
            self.claiming = None
            self._take(int(parts[1]), holder)
            self.refill.insert(0, holder)
        self._history.append(move)
        self._advance()

    def _drop(self, n: int, colour: str) -> None:
        col = self.column_index(n)
        disc = seen_by(self.seat, colour)
        self.board[col].append(disc)
        self.supply = {**self.supply, KIND[disc]: self.supply[KIND[disc]] - 1}  # a new dict: clones share the old
        self.die = None
        self.passing = True
        row = len(self.board[col]) - 1
        # No face-up card was on the board before the drop, so a match must use the new disc.
        board, cards = self.board, self.cards
        matched = [h for h, cid in enumerate(self.holders) if cid is not None and through(board, cards[cid], col, row)]
        for h in matched:
            self._take(self.seat, h)
        self.refill = matched

    def _reveal(self, card_id: str) -> None:
        holder = self.refill.pop(0)
        self.deck.remove(card_id)
        self.holders[holder] = card_id
        if on_board(self.board, self.cards[card_id]):
            if self.rules.claim == "first":
                self.claiming = holder
            else:
                self._take(self.seat, holder)
                self.refill.insert(0, holder)

    def _take(self, seat: int, holder: int) -> None:
        card_id = self.holders[holder]
        assert card_id is not None
        self.won[seat].append(card_id)
        self.holders[holder] = None
        if len(self.won[seat]) >= self.rules.target and self.winner is None:
            self.winner, self.end_reason = seat, "target"

    def _advance(self) -> None:
        """Settle what happens without a choice, then record what the state waits for."""
        if self.winner is not None:
            self.phase = OVER
            return
        if self.claiming is not None:
            self.phase = CLAIM
            return
        if self.refill and self.deck:
            self.phase = REVEAL
            return
        self.refill = []
        if self.passing:
            self.passing = False
            self.seat = 1 - self.seat
            self.turn += 1
        if self.full() and self.lifted < self.rules.lifts:
            self._lift()
        if self.full():
            a, b = self.scores()
            self.winner = None if a == b else (0 if a > b else 1)
            self.end_reason = "full-board"
            self.phase = OVER
            return
        self.phase = DROP if self.die is not None else ROLL

    def _lift(self) -> None:
        """The `lifts` rule: lift the full frame, let every disc fall out, and play on with the same cards."""
        self.board = [[] for _ in range(self.rules.columns)]
        self.supply = {kind: self.rules.disc_supply for kind in KINDS}
        self.lifted += 1

    # --------------------------------------------------------------- JSON

    def to_dict(self) -> dict[str, Any]:
        """The whole position as plain data (documented in docs/double-spot.md)."""
        return SCHEMA.dump(self, {"format": STATE_FORMAT, "version": STATE_VERSION})

    @classmethod
    def _from_fields(cls, doc: dict[str, Any]) -> State:
        state = cls.crafted(doc)
        loader.check(state)
        return state

    @classmethod
    def crafted(cls, doc: dict[str, Any]) -> State:
        """A position from a document, each field read strictly but the whole position not checked: for tests
        and puzzles that set up a corner of the game the rules never reach (``from_dict`` refuses those)."""
        state = cls.__new__(cls)
        SCHEMA.load(state, doc)
        state.cards = {c.id: c for c in standard_deck()}
        state.supply = {kind: state.rules.disc_supply - sum(KIND[c] == kind for col in state.board for c in col)
                        for kind in KINDS}
        state._legal = None
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return render(self, 0)

    def __repr__(self) -> str:
        return f"<double_spot.State turn {self.turn} phase {self.phase} seat {self.seat}>"


def render(state: State, seat: int = 0) -> str:
    """A plain-text picture of the board and cards from ``seat``'s side (for debugging and logs)."""
    view = state.view(seat)
    letter = {"blue": "B", "green": "G", "pink": "P", "yellow": "Y"}
    lines = []
    for row in range(state.rules.rows - 1, -1, -1):
        lines.append(" ".join(letter[col[row]] if row < len(col) else "." for col in view))
    lines.append(" ".join(str(n % 10) for n in range(1, state.rules.columns + 1)))
    for h, card in enumerate(state.showing()):
        lines.append(f"holder {h + 1}: " + ("(empty)" if card is None else f"{card.id} " + "/".join(card.rows(seat))))
    lines.append(f"cards: you {len(state.won[seat])}, opponent {len(state.won[1 - seat])}")
    return "\n".join(lines)


SCHEMA = Schema(State)


class Game(BaseGame[Rules, State]):
    """Double Spot: the rules and a factory of initial states."""

    RULES, STATE, TITLE, NAME = Rules, State, "Double Spot", "double_spot.Game"
