"""Drawing a position in the terminal with rich: what the physical table shows.

Nothing here knows a rule: it reads the state and prints it. ``plain`` drops
colour and unicode dice for terminals that cannot show them.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine import State, describe_phase
from ..engine.tricks import TILES

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
COLOURS = {"red": "red", "yellow": "yellow", "purple": "magenta", "green": "green", "blue": "blue"}


def die(value: int, plain: bool) -> str:
    return str(value) if plain else DIE_FACES[value - 1]


def board(state: State, plain: bool = False, names: list[str] | None = None) -> RenderableType:
    rules = state.rules
    parts: list[RenderableType] = []
    head = Text(f"Turn {state.turn}   supply: {state.dice_supply} dice, {state.treat_supply} treats   ")
    top = rules.cards[state.deck_top] if state.deck_top else None
    head.append(f"deck top: {top.title} {list(top.spaces)}" if top else "deck: empty")
    head.append(f" ({len(state.deck_rest)} below)")
    parts.append(head)
    tiles = Text("Tricks: ")
    for name, up, treats in zip(rules.tricks, state.face_up, state.tile_treats, strict=True):
        tile = TILES[name]
        label = tile.title if up else f"({tile.title})"
        style = "" if plain else (COLOURS[tile.colour] if up else "dim")
        tiles.append(label, style=style)
        if treats:
            tiles.append(f" +{treats} treat{'s' if treats > 1 else ''}", style="" if plain else "bold")
        tiles.append("  ")
    parts.append(tiles)
    for seat, player in enumerate(state.players):
        turn = seat == state.seat and not state.is_terminal()
        who = f"Seat {seat}" + (f" ({names[seat]})" if names else "")
        yard = player.yard_total()
        danger = "" if plain else ("bold red" if yard >= rules.bust_limit - 1 else "")
        title = Text(f"{'▶ ' if turn and not plain else ('> ' if turn else '')}{who}   ")
        title.append(f"yard {' '.join(die(v, plain) for v in sorted(player.yard)) or '-'} = {yard}/{rules.bust_limit}",
                     style=danger)
        title.append(f"   treats {player.treats}   scored {player.scored_count()}/{rules.target}   "
                     f"paws {state.paws(seat)}   busts {state.busts[seat]}")
        table = Table(show_header=False, box=None, padding=(0, 1))
        for dog in player.dogs:
            card = rules.cards[dog.name]
            if dog.scored:
                scored = Text("scored", style="" if plain else "green")
                table.add_row(Text(card.title, style="" if plain else "dim"), scored)
                continue
            spaces = Text()
            for v in dog.spaces:
                if v in dog.filled:
                    spaces.append(f"[{die(v, plain)}]", style="" if plain else "bold cyan")
                else:
                    spaces.append(f" {v} ")
            paws = f" {'paw ' * card.paws}".rstrip() if card.paws else ""
            status = " complete" if dog.complete else ""
            table.add_row(Text(card.title), spaces, Text(paws + status, style="" if plain else "yellow"))
        parts.append(Panel(Group(title, table), expand=False) if not plain else Group(title, table))
    if state.roll is not None and state.roll.dice:
        parts.append(Text("In hand: " + " ".join(die(v, plain) for v in state.roll.dice) +
                          f"   ({' '.join(map(str, state.roll.dice))})"))
    if state.set_aside:
        parts.append(Text(f"Set aside for Bolt: {state.set_aside} dice"))
    parts.append(Text(describe_phase(state), style="" if plain else "bold"))
    return Group(*parts)


def moves_table(moves: list[str]) -> str:
    """The legal moves, numbered, in columns."""
    cells = [f"{i:>2}. {m}" for i, m in enumerate(moves, 1)]
    width = max(len(c) for c in cells) + 2
    per_row = max(1, 96 // width)
    rows = [cells[i:i + per_row] for i in range(0, len(cells), per_row)]
    return "\n".join("".join(c.ljust(width) for c in row).rstrip() for row in rows)
