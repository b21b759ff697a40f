"""Ratings of people and bots, per game, from the finishing places of rated tables (OpenSkill, Plackett-Luce).

Why Plackett-Luce: it rates any number of players (1 to 4 here) by their order at
the end, with a mean ``mu`` and an uncertainty ``sigma`` per player, and it is the
OpenSkill package's default model. A rating is always shown as ``mu ± 2 sigma``
(about 95% sure the skill is in that range) and a leaderboard is ordered by the
conservative ``mu - 2 sigma``, so a lucky first game does not top it.

Only the server rates, from the finished record: a table counts when it was
created rated, every human seat is a signed-in account, and nobody sits twice.
Bots are rated too but never move: their ratings are the bot ladder's
(``bot_ladder.json``, measured by ``scripts/bot_ladder.py``), so they anchor
the scale. A rated table retired because a player stopped playing counts that
player (whose turn it was) as last. Each table's changes are stored in one
transaction keyed by the table, so it counts once however many processes finish it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce

from ...i18n import N_
from ...tournaments.scoring import places as finishing_places
from ..botapi.store import ladder_pool
from ..fairplay import resign
from ..games import hosted
from ..talk.store import Change, Rating
from ..writer import Unavailable

if TYPE_CHECKING:
    from ..store import SeatRow
    from ..tables.hub import Hub
    from ..tables.rooms import Conn, Room

log = logging.getLogger("spots.web")
MODEL_SETTINGS: dict[str, Any] = {}  # OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
MODEL = PlackettLuce(**MODEL_SETTINGS)
LADDER_FILE = Path(__file__).with_name("bot_ladder.json")
RELIABILITY_OVER = 100  # the latest rated games the reliability figure counts
FINISHING = ("finished", "resigned")  # endings that count as finishing (not: ran out of time, left)


def places(scores: Sequence[int], winner: int | None) -> list[int]:
    """Each seat's finishing place (1 = first): the winner first, then by score; equal scores share a place."""
    return list(finishing_places(winner, scores))  # one rule for rated tables and tournaments


def last_for_absence(ranks: Sequence[int], leaver: int | None, ran_out: Sequence[int]) -> list[int]:
    """The places once absence counts: who resigned or ran out of time (``ran_out``, the resigned first) finishes
    below everyone who did not (the first of them last of all), and the one whose turn it was when a table was
    retired below them all. The places are counted again from 1 (equal places stay equal)."""
    absent = [seat for seat in ran_out if 0 <= seat < len(ranks) and seat != leaver]

    def key(seat: int) -> tuple[int, int]:
        if seat == leaver:
            return (2, 0)
        if seat in absent:
            return (1, -absent.index(seat))  # the later one ran out (or resigned), the better its place
        return (0, ranks[seat])

    return [1 + sum(key(other) < key(seat) for other in range(len(ranks))) for seat in range(len(ranks))]


def shown(mu: float, sigma: float) -> str:
    """A rating as people read it: the mean and twice the uncertainty."""
    return f"{mu:.1f} ± {2 * sigma:.1f}"


def ladder() -> dict[str, dict[str, Rating]]:
    """The bots' fixed ratings: game -> bot -> rating."""
    doc = json.loads(LADDER_FILE.read_text())
    return {game: {bot: Rating(f"bot:{bot}", r["mu"], r["sigma"], r["games"]) for bot, r in bots.items()}
            for game, bots in doc["games"].items()}


def account_of(seat: SeatRow) -> str | None:
    """The account signed in at a human seat (None: a guest)."""
    account = getattr(seat, "account", None)
    return str(account) if account else None


