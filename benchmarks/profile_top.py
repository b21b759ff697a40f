"""Sample a running process with py-spy and print the top of its profile: where its CPU time goes.

    python benchmarks/profile_top.py PID --seconds 20            # sample, then print the top
    python benchmarks/profile_top.py --read profile.txt         # the top of a profile written before

Used by ``web_load.py --profile`` on the server under load. py-spy (the ``test`` extra) samples from outside
the process, so the server runs unchanged; only samples where a thread was working are kept (not idle waits).
The top lists functions by their own time (where the CPU was) and by the time spent in them and what they
called, the project's functions first, in percent of all samples.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

LINE = re.compile(r":\d+\)$")


def start(pid: int, seconds: float, out: Path, rate: int = 50) -> subprocess.Popen[bytes]:
    """Begin sampling ``pid`` for ``seconds`` into ``out`` (py-spy's raw format: one stack and count a line)."""
    spy = shutil.which("py-spy", path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    if spy is None:
        raise SystemExit("--profile needs py-spy: pip install py-spy (it is in the test extra)")
    return subprocess.Popen([spy, "record", "--pid", str(pid), "--duration", str(max(1, round(seconds))),
                             "--rate", str(rate), "--format", "raw", "--output", str(out), "--nonblocking"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def counts(raw: Path) -> tuple[Counter[str], Counter[str], int]:
    """Samples by function: its own, inclusive (once per stack), and the total."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack or not n.isdigit():
            continue
        frames = [LINE.sub(")", frame) for frame in stack.split(";")]
        total += int(n)
        own[frames[-1]] += int(n)
        for frame in set(frames):
            inclusive[frame] += int(n)
    return own, inclusive, total


def top(raw: Path, n: int = 15) -> str:
    """The profile's top ``n`` by own time, and the project's top ``n`` by inclusive time."""
    own, inclusive, total = counts(raw)
    if not total:
        return "no samples (the process was idle, or py-spy could not read it)"
    lines = [f"{total} samples; own time:"]
    lines += [f"  {100 * k / total:5.1f}%  {name}" for name, k in own.most_common(n)]
    lines.append("the project's functions, with what they call:")
    ours = [(name, k) for name, k in inclusive.most_common() if "spots/" in name and "server.py" not in name]
    lines += [f"  {100 * k / total:5.1f}%  {name}" for name, k in ours[:n]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pid", type=int, nargs="?", help="the process to sample")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--read", type=Path, help="print the top of this raw profile instead of sampling")
    parser.add_argument("--out", type=Path, default=Path("profile.txt"), help="where the raw samples are kept")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args(argv)
    if args.read is None:
        if args.pid is None:
            parser.error("give a PID to sample, or --read FILE")
        start(args.pid, args.seconds, args.out).wait()
        args.read = args.out
    print(top(args.read, args.top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
