"""Double Spot's puzzle kit (``spots.puzzles``): the two evaluators a puzzle's answer must satisfy, its check and
its themes.

Why these three estimates: they must not share their errors. ``deep`` is the coach's own search (the search bot's
card swing turned into a win chance, ``coach.SearchChances``) at ten times its node budget and one turn deeper
(``DEEP_NODES``, ``DEEP_DEPTH``); it names the answer and its margin. ``other`` values the drops another way: the
expectimax bot's judgement (what a drop takes, the chance it hands the opponent a finish, the chance the
opponent's best reply leaves me one, and the hand-over that reply forces on me), every quiet drop looked at four
plies deep, turned into a win chance by the same logistic of the card lead. The check plays each of the two moves
out to the end of the game with the greedy bot, on the same dice: no search at all, so it cannot inherit a
search's blind spot.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Sequence

from ...analysis.evaluator import Checked
from ...i18n import N_
from .bots import GreedyBot
from .coach import DEPTH as COACH_DEPTH
from .coach import NODES, ROOT_WIDTH, SearchChances
from .expectimax import BIT, ExpectimaxBot, Judgement, colours, ends_when_full
from .search import Frame, Table, pattern_table
from .state import ROLL, State, seen_by

__all__ = ["CHECK_PLAYOUTS", "DEEP_DEPTH", "DEEP_NODES", "RIGHT_SHARE", "THEMES", "DeepSearch", "JudgedChances",
           "kit", "plain", "playouts", "themes"]

DEEP_NODES = 10 * NODES  # the coach's node budget, ten times: 5,000 positions a decision
DEEP_DEPTH = COACH_DEPTH + 1  # one turn deeper than the coach: 4 turns, always finished within DEEP_NODES
CHECK_PLAYOUTS = 1_000  # play-outs of each move: a lead's standard error is about 2 points of win chance
# At most half the drops may be right answers: the search values every quiet drop alike, so without this most
# "puzzles" were "avoid the one drop that hands over a finish", solved by a guess more often than not.
RIGHT_SHARE = 0.5


class DeepSearch(SearchChances):
    """The coach's search at ``DEEP_NODES`` and ``DEEP_DEPTH`` (names a puzzle's answer), with the play-out check."""

    def __init__(self, nodes: int = DEEP_NODES, depth: int = DEEP_DEPTH, playouts: int = CHECK_PLAYOUTS) -> None:
        super().__init__(nodes=nodes, depth=depth)
        self.playouts = playouts

    def check(self, state: State, played: str, best: str) -> Checked | None:
        """What ``played`` loses against ``best`` by play-outs to the end of the game (greedy seats) on common
        random numbers: play-out ``i`` of each move draws its dice and the bots' tie-breaks from the same seeds,
        derived from the position, so the two differ only by the move and the check is the same on every run.
        The mover's mean loss, its standard error, and each seat's mean result after each move."""
        seat = state.current_player()
        seed = zlib.crc32(repr(state.key()).encode())
        results = [playouts(state, move, self.playouts, seed) for move in (best, played)]
        lost = [b[seat] - p[seat] for b, p in zip(*results, strict=True)]
        mean = sum(lost) / len(lost)
        spread = math.sqrt(sum((x - mean) ** 2 for x in lost) / (len(lost) - 1)) if len(lost) > 1 else 0.0
        after_best, after_played = (_mean_of(r) for r in results)
        return Checked(mean, spread / math.sqrt(len(lost)), after_played, after_best)


def playouts(state: State, move: str, n: int, seed: int) -> list[list[float]]:
    """Each seat's result of ``n`` games played out from ``state`` after ``move`` by greedy bots."""
    out = []
    tables: dict[tuple[str, ...], Table] = {}  # the pattern tables of the cards met, shared by the play-outs
    for i in range(n):
        game = state.clone()
        game.apply_action(move)
        dice = random.Random(seed * 4099 + i)  # chance events: their own stream, so the bots' draws cannot shift it
        ties = random.Random(~(seed * 4099 + i))  # the bots' tie-breaks, for both seats
        while not game.is_terminal():
            if game.is_chance_node():
                game.sample_chance(dice)
            else:
                game.apply_trusted(greedy(game, ties, tables))
        out.append(game.returns())
    return out


