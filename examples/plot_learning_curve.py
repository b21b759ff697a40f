"""The learning curve of a ``spots train`` run: win rate against random and greedy vs. environment steps.

    python examples/plot_learning_curve.py runs/ppo/progress.csv docs/rl_learning_curve.png

Reads the run's ``progress.csv`` (one row per evaluation) and draws each win rate with
its 95% Wilson interval as a band. Needs matplotlib (in the ``train`` extra).
"""

from __future__ import annotations

import argparse
import csv

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("progress", help="a run's progress.csv")
    parser.add_argument("png", help="where to write the plot")
    parser.add_argument("--title", default="MaskablePPO on Spots-v0 (2 players, beginner tricks)")
    args = parser.parse_args()
    with open(args.progress, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["episodes"] != "0"]  # the final repeat row has no episodes
    steps = [int(r["steps"]) for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    for bot, colour in (("random", "tab:blue"), ("greedy", "tab:orange")):
        rate = [float(r[f"win_{bot}"]) for r in rows]
        low = [float(r[f"win_{bot}_low"]) for r in rows]
        high = [float(r[f"win_{bot}_high"]) for r in rows]
        ax.plot(steps, rate, marker="o", color=colour, label=f"vs {bot}")
        ax.fill_between(steps, low, high, color=colour, alpha=0.2)
    ax.set(xlabel="environment steps (agent decisions)", ylabel="win rate (95% Wilson band)", ylim=(0, 1),
           title=args.title)
    ax.grid(alpha=0.3)
    ax.legend(loc="center right")
    fig.tight_layout()
    fig.savefig(args.png)
    print(f"wrote {args.png} ({len(rows)} evaluations, up to {steps[-1] if steps else 0} steps)")


if __name__ == "__main__":
    main()
