"""What one server allows: the limits that keep a public server usable when someone abuses it.

Why one place: every limit here is a ``spots serve`` option (``--tables-per-client``
and so on, listed by ``spots serve --help`` and in ``docs/web.md``) and a
``create_app`` argument; the defaults suit a public server, and a private one
(friends on a home network, a benchmark) raises them with ``--private``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any


def limit(default: float, help: str) -> Any:
    """A limit with the help text ``spots serve --help`` shows for it."""
    return field(default=default, metadata={"help": help})


@dataclass(frozen=True)
class Limits:
    """Per client (one IP address), per network (its address block) and per server. Times in seconds, sizes in bytes.

    A network is an IPv6 /64 (what one home or one hosted machine is given) or, unless the host
    asks for a wider block with ``ipv4_prefix``, one IPv4 address. Of each server-wide cap,
    ``newcomer_share`` is kept for networks that hold none of it yet.
    """

    tables_per_client: int = limit(20, "unfinished tables one client may have")
    tables_per_minute: float = limit(6.0, "new tables a client may create a minute (after a burst of 10)")
    tables_per_network: int = limit(40, "unfinished tables the addresses of one network may have")
    max_tables: int = limit(2000, "live tables on the server")
    bot_tables_per_client: int = limit(2, "live tables where only bots play, per client")
    bot_tables_per_network: int = limit(2, "live tables where only bots play, per network")
    max_bot_tables: int = limit(8, "live tables where only bots play, on the server")
    expire_after: float = limit(24 * 3600.0, "seconds before an unfinished table whose player to move stays away (no"
                                                " move, no page of theirs open) is retired (never one with a clock)")
    linger_after_end: float = limit(600.0, "seconds a finished table stays in memory after its last viewer")
    sockets_per_client: int = limit(32, "WebSockets one client may have open")
    sockets_per_network: int = limit(64, "WebSockets the addresses of one network may have open")
    viewers_per_table: int = limit(100, "WebSockets on one table")
    max_sockets: int = limit(2000, "WebSockets on the server")
    message_rate: float = limit(10.0, "WebSocket messages a second per connection (after a burst)")
    message_burst: float = limit(20.0, "WebSocket messages one connection may send at once")
    send_timeout: float = limit(10.0, "seconds a viewer may take to accept one message before it is dropped")
    queue: int = limit(16, "messages waiting for one viewer before it is dropped")
    chat_length: int = limit(300, "characters in one chat message")
    chat_per_minute: float = limit(12.0, "chat messages one sender may send a minute at one table (after a burst of 5)")
    leaderboard_min_games: int = limit(5, "rated games a person needs to be on a game's leaderboard")
    # Asking at every turn against a bot at the default pace is 15-20 hints a minute: at 12 a minute one request in
    # four was refused (issue 32); 30 leaves the player to move a hint every turn of a normal game.
    hints_per_minute: float = limit(30.0, "hints one client may ask for a minute (after a burst of 3)")
    hints_server_per_minute: float = limit(120.0, "hints the whole server computes a minute (after a burst of 10)")
    requests_per_second: float = limit(20.0, "page and API requests a second per client (after a burst)")
    max_body: int = limit(16384, "bytes in a request body (refused before it is read)")
    body_timeout: float = limit(10.0, "seconds a client may take to send a request body")
    newcomer_share: float = limit(0.25, "share of each server-wide cap (tables, bot-only tables, WebSockets) kept"
                                  " for networks that hold none yet")
    ipv4_prefix: int = limit(32, "IPv4 addresses are counted together per block of this prefix length (24: per"
                             " /24)")
    ipv6_prefix: int = limit(64, "IPv6 addresses are counted together per block of this prefix length")
    max_connections: int = limit(3000, "open TCP connections on the server")
    connections_per_client: int = limit(64, "open TCP connections per client")
    header_timeout: float = limit(10.0, "seconds a client may take to send a request's headers")
    idle_timeout: int = limit(5, "seconds an idle keep-alive connection stays open")
    signins_per_minute: float = limit(10.0, "sign-in attempts a client (its network) may make a minute")
    signin_failures: int = limit(10, "wrong passwords in a row after which an account takes no password for a"
                                 " while (slowed from half as many)")
    signin_lockout: float = limit(900.0, "seconds an account takes no password after too many wrong ones")
    bot_games: int = limit(20, "live games one bot account plays at once through the bot API")
    bot_message_rate: float = limit(100.0, "messages a second one bot API connection may send (after a burst of"
                                    " twice as many): a quick bot answers every position at once")
    ladder_seconds: float = limit(2.0, "seconds each bot on the bot ladder has for each decision (its fixed budget)")
    emails_per_day: int = limit(20, "e-mails an account may be sent a day (UTC): your-turn notices, digests and"
                                " address confirmations")

    @classmethod
    def private(cls) -> Limits:
        """Generous limits for a trusted network or a benchmark (still bounded)."""
        return cls(tables_per_client=100000, tables_per_network=100000, tables_per_minute=1e6, max_tables=100000,
                   bot_tables_per_client=1000, bot_tables_per_network=1000, max_bot_tables=1000,
                   sockets_per_client=100000, sockets_per_network=100000, viewers_per_table=10000, max_sockets=100000,
                   hints_per_minute=600.0, hints_server_per_minute=6000.0, requests_per_second=1e6,
                   max_connections=100000, connections_per_client=100000, signins_per_minute=600.0)

    def but(self, **changes: Any) -> Limits:
        """A copy with some limits changed (unknown names are an error)."""
        known = {f.name for f in fields(self)}
        unknown = set(changes) - known
        if unknown:
            raise TypeError(f"unknown limits: {', '.join(sorted(unknown))}")
        return replace(self, **changes)

    @staticmethod
    def options() -> list[tuple[str, type, Any, str]]:
        """(name, type, default, help) of every limit, for the command line."""
        return [(f.name, type(f.default), f.default, f.metadata["help"]) for f in fields(Limits)]
