"""The coach's analysis of a finished game: how much of the result was luck, how much was play.

For every step of a record (``/work/shared``-free summary, see ``docs/analysis.md``): at a decision,
every legal move's resulting position is valued by the game's evaluator; the best move is the one
leaving the mover the highest chance to win, and the move played lost the difference (equity lost).
At a chance event, every exact outcome is valued; each seat's luck is its chance after the outcome
that happened minus its expected chance over all outcomes, so luck sums to zero over the seats.
A position's own chance is derived from its children (the best move's at a decision, the expectation
at chance), so a decision's loss and a roll's luck use the same numbers as the chart.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.games import GameSpec, spec_of_rules
from ..core.record import Record
from .evaluator import Checked, Evaluator, Reason, terminal_values

__all__ = ["CHECKED_AT_MOST", "EPSILON", "Analyser", "Mistake", "PlayerSummary", "Report", "Step", "analyse",
           "decision", "evaluator_of", "move_values", "people_of"]

EPSILON = 1e-9  # moves whose values differ by less are equal (a decision of equal moves is forced)
CHECKED_AT_MOST = 6  # a seat's candidate mistakes checked at most, biggest first (a check is the costly part)
Values = tuple[float, ...]


@dataclass(frozen=True)
class Step:
    """One move of the record as the coach sees it (``kind``: "decision" or "chance")."""

    index: int  # the move's place in the record, from 0
    kind: str
    seat: int | None  # the seat that decided (None at chance)
    turn: int  # the game's turn counter at the step
    move: str
    before: Values  # every seat's chance before the step
    after: Values  # ... and after it
    best: str | None = None  # decisions: the evaluator's best move
    lost: float = 0.0  # decisions: the mover's equity lost by the move played
    forced: bool = False  # decisions: one legal move, or all moves equal
    luck: Values = ()  # chance: per seat, the chance after minus the expected chance

    @property
    def agreed(self) -> bool:
        """A decision that was not forced, where the move played is the evaluator's best (or as good): what the
        advisor would have said (``spots.analysis.assistance`` counts these)."""
        return self.kind == "decision" and not self.forced and self.lost == 0.0

    def to_row(self) -> dict[str, Any]:
        """The step as one JSON row (``spots analyse --json``)."""
        return {"step": self.index, "kind": self.kind, "seat": self.seat, "turn": self.turn, "move": self.move,
                "before": [round(v, 6) for v in self.before], "after": [round(v, 6) for v in self.after],
                "best": self.best, "lost": round(self.lost, 6), "forced": self.forced,
                "luck": [round(v, 6) for v in self.luck]}


@dataclass(frozen=True)
class Mistake:
    """One of a player's biggest losses: where, what was played, what was better and why."""

    step: int
    turn: int
    position: str  # the position as text (the game's ``render``)
    played: str
    best: str
    lost: float
    reasons: tuple[Reason, ...]
    after_played: Values = ()  # every seat's chance after the move played ...
    after_best: Values = ()  # ... and after the better move (what it would have left the others)
    error: float = 0.0  # the standard error of ``lost`` where an independent check measured it (0: the search's)


@dataclass(frozen=True)
class PlayerSummary:
    """One seat's totals over the game."""

    seat: int
    name: str
    human: bool
    result: float  # 1 won, 0 lost, 1/k a k-way draw
    start: float  # the chance to win at the first step
    luck: float  # the sum of the seat's luck
    lost: float  # the sum of the equity the seat lost
    decisions: int  # the seat's decisions that were not forced
    forced: int
    turns: int  # the seat's turns with a decision that was not forced
    given: float  # what the others' decisions moved this seat's chance by
    residual: float  # result − start − luck − (changes at every decision): the evaluator's inconsistency
    mistakes: tuple[Mistake, ...] = ()
    stood_in: int = 0  # the seat's decisions a stand-in bot made (the person ran out of time): not coached
    unchecked: int = 0  # losses that could have been mistakes, not named: the evaluator's check could not run here
    agreed: int = 0  # the seat's own decisions that were not forced where it played the evaluator's best move

    @property
    def mean_lost(self) -> float:
        """Equity lost per decision that was not forced."""
        return self.lost / self.decisions if self.decisions else 0.0

    @property
    def per_turn(self) -> float:
        return self.lost / self.turns if self.turns else 0.0

    @property
    def luck_adjusted(self) -> float:
        """The result with the dice taken out."""
        return self.result - self.luck


