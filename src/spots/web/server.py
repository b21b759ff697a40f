"""``spots serve``: run the web app with uvicorn on one SQLite file.

``main(argv)`` is what the CLI's ``serve`` command calls; ``python -m spots.web.server``
works too (the tests start it that way in a subprocess).
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence

MAX_FRAME = 1 << 20  # frames above this are cut off by uvicorn; the app itself refuses anything above 4 KB


def build_parser(prog: str = "spots serve") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Play Spots in the browser: lobby, tables, bots, replays.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--db", default="spots.sqlite3", help="SQLite database file (created if missing)")
    parser.add_argument("--bot-delay", type=float, default=1.0,
                        help="seconds a bot waits before each move, so people can follow (default 1.0)")
    parser.add_argument("--durable", action="store_true",
                        help="fsync every move (survives power cuts, not only a killed process)")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options and serve until interrupted; returns an exit code."""
    args = build_parser().parse_args(argv)
    if args.bot_delay < 0:
        build_parser().error("--bot-delay must not be negative")
    import uvicorn

    from .app import create_app

    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    app = create_app(args.db, bot_delay=args.bot_delay, durable=args.durable)
    print(f"Spots is being served at http://{args.host}:{args.port}/ (database: {args.db})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=MAX_FRAME)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
