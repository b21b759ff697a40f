"""A served table's committed dice: drawing each chance event, the players' salts, and "Check the dice".

Why here: the scheme itself (the commitment, the key of each event, the check) is the engine's
(``spots.core.commitment``), so ``spots verify`` checks a record with no server; this module is what the server
adds: a table made online commits to a secret seed before its first chance event (``Hub.create``), every chance
event it draws comes from ``chance_dice``, a seated player's page adds a salt (the socket's ``salt``), the seed
stays in the database until the game is over, and ``/api/tables/<id>/dice`` shows the commitment and the salts
(and then the seed and the check).
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request

from ... import i18n
from ...core.commitment import Commitment, Salt, check_salt, event_dice, salts_from_text, salts_text
from ..guard import Refused
from ..writer import Unavailable

if TYPE_CHECKING:
    from ..context import Context
    from ..store import TableRow
    from ..tables.rooms import Conn, Room


def chance_dice(dice: Commitment | None, fallback: random.Random, move: int) -> random.Random:
    """The generator of the chance event that is move ``move`` of a table with these dice: from the committed seed
    and the salts (``event_dice``), or ``fallback`` for a table with no commitment (a tutorial's or a challenge's
    dice) and for a deal's table, which draws from the deal's own keyed dice."""
    if dice is None or dice.seed is None or dice.deal:
        return fallback
    return event_dice(dice.seed, dice.salts, move)


async def fresh_salts(room: Room, after: Any) -> None:
    """Before drawing chance events on a database other processes share, the salts as stored (a player's page
    may have said its salt to another process)."""
    dice = room.row.dice
    if dice is not None and room.hub.store.shared and room.kind.draws_chance(after):
        found = await room.hub.writer.run(room.hub.store.read, "SELECT dice_salts FROM tables WHERE id = ?",
                                          (room.id,))
        if found:
            room.row.dice = replace(dice, salts=salts_from_text(found[0][0]))


def drawn_with(row: TableRow) -> str | None:
    """The salts a table's chance events are drawn with, as stored: its moves are written only while the
    database still holds these (None: a table with no commitment, nothing to hold)."""
    return None if row.dice is None else salts_text(row.dice.salts)


def commitment_of(row: TableRow) -> str | None:
    """The fingerprint a table's pages show from the start (None: a table with no commitment)."""
    return None if row.dice is None else row.dice.commitment


def shown(row: TableRow, over: bool) -> Commitment | None:
    """The table's dice as anyone may see them: the seed only once the game is over (a daily deal's key, once the
    day after it has begun as well: until then others are still playing the deal)."""
    dice = row.dice
    if dice is None:
        return None
    due = dice.reveal_from is None or datetime.now(UTC).date().isoformat() >= dice.reveal_from
    return dice if over and due else replace(dice, seed=None)


async def add_salt(room: Room, conn: Conn, text: Any) -> dict[str, Any] | None:
    """A seated player's salt (the socket's ``salt``): kept once per seat, for the chance events from the next
    move on, written before anyone is told. The reply for the sender: an error, or None (everyone hears)."""
    _ = i18n.translator(conn.lang).gettext
    dice, seat = room.row.dice, conn.seat
    if dice is None:
        return {"type": "error", "code": "no-commitment",
                "message": _("this table's dice are not committed to (a tutorial's or a named deal's): no salt")}
    if dice.deal:
        return {"type": "error", "code": "no-salt",
                "message": _("this table plays a deal's keyed dice, committed to whole: they take no salt")}
    try:
        salt = check_salt(text)
    except ValueError:
        return {"type": "error", "code": "bad-salt",
                "message": _("a salt is 1 to 64 printable characters (the page makes one; any text of your own will "
                             "do)")}
    async with room.lock:
        if room.state.is_terminal():
            return {"type": "error", "code": "game-over", "message": _("the game is over; no move is accepted")}
        if any(s.seat == seat for s in dice.salts):
            return {"type": "error", "code": "salt-taken", "message": _("your seat has added its salt already")}
        moves = len(room.log)
        salts = (*dice.salts, Salt(seat if seat is not None else -1, salt, moves + 1))  # counts from the next move
        try:
            stored = await room.hub.writer.run(room.hub.store.add_salt, room.id, salts_text(dice.salts),
                                               salts_text(salts), moves)
        except Unavailable as exc:
            return {"type": "error", "code": "server-error", "retry_after": exc.retry,
                    "message": _("the server could not save this just now; try again")}
        if not stored:  # another process moved the table or took a salt first: the next page load tries again
            return {"type": "error", "code": "stale", "message": _("the table has just moved on; try again")}
        room.row.dice = replace(dice, salts=salts)
    texts: dict[str, str] = {}  # by language: the seats' names are the reader's
    for viewer in list(room.conns):  # every page of the table shows the salts said so far
        if viewer.lang not in texts:
            texts[viewer.lang] = json.dumps({"type": "dice", **dice_json(room, viewer.lang)})
        viewer.send(texts[viewer.lang])
    return None


def dice_json(room: Room, lang: str) -> dict[str, Any]:
    """What a page shows of the table's dice: the commitment, the salts, and the seed once the game is over (the
    seats named in the reader's ``lang``)."""
    over = room.state.is_terminal()
    dice = shown(room.row, over)
    if dice is None:
        return {"commitment": None}
    return {**dice.to_dict(reveal=over), "names": room.names_in(lang)}


def routes(ctx: Context) -> APIRouter:
    """``GET /api/tables/<id>/dice``: the commitment and salts (the seed once over); ``.../dice/check``: the check."""
    from ..context import request_lang  # here: the context module imports this one

    router = APIRouter(prefix="/api")
    hub = ctx.hub

    async def room_of(table_id: str) -> Room:
        room = await hub.table(table_id)
        if room is None:
            raise Refused(404, "unknown-table", f"there is no table {table_id!r}")
        return room

    @router.get("/tables/{table_id}/dice")
    async def dice(request: Request, table_id: str) -> dict[str, Any]:
        return dice_json(await room_of(table_id), request_lang(request))

    @router.get("/tables/{table_id}/dice/check")
    async def check(table_id: str) -> dict[str, Any]:
        room = await room_of(table_id)
        if room.row.dice is None:
            raise Refused(404, "no-commitment", "this table's dice were not committed to (made before the dice were, "
                                                "or a tutorial's or a named deal's): there is nothing to check")
        if not room.state.is_terminal():
            raise Refused(409, "not-over", "the seed is revealed when the game is over; check the dice then")
        verdict = await asyncio.to_thread(room.kind.spec.verify_dice, room.record())
        return {"ok": verdict.ok, "events": verdict.events, "words": verdict.words}

    return router
