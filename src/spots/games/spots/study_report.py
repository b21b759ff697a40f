"""Spots' own study report kinds (the study runner finds them through ``GameSpec.study.reports``):
``seats`` by trick set, ``sets``, ``variants`` and ``tiles``.

Why in the game's folder: they read Spots' own row columns (the trick set, busts, each seat's uses of each
tile) and name its sets and tiles; the study shell (``spots.study``) keeps only the kinds every game's rows can
have. Needs the study extra (matplotlib), imported only when a report is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...study import analysis as an
from ...study import figures
from ...study import report as shared
from ...study.analysis import Row
from ...study.figures import errors, plt, save
from ...study.report import image, table
from ...study.spec import Study
from ...study.stats import Estimate, difference, mean, proportion
from .tricks import TILES

# The suggested sets by their four tiles beside Howl and Roll Over (a row holds the set's tile names).
SET_NAMES = {
    ("walk", "run", "beg", "fetch"): "adoption-event", ("dig", "chase", "chew", "guard"): "dog-park",
    ("trot", "bolt", "gobble", "fetch"): "agility-course", ("retrieve", "sprint", "stay", "hunt"): "hunting",
    ("track", "dogpile", "beg", "search"): "kennel-club", ("retrieve", "bolt", "play-dead", "scavenge"): "puppy-pen",
}


def set_name(rows: Sequence[Row]) -> str:
    """A configuration's trick set, by its suggested name when it is one (from its first game's row)."""
    tiles = tuple(rows[0]["tricks"])
    return SET_NAMES.get(tiles[2:], ", ".join(tiles)) if tiles[:2] == ("howl", "roll-over") else ", ".join(tiles)


def bust_rate(row: Row) -> float:
    """Busts per turn in one game."""
    return sum(row["busts"]) / max(1, row["turns"])


def margin(row: Row) -> int:
    """The score spread: the winner's (or leader's) scored dogs minus the runner-up's."""
    scores = sorted(row["scores"], reverse=True)
    return scores[0] - scores[1] if len(scores) > 1 else scores[0]


def shape(rows: Sequence[Row]) -> dict[str, Estimate]:
    """How a configuration plays: length, bust rate, score spread, lead changes, games ended by the limit."""
    return {
        "turns": mean([r["turns"] for r in rows]),
        "bust_rate": mean([bust_rate(r) for r in rows]),
        "margin": mean([margin(r) for r in rows]),
        "lead_changes": mean([r["lead_changes"] for r in rows]),
        "first_wins": an.position_wins(rows, rows[0]["players"])[0] if rows else proportion(0, 0),
        "unfinished": proportion(sum(r["end_reason"] != "target" for r in rows), len(rows)),
    }


def seats(study: Study, rows: list[Row], folder: Path) -> list[str]:
    """The ``seats`` report of Spots: the shared one by trick set, then how each set plays."""
    return shared.seats(study, rows, folder, set_name, "trick set") + sets(study, rows, folder)


def sets(study: Study, rows: list[Row], folder: Path) -> list[str]:
    """The ``sets`` report: length, bust rate, score spread, lead changes and the first player's wins per set."""
    groups = an.by_config(rows)
    body = []
    for rs in groups.values():
        s = shape(rs)
        body.append([rs[0]["players"], set_name(rs), len(rs), s["turns"].num(1), s["bust_rate"].pct(),
                     s["margin"].num(2), s["lead_changes"].num(2), s["first_wins"].pct()])
    lines = ["## How each set plays", "",
             "Turns: all players' turns. Bust rate: busts per turn. Score spread: the winner's dogs minus the "
             "runner-up's. Lead changes: how often the sole leader in scored dogs changed hands.", ""]
    lines += table(["players", "set", "games", "turns", "bust rate", "score spread", "lead changes",
                    "first player wins"], body)
    named = {f"{rs[0]['players']}p {set_name(rs)}": rs for rs in groups.values()}
    figures.length_plot(study, folder, {k: [r["turns"] for r in rs] for k, rs in named.items()})
    lines += image(study, "length", "Game length in turns by set and player count (box: the middle half of the "
                   "games, line: median, whiskers: 1.5 box lengths)")
    longest = max(groups.values(), key=lambda rs: shape(rs)["turns"].value)
    swingiest = max(groups.values(), key=lambda rs: shape(rs)["lead_changes"].value)
    lines += ["## Reading: the sets", "",
              f"- Longest: {set_name(longest)} with {longest[0]['players']} players "
              f"({shape(longest)['turns'].num(1)} turns).",
              f"- Swingiest: {set_name(swingiest)} with {swingiest[0]['players']} players "
              f"({shape(swingiest)['lead_changes'].num(2)} lead changes a game).", ""]
    return lines


def variants(study: Study, rows: list[Row], folder: Path) -> list[str]:
    """The ``variants`` report: each rules variant (one option changed) against the standard game."""
    groups = an.by_config(rows)
    body, points = [], {}
    for index, rs in groups.items():
        s = shape(rs)
        label = _variant_label(study, index)
        points[label] = s
        body.append([label, len(rs), s["turns"].num(1), s["bust_rate"].pct(), s["margin"].num(2),
                     s["lead_changes"].num(2), s["first_wins"].pct(), s["unfinished"].pct()])
    variant_plot(study, folder, points)
    lines = ["## Each variant against the standard game", "",
             "One option changed at a time; the others are the standard game (target 6, bust above 7, "
             "a random standard set of 6 tiles).", ""]
    lines += table(["variant", "games", "turns", "bust rate", "score spread", "lead changes",
                    "first player wins", "ended by the turn limit"], body)
    lines += image(study, "variants", "Game length and bust rate by variant")
    turns = {k: v["turns"] for k, v in points.items()}
    lines += ["## Reading", "", f"- Shortest: {min(turns, key=lambda k: turns[k].value)}; longest: "
              f"{max(turns, key=lambda k: turns[k].value)}.", ""]
    return lines


def _variant_label(study: Study, index: int) -> str:
    options = study.configs[index].options
    base = study.source.get("base", {})
    changed = {k: v for k, v in options.items() if base.get(k) != v}
    return ", ".join(f"{k} {v}" for k, v in changed.items()) or "standard"


def variant_plot(study: Study, folder: Path, points: dict[str, dict[str, Estimate]]) -> None:
    """Game length and bust rate per variant, with their intervals."""
    labels = list(points)
    fig, axes = plt.subplots(1, 2, figsize=(10, 0.3 * len(labels) + 1.4), sharey=True)
    panels = [("turns", 1, "turns per game"), ("bust_rate", 100, "busts per 100 turns")]
    for ax, (key, scale, label) in zip(axes, panels, strict=True):
        x, err = errors([points[k][key] for k in labels], scale)
        ax.errorbar(x, range(len(labels)), xerr=err, fmt="o", ms=3, lw=1)
        ax.set_xlabel(label)
    axes[0].set_yticks(range(len(labels)), labels)
    axes[0].invert_yaxis()
    save(fig, study, folder, "variants")


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


SECTIONS = {"seats": seats, "sets": sets, "variants": variants, "tiles": tiles}  # Spots' report kinds
