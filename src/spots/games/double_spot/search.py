"""A deeper Double Spot bot: expectimax over the die, turn after turn, deepened while its budget lasts.

Why deeper helps: both players build the same two patterns, so cards come from
hand-overs, and a hand-over happens when the die leaves the mover no safe drop.
The two-ply ``expectimax`` bot sees one hand-over ahead; this search sees the
fight over safe drops several turns on. A position where ``seat`` is about to
roll is worth, in cards for ``seat``:

    V(seat, d) = mean over the die faces of
                 the cards the face lets ``seat`` finish at once (a won game: ``WIN``), or else
                 the best quiet drop's  − V(other seat, d − 1)
    V(seat, 0) = ``seat``'s chance that the roll finishes a card (the pattern-threat evaluation)

so an odd depth ends on the opponent's chances and an even one on the mover's.
A finish is always taken (every bot here does) and ends the look-ahead: the
cards that replace it are not known. Only the ``width`` quiet drops that hand
the opponent least are searched deeper (move ordering by that threat), and
positions met twice are looked up in a cache (transpositions: the same discs
dropped in another order).

Budget: the search deepens one turn at a time (iterative deepening) and stops
when ``nodes`` positions have been evaluated or ``time_ms`` has passed,
answering with the best drop of the deepest search it finished. The one-turn
look (what each drop takes and hands over, a few dozen pattern tests) always
finishes, so the bot always has an answer; the time limit covers everything
after it, and the node budget everything after the two-turn search of every
drop. The node budget is what normally stops the search, so a seeded game plays
the same on any machine; the time limit is the guarantee for servers.
"""

from __future__ import annotations

import random
import time

from ...core.bots import deadline, time_budget
from .expectimax import BIT, WIN, colours, ends_when_full
from .patterns import Card, through
from .state import State, seen_by

# The die faces as colour bits on the board's side, for each seat (seat 1 sees every colour flipped),
# and the disc kind each face needs (0 blue/green, 1 pink/yellow), in the engine's face order.
FACE_BITS = ((1, 2, 4, 8, 3, 12), (2, 1, 8, 4, 3, 12))
FACE_KIND = (0, 0, 1, 1, 0, 1)
KIND_OF = {1: 0, 2: 0, 4: 1, 8: 1}
Table = list[list[tuple[int, int, int, int, int]]]


class OutOfBudget(Exception):
    """Raised inside the search when the budget is spent; the last finished depth answers."""


