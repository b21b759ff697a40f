"""Double Spot's own study report kind, ``double-spot`` (the study runner finds it through
``GameSpec.study.reports``): the first player's edge and how often the frame fills first.

Why in the game's folder: it reads Double Spot's rows in its own terms (board, claim rule, a full frame);
the study shell (``spots.study``) keeps only the kinds every game's rows can have. Needs the study extra
(matplotlib), imported only when a report is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ...study.analysis import Row, by_config
from ...study.figures import errors, plt, save
from ...study.report import edge_words, image, length_section, table
from ...study.spec import Study
from ...study.stats import Estimate, mean, proportion


def first_player(rows: Sequence[Row]) -> dict[str, Estimate]:
    """The first player's score (a draw counts half) and outright wins, draws, how often the frame fills
    first, and game length."""
    n = len(rows)
    return {
        "first_score": proportion(sum(r["returns"][0] for r in rows), n),
        "first_wins": proportion(sum(r["winner"] == 0 for r in rows), n),
        "second_wins": proportion(sum(r["winner"] == 1 for r in rows), n),
        "draws": proportion(sum(r["winner"] < 0 for r in rows), n),
        "full": proportion(sum(bool(r["full"]) for r in rows), n),
        "turns": mean([r["turns"] for r in rows]),
        "lead_changes": mean([r["lead_changes"] for r in rows]),
    }


def first_player_plot(study: Study, folder: Path, points: dict[str, dict[str, Estimate]]) -> None:
    labels = list(points)
    fig, axes = plt.subplots(1, 2, figsize=(9, 0.35 * len(labels) + 1.4), sharey=True)
    for ax, (key, ref, label) in zip(axes, [("first_score", 50, "first player's score, draws half (%)"),
                                            ("full", None, "games where the frame fills first (%)")], strict=True):
        x, err = errors([points[k][key] for k in labels], 100)
        ax.errorbar(x, range(len(labels)), xerr=err, fmt="o", ms=4, lw=1.2)
        if ref is not None:
            ax.axvline(ref, ls="--", color="grey", lw=0.8)
        ax.set_xlabel(label)
    axes[0].set_yticks(range(len(labels)), labels)
    axes[0].invert_yaxis()
    save(fig, study, folder, "first-player")


def report(study: Study, rows: list[Row], folder: Path) -> list[str]:
    """The ``double-spot`` report: the first player's edge and the full-frame rate by board and claim rule."""
    groups = by_config(rows)
    points, body = {}, []
    for index, rs in groups.items():
        o = study.configs[index].options
        label = f"{o.get('columns', 8)}x{o.get('rows', 5)}, claim {o.get('claim', 'mover')}"
        d = first_player(rs)
        points[label] = d
        body.append([label, len(rs), d["first_score"].pct(), d["first_wins"].pct(), d["second_wins"].pct(),
                     d["draws"].pct(), d["full"].pct(), d["turns"].num(1)])
    first_player_plot(study, folder, points)
    lines = ["## First player and full frame", "",
             "Seat 0 moves first. A game ends when a player takes the target number of cards, or when the "
             "frame is full (the player with more cards wins; equal counts draw). The first player's score "
             "counts a draw as half a win, so a fair game scores 50%. Turns are drops.", ""]
    lines += table(["board, claim rule", "games", "first player's score", "first wins", "second wins", "draws",
                    "frame fills first", "turns"], body)
    lines += image(study, "first-player", "First player's score (draws half) and the full-frame rate by board and "
                   "claim rule")
    everything = first_player(rows)
    lines += ["## Reading", "",
              "- Over all " + f"{len(rows)} games: " + edge_words(everything["first_score"], 0.5, "the first player",
                                                                    "scores")]
    for label, d in points.items():
        lines.append(f"- {label}: " + edge_words(d["first_score"], 0.5, "the first player", "scores")
                     + f" The frame fills before anyone reaches the target in {d['full'].pct()} of games.")
    lines.append("")
    lines += length_section(study, folder, {k: rs for k, rs in zip(points, groups.values(), strict=True)}, "")
    return lines
