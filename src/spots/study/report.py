"""A study's report: Markdown with tables, 95% intervals, figures (PNG and SVG) and a reading in plain words."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import analysis as an
from . import figures
from .spec import Study
from .stats import Estimate

Row = dict[str, Any]
Section = Callable[[Study, list[Row], Path], list[str]]


def write_report(study: Study, rows: list[Row], folder: Path) -> Path:
    """Write ``<folder>/<study>.md`` and its figures; return the Markdown file's path."""
    folder.mkdir(parents=True, exist_ok=True)
    engines = sorted({r["engine"] for r in rows})
    lines = [
        f"# Study: {study.name}",
        "",
        study.description,
        "",
        f"{len(rows)} games{_unfinished(study, rows)}: {len(study.configs)} configuration(s) x {study.games} games, "
        f"seed {study.seed}, "
        f"game runner: {', '.join(engines) or 'none'}. "
        f"Reproduce with `spots study {study.source.get('file', study.name)}` "
        f"(add `--address HOST:6379` to use a Ray cluster). Intervals are 95%.",
        "",
    ]
    lines += section(study)(study, rows, folder)
    path = folder / f"{study.name}.md"
    path.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    return path


def _unfinished(study: Study, rows: list[Row]) -> str:
    if len(rows) >= study.total_games:
        return ""
    return f" (unfinished: {len(rows)} of the {study.total_games} planned; the study resumes when run again)"


def table(header: Sequence[str], body: Sequence[Sequence[Any]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in body]
    return [*out, ""]


def image(study: Study, name: str, caption: str) -> list[str]:
    return [f"![{caption}]({study.name}-{name}.png)", f"*{caption}* ([SVG]({study.name}-{name}.svg))", ""]


def edge_words(est: Estimate, fair: float, who: str, verb: str = "wins") -> str:
    """A plain sentence on whether a win rate differs from its fair share."""
    gap = 100 * (est.value - fair)
    if not est.excludes(fair):
        return f"{who} {verb} {est.pct()}, within chance of the fair {100 * fair:.1f}%: no measurable edge."
    size = "a small" if abs(gap) < 3 else "a clear" if abs(gap) < 8 else "a large"
    side = "advantage" if gap > 0 else "disadvantage"
    return f"{who} {verb} {est.pct()} against a fair {100 * fair:.1f}%: {size} {side} ({gap:+.1f} points)."


ORDINAL = ["first", "second", "third", "fourth"]


def seats(study: Study, rows: list[Row], folder: Path, name: Callable[[list[Row]], str] | None = None,
          what: str = "configuration") -> list[str]:
    """The ``seats`` report: each turn position's win rate, pooled by player count and per configuration.

    ``name`` names a configuration from its rows (by default its label), ``what`` says what one is (Spots'
    own report names its trick sets)."""
    groups = an.by_config(rows)
    label = name or (lambda rs: study.configs[rs[0]["config"]].label)
    by_players = an.pooled(groups, lambda rs: rs[0]["players"])
    lines = ["## Win rate by turn order", "",
             "Position 1 is the player who went first, then in turn order.", ""]
    body = []
    for n, rs in by_players.items():
        est = an.position_wins(rs, n)
        body.append([n, len(rs), *[e.pct() for e in est], *[""] * (4 - n)])
    lines += table(["players", "games", "1st", "2nd", "3rd", "4th"], body)
    lines += ["Reading:", ""]
    for n, rs in by_players.items():
        est = an.position_wins(rs, n)
        lines.append(f"- {n} players: " + edge_words(est[0], 1 / n, "the first player")
                     + f" The last player wins {est[-1].pct()}.")
    lines.append("")
    per_config: dict[int, dict[str, list[Estimate]]] = {}
    for rs in groups.values():
        per_config.setdefault(rs[0]["players"], {})[label(rs)] = an.position_wins(rs, rs[0]["players"])
    figures.seat_plot(study, folder, {n: an.position_wins(rs, n) for n, rs in by_players.items()}, per_config)
    lines += image(study, "seats", f"Win rate by turn order, pooled and per {what}; the dashed line is the fair "
                   "share")
    lines += [f"## By {what}", ""]
    body = []
    for rows_ in groups.values():
        first = rows_[0]
        est = an.position_wins(rows_, first["players"])
        body.append([first["players"], label(rows_), len(rows_), est[0].pct(), est[-1].pct()])
    lines += table(["players", what, "games", "first player wins", "last player wins"], body)
    return lines


def length_section(study: Study, folder: Path, groups: dict[Any, list[Row]], what: str = "players") -> list[str]:
    figures.length_plot(study, folder, {f"{k} {what}" if what else str(k): [r["turns"] for r in rs]
                                        for k, rs in groups.items()})
    return ["## Game length", "", *image(study, "length", "Distribution of game length in turns (box: the middle "
                                         "half of the games, line: median, whiskers: 1.5 box lengths)")]


def ladder(study: Study, rows: list[Row], folder: Path) -> list[str]:
    names, ratings, head = an.ladder(rows, seed=study.seed)
    order = sorted(range(len(names)), key=lambda i: -ratings[i].value)
    figures.ladder_plot(study, folder, [names[i] for i in order], [ratings[i] for i in order])
    lines = ["## Ratings", "",
             "A Bradley-Terry model fitted to every game (draws as half a win), in Elo points with the mean at 0: "
             "a gap of 200 points means the stronger bot is expected to win 76% of their games. One drawn game "
             "per pair is added as a prior so a bot that won every game gets a finite rating; intervals are "
             "95% bootstrap intervals (games resampled within each pair, 200 times).", ""]
    lines += table(["bot", "rating", "95% interval"],
                   [[names[i], f"{ratings[i].value:+.0f}", f"[{ratings[i].low:+.0f}, {ratings[i].high:+.0f}]"]
                    for i in order])
    lines += image(study, "ladder", "Bot ladder (Bradley-Terry, Elo scale)")
    lines += ["## Head to head", ""]
    lines += table(["bot", "against", "games", "win rate of the first"],
                   [[a, b, e.n, e.pct()] for (a, b), e in sorted(head.items())])
    best, worst = names[order[0]], names[order[-1]]
    lines += ["## Reading", "",
              f"- Strongest: {best}; weakest: {worst}. Neighbouring bots whose intervals overlap are not "
              f"reliably separated by {study.games} games a pair.", *_extremes(names, head), ""]
    return lines


def _extremes(names: list[str], head: dict[tuple[str, str], Estimate]) -> list[str]:
    """A warning for bots that won every game or none: the prior, not the games, sets their distance."""
    out = []
    for name in names:
        rates = [e.value if a == name else 1 - e.value for (a, b), e in head.items() if name in (a, b)]
        if rates and (max(rates) == 0 or min(rates) == 1):
            what = "lost every game" if max(rates) == 0 else "won every game"
            out.append(f"- {name} {what}: its distance from the others is a bound set by the prior (one drawn "
                       "game a pair), and its interval is narrower than the truth.")
    return out


# The report kinds every game's rows can have (they read only the shared columns); a game adds its own, or its own
# version of one of these (``Studies.reports``).
SECTIONS: dict[str, Section] = {"seats": seats, "ladder": ladder}


def section(study: Study) -> Section:
    """The report section of a study: its game's own for the study's kind (the first game of the study that
    declares it), else the shared one (``spec.parse_study`` has checked that one of them exists)."""
    from ..core.games import get

    for game in dict.fromkeys(c.game for c in study.configs):
        own = get(game).study.reports.get(study.kind)
        if own is not None:
            return own
    return SECTIONS[study.kind]
