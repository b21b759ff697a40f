"""Learn to play: a guided first game of any game that describes one (``WebView.tutorial``), and the games' rules
pages (``WebView.rules``: each game's template and data, from its folder; ``/rules`` opens the first game's, and
each rules page links the others).

Why seeded: every newcomer meets the same gentle deal and the same first rolls, so
the callouts (static/tutorial.js and the game's own script) land on the moments they
explain. Only a tutorial's own table rolls seeded dice; every other table keeps the
OS's entropy (``rooms.DICE``). The game itself is a normal table: it can be left and
finished like any other.
"""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ... import i18n
from ...core.webview import N_
from ..context import request_lang, tr_of
from ..games import GameKind, Tutorial, hosted
from ..guard import Refused, client_of, read_body
from ..tables.forms import clean_name

router = APIRouter()

LEARNER = N_("Learner")
TEACHER = N_("Biscuit the bot")
NAME_FORM = 1024  # bytes: the form holds a name and a game


def teaching() -> dict[str, tuple[GameKind, Tutorial]]:
    """The hosted games that have a tutorial, in the registry's order (the lobby offers one button each)."""
    return {name: (kind, kind.web.tutorial) for name, kind in hosted().items() if kind.web.tutorial is not None}


async def new_tutorial(hub: Any, kind: GameKind, lesson: Tutorial, lang: str, name: str | None = None,
                       client: str = "") -> tuple[Any, str]:
    """Create a tutorial table (the learner in seat 0, a bot in seat 1); return the room and the seat link token."""
    _ = i18n.translator(lang).gettext
    rules = kind.spec.rules(**lesson.rules)  # a new game with these options (the rest: the defaults)
    learner = clean_name(name, "") or _(LEARNER)  # the lobby's name check: no control characters
    seats = [{"kind": "human", "bot": None, "name": learner}, {"kind": "bot", "bot": lesson.bot, "name": _(TEACHER)}]
    room = await hub.create(kind, rules, seats, client=client, dice=random.Random(lesson.seed))
    return room, str(room.row.seats[0].token)


@router.post("/learn")
async def learn(request: Request) -> RedirectResponse:
    """The lobby's Learn buttons: a fresh tutorial table of the chosen game (the first by default), then the seat."""
    raw = await read_body(request, NAME_FORM)  # a plain urlencoded form (no multipart parser needed for two fields)
    form = parse_qs(raw.decode("utf-8", "replace"))
    games = teaching()
    game = form.get("game", [next(iter(games), "")])[0]  # none named: the first game that has one (Spots)
    if game not in games:
        raise Refused(400, "bad-game", f"there is no tutorial for the game {game!r}; there is one for: "
                      + ", ".join(games))
    _, token = await new_tutorial(request.app.state.hub, *games[game], request_lang(request),
                                  form.get("name", [""])[0], client_of(request))
    return RedirectResponse(f"/play/{token}?learn=1", status_code=303)


def with_rules() -> dict[str, GameKind]:
    """The hosted games that have a rules page, in the registry's order."""
    return {name: kind for name, kind in hosted().items() if kind.web.rules is not None}


@router.get("/rules")
async def first_rules(request: Request) -> Response:
    """The lobby's Rules link: the first game's rules (each rules page links the other games' ones)."""
    games = with_rules()
    if not games:
        _ = tr_of(request)
        return request.app.state.ctx.message(request, 404, _("Not found"), _("Not found"))  # no game has one
    query = f"?{request.url.query}" if request.url.query else ""  # keeps ?lang=
    return RedirectResponse(f"/rules/{next(iter(games))}{query}", status_code=307)


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules_page(request: Request, game: str) -> HTMLResponse:
    """A game's rules page: its template from its folder, with the data its web view makes in the page's language."""
    ctx, _ = request.app.state.ctx, tr_of(request)
    games = with_rules()
    kind = games.get(game)
    if kind is None or kind.web.rules is None:
        if game in hosted():
            text = _("{game} has no rules page; there are rules for: {games}.").format(
                game=hosted()[game].spec.title, games=", ".join(k.spec.title for k in games.values()))
        else:
            text = _("There is no game {game}.").format(game=repr(game))
        return ctx.message(request, 404, _("Not found"), text)
    rules = kind.web.rules
    pages = [{"name": name, "title": k.spec.title, "url": f"/rules/{name}", "current": name == game}
             for name, k in games.items()]
    tr = i18n.translator(request_lang(request))
    return ctx.page(request, f"games/{game}/{rules.template}", rules_pages=pages, look=kind.look(tr.gettext),
                    **rules.context(tr))
