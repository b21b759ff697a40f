"""Plain words for the web page: move labels, the game log and the JSON view of a position.

Why on the server: the front end holds no rules, so everything it shows (which
space a die may go to, what a move means, whether a burial busts) is decided
here from the engine's state and legal moves, and sent ready to draw.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...core.webview import NP_, LobbyLink, RulesPage, TableMode, Tutorial, WebView
from .daily import deal_named
from .dice import faces_text as _dice
from .keyed import KeyedDice
from .state import State
from .tricks import N_, TILES
from .words import describe_phase
from .words import dog_title as title

ENGLISH = gettext.NullTranslations()


# Words Spots' table scripts show (the shared ones are in spots.web.pages.words)
JS_WORDS = (
    N_("+{n} set aside"), N_("Bury a die"), N_("Bust now"), N_("Busts"), N_("Choose"), N_("Choose a trick"),
    N_("Choose dice"), N_("Deck top"), N_("Dig"), N_("Dogs scored"), N_("Go on"), N_("In hand:"), N_("Move a die"),
    N_("Place a die"), N_("Reroll"), N_("Score"), N_("Scored"), N_("Supply"), N_("Take a die"), N_("Treats"),
    N_("Win estimate"), N_("Yard"), N_("complete"), N_("die showing {v}"), N_("face down"), N_("no dogs"),
    N_("paw prints on unscored dogs"), N_("place {v} here"), N_("scored dogs"), N_("step {step} of {steps}"),
    N_("times busted"), N_("treats"), N_("treats on this tile"), N_("{n} below"),
)
JS_PLURALS = (
    NP_("treat", "treats"),
    NP_("{n} bust", "{n} busts"),
    NP_("{n} dog", "{n} dogs"),
    NP_("{n} die", "{n} dice"),
    NP_("{n} paw", "{n} paws"),
    NP_("{n} paw print", "{n} paw prints"),
    NP_("{n} treat", "{n} treats"),
)


def label(state: State, move: str, names: list[str], tr: gettext.NullTranslations | None = None) -> tuple[str, str]:
    """A button's text and group for one legal move of the player to move (``tr``: the language)."""
    _ = (tr or ENGLISH).gettext
    parts = move.split()
    kind = parts[0]
    me = state.players[state.seat]
    if kind == "trick":
        return _(TILES[parts[1]].title), "trick"
    if kind == "score":
        return _("Score your complete dogs"), "score"
    if kind == "reroll":
        if len(parts) > 1:
            return _("Reroll {faces} (1 treat)").format(faces=_dice(parts[1:])), "reroll"
        return _("Reroll all (1 treat)"), "reroll"
    if kind == "place":
        return _("Place {v} on {dog}").format(v=parts[1], dog=title(state, parts[2])), "place"
    if kind == "bury":
        total = me.yard_total() + int(parts[1])
        if total > state.rules.bust_limit:
            return _("Bury {v} → yard {total}/{limit} (busts!)").format(
                v=parts[1], total=total, limit=state.rules.bust_limit), "bury"
        return _("Bury {v} → yard {total}/{limit}").format(v=parts[1], total=total,
                                                           limit=state.rules.bust_limit), "bury"
    if kind == "choose":
        if state.phase == "guard":
            return _("Name {v}").format(v=parts[1]), "choose"
        if state.phase == "retrieve":
            return _("Set the die to {v}").format(v=parts[1]), "choose"
        return _("Keep the {v}s").format(v=parts[1]), "choose"
    if kind == "pick":
        return _("Keep {faces}").format(faces=_dice(parts[1:])), "pick"
    if kind == "discard":
        if len(parts) > 1:
            return _("Return {faces}").format(faces=_dice(parts[1:])), "pick"
        return _("Return none"), "pick"
    if kind == "set-aside":
        n = int(parts[1])
        return (tr or ENGLISH).ngettext("Set aside {n} die", "Set aside {n} dice", n).format(n=n), "choose"
    if kind == "dig":
        who = names[int(parts[1])]
        if parts[3] == "up":
            return _("Raise {owner}'s buried {v}").format(owner=who, v=parts[2]), "dig"
        return _("Lower {owner}'s buried {v}").format(owner=who, v=parts[2]), "dig"
    if kind == "move":
        return _("Move {src}'s {a} to {dst}'s {b}").format(
            src=title(state, parts[1]), a=parts[2], dst=title(state, parts[3]), b=parts[4]), "move"
    if kind == "take":
        if parts[1] == "yard":
            return _("Take the {v} from your yard").format(v=parts[2]), "take"
        return _("Take the {v} from {dog}").format(v=parts[2], dog=title(state, parts[1])), "take"
    if kind == "continue":
        return _("Roll again"), "continue"
    if kind == "stop":
        return _("Stop"), "stop"
    return move, kind


