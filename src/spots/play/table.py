"""What the terminal games share about a table: who sits where (a person or a bot) and the dice.

Each game's terminal subclasses ``SeatedTable`` with its own bot factory and how it saves, and
``TableScreen`` with its own board, help, hints, rules summary, undo and way of telling a move;
the prompt where a person types a move or a command is the same for both.
"""

from __future__ import annotations

import gettext
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Console

from .. import i18n
from ..core.bots import Bot
from ..core.errors import IllegalMoveError
from ..core.games import GameSpec, spec_of_rules
from ..i18n import N_

HUMAN = "me"
HUMAN_ALIASES = {"me", "human", "you"}
# The bots' names as players read them (the name typed after --seat stays as it is).
BOT_WORDS = {"random": N_("random"), "greedy": N_("greedy"), "expectimax": N_("expectimax"), "mcts": N_("mcts")}


@dataclass
class SeatedTable:
    """A game in progress at the terminal: the state, who sits where, the seed of the dice, where it is saved."""

    state: Any
    seats: list[str]
    seed: int
    autosave: Path | None
    bots: list[Any] = field(default_factory=list)
    make_bot: ClassVar[Callable[..., Bot]]  # the game's ``make(name, seed=...)``

    def __post_init__(self) -> None:
        self.bots = [None if name == HUMAN else self.make_bot(name, seed=self.seed * 10 + i)
                     for i, name in enumerate(self.seats)]
        # Continuing a saved game draws fresh dice from a seed that depends on how far it got.
        # A game with dice of its own (Spots' keyed rules: a deal) draws them from the same seed.
        seeded = random.Random(f"{self.seed}:{len(self.state.history())}")
        self.rng = spec_of_rules(self.state.rules).table_dice(self.state.rules, seeded)

    def seat_bots(self) -> list[str | None]:
        """Each seat's bot for the record (None for the person at the terminal)."""
        return [None if name == HUMAN else name for name in self.seats]

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
                 ask: Callable[[str], str] | None = None, tr: gettext.NullTranslations | None = None) -> None:
        self.tr = tr or gettext.NullTranslations()
        self._ = self.tr.gettext
        self.ngettext = self.tr.ngettext
        self.table = table
        self.console = console
        self.fast = fast
        self.plain = plain
        self.ask = input if ask is None else ask  # looked up now, not when the module was first imported

    def seat_word(self, seat: str) -> str:
        """Who sits in a seat, in the player's language: 'you' or which bot ('greedy bot')."""
        _ = self._
        if seat == HUMAN:
            return _("you")
        return _("{bot} bot").format(bot=_(BOT_WORDS[seat])) if seat in BOT_WORDS else seat

    def say(self, text: str, style: str = "") -> None:
        self.console.print(text, style=None if self.plain or not style else style, markup=False, highlight=False)

    # ------------------------------------------------------------ what each game fills in

    HELP: ClassVar[str]  # the help text (an English msgid)

    @property
    def state(self) -> Any:
        return self.table.state

    def show(self, seat: int) -> None:
        """The position, as ``seat`` (a person about to decide) sees it."""
        raise NotImplementedError

    def hint(self) -> None:
        raise NotImplementedError

    def rules(self) -> None:
        raise NotImplementedError

    def game(self) -> GameSpec:
        """The game being played (its undo rule, for one)."""
        return spec_of_rules(self.state.rules)

    def undo(self) -> bool:
        """Take back the last move when the game's undo rule allows it (``GameSpec.takeback``: the player's own
        moves of this turn since the last roll or reveal); True when the position changed."""
        spec = self.game()
        offer = spec.takeback(self.state)
        if not offer.moves:
            self.say(i18n.undo_refused(offer.why, spec.undo_rule, self.tr), "red")
            return False
        self.table.state = spec.take_back(self.state, offer.seat)
        left = offer.count - 1
        self.say(self.ngettext("Took back your last move ({n} more can be undone).",
                               "Took back your last move ({n} more can be undone).", left).format(n=left))
        self._autosave()
        return True

    def _play(self, move: str | None) -> None:
        """Apply a move (a chance event when None) and tell the table; IllegalMoveError changes nothing."""
        raise NotImplementedError

    # ------------------------------------------------------------ the same for every game

    def _chance(self) -> bool:
        """Play the pending chance event, drawn from the dice; False: the players left. A game whose players
        take part in one (Double Spot's claim race) overrides it."""
        self._play(None)
        return True

    def _play_turns(self) -> bool:
        """Chance events, the bots' moves and the human's prompt in turn until the game ends; False: they left."""
        while not self.state.is_terminal():
            if self.state.is_chance_node():
                if not self._chance():
                    return False
            elif self.table.seats[self.state.current_player()] != HUMAN:
                self._play(self.table.bots[self.state.current_player()].choose(self.state))
            elif not self._human():
                return False
        return True

    def _autosave(self) -> None:
        if self.table.autosave:
            self.table.save(self.table.autosave)

    def run(self) -> int:
        """The whole game, to its end or until the players leave; the exit status."""
        raise NotImplementedError

    def play(self) -> int:
        """``run``, stopped cleanly by Ctrl-C (at a prompt or while a bot thinks): no traceback, the file named.

        The record on disk holds every move made before the interrupt; the exit status is 130, the shell's
        usual one for Ctrl-C.
        """
        try:
            return self.run()
        except KeyboardInterrupt:
            self.say("")  # the interrupted prompt or log line is left unfinished
            self.say(self._("Stopped (Ctrl-C)."))
            self._tell_saved()
            return 130

    def _tell_saved(self) -> None:
        """Name the autosave file and the command that continues it, when there is one on disk."""
        path = self.table.autosave
        if path is not None and path.exists():
            self.say(self._("Saved to {file}; continue with: {command}").format(
                file=path, command=self.continue_command(path)))

    def continue_command(self, path: Path) -> str:
        """The command that continues the game saved at ``path`` (a game with dice of its own names another)."""
        return f"spots play --load {path}"

    def _stop(self, closed: bool) -> bool:
        """The player leaves (typed quit, or input closed): say where the game is saved. Always False."""
        _ = self._
        if closed:
            self.say(_("Input closed."))
        elif not self.table.autosave:
            self.say(_("Bye."))
        self._tell_saved()
        return False

    def _human(self) -> bool:
        """One human decision (with any number of commands before it). False: the player quit."""
        _ = self._
        seat = self.state.current_player()
        self.show(seat)
        while True:
            moves = self.state.legal_actions()
            self.console.print(moves_table(moves), markup=False, highlight=False)
            try:
                line = self.ask(_("Seat {seat} > ").format(seat=seat + 1)).strip()
            except EOFError:
                return self._stop(closed=True)
            if not line:
                continue
            word, _sep, rest = line.partition(" ")
            word = word.lower()
            if line.isdigit():
                index = int(line)
                if 1 <= index <= len(moves):
                    self._play(moves[index - 1])
                    return True
                self.say(_("There is no move {index}: choose from 1 to {n}.").format(index=index, n=len(moves)), "red")
            elif word in ("help", "?"):
                self.say(_(self.HELP))
            elif word == "hint":
                self.hint()
            elif word == "rules":
                self.rules()
            elif word == "undo":
                if self.undo():
                    return True
            elif word == "save":
                self.table.save_as(rest.strip(), self.say, self._)
            elif word in ("quit", "exit"):
                return self._stop(closed=False)
            else:
                try:
                    self._play(line)
                except IllegalMoveError as exc:  # refused: nothing changed, the same prompt again
                    self.say(i18n.refused_move(exc, line, moves, self.tr), "red")
                    continue
                return True


def ask_or_stop(console: Console, tr: gettext.NullTranslations, ask: Callable[[], list[str]]) -> list[str] | int:
    """The set-up questions before a game (``ask``), or the exit status when the player leaves during them.

    Input closed: 0, as ``quit`` later; Ctrl-C: 130, as during the game. Nothing is saved yet.
    """
    try:
        return ask()
    except EOFError:
        console.print(tr.gettext("Input closed."), markup=False, highlight=False)
        return 0
    except KeyboardInterrupt:
        console.print("\n" + tr.gettext("Stopped (Ctrl-C)."), markup=False, highlight=False)
        return 130


def moves_table(moves: list[str]) -> str:
    """The legal moves, numbered, in columns."""
    cells = [f"{i:>2}. {m}" for i, m in enumerate(moves, 1)]
    width = max(len(c) for c in cells) + 2
    per_row = max(1, 96 // width)
    rows = [cells[i:i + per_row] for i in range(0, len(cells), per_row)]
    return "\n".join("".join(c.ljust(width) for c in row).rstrip() for row in rows)
