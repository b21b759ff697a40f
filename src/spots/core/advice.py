"""The one shape of a hint, for every game: a legal move, how good it is, and the facts that say why."""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Advice", "format_advice"]


@dataclass(frozen=True)
class Advice:
    """One ranked move of a game's advisor (a list of them comes best first).

    ``value``: the ranking bot's estimate for the mover, higher is better (a win chance where the
    bot has one). The facts a player can check are optional, each game filling the ones it has:
    ``bust`` (Spots) the chance the move busts the mover at once, None when nothing is rolled;
    ``takes`` the cards the move takes at once; ``result`` the mover's result when the move ends
    the game (1 win, 0.5 draw, 0 loss); ``risk`` (Double Spot) the opponent's chance to finish a
    card on their next roll; ``rank`` the move's place when equal moves share one (1, 1, 3, ...);
    ``next`` (Double Spot) the mover's chance to finish a card on the roll after the best reply;
    ``swing`` (Double Spot) the expected card swing over the two turns behind ``value``.
    """

    move: str
    value: float
    bust: Fraction | None = None
    takes: tuple[str, ...] = ()
    result: float | None = None
    risk: float | None = None
    rank: int | None = None
    next: float | None = None
    swing: float | None = None

    @property
    def score(self) -> float:
        """``value`` under its Spots name (``spots.games.spots.advice``: ``Advice.score``)."""
        return self.value


def format_advice(advice: list[Advice], limit: int = 15, tr: gettext.NullTranslations | None = None) -> str:
    """Ranked moves as a text table (``spots hint``): rank, move, estimate, then the facts the game gives.

    ``tr``: the language of the headings; moves stay in the notation.
    """
    tr = tr or gettext.NullTranslations()
    _ = tr.gettext
    if not advice:
        return _("No decision to advise on here.")
    shown = advice[:limit]
    facts = [(heading, cell) for heading, cell in _FACTS if any(cell(a) is not None for a in shown)]
    width = max(28, *(len(a.move) for a in shown))
    lines = [f"{_('rank'):>4}  {_('move'):<{width}} {_('estimate'):>9}"
             + "".join(f"  {_(heading):>8}" for heading, _cell in facts)]
    for i, a in enumerate(shown, 1):
        cells = "".join(f"  {cell(a) or '-':>8}" for _heading, cell in facts)
        lines.append(f"{a.rank or i:>4}  {a.move:<{width}} {a.value:>9.3f}{cells}")
    if len(advice) > limit:
        more = len(advice) - limit
        lines.append("      " + tr.ngettext("... and {n} more", "... and {n} more", more).format(n=more))
    return "\n".join(lines)


def _percent(value: float | Fraction | None) -> str | None:
    return None if value is None else f"{float(value):.1%}"


# The facts a hint may carry: heading (the first is the Spots advisor's) and how a row shows it.
_FACTS: tuple[tuple[str, Callable[[Advice], str | None]], ...] = (
    ("bust now", lambda a: _percent(a.bust)),
    ("takes", lambda a: " ".join(a.takes) or None),
    ("their finish", lambda a: _percent(a.risk)),
    ("your next", lambda a: _percent(a.next)),
)
