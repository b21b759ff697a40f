"""Pattern cards: parsing the shipped deck, rotations, and finding patterns on a board.

A card is drawn as rows of letters, top row first (``B`` blue, ``G`` green,
``P`` pink, ``Y`` yellow, ``.`` empty), as seen from the front (seat 0). Cells
are ``(x, y, colour)`` with ``y`` counted upward, so they line up with the board
(column, row from the bottom). Matching allows the four rotations and never the
mirror image: the mirror, with the colours swapped, is the other side's view.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from ...core.errors import DeckError

COLOURS = ("blue", "green", "pink", "yellow")
LETTERS = {"B": "blue", "G": "green", "P": "pink", "Y": "yellow"}
LETTER_OF = {v: k for k, v in LETTERS.items()}
FLIP = {"blue": "green", "green": "blue", "pink": "yellow", "yellow": "pink"}
KIND = {"blue": "blue-green", "green": "blue-green", "pink": "pink-yellow", "yellow": "pink-yellow"}

Cell = tuple[int, int, str]
Shape = tuple[Cell, ...]


def normalise(cells: Iterable[Cell]) -> Shape:
    """Translate cells so the lowest x and y are 0, sorted: one form per placement-free shape."""
    cells = list(cells)
    mx = min(x for x, _, _ in cells)
    my = min(y for _, y, _ in cells)
    return tuple(sorted((x - mx, y - my, c) for x, y, c in cells))


def rotate(cells: Shape) -> Shape:
    """A quarter turn clockwise (as seen from the front)."""
    return normalise((y, -x, c) for x, y, c in cells)


def rotations(cells: Shape) -> tuple[Shape, ...]:
    """The distinct rotations of a pattern (1, 2 or 4 of them)."""
    out: list[Shape] = []
    shape = normalise(cells)
    for _ in range(4):
        if shape not in out:
            out.append(shape)
        shape = rotate(shape)
    return tuple(out)


def canonical(cells: Shape) -> Shape:
    """The same form for a pattern and all its rotations (to test 'distinct up to rotation')."""
    return min(rotations(cells))


def mirror(cells: Shape) -> Shape:
    """The pattern as seen from the back: left and right swapped, each colour flipped."""
    width = max(x for x, _, _ in cells)
    return normalise((width - x, y, FLIP[c]) for x, y, c in cells)


def connected(cells: Shape) -> bool:
    """Every cell reachable from the first by edge or corner steps."""
    todo, seen = [cells[0]], {cells[0][:2]}
    spots = {(x, y) for x, y, _ in cells}
    while todo:
        x, y, _ = todo.pop()
        for nx, ny, c in cells:
            if (nx, ny) not in seen and max(abs(nx - x), abs(ny - y)) == 1:
                seen.add((nx, ny))
                todo.append((nx, ny, c))
    return seen == spots


def parse_rows(rows: Sequence[str], where: str = "card") -> Shape:
    """Card rows (top first) as cells with y upward; ``where`` names the card in errors."""
    height = len(rows)
    cells = []
    for r, line in enumerate(rows):
        for x, ch in enumerate(line):
            if ch == ".":
                continue
            if ch not in LETTERS:
                raise DeckError(f"{where}: unknown colour letter {ch!r} in {list(rows)}; use B, G, P, Y or .")
            cells.append((x, height - 1 - r, LETTERS[ch]))
    if not cells:
        raise DeckError(f"{where}: no cells in {list(rows)}; a card shows 3 coloured cells")
    return normalise(cells)


def draw_rows(cells: Shape) -> list[str]:
    """Cells back to rows of letters, top first (the inverse of ``parse_rows``)."""
    width = max(x for x, _, _ in cells) + 1
    height = max(y for _, y, _ in cells) + 1
    grid = [["."] * width for _ in range(height)]
    for x, y, c in cells:
        grid[height - 1 - y][x] = LETTER_OF[c]
    return ["".join(row) for row in grid]


@dataclass(frozen=True)
class Card:
    """A pattern card: its id (used in notation) and its cells as seen from the front."""

    id: str
    cells: Shape
    turns: tuple[Shape, ...] = field(default=(), compare=False)
    holes: tuple[tuple[str, Shape], ...] = field(default=(), compare=False)

    @classmethod
    def make(cls, card_id: str, cells: Shape) -> Card:
        turns = rotations(cells)
        # For bots: each way to complete the card with one last disc, as that disc's colour and the
        # other two cells relative to it. Precomputed because bots ask this thousands of times a move.
        holes = tuple(
            (c, tuple((ox - x, oy - y, oc) for ox, oy, oc in shape if (ox, oy) != (x, y)))
            for shape in turns
            for x, y, c in shape
        )
        return cls(card_id, normalise(cells), turns, holes)

    def rows(self, seat: int = 0) -> list[str]:
        """The card as seat ``seat`` sees it (seat 1 sees the mirrored, colour-flipped back)."""
        return draw_rows(self.cells if seat == 0 else mirror(self.cells))


def check_card(where: str, cells: Shape) -> None:
    """The rules' constraints on one card: 3 cells in a 3×3 box, touching, four colours only."""
    if len(cells) != 3 or len({(x, y) for x, y, _ in cells}) != 3:
        raise DeckError(f"{where}: a pattern has exactly 3 distinct cells, not {len(cells)}")
    if max(max(x, y) for x, y, _ in cells) > 2:
        raise DeckError(f"{where}: the pattern must fit in a 3×3 box")
    if not connected(cells):
        raise DeckError(f"{where}: every cell must touch another by an edge or a corner")


