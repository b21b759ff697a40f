"""The game runner: plays a chunk of a configuration's games and returns one summary row per game.

A game's result depends only on (study seed, configuration index, game number),
never on which worker plays it or what it played before: that is what makes a
study give the same rows on one worker or fifty.

The seam: ``runner_for`` picks how a chunk is played. The reference runner
plays through the public engines (``spots.Game`` and ``spots.games.double_spot``)
with bots from the game registry (``spots.core.games``); each game's summary row is its
own (a study's questions are about one game: tiles and sets are Spots'). When the
compiled batch simulator ``spots.fast`` is importable and offers
``study_rows(config: dict, games: list[tuple[int, int]]) -> list[dict]`` (game
number, game seed -> rows with the fields of ``ROW_FIELDS``), Spots
configurations whose seats are all ``random`` or ``greedy`` (with at most a
``risk``) use it instead: ``spots.fast.study_rows`` (``src/spots/fast/study.py``),
checked against this runner by ``tests/test_fast_study.py``.
"""

from __future__ import annotations

import hashlib
import importlib
import random
from collections.abc import Callable
from typing import Any

from .spec import Config

FAST_BOTS = {"random": set(), "greedy": {"risk"}}  # the bots the simulator plays, and their options
Row = dict[str, Any]
ChunkRunner = Callable[[Config, int, list[tuple[int, int]]], list[Row]]


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """``name`` or ``name:key=value,key=value`` -> (name, budget); values are numbers where they look like one."""
    name, _, params = spec.partition(":")
    budget: dict[str, Any] = {}
    for part in filter(None, params.split(",")):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise ValueError(f"bot {spec!r}: options are written name:key=value,key=value")
        budget[key.strip()] = _number(value.strip())
    return name, budget


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def make_bot(game: str, spec: str, seed: int) -> Any:
    """A bot of the registered game ``game`` from its spec text (``name`` or ``name:key=value,...``)."""
    from ..core.games import get

    name, budget = parse_bot(spec)
    return get(game).make_bot(name, seed=seed, **budget)


def make_rules(config: Config, game_seed: int) -> Any:
    """The configuration's rules; a random trick set is drawn from the game's own seed."""
    if config.game == "spots":
        from ..games.spots import Rules
        return Rules(**{"tricks_seed": game_seed % (2**31), **config.options})
    from ..games.double_spot import Rules as DsRules
    return DsRules(**config.options)


def check_config(config: Config) -> None:
    """Raise ValueError if the configuration's rules or bots cannot be made."""
    try:
        rules = make_rules(config, 0)
    except TypeError as exc:
        raise ValueError(f"bad rules option: {exc}") from None
    players = rules.players if config.game == "spots" else 2
    if len(config.bots) > players:
        raise ValueError(f"{len(config.bots)} bots for {players} seats")
    for spec in config.bots:
        make_bot(config.game, spec, 0)


