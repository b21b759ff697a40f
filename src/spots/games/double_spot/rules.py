"""Double Spot's rules options, validated once so the state never meets a bad value."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ...core.errors import RulesError
from ...core.options import whole

CLAIM_RULES = ("mover", "first")
# One range for every front end (the terminal, the web lobby, Python): the frame fits a phone's screen at 12×10.
LIMITS = {"columns": (3, 12), "rows": (3, 10), "discs": (1, 400), "target": (1, 40), "lifts": (0, 99)}

# One set of errors for every game: a bad Double Spot option is a ``RulesError`` (the old name stays).
DoubleSpotRulesError = RulesError


def _whole(name: str, value: Any) -> int:
    return whole(name, value, *LIMITS[name])


@dataclass(frozen=True)
class Rules:
    """Options; the defaults are the game of ``docs/rules.md`` (Double Spot).

    columns, rows: the frame (8×5, one cell per disc).
    discs: discs of each kind (blue/green and pink/yellow); ``None`` gives enough
        for a full board (half the cells each, rounded up).
    target: cards that win at once.
    claim: who takes a replacement card already on the board: ``mover`` (the
        player whose turn it is) or ``first`` (a chance event ``claim N`` that a
        live front end sets to whoever claimed first).
    lifts: a house rule: how many times a full frame is lifted, its discs let fall,
        and play goes on; after the last lift a full frame ends the game as usual.
        0 by default, the published rules' own ending: a full frame ends the game and
        more cards wins (equal counts draw). Lifting makes the race to the target the
        usual ending (with 3, 86% of greedy games reach it, against 27% with 0:
        docs/double-spot.md), so front ends may recommend it, never impose it.
    """

    columns: int = 8
    rows: int = 5
    discs: int | None = None
    target: int = 5
    claim: str = "mover"
    lifts: int = 0

    def __post_init__(self) -> None:
        _whole("columns", self.columns)
        _whole("rows", self.rows)
        cells = self.columns * self.rows
        if self.discs is None:
            object.__setattr__(self, "discs", (cells + 1) // 2)
        discs = _whole("discs", self.discs)
        if 2 * discs < cells:
            raise RulesError(
                f"discs: {discs} of each kind cannot fill a {self.columns}×{self.rows} board ({cells} cells)"
            )
        _whole("target", self.target)
        _whole("lifts", self.lifts)
        if self.claim not in CLAIM_RULES:
            raise RulesError(f"claim must be one of {', '.join(CLAIM_RULES)}, not {self.claim!r}")

    @property
    def players(self) -> int:
        """Always two (as ``spots.Rules.players`` says how many sit at a Spots table)."""
        return 2

    @property
    def disc_supply(self) -> int:
        """Discs of each kind: ``discs``, which ``__post_init__`` set when it was None (a full board's worth)."""
        assert self.discs is not None
        return self.discs

    @property
    def cells(self) -> int:
        return self.columns * self.rows

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_saved(cls, doc: Any) -> Rules:
        """Rules from a saved record or state, as they were when it was played, whatever today's defaults.

        ``to_dict`` writes every option, so a saved document names its ``lifts`` (the versions whose
        default was 3 wrote ``"lifts": 3``); one without the key was saved before the option existed and
        was played with 0 lifts. A game is never changed by loading it.
        """
        if isinstance(doc, dict) and "lifts" not in doc:
            doc = {**doc, "lifts": 0}
        return cls.from_dict(doc)

    @classmethod
    def from_dict(cls, doc: Any) -> Rules:
        if doc is None:
            return cls()
        if not isinstance(doc, dict):
            raise RulesError(f"rules must be an object of options, not {doc!r}")
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(doc) - known)
        if unknown:
            raise RulesError(f"unknown option(s) {', '.join(unknown)}; the options are {', '.join(known)}")
        return cls(**doc)
