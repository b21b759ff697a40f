"""Learn to play: a guided first game of any game that describes one (``WebView.tutorial``), and the rules page.

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
from fastapi.responses import HTMLResponse, RedirectResponse

from .. import i18n
from ..games.spots.tricks import N_, TILES
from .context import request_lang
from .forms import clean_name
from .games import GameKind, Tutorial, hosted
from .guard import Refused, client_of, read_body

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
    """The lobby's Learn buttons: a fresh tutorial table of the chosen game (Spots by default), then the seat."""
    raw = await read_body(request, NAME_FORM)  # a plain urlencoded form (no multipart parser needed for two fields)
    form = parse_qs(raw.decode("utf-8", "replace"))
    game = form.get("game", ["spots"])[0]
    games = teaching()
    if game not in games:
        raise Refused(400, "bad-game", f"there is no tutorial for the game {game!r}; there is one for: "
                      + ", ".join(games))
    _, token = await new_tutorial(request.app.state.hub, *games[game], request_lang(request),
                                  form.get("name", [""])[0], client_of(request))
    return RedirectResponse(f"/play/{token}?learn=1", status_code=303)


@router.get("/rules", response_class=HTMLResponse)
async def rules_page(request: Request) -> HTMLResponse:
    """The rules summary and every tile, drawn as on the table, with its text."""
    tr = i18n.translator(request_lang(request)).gettext
    tiles: list[dict[str, Any]] = [
        {"name": t.name, "title": tr(t.title), "colour": t.colour, "text": tr(t.text), "face_up": True, "treats": 0,
         "active": False}
        for t in TILES.values()
    ]
    return request.app.state.ctx.page(request, "rules.html", tiles=tiles)
