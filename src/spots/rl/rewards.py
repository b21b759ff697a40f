"""Reward signals for ``Spots-v0``: the win/loss return plus optional, documented shaping.

A game of Spots lasts hundreds of decisions and the engine pays only at the end (1 for a
win), and in solo play every game "wins" (the lone player always leads at the turn limit).
``Shaping`` adds terms an agent can learn from sooner. Every term is a *difference of a
count* between the agent's decisions, so its sum over an episode is the scale times the
count's change from reset to the end (``docs/rl.md`` states each one). Shaping only reads
the state: the game, the legal moves and the engine's returns are unchanged.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, NamedTuple

from ..games.spots import State


class Counts(NamedTuple):
    """The counts shaping looks at, for one seat."""

    scored: int  # scored dogs
    dice_on_dogs: int  # dice on the seat's unscored dogs
    yard: int  # the yard total (sum of buried faces)
    busts: int  # times the seat has busted
    turns: int  # turns started in the game (all seats)


def counts(state: State, seat: int) -> Counts:
    """The shaping counts of ``seat`` in ``state``."""
    player = state.players[seat]
    return Counts(player.scored_count(), player.dice_on_dogs(), player.yard_total(), state.busts[seat], state.turn)


@dataclass(frozen=True)
class Shaping:
    """Scales of the reward terms (0 switches a term off); the default is the bare win/loss.

    - ``win``: times the engine's return at the end (1 win, 0 loss, 1/k for a k-way tie at
      the turn limit).
    - ``scored``: per scored dog the agent gains.
    - ``dice_on_dogs``: per die on the agent's unscored dogs, as a change (placing +1 die,
      scoring or busting takes them off again).
    - ``yard``: per spot in the agent's yard, as a change (negative: "yard pressure").
    - ``bust``: per bust of the agent (negative: a bust penalty).
    - ``turn``: per turn started (negative: the solo objective "fewer turns is better").
    """

    win: float = 1.0
    scored: float = 0.0
    dice_on_dogs: float = 0.0
    yard: float = 0.0
    bust: float = 0.0
    turn: float = 0.0

    def reward(self, before: Counts, after: Counts, returned: float = 0.0) -> float:
        """The reward for going from ``before`` to ``after`` (``returned``: the engine's return if it ended)."""
        return (
            self.win * returned
            + self.scored * (after.scored - before.scored)
            + self.dice_on_dogs * (after.dice_on_dogs - before.dice_on_dogs)
            + self.yard * (after.yard - before.yard)
            + self.bust * (after.busts - before.busts)
            + self.turn * (after.turns - before.turns)
        )

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


PRESETS: dict[str, Shaping] = {
    "win": Shaping(),
    "dense": Shaping(scored=0.1, dice_on_dogs=0.02, yard=-0.005, bust=-0.1),
    "solo": Shaping(scored=0.1, dice_on_dogs=0.02, bust=-0.1, turn=-0.01),
}
"""Named shapings: ``win`` (the default), ``dense`` (for training against bots), ``solo``
(for 1 player, where the win term is constant and the turn cost carries the objective)."""


def shaping(spec: str | Shaping | dict[str, Any] | None) -> Shaping:
    """A ``Shaping`` from a preset name, a dict of scales, a Shaping, or None (the default)."""
    if spec is None:
        return PRESETS["win"]
    if isinstance(spec, Shaping):
        return spec
    if isinstance(spec, str):
        if spec not in PRESETS:
            raise ValueError(f"unknown shaping {spec!r}; the presets are: {', '.join(PRESETS)}")
        return PRESETS[spec]
    if isinstance(spec, dict):
        known = [f.name for f in fields(Shaping)]
        bad = [k for k in spec if k not in known]
        if bad:
            raise ValueError(f"unknown shaping term(s) {', '.join(map(repr, bad))}; the terms are: {', '.join(known)}")
        try:
            return Shaping(**{k: float(v) for k, v in spec.items()})
        except (TypeError, ValueError):
            raise ValueError(f"shaping scales must be numbers, got {spec!r}") from None
    raise ValueError(f"shaping must be a preset name, a dict of scales or a Shaping, not {type(spec).__name__}")
