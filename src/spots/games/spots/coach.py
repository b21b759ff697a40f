"""The coach's evaluator for Spots: every seat's chance to win, by a search to the end of the mover's turn.

**One horizon.** Every position is valued the same way, by what it is, never by where it came from: the rest of
the turn in progress is searched, and where that turn ends (a stop, a score, a bust) the position is scored by the
value at the turn's end (``TurnEnd``). So a move that ends the turn and a move that goes on are valued to the same
kind of leaf, and two moves that reach the same position get the same value, exactly.

**The search** (``TurnSearch.value``): inside a turn every decision is the mover's, so the rest of the turn is a
tree of the mover's best choices (by the mover's chance) and rolls (the mean over the dice). Rolls of up to
``EXACT`` outcomes (one or two dice, a card revealed from a short deck) are expanded exactly; a bigger roll by
``WIDTH`` outcomes, one from each equal slice of probability, the same slices every time. After ``DEPTH`` rolls the
mover plays on plainly (``PlainPlay``: greedy's placing, no reroll, stop where it may): its first chance events over
every outcome or ``PLAIN_WIDTHS`` slices, a long forced chain past them over one outcome seeded by the position.
No choice is ever a maximum over samples: the mover's choices are compared on the same slices, and a sampled
tail only finishes plain play, which chooses nothing by value.

**The turn's end** (``TurnEnd``): the learned win-chance model (``learned_value.py``, numpy) recalibrated on held-out
games (``CALIBRATION``: a temperature and a lift for the seat about to move, docs/analysis.md), or the fitted linear
value (``value.py``) where numpy is missing. A chance is 1 or 0 only when the rules decide it: the game is over, or
the seat about to move holds complete dogs that reach the target (it scores them and wins, whatever the dice); and a
seat is at 0 when a seat ahead of it holds such dogs and nothing can take them first (``out_of_the_race``).
Otherwise it stays within ``[UNDECIDED, 1 - UNDECIDED]``.

The setup (dealing and the first dice) has no decision: a setup position is worth the mean, over ``SETUP_DEALS``
completions of the setup seeded by the position, of the first turn's start.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from ...analysis.evaluator import Checked, normalised, terminal_values
from ...i18n import N_
from .advice import bust_chance
from .dice import roll_outcomes
from .expectimax import ExpectimaxBot
from .greedy import GreedyBot
from .state import CHANCE_ROLL, State
from .value import FITTED, Weights, standing, win_chances

if TYPE_CHECKING:
    from .learned_value import LearnedValue

__all__ = ["CALIBRATION", "CHECK_ROLLOUTS", "DEPTH", "EXACT", "MISTAKE", "UNDECIDED", "WIDTH", "PlainPlay", "TurnEnd",
           "TurnSearch", "decided", "evaluator", "out_of_the_race"]

Values = tuple[float, ...]
DEPTH = 1  # rolls searched with the mover's best choices before plain play finishes the turn
EXACT = 21  # a chance event with at most this many outcomes is expanded exactly
WIDTH = 6  # outcomes of a bigger one, one from each equal slice of probability
# Plain play values its k-th chance event over every outcome where there are at most PLAIN_EXACT, else over
# PLAIN_WIDTHS[k] slices; from the last width on (a long forced chain: Bolt's twelve dice one by one), over one outcome
# drawn with a generator seeded by the position, so a turn's tail costs a bounded number of positions.
PLAIN_EXACT = 6
PLAIN_WIDTHS = (6, 2, 1)
RECORD_EXACT = 126  # a record's roll of up to this many outcomes (four dice) is valued over every outcome ...
RECORD_WIDTH = 64  # ... a bigger one over this many slices (Fetch's 8 dice: 1,287 outcomes)
SETUP_DEALS = 8
UNDECIDED = 0.001  # an undecided chance is kept this far from 0 and 1
MISTAKE = 0.02  # a loss from which the report names a mistake: tested against the reference set (docs/analysis.md)
MEMO_LIMIT = 400_000
CHECK_ROLLOUTS = 1000  # play-outs of each of the two moves when a mistake is checked, on the same dice
# The learned model's chances recalibrated on held-out games: log-chances divided by the temperature, plus the lift
# for the seat about to move (docs/analysis.md, "Calibration"); (1.0, 0.0) leaves them as they are.
CALIBRATION = (0.85, 0.24)


def decided(state: State) -> Values | None:
    """The result where the rules already settle it: the game is over, or the seat about to start its turn holds
    complete dogs that reach the target (it scores them at once and wins). None for every other position."""
    if state.is_terminal():
        return tuple(normalised(terminal_values(state)))
    if state.phase == "turn" and _holds_the_win(state, state.seat):
        return tuple(1.0 if s == state.seat else 0.0 for s in range(state.rules.players))
    return None


def out_of_the_race(state: State) -> frozenset[int]:
    """The seats that can no longer win, at the start of a turn: a later seat that holds complete dogs reaching the
    target scores them and wins when its turn starts, before any seat after it in turn order moves again.

    Certain only where nothing can take those dogs first: Dig (which can bust a player on another's turn) is not
    among the game's tiles, and the turn limit does not end the game before that seat's turn. Where the seat to
    move holds the win itself, ``decided`` says so instead.
    """
    players = state.rules.players
    if state.phase != "turn" or players < 2 or "dig" in state.rules.tricks:
        return frozenset()
    for ahead in range(1, players):
        seat = (state.seat + ahead) % players
        if state.turn + ahead - 1 >= state.rules.turn_limit:
            return frozenset()
        if _holds_the_win(state, seat):
            return frozenset((seat + later) % players for later in range(1, players - ahead))
    return frozenset()


def _holds_the_win(state: State, seat: int) -> bool:
    player = state.players[seat]
    complete = sum(1 for d in player.dogs if not d.scored and d.complete)
    return bool(complete) and player.scored_count() + complete >= state.rules.target


class TurnEnd:
    """Every seat's chance at the end of a turn: the recalibrated learned model, or the fitted linear value."""

    def __init__(self, learned: LearnedValue | None = None, calibration: tuple[float, float] = CALIBRATION,
                 weights: Weights = FITTED) -> None:
        self.learned, self.weights = learned, weights
        self.temperature, self.lift = calibration
        self._standings: dict[tuple[Any, ...], float] = {}  # a table's linear standing, by what it depends on

    @property
    def name(self) -> str:
        if self.learned is None:
            return "the fitted linear value"
        return f"the learned win-chance model (temperature {self.temperature:g}, mover's lift {self.lift:g})"

    def __call__(self, state: State) -> Values:
        known = decided(state)
        if known is not None:
            return known
        if self.learned is not None and state.rules.players > 1:
            chances = self._recalibrated(self.learned.chances(state), state)
        else:
            chances = self._linear(state)
        return _without(_undecided(chances), out_of_the_race(state))

    def _recalibrated(self, chances: list[float], state: State) -> list[float]:
        if self.temperature == 1.0 and self.lift == 0.0:
            return chances
        logits = [math.log(max(c, 1e-300)) / self.temperature for c in chances]
        logits[state.seat] += self.lift
        top = max(logits)
        odds = [math.exp(x - top) for x in logits]
        total = sum(odds)
        return [o / total for o in odds]

    def _linear(self, state: State) -> list[float]:
        """The fitted value's chances; each table's standing computed once per table (only the mover's changes
        during a turn), the same numbers as the plain formula (``tests/test_analysis.py``)."""
        standings = []
        for seat, player in enumerate(state.players):
            key = (tuple(player.dogs), player.yard_total(), player.treats)
            found = self._standings.get(key)
            if found is None:
                if len(self._standings) > MEMO_LIMIT:
                    self._standings.clear()
                found = self._standings[key] = standing(state, seat, self.weights)
            standings.append(found)
        return normalised(win_chances(state, standings, self.weights))


def _undecided(chances: list[float]) -> Values:
    """Chances kept within [UNDECIDED, 1 - UNDECIDED] (only the rules make a certainty), summing to 1 again."""
    if len(chances) < 2:
        return (min(1 - UNDECIDED, max(UNDECIDED, chances[0])),)
    clipped = [min(1 - UNDECIDED, max(UNDECIDED, c)) for c in chances]
    total = sum(clipped)
    return tuple(c / total for c in clipped)


def _without(chances: Values, losers: frozenset[int]) -> Values:
    """Chances with the seats that cannot win set to 0, the rest scaled to sum to 1 again."""
    if not losers:
        return chances
    kept = [0.0 if seat in losers else c for seat, c in enumerate(chances)]
    total = sum(kept)
    return tuple(c / total for c in kept)


class PlainPlay(GreedyBot):
    """How the search's horizon finishes a turn: greedy's placing and choosing, but no reroll and never a roll more
    than it must (it stops where it may), so what follows is a short tree that can be valued over every outcome."""

    name = "plain"

    def __init__(self, risk: float = 0.0) -> None:
        super().__init__(seed=0, risk=risk)

    def choose(self, state: State) -> str:
        moves = [m for m in state.legal_actions() if not m.startswith("reroll")] or state.legal_actions()
        if len(moves) == 1:
            return moves[0]
        if state.phase == "continue" and "stop" in moves and self.risk == 0.0:
            return "stop"
        handler = getattr(self, "_" + (state.phase or "").replace("-", "_"), None)
        move = handler(state, moves) if handler else None
        return move if move in moves else moves[0]


class TurnSearch:
    """Every seat's chance to win from a position, the rest of the mover's turn searched (see the module docstring).

    ``values`` is the analysis's view of a position; ``moves`` values every legal move of a decision; ``chance`` the
    expected and the actual values of a record's chance event, one roll less deep (the depth the decision before it
    valued that roll at), so a roll's luck and the decision that led to it use the same numbers."""

    def __init__(self, depth: int = DEPTH, exact: int = EXACT, width: int = WIDTH, turn_end: TurnEnd | None = None,
                 setup_deals: int = SETUP_DEALS) -> None:
        self.depth, self.exact, self.width, self.setup_deals = depth, exact, width, setup_deals
        self.turn_end = turn_end or TurnEnd()
        self.mistake = MISTAKE
        self.title = (N_("a search of the rest of each turn, then the learned win-chance model")
                      if self.turn_end.learned is not None else
                      N_("a search of the rest of each turn, then the fitted value"))
        self.plain = PlainPlay()
        self._memos: dict[int, dict[tuple[Any, ...], Values]] = {}  # by the turn the position is in

    @property
    def name(self) -> str:
        """The evaluator and its whole budget in words (a report's key: another budget is another report)."""
        return (f"Spots turn search: {self.depth} roll(s) searched, exact up to {self.exact} outcomes, {self.width} "
                f"slices above, then plain play (exact up to {PLAIN_EXACT} outcomes, then "
                f"{'/'.join(map(str, PLAIN_WIDTHS))} slices); {self.turn_end.name} at the turn's end")

    # ---------------------------------------------------------------- the analysis's questions

    def values(self, state: State) -> list[float]:
        return list(self.value(state, self.depth))

    def moves(self, state: State) -> dict[str, Values]:
        """Every legal move's value, each by the same search from the position it reaches."""
        out = {}
        for move in state.legal_actions():
            out[move] = self.value(self._child(state, move), self.depth)
        return out

    def chance(self, state: State, happened: str) -> tuple[Values, Values]:
        """A record's chance event: the expected values over its outcomes and the values after ``happened``."""
        depth = self.depth - 1
        outcomes = state.chance_outcomes(exact=True)
        if len(outcomes) > RECORD_EXACT:
            outcomes = _slices(state, state.chance_outcomes(), RECORD_WIDTH)
        weighted = [(float(p), self.value(self._child(state, o), depth)) for o, p in outcomes]
        return _mean(weighted), self.value(self._child(state, happened), depth)

    def reasons(self, state: State, played: str, best: str) -> list[tuple[str, dict[str, str]]]:
        """Facts a player can check: the exact chance each move busts them before their next choice (``odds.py``)."""
        risk_played, risk_best = bust_chance(state, played), bust_chance(state, best)
        if risk_played is None or risk_best is None or risk_played == risk_best:
            return []
        fields = {"risk_played": _percent(risk_played), "risk_best": _percent(risk_best)}
        if risk_played > risk_best:
            return [(N_("The move played could bust you before your next choice: a {risk_played} chance, against "
                        "{risk_best} for the better move."), fields)]
        return [(N_("The better move risked more ({risk_best} to bust before your next choice, against "
                    "{risk_played}), and what it could gain was worth that risk."), fields)]

    def check(self, state: State, played: str, best: str) -> Checked | None:
        """What ``played`` lost against ``best`` by an independent, stronger estimate than the search: each move's
        position played out ``CHECK_ROLLOUTS`` times to the end of the game (greedy seats that take a win, the
        compiled simulator) on the same dice; the mover's mean loss, its standard error and every seat's mean
        result after each move. None where the simulator is not installed (``spots[fast]``) or does not play
        these rules."""
        try:
            from ...fast.api import rollout_returns
        except ImportError:
            return None
        seat = state.current_player()
        seed = zlib.crc32(repr(state.key()).encode())
        try:
            results = [rollout_returns(self._child(state, move), CHECK_ROLLOUTS, seed) for move in (best, played)]
        except ValueError:
            return None
        after_best, after_played = (tuple(float(v) for v in r.mean(axis=0)) for r in results)
        lost = results[0][:, seat] - results[1][:, seat]
        return Checked(float(lost.mean()), float(lost.std(ddof=1) / math.sqrt(len(lost))), after_played, after_best)

    # ---------------------------------------------------------------- the search

    def value(self, state: State, depth: int) -> Values:
        """The position's value with ``depth`` rolls searched by the mover's best choices (then plain play)."""
        known = self._outside_the_turn(state)
        if known is not None:
            return known
        memo = self._memo(state)
        key = (state.key(), depth)
        found = memo.get(key)
        if found is not None:
            return found
        if state.is_chance_node():
            if depth > 0:
                found = _mean([(p, self.value(self._child(state, o), depth - 1)) for o, p in self._outcomes(state)])
            else:
                found = self._plain_chance(state)
        else:
            seat = state.current_player()
            found = max((self.value(self._child(state, m), depth) for m in self._candidates(state, depth)),
                        key=lambda v: v[seat])
        memo[key] = found
        return found

    def _plain(self, state: State, level: int) -> Values:
        """The rest of the turn played plainly (``PlainPlay``), its ``level``-th chance event next."""
        known = self._outside_the_turn(state)
        if known is not None:
            return known
        memo = self._memo(state)
        key = (state.key(), -1 - level)
        found = memo.get(key)
        if found is None:
            if state.is_chance_node():
                found = self._plain_chance(state, level)
            else:
                found = self._plain(self._child(state, self.plain.choose(state)), level)
            memo[key] = found
        return found

    def _plain_chance(self, state: State, level: int = 0) -> Values:
        outcomes = state.chance_outcomes()
        width = PLAIN_WIDTHS[min(level, len(PLAIN_WIDTHS) - 1)]
        if width == 1:
            line = state.clone()
            line.sample_chance(random.Random(zlib.crc32(repr(state.key()).encode())))
            return self._plain(line, level + 1)
        if len(outcomes) > PLAIN_EXACT:
            outcomes = _slices(state, outcomes, width)
        return _mean([(p, self._plain(self._child(state, o), level + 1)) for o, p in outcomes])

    def _outside_the_turn(self, state: State) -> Values | None:
        """A position the search does not look into: decided, the start of a turn (the turn's end), or the setup."""
        if state.is_terminal() or state.phase == "turn":  # many lines of a turn end alike: each valued once
            memo = self._memo(state)
            key = (state.key(), "end")
            found = memo.get(key)
            if found is None:
                found = memo[key] = self.turn_end(state)
            return found
        if state.turn == 0:
            return self._setup(state)
        return None

    def _candidates(self, state: State, depth: int) -> list[str]:
        """The mover's moves worth searching: a roll's dice resolved lowest face first (their order changes
        nothing), past the searched rolls no reroll (its roll would be played plainly anyway), and Dig's
        adjustments that can help the mover (its own dice down, the others' up)."""
        moves = ExpectimaxBot.candidates(state)
        if depth <= 0 and state.phase == "roll":
            return [m for m in moves if not m.startswith("reroll")] or moves
        if state.phase == "dig":  # raising one's own die or lowering another's only helps the others
            own = f"dig {state.seat} "
            return [m for m in moves if m == "stop" or m.startswith(own) == m.endswith(" down")]
        return moves

    def _outcomes(self, state: State) -> list[tuple[str, float]]:
        outcomes = state.chance_outcomes()
        return outcomes if len(outcomes) <= self.exact else _slices(state, outcomes, self.width)

    def _setup(self, state: State) -> Values:
        memo = self._memo(state)
        key = (state.key(), "setup")
        found = memo.get(key)
        if found is None:
            rng = random.Random(zlib.crc32(repr(state.key()).encode()))
            deals = []
            for _ in range(self.setup_deals):
                deal = state.clone()
                while deal.turn == 0 and not deal.is_terminal():
                    deal.sample_chance(rng)
                deals.append((1.0, self.turn_end(deal)))
            found = memo[key] = _mean(deals)
        return found

    def _memo(self, state: State) -> dict[tuple[Any, ...], Values]:
        """The memo of the position's turn. Every key holds its turn and a search never looks past its turn, so a
        turn two behind the game is never asked about again: its memo is dropped (clearing changes no value)."""
        memo = self._memos.get(state.turn)
        if memo is None:
            for old in [t for t in self._memos if t < state.turn - 1]:
                del self._memos[old]
            memo = self._memos[state.turn] = {}
        elif len(memo) > MEMO_LIMIT:
            memo.clear()
        return memo

    @staticmethod
    def _child(state: State, move: str) -> State:
        child = state.clone()
        child.apply_trusted(move)
        return child


def _slices(state: State, outcomes: list[tuple[str, Any]], width: int) -> list[tuple[str, float]]:
    """``width`` outcomes, one from the middle of each equal slice of probability, the same slices every time. A
    roll's outcomes are sliced in the order of their sum (ties by faces): each slice then holds rolls of like size,
    so what a roll buries (and whether it busts) is spread over the slices as it is over the dice, where the order
    the dice are listed in would put the low rolls in the first slices and the high ones in the last."""
    if state.phase == CHANCE_ROLL:
        return list(_roll_slices(state.pending_dice, width))
    return _pick_slices(outcomes, width)


@lru_cache(maxsize=128)
def _roll_slices(dice: int, width: int) -> tuple[tuple[str, float], ...]:
    by_sum = sorted(roll_outcomes(dice), key=lambda o: (sum(map(int, o[0].split()[1:])), o[0]))
    return tuple(_pick_slices(by_sum, width))


def _pick_slices(outcomes: Sequence[tuple[str, Any]], width: int) -> list[tuple[str, float]]:
    cumulative = list(accumulate(float(p) for _, p in outcomes))
    picks = []
    index = 0
    for j in range(width):
        point = (j + 0.5) / width * cumulative[-1]
        while cumulative[index] < point:
            index += 1
        picks.append((outcomes[index][0], 1.0 / width))
    return picks


def _mean(weighted: list[tuple[float, Values]]) -> Values:
    total = sum(p for p, _ in weighted)
    seats = len(weighted[0][1])
    return tuple(sum(p * v[s] for p, v in weighted) / total for s in range(seats))


def _percent(chance: Fraction) -> str:
    """A chance as a percentage; never 0% or 100% unless it is exactly that."""
    value = float(chance)
    if 0 < value < 0.005:
        return "<1%"
    if 0.995 <= value < 1:
        return ">99%"
    return f"{value:.0%}"


def evaluator(value: str = "best", model: str | None = None) -> TurnSearch:
    """The coach's evaluator at its documented budget (``GameSpec.coach``).

    ``value``: ``best`` (the recalibrated learned model where numpy is installed, else the linear value), ``learned``
    (it, or an error naming numpy), ``learned-raw`` (the model without recalibration) or ``linear``; ``model`` another
    ``.npz`` for the learned value."""
    if value == "linear":
        return TurnSearch(turn_end=TurnEnd())
    if value not in ("best", "learned", "learned-raw"):
        raise ValueError(f"unknown value {value!r}; allowed: best, learned, learned-raw, linear")
    from .learned_value import LearnedValueError, shipped

    try:
        learned = shipped(model)
    except LearnedValueError:
        if value != "best":
            raise
        return TurnSearch(turn_end=TurnEnd())
    calibration = (1.0, 0.0) if value == "learned-raw" else CALIBRATION
    return TurnSearch(turn_end=TurnEnd(learned, calibration))
