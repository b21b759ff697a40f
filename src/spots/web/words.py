"""Plain words for the web page: move labels, the game log and the JSON view of a position.

Why on the server: the front end holds no rules, so everything it shows (which
space a die may go to, what a move means, whether a burial busts) is decided
here from the engine's state and legal moves, and sent ready to draw.
"""

from __future__ import annotations

from typing import Any

from ..engine.dice import faces_text as _dice
from ..engine.render import describe_phase
from ..engine.render import dog_title as title
from ..engine.state import State
from ..engine.tricks import TILES


def label(state: State, move: str, names: list[str]) -> tuple[str, str]:
    """A button's text and group for one legal move of the player to move."""
    parts = move.split()
    kind = parts[0]
    me = state.players[state.seat]
    if kind == "trick":
        return TILES[parts[1]].title, "trick"
    if kind == "score":
        return "Score your complete dogs", "score"
    if kind == "reroll":
        return ("Reroll " + _dice(parts[1:]) if len(parts) > 1 else "Reroll all") + " (1 treat)", "reroll"
    if kind == "place":
        return f"Place {parts[1]} on {title(state, parts[2])}", "place"
    if kind == "bury":
        total = me.yard_total() + int(parts[1])
        bust = " (busts!)" if total > state.rules.bust_limit else ""
        return f"Bury {parts[1]} → yard {total}/{state.rules.bust_limit}{bust}", "bury"
    if kind == "choose":
        if state.phase == "guard":
            return f"Name {parts[1]}", "choose"
        if state.phase == "retrieve":
            return f"Set the die to {parts[1]}", "choose"
        return f"Keep the {parts[1]}s", "choose"
    if kind == "pick":
        return "Keep " + _dice(parts[1:]), "pick"
    if kind == "discard":
        return ("Return " + _dice(parts[1:])) if len(parts) > 1 else "Return none", "pick"
    if kind == "set-aside":
        return f"Set aside {parts[1]} dice", "choose"
    if kind == "dig":
        who = names[int(parts[1])]
        verb = "Raise" if parts[3] == "up" else "Lower"
        return f"{verb} {who}'s buried {parts[2]}", "dig"
    if kind == "move":
        return f"Move {title(state, parts[1])}'s {parts[2]} to {title(state, parts[3])}'s {parts[4]}", "move"
    if kind == "take":
        where = "your yard" if parts[1] == "yard" else title(state, parts[1])
        return f"Take the {parts[2]} from {where}", "take"
    if kind == "continue":
        return "Roll again", "continue"
    if kind == "stop":
        return "Stop", "stop"
    return move, kind


def phase_text(state: State, names: list[str]) -> str:
    """Where the game stands, with seat numbers replaced by names."""
    text = describe_phase(state)
    if state.is_terminal():
        if state.winner is not None:
            scored = state.players[state.winner].scored_count()
            return f"Game over: {names[state.winner]} wins with {scored} scored dogs."
        return text
    return text.replace(f"Seat {state.seat}", names[state.seat], 1)


def view(state: State, seats: list[dict[str, Any]], moves: int) -> dict[str, Any]:
    """The public picture of a position, as JSON-ready data (the same for every viewer)."""
    rules = state.rules
    names = [s["name"] for s in seats]
    over = state.is_terminal()
    to_move = None if over or state.is_chance_node() else state.seat
    legal = state.legal_actions() if to_move is not None else []
    legal_set = set(legal)
    cards = rules.cards
    players = []
    for seat, p in enumerate(state.players):
        dogs = []
        for d in p.dogs:
            spaces = []
            for v in d.spaces:
                space: dict[str, Any] = {"v": v, "filled": v in d.filled}
                move = f"place {v} {d.name}"
                if seat == to_move and move in legal_set:
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
    tiles = []
    for name, up, treats in zip(rules.tricks, state.face_up, state.tile_treats, strict=True):
        tile = TILES[name]
        entry: dict[str, Any] = {
            "name": name, "title": tile.title, "colour": tile.colour, "text": tile.text, "face_up": up,
            "treats": treats, "active": state.trick == name,
        }
        if f"trick {name}" in legal_set:
            entry["move"] = f"trick {name}"
        tiles.append(entry)
    top = None
    if state.deck_top is not None:
        card = cards[state.deck_top]
        top = {"name": card.name, "title": card.title, "spaces": list(card.spaces), "paws": card.paws}
    trick = None
    if state.trick is not None:
        tile = TILES[state.trick]
        trick = {"name": tile.name, "title": tile.title, "text": tile.text, "step": state.step + 1,
                 "steps": len(tile.steps)}
    roll = state.roll
    hand = {
        "dice": list(roll.dice) if roll else [], "held": list(roll.held) if roll else [],
        "set_aside": state.set_aside,
    }
    buttons = []
    for move in legal:
        text, group = label(state, move, names)
        buttons.append({"move": move, "label": text, "group": group})
    out: dict[str, Any] = {
        "moves": moves, "turn": state.turn, "over": over, "to_move": to_move, "phase": state.phase,
        "status": phase_text(state, names),
        "rules": {"players": rules.players, "target": rules.target, "bust_limit": rules.bust_limit,
                  "dog_limit": rules.dog_limit, "tricks": list(rules.tricks)},
        "supply": {"dice": state.dice_supply, "treats": state.treat_supply},
        "tiles": tiles, "deck": {"top": top, "left": len(state.deck_rest)},
        "players": players, "trick": trick, "hand": hand, "legal": buttons,
        "winner": state.winner, "returns": state.returns() if over else None,
    }
    if over:
        out["summary"] = summary(state, names)
    return out


def summary(state: State, names: list[str]) -> dict[str, Any]:
    """The end screen: who won, and each player's scored dogs, busts and treats."""
    if state.winner is not None:
        headline = f"{names[state.winner]} wins with {state.players[state.winner].scored_count()} scored dogs."
    else:
        headline = "The turn limit ended the game; the leaders share the win."
    rows = [
        {"seat": s, "name": names[s], "scored": p.scored_count(), "busts": state.busts[s], "treats": p.treats,
         "scored_dogs": [title(state, d.name) for d in p.dogs if d.scored], "result": r}
        for s, (p, r) in enumerate(zip(state.players, state.returns(), strict=True))
    ]
    return {"headline": headline, "turns": state.turn, "moves": len(state.history()), "players": rows}
