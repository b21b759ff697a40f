"""A plain-text picture of a position, for the command line and logs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .dice import faces_text as _dice
from .tricks import TILES

if TYPE_CHECKING:
    from .state import State


def describe_phase(state: State) -> str:
    """Where the game is, in words: whose move and inside which trick step."""
    if state.is_terminal():
        if state.winner is not None:
            return f"Game over: seat {state.winner} wins with {state.rules.target} scored dogs."
        return "Game over: the turn limit was reached."
    if state.is_chance_node():
        event = f"a roll of {state.pending_dice} dice" if state.phase == "chance-roll" else "a card is revealed"
        return f"Chance: {event}."
    where = f"Seat {state.seat} to move"
    if state.trick is not None:
        where += f", doing {TILES[state.trick].title} (step {state.step + 1})"
    asks = {
        "turn": "choose a trick or score",
        "roll": "resolve the roll",
        "continue": "roll again or stop",
        "trot": "move a die or stop",
        "dig": f"dig ({state.digs_left} left) or stop",
        "retrieve": "choose the number for the retrieved die",
        "bolt": "set aside dice",
        "take": "take a die for the Dogpile",
        "guard": "name a number",
    }
    return f"{where}: {asks.get(state.phase or '', state.phase)}."


def render(state: State) -> str:
    rules = state.rules
    lines = [f"Turn {state.turn}  |  supply: {state.dice_supply} dice, {state.treat_supply} treats"]
    tiles = []
    for name, up, treats in zip(rules.tricks, state.face_up, state.tile_treats, strict=True):
        mark = TILES[name].title if up else f"({TILES[name].title})"
        tiles.append(mark + (f" +{treats} treat" if treats else ""))
    lines.append("Tricks: " + ", ".join(tiles) + "   (face down in brackets)")
    rest = len(state.deck_rest)
    top = rules.cards[state.deck_top] if state.deck_top else None
    top_text = f"{top.title} {list(top.spaces)}" if top else "none"
    lines.append(f"Deck: top {top_text}, {rest} more below")
    for seat, player in enumerate(state.players):
        marker = ">" if seat == state.seat and not state.is_terminal() else " "
        yard = player.yard_total()
        lines.append(
            f"{marker} Seat {seat}: {player.treats} treats, yard {sorted(player.yard)} = {yard}/{rules.bust_limit}, "
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


def describe_move(before: State, move: str, after: State | None = None, names: list[str] | None = None) -> str:
    """One log line for a move, in plain words: what was done, by whom, and what it caused.

    ``before`` is the position the move was made in; with ``after`` (the position it led to) the
    line also tells busts, fast-and-risky scores, draws, treats taken and the end. ``names`` are
    the players' names (default ``Seat 0``, ``Seat 1``, ...). Every front end's game log uses this.
    """
    names = names or [f"Seat {s}" for s in range(before.rules.players)]
    parts = move.split()
    kind = parts[0]
    who = names[before.seat] if 0 <= before.seat < len(names) else "?"
    chance_for = list(before.chance_for)
    if kind == "reveal":
        if chance_for and chance_for[0] == "deal":
            text = f"{names[chance_for[1]]} is dealt {dog_title(before, parts[1])}."
        else:
            text = f"{dog_title(before, parts[1])} turns up on top of the deck."
    elif kind == "roll":
        faces = _dice(parts[1:])
        if chance_for and chance_for[0] == "first-die":
            text = f"{names[chance_for[1]]} rolls a first die and buries it: {faces}."
        else:
            text = f"{who} rolls {faces}."
    elif kind == "trick":
        text = f"{who} does {TILES[parts[1]].title}."
    elif kind == "score":
        gained = after.players[before.seat].scored_count() - before.players[before.seat].scored_count()
        text = f"{who} scores {gained} dog{'s' if gained != 1 else ''}."
    elif kind == "reroll":
        text = f"{who} spends a treat to reroll" + (f" {_dice(parts[1:])}." if len(parts) > 1 else " the dice.")
    elif kind == "place":
        text = f"{who} places a {parts[1]} on {dog_title(before, parts[2])}."
    elif kind == "bury":
        total = before.players[before.seat].yard_total() + int(parts[1])
        text = f"{who} buries a {parts[1]} (yard {total}/{before.rules.bust_limit})."
    elif kind == "choose":
        if before.phase == "guard":
            text = f"{who} names {parts[1]}."
        elif before.phase == "retrieve":
            text = f"{who} sets the retrieved die to {parts[1]}."
        else:
            text = f"{who} keeps the {parts[1]}s."
    elif kind == "pick":
        text = f"{who} keeps {_dice(parts[1:])}."
    elif kind == "discard":
        text = f"{who} returns {_dice(parts[1:]) or 'nothing'} to the supply."
    elif kind == "set-aside":
        text = f"{who} sets aside {parts[1]} dice."
    elif kind == "dig":
        verb = "raises" if parts[3] == "up" else "lowers"
        text = f"{who} {verb} {names[int(parts[1])]}'s buried {parts[2]}."
    elif kind == "move":
        src, dst = dog_title(before, parts[1]), dog_title(before, parts[3])
        text = f"{who} moves the die on {src}'s {parts[2]} to {dst}'s {parts[4]}."
    elif kind == "take":
        where = "the yard" if parts[1] == "yard" else dog_title(before, parts[1])
        text = f"{who} takes the {parts[2]} from {where} for the Dogpile."
    elif kind == "continue":
        text = f"{who} rolls again."
    elif kind == "stop":
        text = f"{who} stops."
    else:
        text = f"{who}: {move}."
    if after is None:
        return text
    extras = []
    for seat, (b, a) in enumerate(zip(before.busts, after.busts, strict=True)):
        if a > b:
            extras.append(f"{names[seat]} busts!")
    if kind != "score":
        for seat, (pb, pa) in enumerate(zip(before.players, after.players, strict=True)):
            gained = pa.scored_count() - pb.scored_count()
            if gained > 0:
                extras.append(f"{names[seat]} scores {gained} dog{'s' if gained != 1 else ''} (fast and risky)!")
    for seat, (pb, pa) in enumerate(zip(before.players, after.players, strict=True)):
        old = {d.name for d in pb.dogs}
        for d in pa.dogs:
            if d.name not in old and kind != "reveal":
                extras.append(f"{names[seat]} draws {dog_title(after, d.name)}.")
    if kind in ("trick", "bury"):
        gained = after.players[before.seat].treats - before.players[before.seat].treats
        if gained > 0:
            extras.append(f"{who} takes {gained} treat{'s' if gained != 1 else ''}.")
    if before.first_player is None and after.first_player is not None:
        extras.append(f"{names[after.first_player]} goes first.")
    if after.is_terminal() and not before.is_terminal():
        if after.winner is not None:
            extras.append(f"{names[after.winner]} wins the game!")
        else:
            extras.append("The turn limit ends the game.")
    return " ".join([text, *extras])
