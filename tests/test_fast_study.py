"""A study's rows from the fast simulator mean what the reference runner's rows mean.

Greedy seats are deterministic and both runners draw one uniform per die and per reveal,
so given the reference's own uniforms (``random.Random(seed).random()``) the simulator must
play the very same games and write the very same rows, field for field. Random seats draw
their choices from different generators, so those games are compared by their statistics.
"""

from __future__ import annotations

import math
import random
import statistics
from typing import Any

import pytest

pytest.importorskip("numba")

from spots.fast import study_rows
from spots.study.play import game_seed, play_chunk, play_game, reference_chunk, runner_for
from spots.study.spec import make_config

EXACT = [
    {"bots": ["greedy"], "players": 2, "tricks": "random:6"},
    {"bots": ["greedy:risk=0.1", "greedy", "greedy:risk=0.5"], "players": 3, "tricks": "all"},
    {"bots": ["greedy"], "players": 4, "tricks": "dog-park", "target": 3},
    {"bots": ["greedy", "greedy:risk=0.6"], "players": 2, "tricks": "random:10", "turn_limit": 14},
    {"bots": ["greedy"], "players": 1, "tricks": "hunting", "target": 3},
]


def uniforms(seed: int, count: int = 6000) -> list[float]:
    rng = random.Random(seed)
    return [rng.random() for _ in range(count)]


@pytest.mark.parametrize("options", EXACT, ids=lambda o: "/".join(o["bots"]) + f"-{o['players']}p")
def test_given_the_reference_dice_greedy_seats_write_the_reference_rows(options: dict[str, Any]) -> None:
    config = make_config(options, "test")
    games = [(g, game_seed(3, 0, g)) for g in range(12)]
    fast = study_rows(config.to_dict(), games, dice=[uniforms(seed) for _, seed in games])
    reference = [play_game(config, g, seed) for g, seed in games]
    for mine, theirs in zip(fast, reference, strict=True):
        assert mine == theirs, {k: (mine[k], theirs[k]) for k in theirs if mine[k] != theirs[k]}


def test_the_exact_comparison_covers_what_a_row_records() -> None:
    """The games above are not all alike: rotated seats, lead changes, turn-limit draws, tile uses."""
    rows = []
    for options in EXACT:
        config = make_config(options, "test")
        games = [(g, game_seed(3, 0, g)) for g in range(12)]
        rows += study_rows(config.to_dict(), games, dice=[uniforms(seed) for _, seed in games])
    assert {r["end_reason"] for r in rows} == {"target", "turn limit"}
    assert any(r["winner"] == -1 and min(r["returns"]) > 0 for r in rows)  # a shared draw
    assert sum(r["lead_changes"] > 0 for r in rows) > 10
    assert len({r["first_player"] for r in rows if r["players"] == 4}) == 4
    assert len({tuple(r["tricks"]) for r in rows if r["players"] == 2 and len(r["tricks"]) == 6}) == 12
    assert all(sum(map(sum, r["uses"])) > 0 for r in rows)


def test_uniforms_that_run_out_cut_the_game_off() -> None:
    config = make_config({"bots": ["greedy"], "players": 2}, "test")
    row = study_rows(config.to_dict(), [(0, 9)], dice=[uniforms(9, 40)])[0]
    assert row["end_reason"] == "cut off" and row["winner"] == -1


def summary(rows: list[dict[str, Any]]) -> dict[str, list[float]]:
    """Per game: the greedy seat's return, length, each seat kind's busts and tile uses per turn."""
    out: dict[str, list[float]] = {"greedy return": [], "turns": [], "lead changes": [], "random busts": [],
                                   "random uses per turn": [], "greedy busts": [], "first player return": []}
    for r in rows:
        g, x = r["seats"].index("greedy"), r["seats"].index("random")
        out["greedy return"].append(r["returns"][g])
        out["first player return"].append(r["returns"][r["first_player"]])
        out["turns"].append(r["turns"])
        out["lead changes"].append(r["lead_changes"])
        out["random busts"].append(r["busts"][x])
        out["greedy busts"].append(r["busts"][g])
        out["random uses per turn"].append(sum(r["uses"][x]) / max(1, r["turns_taken"][x]))
    return out


def test_random_seats_play_the_reference_game_in_distribution() -> None:
    """Each statistic's means agree within 4.5 standard errors (a false alarm about once in 150,000
    comparisons), and the statistics are ones a wrong seat, a lost die or a miscounted use would move."""
    config = make_config({"bots": ["greedy", "random"], "players": 2, "tricks": "beginner", "target": 4}, "test")
    reference = summary(play_chunk(config, 0, 11, 0, 300, "reference"))
    fast = summary(play_chunk(config, 0, 11, 0, 6000, "fast"))
    for name, ref in reference.items():
        mine = fast[name]
        se = math.hypot(statistics.stdev(ref) / math.sqrt(len(ref)), statistics.stdev(mine) / math.sqrt(len(mine)))
        gap = abs(statistics.fmean(mine) - statistics.fmean(ref))
        assert gap <= 4.5 * se, f"{name}: fast {statistics.fmean(mine):.3f}, reference {statistics.fmean(ref):.3f}"
    assert statistics.fmean(fast["greedy return"]) > 0.8  # a seat mix-up would pull this toward 0.2
    assert statistics.fmean(fast["random busts"]) > 2 * statistics.fmean(fast["greedy busts"])


def test_chunks_give_the_same_rows_as_one_piece() -> None:
    """A game's row depends on its seed alone, so any split over workers gives the same study."""
    config = make_config({"bots": ["greedy", "random"], "players": 3, "tricks": "random:6"}, "test")
    whole = play_chunk(config, 2, 5, 0, 40, "fast")
    parts = play_chunk(config, 2, 5, 20, 40, "fast") + play_chunk(config, 2, 5, 0, 20, "fast")
    assert sorted(parts, key=lambda r: r["game"]) == whole
    assert all(r["engine"] == "fast" and r["config"] == 2 for r in whole)


def test_studies_use_the_simulator_only_for_bots_it_plays() -> None:
    assert runner_for(make_config({"bots": ["greedy:risk=0.4", "random"]}, "test")) is not reference_chunk
    assert runner_for(make_config({"bots": ["greedy", "expectimax"]}, "test")) is reference_chunk
    assert runner_for(make_config({"game": "double-spot", "bots": ["greedy"]}, "test")) is reference_chunk
    with pytest.raises(ValueError, match="random and greedy"):
        study_rows({"game": "spots", "bots": ["mcts"], "options": {}}, [(0, 1)])
