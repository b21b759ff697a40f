"""The coach's report in words: each player's luck, play and band, and their biggest mistakes.

The bands follow GNU Backgammon's idea (the mean equity lost per decision, in thousandths of a game
won) with the thresholds measured on this project's bots (``docs/analysis.md``: how they were set).
"""

from __future__ import annotations

import gettext
import json
from typing import Any

from ..i18n import N_, pad
from .engine import Mistake, PlayerSummary, Report

__all__ = ["BANDS", "LEFT", "STOOD_IN", "UNCHECKED", "band", "format_report", "percent", "report_rows", "to_json"]

LEFT = N_("It left the others a {left} chance to win, instead of {would}.")
UNCHECKED = N_("{name}: {count} possible mistakes not named: a mistake is named only once play-outs to the end of "
               "the game confirm it, and this installation cannot run them (pip install \"spots[fast]\").")
STOOD_IN = N_("{name} ran out of time: the decisions a stand-in made for them ({count}) are not counted as theirs.")

# (mean equity lost per decision from which the band starts, in thousandths; the band's name), best first. Set on
# 261 two-player Spots games to 3 dogs among the bots, measured by the coach of issue 40 (docs/analysis.md): mcts
# loses 8.8 (Expert), greedy 17.7 and expectimax 19.0 (Intermediate), random 24.0 (Beginner), each bot's 95%
# interval inside its band; World class is half mcts's loss or less.
BANDS: tuple[tuple[float, str], ...] = (
    (0.0, N_("World class")),
    (4.0, N_("Expert")),
    (12.0, N_("Strong")),
    (15.0, N_("Intermediate")),
    (21.0, N_("Casual")),
    (22.5, N_("Beginner")),
)


def band(mean_lost: float) -> str:
    """The band (a message id) of a mean equity lost per decision (a fraction of a game)."""
    thousandths = mean_lost * 1000
    name = BANDS[0][1]
    for start, title in BANDS:
        if thousandths >= start:
            name = title
    return name


def percent(value: float) -> str:
    """A chance as a whole percentage that never reads 0% or 100% unless the chance is exactly that (only the rules
    make a certainty)."""
    if 0.0 < value < 0.005:
        return "<1%"
    if 0.995 <= value < 1.0:
        return ">99%"
    return f"{value:.0%}"



def _signed(value: float) -> str:
    return f"{value * 100:+.1f}"


def format_report(report: Report, tr: gettext.NullTranslations | None = None) -> str:
    """The per-player summary, then each human's biggest mistakes (``spots analyse``)."""
    tr = tr or gettext.NullTranslations()
    _ = tr.gettext
    lines = [_(N_("How did it go? ({steps} steps; the coach: {evaluator})")).format(
        steps=len(report.steps), evaluator=_(report.title) if report.title else report.evaluator), ""]
    headings = [_(N_("player")), _(N_("result")), _(N_("start")), _(N_("luck")), _(N_("lost")), _(N_("per move")),
                _(N_("band"))]
    lines.append(" ".join([pad(headings[0], 14), *(pad(h, 9, right=True) for h in headings[1:-1]), headings[-1]]))
    for p in report.players:
        cells = [percent(p.result), percent(p.start), _signed(p.luck), f"{p.lost * 100:.1f}",
                 f"{p.mean_lost * 1000:.1f}"]
        lines.append(" ".join([pad(p.name, 14), *(pad(c, 9, right=True) for c in cells), _(band(p.mean_lost))]))
    lines += ["", _(N_("luck and lost: points of chance to win (100 = a whole game); per move: thousandths of a "
                       "game lost per decision that was not forced.")), ""]
    for p in report.players:
        lines.append(_summary_line(p, tr))
        if p.stood_in:
            lines.append(_(STOOD_IN).format(name=p.name, count=p.stood_in))
        if p.unchecked:
            lines.append(_(UNCHECKED).format(name=p.name, count=p.unchecked))
    for p in report.players:
        if p.mistakes:
            lines += ["", _(N_("The biggest mistakes of {name}:")).format(name=p.name)]
            for rank, mistake in enumerate(p.mistakes, 1):
                lines += _mistake_lines(rank, p, mistake, tr)
    return "\n".join(lines)


def _summary_line(p: PlayerSummary, tr: gettext.NullTranslations) -> str:
    _ = tr.gettext
    return _(N_("{name}: {decisions} decisions ({forced} forced), {lost} points lost ({turn} a turn); the others' "
                "decisions gave {given}; luck {luck}; with the luck taken out, {adjusted}.")).format(
        name=p.name, decisions=p.decisions, forced=p.forced, lost=f"{p.lost * 100:.1f}",
        turn=f"{p.per_turn * 100:.1f}", given=_signed(p.given), luck=_signed(p.luck),
        adjusted=f"{p.luck_adjusted * 100:.0f}")


def _mistake_lines(rank: int, p: PlayerSummary, m: Mistake, tr: gettext.NullTranslations) -> list[str]:
    _ = tr.gettext
    lines = [_(N_("{rank}. step {step} (turn {turn}): played {played}, better {best}: {lost} points lost.")).format(
        rank=rank, step=m.step + 1, turn=m.turn, played=m.played, best=m.best, lost=f"{m.lost * 100:.1f}")]
    for message, fields in m.reasons:
        lines.append("   " + _(message).format(**fields))
    others = [s for s in range(len(m.after_played)) if s != p.seat]
    if others:
        left = sum(m.after_played[s] for s in others)
        would = sum(m.after_best[s] for s in others)
        lines.append("   " + _(LEFT).format(
            left=percent(left), would=percent(would)))
    lines += ["   " + row for row in m.position.splitlines()]
    return lines


def report_rows(report: Report) -> list[dict[str, Any]]:
    """One row per step (``spots analyse --json``)."""
    return [step.to_row() for step in report.steps]


def to_json(report: Report) -> str:
    """The whole report as JSON: the players' totals and one row per step."""
    players = [{"seat": p.seat, "name": p.name, "human": p.human, "result": p.result, "start": round(p.start, 6),
                "luck": round(p.luck, 6), "lost": round(p.lost, 6), "decisions": p.decisions, "forced": p.forced,
                "mean_lost": round(p.mean_lost, 6), "per_turn": round(p.per_turn, 6), "given": round(p.given, 6),
                "residual": round(p.residual, 6), "band": band(p.mean_lost), "stood_in": p.stood_in,
                "unchecked": p.unchecked,
                "mistakes": [{"step": m.step, "played": m.played, "best": m.best, "lost": round(m.lost, 6),
                              "error": round(m.error, 6)} for m in p.mistakes]} for p in report.players]
    doc = {"game": report.game, "evaluator": report.evaluator, "players": players, "steps": report_rows(report)}
    return json.dumps(doc, indent=1) + "\n"
