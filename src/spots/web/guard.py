"""Refusing abuse early and clearly: rate buckets per client, bounded request bodies, safe JSON, headers, origins.

Why a module of its own: every route needs the same answers to "too much" (a
``429`` with ``Retry-After``), "too big" (a ``413`` before the body is read),
"not what we accept" (a ``400`` naming the problem, never a ``500``) and
"not from our own pages" (a ``403`` for a state-changing request another site's
page made the browser send).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import math
import re
import secrets
import time
import unicodedata
from collections import OrderedDict
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class Refused(Exception):
    """A request refused with an HTTP status, a code for programs and a message for people."""

    def __init__(self, status: int, code: str, message: str, retry: float | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.retry = status, code, message, retry

    def response(self) -> JSONResponse:
        headers = {"Retry-After": str(max(1, math.ceil(self.retry)))} if self.retry is not None else None
        body: dict[str, Any] = {"error": self.code, "message": self.message}
        if self.retry is not None:
            body["retry_after"] = max(1, math.ceil(self.retry))
        return JSONResponse(body, status_code=self.status, headers=headers)


def socket_error(code: str, message: str, **more: Any) -> dict[str, Any]:
    """A refusal over a table's WebSocket: a code for programs and a message for people (and any more fields)."""
    return {"type": "error", "code": code, "message": message, **more}


class Bucket:
    """A token bucket: ``burst`` at once, then ``rate`` per second."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, time.monotonic()

    def take(self) -> float:
        """0 when allowed (a token is spent); else the seconds until one is available."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate if self.rate > 0 else 3600.0


class Buckets:
    """One bucket per key (a client's address, a seat), forgetting the least recently used beyond ``size``."""

    def __init__(self, rate: float, burst: float, size: int = 50000) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self.buckets: OrderedDict[str, Bucket] = OrderedDict()

    def take(self, key: str) -> float:
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket(self.rate, self.burst)
            if len(self.buckets) > self.size:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return bucket.take()


def client_of(request: Any) -> str:
    """Who is asking: the peer address (uvicorn puts the forwarded one here when told to trust a proxy)."""
    client = request.client
    return client.host if client else "unknown"


def network_of(address: str, ipv4_prefix: int = 32, ipv6_prefix: int = 64) -> str:
    """The address block a client is counted in with its neighbours, e.g. ``2001:db8:1:2::/64``.

    Why: one home or one rented machine gets a whole IPv6 /64, so counting per address
    would let it be a million clients. IPv4 addresses stand alone unless the host asks for
    a wider block (``--ipv4-prefix 24``); what is not an IP address stands for itself.
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = ipv4_prefix if ip.version == 4 else ipv6_prefix
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def kept_for_newcomers(cap: int, share: float) -> int:
    """How much of a server-wide cap only networks that hold none of it yet may take."""
    return min(cap, math.floor(cap * share))


WHOLE = re.compile(r"[0-9]{1,9}")


def whole_number(value: str | bytes) -> int | None:
    """A count sent by a client (ASCII digits only: ``str.isdigit`` also takes ``²``, which ``int`` refuses)."""
    text = value.decode("latin-1") if isinstance(value, bytes) else value
    return int(text) if WHOLE.fullmatch(text) else None


def over(declared: str | bytes, limit: int) -> bool:
    """Whether a declared ``Content-Length`` is above ``limit`` (or is not a length at all)."""
    size = whole_number(declared)
    return size is None or size > limit


async def read_body(request: Request, limit: int, timeout: float = 10.0) -> bytes:
    """The request body, refused with 413 as soon as it is known to be larger than ``limit``.

    The declared length is checked before anything is read, and the stream is
    counted as it arrives, so a huge body never sits in memory; a body that
    trickles in slower than ``timeout`` seconds is refused with 408.
    """
    declared = request.headers.get("content-length")
    if declared is not None and over(declared, limit):
        raise Refused(413, "too-large", f"the request body is limited to {limit} bytes")
    chunks, size = [], 0
    try:
        async with asyncio.timeout(timeout):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise Refused(413, "too-large", f"the request body is limited to {limit} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise Refused(408, "too-slow", f"the request body took longer than {timeout:g} seconds") from None
    return b"".join(chunks)


MAX_DEPTH = 20  # a lobby request nests three levels; anything deeper is not one of ours


def parse_json(raw: bytes | str) -> Any:
    """JSON from a client: valid UTF-8 text, at most ``MAX_DEPTH`` levels deep, or a clear ``Refused``."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(400, "bad-json", "the request body is not UTF-8 text") from None
    depth = deepest = 0
    for ch in raw:  # brackets inside strings only make this stricter, never looser
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                raise Refused(400, "bad-json", f"the JSON is nested more than {MAX_DEPTH} levels deep")
        elif ch in "]}":
            depth -= 1
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise Refused(400, "bad-json", "the request body is not valid JSON") from None


KEPT_FORMAT = frozenset("\u200c\u200d")  # zero-width non-joiner and joiner: they shape scripts and join emoji


def without_format(value: str) -> str:
    """The text without invisible format characters (Unicode category Cf: bidi overrides and isolates, zero-width
    spaces, byte-order marks), which can make a line read other than it is; the joiners emoji and scripts need
    are kept."""
    return "".join(ch for ch in value if ch in KEPT_FORMAT or unicodedata.category(ch) != "Cf")


