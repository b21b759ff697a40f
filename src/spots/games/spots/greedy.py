"""The greedy bot: how a sensible casual player plays, one decision at a time.

Place dice where they fit (the dog closest to completion first), bury the rest,
reroll a roll that would bust, score when a dog is done and the yard is getting
full, stop a repeatable step once the next roll's bust chance passes a threshold.
"""

from __future__ import annotations

from collections import Counter

from .keep import KEEP_RULES
from .odds import Position
from .state import State
from .steps import RollTask
from .tricks import TILES

TREAT_TILES = {"beg", "chew", "gobble", "stay", "play-dead"}


def open_spaces(state: State, seat: int) -> Counter[int]:
    return Counter(v for dog in state.players[seat].unscored() for v in dog.empty_spaces())


def bust_chance(state: State, dice: int) -> float:
    """Chance that a plain roll of ``dice`` dice busts the player to move (exact, small rolls)."""
    if dice <= 0:
        return 0.0
    return Position.of(state).float_bust_chance(min(dice, 8))


def roll_quality(state: State, faces: list[int] | tuple[int, ...]) -> tuple[int, int]:
    """(dice that fit, minus spots buried): how good a set of dice is for the player to move."""
    pos = Position.of(state)
    fits = sum(min(n, pos.open_spaces[v]) for v, n in Counter(faces).items())
    return fits, -pos.buried(tuple(faces))


class GreedyBot:
    """Rule-of-thumb play; ``risk`` is the bust chance above which it stops rolling."""

    name = "greedy"

    def __init__(self, seed: int = 0, risk: float = 0.25) -> None:
        self.seed = seed
        self.risk = risk

    def choose(self, state: State) -> str:
        moves = state.legal_actions()
        if len(moves) == 1:
            return moves[0]
        handler = getattr(self, "_" + (state.phase or "").replace("-", "_"), None)
        move = handler(state, moves) if handler else None
        return move if move in moves else moves[0]

    # The start of a turn: score or pick a trick.
    def _turn(self, state: State, moves: list[str]) -> str:
        player = state.players[state.seat]
        complete = sum(1 for d in player.unscored() if d.complete)
        if "score" in moves and (complete >= 2 or player.yard_total() >= 4 or complete == len(player.unscored())):
            return "score"
        tricks = [m for m in moves if m.startswith("trick ")]
        here = Position.of(state)  # the mover's open spaces and yard: the same for every trick weighed
        return max(tricks, key=lambda m: self._trick_worth(state, m.split()[1], here))

    def _trick_worth(self, state: State, name: str, here: Position | None = None) -> float:
        """What a trick is worth to the mover; ``here``: the mover's ``Position``, when the caller has it."""
        player = state.players[state.seat]
        worth = 0.5 * state.tiles[state.rules.tricks.index(name)].treats
        if name in TREAT_TILES:
            return worth + (2.0 if player.treats == 0 else 0.5 if player.treats < 3 else -1.0)
        first_roll = next((s for s in TILES[name].steps if s.kind == "roll"), None)
        if first_roll is None or first_roll.keep is not None:
            return worth + 1.0  # Dig, Trot, Retrieve, Bolt and the blue tiles: moderate, controlled
        dice = state.roll_size(first_roll, planning=True)  # the engine's count: supply, Dogpile's extra die
        here = here or Position.of(state)
        spaces = sum(here.open_spaces.values())
        expected_fits = min(dice, spaces) * 0.4
        busts = here.float_bust_chance(min(dice, 8)) if dice > 0 else 0.0  # as bust_chance(state, dice)
        return worth + expected_fits - 4 * busts * (1 if player.treats == 0 else 0.5)

    # Resolving a roll.
    def _roll(self, state: State, moves: list[str]) -> str:
        roll = state.roll
        assert roll is not None
        player = state.players[state.seat]
        rerolls = [m for m in moves if m.startswith("reroll")]
        if rerolls and roll.fresh:
            pos = Position.of(state)
            bad = pos.busts(tuple(roll.dice)) if roll.choosing is None else False
            if roll.choosing == "nothing":
                return "reroll"
            if bad:
                if roll.partial:  # Track: reroll the dice that do not fit
                    fitting = Counter(pos.open_spaces)
                    misfits = []
                    for v in roll.dice:
                        if fitting[v] > 0:
                            fitting[v] -= 1
                        else:
                            misfits.append(v)
                    wanted = "reroll " + " ".join(map(str, sorted(misfits)))
                    return wanted if wanted in moves else rerolls[-1]
                return "reroll"
        if roll.choosing in KEEP_RULES:
            choices = KEEP_RULES[roll.choosing].choices(roll.dice, player.yard_total())
            return max(choices, key=lambda c: roll_quality(state, c[1]))[0]
        if roll.choosing is not None:
            return "stop"  # nothing can be kept
        places = [m for m in moves if m.startswith("place ")]
        if places:
            def closeness(m: str) -> tuple[int, int]:
                dog = next(d for d in player.dogs if d.name == m.split()[2])
                return (-len(dog.empty_spaces()), -len(dog.spaces))
            return max(places, key=closeness)
        buries = [m for m in moves if m.startswith("bury ")]
        return min(buries, key=lambda m: int(m.split()[1]))

    def _continue(self, state: State, moves: list[str]) -> str:
        offer = state.offer
        if isinstance(offer, RollTask):
            step = TILES[state.trick].steps[offer.args[0]]
            dice = state.roll_size(step, planning=True)
        else:
            dice = 1  # Bolt's next die
        if not open_spaces(state, state.seat):
            return "stop"
        return "continue" if bust_chance(state, dice) < self.risk else "stop"

    def _trot(self, state: State, moves: list[str]) -> str:
        player = state.players[state.seat]
        for m in moves:
            if m == "stop":
                continue
            _, src, _, dst, _ = m.split()
            target = next(d for d in player.dogs if d.name == dst)
            source = next(d for d in player.dogs if d.name == src)
            if len(target.empty_spaces()) == 1 and src != dst and len(source.empty_spaces()) > 0:
                return m
        return "stop"

    def _dig(self, state: State, moves: list[str]) -> str:
        limit = state.rules.bust_limit
        for m in moves:  # bust an opponent if a raise does it
            if m.endswith(" up"):
                _, seat, _, _ = m.split()
                if int(seat) != state.seat and state.players[int(seat)].yard_total() + 1 > limit:
                    return m
        own = [m for m in moves if m.startswith(f"dig {state.seat} ") and m.endswith(" down")]
        return max(own, key=lambda m: int(m.split()[2])) if own else "stop"

    def _retrieve(self, state: State, moves: list[str]) -> str:
        spaces = open_spaces(state, state.seat)
        fitting = [m for m in moves if spaces[int(m.split()[1])] > 0]
        return fitting[0] if fitting else min(moves, key=lambda m: int(m.split()[1]))

    def _bolt(self, state: State, moves: list[str]) -> str:
        return moves[0]

    def _take(self, state: State, moves: list[str]) -> str:
        yard = [m for m in moves if m.startswith("take yard ")]
        return max(yard, key=lambda m: int(m.split()[2])) if yard else moves[0]

    def _guard(self, state: State, moves: list[str]) -> str:
        spaces = open_spaces(state, state.seat)
        headroom = state.rules.bust_limit - state.players[state.seat].yard_total()
        best = max((v for v in spaces if v <= max(headroom, 1) or spaces[v]), default=1)
        return f"choose {best}"
