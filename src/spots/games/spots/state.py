"""The Spots state machine: one position, its legal moves and its transitions.

The state follows the protocol of section 10.1 of the rules: every decision and
every chance event is a move in the notation (``trick walk``, ``roll 2 5``,
``place 5 ursula``, ...). Chance is explicit, as in OpenSpiel: at a chance node
``chance_outcomes()`` lists every outcome with its exact probability.

How the procedure is kept: a trick is a sequence of steps (``tricks.py``), and the
state keeps an *agenda*, a stack of typed tasks still to run (``tasks.py``). ``_advance``
runs tasks until one needs a decision or a chance event, which it records in ``phase``;
the decision of each phase is one object (``turns.py``, ``steps.py``, ``rolling.py``,
``procedures.py``). The fields are declared once below, each with how it is copied, keyed
and saved (``fields.py``), so a clone, the position key and the JSON follow from them.
Move text is read at the boundary (``apply_action``) into a typed ``Move`` once per text.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...core.document import SavedState
from ...core.fields import Schema, slot
from ...core.protocol import CHANCE, TERMINAL
from ...core.protocol import Game as BaseGame
from . import load as loader
from .dice import faces_text, roll_distribution, roll_outcomes, roll_text
from .errors import IllegalMoveError, MalformedMoveError
from .keyed import KeyedDice, keyed_reveal, keyed_roll
from .notation import Move, canonical, parse
from .pieces import Dog, Player, Roll, Tile, Trick, remove_dice, sub_multisets
from .procedures import PROCEDURES
from .rolling import ROLL, on_roll
from .rules import Rules
from .steps import CONTINUE, TURN, roll_size
from .tasks import CHANCE_REVEAL, CHANCE_ROLL, OVER, Decision, Task
from .tricks import Step
from .turns import on_first_die, on_reveal, setup_agenda

__all__ = ["CHANCE", "CHANCE_REVEAL", "CHANCE_ROLL", "DECISION_PHASES", "OVER", "STATE_FORMAT", "STATE_VERSION",
           "TERMINAL", "Dog", "Game", "Player", "Roll", "State", "remove_dice", "sub_multisets"]

DECISION_PHASES = tuple(Decision.registry)
assert set(DECISION_PHASES) == {TURN.phase, ROLL.phase, CONTINUE.phase, "take", *PROCEDURES}
STATE_FORMAT = "spots-state"
STATE_VERSION = 1

_MOVES: dict[str, Move] = {}
ONE_DIE = {v: roll_text((v,)) for v in range(1, 7)}
_DECISIONS = Decision.registry
_CHANCE_PHASES = frozenset((CHANCE_ROLL, CHANCE_REVEAL))


def read_move(text: str) -> Move:
    """The typed move of a legal move's text, read once per distinct text."""
    move = _MOVES.get(text)
    if move is None:
        if len(_MOVES) > 200_000:  # texts are a bounded set; this only guards memory
            _MOVES.clear()
        move = _MOVES[text] = parse(text)
    return move


# How the fields below are copied, keyed and saved.
def _copy_each(items: list[Any]) -> list[Any]:
    return [x.copy() for x in items]


def _key_each(items: list[Any]) -> tuple[Any, ...]:
    return tuple([x.key() for x in items])


def _dump_each(items: list[Any]) -> list[Any]:
    return [x.to_dict() for x in items]


def _copy_optional(value: Any) -> Any:
    return None if value is None else value.copy()


def _key_optional(value: Any) -> Any:
    return None if value is None else value.key()


def _dump_optional(value: Any) -> Any:
    return None if value is None else value.to_dict()


def _dump_tasks(tasks: list[Task]) -> list[list[Any]]:
    return [t.to_list() for t in tasks]