def game_seed(study_seed: int, config_index: int, game: int) -> int:
    """A 63-bit seed for one game, from a hash (the same on every machine and Python)."""
    digest = hashlib.sha256(f"{study_seed}:{config_index}:{game}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seating(bots: tuple[str, ...], players: int, game: int) -> list[str]:
    """Bots in seat order for game ``game``: the list padded with its last bot, rotated by the game number."""
    names = (list(bots) + [bots[-1]] * players)[:players]
    shift = game % players
    return names[-shift:] + names[:-shift] if shift else names


def play_spots(config: Config, game: int, seed: int) -> Row:
    """One Spots game played out, summarised (who used which tile, lead changes, ...)."""
    from ..games.spots import Game

    rules = make_rules(config, seed)
    seats = seating(config.bots, rules.players, game)
    players = [make_bot("spots", spec, seed + s) for s, spec in enumerate(seats)]
    tiles = list(rules.tricks)
    index = {name: i for i, name in enumerate(tiles)}
    uses = [[0] * len(tiles) for _ in seats]
    turns_taken = [0] * len(seats)
    rng = random.Random(seed)
    state = Game(rules).new_initial_state()
    last_turn, leader, changes = -1, None, 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance(rng)
            continue
        seat = state.current_player()
        if state.turn != last_turn:
            last_turn = state.turn
            turns_taken[seat] += 1
            leader, changes = _lead(_scored(state), leader, changes)
        move = players[seat].choose(state)
        if move.startswith("trick "):
            uses[seat][index[move[6:]]] += 1
        state.apply_action(move)
    leader, changes = _lead(_scored(state), leader, changes)
    return {
        "game": game, "seed": seed, "kind": "spots", "seats": seats, "players": rules.players,
        "tricks": tiles, "target": rules.target, "bust_limit": rules.bust_limit,
        "first_player": state.first_player, "winner": -1 if state.winner is None else state.winner,
        "returns": state.returns(), "turns": state.turn, "turns_taken": turns_taken, "busts": list(state.busts),
        "scores": [p.scored_count() for p in state.players], "uses": uses, "lead_changes": changes,
        "end_reason": state.end_reason or "", "full": False,
    }


def _scored(state: Any) -> list[int]:
    return [p.scored_count() for p in state.players]


def _lead(scores: list[int], leader: int | None, changes: int) -> tuple[int | None, int]:
    """The sole leader (kept as it was on a tie) and the lead changes counted so far, for either game."""
    best = max(scores)
    if scores.count(best) != 1:
        return leader, changes
    now = scores.index(best)
    return now, changes + (leader is not None and now != leader)


def play_double_spot(config: Config, game: int, seed: int) -> Row:
    """One Double Spot game played out, summarised (seat 0 moves first)."""
    from ..games.double_spot import Game as DsGame

    rules = make_rules(config, seed)
    seats = seating(config.bots, 2, game)
    players = [make_bot("double-spot", spec, seed + s) for s, spec in enumerate(seats)]
    state = DsGame(rules).new_initial_state()
    rng = random.Random(seed)
    turns_taken = [0, 0]
    last_turn, leader, changes = -1, None, 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance(rng)
            continue
        seat = state.current_player()
        if state.turn != last_turn:
            last_turn = state.turn
            turns_taken[seat] += 1
            leader, changes = _lead(list(state.scores()), leader, changes)
        state.apply_action(players[seat].choose(state))
    return {
        "game": game, "seed": seed, "kind": "double-spot", "seats": seats, "players": 2,
        "tricks": [], "target": rules.target, "bust_limit": 0, "first_player": 0,
        "winner": -1 if state.winner is None else state.winner, "returns": state.returns(),
        "turns": state.turn, "turns_taken": turns_taken, "busts": [0, 0], "scores": state.scores(),
        "uses": [[], []], "lead_changes": changes, "end_reason": state.end_reason or "",
        "full": state.end_reason == "full-board",
    }


def reference_chunk(config: Config, config_index: int, games: list[tuple[int, int]]) -> list[Row]:
    play = play_spots if config.game == "spots" else play_double_spot
    return [{"config": config_index, "engine": "reference", **play(config, g, s)} for g, s in games]


def _fast_chunk() -> ChunkRunner | None:
    try:
        fast = importlib.import_module("spots.fast")
    except ImportError:
        return None
    try:
        study_rows = fast.study_rows
    except (ImportError, AttributeError):  # no Numba (spots.fast says how to install it), or no study_rows
        return None

    def run(config: Config, config_index: int, games: list[tuple[int, int]]) -> list[Row]:
        return [{"config": config_index, "engine": "fast", **row} for row in study_rows(config.to_dict(), games)]

    return run


def runner_for(config: Config, engine: str = "auto") -> ChunkRunner:
    """The fast simulator for all-random/greedy Spots seats when available (or demanded), else the reference."""
    if engine not in ("auto", "fast", "reference"):
        raise ValueError(f"engine must be auto, fast or reference, not {engine!r}")
    eligible = config.game == "spots" and all(_fast_bot(b) for b in config.bots)
    fast = _fast_chunk() if engine != "reference" and eligible else None
    if engine == "fast" and fast is None:
        raise ValueError("engine fast needs spots.fast (with study_rows) and only random/greedy Spots seats")
    return fast or reference_chunk


def _fast_bot(spec: str) -> bool:
    name, budget = parse_bot(spec)
    return name in FAST_BOTS and set(budget) <= FAST_BOTS[name]


def play_chunk(config: Config, config_index: int, study_seed: int, start: int, stop: int,
               engine: str = "auto") -> list[Row]:
    """Games ``start`` to ``stop - 1`` of one configuration (what one Ray task does)."""
    games = [(g, game_seed(study_seed, config_index, g)) for g in range(start, stop)]
    return runner_for(config, engine)(config, config_index, games)