MIN_CARDS = 2  # one for each holder


def parse_deck(doc: object, source: str = "deck") -> tuple[Card, ...]:
    """A deck document (``{"cards": [{"id": .., "rows": [..]}, ..]}``) checked against the rules.

    Anything else raises DeckError, starting with ``source`` and saying what is wrong and what is allowed.
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
        raise DeckError(f'{source}: expected an object with a list of cards, {{"cards": [...]}}')
    if len(doc["cards"]) < MIN_CARDS:
        raise DeckError(f"{source}: a deck needs at least {MIN_CARDS} cards (one for each holder), "
                        f"not {len(doc['cards'])}")
    cards: list[Card] = []
    seen: dict[Shape, str] = {}
    for number, entry in enumerate(doc["cards"], 1):
        ok = isinstance(entry, dict) and isinstance(entry.get("id"), str) and isinstance(entry.get("rows"), list)
        if not ok:
            raise DeckError(f"{source}: card {number}: expected an object with an 'id' (text) and 'rows' "
                            f"(a list of text), not {entry!r}")
        card_id = entry["id"]
        if not card_id or " " in card_id or card_id in {c.id for c in cards}:
            raise DeckError(f"{source}: card ids must be unique single words, not {card_id!r}")
        where = f"{source}: card {card_id}"
        if not all(isinstance(row, str) for row in entry["rows"]):
            raise DeckError(f"{where}: each row is text such as 'BG.', not {entry['rows']!r}")
        cells = parse_rows(entry["rows"], where)
        check_card(where, cells)
        key = canonical(cells)
        if key in seen:
            raise DeckError(f"{where} is a rotation of card {seen[key]}")
        seen[key] = card_id
        cards.append(Card.make(card_id, cells))
    return tuple(cards)


@cache
def standard_deck() -> tuple[Card, ...]:
    """The shipped 40-card deck (``data/patterns.json``)."""
    text = resources.files("spots.games.double_spot").joinpath("data/patterns.json").read_text("utf-8")
    return parse_deck(json.loads(text), "data/patterns.json")


def load_deck(path: str | Path) -> tuple[Card, ...]:
    try:
        doc = json.loads(Path(path).read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise DeckError(f"cannot read deck {str(path)!r}: {exc}") from None
    return parse_deck(doc, str(path))


# ------------------------------------------------------------------ matching
# A board is a list of columns, each a list of colours from the bottom up (seat 0's view).

Board = list[list[str]]


def _fits(board: Board, shape: Shape, ox: int, oy: int) -> bool:
    width = len(board)
    for x, y, c in shape:
        col = ox + x
        if not 0 <= col < width or not 0 <= oy + y < len(board[col]) or board[col][oy + y] != c:
            return False
    return True


def on_board(board: Board, card: Card) -> bool:
    """Whether the card's pattern shows anywhere on the board, in any rotation."""
    width = len(board)
    for shape in card.turns:
        x0, y0, c0 = shape[0]
        for col in range(width):
            column = board[col]
            for row, colour in enumerate(column):
                if colour == c0 and _fits(board, shape, col - x0, row - y0):
                    return True
    return False


def through(board: Board, card: Card, col: int, row: int) -> bool:
    """Whether the pattern shows using the disc at (col, row): the quick test after a drop."""
    colour = board[col][row]
    for shape in card.turns:
        for x, y, c in shape:
            if c == colour and _fits(board, shape, col - x, row - y):
                return True
    return False


def finishes(board: Board, card: Card, rows: int) -> set[tuple[int, str]]:
    """Every (column, colour) whose single drop would complete the card (for bots)."""
    out: set[tuple[int, str]] = set()
    width = len(board)
    for col in range(width):
        row = len(board[col])
        if row >= rows:
            continue
        for colour, others in card.holes:
            for dx, dy, c in others:
                x, y = col + dx, row + dy
                if not (0 <= x < width and 0 <= y < len(board[x]) and board[x][y] == c):
                    break
            else:
                out.add((col, colour))
    return out
