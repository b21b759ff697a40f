"""The tournament director: starts events at their time, records each finished game's places, opens the next
round when a round is over, seats an arena's waiting players, and ends events. Nobody has to press anything.

Why one director: every ``DIRECT_S`` each server process tries; only the one holding the ``tournaments`` lease (alone
on SQLite: always) acts, and each step is a compare-and-set on the event's status and round written with the
round's pairing in one transaction (``TournamentStore.move_with_games``), so two processes never pair a round twice.
A round's games are stored before their tables are made (a placeholder table id): a process that stops between the
two leaves the pairing, and the next pass makes the tables that are missing. The formats' rules are
``spots.tournaments`` (pure functions of the results); this module only stores and seats.
"""

from __future__ import annotations

import hashlib
import logging
import time
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from ...core.commitment import Commitment, digest
from ...tournaments import GameResult, Table, arena_tables, round_robin, swiss_round
from ...tournaments.scoring import arena_points
from ..context import Context
from ..fairplay.resign import out_of_time
from ..games import hosted
from ..guard import Refused
from ..notices.service import Notices
from ..ratings.service import last_for_absence, places
from ..tables.periodic import Periodic
from .settings import Settings, filler, fillers, pace_of, rules_for
from .store import WAITING, EntrantRow, TournamentGame, TournamentRow

if TYPE_CHECKING:
    from ..coach.service import Coach

log = logging.getLogger("spots.web")
DIRECT_S = 1.0
LEASE = "tournaments"  # the lease (``TableStore.bot_lease``) of the process that directs
ARENA_WAIT_S = 30.0  # an arena player waiting this long at a table size with too few others sits at a smaller table
MEASURING = 2  # events' games whose luck the coach computes at once (its reports for people go on beside them)
NO_RESULT = ("abandoned", "quarantined")  # a table that ended without a result: everyone shares the place


def results_of(games: list[TournamentGame]) -> list[GameResult]:
    """The finished games as the formats read them (the places past the players' are the filled seats')."""
    return [GameResult(g.round, g.players, g.places[:len(g.players)], others=g.places[len(g.players):],
                       scores=g.scores if g.scores is not None and len(g.scores) == len(g.places) else None,
                       luck=g.luck if g.luck is not None and len(g.luck) == len(g.players) else None)
            for g in games if g.places is not None]


def unmeasured(games: list[TournamentGame]) -> list[TournamentGame]:
    """The finished games played at a table whose luck the coach has not measured yet."""
    return [g for g in games if g.places is not None and g.luck is None and not g.table_id.startswith(WAITING)]


def opened(event_id: str, number: int, tables: list[Table], settings: Settings) -> list[Any]:
    """A round's games to store: a bye is over at once (a win), unless bots fill the tables (then it is a game)."""
    return [(waiting_table(event_id, number, i), number, t.players,
             (1,) if t.bye and not settings.bots_fill else None) for i, t in enumerate(tables)]


def waiting_table(tournament_id: str, round_: int, index: int) -> str:
    return f"{WAITING}{tournament_id}:{round_}:{index}"


