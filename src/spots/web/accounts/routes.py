"""The account pages and their API: sign up, sign in (password or passkey), sign out, My games, profiles.

Every state-changing route here is a POST, refused by ``guard.Gate`` when another
site's page sends it (its Origin, or Sec-Fetch-Site, names another site); the
cookie is SameSite=Lax besides, so another site's form never carries it. Forms are
plain HTML (they work without scripts); only passkeys need the page's script
(static/account.js) to talk to the authenticator.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from ..context import Context, request_lang, tr_of
from ..games import hosted
from ..guard import Refused, client_of, parse_json, read_body
from ..invitations.service import mine as my_invitations
from ..notices.addresses import Addresses
from ..ratings.service import ShortOfMinimum
from ..writer import Unavailable
from .passkeys import PasskeyError, Passkeys, relying_party
from .service import (
    Accounts,
    SignInRefused,
    account_of,
    check_email,
    check_notify,
    device_token,
    name_key,
    session_token,
)
from .store import AccountRow

FORM_BODY = 2048  # bytes: a sign-in form holds a name, a password and where to go next
PASSKEY_BODY = 8192  # a WebAuthn answer: a few hundred bytes of keys and signatures, base64url
RECENT = 20  # tables on a profile


LOCAL = re.compile(r"/(?![/\\])[A-Za-z0-9._~/?=&%-]*")  # no "//", "/\\", spaces or controls (browsers drop tabs)


def local_path(value: Any, default: str = "/me") -> str:
    """Where to go after signing in: a path on this site only (never ``//other.site`` or a full URL)."""
    return value if isinstance(value, str) and LOCAL.fullmatch(value) else default


async def form_of(request: Request) -> dict[str, str]:
    raw = await read_body(request, FORM_BODY)
    return {k: v[0] for k, v in parse_qs(raw.decode("utf-8", "replace"), keep_blank_values=True).items()}


def see_other(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303)


class AccountPages:
    """The routes, on ``ctx``'s tables and ``accounts``."""

    def __init__(self, ctx: Context, accounts: Accounts, origin: str, addresses: Addresses) -> None:
        self.ctx, self.accounts, self.origin, self.addresses = ctx, accounts, origin, addresses
        self.passkeys = Passkeys(accounts)
        self.hub = ctx.hub

    def rp(self, request: Request) -> tuple[str, str]:
        return relying_party(self.origin, request.url.scheme, request.headers.get("host", ""))

    def form_page(self, request: Request, mode: str, status: int = 200, error: str = "", name: str = "",
                  next_path: str = "/me", retry: float | None = None) -> HTMLResponse:
        response = self.ctx.page(request, "account.html", status, mode=mode, error=error, name=name,
                                 next=next_path)
        if retry is not None:
            response.headers["Retry-After"] = str(max(1, math.ceil(retry)))
        return response

    # -------------------------------------------------------------- password forms

    async def signup_page(self, request: Request) -> HTMLResponse:
        return self.form_page(request, "signup")

    async def signin_page(self, request: Request) -> HTMLResponse:
        return self.form_page(request, "signin")

    async def signup(self, request: Request) -> Response:
        _ = tr_of(request)
        form = await form_of(request)
        name, next_path = form.get("name", ""), local_path(form.get("next"))
        wait = self.accounts.attempt(client_of(request))
        if wait:
            return self.form_page(request, "signup", 429, _("Too many sign-in attempts from your address; try"
                                                            " again in {n} s.").format(n=max(1, round(wait))),
                                  name, next_path, wait)
        try:
            account = await self.accounts.sign_up(name, form.get("password", ""), _)
        except ValueError as exc:
            return self.form_page(request, "signup", 400, str(exc), name, next_path)
        response = see_other(next_path)
        try:
            await self.accounts.start_session(account, response, session_token(request), device_token(request))
        except Unavailable as exc:  # the account is kept: say so, rather than that nothing was changed
            return self.form_page(request, "signin", 503, _(
                "Your account {name} is made, but the server could not sign you in just now; sign in again in a few"
                " minutes.").format(name=account.name), account.name, next_path, exc.retry)
        return response

    async def signin(self, request: Request) -> Response:
        _ = tr_of(request)
        form = await form_of(request)
        name, next_path = form.get("name", ""), local_path(form.get("next"))
        try:
            account = await self.accounts.sign_in(name, form.get("password", ""), client_of(request), _,
                                                  device_token(request))
        except SignInRefused as exc:
            return self.form_page(request, "signin", exc.status, exc.message, name, next_path, exc.retry)
        response = see_other(next_path)
        await self.accounts.start_session(account, response, session_token(request), device_token(request))
        return response

    async def reset_page(self, request: Request) -> HTMLResponse:
        return self.form_page(request, "reset")

    async def reset(self, request: Request) -> Response:
        _ = tr_of(request)
        form = await form_of(request)
        name = form.get("name", "")
        wait = self.accounts.attempt(client_of(request))
        if wait:
            return self.form_page(request, "reset", 429, _("Too many sign-in attempts from your address; try"
                                                           " again in {n} s.").format(n=max(1, round(wait))),
                                  name, retry=wait)
        try:
            account = await self.accounts.reset_password(name, form.get("code", ""), form.get("password", ""), _)
        except ValueError as exc:
            return self.form_page(request, "reset", 400, str(exc), name)
        response = see_other("/me")
        await self.accounts.start_session(account, response, session_token(request), device_token(request))
        return response

    async def signout(self, request: Request) -> Response:
        await self.accounts.end_session(session_token(request))
        response = see_other("/")
        self.accounts.forget_cookie(response)
        return response

    async def signout_everywhere(self, request: Request) -> Response:
        me = account_of(request)
        if me is not None:
            await self.accounts.end_sessions(me.id)
        response = see_other("/signin")
        self.accounts.forget_cookie(response)
        return response

    # -------------------------------------------------------------- My games and settings

    def waiting_on(self, table_id: str, seat: int) -> bool:
        """Whether a live table is waiting for this seat's move."""
        room = self.hub.rooms.get(table_id)
        if room is None or room.state.is_terminal():
            return False
        st = room.state
        return seat in room.kind.web.racers(st) or (not st.is_chance_node() and st.current_player() == seat)

    async def me_page(self, request: Request) -> Response:
        return await self.my_games(request)

    async def my_games(self, request: Request, status: int = 200, error: str = "", email: str | None = None,
                       passkey_error: str = "") -> Response:
        """My games (the tables waiting on me first) and the account's settings; ``error``: a refused setting,
        ``passkey_error``: a refused removal of a passkey."""
        me = account_of(request)
        if me is None:
            return see_other("/signin")
        _ = tr_of(request)
        seats = await self.hub.writer.run(self.hub.store.tables_of, me.id, ("playing",), 100)
        games = []
        for s in seats:
            room = self.hub.rooms.get(s.table_id) or await self.hub.table(s.table_id)
            if room is None:
                continue
            games.append({"table": s.table_id, "title": _(room.kind.spec.title), "link": f"/play/{s.token}",
                          "waiting": self.waiting_on(s.table_id, s.seat), "updated": s.updated,
                          "players": ", ".join(room.names_in(request_lang(request))), "moves": len(room.log)})
        games.sort(key=lambda g: (not g["waiting"], -g["updated"]))
        passkeys = await self.hub.writer.run(self.hub.store.passkeys_of, me.id)
        invitations = await my_invitations(self.ctx, me, _)
        blocked = sorted((await self.hub.writer.run(self.hub.store.blocked_by, me.id)).values(), key=str.casefold)
        bots = [b.account.name for b in await self.hub.writer.run(self.hub.store.bots_of, me.id)]
        return self.ctx.page(request, "me.html", status, games=games, invitations=invitations, passkeys=len(passkeys),
                             bots=bots,
                             keys=[{"id": k.id, "added": datetime.fromtimestamp(k.created, UTC).date().isoformat()}
                                   for k in passkeys], blocked=blocked,
                             removed=request.query_params.get("removed") == "1", passkey_error=passkey_error,
                             email=me.email or "" if email is None else email, notify=me.notify,
                             saved=request.query_params.get("saved") == "1" and not error, error=error,
                             unconfirmed=bool(me.email) and not me.email_confirmed,
                             mails=self.addresses.notices.smtp is not None,
                             sent=request.query_params.get("sent") == "1")

    async def settings(self, request: Request) -> Response:
        me = account_of(request)
        if me is None:
            return see_other("/signin")
        _ = tr_of(request)
        form = await form_of(request)
        try:
            email = check_email(form.get("email", ""), _)
            notify = check_notify(form.get("notify"), email, _)
        except ValueError as exc:
            return await self.my_games(request, 400, str(exc), form.get("email", ""))
        if email == me.email:
            await self.accounts._run(self.hub.store.set_account, me.id, notify=notify)
            return see_other("/me?saved=1")
        # a new address is unconfirmed: nothing goes to it but the link that confirms it
        await self.accounts._run(self.hub.store.set_account, me.id, email=email, notify=notify, email_confirmed=False,
                                 email_token=None, email_token_until=None)
        sent = email is not None and await self.addresses.ask_to_confirm(me, email, request_lang(request))
        return see_other("/me?saved=1&sent=1" if sent else "/me?saved=1")

    async def remove_passkey(self, request: Request) -> Response:
        """Remove one of my passkeys (a lost device's); never the last way into an account without a password."""
        me = account_of(request)
        if me is None:
            return see_other("/signin")
        _ = tr_of(request)
        credential = (await form_of(request)).get("passkey", "")
        keys = await self.hub.writer.run(self.hub.store.passkeys_of, me.id)
        if credential not in {k.id for k in keys}:
            return await self.my_games(request, 404, passkey_error=_(
                "You have no such passkey; the list above is up to date."))
        if me.password is None and len(keys) == 1:
            return await self.my_games(request, 400, passkey_error=_(
                "This passkey is your only way to sign in: add another passkey before you remove it."))
        await self.accounts._run(self.hub.store.remove_passkey, me.id, credential)
        return see_other("/me?removed=1")

    async def take_seat(self, request: Request, token: str) -> Response:
        """A signed-in player keeps the seat of a link: the seat is bound to the account."""
        _ = tr_of(request)
        me = account_of(request)
        found = await self.hub.claim(token)
        if found is None:
            return self.ctx.message(request, 404, _("Not found"), _(
                "This seat link is not valid (the seat may have been taken from the lobby)."))
        room, seat = found
        if me is None:
            return self.form_page(request, "signin", 401, next_path=f"/play/{token}")
        try:
            bound = await self.accounts.bind(room, seat, me)
        except ShortOfMinimum as exc:
            return self.ctx.message(request, 403, _("Not your seat"), exc.words(_))
        if not bound:
            return self.ctx.message(request, 403, _("Not your seat"), self.accounts.seat_refusal(me, room, seat, _)
                                    or _("This seat belongs to another account."))
        return see_other(f"/play/{token}")

    # -------------------------------------------------------------- profiles

    async def profile(self, request: Request, name: str) -> Response:
        _ = tr_of(request)
        account: AccountRow | None = await self.hub.writer.run(self.hub.store.account_named, name_key(name))
        if account is None:
            return self.ctx.message(request, 404, _("Not found"), _("Nobody here has the name {name}.").format(
                name=name))
        record = await self.hub.writer.run(self.hub.store.record_of, account.id)
        games = hosted()
        played = [{"game": _(games[g].spec.title) if g in games else g, "played": n, "won": w}
                  for g, (n, w) in record.items()]
        recent = []
        for s in await self.hub.writer.run(self.hub.store.tables_of, account.id, ("playing", "over"), RECENT):
            over = s.status == "over"
            recent.append({"table": s.table_id, "game": _(games[s.game].spec.title) if s.game in games else s.game,
                           "over": over, "won": over and s.winner == s.seat, "updated": s.updated,
                           "link": f"/t/{s.table_id}/replay" if over else f"/t/{s.table_id}"})
        me = account_of(request)
        ratings = await self.hub.ratings.profile(account.id, _)  # each rating with its history chart (ratings.py)
        reliability = await self.hub.ratings.reliability(account.id)  # rated games finished, of the latest 100
        blocking = me is not None and me.id != account.id and account.id in await self.hub.writer.run(
            self.hub.store.blocked_by, me.id)
        return self.ctx.page(request, "player.html", player=account.name, account_id=account.id, played=played,
                             recent=recent, mine=me is not None and me.id == account.id, ratings=ratings,
                             reliability=reliability, signed_in=me is not None, blocking=blocking)

    # -------------------------------------------------------------- passkeys (JSON, for static/account.js)

    async def passkey_body(self, request: Request) -> Any:
        return parse_json(await read_body(request, PASSKEY_BODY, self.ctx.limits.body_timeout))

    async def register_options(self, request: Request) -> Response:
        me = account_of(request)
        if me is None:
            raise Refused(401, "signed-out", tr_of(request)("Sign in first."))
        return JSONResponse(await self.passkeys.registration_options(me, self.rp(request)))

    async def register(self, request: Request) -> Response:
        me = account_of(request)
        if me is None:
            raise Refused(401, "signed-out", tr_of(request)("Sign in first."))
        try:
            await self.passkeys.register(me, await self.passkey_body(request), self.rp(request))
        except PasskeyError as exc:
            raise Refused(400, "passkey-refused", str(exc)) from None
        return JSONResponse({"registered": True}, status_code=201)

    async def signin_options(self, request: Request) -> Response:
        """A passkey sign-in's challenge: an attempt on the accounts like any other (each one is a stored row)."""
        wait = self.accounts.attempt(client_of(request))
        if wait:
            raise Refused(429, "too-many-attempts", tr_of(request)(
                "Too many sign-in attempts from your address; try again in {n} s.").format(n=max(1, round(wait))),
                wait)
        return JSONResponse(await self.passkeys.sign_in_options(self.rp(request)))

    async def passkey_signin(self, request: Request) -> Response:
        body = await self.passkey_body(request)
        if not isinstance(body, dict):
            raise Refused(400, "passkey-refused", "expected a JSON object with 'credential'")
        try:
            account = await self.passkeys.sign_in(body.get("credential"), self.rp(request))
        except PasskeyError as exc:
            raise Refused(400, "passkey-refused", str(exc)) from None
        response = JSONResponse({"next": local_path(body.get("next")), "name": account.name})
        await self.accounts.start_session(account, response, session_token(request), device_token(request))
        return response


def routes(ctx: Context, accounts: Accounts, origin: str, addresses: Addresses) -> APIRouter:
    router = APIRouter()
    pages = AccountPages(ctx, accounts, origin, addresses)
    html: dict[str, Any] = {"response_class": HTMLResponse}
    router.add_api_route("/signup", pages.signup_page, methods=["GET"], **html)
    router.add_api_route("/signup", pages.signup, methods=["POST"])
    router.add_api_route("/signin", pages.signin_page, methods=["GET"], **html)
    router.add_api_route("/signin", pages.signin, methods=["POST"])
    router.add_api_route("/reset", pages.reset_page, methods=["GET"], **html)
    router.add_api_route("/reset", pages.reset, methods=["POST"])
    router.add_api_route("/signout", pages.signout, methods=["POST"])
    router.add_api_route("/signout/everywhere", pages.signout_everywhere, methods=["POST"])
    router.add_api_route("/me", pages.me_page, methods=["GET"])
    router.add_api_route("/me/settings", pages.settings, methods=["POST"])
    router.add_api_route("/me/passkeys/remove", pages.remove_passkey, methods=["POST"])
    router.add_api_route("/play/{token}/take", pages.take_seat, methods=["POST"])
    router.add_api_route("/players/{name}", pages.profile, methods=["GET"])
    router.add_api_route("/api/passkeys/register/options", pages.register_options, methods=["POST"])
    router.add_api_route("/api/passkeys/register", pages.register, methods=["POST"])
    router.add_api_route("/api/passkeys/signin/options", pages.signin_options, methods=["POST"])
    router.add_api_route("/api/passkeys/signin", pages.passkey_signin, methods=["POST"])
    return router
