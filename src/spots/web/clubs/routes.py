"""The clubs' pages: the list with the form to found one, and a club's page (members and admins, joining by invite
link or by asking, the admins' approvals, its events and its leaderboard).

Who may do what: any signed-in player founds a club and is its first admin. Anyone signed in asks to join (an admin
approves or turns it down) or opens the invite link and presses Join (a member at once). Admins make others admins,
make a new invite link (the old one stops working), set the day the season began, and make the club's events (only
its members sign up for those). A member leaves; the last admin cannot. A bad request is refused with what is allowed.
"""

from __future__ import annotations

import secrets
import time
import unicodedata
from datetime import UTC, date, datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from ..accounts.routes import form_of, see_other
from ..accounts.service import account_of, name_key
from ..accounts.store import AccountRow, Duplicate
from ..context import Context, tr_of
from ..games import hosted
from ..guard import Refused
from ..ratings.service import shown
from ..tournaments.view import lines_of
from .store import ClubRow

NAME_LENGTH = (3, 40)
MOST_RUN = 5  # clubs one player may be an admin of (so nobody fills the list)
ABOUT_LENGTH = 500


class ClubPages:
    def __init__(self, ctx: Context) -> None:
        self.ctx, self.hub = ctx, ctx.hub

    async def _run(self, call: Any, *args: Any) -> Any:
        return await self.hub.writer.run(call, *args)

    async def _club(self, club_id: str) -> ClubRow:
        club = await self._run(self.hub.store.club, club_id) if len(club_id) <= 64 else None
        if club is None:
            raise Refused(404, "no-club", f"there is no club {club_id!r}")
        return club

    async def _admin(self, request: Request, club_id: str) -> tuple[ClubRow, AccountRow, dict[str, str]]:
        """The club, its admin asking, and the form (else 401 or 403)."""
        me = _signed_in(request)
        club = await self._club(club_id)
        if await self._run(self.hub.store.role, club.id, me.id) != "admin":
            raise Refused(403, "not-admin", "only the club's admins may do this")
        return club, me, await form_of(request)

    # -------------------------------------------------------------- pages

    async def list_page(self, request: Request) -> HTMLResponse:
        clubs = await self._run(self.hub.store.clubs)
        return self.ctx.page(request, "clubs.html", clubs=[{"id": c.id, "name": c.name, "about": c.about,
                                                            "members": n} for c, n in clubs])

    async def club_page(self, request: Request, club_id: str) -> HTMLResponse:
        _ = tr_of(request)
        try:
            club = await self._club(club_id)
        except Refused:
            return self.ctx.message(request, 404, _("Not found"), _("There is no such club."))
        me = account_of(request)
        members = await self._run(self.hub.store.members, club.id)
        role = next((m.role for m in members if me is not None and m.account == me.id), None)
        events = await self._run(self.hub.store.club_tournaments, club.id)
        given = request.query_params.get("invite", "")
        invited = me is not None and role in (None, "pending") and secrets.compare_digest(given, club.invite)
        return self.ctx.page(request, "club.html", club=club, role=role, members=members, invited=invited,
                             invite_token=given if invited else "",
                             invite=self.ctx.link(f"/clubs/{club.id}/invite/{club.invite}") if role == "admin" else "",
                             events=events, season=datetime.fromtimestamp(club.season, UTC).date().isoformat(),
                             ratings=await self.ratings(members),
                             points=await self.season_points(club, members, events))

    async def ratings(self, members: list[Any]) -> list[dict[str, Any]]:
        """Each game's ratings of the club's members, best first (by the lower end, as the leaderboard)."""
        keys = {f"user:{m.account}": m.name for m in members if m.role != "pending"}
        out = []
        for game, kind in hosted().items():
            found = await self._run(self.hub.store.ratings_of, game, list(keys))
            rows = sorted(found.values(), key=lambda r: (-(r.mu - 2 * r.sigma), r.player))
            out.append({"game": game, "title": kind.spec.title, "rows": [
                {"rank": i + 1, "player": keys[r.player], "rating": shown(r.mu, r.sigma), "games": r.games}
                for i, r in enumerate(rows)]})
        return out

    async def season_points(self, club: ClubRow, members: list[Any], events: list[Any]) -> list[dict[str, Any]]:
        """The members' points in the club's events since its season began, most first."""
        names = {m.account: m.name for m in members if m.role != "pending"}
        total: dict[str, float] = {}
        played: dict[str, int] = {}
        for event in events:
            if event.starts < club.season or event.status not in ("playing", "over"):
                continue
            entrants = await self._run(self.hub.store.entrants, event.id)
            games = await self._run(self.hub.store.tournament_games, event.id)
            for line in lines_of(event, entrants, games):
                if line["account"] in names:
                    total[line["account"]] = total.get(line["account"], 0.0) + line["points"]
                    played[line["account"]] = played.get(line["account"], 0) + 1
        ranked = sorted(total, key=lambda a: (-total[a], names[a]))
        return [{"rank": i + 1, "player": names[a], "points": round(total[a], 3), "events": played[a]}
                for i, a in enumerate(ranked)]

    # -------------------------------------------------------------- changes

    async def create(self, request: Request) -> Response:
        me = _signed_in(request)
        form = await form_of(request)
        name = unicodedata.normalize("NFC", " ".join(form.get("name", "").split()))
        about = " ".join(form.get("about", "").split())
        low, high = NAME_LENGTH
        if not low <= len(name) <= high or len(about) > ABOUT_LENGTH:
            raise Refused(400, "bad-club", f"a club's name is {low} to {high} characters and its description at most"
                          f" {ABOUT_LENGTH}")
        if await self._run(self.hub.store.clubs_run_by, me.id) >= MOST_RUN:
            raise Refused(429, "too-many-clubs", f"you already run {MOST_RUN} clubs, the most one player may run")
        now = time.time()
        club = ClubRow(secrets.token_hex(5), name, about, secrets.token_urlsafe(12), now, now)
        try:
            await self._run(self.hub.store.create_club, club, name_key(name), me.id)
        except Duplicate:
            raise Refused(409, "name-taken", f"there is already a club named {name}; choose another name") from None
        return see_other(f"/clubs/{club.id}")

    async def ask(self, request: Request, club_id: str) -> Response:
        me = _signed_in(request)
        club = await self._club(club_id)
        await self._run(self.hub.store.ask_to_join, club.id, me.id, "pending", time.time())
        return see_other(f"/clubs/{club.id}")

    async def invite(self, request: Request, club_id: str, token: str) -> Response:
        """The invite link opens the club's page with a Join button (a link never changes anything by itself)."""
        if account_of(request) is None:
            return see_other(f"/signin?next=/clubs/{club_id}/invite/{token}")
        return see_other(f"/clubs/{club_id}?invite={token}")

    async def join(self, request: Request, club_id: str) -> Response:
        """Join with the invite link's token: a member at once."""
        me = _signed_in(request)
        club = await self._club(club_id)
        if not secrets.compare_digest((await form_of(request)).get("invite", ""), club.invite):
            raise Refused(403, "old-invite", "this invite link no longer works: ask the club's admins for the new one")
        await self._run(self.hub.store.ask_to_join, club.id, me.id, "member", time.time())
        return see_other(f"/clubs/{club.id}")

    async def approve(self, request: Request, club_id: str) -> Response:
        club, _me, form = await self._admin(request, club_id)
        if not await self._run(self.hub.store.set_role, club.id, form.get("account", ""), "member", ("pending",)):
            raise Refused(409, "not-asked", "that player has not asked to join")
        return see_other(f"/clubs/{club.id}")

    async def make_admin(self, request: Request, club_id: str) -> Response:
        club, _me, form = await self._admin(request, club_id)
        if not await self._run(self.hub.store.set_role, club.id, form.get("account", ""), "admin", ("member",)):
            raise Refused(409, "not-member", "only a member can be made an admin")
        return see_other(f"/clubs/{club.id}")

    async def remove(self, request: Request, club_id: str) -> Response:
        """An admin turns down a request or takes a member out."""
        club, _me, form = await self._admin(request, club_id)
        if not await self._run(self.hub.store.leave_club, club.id, form.get("account", "")):
            raise Refused(409, "not-member", "that player is not in the club (or is its last admin)")
        return see_other(f"/clubs/{club.id}")

    async def leave(self, request: Request, club_id: str) -> Response:
        me = _signed_in(request)
        club = await self._club(club_id)
        if not await self._run(self.hub.store.leave_club, club.id, me.id):
            raise Refused(409, "cannot-leave", "you are not in this club, or you are its last admin: make another"
                          " member an admin first")
        return see_other(f"/clubs/{club.id}")

    async def new_invite(self, request: Request, club_id: str) -> Response:
        club, _me, _form = await self._admin(request, club_id)
        await self._run(self.hub.store.update_club, club.id, secrets.token_urlsafe(12), None)
        return see_other(f"/clubs/{club.id}")

    async def season(self, request: Request, club_id: str) -> Response:
        club, _me, form = await self._admin(request, club_id)
        try:
            day = date.fromisoformat(form.get("season", ""))
        except ValueError:
            raise Refused(400, "bad-date", "the season's first day is a date, YYYY-MM-DD") from None
        began = datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()
        await self._run(self.hub.store.update_club, club.id, None, began)
        return see_other(f"/clubs/{club.id}")


def _signed_in(request: Request) -> AccountRow:
    me = account_of(request)
    if me is None:
        raise Refused(401, "sign-in", "sign in first: clubs are for players with an account")
    return me


def routes(ctx: Context) -> APIRouter:
    router = APIRouter()
    pages = ClubPages(ctx)
    router.add_api_route("/clubs", pages.list_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/clubs", ctx.form_route(pages.create), methods=["POST"])
    router.add_api_route("/clubs/{club_id}", pages.club_page, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/clubs/{club_id}/invite/{token}", pages.invite, methods=["GET"])
    posts = {"ask": pages.ask, "join": pages.join, "approve": pages.approve, "admin": pages.make_admin,
             "remove": pages.remove, "leave": pages.leave, "new-invite": pages.new_invite, "season": pages.season}
    for verb, handler in posts.items():
        router.add_api_route(f"/clubs/{{club_id}}/{verb}", ctx.form_route(handler), methods=["POST"])
    return router
