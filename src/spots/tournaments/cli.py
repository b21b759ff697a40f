"""``spots tournament study`` (simulate events of bots, docs/tournaments.md) and ``spots tournament report`` (the
figures of saved studies, merged)."""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from . import study as sim

__all__ = ["add_commands"]


def cmd_study(args: argparse.Namespace) -> int:
    groups = tuple(args.groups.split(","))
    for group in groups:
        sim.make_entrant(group, 0)  # a bad group is refused before anything is played
    if args.per_group < 1 or args.rounds < 1:
        raise ValueError(f"--per-group and --rounds must be at least 1, not {args.per_group} and {args.rounds}")
    study = sim.Study(groups, args.per_group, args.rounds, args.seats, args.seed)
    started = time.monotonic()
    results = sim.run_study(study, args.events, args.luck_events, args.jobs)
    print(sim.format_rows(study, results, sim.summarise(results, study.per_group), sim.paired_differences(results)))
    print(f"\n{args.events} events under each dice played in {time.monotonic() - started:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({"study": asdict(study), "events": [asdict(r) for r in results]}))
        print(f"written to {args.json}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    study: sim.Study | None = None
    events: dict[tuple[int, str], sim.EventResult] = {}
    for path in args.files:
        try:
            doc = json.loads(Path(path).read_text())
            this = sim.Study(**{**doc["study"], "groups": tuple(doc["study"]["groups"])})
            found = [sim.EventResult(**e) for e in doc["events"]]
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path} is not a saved tournament study ({exc})") from None
        if study is not None and this != study:
            raise ValueError(f"{path} is another study ({this}) than the first file's ({study}); not merged")
        study = this
        for event in found:  # an event measured with luck is kept over the same event without
            key = (event.event, event.dice)
            if key not in events or event.luck:
                events[key] = event
    assert study is not None
    results = list(events.values())
    print(sim.format_rows(study, results, sim.summarise(results, study.per_group), sim.paired_differences(results)))
    return 0


def add_commands(sub: Any) -> None:
    p = sub.add_parser("tournament", help="tournaments: study which format lets the better player win")
    verbs = p.add_subparsers(dest="verb", required=True)
    s = verbs.add_parser("study", help="simulate Swiss events of bots of known strength, plain and duplicate dice")
    s.add_argument("--groups", default=",".join(sim.DEFAULT_GROUPS),
                   help="bots from strongest to weakest, NAME or NAME~NOISE (default %(default)s)")
    s.add_argument("--per-group", type=int, default=4)
    s.add_argument("--rounds", type=int, default=5)
    s.add_argument("--seats", type=int, default=2, choices=(2, 3, 4))
    s.add_argument("--events", type=int, default=200, help="events under each dice")
    s.add_argument("--luck-events", type=int, default=0,
                   help="of those, how many are analysed by the coach for the luck tie-break (about 3 minutes each)")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--jobs", type=int, default=1, help="worker processes")
    s.add_argument("--json", help="save every event's standings here (for spots tournament report)")
    s.set_defaults(run=cmd_study)
    r = verbs.add_parser("report", help="the figures of saved studies of the same settings, merged")
    r.add_argument("files", nargs="+")
    r.set_defaults(run=cmd_report)
