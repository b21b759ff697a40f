"""The FastAPI app: the lobby, table and replay pages, a small JSON API and the WebSocket protocol.

Why this shape: the server owns the game. Pages are plain HTML from Jinja2
templates plus static JS/CSS (no build step); the JS only draws the views the
server sends and sends back the notation of a move the server offered. The
protocol is described in ``docs/web.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from .. import i18n
from ..core.errors import RulesError
from ..double_spot.rules import CLAIM_RULES
from ..engine import Rules
from ..engine.tricks import N_, SUGGESTED_SETS, TILES
from .games import DOUBLE_SPOT, GAMES, SPOTS, GameKind
from .rooms import DICE, Conn, Hub, MoveError, Room, state_at
from .store import Store
from .words import js_words

HERE = Path(__file__).parent
MAX_MESSAGE = 4096  # bytes: far above any move, far below anything abusive
RATE, BURST = 10.0, 20.0  # messages per second per connection, and the burst allowed
MAX_NAME = 24
TRICK_SETS = ["beginner", *[s for s in SUGGESTED_SETS if s != "adoption-event"], "random", "all", "custom"]
TRICK_SET_LABELS = {  # what the lobby's menu shows for each trick set
    "beginner": N_("beginner (Adoption Event)"), "dog-park": N_("dog park"), "agility-course": N_("agility course"),
    "hunting": N_("hunting"), "kennel-club": N_("kennel club"), "puppy-pen": N_("puppy pen"),
    "random": N_("random"), "all": N_("all"), "custom": N_("custom"),
}
OPTION_LIMITS = {  # variant options a lobby form may set, with sane bounds for a public server
    "bust_limit": (0, 60), "dog_limit": (1, 32), "dice": (1, 200), "treats": (0, 200),
    "starting_treats": (0, 20), "starting_dogs": (0, 6), "turn_limit": (1, 5000),
}
DOUBLE_SPOT_LIMITS = {"columns": (4, 12), "rows": (4, 10), "target": (1, 10), "lifts": (0, 9)}  # Double Spot's lobby options

log = logging.getLogger("spots.web")


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _clean_name(value: Any, default: str) -> str:
    if not isinstance(value, str):
        return default
    text = re.sub(r"\s+", " ", value).strip()[:MAX_NAME]
    return text or default


def _whole(name: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}")
    return value


def parse_seats(body: dict[str, Any], kind: GameKind) -> list[dict[str, Any]]:
    """The seats of a create-table request: humans and the game's bots, with clean names."""
    low, high = kind.players
    seats_in = body.get("seats")
    if not isinstance(seats_in, list) or not low <= len(seats_in) <= high:
        count = f"{low} to {high}" if low != high else str(low)
        raise ValueError(f"'seats' must be a list of {count} seats for {kind.title}")
    seats = []
    for i, s in enumerate(seats_in):
        if not isinstance(s, dict) or s.get("kind") not in ("human", "bot"):
            raise ValueError(f"seat {i}: 'kind' must be 'human' or 'bot'")
        if s["kind"] == "bot":
            bot = s.get("bot", "greedy")
            if bot not in kind.bots:
                raise ValueError(f"seat {i}: unknown bot {bot!r}; the bots are {', '.join(kind.bots)}")
            seats.append({"kind": "bot", "bot": bot, "name": _clean_name(s.get("name"), f"{bot.title()} bot")})
        else:
            seats.append({"kind": "human", "bot": None, "name": _clean_name(s.get("name"), f"Player {i + 1}")})
    return seats


def parse_new_table(body: Any) -> tuple[GameKind, Any, list[dict[str, Any]]]:
    """Read the lobby's create-table request; raise ValueError with a message people understand."""
    if not isinstance(body, dict):
        raise ValueError("expected a JSON object")
    game = body.get("game", "spots")
    if not isinstance(game, str) or game not in GAMES:
        raise ValueError(f"unknown game {game!r}; the games are {', '.join(GAMES)}")
    if game == DOUBLE_SPOT.name:
        return DOUBLE_SPOT, *parse_double_spot(body)
    return SPOTS, *parse_spots(body)