class Director(Periodic):
    """Runs the events (``start`` in the app's lifespan, ``stop`` at its end)."""

    every, what = DIRECT_S, "the tournament director"

    def __init__(self, ctx: Context, notices: Notices | None = None, coach: Coach | None = None) -> None:
        super().__init__(ctx.hub)
        self.ctx, self.notices, self.coach = ctx, notices, coach
        self.version = 0  # bumped on every change an event page shows
        self.measuring = 0

    async def step(self) -> None:
        await self.direct()

    async def _run(self, call: Any, *args: Any) -> Any:
        return await self.hub.writer.run(call, *args)

    async def direct(self, now: float | None = None) -> None:
        """One pass over every event being run."""
        if not await self._run(self.hub.store.bot_lease, LEASE):
            return
        now = time.time() if now is None else now
        self.measuring = 0  # reports asked for the events' luck in this pass, still being computed
        await self.collect(now)
        for event in await self._run(self.hub.store.tournaments, ("open", "playing"), 500):
            await self.advance(event, now)

    # -------------------------------------------------------------- results

    async def collect(self, now: float) -> None:
        """Store the places of every event game whose table has ended."""
        for table_id, status, seats in await self._run(self.hub.store.unfinished_games):
            if status == "over":
                room = await self.hub.table(table_id)
                if room is None:
                    continue
                summary = room.kind.spec.summarize(room.state)
                resigned = room.row.resigned_seats()
                ranks = last_for_absence(places(summary.scores, summary.winner), None,
                                         [*resigned, *out_of_time(room)])
                scores: list[float] | None = [float(s) for s in summary.scores]
            elif status in NO_RESULT:
                ranks, scores = [1] * seats, None
            else:
                continue
            if await self._run(self.hub.store.finish_tournament_game, table_id, ranks, now, scores):
                self.version += 1

    async def measure(self, games: list[TournamentGame]) -> bool:
        """Ask the coach for the luck of each finished game not measured yet, and store what it has (a game whose
        table is gone, or whose report failed, counts no luck for anyone); True when every game is measured.

        At most ``MEASURING`` reports for the events are computed at once (counted over one pass of every event), so
        the events' luck leaves the coach's other places (``AT_ONCE``) to the players asking "How did it go?"."""
        left = unmeasured(games)
        for game in list(left):
            if self.measuring >= MEASURING:
                break
            luck = await self._luck_of(game)
            if luck is None:
                self.measuring += 1
            elif await self._run(self.hub.store.measure_luck, game.table_id, luck):
                self.version += 1
                left.remove(game)
        return not left

    async def _luck_of(self, game: TournamentGame) -> list[float] | None:
        room = await self.hub.table(game.table_id)
        if room is None or self.coach is None:
            return [0.0] * len(game.players)
        try:
            answer = await self.coach.answer(room)
        except Refused:
            return None  # the coach is busy with other games: the next pass asks again
        if answer["status"] == "failed":
            log.warning("table %s: no luck for its event's tie-break (%s)", game.table_id, answer.get("message"))
            return [0.0] * len(game.players)
        if answer["status"] != "ready":
            return None
        by_seat = {p["seat"]: float(p["luck"]) for p in answer["report"]["players"]}
        return [by_seat.get(seat, 0.0) for seat in range(len(game.players))]

    # -------------------------------------------------------------- moving events on

    async def advance(self, event: TournamentRow, now: float) -> None:
        settings = Settings.of(event.settings)
        entrants = await self._run(self.hub.store.entrants, event.id)
        games = await self._run(self.hub.store.tournament_games, event.id)
        await self.make_tables(event, settings, entrants, games)
        if event.status == "open":
            if now >= event.starts:
                await self.begin(event, settings, entrants, now)
            return
        open_games = [g for g in games if g.places is None]
        measured = await self.measure(games) if settings.luck else True
        if settings.format == "arena":
            if now < event.starts + settings.minutes * 60:
                await self.seat_arena(event, settings, entrants, games, now)
            elif not open_games:
                await self._move(event, "over", event.round, [], now)
            return
        if open_games:
            return
        if settings.format == "swiss" and event.round < settings.rounds:
            if now < event.starts + event.round * settings.round_every * 60:
                return  # the next round has a set time, not come yet
            active = [e.entrant for e in entrants if not e.withdrawn]
            if len(active) >= 2:
                await self.open_swiss(event, settings, active, results_of(games), event.round + 1, now)
                return
        if measured:  # with luck as a tie-break, the final standings wait for the coach's luck of every game
            await self._move(event, "over", event.round, [], now)

    async def begin(self, event: TournamentRow, settings: Settings, entrants: list[EntrantRow], now: float) -> None:
        active = [e.entrant for e in entrants if not e.withdrawn]
        if len(active) < 2:
            await self._move(event, "cancelled", 0, [], now, status="open")
            return
        if settings.format == "swiss":
            await self.open_swiss(event, settings, active, [], 1, now, status="open")
        elif settings.format == "round-robin":
            games = [game for number, tables in enumerate(round_robin(active), 1)
                     for game in opened(event.id, number, tables, settings)]
            await self._move(event, "playing", 1, games, now, status="open")
        else:
            await self._move(event, "playing", 0, [], now, status="open")

    async def open_swiss(self, event: TournamentRow, settings: Settings, active: list[str],
                         results: list[GameResult], number: int, now: float, status: str = "playing") -> None:
        games = opened(event.id, number, swiss_round(active, results, settings.seats), settings)
        await self._move(event, "playing", number, games, now, status=status)

    async def seat_arena(self, event: TournamentRow, settings: Settings, entrants: list[EntrantRow],
                         games: list[TournamentGame], now: float) -> None:
        """Seat the arena's waiting players (those at no unfinished table), the longest waiting first."""
        busy = {p for g in games if g.places is None for p in g.players}
        since = {e.entrant: max(e.joined, event.starts) for e in entrants}
        last: dict[str, list[str]] = {}
        for g in games:
            for p in g.players:
                if g.finished is not None:
                    since[p] = max(since.get(p, 0.0), g.finished)
                last[p] = [o for o in g.players if o != p]
        waiting = sorted((e.entrant for e in entrants if not e.withdrawn and e.entrant not in busy),
                         key=lambda p: since.get(p, now))
        results = results_of(games)
        points = {p: sum(arena_points(results, p)) for p in waiting}
        smaller = settings.bots_fill or any(now - since.get(p, now) >= ARENA_WAIT_S for p in waiting)
        tables = arena_tables(waiting, points, last, settings.seats, smaller, 1 if settings.bots_fill else 2)
        if tables:
            number = event.round + 1
            made = [(waiting_table(event.id, number, i), number, t.players, None) for i, t in enumerate(tables)]
            await self._move(event, "playing", number, made, now)

    async def _move(self, event: TournamentRow, new_status: str, new_round: int, games: list[Any], now: float,
                    status: str = "playing") -> None:
        if await self._run(self.hub.store.move_with_games, event.id, status, event.round, new_status, new_round,
                           games, now):
            self.version += 1
            log.info("tournament %s: %s, round %s, %d games", event.id, new_status, new_round, len(games))

    # -------------------------------------------------------------- tables

    async def make_tables(self, event: TournamentRow, settings: Settings, entrants: list[EntrantRow],
                          games: list[TournamentGame]) -> None:
        """Make the tables of the event's games that have none yet (their ids are placeholders)."""
        by_id = {e.entrant: e for e in entrants}
        for game in games:
            if game.table_id.startswith(WAITING) and game.places is None:
                table_id = await self.table(event, settings, [by_id[p] for p in game.players], game.round)
                if await self._run(self.hub.store.table_made, game.table_id, table_id):
                    self.version += 1

    async def table(self, event: TournamentRow, settings: Settings, players: list[EntrantRow], round_: int) -> str:
        """A table of the event's game: each seat already its entrant's (an account's, or a server bot)."""
        kind = hosted()[event.game]
        seats = [{"kind": "bot", "bot": e.bot, "name": e.name} if e.bot else
                 {"kind": "human", "name": e.name, "account": e.account, "claimed": True} for e in players]
        seats += [{"kind": "bot", "bot": filler(kind), "name": ""}] * fillers(settings, len(players))
        rules = rules_for(kind, settings, len(seats))
        dice: Any = None
        commitment = None
        if settings.duplicate and kind.spec.dealing is not None:
            key = hashlib.sha256(f"{event.secret}:{round_}".encode()).hexdigest()
            rules, dice = kind.spec.dealing.deal(rules, key)  # every table of the round: the same deal
            shown = (datetime.now(UTC).date() + timedelta(days=1)).isoformat()
            commitment = Commitment(digest(key), (), key, deal=True, reveal_from=shown)
        extra: dict[str, Any] = {} if dice is None else {"dice": dice, "commitment": commitment}
        room = await self.hub.create(kind, rules, seats, client=f"tournament {event.id}", pace=pace_of(settings),
                                     rated=settings.rated, hints=False, house=True, **extra)
        if self.notices is not None:  # "Round 3 of the club cup has started": each person's seat link by e-mail
            for seat, entrant in enumerate(players):
                if entrant.account is not None:
                    self.notices.table_ready(room, seat, event.name, 0 if settings.format == "arena" else round_)
        return room.id

