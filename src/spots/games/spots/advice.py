"""The advisor: the legal moves ranked by the coach's evaluator (or a bot), each with its bust chance.

The terminal and web front ends show the same ``advise`` output. By default a move's estimate is the mover's
chance to win after it as the coach values it (``coach.py``), so a hint and the coach's report after the game
never disagree. A move's bust chance is exact: the chance that the roll this move leads to (or the die it
places or buries, with the dice still in hand) busts you before your next choice, resolving the dice well
(``odds.py``); moves that roll nothing show None.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from ... import bots, i18n
from .dice import roll_distribution
from .keep import GUARD, KEEP_RULES
from .odds import Position
from .pieces import remove_dice
from .state import State

STRONGEST = "coach"  # the coach's evaluator ranks the moves; any bot's name ranks them by that bot's search


@dataclass(frozen=True)
class Advice:
    move: str
    score: float  # the bot's estimate: for expectimax, the chance of winning after this move
    bust: Fraction | None  # the chance this move busts you at once (None: no roll involved)


def advise(state: State, bot: str = STRONGEST, seed: int = 0) -> list[Advice]:
    """Legal moves, best first, as the coach (``bot="coach"``, the default) or the bot ranks them."""
    if state.is_terminal() or state.is_chance_node():
        return []
    if bot == STRONGEST:
        from .coach import evaluator

        seat = state.current_player()
        values = sorted(evaluator().moves(state).items(), key=lambda mv: -mv[1][seat])  # ties keep the rules' order
        return [Advice(move, chances[seat], bust_chance(state, move)) for move, chances in values]
    ranker = bots.make(bot, seed=seed)
    ranked = ranker.rank(state) if hasattr(ranker, "rank") else [(m, 0.0) for m in state.legal_actions()]
    return [Advice(move, score, bust_chance(state, move)) for move, score in ranked]


def bust_chance(state: State, move: str) -> Fraction | None:
    """The chance that ``move`` busts the player to move at once (see the module docstring)."""
    pos = Position.of(state)
    parts = move.split()
    kind = parts[0]
    if kind in ("bury", "place") and state.roll is not None and state.phase == "roll":
        return _rest_of_roll_bust(state, move)
    if kind == "bury":
        return Fraction(int(pos.yard + int(parts[1]) > pos.limit))
    if kind == "choose" and state.phase == "guard":  # Guard: dice above the number return
        number = int(parts[1])
        return _chance(4, lambda faces: GUARD.busts_named(pos, faces, number))
    roll = state.roll
    if kind == "reroll" and roll is not None:
        if len(parts) > 1:  # Track: the other dice stay
            held = tuple(remove_dice(roll.dice, [int(v) for v in parts[1:]]))
            return _chance(len(parts) - 1, lambda faces: pos.busts(held + faces))
        return _roll_bust(pos, roll.size, roll.mode)
    if kind in ("continue", "trick"):
        return _next_roll_bust(state, move)
    return Fraction(0) if roll is not None else None


def _rest_of_roll_bust(state: State, move: str) -> Fraction:
    """A die placed or buried busts you if it takes the yard over the limit, or if the dice still in hand then
    cannot all be resolved without busting (placing what fits, burying the rest)."""
    seat, busts = state.seat, state.busts[state.seat]
    probe = state.clone()
    probe.apply_trusted(move)
    if probe.busts[seat] > busts:
        return Fraction(1)
    rest = probe.roll.dice if probe.roll is not None and probe.seat == seat and probe.phase == "roll" else []
    return Fraction(int(bool(rest) and Position.of(probe).busts(tuple(rest))))


def _next_roll_bust(state: State, move: str) -> Fraction | None:
    """Play the move on a copy up to its next roll (through any card reveal) and price that roll.

    None when a decision comes first (Trot, Dig, Retrieve, Guard, Bolt, Dogpile's take) or
    nothing is rolled: the bust chance then depends on that decision.
    """
    probe = state.clone()
    probe.apply_trusted(move)
    while probe.phase == "chance-reveal":
        probe.apply_trusted(probe.legal_actions()[0])  # a new top card changes nothing before the roll
    if probe.phase != "chance-roll" or probe.seat != state.seat or probe.roll is None:
        return None
    return _roll_bust(Position.of(probe), probe.pending_dice, probe.roll.mode)


def _chance(dice: int, busts: Callable[[tuple[int, ...]], bool]) -> Fraction:
    return sum((p for faces, p in roll_distribution(dice) if busts(faces)), Fraction(0))


def _roll_bust(pos: Position, dice: int, keep: str | None) -> Fraction | None:
    """Bust chance of a roll of ``dice`` dice under a tile's keep rule, choosing the keep well."""
    if dice <= 0:
        return None
    if keep is None:
        return _chance(dice, pos.busts)
    rule = KEEP_RULES[keep]
    if not rule.chooses:
        return None  # Guard: depends on the number named next
    return _chance(dice, lambda faces: rule.busts(pos, faces))


def format_advice(advice: list[Advice], limit: int = 15, tr: gettext.NullTranslations | None = None) -> str:
    """The ranked moves as a text table (``tr``: the language of the words; moves stay in the notation)."""
    tr = tr or gettext.NullTranslations()
    _ = tr.gettext
    if not advice:
        return _("No decision to advise on here.")
    heads = [_("rank"), _("move"), _("estimate"), _("bust now")]  # not inside the f-string: pybabel finds them
    w = [max(n, i18n.width(h)) for n, h in zip((4, 28, 9, 8), heads, strict=True)]
    lines = [f"{i18n.pad(heads[0], w[0], True)}  {i18n.pad(heads[1], w[1])} {i18n.pad(heads[2], w[2], True)}  "
             f"{i18n.pad(heads[3], w[3], True)}"]
    for i, a in enumerate(advice[:limit], 1):
        bust = "-" if a.bust is None else f"{float(a.bust):.1%}"
        lines.append(f"{i:>{w[0]}}  {a.move:<{w[1]}} {a.score:>{w[2]}.3f}  {bust:>{w[3]}}")
    if len(advice) > limit:
        more = len(advice) - limit
        lines.append("      " + tr.ngettext("... and {n} more", "... and {n} more", more).format(n=more))
    return "\n".join(lines)
