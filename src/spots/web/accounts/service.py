"""Optional accounts: names with passwords (argon2id) or passkeys, sessions in a cookie, seats bound to accounts.

Why this shape (docs/web.md, "Accounts"):

- A guest never needs one: a seat link is still all it takes to play. An account
  adds a name that is the same at every table, My games and a profile.
- The session cookie (``spots_session``) is HttpOnly, SameSite=Lax, and Secure
  when the public address is https. Its token is 256 random bits; the store keeps
  only its SHA-256, so a copy of the database signs nobody in. A new token is made
  at every sign-in (the old session, if any, ends), and "sign out everywhere"
  deletes every session of the account. Each request looks its session up in the
  store, so with several processes on PostgreSQL a session made (or ended) on one
  is honoured (or refused) by every other at once.
- Guessing is bounded twice: per client network (``signins_per_minute``) and per
  account (the store counts wrong passwords: after half of ``signin_failures``
  each answer is slowed, at ``signin_failures`` the account refuses passwords for
  ``signin_lockout`` seconds; a passkey still signs in, it cannot be guessed).
  So that a stranger's guesses cannot keep the owner out, a browser that signed in
  to the account before (its ``spots_device`` cookie, 256 random bits, kept as a
  SHA-256 like a session) is past the account's lock: its wrong passwords are
  counted on it alone, with the same slowing and lock.
- A seat bound to an account is played only by that account: its link alone no
  longer seats anyone (``seat_refusal``).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import re
import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from http.cookies import SimpleCookie
from typing import TYPE_CHECKING, Any, NoReturn

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ..guard import Buckets, Refused, network_of
from .look_alike import look_alike_key, mixes_scripts
from .store import (
    NOTIFY_DIGEST,
    NOTIFY_EACH_TURN,
    NOTIFY_NEVER,
    AccountRow,
    DeviceRow,
    Duplicate,
    LooksLike,
)

if TYPE_CHECKING:
    from fastapi import Response
    from starlette.requests import HTTPConnection

    from ..config import Limits
    from ..tables.hub import Hub
    from ..tables.rooms import Room

log = logging.getLogger("spots.web")
COOKIE = "spots_session"
SESSION_DAYS = 30  # a session unused this long ends by itself
DEVICE_COOKIE = "spots_device"  # a browser that signed in before: past the account-wide lock (``sign_in``)
DEVICE_DAYS = 365  # the device cookie's life, renewed at each sign-in
DEVICES_KEPT = 20  # browsers remembered per account, the newest
SEEN_EVERY = 3600.0  # seconds: how often a session's last use is written back (not at every request)
NAME = re.compile(r"[\w.-]{2,24}")  # letters and digits of any script, '_', '.', '-'
MIN_PASSWORD, MAX_PASSWORD = 8, 256
UNKNOWN_KEPT = 10_000  # unknown names whose wrong passwords are counted (in memory), the most recent kept
SLOW_STEP, SLOWEST = 1.0, 5.0  # seconds added per wrong password past the slow-down point, at most
EMAIL = re.compile(r"[^@\s]{1,64}@[^@\s]+\.[^@\s.]{2,63}")
Tr = Callable[[str], str]


def hash_secret(secret: str) -> str:
    """What the store keeps of a session token, reset code or challenge: its SHA-256 (they are random)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def name_key(name: str) -> str:
    """One account per name whatever its capitals and Unicode spelling."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(value: Any, _: Tr) -> str:
    """An account name, or a ValueError saying what is allowed."""
    name = unicodedata.normalize("NFC", value.strip()) if isinstance(value, str) else ""
    if not NAME.fullmatch(name):
        raise ValueError(_("A name is 2 to 24 letters, digits, '_', '.' or '-' (no spaces)."))
    if mixes_scripts(name):
        raise ValueError(_("A name is written in one alphabet: {name} mixes letters of several (such as Latin and"
                           " Cyrillic).").format(name=name))
    return name


def check_password(value: Any, _: Tr) -> str:
    if not isinstance(value, str) or not MIN_PASSWORD <= len(value) <= MAX_PASSWORD:
        raise ValueError(_("A password is {low} to {high} characters long.").format(low=MIN_PASSWORD,
                                                                                     high=MAX_PASSWORD))
    return value


def check_email(value: Any, _: Tr) -> str | None:
    """An e-mail address (or None when left empty), or a ValueError."""
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        return None
    if len(text) > 254 or not EMAIL.fullmatch(text):
        raise ValueError(_("That is not an e-mail address (name@example.org)."))
    return text


NOTIFY_FORM = {"": NOTIFY_NEVER, "0": NOTIFY_NEVER, "1": NOTIFY_EACH_TURN, "2": NOTIFY_DIGEST}  # the page's values


def check_notify(value: Any, email: str | None, _: Tr) -> int:
    """The e-mail notices asked for on the account page (``NOTIFY_*``; none without an address), or a ValueError."""
    text = value if isinstance(value, str) else ""  # left out (an old page's unticked box): never
    if text not in NOTIFY_FORM:
        raise ValueError(_("Choose when to be e-mailed: never, each time a table waits for your move, or once a day."))
    return NOTIFY_FORM[text] if email is not None else NOTIFY_NEVER


class SignInRefused(Exception):
    """A sign-in refused: the HTTP status, the message for the person, and when to try again."""

    def __init__(self, status: int, message: str, retry: float | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.retry = status, message, retry


class Accounts:
    """Sign-up, sign-in, sessions and seat binding, on the hub's store (its calls run on the writer thread)."""

    def __init__(self, hub: Hub, limits: Limits, secure: bool = False) -> None:
        self.hub, self.store, self.limits, self.secure = hub, hub.store, limits, secure
        # OWASP's first argon2id choice: 19 MiB, 2 passes, 1 lane (~30 ms here); at most two at once bound the memory
        self.hasher = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
        # two threads of their own: a sign-in never waits behind e-mail, pushes or anything else on a thread
        self.hashing = ThreadPoolExecutor(2, thread_name_prefix="spots-hash")
        self.unknown = ""  # a hash checked for unknown names, so they take as long (made at the first sign-in)
        # wrong passwords for names that have no account, (count, last), so that they are slowed and locked exactly
        # as a real name is and the answers do not tell which names exist
        self.unknown_failures: OrderedDict[str, tuple[int, float]] = OrderedDict()
        rate = limits.signins_per_minute
        self.attempts = Buckets(rate / 60, max(1.0, rate))
        self.seen: OrderedDict[str, float] = OrderedDict()  # session hash -> when its use was last written
        # the sockets open under a session in this process: (session hash, account id, how to hang it up)
        self.live: dict[object, tuple[str, str, Callable[[], None]]] = {}

    async def _run(self, call: Any, *args: Any, **kwargs: Any) -> Any:
        return await self.hub.writer.run(functools.partial(call, **kwargs) if kwargs else call, *args)

    def close(self) -> None:
        self.hashing.shutdown(wait=False, cancel_futures=True)

    async def _hash(self, password: str) -> str:
        return await asyncio.get_running_loop().run_in_executor(self.hashing, self.hasher.hash, password)

    async def _verify(self, stored: str | None, password: str) -> bool:
        if not stored and not self.unknown:
            self.unknown = await self._hash(secrets.token_hex(16))
        try:
            await asyncio.get_running_loop().run_in_executor(self.hashing, self.hasher.verify, stored or self.unknown,
                                                             password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        return stored is not None

    # -------------------------------------------------------------- signing up and in

    async def sign_up(self, name: Any, password: Any, _: Tr) -> AccountRow:
        """A new account (raises ValueError with a message for the person)."""
        name = check_name(name, _)
        if name_key(name).endswith("bot"):  # bot accounts' names end so (botapi/service.py): a person's may not
            raise ValueError(_("A name ending in 'bot' is kept for bot accounts; choose another."))
        password = check_password(password, _)
        digest = await self._hash(password)
        try:
            return await self._run(self.store.create_account, secrets.token_hex(8), name, name_key(name), digest,
                                   look_alike_key(name))
        except Duplicate:
            raise ValueError(_("The name {name} is taken; choose another.").format(name=name)) from None
        except LooksLike as exc:
            raise ValueError(_("The name {name} looks too much like {taken}, a name taken here; choose"
                               " another.").format(name=name, taken=exc)) from None

    def attempt(self, client: str) -> float:
        """Count an attempt on the accounts (a sign-in, a sign-up, a reset, a passkey challenge) for the client's
        network (``--ipv4-prefix``, ``--ipv6-prefix``): 0, or the seconds to wait (``--signins-per-minute``)."""
        return self.attempts.take(network_of(client, self.limits.ipv4_prefix, self.limits.ipv6_prefix))

    async def sign_in(self, name: Any, password: Any, client: str, _: Tr, device: str | None = None) -> AccountRow:
        """The account whose name and password these are, within the attempt limits (raises SignInRefused).
        ``device`` is the browser's device cookie, if it has one."""
        limits = self.limits
        wait = self.attempt(client)
        if wait:
            raise SignInRefused(429, _("Too many sign-in attempts from your address; try again in {n} s.").format(
                n=max(1, round(wait))), wait)
        key = name_key(name) if isinstance(name, str) else ""
        account = await self._run(self.store.account_named, key) if key else None
        known = await self._device_of(device, account)
        now = time.time()
        failed, failed_at = ((known.failures, known.failed_at) if known is not None
                             else (account.failures, account.failed_at) if account is not None
                             else self.unknown_failures.get(key, (0, 0.0)))
        if failed >= limits.signin_failures:
            left = failed_at + limits.signin_lockout - now
            if left > 0:
                raise SignInRefused(429, self._locked(left, _), left)
        right = await self._verify(account.password if account else None, password if isinstance(password, str)
                                   else "")
        if account is None or not right:
            await self._failed(account, known, key, now, _)
        if account.disabled:
            raise SignInRefused(403, _("This account is disabled by the server's host."))
        if known is not None:  # the browser's count starts again; the account's lock on strangers stays
            if known.failures:
                await self._run(self.store.device_signed_in, known.hash)
        elif account.failures:
            await self._run(self.store.set_account, account.id, failures=0)
        return account

    async def _device_of(self, token: str | None, account: AccountRow | None) -> DeviceRow | None:
        """The browser's device row, if it signed in to this very account before."""
        if not token or account is None:
            return None
        found = await self._run(self.store.device, hash_secret(token))
        return found if found is not None and found.account == account.id else None

    async def _failed(self, account: AccountRow | None, known: DeviceRow | None, key: str, now: float,
                      _: Tr) -> NoReturn:
        """A wrong password (or name): counted on the browser that signed in before, else on the account (or the
        unknown name); slowed from half the limit on, locked at it. Always raises SignInRefused."""
        limits = self.limits
        if known is not None:
            failures = await self._run(self.store.device_failed, known.hash, now - limits.signin_lockout)
        elif account is not None:
            failures = await self._run(self.store.sign_in_failed, account.id, now - limits.signin_lockout)
        else:
            failures = self._unknown_failed(key, now)
        if failures >= limits.signin_failures:
            raise SignInRefused(429, self._locked(limits.signin_lockout, _), limits.signin_lockout)
        slow_from = max(1, limits.signin_failures // 2)
        if failures >= slow_from:  # slowed: each further guess costs more time
            await asyncio.sleep(min(SLOWEST, SLOW_STEP * (failures - slow_from + 1)))
        raise SignInRefused(401, _("Wrong name or password."))

    def _unknown_failed(self, key: str, now: float) -> int:
        """Count a wrong password for a name without an account, as the store counts a real one's."""
        count, at = self.unknown_failures.pop(key, (0, 0.0))
        count = count + 1 if at >= now - self.limits.signin_lockout else 1
        self.unknown_failures[key] = (count, now)
        while len(self.unknown_failures) > UNKNOWN_KEPT:
            self.unknown_failures.popitem(last=False)
        return count

    @staticmethod
    def _locked(seconds: float, _: Tr) -> str:
        minutes = max(1, round(seconds / 60))
        return _("Too many wrong passwords for this account: it takes no password for {n} min. A passkey still"
                 " signs in.").format(n=minutes)

    async def reset_password(self, name: Any, code: Any, password: Any, _: Tr) -> AccountRow:
        """Set a new password with the one-time code the host gave (``spots users reset``)."""
        key = name_key(name) if isinstance(name, str) else ""
        account = await self._run(self.store.account_named, key) if key else None
        good = (account is not None and account.reset is not None and isinstance(code, str)
                and secrets.compare_digest(account.reset, hash_secret(code.strip()))
                and (account.reset_until or 0) > time.time())
        if account is None or not good:
            raise ValueError(_("That name and reset code do not match, or the code has expired; ask the host for"
                               " a new one."))
        digest = await self._hash(check_password(password, _))
        await self._run(self.store.set_account, account.id, password=digest, reset=None, reset_until=None,
                        failures=0)
        await self.end_sessions(account.id)
        return account

    # -------------------------------------------------------------- sessions

    async def start_session(self, account: AccountRow, response: Response, old_token: str | None = None,
                            device: str | None = None) -> None:
        """A fresh session for ``account`` in the response's cookie; the old one (if any) ends: rotated. The
        browser is remembered as one that signed in to the account (``device``: its device cookie, if any)."""
        await self.end_session(old_token)
        token = secrets.token_urlsafe(32)
        await self._run(self.store.new_session, hash_secret(token), account.id)
        response.set_cookie(COOKIE, token, max_age=SESSION_DAYS * 86400, httponly=True, samesite="lax",
                            secure=self.secure, path="/")
        if await self._device_of(device, account) is None:  # a browser new to this account: a new device
            device = secrets.token_urlsafe(32)
            await self._run(self.store.new_device, hash_secret(device), account.id, DEVICES_KEPT)
        response.set_cookie(DEVICE_COOKIE, str(device), max_age=DEVICE_DAYS * 86400, httponly=True,
                            samesite="lax", secure=self.secure, path="/")

    def forget_cookie(self, response: Response) -> None:
        response.delete_cookie(COOKIE, httponly=True, samesite="lax", secure=self.secure, path="/")

    async def end_session(self, token: str | None) -> None:
        """End one session, and hang up the sockets opened under it here (other processes re-check theirs)."""
        if token:
            digest = hash_secret(token)
            await self._run(self.store.end_session, digest)
            self._hang_up(lambda session, _account: session == digest)

    async def end_sessions(self, account_id: str) -> None:
        """End every session of an account ("sign out everywhere", a new password), and hang up its sockets here."""
        await self._run(self.store.end_sessions, account_id)
        self._hang_up(lambda _session, account: account == account_id)

    # -------------------------------------------------------------- sockets of a session

    def watch(self, token: str, account_id: str, hang_up: Callable[[], None]) -> object:
        """Remember a socket opened signed in, so that ending its session hangs it up at once; a key to forget it."""
        key = object()
        self.live[key] = (hash_secret(token), account_id, hang_up)
        return key

    def unwatch(self, key: object) -> None:
        self.live.pop(key, None)

    def _hang_up(self, ended: Callable[[str, str], bool]) -> None:
        for key, (session, account, hang_up) in list(self.live.items()):
            if ended(session, account) and self.live.pop(key, None) is not None:
                hang_up()

    async def still_signed_in(self, token: str, account_id: str) -> bool:
        """Whether a socket's session still signs this account in: not ended anywhere, nor the account disabled.

        Asked before each thing a socket does, so that a session ended on another process, or an account the
        host disabled (``spots users disable``), acts no more.
        """
        account = await self.lookup(token)
        return account is not None and account.id == account_id

    async def lookup(self, token: str) -> AccountRow | None:
        """The signed-in account of a session token (None: unknown, expired, ended or disabled)."""
        if not token or len(token) > 100:
            return None
        digest = hash_secret(token)
        now = time.time()
        account: AccountRow | None = await self._run(self.store.session_account, digest,
                                                     now - SESSION_DAYS * 86400)
        if account is not None and now - self.seen.get(digest, 0.0) > SEEN_EVERY:
            await self._run(self.store.session_seen, digest, now)
            self.seen[digest] = now
            self.seen.move_to_end(digest)
            while len(self.seen) > 100000:
                self.seen.popitem(last=False)
        return account

    # -------------------------------------------------------------- seats

    def seat_refusal(self, me: AccountRow | None, room: Room, seat: int, _: Tr) -> str | None:
        """Why ``me`` may not play this seat (it is another account's), or None."""
        owner = room.row.seats[seat].account
        if owner is None or (me is not None and me.id == owner):
            return None
        return _("This seat belongs to {name}'s account: sign in as {name} to play it.").format(
            name=room.row.seats[seat].name)

    async def bind(self, room: Room, seat_no: int, me: AccountRow) -> bool:
        """Give a human seat to ``me`` under its account name (False: it is another account's)."""
        seat = room.row.seats[seat_no]
        if seat.kind != "human" or (seat.account is not None and seat.account != me.id):
            return False
        if seat.account == me.id and seat.name == me.name:
            return True
        if seat.account is None:  # a table may ask its players to finish their games (raises ShortOfMinimum)
            await room.hub.ratings.check_minimum(me.id, room.row.min_finished)
        if not await self._run(self.store.bind_seat, room.id, seat_no, me.id, me.name):
            return False
        renamed = seat.name != me.name
        seat.account, seat.name, seat.claimed = me.id, me.name, True
        if renamed:
            room.renamed()
        room.changed(full=renamed)
        return True


def account_of(scope: Any) -> AccountRow | None:
    """The signed-in account of a request or WebSocket (``SessionReader`` put it there), or None."""
    state = scope.scope.get("state", {}) if hasattr(scope, "scope") else scope.get("state", {})
    found = state.get("account")
    return found if isinstance(found, AccountRow) else None


def session_token(request: HTTPConnection) -> str | None:
    """The session cookie of a request or a WebSocket handshake."""
    return request.cookies.get(COOKIE)


def device_token(request: HTTPConnection) -> str | None:
    """The device cookie of a browser that signed in before, if it has one."""
    return request.cookies.get(DEVICE_COOKIE)


class SessionReader:
    """ASGI middleware: for a request or WebSocket carrying a session cookie, the account goes in its state.

    Guests carry no cookie and cost nothing; static files and the JSON reads (``GET /api/...``: the
    lobby's poll every few seconds, replays) are skipped, since no answer there depends on who asks; but for the
    puzzles' (``GET /api/puzzles/...``: the next puzzle near your rating, your drill deck) and an event's
    (``GET /api/tournaments/...``: your own table's link).
    A store that cannot answer leaves the visitor signed out for that request (never a 500).
    """

    def __init__(self, app: Any, accounts: Accounts) -> None:
        self.app, self.accounts = app, accounts

    @staticmethod
    def wanted(scope: Any) -> bool:
        """Whether this request's answer may depend on the account."""
        if scope["type"] == "websocket":
            return True
        if scope["type"] != "http" or scope["path"].startswith(("/static/", "/games/")):
            return False
        path = scope["path"]
        return not (scope["method"] in ("GET", "HEAD") and path.startswith("/api/")
                    and not path.startswith(("/api/puzzles/", "/api/tournaments/")))

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self.wanted(scope):
            token = self._token(scope)
            if token:
                try:
                    account = await self.accounts.lookup(token)
                except Exception as exc:  # Unavailable, a broken connection: signed out for now
                    log.warning("a session could not be looked up: %s", type(exc).__name__)
                    account = None
                scope.setdefault("state", {})["account"] = account
        await self.app(scope, receive, send)

    @staticmethod
    def _token(scope: Any) -> str | None:
        for name, value in scope.get("headers", []):
            if name == b"cookie":
                cookie: SimpleCookie = SimpleCookie()
                try:
                    cookie.load(value.decode("latin-1"))
                except Exception:
                    return None
                if COOKIE in cookie:
                    return cookie[COOKIE].value
        return None


def refused(exc: SignInRefused) -> Refused:
    return Refused(exc.status, "sign-in-refused", exc.message, exc.retry)
