"""Your-turn notices that reach a player away from the table: e-mail (``--smtp``) and Web Push (``--vapid-key``).

Why here and how often: the process that stored the move that began a human's turn (``Hub.turn_changed``)
sends it, so with several processes on one database a turn is told once. At most one e-mail per table and
turn, only to a signed-in player whose account has a confirmed e-mail address (``addresses.py``) and asked for
notices, never while the player's page of that table is open here, and at most ``emails_per_day`` an account a
day; each e-mail carries its one-click unsubscribe link. A player who chose
one e-mail a day (or everyone, with ``--email-digest``) has the turns waiting on them gathered into a daily digest
instead, in the language they last played in. Every notice
links straight to the seat: the seat's link is a secret, so it goes only to that seat's own player and is
never logged.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import smtplib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote, urlsplit

from ... import i18n
from ..accounts.store import NOTIFY_DIGEST, NOTIFY_NEVER, AccountRow

if TYPE_CHECKING:
    from ..tables.hub import Hub
    from ..tables.rooms import Room

log = logging.getLogger("spots.web")
DIGEST_EVERY = 24 * 3600.0
TOLD_KEPT = 50000  # (table, seat) pairs remembered as told
# The browsers' push services (Chrome and Edge's, Firefox's, Windows', Safari's). A subscription is kept only when
# its endpoint is one of theirs, so a seat link cannot make the server post to any address it names.
PUSH_SERVICES = ("fcm.googleapis.com", "push.services.mozilla.com", "notify.windows.com", "push.apple.com")


PUSH_TIMEOUT = 10.0  # seconds a push service has to answer (connecting, then each read)
PUSHES_PER_SEAT = 5  # browsers kept per seat: a sixth subscription replaces the oldest
# What a browser's push endpoint plainly is: https, a host name, port 443 at most, then a path (and a query) of the
# characters URLs allow unescaped. No user info, no backslash, no space or control character: nothing two URL
# parsers could read as different hosts.
PLAIN_ENDPOINT = re.compile(r"https://(?P<host>[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?)(:443)?"
                            r"(/[A-Za-z0-9._~!$&'()*+,;=:%/-]*(\?[A-Za-z0-9._~!$&'()*+,;=:%/?-]*)?)?", re.ASCII)


def is_push_service(endpoint: str) -> bool:
    """Whether ``endpoint`` is plainly an https address at one of the browsers' push services (``PUSH_SERVICES``).

    Why two readings: the address is checked here but fetched by requests (urllib3), and the two once read
    ``https://127.0.0.1\\@fcm.googleapis.com/`` as different hosts. So the address must be plain
    (``PLAIN_ENDPOINT``), and urllib3, the parser that sends, must find the same host in it.
    """
    from urllib3.util import parse_url

    plain = PLAIN_ENDPOINT.fullmatch(endpoint) if len(endpoint) <= 2048 else None
    if plain is None:
        return False
    host = plain.group("host")
    try:
        sent_to = parse_url(endpoint)
    except ValueError:
        return False
    return (sent_to.scheme == "https" and sent_to.host == host and sent_to.port in (None, 443)
            and urlsplit(endpoint).hostname == host
            and any(host == service or host.endswith("." + service) for service in PUSH_SERVICES))


@dataclass(frozen=True)
class Smtp:
    """Where e-mail goes: ``smtp://[user:password@]host[:port][?from=address&starttls=1]`` or ``smtps://...``."""

    host: str
    port: int
    sender: str
    user: str = ""
    password: str = ""
    tls: bool = False
    starttls: bool = False

    @classmethod
    def parse(cls, url: str) -> Smtp:
        """Read ``--smtp`` (raises ValueError saying what is wrong and what is allowed)."""
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("--smtp must look like smtp://[user:password@]host[:port][?from=address] (or smtps://)")
        query = parse_qs(parts.query)
        try:
            port = parts.port or (465 if parts.scheme == "smtps" else 25)
        except ValueError:
            raise ValueError("--smtp: the port must be a number from 1 to 65535") from None
        sender = query.get("from", [f"spots@{parts.hostname}"])[0]
        if "@" not in sender:
            raise ValueError("--smtp: 'from' must be an e-mail address")
        return cls(parts.hostname, port, sender, unquote(parts.username or ""), unquote(parts.password or ""),
                   parts.scheme == "smtps", query.get("starttls", ["0"])[0] in ("1", "true", "yes"))

    def send(self, to: str, subject: str, text: str, headers: dict[str, str] | None = None) -> None:
        """One e-mail (blocking: run it on a thread)."""
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = self.sender, to, subject
        for name, value in (headers or {}).items():
            message[name] = value
        message.set_content(text)
        opener = smtplib.SMTP_SSL if self.tls else smtplib.SMTP
        with opener(self.host, self.port, timeout=10) as smtp:
            if self.starttls:
                smtp.starttls()
            if self.user:
                smtp.login(self.user, self.password)
            smtp.send_message(message)


