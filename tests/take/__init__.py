"""Take, a third game in a folder of its own: take one or two stones; who takes the last one wins.

Everything the game is lives here: its rules and state, its spec for the registry, its web view and its
browser files (``static/take.js``, its tiny renderer, and ``static/take.css``). ``tests/test_third_game.py``
registers it (``games.register(SPEC)``, or ``SPOTS_GAMES=take`` for a server process) and plays it through
every shell without a line of them changed.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from spots.core.advice import Advice
from spots.core.bots import RandomBot
from spots.core.errors import IllegalMoveError, MalformedMoveError, RulesError
from spots.core.games import GameSpec, Outcome, Summary, Termination
from spots.core.options import Lobby, Option
from spots.core.protocol import TERMINAL, Game
from spots.core.record import RecordFormat
from spots.core.webview import WebView


@dataclass(frozen=True)
class Rules:
    pile: int = 7

    def __post_init__(self) -> None:
        if self.pile < 1:
            raise RulesError(f"pile must be at least 1, not {self.pile}")

    @classmethod
    def from_dict(cls, doc: Any) -> Rules:
        return cls(**doc)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class State:
    """Two players take 1 or 2 stones in turn; no chance."""

    def __init__(self, rules: Rules) -> None:
        self.rules, self.left, self.seat, self.turn, self._history = rules, rules.pile, 0, 0, []

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.seat

    def is_chance_node(self) -> bool:
        return False

    def is_terminal(self) -> bool:
        return self.left == 0

    def legal_actions(self) -> list[str]:
        return [] if self.is_terminal() else [f"take {n}" for n in (1, 2) if n <= self.left]

    def chance_outcomes(self, exact: bool = False) -> list[tuple[str, Any]]:
        return []

    def apply_action(self, action: object, player: int | None = None) -> None:
        words = str(action).split()
        if len(words) != 2 or words[0] != "take" or not words[1].isdigit():  # not Take's notation at all
            raise MalformedMoveError(str(action), "not a move: write take N", self.legal_actions())
        if str(action) not in self.legal_actions() or player not in (None, self.seat):
            raise IllegalMoveError(str(action), "not a legal move", self.legal_actions())
        self.left -= int(str(action).split()[1])
        self._history.append(str(action))
        self.turn += 1
        if self.left:
            self.seat = 1 - self.seat

    def sample_chance(self, rng: random.Random) -> str:
        raise ValueError("Take has no chance")

    def clone(self) -> State:
        other = State(self.rules)
        for move in self._history:
            other.apply_action(move)
        return other

    def returns(self) -> list[float]:
        return [1.0 if self.is_terminal() and s == self.seat else 0.0 for s in (0, 1)]

    def history(self) -> list[str]:
        return list(self._history)

    def key(self) -> tuple[Any, ...]:
        return (self.left, self.seat)

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps({"format": "take-state", "rules": self.rules.to_dict(), "history": self._history})


class Take(Game[Rules, State]):
    """Take's definition: its rules and states (the one place its records and spec build them from)."""

    RULES, STATE, TITLE = Rules, State, "Take"


def load_state(doc: dict[str, Any]) -> State:
    state = State(Rules.from_dict(doc["rules"]))
    for move in doc["history"]:
        state.apply_action(move)
    return state


def advise(state: State, seed: int = 0, bot: str | None = None) -> list[Advice]:
    """Take solved: leaving a multiple of three stones wins (the mover's value 1), anything else loses to best
    play (0); no hint once the game is over."""
    moves = [Advice(m, 1.0 if (state.left - int(m.split()[1])) % 3 == 0 else 0.0) for m in state.legal_actions()]
    return sorted(moves, key=lambda a: -a.value)


def summarize(state: State) -> Summary:
    """Two seats, no score but the win, whose turn, how it ended."""
    over = state.is_terminal()
    outcome = Outcome(Termination.TARGET, state.turn, state.seat, words="last stone taken") if over else None
    return Summary(seats=2, scores=tuple(int(r) for r in state.returns()), target=None, turn=state.turn,
                   seat=None if over else state.seat, outcome=outcome)


def view(state: State, seats: list[dict[str, Any]], moves: int, tr: Any, seat: int | None, live: bool
         ) -> dict[str, Any]:
    """What every viewer's table page draws (``static/take.js``): the pile, whose turn, the moves of the seat to
    move (its page offers them: one view for all, as ``WebView.per_seat_view`` is off)."""
    over = state.is_terminal()
    names = [s["name"] for s in seats]
    status = (f"{names[state.seat]} took the last stone" if over else f"{state.left} stones left, "
              f"{names[state.seat]} to take")
    return {"game": "take", "moves": moves, "turn": state.turn, "over": over, "left": state.left,
            "to_move": None if over else state.seat, "status": status, "winner": state.seat if over else None,
            "legal": [{"move": m, "label": m} for m in state.legal_actions()] if live else [], "names": names,
            "live": live}


# The browser's part of the game: its own scripts and styles in this folder, no line of the web app changed.
VIEW: WebView[State] = WebView(view=view, label=lambda state, move, names, tr: move, tagline="the last stone wins",
               styles=("take.css",), scripts=("take.js",), assets=Path(__file__).parent)

SPEC = GameSpec(
    name="take", title="Take", players=(2, 2),
    options=(Option("pile", "int", 7, "Stones", "stones in the pile", 1, 99, lobby=Lobby("main", cap=(1, 30))),),
    records=RecordFormat(Take, "take-record", "take-state", Rules.from_dict),
    seats=lambda rules: 2, load_state=load_state, bots={"random": RandomBot},
    describe_move=lambda before, move, after=None, names=None, tr=None: move,
    advise=advise, render=lambda state: f"{state.left} stones left",
    summarize=summarize, turn=lambda state: state.turn,
    web=VIEW, summary="take one or two stones; the last one wins", quick=({}, {"pile": 20}),
    malformed=("take", "take many", "grab 1"),
)
