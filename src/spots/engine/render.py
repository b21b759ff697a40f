"""A plain-text picture of a position, for the command line and logs."""

from __future__ import annotations

import gettext
from typing import TYPE_CHECKING

from .dice import faces_text as _dice
from .tricks import TILES

if TYPE_CHECKING:
    from .state import State

ENGLISH = gettext.NullTranslations()  # the text in the code


def describe_phase(state: State, tr: gettext.NullTranslations | None = None, names: list[str] | None = None) -> str:
    """Where the game is, in words: whose move and inside which trick step.

    ``tr``: the language (default English); ``names``: the players' names (default ``Seat 0``, ...).
    """
    tr = tr or ENGLISH
    _ = tr.gettext
    ngettext = tr.ngettext
    if state.is_terminal():
        if state.winner is not None:
            target = state.rules.target
            return ngettext("Game over: seat {seat} wins with {n} scored dogs.",
                            "Game over: seat {seat} wins with {n} scored dogs.", target).format(seat=state.winner,
                                                                                                 n=target)
        return _("Game over: the turn limit was reached.")
    if state.is_chance_node():
        if state.phase == "chance-roll":
            n = state.pending_dice
            return ngettext("Chance: a roll of {n} die.", "Chance: a roll of {n} dice.", n).format(n=n)
        return _("Chance: a card is revealed.")
    asks = {
        "turn": _("choose a trick or score"),
        "roll": _("resolve the roll"),
        "continue": _("roll again or stop"),
        "trot": _("move a die or stop"),
        "dig": ngettext("dig ({n} left) or stop", "dig ({n} left) or stop", state.digs_left).format(n=state.digs_left),
        "retrieve": _("choose the number for the retrieved die"),
        "bolt": _("set aside dice"),
        "take": _("take a die for the Dogpile"),
        "guard": _("name a number"),
    }
    ask = asks.get(state.phase or "", state.phase)
    who = names[state.seat] if names else _("Seat {seat}").format(seat=state.seat)
    if state.trick is not None:
        return _("{who} to move, doing {trick} (step {step}): {ask}.").format(
            who=who, trick=_(TILES[state.trick].title), step=state.step + 1, ask=ask)
    return _("{who} to move: {ask}.").format(who=who, ask=ask)


def render(state: State) -> str:
    """The position as plain English text (``spots show``, ``spots hint``, logs); counts take their plural."""
    rules = state.rules
    ngettext = ENGLISH.ngettext
    dice = ngettext("{n} die", "{n} dice", state.dice_supply).format(n=state.dice_supply)
    lines = [f"Turn {state.turn}  |  supply: {dice}, "
             + ngettext("{n} treat", "{n} treats", state.treat_supply).format(n=state.treat_supply)]
    tiles = []
    for name, up, treats in zip(rules.tricks, state.face_up, state.tile_treats, strict=True):
        mark = TILES[name].title if up else f"({TILES[name].title})"
        tiles.append(mark + (" " + ngettext("+{n} treat", "+{n} treats", treats).format(n=treats) if treats else ""))
    lines.append("Tricks: " + ", ".join(tiles) + "   (face down in brackets)")
    rest = len(state.deck_rest)
    top = rules.cards[state.deck_top] if state.deck_top else None
    top_text = f"{top.title} {list(top.spaces)}" if top else "none"
    lines.append(f"Deck: top {top_text}, {rest} more below")
    for seat, player in enumerate(state.players):
        marker = ">" if seat == state.seat and not state.is_terminal() else " "
        yard = player.yard_total()
        owned = ngettext("{n} treat", "{n} treats", player.treats).format(n=player.treats)
        lines.append(
            f"{marker} Seat {seat}: {owned}, yard {sorted(player.yard)} = {yard}/{rules.bust_limit}, "
            f"scored {player.scored_count()}/{rules.target}, paws {state.paws(seat)}"
        )
        for dog in player.dogs:
            if dog.scored:
                lines.append(f"    {rules.cards[dog.name].title}: scored")
                continue
            spaces = " ".join(f"[{v}]" if v in dog.filled else f" {v} " for v in dog.spaces)
            done = "  complete" if dog.complete else ""
            lines.append(f"    {rules.cards[dog.name].title:<10} {spaces}{done}")
    if state.roll is not None and state.roll.dice:
        lines.append(f"In hand: {' '.join(map(str, state.roll.dice))}")
    if state.set_aside:
        lines.append(f"Set aside (Bolt): {state.set_aside}")
    lines.append(describe_phase(state))
    return "\n".join(lines)


def dog_title(state: State, dog: str) -> str:
    """A dog's printed name from its notation name."""
    card = state.rules.cards.get(dog)
    return card.title if card else dog