@dataclass(frozen=True)
class Vapid:
    """Web Push keys: the private key (a PEM file's path or the base64url key) and the contact (``mailto:``)."""

    private_key: str
    public_key: str  # base64url, as the page's PushManager.subscribe wants it
    subject: str


def address_of(account: AccountRow | None) -> str | None:
    """Where to e-mail this account's notices: its address, if it is enabled, confirmed and asked for them."""
    if account is None or account.disabled or account.notify == NOTIFY_NEVER or not account.email_confirmed:
        return None
    return account.email or None


@dataclass
class Notices:
    """Sends the e-mails and pushes for the turns that begin at this process's tables."""

    hub: Hub
    public_url: str
    smtp: Smtp | None = None
    vapid: Vapid | None = None
    digest: bool = False  # --email-digest: every player's e-mails gathered, whatever their account says
    digest_every: float = DIGEST_EVERY  # seconds between digests (a day; tests use less)
    # which endpoints a push is sent to, checked again at each send (a row kept before the check was as strict
    # is dropped); a test's own local push service is the only other use
    push_to: Callable[[str], bool] = is_push_service
    told: dict[tuple[str, int], int] = field(default_factory=dict)  # (table, seat) -> the turn told
    pending: dict[str, dict[str, str]] = field(default_factory=dict)  # account -> table -> link (the digest)
    pending_lang: dict[str, str] = field(default_factory=dict)  # account -> the language of its latest table
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    sent: int = 0

    def start(self) -> None:
        if self.smtp is not None or self.vapid is not None:
            self.hub.on_turn.append(self.turn)
        if self.smtp is not None:  # any player may choose the digest
            self._spawn(self._digests())

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def turn(self, room: Room, seat: int) -> None:
        """A human's turn began at ``room``: tell them once for this turn."""
        turn = room.kind.spec.summarize(room.state).turn
        if self.told.get((room.id, seat)) == turn:
            return
        if len(self.told) > TOLD_KEPT:  # bounded: forgetting only risks telling a waiting turn once more
            self.told.clear()
        self.told[(room.id, seat)] = turn
        token = room.row.seats[seat].token
        here = any(c.seat == seat for c in room.conns)  # the player's page of this table is open (here)
        if token:
            self._spawn(self._tell(room, seat, self.public_url + f"/play/{token}", here))

    async def _tell(self, room: Room, seat: int, link: str, here: bool) -> None:
        try:
            if self.vapid is not None and not here:
                await self._push(room, seat, link)
            account_id = room.row.seats[seat].account
            if self.smtp is None or account_id is None:
                return
            account = await self.hub.writer.run(self.hub.store.account, account_id)
            to = address_of(account)
            if account is None or to is None:
                return
            lang = room.langs.get(seat, i18n.DEFAULT)  # the language they play in
            if self.digest or account.notify == NOTIFY_DIGEST:  # gathered whatever the page: the digest is later
                self.pending.setdefault(account.id, {})[room.id] = link
                self.pending_lang[account.id] = lang
                return
            if here:
                return  # they see their turn
            _ = i18n.translator(lang).gettext
            subject = _("Your turn at table {id}").format(id=room.id)
            text = _("It is your turn at table {id} ({game}). Your seat: {link}").format(
                id=room.id, game=room.kind.spec.title, link=link)
            if await self.mail(account, to, subject, text, lang):
                log.info("table %s: your-turn e-mail sent for seat %d", room.id, seat)  # never the link
        except Exception as exc:
            log.warning("table %s: a your-turn notice for seat %d could not be sent (%s)", room.id, seat,
                        type(exc).__name__)

    def table_ready(self, room: Room, seat: int, event: str, number: int) -> None:
        """A tournament's round ``number`` (0: an arena's next game) has opened the account's table at ``room``: e-mail
        its seat's link (to an account that asked for notices, turn by turn or in a digest: a round's start is worth
        telling at once)."""
        token = room.row.seats[seat].token
        if self.smtp is not None and token and room.row.seats[seat].account is not None:
            self._spawn(self._ready(room, seat, self.public_url + f"/play/{token}", event, number))

    async def _ready(self, room: Room, seat: int, link: str, event: str, number: int) -> None:
        try:
            account = await self.hub.writer.run(self.hub.store.account, room.row.seats[seat].account)
            to = address_of(account)
            if account is None or to is None:
                return
            lang = self.pending_lang.get(account.id, i18n.DEFAULT)  # the language of its latest table, if known
            _ = i18n.translator(lang).gettext
            subject = (_("Round {n} of {event} has started").format(n=number, event=event) if number else
                       _("Your next game of {event} is ready").format(event=event))
            text = _("Your table is ready ({game}). Your seat: {link}").format(game=room.kind.spec.title, link=link)
            if await self.mail(account, to, subject, text, lang):
                log.info("table %s: a round's e-mail sent for seat %d", room.id, seat)  # never the link
        except Exception as exc:
            log.warning("table %s: a round's notice for seat %d could not be sent (%s)", room.id, seat,
                        type(exc).__name__)

    async def mail(self, account: AccountRow, to: str, subject: str, text: str, lang: str | None = None) -> bool:
        """Send one e-mail to the account at ``to``, unless it had ``emails_per_day`` today already; with ``lang``
        (a notice, not a confirmation) and the account's unsubscribe token, its one-click way out. Whether sent."""
        if self.smtp is None:
            return False
        day = int(time.time() // 86400)
        if not await self.hub.writer.run(self.hub.store.count_email, account.id, day, self.hub.limits.emails_per_day):
            log.info("an e-mail was not sent: the account had its %d for today", self.hub.limits.emails_per_day)
            return False
        headers: dict[str, str] = {}
        if lang is not None and account.unsubscribe:
            link = f"{self.public_url}/unsubscribe/{account.unsubscribe}"
            text += "\n\n" + i18n.translator(lang).gettext("Stop these e-mails: {link}").format(link=link)
            headers = {"List-Unsubscribe": f"<{link}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
        await asyncio.to_thread(self.smtp.send, to, subject, text, headers)
        self.sent += 1
        return True

    async def _digests(self) -> None:
        """Once a day: one e-mail per player listing the tables that waited on them."""
        while True:
            await asyncio.sleep(self.digest_every)
            await self.send_digests()

    async def send_digests(self) -> None:
        """One e-mail to each player with tables gathered since the last digest, listing them all."""
        pending, self.pending = self.pending, {}
        langs, self.pending_lang = self.pending_lang, {}
        for account_id, tables in pending.items():
            account = await self.hub.writer.run(self.hub.store.account, account_id)
            to = address_of(account)
            if account is None or to is None:
                continue  # (a player who chose e-mail each turn since gets what was gathered)
            lang = langs.get(account_id, i18n.DEFAULT)
            lines = "\n".join(f"{table}: {link}" for table, link in tables.items())
            try:
                await self.mail(account, to, i18n.translator(lang).gettext("Tables waiting for you"), lines, lang)
            except Exception as exc:
                log.warning("a digest e-mail could not be sent (%s)", type(exc).__name__)

    async def _push(self, room: Room, seat: int, link: str) -> None:
        """A Web Push to every browser that subscribed for this seat (gone subscriptions are forgotten)."""
        from pywebpush import WebPushException, webpush

        assert self.vapid is not None
        _ = i18n.translator(room.langs.get(seat, i18n.DEFAULT)).gettext
        payload = json.dumps({"title": _("Your turn at table {id}").format(id=room.id), "url": link,
                              "at": time.time()})
        for text in await self.hub.writer.run(self.hub.store.pushes, room.id, seat):
            subscription = json.loads(text)
            if not self.push_to(subscription.get("endpoint", "")):
                await self.hub.writer.run(self.hub.store.drop_push, room.id, seat, subscription.get("endpoint"))
                continue
            try:
                await asyncio.to_thread(webpush, subscription, payload, vapid_private_key=self.vapid.private_key,
                                        vapid_claims={"sub": self.vapid.subject}, timeout=PUSH_TIMEOUT)
            except WebPushException as exc:
                status = getattr(exc.response, "status_code", None)
                if status in (404, 410):
                    await self.hub.writer.run(self.hub.store.drop_push, room.id, seat, subscription["endpoint"])
            except Exception as exc:  # a service that does not answer in time, or a broken connection
                log.warning("a push could not be sent (%s)", type(exc).__name__)

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
