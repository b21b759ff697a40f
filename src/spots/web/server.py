"""``spots serve``: run the web app with uvicorn on one SQLite file, or on PostgreSQL shared by several processes.

``main(argv)`` is what the CLI's ``serve`` command calls; ``python -m spots.web.server``
works too (the tests start it that way in a subprocess). Besides the app's own
limits (``config.Limits``), the server bounds connections: at most
``max_connections`` open (``connections_per_client`` per address), a client
that does not finish sending a request's headers within ``header_timeout``
seconds is disconnected (slowloris), and idle keep-alive connections close
after ``idle_timeout`` seconds; a WebSocket holds its connection's slot until it
closes. ``X-Forwarded-For`` is believed only from the proxies ``--trusted-proxy``
names (uvicorn alone would believe it from 127.0.0.1). Seat and host links are
scrubbed from the logs.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import logging
import re
import signal
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from .config import Limits

MAX_FRAME = 1 << 20  # frames above this are cut off by uvicorn; the app itself refuses anything above 4 KB
MAX_HEADERS = 16384  # bytes of request line and headers
SECRET = re.compile(r"(/play/|/host/|token=)[^/?&\s\"]+")


def scrub(text: str) -> str:
    """A log line without seat or host secrets (``/play/…``, ``/host/…``, ``token=…``)."""
    return SECRET.sub(r"\1…", text)


class Scrubber(logging.Filter):
    """Keeps seat tokens out of the access and error logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(scrub(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = scrub(record.msg)
        return True


def build_parser(prog: str = "spots serve") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Play Spots in the browser: lobby, tables, bots, replays.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--db", default="spots.sqlite3",
                        help="SQLite database file (created if missing), or a postgresql://user:password@host/dbname"
                             " URL that several server processes share")
    parser.add_argument("--bot-delay", type=float, default=1.0,
                        help="seconds a bot waits before each move, so people can follow (default 1.0)")
    parser.add_argument("--durable", action="store_true",
                        help="fsync every move (survives power cuts, not only a killed process)")
    parser.add_argument("--public-url", default=None,
                        help="the address players reach the server at, for invite links"
                             " (default http://HOST:PORT; never taken from a request's Host header); when given,"
                             " the only origin whose pages may change things here (else: the request's own Host)")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes that think for bots and hints (default 1; 0 = threads in the server)")
    parser.add_argument("--trusted-proxy", "--forwarded-allow-ips", dest="trusted_proxy", action="append",
                        default=[], metavar="ADDRESS",
                        help="behind a reverse proxy: its address or network (repeat, or separate with commas);"
                             " X-Forwarded-For and X-Forwarded-Proto are believed only from these (default: from no"
                             " one), so limits apply per real client")
    parser.add_argument("--smtp", default=None, metavar="URL",
                        help="send your-turn e-mails to signed-in players who ask for them, through this server:"
                             " smtp://[user:password@]host[:port][?from=address&starttls=1] or smtps://...")
    parser.add_argument("--email-digest", action="store_true",
                        help="gather every player's your-turn e-mails into one a day (default: as each player chose on"
                             " their account page: one per table and turn, or one a day)")
    parser.add_argument("--vapid-key", default=None, metavar="FILE",
                        help="Web Push: the VAPID private key (a PEM file, e.g. from `vapid --gen`); needs pywebpush")
    parser.add_argument("--vapid-subject", default=None, metavar="MAILTO",
                        help="Web Push: the contact push services may write to (mailto:you@example.org)")
    parser.add_argument("--private", action="store_true",
                        help="generous limits for a trusted network or a benchmark (see docs/web.md)")
    group = parser.add_argument_group("limits (defaults suit a public server)")
    for name, kind, default, text in Limits.options():
        group.add_argument("--" + name.replace("_", "-"), type=kind, default=None, metavar="N",
                           help=f"{text} (default {default:g})")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    return parser


def limits_from(args: argparse.Namespace) -> Limits:
    """The limits the options ask for: the public defaults (or ``--private``), then each option given."""
    base = Limits.private() if args.private else Limits()
    given = {name: getattr(args, name) for name, *_ in Limits.options() if getattr(args, name) is not None}
    for name, value in given.items():
        if value < 0:
            raise ValueError(f"--{name.replace('_', '-')} must not be negative")
    for name, high in (("newcomer_share", 1), ("ipv4_prefix", 32), ("ipv6_prefix", 128)):
        if given.get(name, 0) > high:
            raise ValueError(f"--{name.replace('_', '-')} must be from 0 to {high}")
    return base.but(**given)


def notices_from(args: argparse.Namespace) -> dict[str, Any]:
    """The your-turn notices the options ask for: ``Notices`` keywords (raises ValueError)."""
    from .notices.service import Smtp, Vapid

    out: dict[str, Any] = {"digest": bool(args.email_digest)}
    if args.smtp:
        out["smtp"] = Smtp.parse(args.smtp)
    if args.vapid_key:
        if not args.vapid_subject or not args.vapid_subject.startswith(("mailto:", "https://")):
            raise ValueError("--vapid-key needs --vapid-subject mailto:you@example.org (whom push services may write)")
        out["vapid"] = Vapid(args.vapid_key, vapid_public_key(args.vapid_key), args.vapid_subject)
    return out


def vapid_public_key(path: str) -> str:
    """The base64url public key of a VAPID private key file (raises ValueError)."""
    import base64

    try:
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
        from py_vapid import Vapid
    except ImportError:
        raise ValueError("--vapid-key needs pywebpush: pip install 'spots[push]'") from None
    try:
        key = Vapid.from_file(path)
    except Exception as exc:
        raise ValueError(f"--vapid-key {path}: not a VAPID private key ({type(exc).__name__})") from None
    raw = key.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def trusted_proxies(given: Sequence[str]) -> list[str]:
    """The proxy addresses and networks the options name, each checked (uvicorn would take a typo as a name)."""
    proxies = [part.strip() for option in given for part in option.split(",") if part.strip()]
    for proxy in proxies:
        if proxy == "*":
            raise ValueError("--trusted-proxy '*' would let every client choose its own address; name the proxy's"
                             " address or network (e.g. 10.0.0.0/8)")
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise ValueError(f"--trusted-proxy {proxy!r} is not an IP address or network (e.g. 127.0.0.1,"
                             " ::1 or 10.0.0.0/8)") from None
    return proxies


def guarded_protocol(limits: Limits) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP and WebSocket protocols with a bound on connections and a deadline for request headers.

    A connection holds its address's slot from its first byte until it closes, whatever it has
    become: an upgraded WebSocket gives the slot back the moment its socket closes.
    """
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

    per_client: Counter[str] = Counter()

    class GuardedSocket(AutoWebSocketsProtocol):  # type: ignore[misc, valid-type]
        """A WebSocket that tells the connection it was upgraded from when its socket closes."""

        on_lost: Callable[[], None] | None = None

        def connection_lost(self, exc: Exception | None) -> None:
            if self.on_lost is not None:
                self.on_lost()
            super().connection_lost(exc)

    class Guarded(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
        """Counts connections per address; closes one that is slow to send its request's headers."""

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            self.peer = str(peer[0]) if peer else "unknown"
            per_client[self.peer] += 1
            self.counted = True
            total = sum(per_client.values())
            if total > limits.max_connections or per_client[self.peer] > limits.connections_per_client:
                transport.abort()  # type: ignore[attr-defined]
                return
            self.arm()

        def arm(self) -> None:
            self.armed_cycle = self.cycle
            self.timer = asyncio.get_running_loop().call_later(limits.header_timeout, self.deadline)

        def handle_websocket_upgrade(self, *args: Any) -> None:
            timer = getattr(self, "timer", None)
            if timer is not None:  # the WebSocket's own limits take over; the slot is given back when it closes
                timer.cancel()
            super().handle_websocket_upgrade(*args)
            upgraded = self.transport.get_protocol()
            if isinstance(upgraded, GuardedSocket):
                upgraded.on_lost = self.uncount
            else:
                self.uncount()

        def deadline(self) -> None:
            if self.transport.get_protocol() is not self:  # upgraded: counted until the WebSocket closes
                return
            if not self.transport.is_closing():
                idle = self.cycle is None or self.cycle.response_complete
                if idle and self.cycle is self.armed_cycle:
                    self.transport.close()  # no complete request in time
                else:
                    self.arm()

        def uncount(self) -> None:
            if self.counted:
                self.counted = False
                per_client[self.peer] -= 1
                if per_client[self.peer] <= 0:
                    del per_client[self.peer]

        def connection_lost(self, exc: Exception | None) -> None:
            self.uncount()
            timer = getattr(self, "timer", None)
            if timer is not None:
                timer.cancel()
            super().connection_lost(exc)

    return Guarded, GuardedSocket


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options and serve until interrupted; returns an exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.bot_delay < 0:
        parser.error("--bot-delay must not be negative")
    try:
        limits = limits_from(args)
        proxies = trusted_proxies(args.trusted_proxy)
        notices = notices_from(args)
    except ValueError as exc:
        parser.error(str(exc))
    import uvicorn

    from .app import create_app
    from .store import StoreError, redact

    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    for name in ("uvicorn.access", "uvicorn.error", "spots.web"):
        logging.getLogger(name).addFilter(Scrubber())
    public = (args.public_url or f"http://{args.host}:{args.port}").rstrip("/")
    try:
        app = create_app(args.db, bot_delay=args.bot_delay, durable=args.durable, limits=limits, public_url=public,
                         notices=notices,
                         workers=args.workers, origin=args.public_url or "")
    except StoreError as exc:
        print(f"spots serve: {exc}", file=sys.stderr)
        return 2
    print(f"Spots is being served at {public}/ (database: {redact(args.db)})", flush=True)
    http, ws = guarded_protocol(limits)
    # uvicorn stops gracefully on SIGTERM, then raises the signal again under the handler it found. Under Python's
    # default the process dies of it and no exit handler runs, multiprocessing's among them: the resource tracker
    # then reports the worker pools' semaphores as leaked. Ending by SystemExit (status 143, as a shell reports
    # SIGTERM) runs them.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    # uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise: here only the named proxies are believed
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=MAX_FRAME,
                http=http, ws=ws, timeout_keep_alive=limits.idle_timeout, h11_max_incomplete_event_size=MAX_HEADERS,
                server_header=False, proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
