"""The old module paths, kept working after the games moved under ``spots.games``.

People's scripts import ``spots.odds``, ``spots.advisor``, ``spots.double_spot``,
``spots.engine``, ``spots.bots.greedy`` and ``spots.play.terminal`` (and their submodules). A finder on
``sys.meta_path`` answers those names with the module at its new place: the very
same module object, so classes, constants and ``isinstance`` checks are shared, with a
``DeprecationWarning`` naming the new place.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

# Old name (and everything under it) -> new name, longest first.
MOVED = {
    "spots.engine.render": "spots.games.spots.words",
    "spots.engine": "spots.games.spots",
    "spots.double_spot": "spots.games.double_spot",
    "spots.bots.greedy": "spots.games.spots.greedy",
    "spots.bots.expectimax": "spots.games.spots.expectimax",
    "spots.bots.value": "spots.games.spots.value",
    "spots.bots.mcts": "spots.games.spots.mcts",
    "spots.advisor": "spots.games.spots.advice",
    "spots.odds": "spots.games.spots.odds",
    "spots.play.terminal": "spots.games.spots.terminal",
    "spots.play.view": "spots.games.spots.terminal_view",
    # each game's terminal and web views moved into its folder
    "spots.play.spots_terminal": "spots.games.spots.terminal",
    "spots.play.spots_view": "spots.games.spots.terminal_view",
    "spots.play.double_spot_terminal": "spots.games.double_spot.terminal",
    "spots.play.double_spot_view": "spots.games.double_spot.terminal_view",
    "spots.web.words": "spots.games.spots.web_view",
    "spots.web.double_spot_words": "spots.games.double_spot.web_view",
    "spots.web.solo": "spots.games.spots.solo_web",  # the Daily page and challenges: Spots' own web pages
    "spots.solo_cli": "spots.games.spots.solo_play",  # spots play --daily: Spots' GameSpec.play_modes
    "spots.games.spots.fields": "spots.core.fields",  # both games' states declare their fields with it
}


def new_name(name: str) -> str | None:
    """Where the module once called ``name`` lives now (None: it did not move)."""
    for old, new in MOVED.items():
        if name == old or name.startswith(old + "."):
            return new + name[len(old):]
    return None


class _Alias(importlib.abc.Loader):
    """Loads an old name as the module at its new place."""

    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(f"{spec.name} moved to {self.target}; import it from there", DeprecationWarning, stacklevel=2)
        module = importlib.import_module(self.target)
        self.spec = module.__spec__  # the import system overwrites it with the alias's; put back below
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run (the module ran once, under its new name); keep its own spec (package data needs it)."""
        module.__spec__ = self.spec


class MovedFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        new = new_name(fullname)
        if new is None:
            return None
        return importlib.util.spec_from_loader(fullname, _Alias(new))


def install() -> None:
    if not any(isinstance(f, MovedFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, MovedFinder())
