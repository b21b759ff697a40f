"""Who meets whom: a Swiss round, a round-robin's schedule, an arena's next tables.

The choices (docs/tournaments.md):

- **Table sizes**: an event plays at tables of its size (2, 3 or 4 seats); when the players do not divide evenly
  the round has as few tables as that size allows, their sizes as even as possible (13 players at fours: 4, 3, 3, 3).
  Only at two seats is anyone left over: a **bye**, for the lowest-ranked player who has had the fewest byes, so
  byes go round.
- **Swiss** (the Monrad system, grouped by score): players are ranked by the standings; the highest unseated player
  sits with the next ones down the ranking, so neighbours in score meet. Nobody meets an opponent again while a
  seating without repeats exists (a search that tries the nearest players first); when none does (late rounds of a
  small event), each table takes the companions it has met the fewest times.
- **Seats**: at each table the player who has sat first (seat 1) least often sits first, then the next, so seats
  go round as colours do in chess.
- **Round-robin**: everyone meets everyone once at two seats (the circle method), every round's tables known at the
  start, so a turn-based event can open them all at once.
- **Arena**: whoever is waiting is seated with the players nearest in points, not with the opponent of their last
  game when anyone else is waiting.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from .scoring import DEFAULT_TIEBREAKS, GameResult, standings

SEARCH_LIMIT = 20_000  # seatings tried before a round settles for the fewest repeats
SEATS = (2, 3, 4)


@dataclass(frozen=True)
class Table:
    """A table to open: its players in seat order (one player: a bye)."""

    players: tuple[str, ...]

    @property
    def bye(self) -> bool:
        return len(self.players) == 1


def table_sizes(players: int, seats: int) -> list[int]:
    """The sizes of a round's tables, largest first: as few tables as ``seats`` allows, as even as can be."""
    if seats not in SEATS:
        raise ValueError(f"a table has {', '.join(map(str, SEATS))} seats, not {seats}")
    if players < 0:
        raise ValueError("a round needs players")
    tables = -(-players // seats)
    if tables == 0:
        return []
    small, extra = divmod(players, tables)
    return [small + 1] * extra + [small] * (tables - extra)


def meetings(results: Iterable[GameResult]) -> Counter[frozenset[str]]:
    """How often each pair of players has sat at one table."""
    met: Counter[frozenset[str]] = Counter()
    for result in results:
        for pair in itertools.combinations(result.players, 2):
            met[frozenset(pair)] += 1
    return met


def swiss_round(players: Sequence[str], results: Sequence[GameResult], seats: int = 2,
                seeds: Mapping[str, float] | None = None) -> list[Table]:
    """The next Swiss round's tables for ``players`` (those still in the event), byes last."""
    ranking = [line.player for line in standings(players, results, DEFAULT_TIEBREAKS, seeds)]
    sizes = table_sizes(len(ranking), seats)
    tables: list[Table] = []
    if sizes and sizes[-1] == 1:
        byes = Counter(r.players[0] for r in results if r.bye)
        fewest = min(byes[p] for p in ranking)
        bye = next(p for p in reversed(ranking) if byes[p] == fewest)
        ranking.remove(bye)
        sizes.pop()
        tables.append(Table((bye,)))
    groups = seat_groups(ranking, sizes, meetings(results))
    return [seat_order(group, results) for group in groups] + tables


def seat_groups(ranking: Sequence[str], sizes: Sequence[int], met: Mapping[frozenset[str], int]) -> list[list[str]]:
    """Tables of the given sizes from the ranked players: neighbours together, no repeat meeting if any seating
    avoids them all, else each table with the companions it has met least."""
    budget = [SEARCH_LIMIT]
    found = _without_repeats(list(ranking), list(sizes), met, budget)
    if found is not None:
        return found
    return _fewest_repeats(list(ranking), list(sizes), met)


def _without_repeats(rest: list[str], sizes: list[int], met: Mapping[frozenset[str], int],
                     budget: list[int]) -> list[list[str]] | None:
    if not sizes:
        return []
    first, others = rest[0], rest[1:]
    for companions in _fresh_companions(first, others, sizes[0] - 1, met):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        table = [first, *companions]
        left = [p for p in others if p not in companions]
        found = _without_repeats(left, sizes[1:], met, budget)
        if found is not None:
            return [table, *found]
        if budget[0] < 0:
            return None
    return None


def _fresh_companions(first: str, others: Sequence[str], count: int,
                      met: Mapping[frozenset[str], int]) -> Iterator[tuple[str, ...]]:
    """Sets of ``count`` players from ``others`` (nearest in the ranking first) none of whom has met another."""
    for companions in itertools.combinations(others, count):
        table = (first, *companions)
        if all(not met.get(frozenset(pair), 0) for pair in itertools.combinations(table, 2)):
            yield companions


def _fewest_repeats(rest: list[str], sizes: list[int], met: Mapping[frozenset[str], int]) -> list[list[str]]:
    tables = []
    for size in sizes:
        table = [rest.pop(0)]
        while len(table) < size:
            best = min(range(len(rest)), key=lambda i: (sum(met.get(frozenset((rest[i], p)), 0) for p in table), i))
            table.append(rest.pop(best))
        tables.append(table)
    return tables


def seat_order(group: Sequence[str], results: Iterable[GameResult]) -> Table:
    """The table's seats: who has sat first least often sits first (ties: the higher-ranked first)."""
    firsts = Counter(r.players[0] for r in results if not r.bye)
    return Table(tuple(sorted(group, key=lambda p: (firsts[p], group.index(p)))))


def round_robin(players: Sequence[str]) -> list[list[Table]]:
    """Every round of a round-robin at two seats (the circle method); an odd count gives a bye each round. At each
    table whoever has sat first less often so far sits first (then whoever sat second last round)."""
    field = list(dict.fromkeys(players))
    if len(field) < 2:
        raise ValueError("a round-robin needs two players or more")
    if len(field) % 2:
        field.append("")  # whoever meets the empty seat has the round's bye
    rounds: list[list[Table]] = []
    firsts: Counter[str] = Counter()
    last_first: set[str] = set()
    for _ in range(len(field) - 1):
        tables, now_first = [], set()
        for i in range(len(field) // 2):
            pair = [p for p in (field[i], field[-1 - i]) if p]
            if len(pair) == 2:
                pair.sort(key=lambda p: (firsts[p], p in last_first))
                firsts[pair[0]] += 1
                now_first.add(pair[0])
            tables.append(Table(tuple(pair)))
        rounds.append(sorted(tables, key=lambda t: t.bye))
        last_first = now_first
        field = [field[0], field[-1], *field[1:-1]]
    return rounds


def arena_tables(waiting: Sequence[str], points: Mapping[str, float], last_opponents: Mapping[str, Iterable[str]],
                 seats: int = 2, smaller: bool = False, smallest: int = 2) -> list[Table]:
    """Tables for the players waiting in an arena: nearest in points together, not last game's opponents again
    while others wait. Players who do not fill a table keep waiting, unless ``smaller`` (the caller has let them
    wait long enough): then they sit at a smaller table, of ``smallest`` at least (1: bots fill the rest)."""
    if seats not in SEATS:
        raise ValueError(f"a table has {', '.join(map(str, SEATS))} seats, not {seats}")
    ranking = sorted(dict.fromkeys(waiting), key=lambda p: -points.get(p, 0.0))
    sizes = [seats] * (len(ranking) // seats)
    left = len(ranking) - seats * len(sizes)
    if smaller and left >= smallest:
        sizes.append(left)
    seated = sum(sizes)
    met: Counter[frozenset[str]] = Counter()
    for player, opponents in last_opponents.items():
        for other in opponents:
            met[frozenset((player, other))] = 1
    # The waiting player who has waited longest is first in ``waiting``: the ones left over are the last to come.
    chosen = set(sorted(ranking, key=list(waiting).index)[:seated])
    groups = seat_groups([p for p in ranking if p in chosen], sizes, met)
    return [Table(tuple(group)) for group in groups]
