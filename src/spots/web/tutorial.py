"""Learn to play: a guided first game against a bot on a fixed seed, and the rules page.

Why seeded: every newcomer meets the same gentle deal and the same first rolls, so
the callouts (static/tutorial.js) land on the moments they explain. Only the
tutorial's own table rolls seeded dice; every other table keeps the OS's entropy
(``rooms.DICE``). The game itself is a normal table: it can be left and finished
like any other.
"""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from .. import i18n
from ..games.spots import Rules
from ..games.spots.tricks import N_, TILES
from .context import request_lang
from .games import hosted
from .guard import client_of, read_body

router = APIRouter()

SEED = 7  # a gentle deal: the learner starts, with Missy (3, 4) and Ursula (1, 5) and a 3 in the yard
TARGET = 2  # a short game: two scored dogs win
BOT = "greedy"
LEARNER = N_("Learner")
TEACHER = N_("Biscuit the bot")
MAX_NAME = 24
NAME_FORM = 1024  # bytes: the form holds one name


async def new_tutorial(hub: Any, lang: str, name: str | None = None, client: str = "") -> tuple[Any, str]:
    """Create the tutorial table (the learner in seat 0, a bot in seat 1); return the room and the seat link token."""
    _ = i18n.translator(lang).gettext
    rules = Rules(players=2, tricks="beginner", target=TARGET)
    learner = " ".join((name or "").split())[:MAX_NAME] or _(LEARNER)
    seats = [{"kind": "human", "bot": None, "name": learner}, {"kind": "bot", "bot": BOT, "name": _(TEACHER)}]
    room = await hub.create(hosted()["spots"], rules, seats, client=client, dice=random.Random(SEED))
    return room, str(room.row.seats[0].token)


def _lang(request: Request) -> str:
    return request_lang(request)


@router.post("/learn")
async def learn(request: Request) -> RedirectResponse:
    """The lobby's Learn to play button: a fresh tutorial table, then the learner's seat."""
    raw = await read_body(request, NAME_FORM)  # a plain urlencoded form (no multipart parser needed for one field)
    name = parse_qs(raw.decode("utf-8", "replace")).get("name", [""])[0]
    _, token = await new_tutorial(request.app.state.hub, _lang(request), name, client_of(request))
    return RedirectResponse(f"/play/{token}?learn=1", status_code=303)


@router.get("/rules", response_class=HTMLResponse)
async def rules_page(request: Request) -> HTMLResponse:
    """The rules summary and every tile, drawn as on the table, with its text."""
    tr = i18n.translator(_lang(request)).gettext
    tiles: list[dict[str, Any]] = [
        {"name": t.name, "title": tr(t.title), "colour": t.colour, "text": tr(t.text), "face_up": True, "treats": 0,
         "active": False}
        for t in TILES.values()
    ]
    return request.app.state.ctx.page(request, "rules.html", tiles=tiles)
