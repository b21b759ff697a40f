"""The JSON API: the lobby list (paginated), creating and joining tables, a table's view, replays, records."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from .. import i18n
from .context import Context, request_lang
from .forms import clean_name, parse_new_table
from .guard import Refused, client_of, parse_json, read_body
from .writer import Unavailable

JOIN_BODY = 1024  # a join request is a seat number and a name
PAGE, MAX_PAGE = 50, 200  # lobby rows per status: by default, at most
LOBBY_FRESH = 2.0  # seconds a lobby answer may be reused while no table changed (viewer counts may lag)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _whole_param(request: Request, name: str, default: int, high: int) -> int:
    value = request.query_params.get(name)
    if value is None:
        return default
    if not value.isdigit() or int(value) > high:
        raise Refused(400, "bad-query", f"'{name}' must be a whole number from 0 to {high}")
    return int(value)


def routes(ctx: Context) -> APIRouter:
    """The JSON routes on ``ctx``'s tables."""
    router = APIRouter(prefix="/api")
    hub = ctx.hub
    lobby_cache: dict[tuple[str, int, int], tuple[float, int, dict[str, Any]]] = {}

    @router.get("/tables")
    async def list_tables(request: Request) -> Response:
        """Up to ``limit`` tables of each status (or of ``status`` only, from ``offset``), newest first."""
        status = request.query_params.get("status")
        if status is not None and status not in ("open", "playing", "over"):
            raise Refused(400, "bad-query", "'status' must be open, playing or over")
        offset = _whole_param(request, "offset", 0, 100000)
        limit = _whole_param(request, "limit", PAGE, MAX_PAGE)
        key = (status or "", offset, limit)
        hit = lobby_cache.get(key)
        if hit is not None and hit[1] == hub.version and time.monotonic() - hit[0] < LOBBY_FRESH:
            return JSONResponse(hit[2])
        rows: list[dict[str, Any]] = []
        counts: dict[str, int] = {}
        for st in [status] if status else ["open", "playing", "over"]:
            page, counts[st] = hub.page(st, offset, limit)
            if page is None:
                try:
                    page, counts[st] = await hub.writer.run(hub.store.finished, offset, limit)
                except Unavailable as exc:
                    raise Refused(503, "unavailable", f"the finished games cannot be listed: {exc.why}",
                                  exc.retry) from None
            rows.extend(page or [])
        data = {"tables": rows, "counts": counts, "offset": offset, "limit": limit}
        if len(lobby_cache) > 256:
            lobby_cache.clear()
        lobby_cache[key] = (time.monotonic(), hub.version, data)
        return JSONResponse(data)

    @router.post("/tables")
    async def create_table(request: Request) -> Response:
        body = parse_json(await read_body(request, ctx.limits.max_body, ctx.limits.body_timeout))
        try:
            kind, rules, seats = parse_new_table(body)
        except ValueError as exc:
            return _error(400, "bad-table", str(exc))
        room = await hub.create(kind, rules, seats, client_of(request))
        return JSONResponse({
            "id": room.id, "game": kind.name, "host": ctx.link(f"/host/{room.row.host_token}"),
            "watch": ctx.link(f"/t/{room.id}"),
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "open": s.open, "mine": s.claimed,
                       "link": ctx.link(f"/play/{s.token}") if s.token else None} for s in room.row.seats],
        }, status_code=201)

    @router.get("/tables/{table_id}")
    async def table_view(table_id: str) -> Response:
        room = await hub.table(table_id)
        if room is None:
            return _error(404, "unknown-table", f"there is no table {table_id!r}")
        return JSONResponse({**room.summary(), "view": room.current_view(), "log": room.log})

    @router.post("/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> Response:
        body = parse_json(await read_body(request, JOIN_BODY, ctx.limits.body_timeout))
        room = hub.rooms.get(table_id)
        if room is None:
            return _error(404, "unknown-table", f"there is no table {table_id!r}")
        seat = body.get("seat") if isinstance(body, dict) else None
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(room.row.seats):
            return _error(400, "bad-seat", "'seat' must be a seat number of this table")
        name = clean_name(body.get("name"), "") or None
        try:
            token = await hub.join_open(room, seat, name)
        except Unavailable as exc:
            raise Refused(503, "unavailable", f"the seat could not be taken: {exc.why}; try again", exc.retry) from None
        if token is None:
            return _error(409, "seat-taken", f"seat {seat} is not an open seat: it is taken, a bot, or kept for"
                          " the player the table's creator invited")
        return JSONResponse({"seat": seat, "token": token, "link": ctx.link(f"/play/{token}")})

    @router.get("/tables/{table_id}/replay")
    async def replay_step(request: Request, table_id: str, at: int = -1, side: int = 0) -> Response:
        """The position after ``at`` moves, with the log so far (the replay viewer's data).

        ``side``: whose side of a Double Spot frame to draw (0 or 1).
        """
        room = await hub.table(table_id)
        if room is None:
            return _error(404, "unknown-table", f"there is no table {table_id!r}")
        if side not in (0, 1):
            return _error(400, "bad-side", "'side' must be 0 or 1")
        moves = room.state.history()
        total = len(moves)
        count = total if at < 0 or at > total else at
        lang = i18n.resolve(request_lang(request))
        key = (room.id, total, count, side, lang)
        data = ctx.replays.answer(key)
        if data is None:
            state = room.state if count == total else await asyncio.to_thread(
                ctx.replays.state_at, room.id, room.kind, room.state.rules, moves, count)
            view = room.kind.view(state, room.seat_info(), count, i18n.translator(lang), side, False)
            data = {"at": count, "total": total, "view": view, "move": moves[count - 1] if count else None,
                    "log": room.log_in(lang)[:count]}
            ctx.replays.keep(key, data)
        return JSONResponse(data)

    @router.get("/tables/{table_id}/record")
    async def record(table_id: str) -> Response:
        room = await hub.table(table_id)
        if room is None:
            return _error(404, "unknown-table", f"there is no table {table_id!r}")
        doc = {"format": room.kind.record_format, "version": 1, "rules": room.state.rules.to_dict(),
               "moves": room.state.history()}
        return JSONResponse(doc, headers={
            "Content-Disposition": f'attachment; filename="{room.kind.name}-{room.id}.json"'})

    return router