@dataclass(frozen=True)
class Report:
    """The whole analysis of one record."""

    game: str
    evaluator: str
    steps: tuple[Step, ...]
    players: tuple[PlayerSummary, ...]
    result: Values
    chart: tuple[Values, ...] = field(default=())  # every seat's chance before each step, then the result
    title: str = ""  # the evaluator in a few words, a message id (``Evaluator.title``), translated where shown


def evaluator_of(spec: GameSpec) -> Evaluator:
    """The game's coach evaluator; a clear error for a game that offers none."""
    if spec.coach is None:
        raise ValueError(f"{spec.title} has no coach evaluator, so its games cannot be analysed")
    return spec.coach()


class _Valuer:
    """The evaluator's values, cached by position key for one report (positions meet again: transpositions)."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        self.cache: dict[Any, Values] = {}

    def __call__(self, state: Any) -> Values:
        if state.is_terminal():
            return tuple(terminal_values(state))
        key = state.key()
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = tuple(float(v) for v in self.evaluator.values(state))
        return found

    def moves(self, state: Any) -> dict[str, Values] | None:
        """Every legal move's values in one call, when the evaluator ranks them so (``Evaluator.moves``)."""
        ranker = getattr(self.evaluator, "moves", None)
        if ranker is None:
            return None
        return {m: tuple(float(v) for v in values) for m, values in ranker(state).items()}

    def after(self, state: Any, move: str) -> Values:
        child = state.clone()
        child.apply_action(move)
        return self(child)

    def chance(self, state: Any, happened: str) -> tuple[Values, Values]:
        """The expected values over a chance event's exact outcomes, and the values after the one that happened
        (``Evaluator.chance`` where the evaluator values them its own way)."""
        own = getattr(self.evaluator, "chance", None)
        if own is not None:
            expected, actual = own(state, happened)
            return tuple(float(v) for v in expected), tuple(float(v) for v in actual)
        total: list[float] | None = None
        for outcome, probability in state.chance_outcomes(exact=True):
            values = self.after(state, outcome)
            if total is None:
                total = [0.0] * len(values)
            for seat, v in enumerate(values):
                total[seat] += float(probability) * v
        actual = self.after(state, happened)
        return tuple(total or actual), actual


def analyse(record: Record, evaluator: Evaluator | None = None, mistakes: int = 3,
            progress: Callable[[int, int], None] | None = None, humans: Sequence[bool] | None = None,
            every_seat: bool = False) -> Report:
    """The report of a finished game's record (a record of an unfinished game is refused).

    ``humans``: which seats are people; by default the record's ``bots`` say (a seat with no bot is a person), else a
    seat whose name is not one of the game's bots, else every seat. Only people's mistakes are listed, unless
    ``every_seat``; a stand-in's moves (``Record.stand_ins``) are nobody's.
    """
    analyser = Analyser(record.rules, evaluator)
    analyser.feed(record.moves, progress)
    return analyser.report(record, mistakes, humans, every_seat)


