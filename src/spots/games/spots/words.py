"""A plain-text picture of a position, for the command line and logs."""

from __future__ import annotations

import gettext
from collections.abc import Callable
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
            scored = state.players[state.winner].scored_count()
            if names:
                return ngettext("Game over: {who} wins with {n} scored dog.",
                                "Game over: {who} wins with {n} scored dogs.", scored).format(
                    who=names[state.winner], n=scored)
            return ngettext("Game over: seat {seat} wins with {n} scored dog.",
                            "Game over: seat {seat} wins with {n} scored dogs.", scored).format(seat=state.winner,
                                                                                                 n=scored)
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


class _Said:
    """What a move's line needs: the position before it, the move's words, the names, the language."""

    def __init__(self, before: State, parts: list[str], names: list[str], tr: gettext.NullTranslations) -> None:
        self.before, self.parts, self.names, self.tr = before, parts, names, tr
        self._ = tr.gettext
        self.ngettext = tr.ngettext
        self.who = names[before.seat] if 0 <= before.seat < len(names) else "?"
        self.chance_for = list(before.chance_for)

    def dog(self, name: str) -> str:
        return dog_title(self.before, name)


def _reveal(s: _Said) -> str:
    if s.chance_for and s.chance_for[0] == "deal":
        return s._("{who} is dealt {dog}.").format(who=s.names[s.chance_for[1]], dog=s.dog(s.parts[1]))
    return s._("{dog} turns up on top of the deck.").format(dog=s.dog(s.parts[1]))


def _roll(s: _Said) -> str:
    faces = _dice(s.parts[1:])
    if s.chance_for and s.chance_for[0] == "first-die":
        return s._("{who} rolls a first die and buries it: {faces}.").format(who=s.names[s.chance_for[1]],
                                                                             faces=faces)
    return s._("{who} rolls {faces}.").format(who=s.who, faces=faces)


def _reroll(s: _Said) -> str:
    if len(s.parts) > 1:
        return s._("{who} spends a treat to reroll {faces}.").format(who=s.who, faces=_dice(s.parts[1:]))
    return s._("{who} spends a treat to reroll the dice.").format(who=s.who)


def _bury(s: _Said) -> str:
    total = s.before.players[s.before.seat].yard_total() + int(s.parts[1])
    return s._("{who} buries a {v} (yard {total}/{limit}).").format(who=s.who, v=s.parts[1], total=total,
                                                                    limit=s.before.rules.bust_limit)


def _choose(s: _Said) -> str:
    if s.before.phase == "guard":
        return s._("{who} names {v}.").format(who=s.who, v=s.parts[1])
    if s.before.phase == "retrieve":
        return s._("{who} sets the retrieved die to {v}.").format(who=s.who, v=s.parts[1])
    return s._("{who} keeps the {v}s.").format(who=s.who, v=s.parts[1])


def _discard(s: _Said) -> str:
    if len(s.parts) > 1:
        return s._("{who} returns {faces} to the supply.").format(who=s.who, faces=_dice(s.parts[1:]))
    return s._("{who} returns nothing to the supply.").format(who=s.who)


def _set_aside(s: _Said) -> str:
    n = int(s.parts[1])
    return s.ngettext("{who} sets aside {n} die.", "{who} sets aside {n} dice.", n).format(who=s.who, n=n)


def _dig(s: _Said) -> str:
    owner = s.names[int(s.parts[1])]
    if s.parts[3] == "up":
        return s._("{who} raises {owner}'s buried {v}.").format(who=s.who, owner=owner, v=s.parts[2])
    return s._("{who} lowers {owner}'s buried {v}.").format(who=s.who, owner=owner, v=s.parts[2])


def _move(s: _Said) -> str:
    src, dst = s.dog(s.parts[1]), s.dog(s.parts[3])
    return s._("{who} moves the die on {src}'s {a} to {dst}'s {b}.").format(who=s.who, src=src, a=s.parts[2],
                                                                            dst=dst, b=s.parts[4])


