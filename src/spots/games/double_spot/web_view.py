"""The JSON view of a Double Spot position, drawn from one side of the frame.

Why per side: the two players look at the same discs from opposite sides, so
each is sent the board mirrored and colour-flipped for them (``State.view``),
with the columns numbered from their own left, which is also how their moves
are written. Spectators see seat 0's side. As for Spots, the page only draws:
every clickable column carries the notation of a legal move.
"""

from __future__ import annotations

import gettext
from pathlib import Path
from typing import Any

from ...core.webview import NP_, RulesPage, Tutorial, WebView
from .rules import Rules
from .state import State, face_colours
from .words import N_, colour_word, describe_phase, game_over, rules_summary

ENGLISH = gettext.NullTranslations()

# Words the Double Spot page script shows (the shared ones are in spots.web.pages.words).
JS_WORDS = (
    N_("Cards won"), N_("Column {n}"), N_("Die"), N_("Drop a disc"), N_("Holder {n}"),
    N_("Roll pending"), N_("Seen from {who}'s side"), N_("Claim the card!"), N_("Cards"), N_("Double Spot"),
    N_("Colour symbols"), N_("Column {n}, from the bottom: {discs}"),
    N_("blue"), N_("green"), N_("pink"), N_("yellow"),
    # the advisor's table (the result words are the terminal's)
    N_("Takes now"), N_("Opponent's roll"), N_("Your next roll"), N_("wins the game"), N_("ends the game in a draw"),
    N_("ends the game, lost"),
    N_("The chance to finish a card, exact over the die; drops of equal value share a rank."),
    N_("No drop matters yet: every column leaves the same chances."),
    # the drawn table
    N_("Pattern card: {spots}"), N_("The rim of each disc shows its other face: what {who} sees."),
    N_("Pile of {kind} discs: {n}"),
)


def drop_label(move: str, tr: gettext.NullTranslations | None = None) -> str:
    """``drop 3 blue`` in words, from the mover's side."""
    _ = (tr or ENGLISH).gettext
    parts = move.split()
    if parts[0] == "drop":
        return _("Column {n}, {colour} toward you").format(n=parts[1], colour=colour_word(parts[2], tr))
    if parts[0] == "claim":
        return _("Claim the card")
    return move


def view(state: State, seats: list[dict[str, Any]], moves: int, tr: gettext.NullTranslations | None,
         seat: int | None, live: bool = True) -> dict[str, Any]:
    """What ``seat`` (None: a spectator, shown seat 0's side) sees, as JSON-ready data."""
    tr = tr or ENGLISH
    side = 0 if seat is None else seat
    names = [s["name"] for s in seats]
    over = state.is_terminal()
    to_move = None if over or state.is_chance_node() else state.seat
    mine = live and seat is not None and to_move == seat
    legal = state.legal_actions() if mine else []
    columns = []
    for n, discs in enumerate(state.view(side), start=1):
        drops = [{"move": m, "colour": m.split()[2], "label": colour_word(m.split()[2], tr)}
                 for m in legal if m.split()[1] == str(n)]
        columns.append({"n": n, "discs": discs, "drops": drops})
    racing = live and seat is not None and state.phase == "claim"
    buttons = [{"move": m, "label": drop_label(m, tr), "group": "drop"} for m in legal]
    if racing:
        buttons = [{"move": f"claim {seat}", "label": drop_label("claim", tr), "group": "claim"}]
    cards = []
    for holder, card in enumerate(state.showing()):
        cards.append({"holder": holder + 1, "id": None if card is None else card.id,
                      "rows": [] if card is None else card.rows(side)})
    if side == 1:  # the holders stand at the two ends of the frame: seat 1 sees holder 2 on its left
        cards.reverse()
    players = []
    for s, info in enumerate(seats):
        players.append({**info, "seat": s, "won": list(state.won[s]), "score": len(state.won[s])})
    # each won card's pattern from this side, so the mats and the end screen draw the cards, not their ids
    patterns = {card: state.cards[card].rows(side) for won in state.won for card in won}
    die = state.die
    out: dict[str, Any] = {
        "game": "double-spot", "moves": moves, "turn": state.turn, "over": over, "to_move": to_move,
        "phase": state.phase, "side": side, "side_name": names[side],
        "status": describe_phase(state, names, tr),
        "rules": state.rules.to_dict(),
        "die": None if die is None else {"face": die, "label": colour_word(die, tr),
                                         "colours": list(face_colours(die))},
        "columns": columns, "rows": state.rules.rows, "cards": cards, "deck_left": len(state.deck),
        "patterns": patterns,
        "supply": dict(state.supply), "players": players, "legal": buttons,
        "claim": state.phase == "claim", "winner": state.winner, "live": live,
        "returns": state.returns() if over else None,
    }
    if over:
        out["summary"] = summary(state, names, tr)
    return out


def summary(state: State, names: list[str], tr: gettext.NullTranslations | None = None) -> dict[str, Any]:
    """The end screen: how it ended, and each player's cards."""
    rows = [{"seat": s, "name": names[s], "cards": list(state.won[s]), "score": len(state.won[s]), "result": r}
            for s, r in enumerate(state.returns())]
    return {"headline": game_over(state, names, tr), "turns": state.turn, "moves": len(state.history()),
            "players": rows}


def rules_page(tr: gettext.NullTranslations) -> dict[str, Any]:
    """The rules page's paragraphs: the terminal's short summary, under the default rules."""
    return {"paragraphs": rules_summary(Rules(), tr)}


# Double Spot in the web app (given by its GameSpec.web)
WEB_VIEW: WebView[State] = WebView(
    view=view,
    label=lambda state, move, names, tr: drop_label(move, tr),
    per_seat_view=True,
    racers=lambda state: [0, 1] if state.phase == "claim" else [],  # the ``first`` claim rule
    goal=NP_("first to {n} card", "first to {n} cards"),
    draws=True,
    tagline=N_("drop discs, make the patterns"),
    styles=("double_spot.css",),
    scripts=("double_spot_art.js", "double_spot.js"),
    assets=Path(__file__).resolve().parent / "web",  # the game's browser files
    # a short first game against the greedy bot: three cards win
    tutorial=Tutorial(rules={"target": 3}, seed=3, bot="greedy", button=N_("Learn Double Spot"),
                      words="tutorial_double_spot.html", script="tutorial_double_spot.js"),
    rules=RulesPage("rules.html", rules_page),
    words=JS_WORDS,
    plurals=(NP_("{n} card left in the deck", "{n} cards left in the deck"),),
)
