"""The FastAPI app: the lobby, table and replay pages, a small JSON API and the WebSocket protocol.

Why this shape: the server owns the game. Pages are plain HTML from Jinja2
templates plus static JS/CSS (no build step); the JS only draws the views the
server sends and sends back the notation of a move the server offered. The
protocol is described in ``docs/web.md``. The routes live in ``pages``,
``api`` and ``sockets``; this module wires them to one database file.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from .accounts import routes as account_pages
from .accounts.service import Accounts, SessionReader
from .botapi.ladder import Ladder
from .botapi.pages import routes as bot_pages
from .botapi.stream import BotStreams
from .botapi.stream import routes as bot_routes
from .clubs.routes import routes as club_routes
from .coach import service as coach
from .config import Limits
from .context import HERE, Context, tr_of
from .fairplay.dice import routes as dice_routes
from .fairplay.reports import routes as report_routes
from .games import ASSET_TYPES, asset_path, hosted
from .guard import Gate, Refused
from .invitations import service as invitations
from .notices.addresses import Addresses
from .notices.addresses import routes as address_routes
from .notices.service import Notices
from .pages import routes as pages
from .pages import tutorial
from .puzzles.routes import routes as puzzle_routes
from .ratings import routes as standing
from .store import open_store
from .tables import api, sockets
from .tables.hub import Hub
from .tables.workers import Workers
from .tournaments.director import Director
from .tournaments.routes import routes as tournament_routes
from .writer import Unavailable, Writer


def create_app(
    db_path: str | Path = "spots.sqlite3",
    bot_delay: float = 1.0,
    durable: bool = False,
    rate: float | None = None,
    burst: float | None = None,
    limits: Limits | None = None,
    public_url: str = "",
    workers: int = 0,
    origin: str | None = None,
    notices: dict[str, Any] | None = None,
    **more_limits: Any,
) -> FastAPI:
    """The web app on one SQLite file (held with a lock file while the app runs) or a PostgreSQL database.

    ``db_path``: a file, or a ``postgresql://`` URL that several server processes may share.
    ``bot_delay``: seconds a bot waits before each move, so people can follow it.
    ``durable``: fsync every move. ``limits`` (or single limits by name, and
    ``rate``/``burst`` for the per-connection message limit): what one client and
    the whole server may use. ``public_url``: the address links are built from.
    ``workers``: processes for bots and hints (0: threads of this process).
    ``origin``: the site whose pages may open sockets and change things here (by default the
    public URL's; "" or no public URL: the site each request names in its Host header).
    Raises ``StoreError`` (one line naming the database) when the database cannot be used.
    """
    limits = (limits or Limits()).but(**more_limits)
    if rate is not None:
        limits = limits.but(message_rate=rate)
    if burst is not None:
        limits = limits.but(message_burst=burst)
    store = open_store(db_path, durable=durable)
    writer = Writer(errors=store.errors)
    pool = Workers(workers)
    hub = Hub(store, writer, pool, limits, bot_delay=bot_delay)
    try:
        hub.load()
    except Exception:
        store.close()
        raise
    ctx = Context(hub, limits, public_url.rstrip("/"))
    reports = coach.Coach(store, writer, workers)  # "How did it go?": its own worker process
    hub.on_finished.append(reports.finished)
    hub.on_moved.append(reports.moved)
    told = Notices(hub, ctx.public_url, **(notices or {}))  # your-turn e-mail and Web Push (notices.py)
    ctx.vapid_public = told.vapid.public_key if told.vapid else ""
    accounts = ctx.accounts = Accounts(hub, limits, secure=public_url.startswith("https://"))
    origin = public_url if origin is None else origin

    bots = BotStreams(ctx)  # the bot API's connections (botapi/stream.py)
    ladder = Ladder(ctx, bots)  # the bot ladder's pairing (botapi/ladder.py)
    director = Director(ctx, told, reports)  # tournaments: rounds, results, standings (tournaments/director.py)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        told.start()
        ladder.start()
        director.start()
        yield
        await director.stop()
        await ladder.stop()
        await told.stop()
        await hub.stop()
        accounts.close()
        hub.talk.close()
        await reports.close()
        pool.close()
        writer.close()
        store.close()

    app = FastAPI(title="Spots", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.hub = hub
    app.state.ctx = ctx
    app.state.notices = told
    app.state.director = director
    app.add_middleware(SessionReader, accounts=accounts)  # inside the Gate: refused requests never reach the store
    app.add_middleware(Gate, limits=limits, origin=origin)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    @app.get("/games/{game}/{name}", include_in_schema=False)
    async def game_asset(game: str, name: str) -> Response:
        """A game's own scripts and styles, from its folder (``WebView.assets``)."""
        path = asset_path(game, name)
        if path is None:
            return Response("Not Found", status_code=404, media_type="text/plain")
        return FileResponse(path, media_type=ASSET_TYPES[path.suffix])

    app.include_router(pages.routes(ctx))
    app.include_router(api.routes(ctx))
    app.include_router(coach.routes(ctx, reports))
    app.include_router(dice_routes(ctx))  # a table's committed dice and "Check the dice"
    app.include_router(report_routes(ctx))  # reports to the host and blocks
    app.include_router(sockets.routes(ctx))
    app.include_router(standing.page_routes(ctx))  # the leaderboards
    app.include_router(tutorial.router)  # Learn to play and the rules page
    app.include_router(puzzle_routes(ctx, reports))  # the puzzle page, its answers and ratings
    for kind in hosted().values():  # each game's own pages (``WebView.routes``: Spots' Daily page and challenges)
        if kind.web.routes is not None:
            app.include_router(kind.web.routes())
    addresses = Addresses(ctx, told)  # e-mail only to confirmed addresses, each with its way out (addresses.py)
    app.include_router(account_pages.routes(ctx, accounts, origin, addresses))  # sign up and in, My games, profiles
    app.include_router(address_routes(ctx, addresses))
    app.include_router(invitations.routes(ctx))  # accepting and declining invitations by name (My games)
    app.include_router(bot_routes(ctx, bots))  # the bot API: bot accounts' programs play here (botapi/)
    app.include_router(bot_pages(ctx))  # a player's bots on their account page
    app.include_router(tournament_routes(ctx, director))  # tournaments: Swiss, round-robin, arena (tournaments/)
    app.include_router(club_routes(ctx))  # clubs: members, admins, their events and leaderboard (clubs/)

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> Response:
        return exc.response()

    @app.exception_handler(Unavailable)
    async def unavailable(request: Request, exc: Unavailable) -> Response:
        """A write the database could not take (a full disk, a file turned read-only) where no route said more:
        503 saying so, with when to try again, never a bare 500; nothing was changed (the log has the cause)."""
        if request.url.path.startswith("/api/"):
            return Refused(503, "unavailable", f"{exc.why}; nothing was changed, try again later", exc.retry
                           ).response()
        _ = tr_of(request)
        return ctx.message(request, 503, _("Try again shortly"), _(
            "The server could not save this just now, so nothing was changed; try again in a few minutes."),
            exc.retry)

    return app