class SearchBot:
    """Iterative-deepening expectimax with threat ordering, a transposition cache and a budget."""

    name = "search"

    def __init__(self, seed: int = 0, nodes: int = 500, time_ms: float | None = None, depth: int = 6,
                 width: int = 3, root_width: int = 3) -> None:
        if nodes < 1 or depth < 2 or width < 1 or root_width < 1:
            raise ValueError("nodes and width must be at least 1 and depth at least 2 "
                             f"(got nodes={nodes}, depth={depth}, width={width}, root_width={root_width})")
        self.rng = random.Random(seed)
        self.nodes = nodes
        self.time_ms = time_budget(time_ms)
        self.depth = depth
        self.width = width
        self.root_width = root_width
        self.reached = 0  # the depth of the last finished search (for benchmarks)
        self._count = 0
        self._stop = 0.0
        self._limit = 0
        self._cache: dict[tuple[object, ...], float] = {}
        self._tables: dict[tuple[str, ...], Table] = {}

    # ------------------------------------------------------------------ the root

    def choose(self, state: State) -> str:
        ranked = self.rank(state)
        best = ranked[0][1]
        tied = [m for m, v in ranked if v >= best - 1e-9]
        return tied[int(self.rng.random() * len(tied))]

    def rank(self, state: State) -> list[tuple[str, float]]:
        """The legal drops with their values at the deepest finished search, best first.

        One turn (what each drop takes and hands over) always finishes; two turns for every drop and the deeper
        searches of the best few stop when the budget is spent. Drops a deeper search did not look at keep their
        shallower value and come after those that it did.
        """
        self._count, self._cache, self._tables = 0, {}, {}
        moves = state.legal_actions()
        self.rng.shuffle(moves)  # equal drops are searched deeper in a random (seeded) order
        self._limit, self._stop = 1 << 60, float("inf")
        start = time.perf_counter()
        values = {m: self._root_value(state, m, 1) for m in moves}
        order = sorted(moves, key=lambda m: -values[m])
        ranked = [(m, values[m]) for m in order]
        self.reached = 1
        self._stop = deadline(self.time_ms, start)
        for depth in range(2, self.depth + 1):
            top = moves if depth == 2 else order[: self.root_width]
            if len(top) < 2 or values[order[0]] >= WIN / 2:
                break
            try:
                deeper = {m: self._root_value(state, m, depth) for m in top}
            except OutOfBudget:
                break
            if depth == 2:  # the node budget counts from here: the two-turn pass is the same for every budget
                self._count, self._limit = 0, self.nodes
                values = deeper
            self.reached = depth
            top = sorted(top, key=lambda m: -deeper[m])
            ranked = [(m, deeper[m]) for m in top] + [(m, v - 2 * WIN) for m, v in ranked if m not in deeper]
            order = [m for m, _ in ranked]
        return ranked

    def roll_value(self, state: State) -> float:
        """``V(seat, d)`` of a position where ``seat`` is about to roll, in cards, at the deepest ``d`` the budget
        finishes (``depth − 1`` at most: the same turns as ``rank`` sees after a drop). The coach values rolls so."""
        rules, board = state.rules, [list(col) for col in state.board]
        cards = [c for c in state.showing() if c is not None]
        self._count, self._cache, self._tables = 0, {}, {}
        supply = [int(state.supply["blue-green"]), int(state.supply["pink-yellow"])]
        frame = Frame(board, rules.rows, supply, self._table(cards, board, rules.rows))
        scores = [len(state.won[0]), len(state.won[1])]
        ends = ends_when_full(state)
        self._limit, self._stop = 1 << 60, float("inf")
        value = self._roll(state.seat, 1, frame, scores, ends, rules.target)  # like rank's first pass: always
        self._count, self._limit, self._stop = 0, self.nodes, deadline(self.time_ms)
        for depth in range(2, self.depth):
            try:
                value = self._roll(state.seat, depth, frame, scores, ends, rules.target)
            except OutOfBudget:
                break
        return value

    def _root_value(self, state: State, move: str, depth: int) -> float:
        """The drop's value for the mover: the cards it takes, less the opponent's value ``depth − 1`` turns on."""
        seat, rules = state.seat, state.rules
        _, n, colour = move.split()
        x, disc = state.column_index(int(n)), seen_by(seat, colour)
        board = [list(col) for col in state.board]
        board[x].append(disc)
        cards = [c for c in state.showing() if c is not None]
        taken = [c for c in cards if through(board, c, x, len(board[x]) - 1)]
        scores = [len(state.won[0]), len(state.won[1])]
        scores[seat] += len(taken)
        if scores[seat] >= rules.target:
            return WIN + len(taken)
        supply = [int(state.supply["blue-green"]), int(state.supply["pink-yellow"])]
        supply[KIND_OF[BIT[disc]]] -= 1
        frame = Frame(board, rules.rows, supply, self._table([c for c in cards if c not in taken], board,
                                                                    rules.rows))
        if frame.empty == 0:
            return len(taken) + (_end(scores, seat) if ends_when_full(state) else 0.0)
        return len(taken) - self._roll(1 - seat, depth - 1, frame, scores, ends_when_full(state), rules.target)

    def _table(self, cards: list[Card], board: list[list[str]], rows: int) -> Table:
        """One pattern table per set of cards for the whole decision (the cache keys on its identity)."""
        key = tuple(c.id for c in cards)
        if key not in self._tables:
            self._tables[key] = pattern_table(cards, len(board), rows)
        return self._tables[key]

    # ------------------------------------------------------------------ the search

    def _roll(self, seat: int, depth: int, frame: Frame, scores: list[int], ends: bool, target: int) -> float:
        """V(seat, depth): the value for ``seat``, about to roll, in cards (see the module docstring)."""
        faces = frame.faces()
        if not faces:
            return 0.0
        union = frame.threats()
        bits_of = FACE_BITS[seat]
        if depth == 0:
            return sum(1 for f in faces if bits_of[f] & union) / len(faces)
        key = (seat, depth, bytes(frame.grid), id(frame.table), scores[0], scores[1])
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        self._count += 1
        if self._count > self._limit or time.perf_counter() > self._stop:
            raise OutOfBudget
        total = 0.0
        for f in faces:
            bits = bits_of[f]
            if bits & union:
                gain = frame.gain(bits)
                total += WIN if scores[seat] + gain >= target else gain
            else:
                total += self._quiet(seat, depth, bits, frame, scores, ends, target)
        value = total / len(faces)
        self._cache[key] = value
        return value

    def _quiet(self, seat: int, depth: int, bits: int, frame: Frame, scores: list[int], ends: bool,
               target: int) -> float:
        """The best drop for a face that finishes nothing: the one leaving the opponent least, searched deeper."""
        if frame.empty == 1:  # this drop fills the frame
            return _end(scores, seat) if ends else 0.0
        other = 1 - seat
        scored = []
        for x in frame.open_columns():
            for b in (1, 2, 4, 8):
                if not bits & b:
                    continue
                frame.drop(x, b)
                gift = frame.chance(other)
                if depth == 1 and gift == 0.0:
                    frame.lift(x, b)
                    return 0.0
                scored.append((gift, frame.spread() if depth > 1 else 0, x, b))
                frame.lift(x, b)
        scored.sort(key=lambda s: (s[0], s[1]))
        if depth == 1:
            return -scored[0][0]
        best = -float("inf")
        for _gift, _spread, x, b in scored[: self.width]:
            frame.drop(x, b)
            try:
                best = max(best, -self._roll(other, depth - 1, frame, scores, ends, target))
            finally:
                frame.lift(x, b)
        return best


