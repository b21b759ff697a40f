"""Invitations by name: a signed-in creator keeps a human seat of a new table for another account.

How it fits: ``POST /api/tables`` takes ``"invite": "NAME"`` on a human seat (read by
``read_invites``, after ``forms.parse_new_table``); the invitation is stored with the table, in
its transaction (``invite_store.py``), and shown in the invitee's My games, where Accept binds
the seat to their account (and opens it) and Decline leaves the seat an ordinary invite-link
seat; the answer is kept, and the table's host page shows it beside the seat. Only the invitee
may do either; the seat's link is only ever sent to them, after accepting. A guest creator
cannot invite by name (guests share the link, as before). The creator may still send the seat's
link to someone else, who then takes the seat (the invitation is too late), except a guest at a
rated table (``guest_refusal``): a guest's game counts for nobody, so the seat waits for a
signed-in player.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from ..accounts.service import account_of, name_key
from ..accounts.store import AccountRow
from ..context import Context, tr_of
from ..games import hosted
from ..ratings.service import ShortOfMinimum
from ..writer import Unavailable

if TYPE_CHECKING:
    from ..tables.rooms import Room

Tr = Callable[[str], str]


async def read_invites(ctx: Context, body: Any, seats: list[dict[str, Any]], me: AccountRow | None, _: Tr
                       ) -> dict[int, AccountRow]:
    """The accounts invited by name to the seats of a create-table request (seat: account).

    Raises ValueError, saying what is wrong, for a guest creator, a seat that is not a free human seat,
    an unknown or disabled name, the creator's own name, or one name twice.
    """
    given = body.get("seats") if isinstance(body, dict) else None
    asked = {i: s["invite"] for i, s in enumerate(given or []) if isinstance(s, dict) and s.get("invite") is not None}
    if not asked:
        return {}
    if me is None:
        raise ValueError(_("Only a signed-in player can invite someone by name; as a guest, send them the seat's"
                           " link."))
    invited: dict[int, AccountRow] = {}
    for i, name in asked.items():
        seat = seats[i]
        if not isinstance(name, str) or not name.strip():
            raise ValueError(_("Seat {n}: write the name of the account to invite (the name they sign in with)."
                               ).format(n=i + 1))
        if seat["kind"] != "human" or seat["claimed"] or seat["open"]:
            raise ValueError(_("Seat {n}: only a human seat that is neither yours nor open to the lobby can be kept"
                               " for an invited player.").format(n=i + 1))
        account = await ctx.hub.writer.run(ctx.hub.store.account_named, name_key(name.strip()))
        if account is None or account.disabled:
            raise ValueError(_("Nobody here has the name {name}: invite a player by the name of their account, or"
                               " send the seat's link.").format(name=name.strip()))
        if account.id == me.id:
            raise ValueError(_("Seat {n}: you cannot invite yourself; your own seat is already yours."
                               ).format(n=i + 1))
        if any(a.id == account.id for a in invited.values()):
            raise ValueError(_("{name} is invited to two seats; invite each player once.").format(name=account.name))
        invited[i] = account
    return invited


def keep_invites(seats: list[dict[str, Any]], invited: dict[int, AccountRow], me: AccountRow) -> None:
    """Mark the invited seats of a new table, so that the store writes the invitations with the table."""
    for i, account in invited.items():
        seats[i].update(invited=account.id, inviter=me.id)


async def guest_refusal(ctx: Context, me: AccountRow | None, room: Room, seat: int, _: Tr) -> str | None:
    """Why a guest may not take this seat (before its link marks it taken): it is kept for an invited player
    at a rated table, where a guest's game would count for nobody; or None."""
    row = room.row.seats[seat]
    if me is not None or not room.row.rated or row.claimed or row.account is not None:
        return None
    found = await ctx.hub.writer.run(ctx.hub.store.invitation, room.id, seat)
    if found is None or found.status != "invited":
        return None
    return _("This seat of a rated table is kept for {name}: sign in to take it (a guest's game would count for"
             " nobody).").format(name=found.invitee_name or row.name)


async def mine(ctx: Context, me: AccountRow, _: Tr) -> list[dict[str, Any]]:
    """The invitations waiting for ``me``, for My games (never a seat's link: that comes with accepting)."""
    games = hosted()
    rows = await ctx.hub.writer.run(ctx.hub.store.invitations_of, me.id)
    return [{"table": r.table_id, "seat": r.seat, "by": r.inviter_name or _("deleted player"),
             "title": _(games[r.game].spec.title) if r.game in games else r.game} for r in rows]


