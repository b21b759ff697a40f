"""A trained policy as a plain numpy network, and the bot that plays it (``bots.make("ppo")``).

Training (``spots.rl.train``, the ``train`` extra: PyTorch and sb3-contrib) exports the
policy half of the actor-critic network to a small ``.npz``: the layers' weights, the
activation, and the observation bounds it was trained with. Playing needs only numpy
(the ``rl`` extra), not PyTorch: the bot encodes the position for the seat to move,
runs the layers, masks the illegal action ids and takes the most likely legal move.

The network's head covers ``HEAD_IDS``: every action id except Trot's 6,320 ``move``
ids (``MOVE_BLOCK``), which makes it 12 times smaller and training that much faster.
The bot never moves a die with Trot: where Trot offers ``move``, ``stop`` is legal too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..games.spots import State
from . import observation
from .actions import ENCODING_VERSION, MOVE_IDS, NUM_ACTIONS, action_mask, decode

MOVE_BLOCK = (MOVE_IDS["move burt 1 bristles 1"], MOVE_IDS["take yard 1"])
"""The ids [start, stop) of Trot's ``move`` block, left out of the network's head."""
HEAD_IDS = np.array([i for i in range(NUM_ACTIONS) if not MOVE_BLOCK[0] <= i < MOVE_BLOCK[1]], dtype=np.int64)
"""The action ids the network scores, in id order: row ``k`` of the head is id ``HEAD_IDS[k]``."""

SHIPPED = Path(__file__).with_name("data") / "ppo_policy.npz"
"""The policy shipped with the package (trained by ``spots train``; see docs/rl.md)."""

def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {"tanh": np.tanh, "relu": _relu}


class NumpyPolicy:
    """Logits of the action ids from an observation: scale, then dense layers, then the action head."""

    def __init__(self, weights: list[np.ndarray], biases: list[np.ndarray], activation: str,
                 obs_high: np.ndarray, meta: dict[str, Any] | None = None) -> None:
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}; known: {', '.join(ACTIVATIONS)}")
        if weights[0].shape[1] != observation.SIZE or weights[-1].shape[0] != len(HEAD_IDS):
            raise ValueError(
                f"the network maps {weights[0].shape[1]} inputs to {weights[-1].shape[0]} actions; "
                f"this encoding has {observation.SIZE} inputs and {len(HEAD_IDS)} head actions"
            )
        self.weights = [w.astype(np.float32) for w in weights]
        self.biases = [b.astype(np.float32) for b in biases]
        self.activation = activation
        self.obs_scale = (1.0 / np.maximum(obs_high.astype(np.float32), 1.0)).astype(np.float32)
        self.meta = dict(meta or {})

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Unmasked logits of the head's actions (``HEAD_IDS``) for one observation (or a batch)."""
        act = ACTIVATIONS[self.activation]
        x = np.asarray(obs, dtype=np.float32) * self.obs_scale
        for w, b in zip(self.weights[:-1], self.biases[:-1], strict=True):
            x = act(x @ w.T + b)
        return np.asarray(x @ self.weights[-1].T + self.biases[-1])

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The most likely legal action id."""
        if not mask.any():
            raise ValueError("no legal action: the mask is all 0 (a chance node or the end of the game)")
        legal = mask[HEAD_IDS].astype(bool)  # Trot's move ids are never alone: its stop is legal too
        return int(HEAD_IDS[np.argmax(np.where(legal, self.logits(obs), -np.inf))])

    def save(self, path: str | Path) -> Path:
        """Write the network as a compressed ``.npz`` (float32, so numpy and PyTorch agree to rounding)."""
        arrays: dict[str, np.ndarray] = {}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = w.astype(np.float32)
            arrays[f"b{i}"] = b.astype(np.float32)
        arrays["obs_scale"] = self.obs_scale
        meta = {**self.meta, "activation": self.activation, "layers": len(self.weights),
                "encoding_version": ENCODING_VERSION}
        arrays["meta"] = np.array(json.dumps(meta))
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
        return path

    @classmethod
    def load(cls, path: str | Path) -> NumpyPolicy:
        """Read a policy written by ``save``; a clear error if the file is missing or of another encoding."""
        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"no policy file at {path}; train one with `spots train` (see docs/rl.md)")
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("encoding_version") != ENCODING_VERSION:
                raise ValueError(f"{path} was trained for action encoding {meta.get('encoding_version')}, "
                                 f"this is encoding {ENCODING_VERSION}")
            layers = int(meta["layers"])
            weights = [data[f"w{i}"] for i in range(layers)]
            biases = [data[f"b{i}"] for i in range(layers)]
            scale = data["obs_scale"].astype(np.float32)
        return cls(weights, biases, meta["activation"], 1.0 / scale, meta)


class PolicyBot:
    """A bot that plays a ``NumpyPolicy``: deterministic (the most likely legal move)."""

    name = "ppo"

    def __init__(self, policy: NumpyPolicy, seed: int = 0) -> None:
        self.policy = policy
        self.seed = seed  # the policy is deterministic; the seed is kept for the bot protocol

    def choose(self, state: State) -> str:
        seat = state.current_player()
        return decode(self.policy.act(observation.encode(state, seat), action_mask(state)))


@lru_cache(maxsize=4)
def _load(path: str) -> NumpyPolicy:
    return NumpyPolicy.load(path)  # read once: an arena makes a bot for every game


def make_bot(seed: int = 0, path: str | None = None) -> PolicyBot:
    """The ``ppo`` bot: the shipped policy (or the ``.npz`` at ``path``); needs numpy (the ``rl`` extra)."""
    return PolicyBot(_load(str(Path(path or SHIPPED).resolve())), seed=seed)