def phase_text(state: State, names: list[str], tr: gettext.NullTranslations | None = None) -> str:
    """Where the game stands, with seat numbers replaced by names."""
    tr = tr or ENGLISH
    return describe_phase(state, tr, None if state.is_chance_node() else names)


def view(state: State, seats: list[dict[str, Any]], moves: int, tr: gettext.NullTranslations | None = None
         ) -> dict[str, Any]:
    """The public picture of a position, as JSON-ready data (the same for every viewer of one language)."""
    _ = (tr or ENGLISH).gettext
    rules = state.rules
    names = [s["name"] for s in seats]
    over = state.is_terminal()
    to_move = None if over or state.is_chance_node() else state.seat
    legal = state.legal_actions() if to_move is not None else []
    buttons = []
    for move in legal:
        text, group = label(state, move, names, tr)
        buttons.append({"move": move, "label": text, "group": group})
    out: dict[str, Any] = {
        "moves": moves, "turn": state.turn, "over": over, "to_move": to_move, "phase": state.phase,
        "status": phase_text(state, names, tr),
        "rules": {"players": rules.players, "target": rules.target, "bust_limit": rules.bust_limit,
                  "dog_limit": rules.dog_limit, "tricks": list(rules.tricks)},
        "supply": {"dice": state.dice_supply, "treats": state.treat_supply},
        "tiles": _tiles(state, set(legal), _), "deck": {"top": _deck_top(state), "left": len(state.deck_rest)},
        "players": _players(state, seats, to_move, set(legal)), "trick": _trick(state, _), "hand": _hand(state),
        "legal": buttons, "winner": state.winner, "returns": state.returns() if over else None,
    }
    if over:
        out["summary"] = summary(state, names, tr)
    return out


def _players(state: State, seats: list[dict[str, Any]], to_move: int | None, legal: set[str]
             ) -> list[dict[str, Any]]:
    """Each seat's mat: yard, treats, scores and dogs (the spaces the mover may fill carry their move)."""
    cards = state.rules.cards
    players = []
    for seat, p in enumerate(state.players):
        dogs = []
        for d in p.dogs:
            spaces = []
            for v in d.spaces:
                space: dict[str, Any] = {"v": v, "filled": v in d.filled}
                move = f"place {v} {d.name}"
                if seat == to_move and move in legal:
                    space["move"] = move
                spaces.append(space)
            dogs.append({
                "name": d.name, "title": cards[d.name].title, "paws": cards[d.name].paws,
                "scored": d.scored, "complete": d.complete, "spaces": spaces,
            })
        yard = sorted(p.yard)
        players.append({
            **seats[seat], "seat": seat, "treats": p.treats, "yard": yard, "yard_total": sum(yard),
            "scored": p.scored_count(), "paws": state.paws(seat), "busts": state.busts[seat], "dogs": dogs,
            "dog_count": len(p.dogs),
        })
    return players


def _tiles(state: State, legal: set[str], _: Callable[[str], str]) -> list[dict[str, Any]]:
    """The trick tiles in play (a tile that may be played now carries its move)."""
    tiles = []
    for name, up, treats in zip(state.rules.tricks, state.face_up, state.tile_treats, strict=True):
        tile = TILES[name]
        entry: dict[str, Any] = {
            "name": name, "title": _(tile.title), "colour": tile.colour, "text": _(tile.text), "face_up": up,
            "treats": treats, "active": state.trick == name,
        }
        if f"trick {name}" in legal:
            entry["move"] = f"trick {name}"
        tiles.append(entry)
    return tiles


def _deck_top(state: State) -> dict[str, Any] | None:
    if state.deck_top is None:
        return None
    card = state.rules.cards[state.deck_top]
    return {"name": card.name, "title": card.title, "spaces": list(card.spaces), "paws": card.paws}


