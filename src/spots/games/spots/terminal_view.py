"""Drawing a position in the terminal with rich: what the physical table shows.

Nothing here knows a rule: it reads the state and prints it. ``plain`` drops
colour and unicode dice for terminals that cannot show them.
"""

from __future__ import annotations

import gettext

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from . import State, describe_phase
from .tricks import TILES

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
COLOURS = {"red": "red", "yellow": "yellow", "purple": "magenta", "green": "green", "blue": "blue"}


def die(value: int, plain: bool) -> str:
    return str(value) if plain else DIE_FACES[value - 1]


def board(state: State, plain: bool = False, names: list[str] | None = None,
          tr: gettext.NullTranslations | None = None) -> RenderableType:
    """The whole table: supplies and deck, the trick tiles, each player's mat, the dice in hand and the phase."""
    tr = tr or gettext.NullTranslations()
    parts: list[RenderableType] = [_head(state, tr), _tiles(state, plain, tr)]
    for seat in range(len(state.players)):
        title, table = _mat(state, seat, plain, names, tr)
        parts.append(Panel(Group(title, table), expand=False) if not plain else Group(title, table))
    if state.roll is not None and state.roll.dice:
        parts.append(Text(tr.gettext("In hand:") + " " + " ".join(die(v, plain) for v in state.roll.dice) +
                          f"   ({' '.join(map(str, state.roll.dice))})"))
    if state.set_aside:
        parts.append(Text(tr.ngettext("Set aside for Bolt: {n} die", "Set aside for Bolt: {n} dice", state.set_aside)
                          .format(n=state.set_aside)))
    labels = [_seat_label(seat, names, tr) for seat in range(len(state.players))]
    parts.append(Text(describe_phase(state, tr, labels), style="" if plain else "bold"))
    return Group(*parts)


def _seat_label(seat: int, names: list[str] | None, tr: gettext.NullTranslations) -> str:
    """A seat as people count it, from 1 (the notation counts from 0): 'Seat 1 (you)'."""
    return tr.gettext("Seat {seat}").format(seat=seat + 1) + (f" ({names[seat]})" if names else "")


def _head(state: State, tr: gettext.NullTranslations) -> Text:
    """The turn, the supplies and the deck."""
    _, ngettext = tr.gettext, tr.ngettext
    supply = ngettext("{n} die", "{n} dice", state.dice_supply).format(n=state.dice_supply)
    treat_supply = ngettext("{n} treat", "{n} treats", state.treat_supply).format(n=state.treat_supply)
    head = Text(_("Turn {turn}   supply: {dice}, {treats}").format(turn=state.turn, dice=supply, treats=treat_supply)
                + "   ")
    top = state.rules.cards[state.deck_top] if state.deck_top else None
    head.append(_("deck top: {dog} {spaces}").format(dog=top.title, spaces=list(top.spaces)) if top
                else _("deck: empty"))
    head.append(" " + _("({n} below)").format(n=len(state.deck_rest)))
    return head


def _tiles(state: State, plain: bool, tr: gettext.NullTranslations) -> Text:
    """The trick tiles, face down ones in brackets, with the treats on them."""
    tiles = Text(tr.gettext("Tricks:") + " ")
    for name, up, treats in zip(state.rules.tricks, state.face_up, state.tile_treats, strict=True):
        tile = TILES[name]
        label = tr.gettext(tile.title) if up else f"({tr.gettext(tile.title)})"
        style = "" if plain else (COLOURS[tile.colour] if up else "dim")
        tiles.append(label, style=style)
        if treats:
            tiles.append(" " + tr.ngettext("+{n} treat", "+{n} treats", treats).format(n=treats),
                         style="" if plain else "bold")
        tiles.append("  ")
    return tiles


def _mat(state: State, seat: int, plain: bool, names: list[str] | None, tr: gettext.NullTranslations
         ) -> tuple[Text, Table]:
    """One player's mat: a title line (yard, treats, scores) and their dogs."""
    _ = tr.gettext
    rules, player = state.rules, state.players[seat]
    turn = seat == state.seat and not state.is_terminal()
    who = _seat_label(seat, names, tr)
    yard = player.yard_total()
    danger = "" if plain else ("bold red" if yard >= rules.bust_limit - 1 else "")
    title = Text(f"{'▶ ' if turn and not plain else ('> ' if turn else '')}{who}   ")
    dice = ' '.join(die(v, plain) for v in sorted(player.yard)) or '-'
    title.append(_("yard {dice} = {total}/{limit}").format(dice=dice, total=yard, limit=rules.bust_limit),
                 style=danger)
    title.append("   " + _("treats {treats}   scored {scored}/{target}   paws {paws}   busts {busts}").format(
        treats=player.treats, scored=player.scored_count(), target=rules.target, paws=state.paws(seat),
        busts=state.busts[seat]))
    table = Table(show_header=False, box=None, padding=(0, 1))
    for dog in player.dogs:
        card = rules.cards[dog.name]
        if dog.scored:
            scored = Text(_("scored"), style="" if plain else "green")
            table.add_row(Text(card.title, style="" if plain else "dim"), scored)
            continue
        spaces = Text()
        for v in dog.spaces:
            if v in dog.filled:
                spaces.append(f"[{die(v, plain)}]", style="" if plain else "bold cyan")
            else:
                spaces.append(f" {v} ")
        paws = " " + " ".join([_("paw")] * card.paws) if card.paws else ""
        status = " " + _("complete") if dog.complete else ""
        table.add_row(Text(card.title), spaces, Text(paws + status, style="" if plain else "yellow"))
    return title, table
