"""What the engine's speed buys a bot: the same search with the time it has, against itself at the old speed.

    python benchmarks/speed_buys.py --time-ms 50 --ratio 2.63 --games 200 --jobs 2

The engine now makes ``--ratio`` times the decisions per CPU second it made at commit 6e3a621 (greedy self-play,
``benchmarks/selfplay_speed.py --bot greedy --against 6e3a621``). A search with a time budget turns that into
positions searched. So as to hold everything but the speed equal, both seats play today's ``expectimax`` (its
``time_ms`` budget, no node cap): one with ``--time-ms`` a decision ("now"), the other with ``--time-ms / --ratio``
("at the old speed": the positions the same search would reach in that time on an engine ``--ratio`` times
slower). (The old commit's own search was another, simpler one, so it cannot measure this.) Games come in pairs on
one keyed deal with the seats swapped, so both bots meet the same dice from both seats. Printed: positions
searched per decision (median, and the ratio), decision time (median, p99), and the "now" bot's share of the wins
with its 95% Wilson interval. Wall-clock budgets: run it on a quiet machine, ``--jobs`` at most the cores.
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from spots.arena import percentile, wilson
from spots.core.games import get
from spots.core.play import play_out

NAMES = ("now", "at the old speed")


class Counted:
    """A bot that notes the positions its search created (``used``) and the time of each decision."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.name = bot, bot.name
        self.used: list[int] = []
        self.seconds: list[float] = []

    def choose(self, state: Any) -> str:
        start = time.perf_counter()
        move = self.bot.choose(state)
        self.seconds.append(time.perf_counter() - start)
        self.used.append(self.bot.used)
        return str(move)


def play_pair_game(job: tuple[int, int, float, float, str]) -> dict[str, Any]:
    """Game ``game``: "now" sits first in even games, second in odd ones; a pair of games shares one deal."""
    game, seed, fast_ms, slow_ms, bot = job
    spec = get("spots")
    rules = spec.make_rules(players=2)
    assert spec.dealing is not None
    rules, dice = spec.dealing.deal(rules, f"speed-buys:{seed}:{game // 2}")
    first = game % 2  # the seat of "now"
    budgets = {first: fast_ms, 1 - first: slow_ms}
    bots = [Counted(spec.make_bot(bot, seed=seed * 1000 + game * 2 + s, nodes=10**9, time_ms=budgets[s]))
            for s in range(2)]
    state = play_out(spec.new_state(rules), bots, dice)
    winner = spec.outcome(state).winner
    return {"now_won": None if winner is None else winner == first,
            "used": {NAMES[0]: bots[first].used, NAMES[1]: bots[1 - first].used},
            "seconds": {NAMES[0]: bots[first].seconds, NAMES[1]: bots[1 - first].seconds}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time-ms", type=float, default=50.0, help="the 'now' bot's time a decision (ms)")
    parser.add_argument("--ratio", type=float, default=2.63, help="the engine's speed-up over the old commit")
    parser.add_argument("--games", type=int, default=200, help="games (an even number: pairs on one deal)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bot", default="expectimax", help="a Spots bot with time_ms and nodes budgets")
    args = parser.parse_args()
    slow_ms = args.time_ms / args.ratio
    work = [(g, args.seed, args.time_ms, slow_ms, args.bot) for g in range(args.games + args.games % 2)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(play_pair_game, work))
    print(f"{args.bot}: 'now' {args.time_ms:g} ms a decision against 'at the old speed' {slow_ms:.1f} ms "
          f"(speed ratio {args.ratio:g}), {len(results)} two-player games, pairs on one keyed deal, seed {args.seed}")
    medians = {}
    for name in NAMES:
        used = sorted(u for r in results for u in r["used"][name])
        seconds = sorted(s * 1000 for r in results for s in r["seconds"][name])
        medians[name] = statistics.median(used)
        print(f"  {name:>16}: positions a decision median {medians[name]:,.0f} (p10 {percentile(used, 0.1):,.0f},"
              f" p90 {percentile(used, 0.9):,.0f}); decision ms median {statistics.median(seconds):.1f},"
              f" p99 {percentile(seconds, 0.99):.1f}; {len(used):,} decisions")
    print(f"  positions a decision, now / at the old speed: {medians[NAMES[0]] / medians[NAMES[1]]:.2f}")
    won = sum(1.0 if r["now_won"] else 0.5 if r["now_won"] is None else 0.0 for r in results)
    low, high = wilson(won, len(results))
    print(f"  'now' wins {won:g} of {len(results)}: {won / len(results):.1%} [{low:.1%}, {high:.1%}]")


if __name__ == "__main__":
    main()
