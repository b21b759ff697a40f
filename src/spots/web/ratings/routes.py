"""Routes for what outlives a table: its talk in the replay, the leaderboards and each player's ratings.

Why read-only: ratings are computed by the server alone from finished records
(``ratings.py``); no route accepts a result, a place or a rating from anyone.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ... import i18n
from ..accounts.service import name_key
from ..context import Context, request_lang, tr_of
from ..games import hosted
from ..guard import Refused, whole_number

MAX_BOARD = 200


def _game(game: str) -> Any:
    if game not in hosted():
        raise Refused(404, "unknown-game", f"there is no game {game!r}; the games are {', '.join(hosted())}")
    return hosted()[game]


def _min_games(ctx: Context, request: Request) -> int:
    value = request.query_params.get("min_games")
    if value is None:
        return ctx.limits.leaderboard_min_games
    number = whole_number(value)
    if number is None or not 1 <= number <= 10000:
        raise Refused(400, "bad-query", "'min_games' must be a whole number from 1 to 10000")
    return number


def routes(ctx: Context) -> APIRouter:
    """The JSON routes (under ``/api``)."""
    router = APIRouter()
    hub = ctx.hub

    @router.get("/tables/{table_id}/chat")
    async def table_chat(request: Request, table_id: str) -> Response:
        """A table's talk for its replay: both channels, each line with the number of moves made when said."""
        room = await hub.table(table_id)
        if room is None:
            return JSONResponse({"error": "unknown-table", "message": f"there is no table {table_id!r}"}, 404)
        talk = await hub.talk.of(table_id)
        _, following = await hub.writer.run(hub.store.rematch_of, table_id)
        return JSONResponse({"lines": hub.talk.replay_lines(talk.lines, i18n.resolve(request_lang(request))),
                             "next": following})

    @router.get("/leaderboard/{game}")
    async def leaderboard(request: Request, game: str) -> Response:
        _game(game)
        least = _min_games(ctx, request)
        return JSONResponse({"game": game, "min_games": least, "shown": "mu ± 2 sigma",
                             "players": await hub.ratings.board(game, least, MAX_BOARD)})

    @router.get("/players/{name}/ratings")
    async def player_ratings(name: str) -> Response:
        account = await hub.writer.run(hub.store.account_named, name_key(name))
        if account is None:
            return JSONResponse({"error": "unknown-player", "message": f"nobody here has the name {name!r}"}, 404)
        return JSONResponse({"player": account.name, "ratings": await hub.ratings.profile(account.id),
                             "reliability": await hub.ratings.reliability(account.id)})

    return router


def page_routes(ctx: Context) -> APIRouter:
    """The leaderboard pages."""
    router = APIRouter()
    hub = ctx.hub

    @router.get("/leaderboard/{game}", response_class=HTMLResponse)
    async def leaderboard_page(request: Request, game: str) -> HTMLResponse:
        _ = tr_of(request)
        if game not in hosted():
            return ctx.message(request, 404, _("Not found"), _("There is no game {game}.").format(game=repr(game)))
        least = _min_games(ctx, request)
        rows = await hub.ratings.board(game, least, MAX_BOARD)
        return ctx.page(request, "leaderboard.html", game=game, title=_(hosted()[game].spec.title), rows=rows,
                        min_games=least, games=[{"name": g, "title": _(k.spec.title)} for g, k in hosted().items()])

    return router