def check_text(value: str, what: str) -> str:
    """Refuse text that cannot be stored or shown: lone surrogates and control characters."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused(400, "bad-text", f"{what} is not valid text (it holds a lone surrogate)") from None
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in value):
        raise Refused(400, "bad-text", f"{what} holds control characters")
    return value


# Scripts: this site's files and, per response, the inline bootstraps (words, settings) that carry
# that response's nonce; nothing else, no eval, nothing from another origin, no framing. Styles allow
# inline: the drawn table sets style attributes on the SVG and HTML it builds.
def content_security_policy(nonce: str) -> str:
    return (f"default-src 'self'; script-src 'self' 'nonce-{nonce}'; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
            "form-action 'self'; frame-ancestors 'none'")


SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # Seat links never leak to another site through Referer; our own pages' requests keep their real
    # Origin (under no-referrer a browser sends ``Origin: null`` with a form's POST, even to its own server).
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL, lower case and without the default port; "" when it has none."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return ""
    host, scheme = parts.hostname, parts.scheme.lower()
    if not host or scheme not in DEFAULT_PORTS:
        return ""
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}" + (f":{port}" if port is not None and port != DEFAULT_PORTS[scheme] else "")


class Origins:
    """Which pages may change things here: those of ``origin`` (the public URL's), else of the request's own Host.

    A browser names the page behind a request in ``Origin`` (every WebSocket and every
    POST). With none (curl, the CLI, another program) the request passes unless the browser's
    ``Sec-Fetch-Site`` or a ``Referer`` says it came from another site.
    """

    def __init__(self, origin: str = "") -> None:
        self.origin = origin_of(origin) if origin else ""

    def allowed(self, url: str, headers: Headers) -> bool:
        seen = origin_of(url)
        if not seen:
            return False  # "null" (a sandboxed frame, a file) or nonsense
        if self.origin:
            return seen == self.origin
        return seen == origin_of(f"{seen.split(':', 1)[0]}://{headers.get('host', '')}")

    def refusal(self, scope: Scope) -> Refused | None:
        """A 403 for a WebSocket or a state-changing request from another site's page, else None."""
        if scope["type"] == "http" and scope["method"] not in UNSAFE_METHODS:
            return None
        headers = Headers(scope=scope)
        what = "WebSocket connections" if scope["type"] == "websocket" else "changes"
        here = self.origin or "this server's own address"
        origin = headers.get("origin")
        if origin is not None:
            if self.allowed(origin, headers):
                return None
            return Refused(403, "cross-origin", f"this server takes {what} only from its own pages ({here});"
                           f" this request came from a page of {origin[:100]!r}")
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return Refused(403, "cross-origin", f"this server takes {what} only from its own pages ({here});"
                           f" the browser says this request came from another site ({site[:20]})")
        referer = headers.get("referer")
        if referer and not self.allowed(referer, headers):
            return Refused(403, "cross-origin", f"this server takes {what} only from its own pages ({here});"
                           " this request came from a page of another site")
        return None


NONCE_KEY = "csp_nonce"  # where the Gate leaves the response's nonce in the request's state


def script_nonce(request: Request) -> str:
    """The nonce a page's inline scripts carry: the one in this response's Content-Security-Policy."""
    return str(request.scope.get("state", {}).get(NONCE_KEY, ""))


class Gate:
    """ASGI middleware: security headers on every response, early 413s, a request rate per client, origins.

    Static files are not counted (a page load fetches several); everything else is,
    at ``requests_per_second`` after a burst of three seconds' worth. WebSockets and
    state-changing requests from another site's pages are refused (``Origins``).
    """

    def __init__(self, app: ASGIApp, limits: Any, origin: str = "") -> None:
        self.app, self.max_body = app, limits.max_body
        self.requests = Buckets(limits.requests_per_second, max(60.0, limits.requests_per_second * 3))
        self.origins = Origins(origin)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            refusal = self.origins.refusal(scope)
            if refusal is None:
                await self.app(scope, receive, send)
            elif "websocket.http.response" in scope.get("extensions", {}):
                await refusal.response()(scope, receive, send)  # a 403 the client can read
            else:
                await send({"type": "websocket.close", "code": 4403})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        nonce = secrets.token_urlsafe(16)  # fresh per response: a page's scripts are its own
        scope.setdefault("state", {})[NONCE_KEY] = nonce
        refusal = self.check(scope)
        if refusal is not None:
            await refusal.response()(scope, receive, self.with_headers(send, nonce))
            return
        await self.app(scope, receive, self.with_headers(send, nonce))

    def check(self, scope: Scope) -> Refused | None:
        for name, value in scope["headers"]:
            if name == b"content-length" and over(value, self.max_body):
                return Refused(413, "too-large", f"request bodies are limited to {self.max_body} bytes")
        refusal = self.origins.refusal(scope)
        if refusal is not None:
            return refusal
        if not scope["path"].startswith("/static/"):
            client = scope.get("client")
            wait = self.requests.take(client[0] if client else "unknown")
            if wait:
                return Refused(429, "too-many-requests", "too many requests; slow down", wait)
        return None

    @staticmethod
    def with_headers(send: Send, nonce: str) -> Send:
        csp = (b"content-security-policy", content_security_policy(nonce).encode())

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), csp, *SECURITY_HEADERS]
            await send(message)

        return send_with_headers
