"""The tournaments' pages and API: the list with the form to make an event, an event's page (sign up, withdraw,
the organiser's Start now and Add a bot), its JSON, its live part (polled by the page for live standings), its
standings as CSV and the whole event as one zip.

Who may do what: any signed-in player makes an event and is its organiser; a signed-in player signs up and withdraws
themselves; only the organiser starts it early or enters the server's bots (marked as bots everywhere). A bad value
is refused with what is allowed, and nothing changes.
"""

from __future__ import annotations

import asyncio
import io
import json
import secrets
import time
import zipfile
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ..accounts.routes import form_of, see_other
from ..accounts.service import account_of
from ..accounts.store import AccountRow
from ..clocks.clock import pace_menu
from ..context import Context, tr_of
from ..games import hosted
from ..guard import Refused, parse_json, read_body
from ..tables.forms import bot_labels
from .director import Director
from .settings import Settings, check_name, check_settings
from .store import ACTIVE, TournamentRow
from .view import event_json, standings_csv

BODY = 8192
MOST_OPEN = 5  # events one player may have open or being played at once
LIST = 50


def _refuse(status: int, code: str, message: str) -> Refused:
    return Refused(status, code, message)


class TournamentPages:
    def __init__(self, ctx: Context, director: Director) -> None:
        self.ctx, self.hub, self.director = ctx, ctx.hub, director

    async def _run(self, call: Any, *args: Any) -> Any:
        return await self.hub.writer.run(call, *args)

    async def _event(self, tournament_id: str) -> TournamentRow:
        event = await self._run(self.hub.store.tournament, tournament_id) if len(tournament_id) <= 64 else None
        if event is None:
            raise _refuse(404, "no-tournament", f"there is no tournament {tournament_id!r}")
        return event

    @staticmethod
    def _signed_in(request: Request) -> AccountRow:
        me = account_of(request)
        if me is None:
            raise _refuse(401, "sign-in", "sign in first: events are for players with an account")
        return me

    @staticmethod
    async def _given(request: Request) -> dict[str, Any]:
        """A JSON body, or a form's fields (the pages' forms)."""
        if request.headers.get("content-type", "").startswith("application/json"):
            doc = parse_json(await read_body(request, BODY))
            if not isinstance(doc, dict):
                raise _refuse(400, "bad-json", "the body must be a JSON object")
            return doc
        return dict(await form_of(request))

    @staticmethod
    def _answer(request: Request, body: dict[str, Any], page: str) -> Response:
        """JSON for programs, a redirect to the event's page for a form."""
        if request.headers.get("content-type", "").startswith("application/json"):
            return JSONResponse(body)
        return see_other(page)

    # -------------------------------------------------------------- pages

    async def list_page(self, request: Request) -> HTMLResponse:
        _ = tr_of(request)
        coming = await self._run(self.hub.store.tournaments, ACTIVE, LIST)
        over = await self._run(self.hub.store.tournaments, ("over",), LIST)
        me, club = account_of(request), None
        wanted = request.query_params.get("club", "")[:64]
        if me is not None and wanted and await self._run(self.hub.store.role, wanted, me.id) == "admin":
            club = await self._run(self.hub.store.club, wanted)  # the form makes an event of this club
        return self.ctx.page(request, "tournaments.html", club=club, coming=[_row(e) for e in reversed(coming)],
                             over=[_row(e) for e in over], paces=pace_menu(_)[1:],
                             games=[{"name": g, "title": _(k.spec.title), "seats": list(k.spec.players),
                                     "duplicate": k.spec.dealing is not None} for g, k in hosted().items()])

    async def event_page(self, request: Request, tournament_id: str) -> HTMLResponse:
        _ = tr_of(request)
        try:
            event = await self._event(tournament_id)
        except Refused:
            return self.ctx.message(request, 404, _("Not found"), _("There is no such tournament."))
        me = account_of(request)
        view = await event_json(self.hub, event, me.id if me else None)
        starts = datetime.fromtimestamp(event.starts, UTC).strftime("%Y-%m-%d %H:%M")
        club = None if event.club is None else await self._run(self.hub.store.club, event.club)
        return self.ctx.page(request, "tournament.html", event=view, starts=starts, club=club,
                             organiser=me is not None and me.id == event.owner,
                             title=_(hosted()[event.game].spec.title),
                             bots=bot_labels(hosted()[event.game].spec, _))

    async def live(self, request: Request, tournament_id: str) -> HTMLResponse:
        """The page's live part (standings, rounds, the player's own table), for its script to swap in."""
        event = await self._event(tournament_id)
        me = account_of(request)
        view = await event_json(self.hub, event, me.id if me else None)
        return self.ctx.page(request, "tournament_live.html", event=view)

    # -------------------------------------------------------------- the API

    async def event_api(self, request: Request, tournament_id: str) -> Response:
        event = await self._event(tournament_id)
        me = account_of(request)
        return JSONResponse(await event_json(self.hub, event, me.id if me else None))

    async def csv(self, request: Request, tournament_id: str) -> Response:
        event = await self._event(tournament_id)
        entrants = await self._run(self.hub.store.entrants, event.id)
        games = await self._run(self.hub.store.tournament_games, event.id)
        return Response(standings_csv(event, entrants, games), media_type="text/csv", headers={
            "Content-Disposition": f'attachment; filename="tournament-{event.id}-standings.csv"'})

    async def archive(self, request: Request, tournament_id: str) -> Response:
        """The event as one zip: its settings and entrants, the standings as CSV and every finished game's record."""
        event = await self._event(tournament_id)
        entrants = await self._run(self.hub.store.entrants, event.id)
        games = await self._run(self.hub.store.tournament_games, event.id)
        records = {}
        for game in games:
            room = None if game.places is None or len(game.players) < 2 else await self.hub.table(game.table_id)
            if room is not None and room.state.is_terminal():
                records[f"round-{game.round:02}/{event.game}-{room.id}.json"] = room.record().to_dict()
        about = {"id": event.id, "name": event.name, "game": event.game, "status": event.status,
                 "settings": event.settings, "starts": event.starts, "ended": event.ended,
                 "entrants": [{"entrant": e.entrant, "name": e.name, "bot": e.bot, "withdrawn": e.withdrawn}
                              for e in entrants],
                 "games": [{"round": g.round, "table": g.table_id, "players": list(g.players),
                            "places": None if g.places is None else list(g.places),
                            "scores": None if g.scores is None else list(g.scores),
                            "luck": None if g.luck is None else list(g.luck)} for g in games]}
        body = await asyncio.to_thread(zipped, about, standings_csv(event, entrants, games), records)
        return Response(body, media_type="application/zip", headers={
            "Content-Disposition": f'attachment; filename="tournament-{event.id}.zip"'})

    async def create(self, request: Request) -> Response:
        me = self._signed_in(request)
        given = await self._given(request)
        try:
            name = check_name(given.get("name"))
            game = str(given.get("game", "spots"))
            settings = check_settings(game, given)
            starts = _starts(given.get("starts_in"))
        except ValueError as exc:
            raise _refuse(400, "bad-tournament", str(exc)) from None
        club = str(given.get("club") or "") or None
        if club is not None and await self._run(self.hub.store.role, club, me.id) != "admin":
            raise _refuse(403, "not-admin", "only a club's admins make its events")
        mine = [e for e in await self._run(self.hub.store.tournaments, ACTIVE, 500) if e.owner == me.id]
        if len(mine) >= MOST_OPEN:
            raise _refuse(429, "too-many-tournaments", f"you already run {len(mine)} events, the most one player may"
                          " run at once; let one finish first")
        now = time.time()
        event = TournamentRow(secrets.token_hex(5), name, game, me.id, settings.to_dict(), now + starts, "open", 0,
                              now, None, secrets.token_hex(32), club)
        await self._run(self.hub.store.create_tournament, event)
        self.director.version += 1
        return self._answer(request, {"id": event.id, "page": self.ctx.link(f"/tournaments/{event.id}")},
                            f"/tournaments/{event.id}")

    async def join(self, request: Request, tournament_id: str) -> Response:
        me = self._signed_in(request)
        event = await self._event(tournament_id)
        settings = Settings.of(event.settings)
        entrants = await self._run(self.hub.store.entrants, event.id)
        if event.club is not None and await self._run(self.hub.store.role, event.club, me.id) not in ("admin",
                                                                                                      "member"):
            raise _refuse(403, "club-members", "this is a club's event: only its members sign up (join the club"
                          " first)")
        if len([e for e in entrants if not e.withdrawn]) >= settings.most:
            raise _refuse(409, "full", f"this event has its {settings.most} entrants, as many as it takes")
        if settings.min_games:
            rated = await self._run(self.hub.store.ratings_of, event.game, [f"user:{me.id}"])
            played = rated[f"user:{me.id}"].games if rated else 0
            if played < settings.min_games:
                raise _refuse(409, "too-few-rated-games", f"this event asks for {settings.min_games} rated games of"
                              f" {event.game} to sign up; you have {played}")
        if event.status == "open":
            done = await self._run(self.hub.store.enter, event.id, me.id, me.name, me.id, None)
        elif event.status == "playing" and settings.format == "arena":  # an arena takes players late
            done = await self._run(self.hub.store.join_late, event.id, me.id, me.name, me.id, time.time())
        else:
            raise _refuse(409, "closed", "sign-ups for this event are closed: it has started or ended")
        if not done and all(e.entrant != me.id for e in entrants):
            raise _refuse(409, "closed", "sign-ups for this event are closed: it has started or ended")
        self.director.version += 1
        return self._answer(request, {"entered": True}, f"/tournaments/{event.id}")

    async def withdraw(self, request: Request, tournament_id: str) -> Response:
        me = self._signed_in(request)
        event = await self._event(tournament_id)
        if event.status not in ACTIVE:
            raise _refuse(409, "over", "this event is over: nobody can withdraw from it now")
        if not await self._run(self.hub.store.withdraw, event.id, me.id):
            raise _refuse(409, "not-entered", "you are not signed up for this event")
        self.director.version += 1
        return self._answer(request, {"withdrawn": True}, f"/tournaments/{event.id}")

    async def start(self, request: Request, tournament_id: str) -> Response:
        """The organiser starts the event now (the director begins it at its next pass)."""
        event = await self._organised(request, tournament_id)
        if event.status != "open":
            raise _refuse(409, "started", "this event has already started")
        await self._run(self.hub.store.write, [("UPDATE tournaments SET starts = ? WHERE id = ? AND status = 'open'",
                                                (time.time(), event.id))])
        return self._answer(request, {"starting": True}, f"/tournaments/{event.id}")

    async def add_bot(self, request: Request, tournament_id: str) -> Response:
        """The organiser enters one of the game's server bots (marked as a bot wherever it is shown)."""
        event = await self._organised(request, tournament_id)
        bot = str((await self._given(request)).get("bot", ""))
        bots = list(hosted()[event.game].bots)
        if bot not in bots:
            raise _refuse(400, "bad-bot", f"unknown bot {bot!r}; the bots of this game are {', '.join(bots)}")
        entrants = await self._run(self.hub.store.entrants, event.id)
        settings = Settings.of(event.settings)
        if event.status != "open" or len([e for e in entrants if not e.withdrawn]) >= settings.most:
            raise _refuse(409, "closed", "bots are entered before the start, up to the event's number of entrants")
        number = 1 + sum(e.bot is not None for e in entrants)
        await self._run(self.hub.store.enter, event.id, f"bot:{number}", f"{bot}-bot {number}", None, bot)
        self.director.version += 1
        return self._answer(request, {"entered": f"bot:{number}"}, f"/tournaments/{event.id}")

    async def _organised(self, request: Request, tournament_id: str) -> TournamentRow:
        me = self._signed_in(request)
        event = await self._event(tournament_id)
        if event.owner != me.id:
            raise _refuse(403, "not-organiser", "only the event's organiser may do this")
        return event


