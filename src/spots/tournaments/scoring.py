"""Points and standings: what a finished game is worth to each player, and who is ahead after a round.

The choices (docs/tournaments.md):

- **Places**: the winner is first, the others follow by their score (dogs scored, discs, ...); equal scores share a
  place (1, 2, 2, 4). A game ended by the turn limit has no winner: every place follows the scores.
- **Points** (Swiss and round-robin): the share of the table's opponents a player finished ahead of, half for each
  tied. A win is 1 at a table of any size, last is 0, so tables of 3 and 4 in one round weigh the same; at two seats
  this is chess's 1, ½, 0. A bye is worth a win (``BYE_POINTS``).
- **Tie-breaks**, in the event's order: ``buchholz`` (the sum over one's games of the opponents' mean points),
  ``sonneborn-berger`` (the same sum, each game weighted by the points earned in it), ``wins`` (games won outright),
  ``luck`` (the coach's measure of the dice a player had, summed over the analysed games: the one who needed less
  luck goes first). A bye, and a game whose only opponents were bots filling the table, count as a game against a
  virtual opponent with the player's own points (as FIDE's rules do for an unplayed round). The last word is the
  seed (rating, then sign-up order), so no two players share a rank. Bots that fill a table are opponents to beat
  (``GameResult.others``), never in the standings.
- **Duplicate dice** (every table of a round dealt the same keyed dice): each entrant's result is also set against
  everyone who had those dice, the players in the same seat at tables of the same size in the same round
  (``same_dice``): their rank among them by score and the share of them outscored, half for each tie (duplicate
  bridge's matchpoints). It is shown beside the standings, not a tie-break.
- **Arena points**: 2 for a win, 1 for a draw, 0 for a loss, times the share beaten at bigger tables; after two wins
  in a row a player is *on fire* and each game counts double until one is not won (lichess's streak).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

BYE_POINTS = 1.0
TIEBREAKS = ("buchholz", "sonneborn-berger", "wins", "luck")
DEFAULT_TIEBREAKS = ("buchholz", "sonneborn-berger", "wins")
ARENA_WIN = 2.0
STREAK = 2  # wins in a row that put a player on fire


@dataclass(frozen=True)
class GameResult:
    """One finished table of an event: its round, its players in seat order and their places (1 is first).

    A bye is a game of one player and nobody else. ``others``: the places of the seats that server bots filled
    (an event whose organiser lets bots fill a short table): opponents to beat, but not entrants, so they have no
    standing. ``luck``: the coach's luck of each player (its sum over the game's chance events), when analysed.
    ``scores``: every seat's score (the players', then the filled seats'), when known."""

    round: int
    players: tuple[str, ...]
    places: tuple[int, ...]
    luck: tuple[float, ...] | None = None
    others: tuple[int, ...] = ()
    scores: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if len(self.players) != len(self.places) or not self.players:
            raise ValueError(f"a game needs one place per player: {self.players} against {self.places}")
        if len(set(self.players)) != len(self.players):
            raise ValueError(f"a player sits twice at one table: {self.players}")
        if self.luck is not None and len(self.luck) != len(self.players):
            raise ValueError(f"a game needs one luck per player: {self.players} against {self.luck}")
        if self.scores is not None and len(self.scores) != len(self.every_place):
            raise ValueError(f"a game needs one score per seat: {self.every_place} against {self.scores}")

    @property
    def bye(self) -> bool:
        return len(self.players) == 1 and not self.others

    @property
    def every_place(self) -> tuple[int, ...]:
        """The places of every seat, the players' then the filled seats'."""
        return self.places + self.others

    def seat_of(self, player: str) -> int:
        return self.players.index(player)

    def won(self, player: str) -> bool:
        """Won outright: first, alone."""
        place = self.places[self.seat_of(player)]
        return not self.bye and place == 1 and self.every_place.count(1) == 1


@dataclass
class Standing:
    """A player's line in the standings."""

    player: str
    rank: int = 0
    points: float = 0.0
    games: int = 0
    wins: int = 0
    byes: int = 0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    luck: float = 0.0
    opponents: list[str] = field(default_factory=list)

    def tiebreak(self, name: str) -> float:
        """A tie-break's value, larger is better (luck is negated: less luck ranks first)."""
        return {"buchholz": self.buchholz, "sonneborn-berger": self.sonneborn_berger, "wins": float(self.wins),
                "luck": -self.luck}[name]


def places(winner: int | None, scores: Sequence[float]) -> tuple[int, ...]:
    """Finishing places from a game's winner (None: nobody won outright) and every seat's score."""
    order = [(0 if seat == winner else 1, -score) for seat, score in enumerate(scores)]
    return tuple(1 + sum(other < mine for other in order) for mine in order)


