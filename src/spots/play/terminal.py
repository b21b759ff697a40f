"""``spots play``: a game in the terminal, humans and bots at one table.

The program asks the engine for everything: which moves are legal, what a move
does, when the game ends. It only reads what players type, shows the table,
and saves the game record after every move (so closing the terminal loses
nothing; ``--load`` continues it).
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from .. import bots
from ..advisor import advise, format_advice
from ..engine import Game, IllegalMoveError, Rules, State, describe_move, replay
from ..engine.record import parse_record, read_text, record_dict
from ..engine.tricks import TILES
from .view import board, moves_table

HUMAN = "me"
HUMAN_ALIASES = {"me", "human", "you"}
HELP = """Type a move in the notation (e.g. 'trick walk', 'place 4 wilbur'), or its number from the list.
Commands: hint (ranked moves with bust odds), rules (the face-up tiles), undo (take back your moves
since the last roll or reveal), save FILE, help, quit (the game is saved and can be continued)."""


@dataclass
class Table:
    """A game in progress at the terminal: the state, who sits where, and the dice source."""

    state: State
    seats: list[str]
    seed: int
    autosave: Path | None
    bots: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.bots = [None if s == HUMAN else bots.make(s, seed=self.seed * 10 + i) for i, s in enumerate(self.seats)]
        # Continuing a saved game draws fresh dice from a seed that depends on how far it got.
        self.rng = random.Random(f"{self.seed}:{len(self.state.history())}")

    def record(self) -> dict[str, Any]:
        return {**record_dict(self.state), "seats": self.seats, "seed": self.seed}

    def save(self, path: Path) -> None:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.record(), indent=1) + "\n", "utf-8")
        tmp.replace(path)

    def human_moves_since_chance(self) -> int:
        """How many of the latest moves are the current human's decisions since the last chance event."""
        history = self.state.history()
        probe = Game(self.state.rules).new_initial_state()
        movers: list[int | None] = []
        for move in history:
            movers.append(None if probe.is_chance_node() else probe.current_player())
            probe.apply_trusted(move)
        count = 0
        for mover in reversed(movers):
            if mover is None or self.seats[mover] != HUMAN:
                break
            count += 1
        return count


def load_table(path: str | Path, seats: list[str] | None, autosave: Path | None) -> Table:
    text = read_text(path)
    rules, moves = parse_record(text, str(path))
    doc = json.loads(text)
    saved_seats = doc.get("seats") if isinstance(doc, dict) else None
    seats = seats or saved_seats or [HUMAN] + ["greedy"] * (rules.players - 1)
    seed = doc.get("seed") if isinstance(doc.get("seed"), int) else random.SystemRandom().randrange(2**31)
    return Table(replay(rules, moves), check_seats(seats, rules.players), seed, autosave)


def check_seats(seats: list[str], players: int) -> list[str]:
    names = [HUMAN if s.lower() in HUMAN_ALIASES else s.lower() for s in seats]
    if len(names) != players:
        raise ValueError(f"{len(names)} seats given for {players} players: give one --seat per player")
    for name in names:
        if name != HUMAN and name not in bots.BOTS:
            raise ValueError(f"unknown seat {name!r}: use 'me' for a human or a bot: {', '.join(bots.BOTS)}")
    return names


def ask_seats(console: Console, ask: Any) -> list[str]:
    """The short interactive set-up when no seats are given."""
    while True:
        answer = ask("How many players (1-4)? [2] ").strip() or "2"
        if answer in ("1", "2", "3", "4"):
            players = int(answer)
            break
        console.print("Please answer 1, 2, 3 or 4.")
    seats = []
    for seat in range(players):
        default = HUMAN if seat == 0 else "greedy"
        while True:
            answer = ask(f"Seat {seat}: 'me' or a bot ({', '.join(bots.BOTS)})? [{default}] ").strip().lower()
            answer = answer or default
            try:
                seats.append(check_seats([answer], 1)[0])
                break
            except ValueError as exc:
                console.print(str(exc))
    return seats