def parse_double_spot(body: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
    """Double Spot's options: board size, cards to win and the claim rule."""
    seats = parse_seats(body, DOUBLE_SPOT)
    options: dict[str, Any] = {"target": _whole("target", body.get("target", 5), *DOUBLE_SPOT_LIMITS["target"])}
    extra = body.get("options") or {}
    if not isinstance(extra, dict):
        raise ValueError("'options' must be an object")
    for key, value in extra.items():
        if value is None or value == "":
            continue
        if key == "claim":
            if value not in CLAIM_RULES:
                raise ValueError(f"option claim must be one of {', '.join(CLAIM_RULES)}")
            options[key] = value
        elif key in DOUBLE_SPOT_LIMITS:
            options[key] = _whole(f"option {key}", value, *DOUBLE_SPOT_LIMITS[key])
        else:
            raise ValueError(f"unknown option {key!r}; options are {', '.join([*DOUBLE_SPOT_LIMITS, 'claim'])}")
    try:
        rules = DOUBLE_SPOT.rules_from_dict(options)
    except RulesError as exc:
        raise ValueError(str(exc)) from None
    return rules, seats


def parse_spots(body: dict[str, Any]) -> tuple[Rules, list[dict[str, Any]]]:
    """Spots' options: trick set, dogs to win and the variants."""
    seats = parse_seats(body, SPOTS)
    options: dict[str, Any] = {"players": len(seats)}
    tricks = body.get("tricks", "beginner")
    if tricks == "custom" or isinstance(tricks, list):
        tiles = body.get("tiles") if tricks == "custom" else tricks
        if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles):
            raise ValueError("a custom trick set is a list of tile names")
        options["tricks"] = tiles
    elif isinstance(tricks, str) and tricks in TRICK_SETS:
        options["tricks"] = tricks
    else:
        raise ValueError(f"'tricks' must be one of {', '.join(TRICK_SETS)} or a list of tiles")
    if options["tricks"] == "random":
        options["tricks_seed"] = DICE.randrange(2**31)
    target = body.get("target", 6)
    if not isinstance(target, int) or isinstance(target, bool) or not 1 <= target <= 20:
        raise ValueError("'target' must be a whole number from 1 to 20")
    options["target"] = target
    extra = body.get("options") or {}
    if not isinstance(extra, dict):
        raise ValueError("'options' must be an object")
    for key, value in extra.items():
        if key not in OPTION_LIMITS:
            raise ValueError(f"unknown option {key!r}; options are {', '.join(OPTION_LIMITS)}")
        if value is None or value == "":
            continue
        low, high = OPTION_LIMITS[key]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ValueError(f"option {key} must be a whole number from {low} to {high}")
        options[key] = value
    try:
        rules = Rules(**options)
    except RulesError as exc:
        raise ValueError(str(exc)) from None
    return rules, seats


def request_lang(request: Request | WebSocket) -> str:
    """The page's language: ``?lang=`` (the switcher), else the remembered cookie, else Accept-Language."""
    for value in (request.query_params.get("lang"), request.cookies.get("lang")):
        code = i18n.normalize(value)
        if code:
            return code
    return i18n.negotiate(request.headers.get("accept-language"))


def tr_of(request: Request | WebSocket) -> Any:
    return i18n.translator(request_lang(request)).gettext