def _trick(state: State, _: Callable[[str], str]) -> dict[str, Any] | None:
    """The trick being played, at which step."""
    if state.trick is None:
        return None
    tile = TILES[state.trick]
    return {"name": tile.name, "title": _(tile.title), "text": _(tile.text), "step": state.step + 1,
            "steps": len(tile.steps)}


def _hand(state: State) -> dict[str, Any]:
    roll = state.roll
    return {"dice": list(roll.dice) if roll else [], "held": list(roll.held) if roll else [],
            "set_aside": state.set_aside}


def summary(state: State, names: list[str], tr: gettext.NullTranslations | None = None) -> dict[str, Any]:
    """The end screen: who won, and each player's scored dogs, busts and treats."""
    tr = tr or ENGLISH
    if state.winner is not None:
        n = state.players[state.winner].scored_count()
        headline = tr.ngettext("{who} wins with {n} scored dog.", "{who} wins with {n} scored dogs.", n).format(
            who=names[state.winner], n=n)
    else:
        headline = tr.gettext("The turn limit ended the game; the leaders share the win.")
    rows = [
        {"seat": s, "name": names[s], "scored": p.scored_count(), "busts": state.busts[s], "treats": p.treats,
         "scored_dogs": [title(state, d.name) for d in p.dogs if d.scored], "result": r}
        for s, (p, r) in enumerate(zip(state.players, state.returns(), strict=True))
    ]
    return {"headline": headline, "turns": state.turn, "moves": len(state.history()), "players": rows}


def web_view(state: State, seats: list[dict[str, Any]], moves: int, tr: gettext.NullTranslations, seat: int | None,
             live: bool) -> dict[str, Any]:
    """``view`` for a table or (``live`` False) a replay, which offers nothing to click."""
    data = view(state, seats, moves, tr)
    if not live:
        data["legal"] = []
        for tile in data["tiles"]:
            tile.pop("move", None)
        for p in data["players"]:
            for d in p["dogs"]:
                for s in d["spaces"]:
                    s.pop("move", None)
    data["game"] = "spots"
    data["live"] = live  # False in a replay: no moves to offer, and who is online now does not matter
    return data


def rules_tiles(tr: gettext.NullTranslations) -> dict[str, Any]:
    """The rules page's data: every tile, drawn as on the table, with its text (the paragraphs are the template's)."""
    _ = tr.gettext
    return {"tiles": [{"name": t.name, "title": _(t.title), "colour": t.colour, "text": _(t.text), "face_up": True,
                       "treats": 0, "active": False} for t in TILES.values()]}


def solo_routes() -> Any:
    """The Daily page, solo deals and challenges (``solo_web.py``: the web extra, imported when the app is made)."""
    from .solo_web import router

    return router


def deal_dice(name: str) -> KeyedDice:
    """The keyed dice of a named deal (a daily deal or a challenge): a solo table read back rolls on from them."""
    return KeyedDice(deal_named(name).key)


# Spots in the web app (its GameSpec.web); its browser files are in the game's folder
SPOTS_FOLDER = Path(__file__).resolve().parent
WEB_VIEW: WebView[State] = WebView(
    view=web_view,
    label=lambda state, move, names, tr: str(label(state, move, names, tr)[0]),
    tagline="roll dice, fill dogs, don't bust",  # extracted from base.html, where it is the site's default
    styles=("spots-table.css",),
    scripts=("dogs.js", "art.js", "spots.js", "motion.js", "play.js"),
    assets=SPOTS_FOLDER / "web",
    # a gentle deal: the learner starts, with Missy (3, 4) and Ursula (1, 5) and a 3 in the yard; two dogs win
    tutorial=Tutorial(rules={"players": 2, "tricks": "beginner", "target": 2}, seed=7, bot="greedy",
                      button=N_("Learn to play"), words="tutorial_spots.html", script="tutorial_spots.js"),
    rules=RulesPage("rules.html", rules_tiles),
    words=JS_WORDS,
    plurals=JS_PLURALS,
    routes=solo_routes,
    migrations=SPOTS_FOLDER / "web" / "migrations",
    deal_dice=deal_dice,
    links=(LobbyLink("/daily", N_("Daily deal"), "daily-link"),),
    # a solo table (``/play/<token>?solo=<deal>``): the race against the bot beside the board
    modes=(TableMode("solo", words="solo_words.html", styles=("solo.css",), scripts=("solo.js",)),),
)
