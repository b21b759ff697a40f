"""What the terminal games share about a table: who sits where (a person or a bot) and the dice.

Each game's terminal subclasses ``SeatedTable`` with its own bot factory and how it saves.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

HUMAN = "me"
HUMAN_ALIASES = {"me", "human", "you"}


@dataclass
class SeatedTable:
    """A game in progress at the terminal: the state, who sits where, the seed of the dice, where it is saved."""

    state: Any
    seats: list[str]
    seed: int
    autosave: Path | None
    bots: list[Any] = field(default_factory=list)
    make_bot: ClassVar[Callable[..., Any]]  # the game's ``make(name, seed=...)``

    def __post_init__(self) -> None:
        self.bots = [None if name == HUMAN else self.make_bot(name, seed=self.seed * 10 + i)
                     for i, name in enumerate(self.seats)]
        # Continuing a saved game draws fresh dice from a seed that depends on how far it got.
        self.rng = random.Random(f"{self.seed}:{len(self.state.history())}")

    def save(self, path: Path) -> None:
        raise NotImplementedError  # each game writes its own record format

    def save_as(self, name: str, say: Callable[[str, str], None], _: Callable[[str], str]) -> None:
        """The ``save FILE`` command: write the record and tell the player how to continue."""
        if not name:
            say(_("Say where: save FILE"), "red")
            return
        try:
            self.save(Path(name))
        except OSError as exc:
            say(_("Could not save to {file}: {error}").format(file=name, error=exc.strerror or exc), "red")
            return
        say(_("Saved to {file}; continue with: spots play --load {file}").format(file=name), "")
