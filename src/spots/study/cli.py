"""``spots study``: run a built-in study or a study file on Ray, keep its rows, write its report."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from .spec import StudyError, describe_all, load_study

RAY_HELP = """\
A Ray cluster: on the head machine 'ray start --head --port=6379', on every other machine
'ray start --address=HEAD:6379' (each needs this package installed: pip install 'spots[study]');
then run 'spots study NAME --address HEAD:6379' on any of them.
"""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="spots study", description="Balance studies: many games on Ray, rows kept "
                                "in Parquet, a Markdown report with plots.", epilog=RAY_HELP,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("study", nargs="?", help="a built-in study (see --list) or a study file (.toml, .yaml)")
    p.add_argument("--list", action="store_true", help="describe the built-in studies")
    p.add_argument("--games", type=int, help="games per configuration (default: the study's)")
    p.add_argument("--seed", type=int, help="seed of every game (default: the study's)")
    p.add_argument("--workers", type=int, help="chunks played at once (default: this machine's cores, or the "
                   "cluster's CPUs with --address)")
    p.add_argument("--address", help="join the Ray cluster at HOST:PORT (or 'auto') instead of starting one")
    p.add_argument("--out", default="studies", help="folder of the results (default ./studies); a rerun resumes")
    p.add_argument("--report", help="folder of the report and figures (default: the results folder)")
    p.add_argument("--engine", default="auto", choices=("auto", "fast", "reference"),
                   help="game runner: the compiled simulator when available (auto), or force one")
    p.add_argument("--no-report", action="store_true", help="play the games, skip the report")
    p.add_argument("--report-only", action="store_true",
                   help="play nothing: report on the rows already played (an unfinished study says so)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.list:
        print(describe_all())
        return 0
    if not args.study:
        print("spots study: error: name a study (spots study --list shows them)", file=sys.stderr)
        return 2
    try:
        return run(args)
    except StudyError as exc:
        print(f"spots study: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"spots study: stopped; the games played so far are kept in {args.out}: run the same command "
              "again to resume", file=sys.stderr)
        return 130


def run(args: argparse.Namespace) -> int:
    for module in ("ray", "pyarrow", "matplotlib"):
        try:
            __import__(module)
        except ImportError:
            raise StudyError(f"studies need {module}: pip install 'spots[study]'") from None
    from .execute import run_study

    study = load_study(args.study)
    if args.games is not None:
        if args.games < 1:
            raise StudyError(f"--games must be at least 1, not {args.games}")
        study = replace(study, games=args.games)
    if args.seed is not None:
        study = replace(study, seed=args.seed)
    if args.report_only:
        from .store import ChunkStore

        store = ChunkStore(Path(args.out), study)
    else:
        store = run_study(study, Path(args.out), workers=args.workers, address=args.address, engine=args.engine,
                          progress=not args.no_progress)
    print(f"rows of {study.name} ({study.total_games} games planned) in {store.rows}")
    if not args.no_report:
        from .report import write_report

        report = write_report(study, store.load(), Path(args.report) if args.report else store.root)
        print(f"report: {report}")
    return 0