def greedy(state: State, rng: random.Random, tables: dict[tuple[str, ...], Table]) -> str:
    """``GreedyBot.choose`` with the same ``rng``, the same drop, several times faster: the threats are the search
    bot's (``search.Frame``: a table of the cells that finish each card, kept per column and updated around a
    drop), not a scan of the whole frame for every card and drop. Takes the most cards; otherwise hands the
    opponent the least chance of a finish (then the fewest finishing cells); at the last cell, the result.
    ``tables``: the pattern tables by the cards showing, kept between decisions and play-outs."""
    seat, rules = state.seat, state.rules
    cards = [c for c in state.showing() if c is not None]
    ids = tuple(c.id for c in cards)
    table = tables.get(ids)
    if table is None:
        table = tables[ids] = pattern_table(cards, rules.columns, rules.rows)
    frame = Frame(state.board, rules.rows, [state.supply["blue-green"], state.supply["pink-yellow"]], table)
    mine, theirs = len(state.won[seat]), len(state.won[1 - seat])
    last = frame.empty == 1
    best, tie, chosen = -math.inf, 0.0, ""
    for move in state.legal_actions():
        _, n, colour = move.split()
        x, bit = state.column_index(int(n)), BIT[seen_by(seat, colour)]
        gained = bin(frame.masks[x] & bit * 0x1111).count("1")
        if gained:
            score = 10.0 * gained + (100.0 if mine + gained >= rules.target else 0.0)
        elif last:
            score = 100.0 if mine > theirs else (-100.0 if mine < theirs else 0.0)
        else:
            frame.drop(x, bit)
            score = -frame.chance(1 - seat) - 0.001 * sum(colours(m).bit_count() for m in frame.masks)
            frame.lift(x, bit)
        key = rng.random()
        if (score, key) > (best, tie):
            best, tie, chosen = score, key, move
    return chosen


def _mean_of(results: Sequence[Sequence[float]]) -> tuple[float, ...]:
    return tuple(sum(r[s] for r in results) / len(results) for s in range(2))


class WholeLook(ExpectimaxBot):
    """The expectimax bot with its deeper look at every quiet drop (the bot itself looks again at its best three
    only), so that no drop's value is left at two plies beside another's at four."""

    def __init__(self) -> None:
        super().__init__(seed=0, deep=ROOT_WIDTH)

    def judged(self, state: State) -> list[Judgement]:
        return self._deeper(state, self.judge(state))


class JudgedChances(SearchChances):
    """``other``: the expectimax bot's judgement of each drop, in cards, as a win chance by the coach's logistic.
    Rolls, reveals and claims are the mean over their outcomes (a roll's six faces exactly)."""

    def __init__(self) -> None:
        super().__init__()
        self.name = ("Double Spot expectimax bot's judgement, every quiet drop four plies deep; a card lead of 1 "
                     "makes a win e times likelier than a loss")
        self.title = ""  # no words of its own: a report that used it would name it by ``name``

    def values(self, state: State) -> list[float]:
        if state.phase == ROLL:
            return self._mean(state)
        return super().values(state)

    def _rank(self, state: State) -> list[tuple[str, float]]:
        key = state.key()
        if key not in self._ranked:
            judged = sorted(WholeLook().judged(state), key=lambda j: -j.value)
            self._ranked[key] = [(j.move, j.value) for j in judged]
        return self._ranked[key]


# The themes (a puzzle has one or more) and their words on a page: what the drop does, then where, then when.
THEMES = {
    "take-a-card": N_("take a card"), "give-less-away": N_("give less away"), "set-up": N_("set up a finish"),
    "look-ahead": N_("look further ahead"), "which-column": N_("which column"), "which-colour": N_("which colour"),
    "endgame": N_("endgame"),
}


def themes(state: State, best: str, runner_up: str) -> tuple[str, ...]:
    """What the choice is about, from the expectimax bot's two-ply facts about the answer and the next best drop:
    it takes more cards now, it hands the opponent less chance of a finish, it leaves the mover more chance of one
    on the next roll, or none of these (the difference is further ahead); where the two differ (the same colour in
    another column, or the same column with the other face of a split die); and ``endgame`` where a player is a
    card from the target or the frame's last row is filling and a full frame ends the game."""
    facts = {j.move: j for j in ExpectimaxBot(0, deep=0).judge(state, only={best, runner_up})}
    answer, other = facts[best], facts[runner_up]
    found = []
    if answer.takes > other.takes:
        found.append("take-a-card")
    elif answer.gives < other.gives - 1e-9:
        found.append("give-less-away")
    elif answer.next > other.next + 1e-9:
        found.append("set-up")
    else:
        found.append("look-ahead")
    (_, column, colour), (_, column2, colour2) = best.split(), runner_up.split()
    if colour == colour2 and column != column2:
        found.append("which-column")
    if column == column2 and colour != colour2:
        found.append("which-colour")
    empty = state.rules.cells - sum(len(c) for c in state.board)
    if max(state.scores()) >= state.rules.target - 1 or (ends_when_full(state) and empty <= state.rules.columns):
        found.append("endgame")
    return tuple(found)


def plain(state: State) -> str:
    """A plain player's drop (the greedy bot, fresh, so it depends on the position only): a puzzle it solves is
    rated easier."""
    return GreedyBot(seed=0).choose(state)


def kit() -> object:
    """The kit (``GameSpec.puzzles``): pure Python, nothing to install."""
    from ...puzzles.judge import PuzzleKit

    return PuzzleKit(deep=DeepSearch(), other=JudgedChances(), themes=themes, theme_words=THEMES, plain=plain,
                     right_share=RIGHT_SHARE)