def zipped(about: dict[str, Any], standings: str, records: dict[str, Any]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("event.json", json.dumps(about, indent=1))
        archive.writestr("standings.csv", standings)
        for name, record in records.items():
            archive.writestr(name, json.dumps(record))
    return out.getvalue()


START_IN = 10  # minutes to the start when none is given (as the form's): time to sign up


def _starts(value: Any) -> float:
    """Seconds from now to the start: minutes in the form (0 to a week; none: ``START_IN``)."""
    if value in (None, ""):
        return START_IN * 60.0
    try:
        minutes = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"the start is in minutes from now, from 0 to {7 * 24 * 60}, not {value!r}") from None
    if not 0 <= minutes <= 7 * 24 * 60:
        raise ValueError(f"the start is in minutes from now, from 0 to {7 * 24 * 60}, not {minutes:g}")
    return minutes * 60


def _row(event: TournamentRow) -> dict[str, Any]:
    settings = Settings.of(event.settings)
    return {"id": event.id, "name": event.name, "game": event.game, "format": settings.format,
            "status": event.status, "starts": event.starts, "rounds": settings.rounds, "seats": settings.seats}


def routes(ctx: Context, director: Director) -> APIRouter:
    router = APIRouter()
    pages = TournamentPages(ctx, director)
    router.add_api_route("/tournaments", pages.list_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/tournaments", ctx.form_route(pages.create), methods=["POST"])
    router.add_api_route("/tournaments/{tournament_id}", pages.event_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/tournaments/{tournament_id}/standings.csv", pages.csv, methods=["GET"])
    router.add_api_route("/tournaments/{tournament_id}/archive.zip", pages.archive, methods=["GET"])
    router.add_api_route("/tournaments/{tournament_id}/live", pages.live, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/tournaments/{tournament_id}/join", ctx.form_route(pages.join), methods=["POST"])
    router.add_api_route("/tournaments/{tournament_id}/withdraw", ctx.form_route(pages.withdraw), methods=["POST"])
    router.add_api_route("/tournaments/{tournament_id}/start", ctx.form_route(pages.start), methods=["POST"])
    router.add_api_route("/tournaments/{tournament_id}/bots", ctx.form_route(pages.add_bot), methods=["POST"])
    router.add_api_route("/api/tournaments/{tournament_id}", pages.event_api, methods=["GET"])
    return router