@dataclass(init=False, eq=False, repr=False)
class State(SavedState):
    """A position of Spots. See the module docstring and ``docs/state.md``."""

    FORMAT, VERSION, GAME = STATE_FORMAT, STATE_VERSION, "Spots"

    # The fields, in the order of the saved document; each says how it is copied, keyed and saved.
    rules: Rules = field(metadata=slot("rules", key=None, dump=Rules.to_dict, load=loader.rules))
    phase: str | None = field(metadata=slot("phase", load=loader.phase))  # what the state waits for
    seat: int = field(metadata=slot("seat", load=loader.whole_at("seat")))  # whose turn (or setup) it is
    first_player: int | None = field(metadata=slot("first_player", key=None))
    turn: int = field(metadata=slot("turn", load=loader.whole_at("turn")))  # turns started so far
    players: list[Player] = field(metadata=slot("players", copy=_copy_each, key=_key_each, dump=_dump_each,
                                                load=loader.players))
    dice_supply: int = field(metadata=slot("supply.dice", load=loader.whole_at("supply.dice")))
    treat_supply: int = field(metadata=slot("supply.treats", load=loader.whole_at("supply.treats")))
    tiles: list[Tile] = field(metadata=slot("tiles", copy=list, key=tuple, dump=_dump_each, load=loader.tiles))
    deck_top: str | None = field(metadata=slot("deck.top"))
    deck_rest: list[str] = field(metadata=slot("deck.rest", copy=list, key=len, dump=list, load=loader.deck_rest))
    work: Trick | None = field(metadata=slot("trick", copy=_copy_optional, key=_key_optional,
                                             dump=_dump_optional, load=loader.trick))  # the trick in progress
    roll: Roll | None = field(metadata=slot("roll", copy=_copy_optional, key=_key_optional,
                                            dump=_dump_optional, load=loader.roll))  # the dice in hand
    chance_for: tuple[Any, ...] = field(metadata=slot("chance.for", dump=list, load=loader.chance_for, null=()))
    pending_dice: int = field(metadata=slot("chance.dice", load=loader.whole_at("chance.dice"), null=0))
    tied: list[int] = field(metadata=slot("tied", copy=list, key=None, dump=list, load=loader.tied))
    agenda: list[Task] = field(metadata=slot("agenda", copy=list, key=tuple, dump=_dump_tasks,
                                             load=loader.agenda))  # tasks are immutable: shared by copies
    winner: int | None = field(metadata=slot("winner", key=None, load=loader.optional_whole))
    end_reason: str | None = field(metadata=slot("end_reason", key=None))
    busts: list[int] = field(metadata=slot("busts", copy=list, key=None, dump=list, load=loader.busts))
    _history: list[str] = field(metadata=slot("history", copy=list, key=None, dump=list, load=loader.history))

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n = rules.players
        self.players = [Player(treats=rules.starting_treats) for _ in range(n)]
        self.dice_supply = rules.dice
        self.treat_supply = rules.treats - rules.starting_treats * n
        self.tiles = [Tile(name) for name in rules.tricks]
        self.deck_top = None
        self.deck_rest = rules.deck_order()
        self.phase, self.seat, self.first_player, self.turn = None, 0, None, 0
        self.work, self.roll = None, None
        self.chance_for, self.pending_dice = (), 0
        self.tied = list(range(n))
        self.winner, self.end_reason = None, None
        self.busts = [0] * n
        self._history = []
        self._legal: list[str] | None = None
        # Setup: deal each seat's dogs, reveal the top card, roll the first dice, break ties.
        self.agenda = setup_agenda(n, rules.starting_dogs)
        self._advance()

    # ----------------------------------------------------------------- queries

    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase in _CHANCE_PHASES:
            return CHANCE
        return self.seat

    def is_chance_node(self) -> bool:
        return self.phase in _CHANCE_PHASES

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def history(self) -> list[str]:
        return list(self._history)

    def paws(self, seat: int) -> int:
        cards = self.rules.cards
        return sum([cards[d.name].paws for d in self.players[seat].dogs if not d.scored])

    def returns(self) -> list[float]:
        """1 for the winner, 0 otherwise; at the safety limit the leaders share 1."""
        n = self.rules.players
        if self.phase != OVER:
            return [0.0] * n
        if self.winner is not None:
            return [1.0 if s == self.winner else 0.0 for s in range(n)]
        scores = [p.scored_count() for p in self.players]
        best = max(scores)
        leaders = scores.count(best)
        return [1.0 / leaders if score == best else 0.0 for score in scores]

    def legal_actions(self) -> list[str]:
        """The legal moves (or chance outcomes) in notation, in a stable order."""
        legal = self._legal
        if legal is None:
            decision = _DECISIONS.get(self.phase)  # type: ignore[arg-type]
            legal = self._legal = decision.moves(self) if decision is not None else self._compute_legal()
        return legal[:]  # a copy: the cached list is shared by clones and never changed

    def chance_outcomes(self, exact: bool = False) -> list[tuple[str, Any]]:
        """Every outcome of the pending chance event with its probability.

        ``exact=True`` gives ``fractions.Fraction`` probabilities.
        """
        if self.phase == CHANCE_ROLL:
            if exact:
                return [("roll " + faces_text(f), p) for f, p in roll_distribution(self.pending_dice)]
            return list(roll_outcomes(self.pending_dice))
        if self.phase == CHANCE_REVEAL:
            share = Fraction(1, len(self.deck_rest))
            return [("reveal " + name, share if exact else float(share)) for name in self.deck_rest]
        return []

    def roll_size(self, step: Step, planning: bool = False) -> int:
        """Dice the next roll of this step would have, given the supply (see ``steps.roll_size``)."""
        return roll_size(self, step, planning)

    # The trick's working values, read from the trick in progress (0 or None between tricks).
    trick = property(lambda self: self.work and self.work.name, doc="the trick in progress, or None")
    step = property(lambda self: self.work.step if self.work else 0, doc="index of the trick's step")
    rolls_in_step = property(lambda self: self.work.rolls_in_step if self.work else 0)
    set_aside = property(lambda self: self.work.set_aside if self.work else 0, doc="Bolt's dice not yet rolled")
    taken = property(lambda self: bool(self.work and self.work.taken), doc="Dogpile's extra die is taken")
    guard = property(lambda self: self.work.guard if self.work else None, doc="Guard's named number")
    digs_left = property(lambda self: self.work.digs_left if self.work else 0, doc="Dig's adjustments left")
    offer = property(lambda self: self.work.offer if self.work else None, doc="what continue runs")
    face_up = property(lambda self: [t.face_up for t in self.tiles], doc="per tile in play: face up")
    tile_treats = property(lambda self: [t.treats for t in self.tiles], doc="per tile in play: its treats")

    # ------------------------------------------------------------- transitions

    def apply_action(self, action: object, player: int | None = None) -> None:
        """Apply a move given as notation text (or anything whose ``str`` is notation).

        ``player``, when given, is the seat sending the move; a move sent for a
        seat whose turn it is not is refused. A refused move changes nothing.
        """
        legal = self._legal
        if player is None and legal is not None and action in legal:
            # The common case, a move just listed by legal_actions(): nothing to check
            # (the list is dropped at every transition, and is empty once the game is over).
            self._apply(action, _MOVES.get(action) or read_move(action))
            return
        text = action if isinstance(action, str) else str(action)
        if self.phase == OVER:
            raise IllegalMoveError(text, "the game is over; no move is accepted", [])
        if player is not None and player != self.current_player():
            who = "a chance event" if self.is_chance_node() else f"seat {self.seat}"
            raise IllegalMoveError(
                text, f"seat {player} cannot move now: it is {who}'s turn", self._legal_for_message()
            )
        legal = self._legal
        if legal is None and self.phase != CHANCE_ROLL:
            legal = self._legal = self._compute_legal()
        if legal is None or text not in legal:  # a roll, or a move not written as the engine writes it
            text = self._validate(text)
        self._apply(text, _MOVES.get(text) or read_move(text))

    def apply_trusted(self, move: str) -> None:
        """Apply a move taken from ``legal_actions()`` without checking it again (for search)."""
        self._apply(move, _MOVES.get(move) or read_move(move))

    def sample_chance(self, rng: random.Random) -> str:
        """Draw the pending chance event from ``rng``, apply it and return its notation.

        Under keyed rules a ``KeyedDice`` gives the deal's keyed dice and cards (``keyed.py``); any other
        generator (a bot's search) draws ordinary random ones.
        """
        if rng.__class__ is KeyedDice and self.rules.keyed_dice == "on":
            return self._sample_keyed(rng)
        if self.phase == CHANCE_ROLL:
            draw = rng.random
            if self.pending_dice == 1:  # the commonest roll, without the sorting
                face = int(draw() * 6) + 1
                self._land([face], ONE_DIE[face])
            else:
                faces = sorted([int(draw() * 6) + 1 for _ in range(self.pending_dice)])
                self._land(faces, roll_text(tuple(faces)))
        elif self.phase == CHANCE_REVEAL:
            text = "reveal " + self.deck_rest[int(rng.random() * len(self.deck_rest))]
            self._apply(text, read_move(text))
        else:
            raise IllegalMoveError("sample_chance", "this is not a chance node", self._legal_for_message())
        return self._history[-1]

    def _sample_keyed(self, dice: KeyedDice) -> str:
        if self.phase == CHANCE_ROLL:
            faces = keyed_roll(self, dice)
            self._land(faces, roll_text(tuple(faces)))
        elif self.phase == CHANCE_REVEAL:
            text = "reveal " + keyed_reveal(self, dice)
            self._apply(text, read_move(text))
        else:
            raise IllegalMoveError("sample_chance", "this is not a chance node", self._legal_for_message())
        return self._history[-1]

    def clone(self) -> State:
        return SCHEMA.clone(self)

    def key(self) -> tuple[Any, ...]:
        """A hashable summary of the position (not its history): equal keys, equal futures."""
        return SCHEMA.key(self)

    # The engine's own steps call these.

    def push(self, *tasks: Task) -> None:
        """Push tasks so that the first one given runs first."""
        self.agenda.extend(reversed(tasks))

    def ask_roll(self, dice: int, purpose: tuple[Any, ...]) -> None:
        """Wait for a chance event: a roll of ``dice`` dice for ``purpose`` (``("roll",)``, ...)."""
        self.phase = CHANCE_ROLL
        self.pending_dice = dice
        self.chance_for = purpose

    # The rest of this class is the machinery behind the public methods.

    def _validate(self, text: str) -> str:
        if self.phase == CHANCE_ROLL:
            try:
                move = canonical(text)
            except MalformedMoveError as exc:
                raise MalformedMoveError(text, exc.reason, self._legal_for_message()) from None
            parts = move.split()
            if parts[0] != "roll" or len(parts) - 1 != self.pending_dice:
                raise IllegalMoveError(
                    text, f"illegal chance outcome: a roll of {self.pending_dice} dice is pending",
                    [f"roll followed by {self.pending_dice} faces from 1 to 6, ascending"],
                )
            return move
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if text in legal:
            return text
        try:
            move = canonical(text)
        except MalformedMoveError as exc:
            raise MalformedMoveError(text, exc.reason, list(legal)) from None
        if move not in legal:
            raise IllegalMoveError(text, self._why_illegal(move), list(legal))
        return move

    def _legal_for_message(self) -> list[str]:
        if self.phase == CHANCE_ROLL:
            return [f"roll followed by {self.pending_dice} faces from 1 to 6, ascending"]
        return self.legal_actions()

    def _why_illegal(self, move: str) -> str:
        where = {
            "turn": "at the start of a turn",
            "roll": "while resolving a roll",
            "continue": "when asked whether to roll again",
        }.get(self.phase or "", f"at this point ({self.phase})")
        who = "chance" if self.is_chance_node() else f"seat {self.seat}"
        return f"illegal move for {who} {where}"

    def _apply(self, text: str, move: Move) -> None:
        phase = self.phase
        if phase == CHANCE_ROLL:
            self._land([int(v) for v in move.args], text)
            return
        self.phase = None
        self._legal = None
        if phase == CHANCE_REVEAL:
            on_reveal(self, str(move.args[0]))
            self.chance_for = ()
        else:
            _DECISIONS[phase].apply(self, move)  # type: ignore[index]
        self._history.append(text)
        if self.phase is None:
            self._advance()

    def _land(self, faces: list[int], text: str) -> None:
        """The pending roll shows ``faces`` (sorted; the list becomes the state's)."""
        self.phase = None
        self._legal = None
        if self.chance_for[0] == "first-die":
            on_first_die(self, faces)
        else:
            on_roll(self, faces)
        self.pending_dice, self.chance_for = 0, ()
        self._history.append(text)
        if self.phase is None:
            self._advance()

    def _advance(self) -> None:
        agenda = self.agenda
        while self.phase is None:
            if not agenda:
                raise AssertionError("the agenda ran dry")  # a bug, never a player's doing
            agenda.pop().run(self)
            agenda = self.agenda  # a bust replaces the agenda

    def _compute_legal(self) -> list[str]:
        phase = self.phase
        if phase == CHANCE_ROLL:
            return [text for text, _ in roll_outcomes(self.pending_dice)]
        if phase == CHANCE_REVEAL:
            return ["reveal " + name for name in self.deck_rest]
        decision = Decision.registry.get(phase)  # type: ignore[arg-type]
        return decision.moves(self) if decision is not None else []

    # --------------------------------------------------------------- conservation

    def dice_in_hand(self) -> int:
        """Dice out of the supply but neither on a dog nor in a yard (rolling, set aside)."""
        hand = self.set_aside + (1 if self.phase == "retrieve" else 0)
        if self.roll is not None:
            hand += len(self.roll.dice) + len(self.roll.held)
        if self.phase == CHANCE_ROLL and self.chance_for[0] == "roll":
            hand += self.pending_dice
        return hand

    def dice_total(self) -> int:
        return (
            self.dice_supply
            + sum(p.dice_on_dogs() + len(p.yard) for p in self.players)
            + self.dice_in_hand()
        )

    def treats_total(self) -> int:
        return self.treat_supply + sum(p.treats for p in self.players) + sum(t.treats for t in self.tiles)

    # --------------------------------------------------------------- JSON

    def to_dict(self) -> dict[str, Any]:
        """The whole position as plain data; the schema is documented in docs/state.md."""
        doc = SCHEMA.dump(self, {"format": STATE_FORMAT, "version": STATE_VERSION})
        if not self.is_chance_node():
            doc["chance"] = None
        return doc

    @classmethod
    def _from_fields(cls, doc: dict[str, Any]) -> State:
        state = cls.__new__(cls)
        SCHEMA.load(state, doc)
        state._legal = None
        loader.check(state)
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        from .words import render

        return render(self)

    def __repr__(self) -> str:
        return f"<spots.State turn {self.turn} phase {self.phase} seat {self.seat}>"


SCHEMA = Schema(State)


class Game(BaseGame[Rules, State]):
    """Spots: the rules and a factory of initial states (``spots.Game(spots.Rules(players=3))``)."""

    RULES, STATE, TITLE = Rules, State, "Spots"