class Analyser:
    """A game's steps analysed as its moves come (``feed``), the report once it is finished (``report``).

    Why: a step's numbers depend only on its position and its move, so a server can analyse a game while it
    is played and have the report as soon as it ends; fed in pieces or at once, the report is the same.
    """

    def __init__(self, rules: Any, evaluator: Evaluator | None = None) -> None:
        self.spec = spec_of_rules(rules)
        self.evaluator = evaluator or evaluator_of(self.spec)
        self.valuer = _Valuer(self.evaluator)
        self.state = self.spec.new_state(rules)
        self.moves: list[str] = []
        self.steps: list[Step] = []
        self.renders: dict[int, tuple[Any, str]] = {}

    def feed(self, moves: Sequence[str], progress: Callable[[int, int], None] | None = None) -> None:
        """Analyse the moves of ``moves`` not fed yet (``moves`` is the whole game so far)."""
        if list(moves[:len(self.moves)]) != self.moves:
            raise ValueError("these moves are not the game fed so far")
        for index in range(len(self.moves), len(moves)):
            self._step(index, moves[index])
            if progress is not None:
                progress(index + 1, len(moves))

    def _step(self, index: int, move: str) -> None:
        state, spec = self.state, self.spec
        if state.is_terminal():
            raise ValueError(f"move {index + 1} ({move!r}) comes after the end of the game")
        turn = spec.turn(state)
        if state.is_chance_node():
            self.steps.append(_chance_step(self.valuer, state, index, turn, move))
        else:
            step, alternatives = _decision_step(self.valuer, state, index, turn, move)
            self.steps.append(step)
            if step.lost > EPSILON:
                self.renders[index] = (state.clone(), alternatives)
        state.apply_action(move)
        self.moves.append(move)

    def report(self, record: Record, mistakes: int = 3, humans: Sequence[bool] | None = None,
               every_seat: bool = False) -> Report:
        """The report of ``record``, whose moves must all have been fed (and finish the game)."""
        if list(record.moves) != self.moves:
            raise ValueError("the record's moves are not the ones analysed")
        if not self.state.is_terminal():
            raise ValueError("the game is not finished: only a finished game can be analysed")
        result = tuple(terminal_values(self.state))
        people = list(humans) if humans is not None else people_of(self.spec, record, len(result))
        players = _summaries(self.spec, record, self.steps, result, self.renders, self.evaluator, mistakes, people,
                             every_seat)
        chart = (*(s.before for s in self.steps), result)
        title = str(getattr(self.evaluator, "title", ""))
        return Report(self.spec.name, self.evaluator.name, tuple(self.steps), players, result, chart, title)


def _chance_step(valuer: _Valuer, state: Any, index: int, turn: int, move: str) -> Step:
    before, actual = valuer.chance(state, move)
    luck = tuple(a - e for a, e in zip(actual, before, strict=True))
    return Step(index, "chance", None, turn, move, before, actual, luck=luck)


def move_values(evaluator: Evaluator, state: Any) -> dict[str, Values]:
    """Every legal move's values at a decision, as a report computes them."""
    return _move_values(_Valuer(evaluator), state)


def _move_values(valuer: _Valuer, state: Any) -> dict[str, Values]:
    ranked = valuer.moves(state)
    legal = state.legal_actions()
    return {m: ranked[m] for m in legal} if ranked else {m: valuer.after(state, m) for m in legal}


def decision(evaluator: Evaluator, state: Any, move: str) -> Step:
    """One decision's step as a report computes it (its loss, whether it was forced, the best move), alone."""
    return _decision_step(_Valuer(evaluator), state, 0, 0, move)[0]


def _decision_step(valuer: _Valuer, state: Any, index: int, turn: int, move: str) -> tuple[Step, Any]:
    seat = state.current_player()
    legal = state.legal_actions()
    values = _move_values(valuer, state)
    valued = list(values.items())
    best, best_values = max(valued, key=lambda mv: mv[1][seat])  # the first of equal moves, in legal order
    played = values[move] if move in values else valuer.after(state, move)
    lost = max(0.0, best_values[seat] - played[seat])
    forced = len(legal) == 1 or max(v[seat] for _, v in valued) - min(v[seat] for _, v in valued) <= EPSILON
    step = Step(index, "decision", seat, turn, move, best_values, played, best=best,
                lost=0.0 if forced or lost <= EPSILON else lost, forced=forced)
    return step, best


def people_of(spec: GameSpec, record: Record, seats: int) -> list[bool]:
    """Which seats a record's people played: by its ``bots`` (None: a person), else by name, else all of them."""
    if record.bots is not None and len(record.bots) == seats:
        return [bot is None for bot in record.bots]
    if record.seats and len(record.seats) == seats:
        return [name not in spec.bots for name in record.seats]
    return [True] * seats


