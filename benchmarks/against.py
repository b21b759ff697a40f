"""Run a benchmark on this tree and on another commit's, alternating, so both are measured on one machine at once.

    python benchmarks/against.py REV -- benchmarks/analysis_speed.py --games 5
    python benchmarks/analysis_speed.py --games 5 --against REV      # the same, from the benchmark itself

The other commit's files are written to a temporary folder (``git archive``); each run starts a fresh Python with
that tree's ``src`` first on its path, so it imports that commit's code with this environment's packages. Runs
alternate (this tree, then the other, ``--runs`` times), so a machine that gets busier or quieter during the
measurement weighs on both alike. Each run's output is printed under its label.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from io import BytesIO
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def tree_at(rev: str, into: Path) -> Path:
    """The files of commit ``rev`` of this repository, written under ``into``."""
    archive = subprocess.run(["git", "-C", str(HERE), "archive", "--format=tar", rev], capture_output=True,
                             check=False)
    if archive.returncode != 0:
        raise SystemExit(f"cannot read commit {rev!r}: {archive.stderr.decode().strip()}")
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


def with_src(src: Path) -> dict[str, str]:
    """This environment with ``src`` first on Python's path: the code of that tree is the code imported."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(src), os.environ.get("PYTHONPATH", "")])}


def run(tree: Path, script: str, args: Sequence[str]) -> str:
    env = with_src(tree / "src")
    done = subprocess.run([sys.executable, str(tree / script), *args], env=env, capture_output=True, text=True,
                          check=False, cwd=tree)
    return done.stdout + (f"\n(exit {done.returncode}) {done.stderr[-2000:]}" if done.returncode else "")


def alternate(rev: str, script: str, args: Sequence[str], runs: int = 1) -> None:
    """Print ``script args`` run on this tree and on ``rev``'s, alternating, ``runs`` times each."""
    with tempfile.TemporaryDirectory(prefix="spots-against-") as tmp:
        other = tree_at(rev, Path(tmp))
        label = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"], capture_output=True,
                               text=True, check=False).stdout.strip()
        for k in range(1, runs + 1):
            for name, tree in ((f"this tree ({label} and its changes)", HERE), (f"commit {rev}", other)):
                print(f"--- run {k}: {name}", flush=True)
                print(run(tree, script, args).rstrip(), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     usage="%(prog)s REV [--runs N] -- SCRIPT [ARGS...]")
    parser.add_argument("rev", help="the commit to measure beside this tree")
    parser.add_argument("--runs", type=int, default=1, help="runs of each, alternating")
    # everything after '--' is the benchmark and its own options, whatever order this script's options came in
    mine, command = (sys.argv[1:], []) if "--" not in sys.argv else (
        sys.argv[1:sys.argv.index("--")], sys.argv[sys.argv.index("--") + 1:])
    args = parser.parse_args(mine)
    if not command:
        parser.error("give the benchmark after --, e.g. -- benchmarks/analysis_speed.py --games 5")
    alternate(args.rev, command[0], command[1:], args.runs)


if __name__ == "__main__":
    main()
