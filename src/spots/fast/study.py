"""A study's games played by the simulator: the rows of ``spots.study.play.play_spots``, faster.

``spots study`` plays Spots configurations whose seats are all ``random`` or ``greedy``
(greedy with at most a ``risk``) here when Numba is installed. Each game is seated, seeded
and given its rules as the reference runner does (the same ``seating``, drawn options and
game seed), and its row has the same fields with the same meaning: the simulator counts the
per-seat tile uses, turns taken and lead changes in its own game loop (``batch.play_one``).
Only the dice differ: the simulator draws them from its own generator, seeded by the game
seed, so a game's row is as reproducible as the reference's but not the same game.
``tests/test_fast_study.py`` checks the two against each other.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.games import get
from ..core.play import parse_bot, seating
from ..games.spots import Rules
from ..games.spots.rules import resolve_tricks
from . import layout as L
from .api import DEFAULT_RISK, game_returns, odds
from .batch import ST_LEADS, ST_TURNS, play_seeded, stats_width
from .tiles import build_cfg

RULES_DEFAULT_TRICKS = Rules.__dataclass_fields__["tricks"].default
MAX_DECISIONS = 1_000_000  # as play_games: a greedy seat can loop for ever in Dogpile with an empty supply


def seat_policy(spec: str) -> tuple[int, float]:
    """A study bot (``random``, ``greedy``, ``greedy:risk=0.4``) as the simulator's policy code and risk."""
    name, budget = parse_bot(spec)
    allowed = {"random": set(), "greedy": {"risk"}}.get(name)
    if allowed is None or set(budget) - allowed:
        raise ValueError(f"the fast simulator plays random and greedy (with at most a risk), not {spec!r}")
    risk = budget.get("risk", DEFAULT_RISK)
    if not isinstance(risk, (int, float)):
        raise ValueError(f"bot {spec!r}: risk must be a number")
    return L.POLICIES[name], float(risk)


def supports(config: dict[str, Any]) -> bool:
    """Can the simulator play this study configuration (Spots, random/greedy seats)?"""
    if config.get("game") != "spots":
        return False
    try:
        for spec in config["bots"]:
            seat_policy(spec)
    except ValueError:
        return False
    return True


def study_rows(config: dict[str, Any], games: list[tuple[int, int]],
               dice: list[list[float]] | None = None) -> list[dict[str, Any]]:
    """One row per (game number, game seed), with the columns of a Spots study row (``spots.study.play``'s
    ``SHARED_COLUMNS`` and Spots' ``Studies.columns``) except ``config`` and ``engine`` (the caller adds them).

    ``dice`` (for checking) gives each game the uniforms its chance events draw, in order, instead
    of the simulator's generator: with ``random.Random(seed).random()``'s stream, greedy seats play
    the very game the reference runner plays. A game whose uniforms run out is cut off."""
    if not supports(config):
        raise ValueError(f"the fast simulator plays Spots with random and greedy seats, not {config!r}")
    options, bots = dict(config.get("options", {})), list(config["bots"])
    tables, which = _rules_per_game(options, [seed for _, seed in games])
    rules = [tables[i] for i in which]
    seats = [seating(bots, r.players, g) for r, (g, _) in zip(rules, games, strict=True)]
    cfg_rows = np.stack([build_cfg(r) for r in tables])
    given = np.zeros((len(games), 0)) if dice is None else np.array(dice, dtype=np.float64)
    if given.shape[0] != len(games):
        raise ValueError(f"give uniforms for each of the {len(games)} games, not {given.shape[0]}")
    played = _play(cfg_rows, which, [seed for _, seed in games], given, seats, rules[0].players,
                   max(len(r.tricks) for r in rules))
    return [_row(played, i, g, seed, rules[i], seats[i]) for i, (g, seed) in enumerate(games)]


def _rules_per_game(options: dict[str, Any], seeds: list[int]) -> tuple[list[Rules], np.ndarray]:
    """The distinct rules of the games (as ``spots.study.play.make_rules`` makes them: the drawn options from
    the game's seed, one per trick set: making ``Rules`` reads the deck and would cost more than playing the
    game) and each game's index."""
    tricks = options.get("tricks", RULES_DEFAULT_TRICKS)
    made: dict[tuple[str, ...], int] = {}
    tables: list[Rules] = []
    which = np.zeros(len(seeds), dtype=np.int64)
    for g, seed in enumerate(seeds):
        names = resolve_tricks(tricks, options.get("tricks_seed", seed % 2**31))
        if names not in made:
            made[names] = len(tables)
            tables.append(Rules(**{**get("spots").drawn_options(seed), **options}))
        which[g] = made[names]
    return tables, which


def _play(cfgs: np.ndarray, which: np.ndarray, seeds: list[int], given: np.ndarray, seats: list[list[str]],
          players: int, tiles: int) -> dict[str, np.ndarray]:
    n = len(seeds)
    chosen = [[seat_policy(spec) for spec in names] for names in seats]
    policies = np.array([[code for code, _ in row] for row in chosen], dtype=np.int64)
    risks = np.array([[risk for _, risk in row] for row in chosen], dtype=np.float64)
    out = {"winner": np.zeros(n, dtype=np.int64), "turns": np.zeros(n, dtype=np.int64),
           "busts": np.zeros((n, players), dtype=np.int64), "scored": np.zeros((n, players), dtype=np.int64),
           "first": np.zeros(n, dtype=np.int64), "stats": np.zeros((n, stats_width(players, tiles)), dtype=np.int64)}
    table, offsets = odds()
    play_seeded(cfgs, which, np.array(seeds, dtype=np.uint64), given, table, offsets, policies, risks, MAX_DECISIONS,
                out["winner"], out["turns"], out["busts"], out["scored"], out["first"], out["stats"])
    stopped = out["winner"] == -2
    out["winner"][stopped] = -1
    out["returns"] = game_returns(out["winner"], out["scored"])
    out["stopped"] = stopped
    return out


def _row(played: dict[str, np.ndarray], i: int, game: int, seed: int, rules: Any, seats: list[str]) -> dict[str, Any]:
    p, t = rules.players, len(rules.tricks)
    stats = played["stats"][i]
    uses = stats[ST_TURNS + 2 * p:ST_TURNS + 2 * p + p * t].reshape(p, t)
    won = played["winner"][i] >= 0
    reason = "cut off" if played["stopped"][i] else "target" if won else "turn limit"  # the engine's words
    return {
        "game": game, "seed": seed, "kind": "spots", "seats": list(seats), "players": p,
        "tricks": list(rules.tricks), "target": rules.target, "bust_limit": rules.bust_limit,
        "first_player": int(played["first"][i]), "winner": int(played["winner"][i]),
        "returns": [float(x) for x in played["returns"][i]], "turns": int(played["turns"][i]),
        "turns_taken": [int(x) for x in stats[ST_TURNS:ST_TURNS + p]], "busts": [int(x) for x in played["busts"][i]],
        "scores": [int(x) for x in played["scored"][i]], "uses": [[int(x) for x in row] for row in uses],
        "lead_changes": int(stats[ST_LEADS]), "end_reason": reason,
    }

