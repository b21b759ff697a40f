"""Research adapters for Spots: Gymnasium, PettingZoo and OpenSpiel (the ``rl`` extra).

About one game by nature (the action table and observation vector encode Spots), so it
imports ``spots.games.spots`` directly rather than through the registry.

Importing ``spots.rl`` registers ``Spots-v0`` with Gymnasium and ``python_spots`` with
pyspiel (each only if that library is installed). The shared pieces are the fixed
action encoding (``spots.rl.actions``) and the observation vector
(``spots.rl.observation``); ``docs/rl.md`` documents both.

>>> import gymnasium, spots.rl
>>> env = gymnasium.make("Spots-v0", players=2, seat=0, opponents="greedy")
"""

from __future__ import annotations

from typing import Any

from .actions import (
    CHANCE_TEXTS,
    ENCODING_VERSION,
    MOVES,
    NUM_ACTIONS,
    EncodingError,
    action_mask,
    decode,
    encode,
    legal_ids,
)

GYM_ID = "Spots-v0"


def _register_gymnasium() -> None:
    try:
        import gymnasium
    except ImportError:  # pragma: no cover - the rl extra is not installed
        return
    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="spots.rl.gym_env:SpotsEnv", disable_env_checker=False)


def _register_openspiel() -> None:
    try:
        import pyspiel  # noqa: F401
    except ImportError:  # pragma: no cover - the rl extra is not installed
        return
    from . import openspiel_game  # registers python_spots on import

    openspiel_game.register()


def aec_env(**options: Any) -> Any:
    """The PettingZoo AEC environment (``render_mode`` and rules options as keywords)."""
    from .pettingzoo_env import aec_env as make

    return make(**options)


class MissingExtraError(ImportError, ValueError):
    """An optional extra is not installed (a ValueError too, so front ends report it like a bad option)."""


def ppo_bot(seed: int = 0, path: str | None = None) -> Any:
    """The ``ppo`` bot (``spots.bots.make("ppo")``): the shipped trained policy, or the ``.npz`` at ``path``.

    Playing needs numpy only (the ``rl`` extra); training needs the ``train`` extra.
    """
    try:
        from .policy import make_bot
    except ImportError as exc:
        need = "the ppo bot needs numpy, from the rl extra: pip install 'spots[rl]'"
        raise MissingExtraError(f"{need} ({exc})") from None
    return make_bot(seed=seed, path=path)


_register_gymnasium()
_register_openspiel()

__all__ = [
    "CHANCE_TEXTS",
    "ENCODING_VERSION",
    "GYM_ID",
    "MOVES",
    "NUM_ACTIONS",
    "EncodingError",
    "MissingExtraError",
    "action_mask",
    "aec_env",
    "decode",
    "encode",
    "legal_ids",
    "ppo_bot",
]