def _take(s: _Said) -> str:
    if s.parts[1] == "yard":
        return s._("{who} takes the {v} from the yard for the Dogpile.").format(who=s.who, v=s.parts[2])
    return s._("{who} takes the {v} from {dog} for the Dogpile.").format(who=s.who, v=s.parts[2],
                                                                         dog=s.dog(s.parts[1]))


_SAY: dict[str, Callable[[_Said], str]] = {
    "reveal": _reveal, "roll": _roll, "reroll": _reroll, "bury": _bury, "choose": _choose, "discard": _discard,
    "set-aside": _set_aside, "dig": _dig, "move": _move, "take": _take,
    "trick": lambda s: s._("{who} does {trick}.").format(who=s.who, trick=s._(TILES[s.parts[1]].title)),
    "place": lambda s: s._("{who} places a {v} on {dog}.").format(who=s.who, v=s.parts[1], dog=s.dog(s.parts[2])),
    "pick": lambda s: s._("{who} keeps {faces}.").format(who=s.who, faces=_dice(s.parts[1:])),
    "continue": lambda s: s._("{who} rolls again.").format(who=s.who),
    "stop": lambda s: s._("{who} stops.").format(who=s.who),
}


def describe_move(before: State, move: str, after: State | None = None, names: list[str] | None = None,
                  tr: gettext.NullTranslations | None = None) -> str:
    """One log line for a move, in plain words: what was done, by whom, and what it caused.

    ``before`` is the position the move was made in; with ``after`` (the position it led to) the
    line also tells busts, fast-and-risky scores, draws, treats taken and the end. ``names`` are
    the players' names (default ``Seat 0``, ``Seat 1``, ...). ``tr`` is the language (default
    English: the text in the code). Every front end's game log uses this.
    """
    tr = tr or ENGLISH
    names = names or [tr.gettext("Seat {seat}").format(seat=s) for s in range(before.rules.players)]
    said = _Said(before, move.split(), names, tr)
    kind = said.parts[0]
    if kind == "score":
        if after is None:
            raise ValueError("describing a score needs the position after it")
        gained = after.players[before.seat].scored_count() - before.players[before.seat].scored_count()
        text = tr.ngettext("{who} scores {n} dog.", "{who} scores {n} dogs.", gained).format(who=said.who, n=gained)
    else:
        say = _SAY.get(kind)
        text = say(said) if say else f"{said.who}: {move}."
    if after is None:
        return text
    return " ".join([text, *_consequences(said, after)])


def _consequences(s: _Said, after: State) -> list[str]:
    """What a move caused, in words: busts, fast-and-risky scores, draws, treats, the first player, the end."""
    before, names, _, kind = s.before, s.names, s._, s.parts[0]
    extras = [_("{who} busts!").format(who=names[seat])
              for seat, (b, a) in enumerate(zip(before.busts, after.busts, strict=True)) if a > b]
    pairs = list(enumerate(zip(before.players, after.players, strict=True)))
    if kind != "score":
        for seat, (pb, pa) in pairs:
            gained = pa.scored_count() - pb.scored_count()
            if gained > 0:
                extras.append(s.ngettext("{who} scores {n} dog (fast and risky)!",
                                         "{who} scores {n} dogs (fast and risky)!", gained).format(who=names[seat],
                                                                                                   n=gained))
    if kind != "reveal":
        for seat, (pb, pa) in pairs:
            old = {d.name for d in pb.dogs}
            extras += [_("{who} draws {dog}.").format(who=names[seat], dog=dog_title(after, d.name))
                       for d in pa.dogs if d.name not in old]
    if kind in ("trick", "bury"):
        gained = after.players[before.seat].treats - before.players[before.seat].treats
        if gained > 0:
            extras.append(s.ngettext("{who} takes {n} treat.", "{who} takes {n} treats.", gained).format(who=s.who,
                                                                                                        n=gained))
    if before.first_player is None and after.first_player is not None:
        extras.append(_("{who} goes first.").format(who=names[after.first_player]))
    if after.is_terminal() and not before.is_terminal():
        if after.winner is not None:
            extras.append(_("{who} wins the game!").format(who=names[after.winner]))
        else:
            extras.append(_("The turn limit ends the game."))
    return extras
