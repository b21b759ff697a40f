"""The HTML pages: the lobby, the host page, a seat's table, a spectator's table and the replay."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from ..accounts.service import account_of
from ..clocks.clock import pace_menu, pace_names
from ..context import HERE, Context, request_lang, tr_of
from ..fairplay.advisor import hints_word
from ..fairplay.dice import commitment_of
from ..games import hosted
from ..invitations.service import guest_refusal
from ..tables.forms import lobby_form
from ..writer import Unavailable
from .tutorial import teaching

# Every page links the icon (base.html); browsers and bookmarks still ask for /favicon.ico: the same drawing.
FAVICON = (HERE / "static" / "favicon.svg").read_bytes()
STATIC_SW = (HERE / "static" / "sw.js").read_bytes()
MANIFEST = (HERE / "static" / "manifest.webmanifest").read_bytes()


def routes(ctx: Context) -> APIRouter:
    """The page routes on ``ctx``'s tables."""
    router = APIRouter()
    hub = ctx.hub

    def not_found(request: Request, what: str) -> HTMLResponse:
        return ctx.message(request, 404, tr_of(request)("Not found"), what)

    def no_table(request: Request, table_id: str) -> HTMLResponse:
        return not_found(request, tr_of(request)("There is no table {table}.").format(table=repr(table_id)))

    @router.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(FAVICON, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})

    @router.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        """At the site's root, so it may show notices for every page (installable as a web app)."""
        return Response(STATIC_SW, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    @router.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> Response:
        return Response(MANIFEST, media_type="application/manifest+json")

    async def drills_due(request: Request) -> list[dict[str, object]]:
        """A signed-in player's drills due now, per game ("3 positions to review"); none for a guest."""
        me = account_of(request)
        if me is None:
            return []
        try:
            due = await hub.writer.run(hub.store.drills_due, me.id)
        except Unavailable:
            return []  # the lobby still opens
        titles = {name: kind.spec.title for name, kind in hosted().items()}
        return [{"game": g, "count": n, "title": titles.get(g, g)} for g, n in sorted(due.items()) if g in titles]

    @router.get("/", response_class=HTMLResponse)
    async def lobby(request: Request) -> HTMLResponse:
        tr = tr_of(request)
        games = lobby_form(tr)  # every hosted game's form, from its options schema
        lessons = [{"game": name, "button": tr(lesson.button)} for name, (_, lesson) in teaching().items()]
        links = [{"href": link.href, "words": tr(link.words), "id": link.id}  # each game's own pages (Daily deal)
                 for kind in hosted().values() for link in kind.web.links]
        return ctx.page(request, "lobby.html", games=games, drills=await drills_due(request),
                        bots={g["name"]: g["bots"] for g in games},
                        bot_labels={g["name"]: g["bot_labels"] for g in games},
                        about={g["name"]: {k: g[k] for k in ("title", "goal", "draws")} for g in games},
                        lessons=lessons, links=links, paces=pace_menu(tr), pace_names=pace_names(tr))

    @router.get("/host/{host_token}", response_class=HTMLResponse)
    async def host_page(request: Request, host_token: str) -> HTMLResponse:
        table_id = hub.by_host.get(host_token)
        if table_id is None:
            return not_found(request, tr_of(request)("No table has this host link."))
        room = hub.rooms[table_id]
        try:  # the invitations by name and their answers (invite_store.py)
            invited = await hub.writer.run(hub.store.invitations_at, table_id)
        except Unavailable:
            invited = {}  # the page without them rather than none
        names = room.names_in(request_lang(request))
        seats = [
            {"seat": s.seat, "name": names[s.seat], "kind": s.kind, "bot": s.bot, "claimed": s.claimed, "open": s.open,
             "link": ctx.link(f"/play/{s.token}") if s.token else None, "invitation": invited.get(s.seat)}
            for s in room.row.seats
        ]
        return ctx.page(request, "host.html", table=room.id, seats=seats, watch=ctx.link(f"/t/{room.id}"),
                        look=room.kind.look(tr_of(request)))

    @router.get("/play/{token}", response_class=HTMLResponse)
    async def play_page(request: Request, token: str) -> HTMLResponse:
        _ = tr_of(request)
        me = account_of(request)
        try:
            found = await hub.seat_of(token)
            kept = None if found is None else await guest_refusal(ctx, me, *found, _)
            if kept is not None:  # an invited seat of a rated table: not for a guest
                return ctx.page(request, "account.html", 403, mode="signin", error=kept, name="",
                                next=f"/play/{token}")
            found = await hub.claim(token)
        except Unavailable as exc:
            return ctx.message(request, 503, _("Try again shortly"), _(
                "The server could not record your seat just now; reload this page in a few seconds."), exc.retry)
        if found is None:
            return not_found(request, _("This seat link is not valid (the seat may have been taken from the lobby)."))
        room, seat = found
        name = room.names_in(request_lang(request))[seat]
        refusal = ctx.accounts.seat_refusal(me, room, seat, _) if ctx.accounts else None
        if refusal is not None:  # a seat bound to an account is only that account's
            return ctx.page(request, "account.html", 403, mode="signin", error=refusal, name=name,
                            next=f"/play/{token}")
        bindable = me is not None and room.row.seats[seat].account is None
        return ctx.page(request, "table.html", table=room.id, seat=seat, token=token, name=name,
                        vapid=ctx.vapid_public,
                        look=room.kind.look(tr_of(request)), bindable=bindable, rated=room.row.rated,
                        counted=room.row.seats[seat].account is not None, hints=hints_word(room.row),
                        commitment=commitment_of(room.row))

    @router.get("/t/{table_id}", response_class=HTMLResponse)
    async def watch_page(request: Request, table_id: str) -> HTMLResponse:
        room = await hub.table(table_id)
        if room is None:
            return no_table(request, table_id)
        return ctx.page(request, "table.html", table=table_id, seat=None, token="", name="",
                        look=room.kind.look(tr_of(request)), rated=room.row.rated, hints=hints_word(room.row),
                        commitment=commitment_of(room.row))

    @router.get("/t/{table_id}/replay", response_class=HTMLResponse)
    async def replay_page(request: Request, table_id: str) -> HTMLResponse:
        room = await hub.table(table_id)
        if room is None:
            return no_table(request, table_id)
        return ctx.page(request, "replay.html", table=table_id, moves=len(room.log),
                        look=room.kind.look(tr_of(request)),
                        coach=room.state.is_terminal() and room.kind.spec.coach is not None,
                        commitment=commitment_of(room.row))

    return router