class Ratings:
    """Rates finished tables and answers the leaderboards; ``version`` changes with every rating change."""

    def __init__(self, hub: Hub, account: Callable[[SeatRow], str | None] = account_of) -> None:
        self.hub = hub
        self.account = account
        self.ladder = ladder()
        self.version = 0
        self.tasks: set[asyncio.Task[list[Change]]] = set()

    def players(self, room: Room) -> list[str] | None:
        """Each seat's rating key, or None when the table cannot count (a guest, someone in two seats)."""
        keys = []
        for seat in room.row.seats:
            if seat.kind == "bot":
                keys.append(f"bot:{seat.bot}")
                continue
            account = self.account(seat)
            if account is None:
                return None
            keys.append(f"user:{account}")
        people = [k for k in keys if k.startswith("user:")]
        return keys if people and len(set(people)) == len(people) else None

    def finished(self, room: Room, leaver: int | None = None) -> None:
        """A table ended (or was retired with ``leaver`` to move): rate it in the background if it counts."""
        if not room.row.rated:
            return
        task = asyncio.get_running_loop().create_task(self.rate(room, leaver))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def rate(self, room: Room, leaver: int | None = None) -> list[Change]:
        """Compute and store the table's rating changes from its final position; tell its viewers."""
        keys = self.players(room)
        if keys is None:
            log.info("table %s is rated but does not count (a guest or a player in two seats)", room.id)
            return []
        try:
            marked = await self.hub.writer.run(self.hub.store.marks, [k[5:] for k in keys if k.startswith("user:")])
        except Unavailable as exc:
            log.warning("table %s: ratings not saved (%s)", room.id, exc.why)
            return []
        if marked:  # the host marked a player (spots fairplay mark): their games are unrated from then on
            log.info("table %s is rated but does not count (a player's account is marked)", room.id)
            return []
        summary = room.kind.spec.summarize(room.state)
        resigned, ran_out = room.row.resigned_seats(), resign.out_of_time(room)
        ranks = last_for_absence(places(summary.scores, summary.winner), leaver, [*resigned, *ran_out])
        endings = ["resigned" if s in resigned else "time" if s in ran_out else "left" if s == leaver else "finished"
                   for s in range(len(keys))]
        pool = room.kind.spec.name
        try:
            if await self.hub.writer.run(self.hub.store.ladder_game, room.id):
                pool = ladder_pool(pool)  # a bot ladder's game: rated apart from people (botapi/ladder.py)
        except Unavailable as exc:
            log.warning("table %s: ratings not saved (%s)", room.id, exc.why)
            return []
        changes = await asyncio.to_thread(self.changes, room, keys, ranks, endings, pool)
        try:
            if not await self.hub.writer.run(self.hub.store.record_ratings, room.id, changes, set(self.bots(room))):
                return []  # another process rated it first
        except Unavailable as exc:
            log.warning("table %s: ratings not saved (%s)", room.id, exc.why)
            return []
        self.version += 1
        self.tell(room, changes)
        return changes

    def bots(self, room: Room) -> list[str]:
        return [f"bot:{s.bot}" for s in room.row.seats if s.kind == "bot"]

    def changes(self, room: Room, keys: list[str], ranks: list[int], endings: list[str], pool: str | None = None
                ) -> list[Change]:
        """The model's update for one table in a ratings pool (by default the game's; people move, the server's
        bots keep their fixed rating)."""
        game = room.kind.spec.name if pool is None else pool
        stored = self.hub.store.ratings_of(game, [k for k in keys if k.startswith("user:")])
        before = [self.rating_of(game, k, stored) for k in keys]
        teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma, name=k)] for k, r in zip(keys, before, strict=True)]
        after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
        now = time.time()
        out = []
        for key, old, (new,), place, ending in zip(keys, before, after, ranks, endings, strict=True):
            fixed = key.startswith("bot:")
            out.append(Change(room.id, key, game, now, place, old.mu, old.sigma,
                              old.mu if fixed else new.mu, old.sigma if fixed else new.sigma, ending))
        return out

    def rating_of(self, game: str, key: str, stored: dict[str, Rating]) -> Rating:
        if key.startswith("bot:"):
            found = self.ladder.get(game, {}).get(key[4:])
            return found or Rating(key, MODEL.mu, MODEL.sigma)
        return stored.get(key) or Rating(key, MODEL.mu, MODEL.sigma)

    def message(self, room: Room, changes: Sequence[Change]) -> str:
        """The ``ratings`` message: each player's rating before and after the table."""
        seats = {f"bot:{s.bot}" if s.kind == "bot" else f"user:{self.account(s)}": s for s in room.row.seats}
        rows = [{"seat": seats[c.player].seat if c.player in seats else None,
                 "player": seats[c.player].name if c.player in seats and c.player.startswith("user:")
                 else c.player.split(":", 1)[1],
                 "bot": c.player.startswith("bot:"), "place": c.place,
                 "before": shown(c.mu_before, c.sigma_before), "after": shown(c.mu, c.sigma),
                 "delta": round(c.mu - c.mu_before, 2)} for c in changes]
        return json.dumps({"type": "ratings", "changes": rows})

    def tell(self, room: Room, changes: Sequence[Change]) -> None:
        """The table's viewers see each rating before and after."""
        if not changes:
            return
        text = self.message(room, changes)
        for conn in list(room.conns):
            if self.hub.talk.listens(conn):  # the connections that asked for table talk (talk.py)
                conn.send(text)

    async def joined(self, room: Room, conn: Conn) -> None:
        """A viewer who asks for the talk of a finished rated table also sees its rating changes: a page that
        (re)connects after the table was rated would otherwise never hear them."""
        if not room.row.rated or not room.state.is_terminal():
            return
        changes = await self.hub.writer.run(self.hub.store.rating_changes, "table_id = ?", (room.id,))
        if changes:
            conn.send(self.message(room, changes))

    async def heard(self, table_id: str, room: Room | None) -> None:
        """Another process rated a table: caches here are stale; viewers here are told."""
        self.version += 1
        if room is not None and room.conns:
            changes = await self.hub.writer.run(self.hub.store.rating_changes, "table_id = ?", (table_id,))
            self.tell(room, changes)

    # -------------------------------------------------------------- reading

    async def board(self, game: str, min_games: int, limit: int = 100) -> list[dict[str, Any]]:
        """A game's leaderboard: people with ``min_games`` rated games, and the ladder's bots, best first."""
        people = await self.hub.writer.run(self.hub.store.leaderboard, game, min_games, limit)
        rows = [*people, *self.ladder.get(game, {}).values()]
        rows.sort(key=lambda r: (-(r.mu - 2 * r.sigma), r.player))
        return [{"rank": i + 1, "player": r.name or r.player.split(":", 1)[1], "bot": r.player.startswith("bot:"),
                 "rating": shown(r.mu, r.sigma), "mu": round(r.mu, 2), "sigma": round(r.sigma, 2),
                 "games": r.games} for i, r in enumerate(rows[:limit])]

    async def reliability(self, account: str) -> dict[str, Any]:
        """The share of an account's latest ``RELIABILITY_OVER`` rated games (all games) it finished: played to the
        end or resigned; running out of time and leaving are not finishing. ``share`` is None before any."""
        endings = await self.hub.writer.run(self.hub.store.endings, f"user:{account}", RELIABILITY_OVER)
        finished = sum(e in FINISHING for e in endings)
        return {"games": len(endings), "finished": finished,
                "share": round(100 * finished / len(endings)) if endings else None}

    async def check_minimum(self, account: str, minimum: int | None) -> None:
        """Raise ``ShortOfMinimum`` when a table's minimum share of finished games is more than the account's (an
        account without a rated game yet meets any minimum)."""
        if not minimum:
            return
        figure = await self.reliability(account)
        if figure["share"] is not None and figure["share"] < minimum:
            raise ShortOfMinimum(minimum, figure["share"], figure["games"])

    async def profile(self, account: str, tr: Callable[[str], str] = str) -> list[dict[str, Any]]:
        """An account's rating in each game it played rated, with its history (oldest first) and a chart."""
        key = f"user:{account}"
        history = await self.hub.writer.run(self.hub.store.rating_changes, "player = ?", (key,))
        out = []
        for game in sorted({c.game for c in history}):
            mine = [c for c in history if c.game == game]
            last = mine[-1]
            title = tr(hosted()[game].spec.title) if game in hosted() else game
            out.append({"game": game, "title": title, "rating": shown(last.mu, last.sigma), "mu": round(last.mu, 2),
                        "sigma": round(last.sigma, 2), "games": len(mine),
                        "history": [{"table": c.table_id, "at": c.at, "place": c.place, "mu": round(c.mu, 2),
                                     "sigma": round(c.sigma, 2)} for c in mine],
                        "chart": chart(mine)})
        return out


