"""The JSON API: the lobby list (paginated), creating and joining tables, a table's view, replays, records."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ... import i18n
from ..accounts.service import account_of
from ..clocks.clock import parse_pace
from ..context import Context, request_lang, tr_of
from ..fairplay.advisor import check_hints, hints_word
from ..fairplay.dice import commitment_of
from ..games import games_json
from ..guard import Refused, client_of, parse_json, read_body, whole_number
from ..invitations.service import keep_invites, read_invites
from ..notices.service import PUSH_SERVICES, PUSHES_PER_SEAT, is_push_service
from ..ratings.routes import routes as standing_routes
from ..ratings.service import ShortOfMinimum, check_min_finished, check_rated
from ..writer import Unavailable
from .forms import clean_name, parse_new_table

JOIN_BODY = 1024  # a join request is a seat number and a name
TURNS_BODY, MAX_TURN_SEATS = 8192, 100  # the turn queue: the seat links one browser holds
PAGE, MAX_PAGE = 50, 200  # lobby rows per status: by default, at most
MAX_MOVES = 10**6  # a replay's 'at': far above any game's length
LOBBY_FRESH = 2.0  # seconds a lobby answer may be reused while no table changed (viewer counts may lag)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _whole_param(request: Request, name: str, default: int, high: int) -> int:
    """A query parameter that counts something: ASCII digits from 0 to ``high``, else a clear 400."""
    value = request.query_params.get(name)
    if value is None:
        return default
    number = whole_number(value)
    if number is None or number > high:
        raise Refused(400, "bad-query", f"'{name}' must be a whole number from 0 to {high}")
    return number


class Api:
    """The JSON routes on ``ctx``'s tables."""

    def __init__(self, ctx: Context) -> None:
        self.ctx, self.hub = ctx, ctx.hub
        self.lobby_cache: dict[tuple[str, int, int], tuple[float, int, dict[str, Any]]] = {}


    async def games(self, request: Request) -> Response:
        """Each hosted game's spec and options schema, labels in the page's language."""
        return JSONResponse(games_json(tr_of(request)))

    async def list_tables(self, request: Request) -> Response:
        """Up to ``limit`` tables of each status (or of ``status`` only, from ``offset``), newest first."""
        status = request.query_params.get("status")
        if status is not None and status not in ("open", "playing", "over"):
            raise Refused(400, "bad-query", "'status' must be open, playing or over")
        offset = _whole_param(request, "offset", 0, 100000)
        limit = _whole_param(request, "limit", PAGE, MAX_PAGE)
        key = (status or "", offset, limit)
        hit = self.lobby_cache.get(key)
        if hit is not None and hit[1] == self.hub.version and time.monotonic() - hit[0] < LOBBY_FRESH:
            return JSONResponse(hit[2])
        rows: list[dict[str, Any]] = []
        counts: dict[str, int] = {}
        for st in [status] if status else ["open", "playing", "over"]:
            page, counts[st] = self.hub.page(st, offset, limit)
            if page is None:
                try:
                    page, counts[st] = await self.hub.writer.run(self.hub.store.finished, offset, limit)
                except Unavailable as exc:
                    raise Refused(503, "unavailable", f"the finished games cannot be listed: {exc.why}",
                                  exc.retry) from None
            rows.extend(page or [])
        data = {"tables": rows, "counts": counts, "offset": offset, "limit": limit}
        if len(self.lobby_cache) > 256:
            self.lobby_cache.clear()
        self.lobby_cache[key] = (time.monotonic(), self.hub.version, data)
        return JSONResponse(data)

    async def create_table(self, request: Request) -> Response:
        body = parse_json(await read_body(request, self.ctx.limits.max_body, self.ctx.limits.body_timeout))
        me = account_of(request)
        try:
            kind, rules, seats = parse_new_table(body)
            rated = check_rated(body, seats, None if me is None else me.id)
            hints = check_hints(body, rated)
            min_finished = check_min_finished(body, rated)
            pace = parse_pace(body.get("clock"))
            bots_join = body.get("bots_join", False)
            if not isinstance(bots_join, bool):
                raise ValueError("'bots_join' must be true (a bot account may take an open seat) or false")
            invited = await read_invites(self.ctx, body, seats, me, tr_of(request))  # seats kept by name
        except ValueError as exc:
            return _error(400, "bad-table", str(exc))
        for seat in seats:  # a signed-in creator's own seat is the account's from the start
            if me is not None and seat.get("claimed"):
                seat.update(account=me.id, name=me.name)
        if invited and me is not None:
            keep_invites(seats, invited, me)  # stored with the table, in its transaction
        if me is not None and any(s.get("claimed") for s in seats):  # the creator's own seat meets the minimum
            try:
                await self.hub.ratings.check_minimum(me.id, min_finished)
            except ShortOfMinimum as exc:
                return _error(400, "bad-table", str(exc))
        room = await self.hub.create(kind, rules, seats, client_of(request), pace=pace, rated=rated,
                                     hints=hints, min_finished=min_finished, bots_join=bots_join)
        return JSONResponse({
            "id": room.id, "game": kind.spec.name, "host": self.ctx.link(f"/host/{room.row.host_token}"),
            "rated": rated, "hints": hints_word(room.row), "min_finished": min_finished, "bots_join": bots_join,
            "commitment": commitment_of(room.row),
            "watch": self.ctx.link(f"/t/{room.id}"),
            "seats": [{"seat": s.seat, "name": room.names[s.seat], "kind": s.kind, "open": s.open, "mine": s.claimed,
                       "link": self.ctx.link(f"/play/{s.token}") if s.token else None,
                       "invited": invited[s.seat].name if s.seat in invited else None} for s in room.row.seats],
        }, status_code=201)

    async def table_view(self, table_id: str) -> Response:
        room = await self.hub.table(table_id)
        if room is None:
            return _error(404, "unknown-table", f"there is no table {table_id!r}")
        clock = {} if room.timekeeper is None else {"clock": room.timekeeper.view(None, i18n.DEFAULT)}
        return JSONResponse({**room.summary(), "view": room.current_view(), "log": room.log, **clock})

    async def join(self, table_id: str, request: Request) -> Response:
        body = parse_json(await read_body(request, JOIN_BODY, self.ctx.limits.body_timeout))
        room = self.hub.rooms.get(table_id)
        if room is None:
            return _error(404, "unknown-table", f"there is no table {table_id!r}")
        seat = body.get("seat") if isinstance(body, dict) else None
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(room.row.seats):
            return _error(400, "bad-seat", "'seat' must be a seat number of this table")
        me = account_of(request)
        name = me.name if me is not None else clean_name(body.get("name"), "") or None
        try:
            token = await self.hub.join_open(room, seat, name)
            if token is not None and me is not None and self.ctx.accounts is not None:
                await self.ctx.accounts.bind(room, seat, me)  # a signed-in player's seat is the account's
        except Unavailable as exc:
            raise Refused(503, "unavailable", f"the seat could not be taken: {exc.why}; try again", exc.retry) from None
        if token is None:
            return _error(409, "seat-taken", f"seat {seat} is not an open seat: it is taken, a bot, or kept for"
                          " the player the table's creator invited")
        return JSONResponse({"seat": seat, "token": token, "link": self.ctx.link(f"/play/{token}")})

    async def turns(self, request: Request) -> Response:
        """My turn queue: the tables waiting on the seats whose links the browser sends (and, signed in, on the
        account's seats), longest wait first.

        The links travel in the body, never the address (addresses are logged).
        """
        body = parse_json(await read_body(request, TURNS_BODY, self.ctx.limits.body_timeout))
        links = body.get("seats") if isinstance(body, dict) else None
        if not isinstance(links, list) or len(links) > MAX_TURN_SEATS or not all(isinstance(t, str) for t in links):
            return _error(400, "bad-seats", f"'seats' must be a list of at most {MAX_TURN_SEATS} seat links' secrets")
        me = account_of(request)
        if me is not None:
            try:
                mine = await self.hub.writer.run(self.hub.store.tables_of, me.id, ("playing",), MAX_TURN_SEATS)
            except Unavailable as exc:
                raise Refused(503, "unavailable", f"your tables cannot be listed: {exc.why}", exc.retry) from None
            links = [*links, *(s.token for s in mine if s.token)]
        waiting: list[dict[str, Any]] = []
        for token in dict.fromkeys(links):
            found = self.hub.by_token.get(token)
            room = self.hub.rooms.get(found[0]) if found else None
            since = None if room is None or found is None else waiting_since(room, found[1])
            if room is not None and found is not None and since is not None:
                spec = room.kind.spec
                waiting.append({"table": room.id, "game": spec.name, "title": spec.title, "seat": found[1],
                                "name": room.names_in(request_lang(request))[found[1]], "since": since,
                                "link": self.ctx.link(f"/play/{token}")})
        waiting.sort(key=lambda w: w["since"])
        return JSONResponse({"tables": waiting})

    async def push(self, request: Request) -> Response:
        """Keep a browser's Web Push subscription (``subscription``) for the seat whose link's secret is ``seat``.

        The secret travels in the body, never the address (addresses are logged)."""
        given = parse_json(await read_body(request, JOIN_BODY * 2, self.ctx.limits.body_timeout))
        body: dict[str, Any] = given if isinstance(given, dict) else {}
        seat = body.get("seat")
        found = self.hub.by_token.get(seat) if isinstance(seat, str) else None
        if found is None:
            return _error(404, "unknown-seat", "'seat' must be the secret of a seat link of a live table")
        given_sub = body.get("subscription")
        sub: dict[str, Any] = given_sub if isinstance(given_sub, dict) else {}
        endpoint, keys = sub.get("endpoint"), sub.get("keys")
        if not isinstance(endpoint, str) or not is_push_service(endpoint) or not isinstance(keys, dict):
            return _error(400, "bad-subscription", "send the browser's PushSubscription: its 'keys' and a plain"
                          f" https 'endpoint' (no user info, port 443) at a browser's push service"
                          f" ({', '.join(PUSH_SERVICES)})")
        await self.hub.writer.run(self.hub.store.add_push, found[0], found[1], endpoint,
                                  json.dumps({"endpoint": endpoint, "keys": keys}), PUSHES_PER_SEAT)
        return JSONResponse({"ok": True})

    async def replay_step(self, request: Request, table_id: str) -> Response:
        """The position after ``at`` moves (by default, or above the total: the end), with the log so far.

        ``side``: whose side of the table to draw (0 or 1), for a game where each seat sees its own
        (``WebView.per_seat_view``). This is the replay viewer's data.
        """
        at = _whole_param(request, "at", -1, MAX_MOVES)
        if request.query_params.get("side", "0") not in ("0", "1"):
            return _error(400, "bad-side", "'side' must be 0 or 1")
        side = int(request.query_params.get("side", "0"))
        room = await self.hub.table(table_id)
        if room is None:
            return _error(404, "unknown-table", f"there is no table {table_id!r}")
        moves = room.state.history()
        total = len(moves)
        count = total if at < 0 or at > total else at
        lang = i18n.resolve(request_lang(request))
        key = (room.id, total, count, side, lang, tuple(room.names))  # a rename retells the log
        data = self.ctx.replays.answer(key)
        if data is None:
            state = room.state if count == total else await asyncio.to_thread(
                self.ctx.replays.state_at, room.id, room.kind, room.state.rules, moves, count)
            view = room.kind.web.view(state, room.seat_info(lang), count, i18n.translator(lang), side, False)
            data = {"at": count, "total": total, "view": view, "move": moves[count - 1] if count else None,
                    "log": room.log_in(lang)[:count]}
            self.ctx.replays.keep(key, data)
        return JSONResponse(data)

    async def record(self, table_id: str) -> Response:
        room = await self.hub.table(table_id)
        if room is None:
            return _error(404, "unknown-table", f"there is no table {table_id!r}")
        doc = room.record().to_dict()
        return JSONResponse(doc, headers={
            "Content-Disposition": f'attachment; filename="{room.kind.spec.name}-{room.id}.json"'})