class NotAccepted(Exception):
    """An invitation that cannot be answered now: the HTTP status, a short title and what happened (translated)."""

    def __init__(self, status: int, code: str, title: str, message: str, retry: int | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.title, self.message, self.retry = status, code, title, message, retry


async def _theirs(ctx: Context, me: AccountRow, table_id: str, seat: int, _: Tr) -> None:
    """Raise NotAccepted unless ``me`` is invited to this seat and has not answered yet (nothing changed)."""
    found = await ctx.hub.writer.run(ctx.hub.store.invitation, table_id, seat)
    if found is None or found.status != "invited":
        raise NotAccepted(404, "no-invitation", _("Not found"), _(
            "There is no such invitation: it was accepted, declined, or the table is gone."))
    if found.account != me.id:
        raise NotAccepted(403, "not-your-invitation", _("Not your invitation"), _(
            "This invitation is for another player; only they can accept or decline it."))


async def accept(ctx: Context, me: AccountRow, table_id: str, seat: int, _: Tr) -> str:
    """Accept ``me``'s invitation: the seat is bound to the account; its link's token is returned (raises
    NotAccepted saying why not; Unavailable when the store cannot answer). My games and the bot API share it."""
    hub, accounts = ctx.hub, ctx.accounts
    await _theirs(ctx, me, table_id, seat, _)
    room = await hub.table(table_id)
    row = None if room is None else room.row.seats[seat]
    if room is None or row is None or row.token is None or accounts is None or room.state.is_terminal():
        await hub.writer.run(hub.store.drop_invitation, table_id, seat, me.id)
        raise NotAccepted(410, "too-late", _("Too late"), _("This table is over or gone."))
    taken = NotAccepted(409, "too-late", _("Too late"), _("Someone took this seat with its link before you accepted."))
    if row.claimed or row.account is not None:
        await hub.writer.run(hub.store.drop_invitation, table_id, seat, me.id)
        raise taken
    await hub.claim(row.token)
    try:
        bound = await accounts.bind(room, seat, me)
    except ShortOfMinimum as exc:
        raise NotAccepted(403, "short-of-minimum", _("Not your seat"), exc.words(_)) from None
    if not bound:
        raise taken
    await hub.writer.run(hub.store.answer_invitation, table_id, seat, me.id, "accepted")
    return row.token


async def decline(ctx: Context, me: AccountRow, table_id: str, seat: int, _: Tr) -> None:
    """Decline ``me``'s invitation: the seat stays an ordinary invite-link seat (raises NotAccepted)."""
    await _theirs(ctx, me, table_id, seat, _)
    await ctx.hub.writer.run(ctx.hub.store.answer_invitation, table_id, seat, me.id, "declined")


class InvitationPages:
    """Accept and Decline (plain HTML forms on My games)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def accept(self, request: Request, table_id: str, seat: int) -> Response:
        return await self._answer(request, table_id, seat, True)

    async def decline(self, request: Request, table_id: str, seat: int) -> Response:
        return await self._answer(request, table_id, seat, False)

    async def _answer(self, request: Request, table_id: str, seat: int, yes: bool) -> Response:
        _ = tr_of(request)
        me = account_of(request)
        if me is None:
            return see_other("/signin")
        try:
            if yes:
                return see_other(f"/play/{await accept(self.ctx, me, table_id, seat, _)}")
            await decline(self.ctx, me, table_id, seat, _)
        except NotAccepted as exc:
            return self.ctx.message(request, exc.status, exc.title, exc.message, exc.retry)
        except Unavailable as exc:
            return self.ctx.message(request, 503, _("Try again"), exc.why, exc.retry)
        return see_other("/me")


def see_other(path: str) -> Response:
    return RedirectResponse(path, status_code=303)


def routes(ctx: Context) -> APIRouter:
    router = APIRouter()
    pages = InvitationPages(ctx)
    router.add_api_route("/invitations/{table_id}/{seat}/accept", pages.accept, methods=["POST"])
    router.add_api_route("/invitations/{table_id}/{seat}/decline", pages.decline, methods=["POST"])
    return router
