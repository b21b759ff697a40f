"""Spots' built-in balance studies (``spots study --list``), declared beside the game: the study runner
(``spots.study``) collects every game's from the registry (``GameSpec.study.named``)."""

from __future__ import annotations

import itertools
from typing import Any

SUGGESTED = ["adoption-event", "dog-park", "agility-course", "hunting", "kennel-club", "puppy-pen"]

STUDIES: dict[str, dict[str, Any]] = {
    "seat-advantage": {
        "kind": "seats",
        "description": "Win rate by turn order (first player, second, ...) for 2, 3 and 4 greedy players "
                       "in each suggested trick set; also how each set plays (length, busts, score spread, "
                       "lead changes).",
        "games": 3400, "seed": 16, "chunk": 200,
        "base": {"game": "spots", "bots": ["greedy"]},
        "grid": {"players": [2, 3, 4], "tricks": SUGGESTED},
    },
    "tile-strength": {
        "kind": "tiles",
        "description": "Each of the 22 tiles over random 6-tile sets (2 greedy players): the win rate of the "
                       "player who did it more often (paired within a game), and the change in game length "
                       "and bust rate when it is in the set (randomised presence).",
        "games": 100000, "seed": 16, "chunk": 500,
        "base": {"game": "spots", "bots": ["greedy"], "players": 2, "tricks": "random:6"},
    },
    "suggested-sets": {
        "kind": "sets",
        "description": "The six suggested sets with 2 and 4 greedy players: length in turns, bust rate, "
                       "score spread and lead changes.",
        "games": 500, "seed": 16, "chunk": 100,
        "base": {"game": "spots", "bots": ["greedy"]},
        "grid": {"players": [2, 4], "tricks": SUGGESTED},
    },
    "variants": {
        "kind": "variants",
        "description": "The rules variants one at a time from the standard game (2 greedy players, random "
                       "sets): targets 1/3/6/8/10, 6 to 22 tiles, bust limits 5 to 9.",
        "games": 400, "seed": 16, "chunk": 100,
        "base": {"game": "spots", "bots": ["greedy"], "players": 2, "tricks": "random"},
        "cases": [{"target": t} for t in (1, 3, 6, 8, 10)]
        + [{"tricks": f"random:{n}"} for n in (6, 10, 14, 18, 22)]
        + [{"bust_limit": b} for b in (5, 6, 8, 9)],
    },
    "bot-ladder": {
        "kind": "ladder",
        "description": "Every Spots bot against every other (2 players, beginner set, seats alternating), "
                       "rated on one Bradley-Terry scale.",
        "games": 40, "seed": 16, "chunk": 10,
        "base": {"game": "spots", "players": 2},
        "grid": {"bots": [list(pair) for pair in itertools.combinations(
            ["random", "greedy:risk=0.1", "greedy", "greedy:risk=0.5", "expectimax:nodes=500", "mcts:iterations=60"],
            2)]},
    },
}