def game_points(result: GameResult, player: str) -> float:
    """What the game is worth to ``player``: the share of opponents finished ahead of, half for each tie."""
    if result.bye:
        return BYE_POINTS
    mine, every = result.places[result.seat_of(player)], result.every_place
    ahead = sum(place > mine for place in every)
    tied = sum(place == mine for place in every) - 1
    return (ahead + tied / 2) / (len(every) - 1)


def standings(players: Iterable[str], results: Iterable[GameResult], tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
              seeds: Mapping[str, float] | None = None) -> list[Standing]:
    """Every player's line, best first. ``seeds``: the last tie-break (higher first; sign-up order after it)."""
    unknown = [name for name in tiebreaks if name not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-break {unknown[0]!r}; allowed: {', '.join(TIEBREAKS)}")
    order = list(dict.fromkeys(players))
    lines = {player: Standing(player) for player in order}
    games = [r for r in results if all(p in lines for p in r.players)]
    for result in games:
        for seat, player in enumerate(result.players):
            line = lines[player]
            line.points += game_points(result, player)
            line.games += 1
            line.byes += result.bye
            line.wins += result.won(player)
            line.luck += result.luck[seat] if result.luck else 0.0
            line.opponents += [p for p in result.players if p != player]
    for result in games:
        for player in result.players:
            earned = game_points(result, player)
            others = [p for p in result.players if p != player]
            strength = (sum(lines[p].points for p in others) / len(others)) if others else lines[player].points
            lines[player].buchholz += strength
            lines[player].sonneborn_berger += earned * strength
    seeds = seeds or {}
    ranked = sorted(order, key=lambda p: (-lines[p].points, *(-lines[p].tiebreak(t) for t in tiebreaks),
                                          -seeds.get(p, 0.0), order.index(p)))
    for rank, player in enumerate(ranked, 1):
        lines[player].rank = rank
    return [lines[p] for p in ranked]


@dataclass(frozen=True)
class SameDice:
    """A player's result against everyone else who had the same dice: rank by score among the ``of`` players who
    had them (equal scores share a rank), and the share of the others outscored, half for each tie."""

    rank: int
    of: int
    share: float


def same_dice(results: Sequence[GameResult]) -> list[tuple[SameDice | None, ...]]:
    """For each result, each player's ``SameDice`` (None: no score, or nobody else had those dice).

    In a duplicate round the same dice fall for the same seat at every table of the same size, so a seat's dice
    are named by (round, table size, seat)."""
    held: dict[tuple[int, int, int], list[float]] = defaultdict(list)
    for result in results:
        if result.scores is not None and not result.bye:
            for seat, score in enumerate(result.scores):
                held[result.round, len(result.scores), seat].append(score)
    found: list[tuple[SameDice | None, ...]] = []
    for result in results:
        seats: list[SameDice | None] = []
        for seat in range(len(result.players)):
            if result.scores is None or result.bye:
                seats.append(None)
                continue
            everyone, mine = held[result.round, len(result.scores), seat], result.scores[seat]
            if len(everyone) < 2:
                seats.append(None)
                continue
            above = sum(score > mine for score in everyone)
            below = sum(score < mine for score in everyone)
            tied = len(everyone) - above - below - 1
            seats.append(SameDice(1 + above, len(everyone), (below + tied / 2) / (len(everyone) - 1)))
        found.append(tuple(seats))
    return found


def arena_points(results: Iterable[GameResult], player: str) -> list[float]:
    """The points each of ``player``'s arena games earned them, in the order played, streaks doubled."""
    earned, streak = [], 0
    for result in results:
        if player not in result.players:
            continue
        points = ARENA_WIN * game_points(result, player)
        earned.append(points * 2 if streak >= STREAK else points)
        streak = streak + 1 if result.won(player) else 0
    return earned


def arena_standings(players: Iterable[str], results: Sequence[GameResult]) -> list[Standing]:
    """An arena's standings: points with streaks, then wins, then fewer games (more per game), then sign-up order."""
    order = list(dict.fromkeys(players))
    lines = {player: Standing(player) for player in order}
    for player in order:
        lines[player].points = sum(arena_points(results, player))
    for result in results:
        for player in result.players:
            if player in lines:
                lines[player].games += 1
                lines[player].wins += result.won(player)
    by_player: dict[str, int] = defaultdict(int, {p: i for i, p in enumerate(order)})
    ranked = sorted(order, key=lambda p: (-lines[p].points, -lines[p].wins, lines[p].games, by_player[p]))
    for rank, player in enumerate(ranked, 1):
        lines[player].rank = rank
    return [lines[p] for p in ranked]
