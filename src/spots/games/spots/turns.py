"""Setup and turns: dealing, the first player, scoring, busts, draws, the end of a turn and of the game.

Rules sections 2, 3, 7 and 9. Each task here is one step of that procedure; the helpers
(``score``, ``bust``, ``finish``, ...) are the table changes the tiles share.
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

from .pieces import Dog, Tile, _tuple_new
from .tasks import CHANCE_REVEAL, OVER, Task

if TYPE_CHECKING:
    from .state import State


# ----------------------------------------------------------------- setup


class Deal(Task):
    """Reveal a card from the deck into a seat's pack."""

    name, arity = "deal", 1

    def run(self, state: State) -> None:
        state.phase = CHANCE_REVEAL
        state.chance_for = ("deal", self.args[0])


class Top(Task):
    """Reveal the deck's new top card (if any card is left)."""

    name = "top"

    def run(self, state: State) -> None:
        if state.deck_rest:
            state.phase = CHANCE_REVEAL
            state.chance_for = ("top",)


class FirstDie(Task):
    """A seat rolls one die and buries it (deciding who goes first)."""

    name, arity = "first-die", 1

    def run(self, state: State) -> None:
        state.ask_roll(1, ("first-die", self.args[0]))


class Tie(Task):
    """The highest first die goes first; tied seats roll again."""

    name = "tie"

    def run(self, state: State) -> None:
        best = max(state.players[s].yard[0] for s in state.tied)
        state.tied = [s for s in state.tied if state.players[s].yard[0] == best]
        if len(state.tied) > 1:
            state.push(*[FirstDie(s) for s in state.tied], TIE)
            return
        state.first_player = state.seat = state.tied[0]
        state.turn = 1
        start_turn(state)


TIE = Tie()


def setup_agenda(players: int, starting_dogs: int) -> list[Task]:
    """The tasks of the setup, first one last (the agenda is a stack)."""
    tasks: list[Task] = [Deal(s) for s in range(players) for _ in range(starting_dogs)]
    tasks += [Top(), *[FirstDie(s) for s in range(players)], TIE]
    return tasks[::-1]


def on_reveal(state: State, name: str) -> None:
    state.deck_rest.remove(name)
    if state.chance_for[0] == "deal":
        state.players[state.chance_for[1]].dogs.append(Dog(name, state.rules.cards[name].spaces))
    else:
        state.deck_top = name


def on_first_die(state: State, faces: list[int]) -> None:
    player = state.players[state.chance_for[1]]
    if not player.yard:
        state.dice_supply -= 1
    player.yard = faces  # a tie roll replaces the buried die


# ----------------------------------------------------------------- turns


def start_turn(state: State) -> None:
    """A turn begins: with an empty supply everyone busts; the last face-up tile is reset."""
    if state.dice_supply == 0:
        for s in range(state.rules.players):
            bust(state, s)
    last = _only_face_up(state.tiles)
    if last is not None:
        tiles = state.tiles
        treats = tiles[last].treats
        if state.treat_supply > 0:  # a treat on the last tile, then every tile turns face up
            treats += 1
            state.treat_supply -= 1
        state.tiles = [_tuple_new(Tile, (t.name, True, treats if i == last else t.treats)) for i, t in enumerate(tiles)]
    state.phase = "turn"


def _only_face_up(tiles: list[Tile]) -> int | None:
    """The index of the one face-up tile, or None when more than one (or none) is face up."""
    up = list(map(_FACE_UP, tiles))
    return up.index(True) if up.count(True) == 1 else None


_FACE_UP = attrgetter("face_up")


class EndTurn(Task):
    """The turn ends: the trick's working values go, the next seat starts (or the turn limit ends the game)."""

    name = "endturn"

    def run(self, state: State) -> None:
        state.work = None
        if state.turn >= state.rules.turn_limit:
            finish(state, None, "turn limit")
            return
        state.seat = (state.seat + 1) % state.rules.players
        state.turn += 1
        start_turn(state)


END_TURN = EndTurn()


def score(state: State) -> int:
    """Score every complete unscored dog of the player whose turn it is."""
    player = state.players[state.seat]
    count = 0
    for i, dog in enumerate(player.dogs):
        if not dog.scored and dog.complete:
            state.dice_supply += len(dog.filled)
            player.dogs[i] = dog.refilled((), scored=True)
            count += 1
    if player.scored_count() >= state.rules.target:
        finish(state, state.seat, "target")
    return count


class Draw(Task):
    """Draw dogs from the deck after scoring (up to the dog limit), revealing each new top card."""

    name, arity = "draw", 1

    def run(self, state: State) -> None:
        count = self.args[0]
        player = state.players[state.seat]
        limit = state.rules.dog_limit
        assert limit is not None  # Rules fills it in
        if count <= 0 or len(player.dogs) >= limit or state.deck_top is None:
            return
        name = state.deck_top
        player.dogs.append(Dog(name, state.rules.cards[name].spaces))
        state.deck_top = None
        state.push(Draw(count - 1))
        if state.deck_rest:
            state.phase = CHANCE_REVEAL
            state.chance_for = ("top",)


class Fast(Task):
    """Fast and risky: every unscored dog complete after a roll scores at once."""

    name = "fast"

    def run(self, state: State) -> None:
        unscored = 0
        for d in state.players[state.seat].dogs:
            if not d.scored:
                if len(d.filled) != len(d.spaces):
                    return  # a dog still has an empty space
                unscored += 1
        if unscored:
            scored = score(state)
            if state.phase != OVER:
                state.push(Draw(scored))


FAST = Fast()


def bust(state: State, seat: int) -> None:
    """Return every die on the seat's unscored dogs and in its yard to the supply."""
    player = state.players[seat]
    state.busts[seat] += 1
    state.dice_supply += player.dice_on_dogs() + len(player.yard)
    player.dogs = [d.refilled(()) if d.filled else d for d in player.dogs]
    player.yard = []
    if seat == state.seat and state.work is not None:
        # The turn ends at once: dice in hand go back, the trick is abandoned.
        return_hand(state)
        state.agenda = [END_TURN]
        state.phase = None


def return_hand(state: State) -> None:
    """Dice rolling or set aside go back to the supply."""
    if state.roll is not None:
        state.dice_supply += len(state.roll.dice) + len(state.roll.held)
        state.roll = None
    work = state.work
    if work is not None:
        state.dice_supply += work.set_aside
        work.set_aside = 0
        work.taken = False


def finish(state: State, winner: int | None, reason: str) -> None:
    return_hand(state)
    state.winner = winner
    state.end_reason = reason
    state.agenda = []
    state.phase = OVER


def gain_treats(state: State, count: int) -> None:
    """The player to move takes up to ``count`` treats from the supply."""
    count = min(count, state.treat_supply)
    state.treat_supply -= count
    state.players[state.seat].treats += count
