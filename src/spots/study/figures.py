"""The report's figures, drawn with matplotlib and saved as PNG and SVG next to the Markdown."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from .spec import Study
from .stats import Estimate

plt.rcParams.update({"svg.hashsalt": "spots", "font.size": 9})


def save(fig: Any, study: Study, folder: Path, name: str) -> None:
    """Both formats; SVG metadata without a date so a rerun does not change committed files needlessly."""
    fig.tight_layout()
    fig.savefig(folder / f"{study.name}-{name}.png", dpi=110)
    fig.savefig(folder / f"{study.name}-{name}.svg", metadata={"Date": None})
    plt.close(fig)


def errors(estimates: Sequence[Estimate], scale: float = 1.0) -> tuple[list[float], list[list[float]]]:
    values = [e.value * scale for e in estimates]
    return values, [[(e.value - e.low) * scale for e in estimates], [(e.high - e.value) * scale for e in estimates]]


def seat_plot(study: Study, folder: Path, pooled: dict[int, list[Estimate]],
              per_config: dict[int, dict[str, list[Estimate]]]) -> None:
    """One panel per player count: each position's win rate, pooled (black) and per configuration (colours)."""
    fig, axes = plt.subplots(1, len(pooled), figsize=(4 * len(pooled), 3.4), squeeze=False)
    for ax, (n, est) in zip(axes[0], pooled.items(), strict=True):
        series = [*per_config.get(n, {}).items(), ("pooled", est)]
        width = 0.8 / len(series)
        for k, (name, e) in enumerate(series):
            x = [p + (k - (len(series) - 1) / 2) * width for p in range(n)]
            y, err = errors(e, 100)
            pooled_series = name == "pooled"
            ax.errorbar(x, y, yerr=err, fmt="s" if pooled_series else "o", ms=5 if pooled_series else 3,
                        lw=1.4 if pooled_series else 0.8, label=name, color="black" if pooled_series else None)
        ax.axhline(100 / n, ls="--", color="grey", lw=0.8)
        ax.set_xticks(range(n), [f"{p + 1}" for p in range(n)])
        ax.set_xlabel("position in turn order")
        ax.set_ylabel("win rate (%)")
        ax.set_title(f"{n} players")
    axes[0][-1].legend(fontsize=7, loc="upper right")
    save(fig, study, folder, "seats")


def length_plot(study: Study, folder: Path, groups: dict[str, list[int]]) -> None:
    """Box plots of game length, one per group."""
    fig, ax = plt.subplots(figsize=(max(5.0, 0.7 * len(groups) + 2), 3.6))
    ax.boxplot(list(groups.values()), showfliers=False)
    ax.set_xticks(range(1, len(groups) + 1), list(groups), rotation=30 if len(groups) > 4 else 0, ha="right"
                  if len(groups) > 4 else "center")
    ax.set_ylabel("turns per game")
    save(fig, study, folder, "length")


def ladder_plot(study: Study, folder: Path, names: list[str], ratings: list[Estimate]) -> None:
    fig, ax = plt.subplots(figsize=(6, 0.4 * len(names) + 1.2))
    x, err = errors(ratings)
    ax.errorbar(x, range(len(names)), xerr=err, fmt="o", color="#c05621", lw=1.2)
    ax.set_yticks(range(len(names)), names)
    ax.invert_yaxis()
    ax.axvline(0, ls="--", color="grey", lw=0.8)
    ax.set_xlabel("rating (Bradley-Terry, Elo points; mean 0)")
    save(fig, study, folder, "ladder")
