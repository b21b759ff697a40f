"""A signed-in player's bots, on their account page: make one (its token shown once), or give one a new token.

Why the token appears only on the page that made it: the server keeps its SHA-256, so it cannot show it again; a
lost token is replaced (the old one stops working, and its connection closes within a second).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..accounts.routes import form_of, see_other
from ..accounts.service import account_of, name_key
from ..accounts.store import AccountRow
from ..context import Context, tr_of
from .service import Tr, make_bot, replace_token

Act = Callable[[Request, AccountRow, Tr, str], Awaitable[Response]]


class BotPages:
    def __init__(self, ctx: Context) -> None:
        self.ctx, self.hub = ctx, ctx.hub

    async def make(self, request: Request) -> Response:
        return await self._signed_in(request, self._make)

    async def token(self, request: Request) -> Response:
        return await self._signed_in(request, self._token)

    async def _signed_in(self, request: Request, act: Act) -> Response:
        """``act`` with the signed-in player, the page's words and the form's ``name`` (else: sign in first)."""
        me = account_of(request)
        if me is None:
            return see_other("/signin")
        return await act(request, me, tr_of(request), (await form_of(request)).get("name", ""))

    async def _make(self, request: Request, me: AccountRow, _: Tr, name: str) -> Response:
        try:
            bot, token = await self.hub.writer.run(make_bot, self.hub.store, name, me.id, _)
        except ValueError as exc:
            return self.ctx.message(request, 400, _("No bot made"), str(exc))
        return self.ctx.message(request, 201, _("The bot {name} is ready").format(name=bot.account.name), _(
            "Its API token, shown only this once (its program connects with it): {token}").format(token=token))

    async def _token(self, request: Request, me: AccountRow, _: Tr, name: str) -> Response:
        mine = {b.account.name_key: b for b in await self.hub.writer.run(self.hub.store.bots_of, me.id)}
        bot = mine.get(name_key(name))
        if bot is None:
            return self.ctx.message(request, 404, _("Not found"), _("You have no bot named {name}.").format(name=name))
        token = await self.hub.writer.run(replace_token, self.hub.store, bot.account.id)
        return self.ctx.message(request, 200, _("New token for {name}").format(name=bot.account.name), _(
            "The old token no longer works. The new one, shown only this once: {token}").format(token=token))


def routes(ctx: Context) -> APIRouter:
    router = APIRouter()
    pages = BotPages(ctx)
    router.add_api_route("/me/bots", pages.make, methods=["POST"])
    router.add_api_route("/me/bots/token", pages.token, methods=["POST"])
    return router