def create_app(
    db_path: str | Path = "spots.sqlite3",
    bot_delay: float = 1.0,
    durable: bool = False,
    rate: float = RATE,
    burst: float = BURST,
) -> FastAPI:
    """The web app on one SQLite file.

    ``bot_delay``: seconds a bot waits before each move, so people can follow it.
    ``durable``: fsync every move. ``rate``/``burst``: the per-connection message limit.
    """
    store = Store(db_path, durable=durable)
    hub = Hub(store, bot_delay=bot_delay)
    hub.load()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.start()
        yield
        await hub.stop()
        store.close()

    app = FastAPI(title="Spots", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(directory=HERE / "templates")

    def page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        lang = request_lang(request)
        tr = i18n.translator(lang)
        here = request.url.remove_query_params("lang")
        switch = [{"code": code, "name": name, "url": f"{here.path}?{here.include_query_params(lang=code).query}",
                   "current": code == lang} for code, name in i18n.LANGUAGES.items()]
        response = templates.TemplateResponse(request, template, {
            **context, "_": tr.gettext, "ngettext": tr.ngettext, "lang": lang, "languages": switch,
            "words": js_words(tr),
        }, status_code=status)
        if i18n.normalize(request.query_params.get("lang")):  # the switcher: remember the choice
            response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
        return response

    def not_found(request: Request, what: str) -> HTMLResponse:
        _ = tr_of(request)
        return page(request, "message.html", 404, title=_("Not found"), message=what)

    def room_or_none(table_id: str) -> Room | None:
        return hub.rooms.get(table_id)

    # ------------------------------------------------------------------ pages

    @app.get("/", response_class=HTMLResponse)
    async def lobby(request: Request) -> HTMLResponse:
        tiles = [{"name": t.name, "title": t.title, "colour": t.colour} for t in TILES.values()]
        _ = tr_of(request)
        labels = {s: _(TRICK_SET_LABELS.get(s, s)) for s in TRICK_SETS}
        bots = {kind.name: list(kind.bots) for kind in GAMES.values()}
        return page(request, "lobby.html", tiles=tiles, bots=bots, sets=TRICK_SETS, set_labels=labels)

    @app.get("/host/{host_token}", response_class=HTMLResponse)
    async def host_page(request: Request, host_token: str) -> HTMLResponse:
        table_id = hub.by_host.get(host_token)
        if table_id is None:
            return not_found(request, tr_of(request)("No table has this host link."))
        room = hub.rooms[table_id]
        base = str(request.base_url).rstrip("/")
        seats = [
            {"seat": s.seat, "name": s.name, "kind": s.kind, "bot": s.bot, "claimed": s.claimed,
             "link": f"{base}/play/{s.token}" if s.token else None}
            for s in room.row.seats
        ]
        return page(request, "host.html", table=room.id, seats=seats, watch=f"{base}/t/{room.id}", game=room.kind.name)

    @app.get("/play/{token}", response_class=HTMLResponse)
    async def play_page(request: Request, token: str) -> HTMLResponse:
        found = hub.claim(token)
        if found is None:
            return not_found(request, tr_of(request)(
                "This seat link is not valid (the seat may have been taken from the lobby)."))
        room, seat = found
        return page(request, "table.html", table=room.id, seat=seat, token=token, name=room.names[seat],
                    game=room.kind.name)

    @app.get("/t/{table_id}", response_class=HTMLResponse)
    async def watch_page(request: Request, table_id: str) -> HTMLResponse:
        room = room_or_none(table_id)
        if room is None:
            return not_found(request, tr_of(request)("There is no table {table}.").format(table=repr(table_id)))
        return page(request, "table.html", table=table_id, seat=None, token="", name="", game=room.kind.name)

    @app.get("/t/{table_id}/replay", response_class=HTMLResponse)
    async def replay_page(request: Request, table_id: str) -> HTMLResponse:
        room = room_or_none(table_id)
        if room is None:
            return not_found(request, tr_of(request)("There is no table {table}.").format(table=repr(table_id)))
        return page(request, "replay.html", table=table_id, moves=len(room.log), game=room.kind.name)

    # ------------------------------------------------------------------ JSON API

    @app.get("/api/tables")
    async def list_tables() -> dict[str, Any]:
        rows = [r.summary() for r in hub.rooms.values()]
        rows.sort(key=lambda r: -r["updated"])
        return {"tables": rows}

    @app.post("/api/tables")
    async def create_table(request: Request) -> Response:
        raw = await request.body()
        if len(raw) > 16384:
            return _error(413, "too-large", "the request is too large")
        try:
            kind, rules, seats = parse_new_table(json.loads(raw))
        except json.JSONDecodeError:
            return _error(400, "bad-json", "the request body is not valid JSON")
        except ValueError as exc:
            return _error(400, "bad-table", str(exc))
        room = hub.create(kind, rules, seats)
        base = str(request.base_url).rstrip("/")
        return JSONResponse({
            "id": room.id, "game": kind.name, "host": f"{base}/host/{room.row.host_token}",
            "watch": f"{base}/t/{room.id}",
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "link": f"{base}/play/{s.token}"
                       if s.token else None} for s in room.row.seats],
        }, status_code=201)

    @app.get("/api/tables/{table_id}")
    async def table_view(table_id: str) -> Response:
        room = room_or_none(table_id)
        if room is None:
            return _error(404, "unknown-table", f"there is no table {table_id!r}")
        return JSONResponse({**room.summary(), "view": room.current_view(), "log": room.log})

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> Response:
        room = room_or_none(table_id)
        if room is None:
            return _error(404, "unknown-table", f"there is no table {table_id!r}")
        try:
            body = json.loads(await request.body())
        except json.JSONDecodeError:
            return _error(400, "bad-json", "the request body is not valid JSON")
        seat = body.get("seat") if isinstance(body, dict) else None
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(room.row.seats):
            return _error(400, "bad-seat", "'seat' must be a seat number of this table")
        name = body.get("name")
        token = hub.join_free(room, seat, _clean_name(name, "") or None)
        if token is None:
            return _error(409, "seat-taken", f"seat {seat} is not a free human seat")
        base = str(request.base_url).rstrip("/")
        return JSONResponse({"seat": seat, "token": token, "link": f"{base}/play/{token}"})

    @app.get("/api/tables/{table_id}/replay")
    async def replay_step(request: Request, table_id: str, at: int = -1, side: int = 0) -> Response:
        """The position after ``at`` moves, with the log so far (the replay viewer's data).

        ``side``: whose side of a Double Spot frame to draw (0 or 1).
        """
        room = room_or_none(table_id)
        if room is None:
            return _error(404, "unknown-table", f"there is no table {table_id!r}")
        if side not in (0, 1):
            return _error(400, "bad-side", "'side' must be 0 or 1")
        moves = room.state.history()
        total = len(moves)
        count = total if at < 0 or at > total else at
        state = room.state if count == total else await asyncio.to_thread(
            state_at, room.kind, room.state.rules, moves, count)
        lang = request_lang(request)
        data = room.kind.view(state, room.seat_info(), count, i18n.translator(lang), side, False)
        return JSONResponse({"at": count, "total": total, "view": data, "move": moves[count - 1] if count else None,
                             "log": room.log_in(lang)[:count]})

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> Response:
        room = room_or_none(table_id)
        if room is None:
            return _error(404, "unknown-table", f"there is no table {table_id!r}")
        doc = {"format": room.kind.record_format, "version": 1, "rules": room.state.rules.to_dict(),
               "moves": room.state.history()}
        return JSONResponse(doc, headers={
            "Content-Disposition": f'attachment; filename="{room.kind.name}-{room.id}.json"'})

    # ------------------------------------------------------------------ WebSocket

    @app.websocket("/ws/{table_id}")
    async def socket(ws: WebSocket, table_id: str, token: str = "") -> None:
        await ws.accept()
        room = room_or_none(table_id)
        if room is None:
            await ws.send_json({"type": "error", "code": "unknown-table", "message": f"there is no table {table_id!r}"})
            await ws.close(code=4404)
            return
        seat: int | None = None
        if token:
            found = hub.claim(token)
            if found is None or found[0] is not room:
                await ws.send_json({"type": "error", "code": "bad-token",
                                    "message": "this seat link is not valid for this table"})
                await ws.close(code=4403)
                return
            seat = found[1]
        conn = Conn(seat, request_lang(ws))
        writer = asyncio.get_running_loop().create_task(_writer(ws, conn))
        conn.send(json.dumps({"type": "hello", "table": room.id, "seat": seat,
                              "role": "player" if seat is not None else "spectator",
                              "name": None if seat is None else room.names[seat]}))
        room.join(conn)
        try:
            while not conn.dropped:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    data = message.get("bytes") or b""
                    size = len(data)
                else:
                    size = len(text.encode("utf-8")) if len(text) * 4 > MAX_MESSAGE else len(text)
                reply = await _handle(room, conn, text, size)
                if reply is not None:
                    conn.send(json.dumps(reply))
        except WebSocketDisconnect:
            pass
        finally:
            room.leave(conn)
            with contextlib.suppress(asyncio.QueueFull):
                conn.queue.put_nowait(None)
            writer.cancel()
            with contextlib.suppress(BaseException):
                await writer

    async def _writer(ws: WebSocket, conn: Conn) -> None:
        """Drain one viewer's queue; stop (and close) when told or when the socket fails."""
        try:
            while True:
                text = await conn.queue.get()
                if text is None:
                    if conn.dropped:
                        await ws.close(code=1008)
                    return
                await ws.send_text(text)
        except Exception:
            conn.dropped = True

    async def _handle(room: Room, conn: Conn, text: str | None, size: int) -> dict[str, Any] | None:
        """One client message: a reply for the sender (an error, a hint), or None."""

        _ = i18n.translator(conn.lang).gettext

        def error(code: str, message: str, **more: Any) -> dict[str, Any]:
            return {"type": "error", "code": code, "message": message, **more}

        if not conn.allow(rate, burst):
            return error("rate-limited", _("too many messages: at most {rate} a second; this one was ignored").format(
                rate=f"{rate:g}"))
        if size > MAX_MESSAGE:
            return error("too-large", _("messages are limited to {limit} bytes; this one had {size}").format(
                limit=MAX_MESSAGE, size=size))
        if text is None:
            return error("bad-message", _("send text frames holding JSON objects"))
        try:
            msg = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            return error("bad-json", _("the message is not valid JSON"))
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            return error("bad-message", _("a message is a JSON object with a 'type': move, hint, sync or ping"))
        kind = msg["type"]
        if kind == "ping":
            return {"type": "pong"}
        if kind == "sync":
            room.full_state(conn)
            return None
        if kind not in ("move", "hint"):
            return error("bad-message", _("unknown message type {kind}; the types are move, hint, sync, ping").format(
                kind=repr(kind)))
        if conn.seat is None:
            return error("spectator", _("spectators cannot act; open a seat's invite link to play"))
        claimed = msg.get("seat", conn.seat)
        if claimed != conn.seat:
            return error("wrong-seat", _("this connection plays seat {seat}; it cannot act for seat {claimed}").format(
                seat=conn.seat, claimed=repr(claimed)))
        if kind == "hint":
            return await _hint(room, conn.seat, conn.lang)
        at = msg.get("at")
        if at is not None and (not isinstance(at, int) or isinstance(at, bool)):
            return error("bad-message", _("'at' must be the number of moves you have seen"))
        try:
            index, canonical = room.submit(msg.get("move"), conn.seat, at, conn.lang)
        except MoveError as exc:
            extra = {"legal": exc.legal} if exc.legal is not None else {}
            return error(exc.code, exc.message, move=msg.get("move") if isinstance(msg.get("move"), str) else None,
                         **extra)
        return {"type": "ok", "move": canonical, "index": index, "moves": len(room.log)}

    async def _hint(room: Room, seat: int, lang: str = "en") -> dict[str, Any]:
        state = room.state
        tr = i18n.translator(lang)
        _ = tr.gettext
        if state.is_terminal() or state.current_player() != seat:
            return {"type": "error", "code": "not-your-turn", "message": _("hints are given on your own turn")}
        try:
            advice = await asyncio.wait_for(
                asyncio.to_thread(room.kind.advice, state.clone(), room.names, tr), timeout=20)
        except TimeoutError:
            return {"type": "error", "code": "hint-timeout", "message": _("the advisor took too long")}
        return {"type": "hint", "moves": len(room.log), "advice": advice}

    return app
