"""Spots' own study report kind, ``tiles`` (the study runner finds it through ``GameSpec.study_reports``).

Why in the game's folder: it reads Spots' own row columns (the trick set and each seat's uses of each tile)
and names its tiles; the study shell (``spots.study``) keeps only the kinds every game's rows can have.
Needs the study extra (matplotlib), imported only when a report is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...study.analysis import Row, bust_rate
from ...study.figures import errors, plt, save
from ...study.report import image, table
from ...study.spec import Study
from ...study.stats import difference, mean, proportion
from .tricks import TILES


def tile_strength(rows: Sequence[Row], tiles: Sequence[str]) -> list[dict[str, Any]]:
    """Per tile: the win rate of the player who gave it the larger share of their tricks (paired within
    games; shares, not counts, since the winner spends more turns scoring instead), and the length and bust-rate
    differences between games with and without the tile in the set (its presence is randomised)."""
    out = []
    for tile in tiles:
        present = [r for r in rows if tile in r["tricks"]]
        absent = [r for r in rows if tile not in r["tricks"]]
        more_user_wins = 0.0
        decided = 0
        uses = []
        for row in present:
            column = row["tricks"].index(tile)
            rates = [u[column] / max(1, sum(u)) for u in row["uses"]]  # share of the player's own tricks
            uses.append(sum(u[column] for u in row["uses"]))
            best = max(rates)
            if rates.count(best) == 1:
                decided += 1
                more_user_wins += row["returns"][rates.index(best)]
        out.append({
            "tile": tile,
            "games": len(present),
            "uses": mean(uses),
            "paired_games": decided,
            "more_user_wins": proportion(more_user_wins, decided),
            "turns": difference([r["turns"] for r in present], [r["turns"] for r in absent]),
            "bust_rate": difference([bust_rate(r) for r in present], [bust_rate(r) for r in absent]),
        })
    return out


def forest(study: Study, folder: Path, tiles: list[dict[str, Any]]) -> None:
    """Three forest plots side by side, tiles sorted by the more frequent user's win rate."""
    tiles = sorted(tiles, key=lambda t: t["more_user_wins"].value)
    names = [t["tile"] for t in tiles]
    fig, axes = plt.subplots(1, 3, figsize=(11, 0.28 * len(tiles) + 1.2), sharey=True)
    panels = [("more_user_wins", 100, 50, "win rate of the heavier user (%)"),
              ("turns", 1, 0, "turns per game, with minus without"),
              ("bust_rate", 100, 0, "busts per 100 turns, with minus without")]
    for ax, (key, scale, ref, label) in zip(axes, panels, strict=True):
        x, err = errors([t[key] for t in tiles], scale)
        ax.errorbar(x, range(len(tiles)), xerr=err, fmt="o", ms=3, color="#2b6cb0", lw=1)
        ax.axvline(ref, ls="--", color="grey", lw=0.8)
        ax.set_xlabel(label)
    axes[0].set_yticks(range(len(tiles)), names)
    save(fig, study, folder, "forest")


def tiles(study: Study, rows: list[Row], folder: Path) -> list[str]:
    """The ``tiles`` report: each trick tile's strength, from games that drew 6 tiles at random."""
    result = tile_strength(rows, list(TILES))
    forest(study, folder, result)
    ranked = sorted(result, key=lambda t: -t["more_user_wins"].value)
    lines = [
        "## Design", "",
        "Every game draws 6 of the 22 tiles at random (`random:6`), so each tile is in about 27% of the games, "
        "independently of how the game goes. Two measures:",
        "",
        "- **Win rate of the player who uses it more** (paired, within a game): in games with the tile where "
        "one player gave it a larger share of their tricks than the other, how often that player won. Both "
        "players faced the same set and the same bots, so 50% means the tile neither wins nor loses games. "
        "Shares, not counts: a winner spends more turns scoring instead of doing tricks, and more tricks per "
        "turn would mark the loser. It is an observational comparison: a player may do a tile more "
        "*because* they are ahead or behind.",
        "- **Length and bust rate** (randomised presence): mean turns per game and busts per turn in games "
        "with the tile minus games without it (Welch 95% interval). The tile's presence is random, so this "
        "is its causal effect on the game in place of an average other tile.",
        "",
        *image(study, "forest", "Tile strength: win rate of the player who used the tile more (left), change "
               "in game length (middle) and bust rate (right)"),
        "## Table", "",
    ]
    body = [[t["tile"], t["games"], t["uses"].num(1), t["paired_games"], t["more_user_wins"].pct(),
             t["turns"].num(1), f"{100 * t['bust_rate'].value:+.2f} [{100 * t['bust_rate'].low:+.2f}, "
             f"{100 * t['bust_rate'].high:+.2f}]"] for t in ranked]
    lines += table(["tile", "games with it", "uses/game", "paired games", "more user wins",
                    "turns +/-", "bust rate +/- (points)"], body)
    lines += ["## Reading", "", *_tile_words(ranked)]
    return lines


def _tile_words(ranked: list[dict[str, Any]]) -> list[str]:
    strong = [t["tile"] for t in ranked if t["more_user_wins"].low > 0.5]
    traps = [t["tile"] for t in ranked if t["more_user_wins"].high < 0.5]
    longer = [t["tile"] for t in ranked if t["turns"].low > 0]
    shorter = [t["tile"] for t in ranked if t["turns"].high < 0]
    top, bottom = ranked[0], ranked[-1]
    return [
        f"- Tiles whose heavier user wins more than half the time: {', '.join(strong) or 'none'}. "
        f"The strongest is {top['tile']} ({top['more_user_wins'].pct()}).",
        f"- Traps (the heavier user wins less than half the time): {', '.join(traps) or 'none'}; the "
        f"weakest is {bottom['tile']} ({bottom['more_user_wins'].pct()}).",
        f"- Having the tile in the set makes games longer: {', '.join(longer) or 'none'}; shorter: "
        f"{', '.join(shorter) or 'none'}.",
        "- These are greedy bots' games: a tile a greedy player misuses can look weaker than it is in "
        "skilled hands.",
        "",
    ]
