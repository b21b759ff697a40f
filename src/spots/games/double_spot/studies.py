"""Double Spot's built-in balance study (``spots study --list``), declared beside the game: the study runner
(``spots.study``) collects every game's from the registry (``GameSpec.study.named``)."""

from __future__ import annotations

from typing import Any

STUDIES: dict[str, dict[str, Any]] = {
    "double-spot": {
        "kind": "double-spot",
        "description": "Double Spot between greedy bots: the first player's edge, how often the frame fills "
                       "before anyone reaches the target, by board size and claim rule.",
        "games": 2000, "seed": 16, "chunk": 250,
        "base": {"game": "double-spot", "bots": ["greedy"]},
        "grid": {"claim": ["mover", "first"]},
        "cases": [{"columns": 8, "rows": 5}, {"columns": 6, "rows": 4}, {"columns": 10, "rows": 6}],
    },
}