def describe_move(before: State, move: str, after: State | None = None, names: list[str] | None = None,
                  tr: gettext.NullTranslations | None = None) -> str:
    """One log line for a move, in plain words: what was done, by whom, and what it caused.

    ``before`` is the position the move was made in; with ``after`` (the position it led to) the
    line also tells busts, fast-and-risky scores, draws, treats taken and the end. ``names`` are
    the players' names (default ``Seat 0``, ``Seat 1``, ...). ``tr`` is the language (default
    English: the text in the code). Every front end's game log uses this.
    """
    tr = tr or ENGLISH
    _ = tr.gettext
    ngettext = tr.ngettext
    names = names or [_("Seat {seat}").format(seat=s) for s in range(before.rules.players)]
    parts = move.split()
    kind = parts[0]
    who = names[before.seat] if 0 <= before.seat < len(names) else "?"
    chance_for = list(before.chance_for)
    if kind == "reveal":
        if chance_for and chance_for[0] == "deal":
            text = _("{who} is dealt {dog}.").format(who=names[chance_for[1]], dog=dog_title(before, parts[1]))
        else:
            text = _("{dog} turns up on top of the deck.").format(dog=dog_title(before, parts[1]))
    elif kind == "roll":
        faces = _dice(parts[1:])
        if chance_for and chance_for[0] == "first-die":
            text = _("{who} rolls a first die and buries it: {faces}.").format(who=names[chance_for[1]], faces=faces)
        else:
            text = _("{who} rolls {faces}.").format(who=who, faces=faces)
    elif kind == "trick":
        text = _("{who} does {trick}.").format(who=who, trick=_(TILES[parts[1]].title))
    elif kind == "score":
        gained = after.players[before.seat].scored_count() - before.players[before.seat].scored_count()
        text = ngettext("{who} scores {n} dog.", "{who} scores {n} dogs.", gained).format(who=who, n=gained)
    elif kind == "reroll":
        if len(parts) > 1:
            text = _("{who} spends a treat to reroll {faces}.").format(who=who, faces=_dice(parts[1:]))
        else:
            text = _("{who} spends a treat to reroll the dice.").format(who=who)
    elif kind == "place":
        text = _("{who} places a {v} on {dog}.").format(who=who, v=parts[1], dog=dog_title(before, parts[2]))
    elif kind == "bury":
        total = before.players[before.seat].yard_total() + int(parts[1])
        text = _("{who} buries a {v} (yard {total}/{limit}).").format(who=who, v=parts[1], total=total,
                                                                      limit=before.rules.bust_limit)
    elif kind == "choose":
        if before.phase == "guard":
            text = _("{who} names {v}.").format(who=who, v=parts[1])
        elif before.phase == "retrieve":
            text = _("{who} sets the retrieved die to {v}.").format(who=who, v=parts[1])
        else:
            text = _("{who} keeps the {v}s.").format(who=who, v=parts[1])
    elif kind == "pick":
        text = _("{who} keeps {faces}.").format(who=who, faces=_dice(parts[1:]))
    elif kind == "discard":
        if len(parts) > 1:
            text = _("{who} returns {faces} to the supply.").format(who=who, faces=_dice(parts[1:]))
        else:
            text = _("{who} returns nothing to the supply.").format(who=who)
    elif kind == "set-aside":
        n = int(parts[1])
        text = ngettext("{who} sets aside {n} die.", "{who} sets aside {n} dice.", n).format(who=who, n=n)
    elif kind == "dig":
        owner = names[int(parts[1])]
        if parts[3] == "up":
            text = _("{who} raises {owner}'s buried {v}.").format(who=who, owner=owner, v=parts[2])
        else:
            text = _("{who} lowers {owner}'s buried {v}.").format(who=who, owner=owner, v=parts[2])
    elif kind == "move":
        src, dst = dog_title(before, parts[1]), dog_title(before, parts[3])
        text = _("{who} moves the die on {src}'s {a} to {dst}'s {b}.").format(who=who, src=src, a=parts[2], dst=dst,
                                                                              b=parts[4])
    elif kind == "take":
        if parts[1] == "yard":
            text = _("{who} takes the {v} from the yard for the Dogpile.").format(who=who, v=parts[2])
        else:
            text = _("{who} takes the {v} from {dog} for the Dogpile.").format(who=who, v=parts[2],
                                                                               dog=dog_title(before, parts[1]))
    elif kind == "continue":
        text = _("{who} rolls again.").format(who=who)
    elif kind == "stop":
        text = _("{who} stops.").format(who=who)
    else:
        text = f"{who}: {move}."
    if after is None:
        return text
    extras = []
    for seat, (b, a) in enumerate(zip(before.busts, after.busts, strict=True)):
        if a > b:
            extras.append(_("{who} busts!").format(who=names[seat]))
    if kind != "score":
        for seat, (pb, pa) in enumerate(zip(before.players, after.players, strict=True)):
            gained = pa.scored_count() - pb.scored_count()
            if gained > 0:
                extras.append(ngettext("{who} scores {n} dog (fast and risky)!",
                                       "{who} scores {n} dogs (fast and risky)!", gained).format(who=names[seat],
                                                                                                 n=gained))
    for seat, (pb, pa) in enumerate(zip(before.players, after.players, strict=True)):
        old = {d.name for d in pb.dogs}
        for d in pa.dogs:
            if d.name not in old and kind != "reveal":
                extras.append(_("{who} draws {dog}.").format(who=names[seat], dog=dog_title(after, d.name)))
    if kind in ("trick", "bury"):
        gained = after.players[before.seat].treats - before.players[before.seat].treats
        if gained > 0:
            extras.append(ngettext("{who} takes {n} treat.", "{who} takes {n} treats.", gained).format(who=who,
                                                                                                      n=gained))
    if before.first_player is None and after.first_player is not None:
        extras.append(_("{who} goes first.").format(who=names[after.first_player]))
    if after.is_terminal() and not before.is_terminal():
        if after.winner is not None:
            extras.append(_("{who} wins the game!").format(who=names[after.winner]))
        else:
            extras.append(_("The turn limit ends the game."))
    return " ".join([text, *extras])
