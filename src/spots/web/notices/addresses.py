"""E-mail addresses: nothing goes to one until its owner confirms it, and every e-mail has a one-click way out.

Why (issue 42): an address was taken as typed, so anyone could have the server mail a stranger's inbox, as
often as their tables' turns came round. Now:

- **Confirming.** Saving a new address sends one e-mail to it, with a link holding a one-time token (256
  random bits; the store keeps its SHA-256, for ``CONFIRM_HOURS``). The link opens a page with one button, so a
  mail scanner that follows links confirms nothing. Until the button is pressed nothing else is sent there;
  My games says so and can send the link again.
- **Leaving.** Every notice carries a link to stop them, in its text and as ``List-Unsubscribe`` with
  ``List-Unsubscribe-Post`` (RFC 8058), so a mail app's own button stops them in one click, signed in or not.
  Its token is made when the address is confirmed and kept as it is (it can only stop e-mail).
- **Bounded.** At most ``--emails-per-day`` e-mails an account a UTC day, confirmations included (``Notices.mail``).
"""

from __future__ import annotations

import functools
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ... import i18n
from ..accounts.service import account_of, hash_secret
from ..accounts.store import NOTIFY_NEVER, AccountRow
from ..context import Context, request_lang, tr_of

if TYPE_CHECKING:
    from .service import Notices

CONFIRM_HOURS = 24  # how long a confirmation link works


class Addresses:
    """Asking an address's owner to confirm it, the confirmation itself, and unsubscribing."""

    def __init__(self, ctx: Context, notices: Notices) -> None:
        self.notices, self.store, self.writer = notices, ctx.hub.store, ctx.hub.writer

    async def _set(self, account_id: str, **values: Any) -> None:
        await self.writer.run(functools.partial(self.store.set_account, account_id, **values))

    async def ask_to_confirm(self, account: AccountRow, address: str, lang: str) -> bool:
        """Send the confirmation link to ``address`` (a new token each time); whether it was sent."""
        if self.notices.smtp is None:
            return False
        token = secrets.token_urlsafe(32)
        _ = i18n.translator(lang).gettext
        text = _("Someone, we hope you, gave this address to Spots for the account {name}. To get its e-mails here,"
                 " open this link within {hours} hours and press Confirm: {link}\n\nIf it was not you, do nothing:"
                 " nothing more is sent to this address.").format(
            name=account.name, hours=CONFIRM_HOURS, link=f"{self.notices.public_url}/me/confirm/{token}")
        if not await self.notices.mail(account, address, _("Confirm your e-mail address for Spots"), text):
            return False  # the day's e-mails are spent: a link sent before to this address still works
        # kept once sent (the newest link is the one that works), long before anyone can have opened it
        until = time.time() + CONFIRM_HOURS * 3600
        await self._set(account.id, email_token=hash_secret(token), email_token_until=until)
        return True

    async def to_confirm(self, token: str) -> AccountRow | None:
        """The account whose address the link's token confirms, while the link works."""
        return await self.writer.run(self.store.email_to_confirm, hash_secret(token), time.time())

    async def confirm(self, token: str) -> AccountRow | None:
        """The account whose address the token confirms (now confirmed), or None for a wrong or old token."""
        return await self.writer.run(self.store.confirm_email, hash_secret(token), time.time(),
                                     secrets.token_urlsafe(24))

    async def unsubscribing(self, token: str) -> AccountRow | None:
        """The account an unsubscribe link's token belongs to."""
        return await self.writer.run(self.store.account_unsubscribing, token)

    async def unsubscribe(self, token: str) -> AccountRow | None:
        """The account the unsubscribe token belongs to, now sent no more notices; None for a wrong token."""
        account = await self.unsubscribing(token)
        if account is not None:
            await self._set(account.id, notify=NOTIFY_NEVER)
        return account


def routes(ctx: Context, addresses: Addresses) -> APIRouter:
    router = APIRouter()

    def link_page(request: Request, status: int, title: str, text: str, button: str = "") -> HTMLResponse:
        """A page saying ``text``; with ``button``, a form that POSTs back to this very address."""
        return ctx.page(request, "message.html", status, title=title, message=text, button=button,
                        action=request.url.path)

    async def confirm_page(request: Request, token: str) -> HTMLResponse:
        _ = tr_of(request)
        found = await addresses.to_confirm(token)
        if found is None:
            return link_page(request, 404, _("Confirm your e-mail address"), not_valid(_))
        return link_page(request, 200, _("Confirm your e-mail address"), _(
            "Press Confirm to get e-mails from Spots at {address}.").format(address=found.email), _("Confirm"))

    async def confirm(request: Request, token: str) -> HTMLResponse:
        _ = tr_of(request)
        account = await addresses.confirm(token)
        if account is None:
            return link_page(request, 404, _("Confirm your e-mail address"), not_valid(_))
        return link_page(request, 200, _("Confirm your e-mail address"), _(
            "Your address {address} is confirmed.").format(address=account.email))

    async def send_again(request: Request) -> Response:
        me = account_of(request)
        if me is None:
            return RedirectResponse("/signin", status_code=303)
        if me.email and not me.email_confirmed:
            await addresses.ask_to_confirm(me, me.email, request_lang(request))
        return RedirectResponse("/me?sent=1", status_code=303)

    async def unsubscribe_page(request: Request, token: str) -> HTMLResponse:
        _ = tr_of(request)
        found = await addresses.unsubscribing(token)
        if found is None:
            return link_page(request, 404, _("Stop e-mails from Spots"), _("This link to stop e-mails is not valid."))
        return link_page(request, 200, _("Stop e-mails from Spots"), _(
            "Press the button and no more e-mails from Spots go to {address}.").format(address=found.email),
            _("Stop e-mails"))

    async def unsubscribe(request: Request, token: str) -> HTMLResponse:
        """The page's button, or a mail app's one-click POST (RFC 8058: no cookie, no Origin, any body)."""
        _ = tr_of(request)
        account = await addresses.unsubscribe(token)
        if account is None:
            return link_page(request, 404, _("Stop e-mails from Spots"), _("This link to stop e-mails is not valid."))
        return link_page(request, 200, _("Stop e-mails from Spots"), _(
            "No more e-mails from Spots go to {address}. You can ask for them again on My games.").format(
            address=account.email))

    html: dict[str, Any] = {"response_class": HTMLResponse}
    router.add_api_route("/me/confirm/{token}", confirm_page, methods=["GET"], **html)
    router.add_api_route("/me/confirm/{token}", confirm, methods=["POST"], **html)
    router.add_api_route("/me/confirm", send_again, methods=["POST"])
    router.add_api_route("/unsubscribe/{token}", unsubscribe_page, methods=["GET"], **html)
    router.add_api_route("/unsubscribe/{token}", unsubscribe, methods=["POST"], **html)
    return router


def not_valid(_: Callable[[str], str]) -> str:
    return _("This confirmation link is not valid or has expired; save your address again on My games for a new"
             " one.")