def pattern_table(cards: list[Card], columns: int, rows: int) -> Table:
    """For each cell (``x * rows + y``): every way a disc there completes a card, as (the colour bit shifted to
    the card's nibble, the other two cells and their colour bits)."""
    table: Table = [[] for _ in range(columns * rows)]
    for k, card in enumerate(cards):
        for shape in card.turns:
            w = max(x for x, _, _ in shape) + 1
            h = max(y for _, y, _ in shape) + 1
            for ox in range(columns - w + 1):
                for oy in range(rows - h + 1):
                    cells = [((ox + x) * rows + oy + y, BIT[c]) for x, y, c in shape]
                    for i, (cell, bit) in enumerate(cells):
                        (j1, c1), (j2, c2) = (cells[n] for n in range(3) if n != i)
                        table[cell].append((bit << (4 * k), j1, c1, j2, c2))
    return table


class Frame:
    """The frame during a search: a flat grid of colour bits (0 empty), column heights, the disc supply,
    and for each column the colours whose drop there completes a card, kept up to date drop by drop."""

    def __init__(self, board: list[list[str]], rows: int, supply: list[int], table: Table) -> None:
        self.rows, self.table = rows, table
        self.grid = [0] * (len(board) * rows)
        self.heights = [len(col) for col in board]
        for x, col in enumerate(board):
            for y, colour in enumerate(col):
                self.grid[x * rows + y] = BIT[colour]
        self.supply = list(supply)  # discs left: blue/green, pink/yellow
        self.empty = len(self.grid) - sum(self.heights)
        self.masks = [self.column(x) for x in range(len(board))]

    def column(self, x: int) -> int:
        """The colours (4 bits per card) whose drop into column ``x`` completes a card."""
        h = self.heights[x]
        if h >= self.rows:
            return 0
        grid, mask = self.grid, 0
        for bit, j1, c1, j2, c2 in self.table[x * self.rows + h]:
            if grid[j1] == c1 and grid[j2] == c2:
                mask |= bit
        return mask

    def drop(self, x: int, bit: int) -> None:
        self.grid[x * self.rows + self.heights[x]] = bit
        self.heights[x] += 1
        self.supply[KIND_OF[bit]] -= 1
        self.empty -= 1
        self._refresh(x)

    def lift(self, x: int, bit: int) -> None:
        """Undo ``drop(x, bit)``."""
        self.heights[x] -= 1
        self.grid[x * self.rows + self.heights[x]] = 0
        self.supply[KIND_OF[bit]] += 1
        self.empty += 1
        self._refresh(x)

    def _refresh(self, x: int) -> None:
        for c in range(max(0, x - 2), min(len(self.masks), x + 3)):
            self.masks[c] = self.column(c)

    def open_columns(self) -> list[int]:
        return [x for x, h in enumerate(self.heights) if h < self.rows]

    def faces(self) -> list[int]:
        """The die faces still offered (a face whose disc kind has run out is rolled again)."""
        return [f for f in range(6) if self.supply[FACE_KIND[f]] > 0]

    def threats(self) -> int:
        """The colours (one 4-bit set) that complete a card somewhere now."""
        union = 0
        for m in self.masks:
            union |= m
        return colours(union)

    def chance(self, seat: int) -> float:
        """``seat``'s chance that its roll lets it complete a card now."""
        union = self.threats()
        if not union:
            return 0.0
        faces = self.faces()
        bits_of = FACE_BITS[seat]
        return sum(1 for f in faces if bits_of[f] & union) / len(faces) if faces else 0.0

    def spread(self) -> int:
        """How many (column, colour, card) finishes stand: the tie-break among drops that hand over equally."""
        return sum(bin(m).count("1") for m in self.masks)

    def gain(self, bits: int) -> int:
        """The most cards one drop of a colour in ``bits`` completes."""
        return max(bin(m & (b * 0x11)).count("1") for m in self.masks for b in (1, 2, 4, 8) if bits & b)


def _end(scores: list[int], seat: int) -> float:
    """A full frame that ends the game, in cards for ``seat``: ±WIN, or 0 for a draw."""
    mine, theirs = scores[seat], scores[1 - seat]
    return WIN if mine > theirs else (-WIN if mine < theirs else 0.0)
