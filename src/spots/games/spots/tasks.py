"""Typed tasks and decisions: the vocabulary of the state machine.

The state keeps an *agenda*, a stack of tasks (``state.py``). Running a task changes the
position and may push more tasks, ask for a decision or ask for a chance event. Each kind
of task is a subclass that says how it runs, next to the rule it carries out
(``turns.py``, ``steps.py``, ``procedures.py``); this module holds what they share and
the registry that reads them back from a saved state, where a task is written as a
list: its name, then its arguments (``["step", 1]``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from .errors import StateFormatError

if TYPE_CHECKING:
    from .notation import Move
    from .state import State


class Task:
    """One pending step of procedure; immutable, so states may share it.

    Subclasses set ``name`` (its word in saved states) and ``arity`` (how many whole-number
    arguments it takes) and write ``run``.
    """

    __slots__ = ("args",)
    name: ClassVar[str]
    arity: ClassVar[int] = 0
    registry: ClassVar[dict[str, type[Task]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Task.registry[cls.name] = cls

    def __init__(self, *args: int) -> None:
        self.args = args

    def run(self, state: State) -> None:
        raise NotImplementedError

    def declined(self, state: State) -> None:
        """The player stopped instead of running this offered task (``continue``/``stop``)."""

    def to_list(self) -> list[Any]:
        return [self.name, *self.args]

    @staticmethod
    def from_list(raw: Any) -> Task:
        """A task read from a saved state; an unknown or malformed one raises StateFormatError."""
        if not isinstance(raw, list) or not raw or raw[0] not in Task.registry:
            raise StateFormatError(f"unknown task in agenda: {raw!r}")
        cls = Task.registry[raw[0]]
        args = raw[1:]
        if len(args) != cls.arity or not all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            raise StateFormatError(f"task {raw[0]!r} takes {cls.arity} whole number(s), not {args!r}")
        return cls(*args)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.args == self.args

    def __hash__(self) -> int:
        return hash((self.name, self.args))

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self.args}"


# What a state waits for when no seat decides.
CHANCE_ROLL = "chance-roll"
CHANCE_REVEAL = "chance-reveal"
OVER = "over"


class Decision:
    """A kind of decision (a *phase*): the moves a seat may make in it and what each does.

    One object per phase (``turn``, ``roll``, ``continue``, ``trot``, ...), registered by its
    phase when it is made; the state asks the object for the legal moves and hands it the move chosen.
    """

    phase: ClassVar[str]
    registry: ClassVar[dict[str, Decision]] = {}

    def __init__(self) -> None:
        Decision.registry[self.phase] = self  # one object per phase, made where it is defined

    def moves(self, state: State) -> list[str]:
        """The legal moves in the notation, in a stable order."""
        raise NotImplementedError

    def apply(self, state: State, move: Move) -> None:
        """Carry out a legal move (already checked)."""
        raise NotImplementedError