def chart(changes: Sequence[Change], width: int = 240, height: int = 80) -> str:
    """A small SVG of a rating's history: the mean as a line over its ± 2 sigma band (numbers only, no text
    from users, so it is safe to put in a page as it is)."""
    points = [(changes[0].mu_before, changes[0].sigma_before)] + [(c.mu, c.sigma) for c in changes]
    low = min(mu - 2 * s for mu, s in points)
    high = max(mu + 2 * s for mu, s in points)
    span = (high - low) or 1.0
    step = width / max(1, len(points) - 1)

    def y(value: float) -> float:
        return round(height - 4 - (value - low) / span * (height - 8), 1)

    line = " ".join(f"{round(i * step, 1)},{y(mu)}" for i, (mu, _) in enumerate(points))
    top = [f"{round(i * step, 1)},{y(mu + 2 * s)}" for i, (mu, s) in enumerate(points)]
    bottom = [f"{round(i * step, 1)},{y(mu - 2 * s)}" for i, (mu, s) in reversed(list(enumerate(points)))]
    return (f'<svg class="rating-chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}"'
            f' role="img" aria-label="{shown(*points[-1])}">'
            f'<polygon class="band" points="{" ".join(top + bottom)}"/>'
            f'<polyline class="mean" fill="none" points="{line}"/></svg>')