class TerminalGame:
    def __init__(self, table: Table, console: Console, fast: bool = False, plain: bool = False,
                 ask: Any = input) -> None:
        self.table = table
        self.console = console
        self.fast = fast
        self.plain = plain
        self.ask = ask

    @property
    def state(self) -> State:
        return self.table.state

    def say(self, text: str, style: str = "") -> None:
        self.console.print(text, style=None if self.plain or not style else style, markup=False, highlight=False)

    def show(self) -> None:
        self.console.print(board(self.state, self.plain, self.table.seats))

    def run(self) -> int:
        self.say(f"Spots: {len(self.table.seats)} players, tricks {', '.join(self.state.rules.tricks)}, "
                 f"target {self.state.rules.target}. Type 'help' at your prompt.")
        if self.table.autosave:
            self.say(f"The game is saved after every move to {self.table.autosave}.")
        while not self.state.is_terminal():
            if self.state.is_chance_node():
                self._play(None)
            elif self.table.seats[self.state.current_player()] != HUMAN:
                self._play(self.table.bots[self.state.current_player()].choose(self.state))
            elif not self._human():
                return 0
        self.show()
        self.summary()
        return 0

    def _play(self, move: str | None) -> None:
        """Apply a bot's move (or a chance event when ``move`` is None), tell the table, save."""
        before = self.state.clone()
        if move is None:
            move = before.clone().sample_chance(self.table.rng)  # draw without touching the state
            self.state.apply_action(move)
        else:
            self.state.apply_action(move, player=before.current_player())
        line = describe_move(before, move, self.state, self.names())
        if move.startswith("roll") or move.startswith("reveal"):
            if before.turn > 0:
                self.say("  " + line, "cyan")
        else:
            name = self.table.seats[before.seat]
            self.say("  " + line)
            if name != HUMAN and not self.fast:
                time.sleep(0.6)
        self._autosave()

    def names(self) -> list[str]:
        return [f"Seat {s} ({'you' if who == HUMAN else who})" for s, who in enumerate(self.table.seats)]

    def _autosave(self) -> None:
        if self.table.autosave:
            self.table.save(self.table.autosave)

    def _human(self) -> bool:
        """One human decision (with any number of commands before it). False: the player quit."""
        self.show()
        seat = self.state.current_player()
        while True:
            moves = self.state.legal_actions()
            self.console.print(moves_table(moves), markup=False, highlight=False)
            try:
                line = self.ask(f"Seat {seat} > ").strip()
            except EOFError:
                self.say("Input closed: the game is saved." if self.table.autosave else "Input closed.")
                return False
            if not line:
                continue
            word, _, rest = line.partition(" ")
            word = word.lower()
            if line.isdigit():
                index = int(line)
                if 1 <= index <= len(moves):
                    self._play(moves[index - 1])
                    return True
                self.say(f"There is no move {index}: choose from 1 to {len(moves)}.", "red")
            elif word in ("help", "?"):
                self.say(HELP)
            elif word == "hint":
                self.say(format_advice(advise(self.state)))
            elif word == "rules":
                for name, up in zip(self.state.rules.tricks, self.state.face_up, strict=True):
                    if up:
                        self.say(f"{TILES[name].title}: {TILES[name].text}")
            elif word == "undo":
                if self._undo():
                    return True
            elif word == "save":
                self._save(rest.strip())
            elif word in ("quit", "exit"):
                self.say("Game saved; continue it with: spots play --load FILE." if self.table.autosave else "Bye.")
                return False
            else:
                try:
                    self.state.legal_actions()
                    before = self.state.clone()
                    self.state.apply_action(line, player=seat)
                except IllegalMoveError as exc:
                    self.say(str(exc), "red")
                    continue
                self.say("  " + describe_move(before, self.state.history()[-1], self.state, self.names()))
                self._autosave()
                return True

    def _undo(self) -> bool:
        count = self.table.human_moves_since_chance()
        if count == 0:
            self.say("Nothing to undo: only your own moves since the last roll or reveal can be taken back.", "red")
            return False
        history = self.state.history()[:-1]
        self.table.state = replay(self.state.rules, history)
        self.say(f"Took back your last move ({count - 1} more can be undone).")
        self._autosave()
        return True

    def _save(self, name: str) -> None:
        if not name:
            self.say("Say where: save FILE", "red")
            return
        try:
            self.table.save(Path(name))
        except OSError as exc:
            self.say(f"Could not save to {name}: {exc.strerror or exc}", "red")
            return
        self.say(f"Saved to {name}; continue with: spots play --load {name}")

    def summary(self) -> None:
        state = self.state
        if state.winner is not None:
            self.say(f"Seat {state.winner} ({self.table.seats[state.winner]}) wins!", "bold green")
        else:
            self.say("The turn limit ended the game.", "bold")
        self.say(f"{state.turn} turns.")
        for seat, player in enumerate(state.players):
            self.say(f"  Seat {seat} ({self.table.seats[seat]}): {player.scored_count()} dogs scored, "
                     f"{state.busts[seat]} busts, result {state.returns()[seat]:g}")


def start(args: Any, rules: Rules | None) -> int:
    """Entry point for ``spots play`` (arguments parsed by the CLI)."""
    console = Console(no_color=args.plain, highlight=False, emoji=False)
    plain = args.plain or not console.is_terminal or (console.encoding or "").lower() not in ("utf-8", "utf8")
    # The record is saved after every move: to --autosave, else to the loaded file, else a default file.
    default = args.load or "spots-autosave.json"
    autosave = None if args.autosave == "" else Path(args.autosave or default)
    if args.load:
        table = load_table(args.load, args.seat or None, autosave)
    else:
        assert rules is not None
        seats = check_seats(args.seat, rules.players) if args.seat else ask_seats(console, input)
        if not args.seat and len(seats) != rules.players:
            rules = Rules(**{**rules.to_dict(), "players": len(seats)})
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        table = Table(Game(rules).new_initial_state(), seats, seed, autosave)
    return TerminalGame(table, console, fast=args.fast, plain=plain).run()
