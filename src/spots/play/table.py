"""What the terminal games share about a table: who sits where (a person or a bot) and the dice.

Each game's terminal subclasses ``SeatedTable`` with its own bot factory and how it saves, and
``TableScreen`` with its own board, commands and prompt loop.
"""

from __future__ import annotations

import gettext
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Console

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


class TableScreen:
    """A game at the terminal: the table, where it is shown, in which language, and at what pace."""

    def __init__(self, table: SeatedTable, console: Console, fast: bool = False, plain: bool = False,
                 ask: Any = input, tr: gettext.NullTranslations | None = None) -> None:
        self.tr = tr or gettext.NullTranslations()
        self._ = self.tr.gettext
        self.ngettext = self.tr.ngettext
        self.table = table
        self.console = console
        self.fast = fast
        self.plain = plain
        self.ask = ask

    def say(self, text: str, style: str = "") -> None:
        self.console.print(text, style=None if self.plain or not style else style, markup=False, highlight=False)
