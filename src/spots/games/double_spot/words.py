"""Double Spot in plain words: what a move did and where the game stands, for logs and screens.

Why here and not in a front end: the terminal and the web app tell the same
story, and only the engine knows which cards a drop took. ``tr`` is any
gettext translations object (``spots.i18n.translator``); without it the text is
English. Columns and colours are told from the mover's side, as they wrote it.
"""

from __future__ import annotations

import gettext

from .rules import Rules
from .state import State

ENGLISH = gettext.NullTranslations()


def N_(text: str) -> str:
    """Marks a text for extraction; translated where it is shown."""
    return text


# Colours and die faces, as a player says them.
COLOUR_WORDS = {
    "blue": N_("blue"), "green": N_("green"), "pink": N_("pink"), "yellow": N_("yellow"),
    "blue-green": N_("blue/green"), "pink-yellow": N_("pink/yellow"),
}


# The rules in short (the terminal's ``rules`` command and the web app's rules page say them).
RULES_PLAY = N_("On your turn the die is rolled for you; drop one disc into a column that is not full, showing the "
                "rolled colour toward you (a split face lets you choose which of its two colours). Your opponent "
                "sits on the other side of the frame: your blue is their green, your pink their yellow, and left "
                "and right are swapped.")
RULES_MATCH = N_("When the board shows the pattern of a face-up card (turned any way, never mirrored), the player "
                 "who dropped takes it and a new card is revealed.")
CLAIM_RULES = {
    "mover": N_("A new card whose pattern is already on the board goes to the player whose turn it is."),
    "first": N_("A new card whose pattern is already on the board goes to whoever claims it first: "
                "you say who did."),
}


def rules_summary(rules: Rules, tr: gettext.NullTranslations | None = None) -> list[str]:
    """The rules under ``rules`` in a few paragraphs, in ``tr``'s language."""
    _, ngettext = (tr or ENGLISH).gettext, (tr or ENGLISH).ngettext
    said = [_("Double Spot on a board of {columns} columns and {rows} rows.").format(columns=rules.columns,
                                                                                      rows=rules.rows),
            _(RULES_PLAY), _(RULES_MATCH),
            ngettext("The first player to take {n} card wins; if the board fills first, more cards wins and equal "
                     "counts draw.",
                     "The first player to take {n} cards wins; if the board fills first, more cards wins and equal "
                     "counts draw.", rules.target).format(n=rules.target),
            _(CLAIM_RULES[rules.claim])]
    if rules.lifts:
        said.append(ngettext(
            "House rule: when the frame fills, it is lifted, the discs fall out, and play goes on ({n} time).",
            "House rule: when the frame fills, it is lifted, the discs fall out, and play goes on (up to {n} "
            "times).", rules.lifts).format(n=rules.lifts))
    return said


def colour_word(colour: str, tr: gettext.NullTranslations | None = None) -> str:
    return (tr or ENGLISH).gettext(COLOUR_WORDS.get(colour, colour))


def seat_names(names: list[str] | None) -> list[str]:
    return names if names else ["Seat 0", "Seat 1"]


def describe_move(before: State, move: str, after: State | None = None, names: list[str] | None = None,
                  tr: gettext.NullTranslations | None = None) -> str:
    """One log line for ``move`` played in ``before`` (``after``: the position it led to, to name cards taken)."""
    _ = (tr or ENGLISH).gettext
    who = seat_names(names)
    parts = move.split()
    kind = parts[0]
    mover = who[before.seat]
    if kind == "roll":
        text = _("{who} rolls {face}.").format(who=mover, face=colour_word(parts[1], tr))
    elif kind == "drop":
        text = _("{who} drops a disc into column {n} from their side, showing {colour} to them.").format(
            who=mover, n=parts[1], colour=colour_word(parts[2], tr))
    elif kind == "reveal":
        holder = before.refill[0] + 1 if before.refill else 1
        text = _("Card {card} goes into holder {h}.").format(card=parts[1], h=holder)
    elif kind == "claim":
        text = _("{who} claims the card first.").format(who=who[int(parts[1])])
    else:
        text = move
    if after is not None:
        for seat in (0, 1):
            for card in after.won[seat][len(before.won[seat]):]:
                text += " " + _("{who} takes card {card}.").format(who=who[seat], card=card)
        if after.lifted > before.lifted:
            text += " " + _("The frame is full: it is lifted, the discs fall out, and play goes on.")
        if after.is_terminal() and not before.is_terminal():
            text += " " + game_over(after, names, tr)
    return text


def game_over(state: State, names: list[str] | None = None, tr: gettext.NullTranslations | None = None) -> str:
    """How the game ended."""
    tr = tr or ENGLISH
    who = seat_names(names)
    cards = state.scores()
    if state.winner is None:
        return tr.ngettext("The board is full: a draw at {n} card each.",
                           "The board is full: a draw at {n} cards each.", cards[0]).format(n=cards[0])
    n = cards[state.winner]
    if state.end_reason == "full-board":
        return tr.ngettext("The board is full: {who} wins with {n} card.",
                           "The board is full: {who} wins with {n} cards.", n).format(who=who[state.winner], n=n)
    return tr.ngettext("{who} wins with {n} card.", "{who} wins with {n} cards.", n).format(
        who=who[state.winner], n=n)


def describe_phase(state: State, names: list[str] | None = None, tr: gettext.NullTranslations | None = None) -> str:
    """Where the game stands, in one sentence."""
    _ = (tr or ENGLISH).gettext
    who = seat_names(names)
    if state.is_terminal():
        return _("Game over.") + " " + game_over(state, names, tr)
    if state.phase == "claim" and state.claiming is not None:
        card = state.holders[state.claiming]
        return _("Card {card} is already on the board: whoever claims it first takes it.").format(card=card)
    if state.is_chance_node():
        return _("Waiting for the die or a card.")
    assert state.die is not None
    return _("{who} rolled {face} and drops a disc.").format(who=who[state.seat], face=colour_word(state.die, tr))
