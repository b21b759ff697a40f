"""A plain-text picture of a position, for the command line and logs."""

from __future__ import annotations

from typing import TYPE_CHECKING

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


def describe_move(state: State, move: str) -> str:
    """A move in plain words, for game logs; ``state`` is the position the move was made in."""
    parts = move.split()
    kind, args = parts[0], parts[1:]
    cards = state.rules.cards

    def dog(name: str) -> str:
        return cards[name].title if name in cards else name

    if kind == "roll":
        if state.chance_for[:1] == ["first-die"]:
            return f"Seat {state.chance_for[1]} rolls a {args[0]} for the start"
        return f"Seat {state.seat} rolls {' '.join(args)}"
    if kind == "reveal":
        if state.chance_for[:1] == ["deal"]:
            return f"Seat {state.chance_for[1]} is dealt {dog(args[0])}"
        return f"{dog(args[0])} is the new top card of the deck"
    if kind == "trick" and args and args[0] in TILES:
        words = f"does {TILES[args[0]].title}"
    elif kind == "place" and len(args) == 2:
        words = f"places a {args[0]} on {dog(args[1])}"
    elif kind == "dig" and len(args) == 3:
        words = f"digs seat {args[0]}'s buried {args[1]} {args[2]}"
    elif kind == "move" and len(args) == 4:
        words = f"moves the die on {dog(args[0])}'s {args[1]} to {dog(args[2])}'s {args[3]}"
    elif kind == "take" and len(args) == 2:
        words = f"takes the {args[1]} from {'the yard' if args[0] == 'yard' else dog(args[0])}"
    else:
        dice = " ".join(args)
        words = {
            "score": "scores their complete dogs",
            "continue": "rolls again",
            "stop": "stops",
            "reroll": f"spends a treat to reroll {dice}".rstrip(),
            "bury": f"buries a {dice}",
            "choose": f"chooses {dice}",
            "pick": f"keeps {dice}",
            "discard": f"returns {dice or 'nothing'}",
            "set-aside": f"sets aside {dice} dice",
        }.get(kind, move)
    return f"Seat {state.seat} {words}"
