"""An expectimax bot for Double Spot: search over the die, two plies for every drop and four for the best, in cards.

Why this works where greedy and MCTS stall: both players build the same two
patterns, so a drop is judged by what it hands over. For each drop the bot asks:
which of the opponent's six die faces let them finish a card at once (a lost
card), and for each other face, what is the best reply a careful opponent has,
i.e. the one that leaves *me* the smallest chance of a finish on my next roll?
The drop's value is the expected card swing over those two turns:

    value = cards taken now − P(opponent finishes) + E[my chance to finish after their best reply]

with a win or a loss (the target reached, a full frame) counted as ±``WIN`` cards.

Threats are kept as bit masks: for each column, the colours whose drop there
would complete a face-up card (4 bits per card). A drop only changes the masks
of the columns within two of it (a pattern fits in a 3×3 box), so each reply
costs a handful of pattern tests; the opponent's search stops at the first reply
that leaves no finish. The ``deep`` best drops are then searched two plies further (see the class).
Median decision about 30 ms of CPU (2 ms with ``deep=0``).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from ...core.bots import deadline, time_budget
from .patterns import KIND, Board, Card, through
from .state import FACE_KIND, FACES, State, face_colours, seen_by

BIT = {"blue": 1, "green": 2, "pink": 4, "yellow": 8}
WIN = 100.0  # a won or lost game, in cards
Holes = list[tuple[int, tuple[tuple[int, int, str], ...]]]


@dataclass(frozen=True)
class Judgement:
    """What the search found for one drop (all chances are for the next two turns, before new cards)."""

    move: str
    value: float  # the expected card swing: taken − opponent's finish chance + my next finish chance (±WIN at an end)
    takes: int  # cards the drop takes at once
    gives: float  # the opponent's chance to finish a card on their next roll
    next: float  # my chance to finish a card on my following roll, after the opponent's best reply
    ends: float | None  # the mover's result if the drop ends the game (1 win, 0.5 draw, 0 loss)


def holes_of(cards: list[Card]) -> Holes:
    """Each way to finish each card with one disc: (colour bit shifted to the card's nibble, the other two cells)."""
    return [(BIT[colour] << (4 * k), others) for k, card in enumerate(cards) for colour, others in card.holes]


def column_mask(board: Board, x: int, holes: Holes, rows: int) -> int:
    """The colours (4 bits per card) whose drop into column ``x`` completes a card."""
    row = len(board[x])
    if row >= rows:
        return 0
    width = len(board)
    mask = 0
    for bit, others in holes:
        if mask & bit:
            continue
        for dx, dy, c in others:
            cx = x + dx
            if cx < 0 or cx >= width:
                break
            col = board[cx]
            cy = row + dy
            if cy < 0 or cy >= len(col) or col[cy] != c:
                break
        else:
            mask |= bit
    return mask


def colours(mask: int) -> int:
    """Fold the per-card nibbles into one 4-bit colour set."""
    return (mask | mask >> 4) & 15


def face_masks(supply: dict[str, int], seat: int) -> list[int]:
    """For each die face still offered, the colour bits (on the board's side) it lets ``seat`` drop."""
    return [sum(BIT[seen_by(seat, c)] for c in face_colours(f)) for f in FACES if supply[FACE_KIND[f]] > 0]


def finish_chance(masks: list[int], faces: list[int]) -> float:
    """The chance a roll gives one of the colours that finish somewhere."""
    want = 0
    for m in masks:
        want |= m
    want = colours(want)
    if not want or not faces:
        return 0.0
    return sum(1 for f in faces if f & want) / len(faces)


class TimeUp(Exception):
    """The time budget ran out during the deeper look: the two-ply judgements answer."""


class ExpectimaxBot:
    """Expectimax over the die with a threat evaluation; ties broken at random (seeded).

    Every drop is judged at two plies; the ``deep`` best drops that take nothing are judged again
    with the opponent's reply also weighing the hand-over it forces on me the turn after (four
    plies). Measured: two plies alone are no stronger than greedy; the deeper look is what wins.
    """

    name = "expectimax"

    def __init__(self, seed: int = 0, safety: float = 0.0, deep: int = 3, time_ms: float | None = None) -> None:
        self.rng = random.Random(seed)
        self.time_ms = time_budget(time_ms)  # past the clock, the deeper look is dropped and two plies answer
        self.safety = safety  # weight of the opponent's share of safe replies (0: stop at the first safe one)
        self.deep = deep  # how many of the best quiet drops to search two plies further (0: two plies only)
        self._deep = False
        self._stop = math.inf  # checked at each of the opponent's faces during the deeper look

    def choose(self, state: State) -> str:
        stop = deadline(self.time_ms)
        judged = self.judge(state)
        if self.deep:
            judged = self._deeper(state, judged, stop)
        best = max(j.value for j in judged)
        tied = [j.move for j in judged if j.value >= best - 1e-9]
        return tied[int(self.rng.random() * len(tied))]

    def _deeper(self, state: State, judged: list[Judgement], stop: float = math.inf) -> list[Judgement]:
        """Re-judge the ``deep`` best quiet drops with the opponent's reply also weighing my forced hand-overs.

        Past ``stop`` (a ``time.perf_counter`` reading) the deeper look is abandoned and the two-ply judgements stand.
        """
        order = sorted(judged, key=lambda j: (-j.value, self.rng.random()))
        quiet = [j for j in order[: self.deep] if not j.takes and j.ends is None]
        if len(quiet) < 2:
            return judged
        self._deep, self._stop = True, stop
        try:
            again = {j.move: j for j in self.judge(state, {j.move for j in quiet})}
        except TimeUp:
            return judged
        finally:
            self._deep = False
        return [again.get(j.move, j) for j in order]

    def judge(self, state: State, only: set[str] | None = None) -> list[Judgement]:
        """Every legal drop (or those in ``only``) with its value and the chances behind it, in legal-move order."""
        seat, rules = state.seat, state.rules
        board = [list(col) for col in state.board]
        cards = [c for c in state.showing() if c is not None]
        holes = holes_of(cards)
        masks = [column_mask(board, x, holes, rules.rows) for x in range(rules.columns)]
        out = []
        for move in state.legal_actions():
            if only is not None and move not in only:
                continue
            _, n, colour = move.split()
            x, disc = state.column_index(int(n)), seen_by(seat, colour)
            out.append(self._judge_drop(state, board, cards, holes, masks, move, x, disc))
        return out

    def _judge_drop(self, state: State, board: Board, cards: list[Card], holes: Holes, masks: list[int],
                    move: str, x: int, disc: str) -> Judgement:
        seat, rules = state.seat, state.rules
        mine, theirs = len(state.won[seat]), len(state.won[1 - seat])
        board[x].append(disc)
        try:
            left, takes = cards, 0
            if colours(masks[x]) & BIT[disc]:
                taken = [c for c in cards if through(board, c, x, len(board[x]) - 1)]
                takes = len(taken)
                left = [c for c in cards if c not in taken]
                if mine + takes >= rules.target:
                    return Judgement(move, WIN + takes, takes, 0.0, 0.0, 1.0)
            supply = {kind: int(n or 0) for kind, n in state.supply.items()}  # n is never None (mypy)
            supply[KIND[disc]] -= 1
            if self._full(board, rules.rows):
                result = _result(mine + takes, theirs)
                if ends_when_full(state):
                    return Judgement(move, takes + (result - 0.5) * 2 * WIN, takes, 0.0, 0.0, result)
                return Judgement(move, float(takes), takes, 0.0, 0.0, None)  # the frame is lifted: a fresh start
            old: list[int] | None = masks
            if takes:  # the taken cards no longer count; their replacements are not known yet
                holes, old = holes_of(left), None
            gives, nxt, swing = self._reply(state, board, holes, old, x, supply, mine + takes, theirs)
            return Judgement(move, takes + swing, takes, gives, nxt, None)
        finally:
            board[x].pop()

    def _reply(self, state: State, board: Board, holes: Holes, old: list[int] | None, x: int,
               supply: dict[str, int], mine: int, theirs: int) -> tuple[float, float, float]:
        """The opponent's turn after my drop in column ``x``: (their finish chance, my next chance, my swing)."""
        rules, seat = state.rules, state.seat
        rows, width = rules.rows, rules.columns
        masks = self._update(board, holes, old, x, rows)
        union = 0
        for m in masks:
            union |= m
        union = colours(union)
        faces = [f for f in FACES if supply[FACE_KIND[f]] > 0]
        gives = nxt = swing = 0.0
        last = sum(len(col) for col in board) + 1 == rules.cells
        for face in faces:
            if self._deep and time.perf_counter() > self._stop:
                raise TimeUp
            bits = [BIT[seen_by(1 - seat, c)] for c in face_colours(face)]
            if any(b & union for b in bits):
                gives += 1
                gain = max(bin(masks[d] & (b * 0x11)).count("1") for d in range(width) for b in bits)
                swing -= WIN if theirs + gain >= rules.target else gain
                continue
            if last and ends_when_full(state):
                swing += (_result(mine, theirs) - 0.5) * 2 * WIN
                continue
            best, safe, tried = 1.0, 0, 0
            for d in range(width):
                if len(board[d]) >= rows:
                    continue
                for b in bits:
                    disc = _colour_of(b)
                    after = dict(supply)
                    after[KIND[disc]] -= 1
                    board[d].append(disc)
                    masks2 = self._update(board, holes, masks, d, rows)
                    chance = finish_chance(masks2, face_masks(after, seat))
                    if self._deep:
                        chance -= self._forced(board, holes, masks2, after, seat, rows)
                    board[d].pop()
                    best = min(best, chance)
                    tried += 1
                    safe += chance == 0.0
                    if best == 0.0 and not (self.safety or self._deep):
                        break
                if best == 0.0 and not (self.safety or self._deep):
                    break
            nxt += best
            swing += best - self.safety * safe / max(1, tried)
        n = len(faces)
        return gives / n, nxt / n, swing / n

    def _forced(self, board: Board, holes: Holes, masks: list[int], supply: dict[str, int], seat: int,
                rows: int) -> float:
        """My expected hand-over on my next turn: over my faces with no finish, my least-bad drop's gift."""
        union = 0
        for m in masks:
            union |= m
        union = colours(union)
        faces = [f for f in FACES if supply[FACE_KIND[f]] > 0]
        total = 0.0
        for face in faces:
            bits = [BIT[seen_by(seat, c)] for c in face_colours(face)]
            if any(b & union for b in bits):
                continue  # I finish a card with this face: counted in my chance
            best = 1.0
            for x in range(len(board)):
                if len(board[x]) >= rows:
                    continue
                for b in bits:
                    disc = _colour_of(b)
                    after = dict(supply)
                    after[KIND[disc]] -= 1
                    board[x].append(disc)
                    gift = finish_chance(self._update(board, holes, masks, x, rows), face_masks(after, 1 - seat))
                    best = min(best, gift)
                    board[x].pop()
                    if best == 0.0:
                        break
                if best == 0.0:
                    break
            total += best
        return total / len(faces) if faces else 0.0

    @staticmethod
    def _update(board: Board, holes: Holes, old: list[int] | None, x: int, rows: int) -> list[int]:
        """Column masks after a drop into column ``x`` (only columns within two of it change)."""
        width = len(board)
        if old is None:
            return [column_mask(board, c, holes, rows) for c in range(width)]
        masks = list(old)
        for c in range(max(0, x - 2), min(width, x + 3)):
            masks[c] = column_mask(board, c, holes, rows)
        return masks

    @staticmethod
    def _full(board: Board, rows: int) -> bool:
        return all(len(col) >= rows for col in board)


def ends_when_full(state: State) -> bool:
    """Whether a full frame ends this game (it does unless the ``lifts`` option has a lift left)."""
    return state.lifted >= state.rules.lifts


def _result(mine: int, theirs: int) -> float:
    return 1.0 if mine > theirs else (0.0 if mine < theirs else 0.5)


def _colour_of(bit: int) -> str:
    return {1: "blue", 2: "green", 4: "pink", 8: "yellow"}[bit]