def waiting_since(room: Any, seat: int) -> float | None:
    """Since when the table has waited on ``seat`` (its clock's start, else the last move), or None if it does not."""
    state = room.state
    keeper = room.timekeeper
    if state.is_terminal() or room.row.seats[seat].kind != "human" or (keeper is not None and keeper.stood_in(seat)):
        return None
    racers = room.kind.web.racers(state)
    if seat not in racers and (racers or state.is_chance_node() or state.current_player() != seat):
        return None
    if keeper is not None and keeper.clock.running == seat:
        return float(keeper.clock.since)
    return float(room.row.updated)


def routes(ctx: Context) -> APIRouter:
    """The JSON routes, under ``/api``."""
    router = APIRouter(prefix="/api")
    api = Api(ctx)
    router.add_api_route("/games", api.games, methods=["GET"])
    router.add_api_route("/tables", api.list_tables, methods=["GET"])
    router.add_api_route("/tables", api.create_table, methods=["POST"])
    router.add_api_route("/tables/{table_id}", api.table_view, methods=["GET"])
    router.add_api_route("/tables/{table_id}/join", api.join, methods=["POST"])
    router.add_api_route("/turns", api.turns, methods=["POST"])
    router.add_api_route("/push", api.push, methods=["POST"])
    router.add_api_route("/tables/{table_id}/replay", api.replay_step, methods=["GET"])
    router.add_api_route("/tables/{table_id}/record", api.record, methods=["GET"])
    router.include_router(standing_routes(ctx))  # chat of a replay, leaderboards, ratings (standing.py)
    return router