class ShortOfMinimum(Exception):
    """An account's share of finished rated games is below a table's minimum (``min_finished``)."""

    def __init__(self, minimum: int, share: int, games: int) -> None:
        super().__init__(f"this table asks for players who finished at least {minimum}% of their latest rated games;"
                         f" you finished {share}% of your latest {games}")
        self.minimum, self.share, self.games = minimum, share, games

    def words(self, tr: Callable[[str], str]) -> str:
        return tr(SHORT).format(minimum=f"{self.minimum}%", share=f"{self.share}%", n=self.games)


SHORT = N_("This table asks for players who finished at least {minimum} of their latest rated games; you finished"
           " {share} of your latest {n}. Resigning counts as finishing; running out of time or leaving does not.")


def check_min_finished(body: dict[str, Any], rated: bool) -> int | None:
    """A create-table request's minimum share of finished rated games (None: none): ValueError says why not."""
    value = body.get("min_finished")
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 100:
        raise ValueError("'min_finished' is a share in percent, 1 to 100: the least share of their latest rated"
                         " games each player must have finished")
    if not rated:
        raise ValueError("only a rated table asks for a minimum of finished games (its players are signed in);"
                         " make the table rated or leave 'min_finished' out")
    return value


def check_rated(body: dict[str, Any], seats: list[dict[str, Any]], account: str | None) -> bool:
    """Whether a create-table request asks for a rated table, and may: ValueError says why not."""
    rated = body.get("rated", False)
    if not isinstance(rated, bool):
        raise ValueError("'rated' must be true or false")
    if not rated:
        return False
    if not any(s["kind"] == "human" for s in seats):
        raise ValueError("a rated table needs a person at it: the bots' ratings are fixed (the bot ladder), so a"
                         " table of bots only would change nothing")
    if account is None:
        raise ValueError("only a signed-in player can create a rated table, and every player must be signed in;"
                         " sign in first")
    if any(s.get("open") for s in seats):
        raise ValueError("a rated table has no open seats: each seat is taken with its link by a signed-in player")
    return True
