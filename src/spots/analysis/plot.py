"""The win-chance chart of an analysed game (``spots analyse --plot``), drawn with matplotlib (an optional extra)."""

from __future__ import annotations

from pathlib import Path

from .engine import Report

__all__ = ["check_plot_path", "plot_chart"]

FORMATS = (".png", ".svg")


def check_plot_path(path: str | Path) -> Path:
    """The chart's file, refused before any work when its kind is not one matplotlib is asked for here, or when
    matplotlib is missing."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise ValueError(f"--plot writes {' or '.join(FORMATS)} files, not {path.name!r}")
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise ValueError(f"--plot needs matplotlib: pip install 'spots[study]' ({exc})") from None
    return path


def plot_chart(report: Report, path: str | Path) -> None:
    """Every seat's chance to win before each step, then the result; each mistake of a human marked."""
    path = check_plot_path(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, axes = plt.subplots(figsize=(9, 4))
    steps = range(len(report.chart))
    for player in report.players:
        line = axes.plot(steps, [values[player.seat] for values in report.chart], label=player.name)[0]
        marks = [m.step for m in player.mistakes]
        axes.plot(marks, [report.chart[s][player.seat] for s in marks], "v", color=line.get_color())
    axes.set_ylim(0, 1)
    axes.set_xlabel("step")
    axes.set_ylabel("chance to win")
    axes.set_title(f"{report.game}: chance to win over the game (triangles: the biggest mistakes)")
    axes.legend(loc="best")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
