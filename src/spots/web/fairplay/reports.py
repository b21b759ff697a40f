"""Report and block: a player tells the host about a chat line or a player, and shuts someone out.

Why both: a report asks the host to act (``spots users reports`` lists them, with the line as it was said, and the
host may then disable the account), while a block acts at once and for the blocker only: nothing the blocked
account says at a table as a player reaches the blocker's pages, none of its invitations reaches their My games,
its rematch offers are not shown to them, and a rematch that would seat the two together is not made. A block is
never told to the blocked player. Both need an account (a guest has nothing to block with, nor anything a host could
act on); reports are rate-limited per account.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..accounts.service import account_of, name_key
from ..accounts.store import AccountRow
from ..guard import Buckets, Refused, check_text, parse_json, read_body, without_format

if TYPE_CHECKING:
    from ..context import Context

BODY = 4096  # bytes: a report holds a table, a line and a few sentences
WHY = 500  # characters of a report's reason at most
REPORTS_PER_HOUR = 10  # per account


def signed_in(request: Request) -> AccountRow:
    me = account_of(request)
    if me is None:
        raise Refused(401, "signed-out", "sign in first: reports and blocks belong to an account")
    return me


def reason(body: dict[str, Any]) -> str:
    why = body.get("why")
    if not isinstance(why, str) or not why.strip():
        raise Refused(400, "bad-report", "'why' must say in a few words what is wrong (1 to 500 characters)")
    why = " ".join(without_format(check_text(why.replace("\n", " "), "the reason")).split())
    if len(why) > WHY:
        raise Refused(400, "bad-report", f"'why' is limited to {WHY} characters; this one had {len(why)}")
    return why


def routes(ctx: Context) -> APIRouter:
    """``POST /api/reports``; ``POST /api/blocks`` and ``DELETE /api/blocks/<name>`` (My games lists the blocks)."""
    router = APIRouter(prefix="/api")
    hub = ctx.hub
    buckets = Buckets(REPORTS_PER_HOUR / 3600, REPORTS_PER_HOUR)

    async def body_of(request: Request) -> dict[str, Any]:
        body = parse_json(await read_body(request, BODY, ctx.limits.body_timeout))
        if not isinstance(body, dict):
            raise Refused(400, "bad-body", "send a JSON object")
        return body

    async def named(name: Any) -> AccountRow:
        found = await hub.writer.run(hub.store.account_named, name_key(name)) if isinstance(name, str) else None
        if found is None:
            raise Refused(404, "unknown-player", f"nobody here has the name {name!r}")
        return found

    async def line_of(table_id: Any, line_id: Any) -> tuple[str | None, str, str]:
        """The reported chat line: the account of its speaker (a seat's; None: a guest or a spectator), the name
        shown, the text."""
        room = await hub.table(table_id) if isinstance(table_id, str) else None
        if room is None:
            raise Refused(404, "unknown-table", f"there is no table {table_id!r}")
        talk = await hub.talk.of(room.id)
        line = next((x for x in talk.lines if x.get("id") == line_id), None)
        if line is None:
            raise Refused(404, "unknown-line", f"table {room.id} has no chat line {line_id!r}")
        seat = line.get("seat")
        account = room.row.seats[seat].account if isinstance(seat, int) else None
        name = line["name"] or (room.names[seat] if isinstance(seat, int) else "")  # a seat nobody named: its label
        return account, str(name), str(line["text"])

    @router.post("/reports")
    async def report(request: Request) -> Response:
        me = signed_in(request)
        body = await body_of(request)
        why = reason(body)
        if "line" in body:
            account, name, text = await line_of(body.get("table"), body.get("line"))
            table: str | None = str(body["table"])
        else:
            found = await named(body.get("player"))
            account, name, text, table = found.id, found.name, None, None
        if account == me.id:
            raise Refused(400, "bad-report", "you cannot report yourself")
        wait = buckets.take(me.id)
        if wait:
            raise Refused(429, "report-limit", f"at most {REPORTS_PER_HOUR} reports an hour; the host has yours",
                          max(1, round(wait)))
        report_id = await hub.writer.run(hub.store.add_report, me.id, account, name, table, text, why)
        return JSONResponse({"id": report_id}, status_code=201)

    @router.post("/blocks")
    async def block(request: Request) -> Response:
        me = signed_in(request)
        other = await named((await body_of(request)).get("player"))
        if other.id == me.id:
            raise Refused(400, "bad-block", "you cannot block yourself")
        await hub.writer.run(hub.store.set_block, me.id, other.id, True)
        await hub.talk.blocks_changed(me.id)
        return JSONResponse({"blocked": other.name}, status_code=201)

    @router.delete("/blocks/{name}")
    async def unblock(request: Request, name: str) -> Response:
        me = signed_in(request)
        other = await named(name)
        await hub.writer.run(hub.store.set_block, me.id, other.id, False)
        await hub.talk.blocks_changed(me.id)
        return JSONResponse({"unblocked": other.name})

    return router
