"""``spots arena --engine fast``: a match of random and greedy seats played by the simulator.

The match is seated like the arena's (seats rotated by the game number) and comes back as
the arena's ``GameResult`` rows, so the same table, summary and ``--out`` files serve both
engines. The games differ from the reference engine's for the same seed (the simulator has
its own dice generator) but are just as reproducible. The simulator does not time single
decisions: each decision is given the batch's mean time, and the table says so.
"""

from __future__ import annotations

from typing import Any

from ..games.spots import Rules
from . import layout as L
from . import require

NOTE = "times (fast engine): the batch's mean time per decision, not measured one by one."


def check_match(names: list[str], budget: dict[str, Any] | None) -> float:
    """The greedy risk of the match; refuses bots and options the simulator does not play."""
    require()
    unknown = [n for n in names if n not in L.POLICIES]
    if unknown:
        raise ValueError(f"--engine fast plays the bots {', '.join(L.POLICIES)}, not {', '.join(unknown)}; "
                         "use --engine reference for the others")
    options = dict((budget or {}).get("greedy", {}))
    risk = options.pop("risk", 0.25)
    extra = sorted(options) + sorted(k for k in (budget or {}) if k not in ("greedy",))
    if extra or not isinstance(risk, (int, float)) or isinstance(risk, bool):
        raise ValueError("--engine fast takes only the greedy bot's risk as a budget, "
                         'e.g. {"greedy": {"risk": 0.3}}')
    return float(risk)


def run_fast_match(rules: Rules, names: list[str], games: int, seed: int = 0,
                   budget: dict[str, Any] | None = None) -> list[Any]:
    """The arena's ``run_match`` for random and greedy seats, played by the simulator."""
    risk = check_match(names, budget)
    from ..arena import GameResult
    from .api import play_games

    played = play_games(rules, names, games, seed=seed, rotate=True, risk=risk)
    mean = played.seconds / max(1, int(played.decisions.sum()))
    results = []
    for g in range(games):
        winner = int(played.winner[g])
        results.append(GameResult(
            game=g,
            seats=[played.policies[i] for i in played.seats[g]],
            returns=[float(r) for r in played.returns[g]],
            winner=None if winner < 0 else winner,
            turns=int(played.turns[g]),
            busts=[int(b) for b in played.busts[g]],
            turns_taken=[int(t) for t in played.turns_taken[g]],
            decision_times=[[mean] * int(d) for d in played.decisions[g]],
        ))
    return results
