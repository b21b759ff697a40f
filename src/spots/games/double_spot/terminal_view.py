"""Drawing a Double Spot position in the terminal with rich: the frame as one player sees it.

Why a player's side: the two players look at the same frame from opposite
sides, so each sees left and right swapped and every disc's other face (blue for
green, pink for yellow). A drop is written from the mover's side (``drop 3 blue``:
column 3 from their left, blue toward them), so the picture shown at a prompt is
that player's view, with the columns numbered as they type them. Nothing here
knows a rule: it reads the state. ``plain`` uses letters (B, G, P, Y and '.').
"""

from __future__ import annotations

import gettext

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import Card, State
from .patterns import LETTER_OF, LETTERS
from .state import KINDS
from .words import colour_word

DISC = "●"
EMPTY = "·"
STYLES = {"blue": "bold blue", "green": "bold green", "pink": "bold magenta", "yellow": "bold yellow"}


def disc(colour: str | None, plain: bool) -> Text:
    """One cell: a coloured disc, or its letter when plain; an empty cell is a dot."""
    if colour is None:
        return Text("." if plain else EMPTY, style="" if plain else "dim")
    return Text(LETTER_OF[colour] if plain else DISC, style="" if plain else STYLES[colour])


def frame(state: State, seat: int, plain: bool) -> Text:
    """The board from ``seat``'s side, top row first, columns numbered 1.. from their left."""
    view = state.view(seat)
    width = 3 if state.rules.columns >= 10 else 2
    text = Text()
    for row in range(state.rules.rows - 1, -1, -1):
        for col in view:
            text.append_text(disc(col[row] if row < len(col) else None, plain))
            text.append(" " * (width - 1))
        text.rstrip()
        text.append("\n")
    text.append("".join(str(n).ljust(width) for n in range(1, state.rules.columns + 1)).rstrip(),
                style="" if plain else "dim")
    return text


def card_picture(card: Card | None, seat: int, plain: bool) -> Text:
    """A face-up card's pattern as ``seat`` sees it (seat 1 sees its back: mirrored, colours flipped)."""
    text = Text()
    if card is None:
        return text
    for i, line in enumerate(card.rows(seat)):
        if i:
            text.append("\n")
        for j, letter in enumerate(line):
            if j:
                text.append(" ")
            text.append_text(disc(LETTERS.get(letter), plain))
    return text


def board(state: State, seat: int, names: list[str], plain: bool = False,
          tr: gettext.NullTranslations | None = None) -> RenderableType:
    """The whole table for ``seat``: turn, die and supply, the frame and both face-up cards, each player's cards."""
    tr = tr or gettext.NullTranslations()
    _, ngettext = tr.gettext, tr.ngettext
    head = Text(_("Turn {turn}").format(turn=state.turn))
    if state.die is not None:
        head.append("   ")
        colours = {"blue-green": "blue", "pink-yellow": "pink"}
        head.append(_("Die: {die}").format(die=colour_word(state.die, tr)),
                    style="" if plain else STYLES[colours.get(state.die, state.die)])
    supply = ", ".join(f"{state.supply[kind]} {colour_word(kind, tr)}" for kind in KINDS)
    head.append("   " + _("discs left: {supply}").format(supply=supply))
    left = len(state.deck)
    head.append("   " + ngettext("{n} card left in the deck", "{n} cards left in the deck", left).format(n=left))
    grid = Table.grid(padding=(0, 4))
    cells: list[RenderableType] = [Group(Text(_("The board as {who} sees it:").format(who=names[seat])),
                                         frame(state, seat, plain))]
    for holder, card in enumerate(state.showing()):
        label = _("Holder {n}").format(n=holder + 1) + ": " + (card.id if card is not None else "-")
        cells.append(Group(Text(label), card_picture(card, seat, plain)))
    for _cell in cells:
        grid.add_column(vertical="top")
    grid.add_row(*cells)
    lines: list[RenderableType] = [head, grid]
    for s in (seat, 1 - seat):
        mover = s == state.seat and not state.is_terminal() and not state.is_chance_node()
        won = " ".join(state.won[s]) or "-"
        mark = ("> " if plain else "▶ ") if mover else "  "
        line = Text(mark + _("Cards of {who}: {cards}").format(who=names[s], cards=won))
        line.append(f"   ({len(state.won[s])}/{state.rules.target})")
        lines.append(line)
    return Group(*lines)