def _summaries(spec: GameSpec, record: Record, steps: Sequence[Step], result: Values,
               renders: dict[int, tuple[Any, Any]], evaluator: Evaluator, mistakes: int, humans: Sequence[bool],
               every_seat: bool = False) -> tuple[PlayerSummary, ...]:
    seats = len(result)
    names = list(record.seats) if record.seats and len(record.seats) == seats else [f"seat {s}" for s in range(seats)]
    start = steps[0].before if steps else result
    threshold = max(EPSILON, float(getattr(evaluator, "mistake", 0.0)))
    out = []
    for seat in range(seats):
        decisions = [s for s in steps if s.kind == "decision" and s.seat == seat]
        own = [s for s in decisions if not record.stood_in(seat, s.index)]
        moved = sum(s.after[seat] - s.before[seat] for s in steps if s.kind == "decision")
        given = sum(s.after[seat] - s.before[seat] for s in steps if s.kind == "decision" and s.seat != seat)
        luck = sum(s.luck[seat] for s in steps if s.kind == "chance")
        named, unchecked = _named(spec, own, renders, evaluator, threshold, mistakes) if humans[seat] or every_seat \
            else ((), 0)
        out.append(PlayerSummary(
            seat, names[seat], humans[seat], result[seat], start[seat], luck, sum(s.lost for s in own),
            sum(1 for s in own if not s.forced), sum(1 for s in own if s.forced),
            len({s.turn for s in own if not s.forced}), given,
            result[seat] - start[seat] - luck - moved,
            named, len(decisions) - len(own), unchecked, sum(1 for s in own if s.agreed),
        ))
    return tuple(out)


def _named(spec: GameSpec, own: Sequence[Step], renders: dict[int, tuple[Any, Any]], evaluator: Evaluator,
           threshold: float, mistakes: int) -> tuple[tuple[Mistake, ...], int]:
    """A seat's mistakes to name, biggest first, and how many candidates went unchecked.

    With an evaluator that checks (``Evaluator.check``): a decision whose loss by the search is at least half the
    threshold is a candidate (biggest first, at most ``CHECKED_AT_MOST``), and it is named when the independent
    check finds a loss of at least the threshold and more than twice its standard error, at the check's size
    (docs/analysis.md: how often the reference set confirms them). Without a check: the search's losses from the
    threshold up."""
    check = getattr(evaluator, "check", None)
    if check is None:
        worst = sorted((s for s in own if s.lost >= threshold), key=lambda s: (-s.lost, s.index))[:mistakes]
        return tuple(_mistake(spec, s, renders[s.index][0], evaluator) for s in worst), 0
    candidates = sorted((s for s in own if s.lost >= threshold / 2), key=lambda s: (-s.lost, s.index))
    named: list[Mistake] = []
    for step in candidates[:CHECKED_AT_MOST]:
        state = renders[step.index][0]
        verdict = check(state, step.move, step.best or step.move)
        if verdict is None:
            return (), len(candidates)
        if verdict.lost >= threshold and verdict.lost > 2 * verdict.error:
            named.append(_mistake(spec, step, state, evaluator, verdict))
            if len(named) == mistakes:
                break
    return tuple(sorted(named, key=lambda m: (-m.lost, m.step))), 0


def _mistake(spec: GameSpec, step: Step, state: Any, evaluator: Evaluator, checked: Checked | None = None) -> Mistake:
    """The mistake in words' terms: at the check's size and chances where it was checked, else the search's."""
    best = step.best or step.move
    reasons = tuple(evaluator.reasons(state, step.move, best))
    if checked is None:
        return Mistake(step.index, step.turn, spec.render(state), step.move, best, step.lost, reasons, step.after,
                       step.before)
    return Mistake(step.index, step.turn, spec.render(state), step.move, best, checked.lost, reasons,
                   checked.after_played, checked.after_best, checked.error)
