"""The Spots state machine: one position, its legal moves and its transitions.

The state follows the protocol of section 10.1 of the rules: every decision and
every chance event is a move in the notation (``trick walk``, ``roll 2 5``,
``place 5 ursula``, ...). Chance is explicit, as in OpenSpiel: at a chance node
``chance_outcomes()`` lists every outcome with its exact probability.

How the procedure is kept: a trick is a sequence of steps (``tricks.py``), and
the state keeps an *agenda*, a stack of small tasks still to run (``("step", 1)``,
``("fast",)``, ``("endturn",)``, ...). ``_advance`` pops tasks until one needs a
decision or a chance event, which it records in ``phase``. Everything is plain
data, so a state is cloned cheaply and saved to JSON losslessly.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, product
from typing import Any, NamedTuple

from ..core.document import SavedState, whole
from ..core.protocol import CHANCE, TERMINAL
from .dice import faces_text, roll_distribution, roll_outcomes
from .errors import IllegalMoveError, RulesError, StateFormatError
from .notation import canonical
from .rules import Rules
from .tricks import TILES, TREAT_FORMULAS, Step

# Phases: what the state waits for.
CHANCE_ROLL = "chance-roll"
CHANCE_REVEAL = "chance-reveal"
OVER = "over"
DECISION_PHASES = ("turn", "roll", "continue", "trot", "dig", "retrieve", "bolt", "take", "guard")

STATE_FORMAT = "spots-state"
STATE_VERSION = 1


class Dog(NamedTuple):
    """A dog in a player's pack: the card's spaces, the faces with a die on them."""

    name: str
    spaces: tuple[int, ...]
    filled: tuple[int, ...] = ()
    scored: bool = False

    @property
    def complete(self) -> bool:
        return len(self.filled) == len(self.spaces)

    def empty_spaces(self) -> tuple[int, ...]:
        return tuple(v for v in self.spaces if v not in self.filled)


@dataclass(slots=True)
class Player:
    dogs: list[Dog] = field(default_factory=list)
    yard: list[int] = field(default_factory=list)
    treats: int = 0

    def copy(self) -> Player:
        return Player(list(self.dogs), list(self.yard), self.treats)

    def unscored(self) -> list[Dog]:
        return [d for d in self.dogs if not d.scored]

    def scored_count(self) -> int:
        return sum(1 for d in self.dogs if d.scored)

    def yard_total(self) -> int:
        return sum(self.yard)

    def dice_on_dogs(self) -> int:
        return sum(len(d.filled) for d in self.dogs)


@dataclass(slots=True)
class Roll:
    """The dice of the most recent roll that are still in the roller's hand.

    size: how many dice the roll had (a reroll rolls them all again).
    mode: the tile's rule for keeping dice (``fetch``, ``guard``, ...), or None.
    choosing: the keep rule still to apply now (``nothing`` when nothing can be
        kept and only ``reroll``/``stop`` remain), or None once dice are chosen.
    fresh: no die of the roll has been placed, buried or chosen yet.
    held: dice kept aside while Track rerolls the others.
    """

    size: int
    dice: list[int] = field(default_factory=list)
    mode: str | None = None
    choosing: str | None = None
    fresh: bool = True
    partial: bool = False
    bonus: str | None = None
    held: list[int] = field(default_factory=list)

    def copy(self) -> Roll:
        return Roll(self.size, list(self.dice), self.mode, self.choosing, self.fresh,
                    self.partial, self.bonus, list(self.held))


def sub_multisets(dice: list[int]) -> list[tuple[int, ...]]:
    """Every distinct sub-multiset of some dice, as ascending tuples, smallest first."""
    counts = sorted(Counter(dice).items())
    out = []
    for picks in product(*(range(c + 1) for _, c in counts)):
        out.append(tuple(v for (v, _), n in zip(counts, picks, strict=True) for _ in range(n)))
    out.sort(key=lambda s: (len(s), s))
    return out


def remove_dice(dice: list[int], taken: tuple[int, ...] | list[int]) -> list[int]:
    rest = list(dice)
    for v in taken:
        rest.remove(v)
    return rest


class Game:
    """A game definition: the rules, and a factory of initial states."""

    def __init__(self, rules: Rules | None = None, **options: Any) -> None:
        if rules is not None and options:
            raise RulesError("give either a Rules object or keyword options, not both")
        self.rules = rules if rules is not None else Rules(**options)

    def num_players(self) -> int:
        return self.rules.players

    def new_initial_state(self) -> State:
        return State(self.rules)

    def __repr__(self) -> str:
        return f"Game({self.rules!r})"


class State(SavedState):
    """A position of Spots. See the module docstring and ``docs/state.md``."""

    FORMAT, VERSION, GAME = STATE_FORMAT, STATE_VERSION, "Spots"

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n = rules.players
        self.players = [Player(treats=rules.starting_treats) for _ in range(n)]
        self.dice_supply = rules.dice
        self.treat_supply = rules.treats - rules.starting_treats * n
        self.face_up = [True] * len(rules.tricks)
        self.tile_treats = [0] * len(rules.tricks)
        self.deck_top: str | None = None
        self.deck_rest: list[str] = rules.deck_order()
        self.seat = 0  # whose turn it is (or who is being set up)
        self.first_player: int | None = None
        self.turn = 0  # turns started so far
        self.phase: str | None = None
        self.agenda: list[list[Any]] = []
        self.chance_for: list[Any] = []  # what the pending chance event is for
        self.pending_dice = 0  # dice in the pending roll chance event
        self.trick: str | None = None
        self.step = 0
        self.rolls_in_step = 0
        self.roll: Roll | None = None
        self.set_aside = 0  # Bolt's dice not yet rolled
        self.taken = False  # Dogpile's extra die is waiting in the supply for the roll
        self.guard: int | None = None
        self.digs_left = 0
        self.offer: list[Any] = []  # what ``continue`` does
        self.tied: list[int] = list(range(n))
        self.winner: int | None = None
        self.end_reason: str | None = None
        self.busts = [0] * n  # how often each seat has busted (for summaries)
        self._history: list[str] = []
        self._legal: list[str] | None = None
        # Setup: deal each seat's dogs, reveal the top card, roll the first dice, break ties.
        tasks: list[list[Any]] = [["deal", s] for s in range(n) for _ in range(rules.starting_dogs)]
        tasks += [["top"]] + [["first-die", s] for s in range(n)] + [["tie"]]
        self.agenda = tasks[::-1]
        self._advance()

    # ----------------------------------------------------------------- queries

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase in (CHANCE_ROLL, CHANCE_REVEAL):
            return CHANCE
        return self.seat

    def is_chance_node(self) -> bool:
        return self.phase in (CHANCE_ROLL, CHANCE_REVEAL)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def history(self) -> list[str]:
        return list(self._history)

    def paws(self, seat: int) -> int:
        cards = self.rules.cards
        return sum(cards[d.name].paws for d in self.players[seat].dogs if not d.scored)

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
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

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

    # ------------------------------------------------------------- transitions

    def apply_action(self, action: object, player: int | None = None) -> None:
        """Apply a move given as notation text (or anything whose ``str`` is notation).

        ``player``, when given, is the seat sending the move; a move sent for a
        seat whose turn it is not is refused. A refused move changes nothing.
        """
        text = action if isinstance(action, str) else str(action)
        if self.phase == OVER:
            raise IllegalMoveError(text, "the game is over; no move is accepted", [])
        if player is not None and player != self.current_player():
            who = "a chance event" if self.is_chance_node() else f"seat {self.seat}"
            raise IllegalMoveError(
                text, f"seat {player} cannot move now: it is {who}'s turn", self._legal_for_message()
            )
        text = self._validate(text)
        self._apply(text)

    def apply_trusted(self, move: str) -> None:
        """Apply a move taken from ``legal_actions()`` without checking it again (for search)."""
        self._apply(move)

    def sample_chance(self, rng: random.Random) -> str:
        """Draw the pending chance event from ``rng``, apply it and return its notation."""
        if self.phase == CHANCE_ROLL:
            faces = sorted(int(rng.random() * 6) + 1 for _ in range(self.pending_dice))
            text = "roll " + faces_text(faces)
        elif self.phase == CHANCE_REVEAL:
            text = "reveal " + self.deck_rest[int(rng.random() * len(self.deck_rest))]
        else:
            raise IllegalMoveError("sample_chance", "this is not a chance node", self._legal_for_message())
        self._apply(text)
        return text

    def clone(self) -> State:
        other = State.__new__(State)
        for name, value in self.__dict__.items():
            other.__dict__[name] = value
        other.players = [p.copy() for p in self.players]
        other.face_up = list(self.face_up)
        other.tile_treats = list(self.tile_treats)
        other.deck_rest = list(self.deck_rest)
        other.agenda = list(self.agenda)  # tasks are never mutated in place
        other.roll = self.roll.copy() if self.roll is not None else None
        other.tied = list(self.tied)
        other.busts = list(self.busts)
        other._history = list(self._history)
        return other

    def key(self) -> tuple[Any, ...]:
        """A hashable summary of the position (not its history): equal keys, equal futures."""
        roll = self.roll
        return (
            self.phase, self.seat, self.turn, self.dice_supply, self.treat_supply,
            tuple((tuple(p.dogs), tuple(sorted(p.yard)), p.treats) for p in self.players),
            tuple(self.face_up), tuple(self.tile_treats), self.deck_top, len(self.deck_rest),
            tuple(tuple(t) for t in self.agenda), self.pending_dice, tuple(self.chance_for),
            self.trick, self.step, self.rolls_in_step, self.set_aside, self.taken, self.guard,
            self.digs_left, tuple(self.offer),
            None if roll is None else (
                tuple(roll.dice), roll.size, roll.mode, roll.choosing, roll.fresh, tuple(roll.held)
            ),
        )

    # The rest of this class is the machinery behind the public methods.

    def _validate(self, text: str) -> str:
        if self.phase == CHANCE_ROLL:
            try:
                move = canonical(text)
            except IllegalMoveError as exc:
                raise IllegalMoveError(text, exc.reason, self._legal_for_message()) from None
            parts = move.split()
            if parts[0] != "roll" or len(parts) - 1 != self.pending_dice:
                raise IllegalMoveError(
                    text, f"illegal chance outcome: a roll of {self.pending_dice} dice is pending",
                    [f"roll followed by {self.pending_dice} faces from 1 to 6, ascending"],
                )
            return move
        legal = self.legal_actions()
        if text in legal:
            return text
        try:
            move = canonical(text)
        except IllegalMoveError as exc:
            raise IllegalMoveError(text, exc.reason, legal) from None
        if move not in legal:
            raise IllegalMoveError(text, self._why_illegal(move), legal)
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

    def _apply(self, text: str) -> None:
        parts = text.split()
        phase = self.phase
        self.phase = None
        self._legal = None
        if phase == CHANCE_ROLL:
            self._on_roll([int(v) for v in parts[1:]])
            self.pending_dice, self.chance_for = 0, []
        elif phase == CHANCE_REVEAL:
            self._on_reveal(parts[1])
            self.chance_for = []
        else:
            getattr(self, "_do_" + phase.replace("-", "_"))(parts)  # type: ignore[union-attr]
        self._history.append(text)
        self._advance()

    def _advance(self) -> None:
        while self.phase is None:
            if not self.agenda:
                raise AssertionError("the agenda ran dry")  # a bug, never a player's doing
            task = self.agenda.pop()
            getattr(self, "_task_" + task[0].replace("-", "_"))(*task[1:])

    def _push(self, *tasks: list[Any]) -> None:
        """Push tasks so that the first one given runs first."""
        self.agenda.extend(reversed(tasks))

    def _ask_chance_roll(self, dice: int, purpose: list[Any]) -> None:
        self.phase = CHANCE_ROLL
        self.pending_dice = dice
        self.chance_for = purpose

    # --------------------------------------------------------------- setup

    def _task_deal(self, seat: int) -> None:
        self.phase = CHANCE_REVEAL
        self.chance_for = ["deal", seat]

    def _task_top(self) -> None:
        if self.deck_rest:
            self.phase = CHANCE_REVEAL
            self.chance_for = ["top"]

    def _task_first_die(self, seat: int) -> None:
        self._ask_chance_roll(1, ["first-die", seat])

    def _task_tie(self) -> None:
        best = max(self.players[s].yard[0] for s in self.tied)
        self.tied = [s for s in self.tied if self.players[s].yard[0] == best]
        if len(self.tied) > 1:
            self._push(*[["first-die", s] for s in self.tied], ["tie"])
            return
        self.first_player = self.seat = self.tied[0]
        self.turn = 1
        self._start_turn()

    def _on_reveal(self, name: str) -> None:
        self.deck_rest.remove(name)
        if self.chance_for[0] == "deal":
            seat = self.chance_for[1]
            self.players[seat].dogs.append(Dog(name, self.rules.cards[name].spaces))
        else:
            self.deck_top = name

    # --------------------------------------------------------------- turns

    def _start_turn(self) -> None:
        if self.dice_supply == 0:
            for s in range(self.rules.players):
                self._bust(s)
        if sum(self.face_up) == 1:
            last = self.face_up.index(True)
            if self.treat_supply > 0:
                self.tile_treats[last] += 1
                self.treat_supply -= 1
            self.face_up = [True] * len(self.face_up)
        self.phase = "turn"

    def _task_endturn(self) -> None:
        # Forget the trick's working values, so equal positions are equal objects.
        self.trick, self.roll, self.guard, self.offer = None, None, None, []
        self.step = self.rolls_in_step = self.digs_left = self.set_aside = 0
        self.taken = False
        if self.turn >= self.rules.turn_limit:
            self._finish(None, "turn limit")
            return
        self.seat = (self.seat + 1) % self.rules.players
        self.turn += 1
        self._start_turn()

    def _do_turn(self, parts: list[str]) -> None:
        if parts[0] == "score":
            scored = self._score()
            if self.phase != OVER:
                self._push(["draw", scored], ["endturn"])
            return
        name = parts[1]
        index = self.rules.tricks.index(name)
        self.face_up[index] = False
        self.players[self.seat].treats += self.tile_treats[index]
        self.tile_treats[index] = 0
        self.trick = name
        steps = TILES[name].steps
        self._push(*[["step", i] for i in range(len(steps))], ["endturn"])

    def _score(self) -> int:
        """Score every complete unscored dog of the player whose turn it is."""
        player = self.players[self.seat]
        count = 0
        for i, dog in enumerate(player.dogs):
            if not dog.scored and dog.complete:
                self.dice_supply += len(dog.filled)
                player.dogs[i] = dog._replace(filled=(), scored=True)
                count += 1
        if player.scored_count() >= self.rules.target:
            self._finish(self.seat, "target")
        return count

    def _task_draw(self, count: int) -> None:
        player = self.players[self.seat]
        if count <= 0 or len(player.dogs) >= self.rules.dog_limit or self.deck_top is None:
            return
        name = self.deck_top
        player.dogs.append(Dog(name, self.rules.cards[name].spaces))
        self.deck_top = None
        self._push(["draw", count - 1])
        if self.deck_rest:
            self.phase = CHANCE_REVEAL
            self.chance_for = ["top"]

    def _bust(self, seat: int) -> None:
        """Return every die on the seat's unscored dogs and in its yard to the supply."""
        player = self.players[seat]
        self.busts[seat] += 1
        self.dice_supply += player.dice_on_dogs() + len(player.yard)
        player.dogs = [d._replace(filled=()) if d.filled else d for d in player.dogs]
        player.yard = []
        if seat == self.seat and self.trick is not None:
            # The turn ends at once: dice in hand go back, the trick is abandoned.
            self._return_hand()
            self.agenda = [["endturn"]]
            self.phase = None

    def _return_hand(self) -> None:
        if self.roll is not None:
            self.dice_supply += len(self.roll.dice) + len(self.roll.held)
            self.roll = None
        self.dice_supply += self.set_aside
        self.set_aside = 0
        self.taken = False

    def _finish(self, winner: int | None, reason: str) -> None:
        self._return_hand()
        self.winner = winner
        self.end_reason = reason
        self.agenda = []
        self.phase = OVER

    # --------------------------------------------------------------- steps

    def _current_step(self, index: int) -> Step:
        return TILES[self.trick].steps[index]  # type: ignore[index]

    def _task_step(self, index: int) -> None:
        self.step = index
        self.rolls_in_step = 0
        step = self._current_step(index)
        player = self.players[self.seat]
        if step.kind == "roll":
            self._push(["offer", index] if step.optional else ["roll", index])
        elif step.kind == "draw":
            self._push(["draw", 1])
        elif step.kind == "treats":
            empty = [v for d in player.unscored() for v in d.empty_spaces()]
            down = sum(1 for t, up in zip(self.rules.tricks, self.face_up, strict=True) if not up and t != "stay")
            take, give_back = TREAT_FORMULAS[step.treats](  # type: ignore[index]
                player.treats, self.paws(self.seat), max(empty, default=0), down
            )
            self._gain_treats(take)
            give_back = min(give_back, player.treats)
            player.treats -= give_back
            self.treat_supply += give_back
        elif step.kind == "trot":
            if self._trot_moves():
                self.phase = "trot"
        elif step.kind == "dig":
            self.digs_left = self.paws(self.seat)
            self._push(["dig"])
        elif step.kind == "retrieve":
            if self.deck_top is not None and self.dice_supply > 0:
                self.dice_supply -= 1
                self.phase = "retrieve"
        elif step.kind == "bolt":
            if self.dice_supply >= 3:
                self.phase = "bolt"
            else:
                self.set_aside, self.dice_supply = self.dice_supply, 0
                if self.set_aside:
                    self._push(["bolt-roll"])
        elif step.kind == "guard":
            self.phase = "guard"
        else:  # pragma: no cover - a tile table error
            raise AssertionError(f"unknown step kind {step.kind}")

    def _gain_treats(self, count: int) -> None:
        count = min(count, self.treat_supply)
        self.treat_supply -= count
        self.players[self.seat].treats += count

    def roll_size(self, step: Step, planning: bool = False) -> int:
        """Dice the next roll of this step would have, given the supply.

        ``planning``: asked before a Dogpile roll, when the extra die is not taken yet.
        """
        player = self.players[self.seat]
        if step.source == "yard":
            return len(player.yard)
        if step.dice == "sprint":
            wanted = sum(1 for d in player.unscored() if not d.complete)
        elif step.dice == "hunt":
            wanted = 2 + self.paws(self.seat)
        else:
            wanted = int(step.dice) + (self.rolls_in_step if step.grow else 0)
        if step.source == "dogpile":
            extra = (self._has_die_to_take() if planning else self.taken)
            return min(wanted, self.dice_supply - (0 if planning else int(self.taken))) + int(extra)
        return min(wanted, self.dice_supply)

    def _task_offer(self, index: int) -> None:
        if self.roll_size(self._current_step(index), planning=True) > 0:
            self.phase = "continue"
            self.offer = ["roll", index]

    def _task_roll(self, index: int) -> None:
        step = self._current_step(index)
        if step.source == "dogpile" and not self.taken and self._has_die_to_take():
            self._push(["roll", index])
            self.phase = "take"
            return
        size = self.roll_size(step)
        self.taken = False
        if size == 0:
            return
        self.rolls_in_step += 1
        if step.repeat:
            self._push(["fast"], ["offer", index])
        else:
            self._push(["fast"])
        if step.source == "yard":
            player = self.players[self.seat]
            self.dice_supply += len(player.yard)
            player.yard = []
        self.dice_supply -= size
        keep = step.keep
        self.roll = Roll(size, mode=keep, partial=step.partial_reroll, bonus=step.bonus)
        self._ask_chance_roll(size, ["roll"])

    def _task_fast(self) -> None:
        """Fast and risky: every unscored dog complete after a roll scores at once."""
        unscored = self.players[self.seat].unscored()
        if unscored and all(d.complete for d in unscored):
            scored = self._score()
            if self.phase != OVER:
                self._push(["draw", scored])

    # Bolt
    def _do_bolt(self, parts: list[str]) -> None:
        self.set_aside = int(parts[1])
        self.dice_supply -= self.set_aside
        self._push(["bolt-roll"])

    def _task_bolt_roll(self) -> None:
        self.set_aside -= 1
        self._push(["fast"], ["bolt-next"])
        self.roll = Roll(1)
        self._ask_chance_roll(1, ["roll"])

    def _task_bolt_next(self) -> None:
        if self.set_aside == 0:
            return
        if self.paws(self.seat) >= self.set_aside:
            self.phase = "continue"
            self.offer = ["bolt-roll"]
        else:
            self._push(["bolt-roll"])

    def _do_continue(self, parts: list[str]) -> None:
        if parts[0] == "continue":
            self._push(self.offer)
        elif self.offer == ["bolt-roll"]:
            self.dice_supply += self.set_aside
            self.set_aside = 0
        self.offer = []

    # Trot
    def _trot_moves(self) -> list[str]:
        dogs = self.players[self.seat].unscored()
        targets = [(d.name, v) for d in dogs for v in d.empty_spaces()]
        return [f"move {src.name} {v} {dst} {w}" for src in dogs for v in src.filled for dst, w in targets]

    def _do_trot(self, parts: list[str]) -> None:
        if parts[0] == "stop":
            return
        _, src, v, dst, w = parts
        self._take_from_dog(src, int(v))
        self._put_on_dog(dst, int(w))

    def _dog_index(self, name: str) -> int:
        for i, d in enumerate(self.players[self.seat].dogs):
            if d.name == name:
                return i
        raise AssertionError(name)

    def _take_from_dog(self, name: str, value: int) -> None:
        dogs = self.players[self.seat].dogs
        i = self._dog_index(name)
        dogs[i] = dogs[i]._replace(filled=tuple(f for f in dogs[i].filled if f != value))

    def _put_on_dog(self, name: str, value: int) -> None:
        dogs = self.players[self.seat].dogs
        i = self._dog_index(name)
        dogs[i] = dogs[i]._replace(filled=tuple(sorted((*dogs[i].filled, value))))

    # Dig
    def _dig_moves(self) -> list[str]:
        moves = []
        for s, p in enumerate(self.players):
            for v in sorted(set(p.yard)):
                if v < 6:
                    moves.append(f"dig {s} {v} up")
                moves.append(f"dig {s} {v} down")
        return moves

    def _task_dig(self) -> None:
        if self.digs_left > 0 and self._dig_moves():
            self.phase = "dig"

    def _do_dig(self, parts: list[str]) -> None:
        if parts[0] == "stop":
            self.digs_left = 0
            return
        self.digs_left -= 1
        seat, value = int(parts[1]), int(parts[2])
        yard = self.players[seat].yard
        i = yard.index(value)
        if parts[3] == "up":
            yard[i] = value + 1
        elif value == 1:
            del yard[i]
            self.dice_supply += 1
        else:
            yard[i] = value - 1
        self._push(["dig"])
        if sum(yard) > self.rules.bust_limit:
            self._bust(seat)

    # Retrieve and Guard
    def _do_retrieve(self, parts: list[str]) -> None:
        self.roll = Roll(1, dice=[int(parts[1])], fresh=False)
        self._push(["fast"])
        self.phase = "roll"

    def _do_guard(self, parts: list[str]) -> None:
        self.guard = int(parts[1])

    # Dogpile
    def _has_die_to_take(self) -> bool:
        player = self.players[self.seat]
        return bool(player.yard) or any(d.filled for d in player.unscored())

    def _take_moves(self) -> list[str]:
        player = self.players[self.seat]
        moves = [f"take yard {v}" for v in sorted(set(player.yard))]
        moves += [f"take {d.name} {v}" for d in player.unscored() for v in d.filled]
        return moves

    def _do_take(self, parts: list[str]) -> None:
        value = int(parts[2])
        if parts[1] == "yard":
            self.players[self.seat].yard.remove(value)
        else:
            self._take_from_dog(parts[1], value)
        self.dice_supply += 1
        self.taken = True

    # --------------------------------------------------------------- rolls

    def _on_roll(self, faces: list[int]) -> None:
        purpose = self.chance_for[0]
        if purpose == "first-die":
            player = self.players[self.chance_for[1]]
            if not player.yard:
                self.dice_supply -= 1
            player.yard = faces  # a tie roll replaces the buried die
            return
        roll = self.roll
        assert roll is not None
        roll.dice = sorted(roll.held + faces) if roll.held else faces
        roll.held = []
        roll.fresh = True
        roll.choosing = roll.mode
        if roll.mode == "guard":
            kept = [v for v in roll.dice if v <= (self.guard or 0)]
            self.dice_supply += len(roll.dice) - len(kept)
            roll.dice = kept
            roll.choosing = None if kept else "nothing"
        elif roll.mode == "search":
            if not any(sum(s) == 8 for s in sub_multisets(roll.dice)):
                roll.choosing = "nothing"
        elif roll.mode == "scavenge" and not any(v < self.players[self.seat].yard_total() for v in roll.dice):
            roll.choosing = None
        if roll.choosing == "nothing" and self.players[self.seat].treats == 0:
            self._end_roll()
            return
        self.phase = "roll"

    def _end_roll(self) -> None:
        """The roll is over: dice not placed or buried go back to the supply."""
        if self.roll is not None:
            self.dice_supply += len(self.roll.dice)
        self.roll = None

    def _roll_moves(self) -> list[str]:
        roll = self.roll
        assert roll is not None
        moves = []
        if roll.fresh and self.players[self.seat].treats > 0:
            if roll.partial:
                moves += ["reroll " + faces_text(s) for s in sub_multisets(roll.dice) if s]
            else:
                moves.append("reroll")
        dice = roll.dice
        if roll.choosing == "nothing":
            moves.append("stop")
        elif roll.choosing == "fetch":
            moves += [f"choose {v}" for v in sorted(set(dice))]
        elif roll.choosing == "hunt":
            picks = [tuple(dice)] if len(dice) <= 2 else sorted(set(combinations(dice, 2)))
            moves += ["pick " + faces_text(p) for p in picks]
        elif roll.choosing == "search":
            moves += ["pick " + faces_text(s) for s in sub_multisets(dice) if sum(s) == 8]
        elif roll.choosing == "scavenge":
            total = self.players[self.seat].yard_total()
            for s in sub_multisets([v for v in dice if v < total]):
                moves.append(("discard " + faces_text(s)) if s else "discard")
        else:
            dogs = self.players[self.seat].unscored()
            for v in sorted(set(dice)):
                moves += [f"place {v} {d.name}" for d in dogs if v in d.spaces and v not in d.filled]
                moves.append(f"bury {v}")
        return moves

    def _do_roll(self, parts: list[str]) -> None:
        roll = self.roll
        assert roll is not None
        player = self.players[self.seat]
        kind = parts[0]
        if kind == "reroll":
            player.treats -= 1
            self.treat_supply += 1
            again = [int(v) for v in parts[1:]] or list(roll.dice)
            if roll.partial:
                roll.held = remove_dice(roll.dice, again)
                size = len(again)
            else:
                size = roll.size
            # The rerolled dice go back to the supply and are rolled again from it.
            self.dice_supply += len(again) if roll.partial else len(roll.dice)
            self.dice_supply -= size
            roll.dice = []
            self._ask_chance_roll(size, ["roll"])
            return
        if kind in ("choose", "pick", "discard", "stop"):
            values = [int(v) for v in parts[1:]]
            if kind == "choose":
                kept = [v for v in roll.dice if v == values[0]]
            elif kind == "pick":
                kept = values
            elif kind == "discard":
                kept = remove_dice(roll.dice, values)
            else:
                kept = []
            self.dice_supply += len(roll.dice) - len(kept)
            roll.dice = kept
            roll.choosing = None
            roll.fresh = False
        else:
            value = int(parts[1])
            roll.dice.remove(value)
            roll.fresh = False
            if kind == "place":
                self._put_on_dog(parts[2], value)
            else:
                player.yard.append(value)
                if player.yard_total() > self.rules.bust_limit:
                    self._bust(self.seat)
                    return
                if roll.bonus == "play-dead":
                    self._gain_treats(value)
        if not roll.dice:
            self._end_roll()
        else:
            self.phase = "roll"

    # --------------------------------------------------------------- legal moves

    def _compute_legal(self) -> list[str]:
        phase = self.phase
        if phase == CHANCE_ROLL:
            return [text for text, _ in roll_outcomes(self.pending_dice)]
        if phase == CHANCE_REVEAL:
            return ["reveal " + name for name in self.deck_rest]
        if phase == "turn":
            moves = [f"trick {t}" for t, up in zip(self.rules.tricks, self.face_up, strict=True) if up]
            if any(d.complete for d in self.players[self.seat].unscored()):
                moves.append("score")
            return moves
        if phase == "roll":
            return self._roll_moves()
        if phase == "continue":
            return ["continue", "stop"]
        if phase == "trot":
            return [*self._trot_moves(), "stop"]
        if phase == "dig":
            return [*self._dig_moves(), "stop"]
        if phase == "retrieve":
            return [f"choose {v}" for v in self.rules.cards[self.deck_top].spaces]  # type: ignore[index]
        if phase == "bolt":
            return [f"set-aside {n}" for n in range(3, min(12, self.dice_supply) + 1)]
        if phase == "take":
            return self._take_moves()
        if phase == "guard":
            return [f"choose {v}" for v in range(1, 7)]
        return []

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
        return self.treat_supply + sum(p.treats for p in self.players) + sum(self.tile_treats)

    # --------------------------------------------------------------- JSON

    def to_dict(self) -> dict[str, Any]:
        """The whole position as plain data; the schema is documented in docs/state.md."""
        roll = self.roll
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "rules": self.rules.to_dict(),
            "phase": self.phase,
            "seat": self.seat,
            "first_player": self.first_player,
            "turn": self.turn,
            "players": [
                {
                    "dogs": [{"name": d.name, "filled": list(d.filled), "scored": d.scored} for d in p.dogs],
                    "yard": list(p.yard),
                    "treats": p.treats,
                }
                for p in self.players
            ],
            "supply": {"dice": self.dice_supply, "treats": self.treat_supply},
            "tiles": [
                {"name": t, "face_up": up, "treats": n}
                for t, up, n in zip(self.rules.tricks, self.face_up, self.tile_treats, strict=True)
            ],
            "deck": {"top": self.deck_top, "rest": list(self.deck_rest)},
            "trick": None if self.trick is None else {
                "name": self.trick, "step": self.step, "rolls_in_step": self.rolls_in_step,
                "set_aside": self.set_aside, "taken": self.taken, "guard": self.guard,
                "digs_left": self.digs_left, "offer": list(self.offer),
            },
            "roll": None if roll is None else {
                "size": roll.size, "dice": list(roll.dice), "mode": roll.mode, "choosing": roll.choosing,
                "fresh": roll.fresh, "partial": roll.partial, "bonus": roll.bonus, "held": list(roll.held),
            },
            "chance": {"for": list(self.chance_for), "dice": self.pending_dice} if self.is_chance_node() else None,
            "tied": list(self.tied),
            "agenda": [list(task) for task in self.agenda],
            "winner": self.winner,
            "end_reason": self.end_reason,
            "busts": list(self.busts),
            "history": list(self._history),
        }

    @classmethod
    def _from_fields(cls, doc: dict[str, Any]) -> State:
        rules = Rules.from_dict(doc["rules"])
        state = cls.__new__(cls)
        state.rules = rules
        phase = doc["phase"]
        if phase not in (CHANCE_ROLL, CHANCE_REVEAL, OVER, *DECISION_PHASES):
            raise StateFormatError(f"unknown phase {phase!r}")
        state.phase = phase
        state.seat = whole(doc["seat"], "seat")
        state.first_player = doc["first_player"]
        state.turn = whole(doc["turn"], "turn")
        if len(doc["players"]) != rules.players:
            raise StateFormatError(f"the rules have {rules.players} players but the state has {len(doc['players'])}")
        state.players = []
        for p in doc["players"]:
            dogs = []
            for d in p["dogs"]:
                card = rules.cards[d["name"]]
                filled = tuple(sorted(int(v) for v in d["filled"]))
                if not set(filled) <= set(card.spaces) or len(set(filled)) != len(filled):
                    raise StateFormatError(f"dog {d['name']} has dice {list(filled)} on spaces it lacks")
                dogs.append(Dog(card.name, card.spaces, filled, bool(d["scored"])))
            yard = [int(v) for v in p["yard"]]
            if any(not 1 <= v <= 6 for v in yard):
                raise StateFormatError(f"a yard holds a die that is not 1-6: {yard}")
            state.players.append(Player(dogs, yard, whole(p["treats"], "treats")))
        state.dice_supply = whole(doc["supply"]["dice"], "supply.dice")
        state.treat_supply = whole(doc["supply"]["treats"], "supply.treats")
        tiles = doc["tiles"]
        if [t["name"] for t in tiles] != list(rules.tricks):
            raise StateFormatError("the tiles do not match the rules' trick set")
        state.face_up = [bool(t["face_up"]) for t in tiles]
        state.tile_treats = [whole(t["treats"], "tile treats") for t in tiles]
        state.deck_top = doc["deck"]["top"]
        state.deck_rest = list(doc["deck"]["rest"])
        for name in [*state.deck_rest, *([] if state.deck_top is None else [state.deck_top])]:
            if not isinstance(name, str) or name not in rules.cards:
                raise StateFormatError(f"the deck holds an unknown dog {name!r}")
        held = [d.name for p in state.players for d in p.dogs]
        every = held + state.deck_rest + ([] if state.deck_top is None else [state.deck_top])
        if len(set(every)) != len(every):
            raise StateFormatError("a dog card appears twice (in packs or the deck)")
        if not 0 <= state.seat < rules.players:
            raise StateFormatError(f"seat {state.seat} does not exist with {rules.players} players")

        trick = doc["trick"] or {}
        state.trick = trick.get("name")
        if state.trick is not None and state.trick not in rules.tricks:
            raise StateFormatError(f"the trick in progress {state.trick!r} is not in play")
        state.step = whole(trick.get("step", 0), "trick.step")
        state.rolls_in_step = whole(trick.get("rolls_in_step", 0), "trick.rolls_in_step")
        state.set_aside = whole(trick.get("set_aside", 0), "trick.set_aside")
        state.taken = bool(trick.get("taken", False))
        state.guard = trick.get("guard")
        state.digs_left = whole(trick.get("digs_left", 0), "trick.digs_left")
        state.offer = list(trick.get("offer", []))
        r = doc["roll"]
        state.roll = None if r is None else Roll(
            int(r["size"]), [int(v) for v in r["dice"]], r["mode"], r["choosing"], bool(r["fresh"]),
            bool(r["partial"]), r["bonus"], [int(v) for v in r["held"]],
        )
        chance = doc["chance"] or {"for": [], "dice": 0}
        state.chance_for = list(chance["for"])
        state.pending_dice = whole(chance["dice"], "chance.dice")
        state.tied = [int(s) for s in doc["tied"]]
        state.agenda = [list(t) for t in doc["agenda"]]
        for task in state.agenda:
            if not task or not hasattr(state, "_task_" + str(task[0]).replace("-", "_")):
                raise StateFormatError(f"unknown task in agenda: {task!r}")
        state.winner = None if doc["winner"] is None else whole(doc["winner"], "winner")
        state.end_reason = doc["end_reason"]
        state.busts = [whole(b, "busts") for b in doc["busts"]]
        if len(state.busts) != rules.players:
            raise StateFormatError("busts must have one count per seat")
        if state.winner is not None and state.winner not in range(rules.players):
            raise StateFormatError(f"winner {state.winner!r} is not a seat")
        state._history = [str(m) for m in doc["history"]]
        state._legal = None
        if state.dice_total() != rules.dice:
            raise StateFormatError(f"the dice do not add up: {state.dice_total()} counted, {rules.dice} in the game")
        if state.treats_total() != rules.treats:
            raise StateFormatError(
                f"the treats do not add up: {state.treats_total()} counted, {rules.treats} in the game"
            )
        if state.dice_supply < 0 or state.treat_supply < 0:
            raise StateFormatError("a supply is negative")
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        from .render import render

        return render(self)

    def __repr__(self) -> str:
        return f"<spots.State turn {self.turn} phase {self.phase} seat {self.seat}>"
