"""``spots users``: the host's view of the accounts: list, disable or enable, reset a password, delete, bot
accounts and their API tokens (``add-bot``, ``bot-token``), and the players' reports (``reports``: the open ones,
``--all``, ``--read ID`` once dealt with).

Why these rules: a password never appears on a command line (where ``ps`` and the
shell's history would keep it): ``reset`` prints a one-time code for the player to
enter at ``/reset`` (valid ``RESET_HOURS``), or with ``--password-stdin`` reads the
new password from standard input (a prompt on a terminal). Disabling, resetting and
deleting end every session of the account at once, on every server process.
``delete`` removes the account's personal data (sessions, passkeys, e-mail, invitations, the
account itself); its seats stay in their games, anonymous, so no finished game
loses a player. It runs beside a serving SQLite server too (SQLite lets two
connections write in turn); live tables show a deleted player's new name once
reloaded (at once on PostgreSQL, where the other processes are told).
"""

from __future__ import annotations

import argparse
import getpass
import os
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from argon2 import PasswordHasher

from ..botapi.service import make_bot, replace_token
from ..store import Store, StoreError, TableStore, open_store
from .service import MAX_PASSWORD, MIN_PASSWORD, hash_secret, name_key
from .store import NOTIFY_DIGEST, NOTIFY_EACH_TURN, NOTIFY_NEVER, AccountRow

RESET_HOURS = 24
NOTICES = {NOTIFY_NEVER: "", NOTIFY_EACH_TURN: "notify", NOTIFY_DIGEST: "daily digest"}  # in the list


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="spots users", description="The server's accounts (for its host).")
    parser.add_argument("--db", default="spots.sqlite3", help="the server's --db: a SQLite file or a postgresql:// URL")
    sub = parser.add_subparsers(dest="action", required=True)
    sub.add_parser("list", help="every account: name, created, e-mail, sessions, passkeys, disabled")
    for action, text in (("disable", "turn an account off: no sign-in, its sessions end"),
                         ("enable", "turn a disabled account back on")):
        sub.add_parser(action, help=text).add_argument("name")
    p = sub.add_parser("reset", help="a one-time reset code for the player (or --password-stdin: set one)")
    p.add_argument("name")
    p.add_argument("--password-stdin", action="store_true",
                   help="read the new password from standard input (a prompt on a terminal), never an argument")
    p = sub.add_parser("reports", help="the players' reports of chat lines and players (the open ones)")
    p.add_argument("--all", action="store_true", help="the reports already read too")
    p.add_argument("--read", metavar="ID", help="mark a report read (dealt with)")
    p = sub.add_parser("add-bot", help="a new bot account (its name ends in 'bot') and its API token, shown once")
    p.add_argument("name")
    p.add_argument("--owner", help="the player whose bot it is (default: the host's)")
    sub.add_parser("bot-token", help="a new API token for a bot account; the old one stops working").add_argument(
        "name")
    p = sub.add_parser("delete", help="delete an account and its personal data; its seats become anonymous")
    p.add_argument("name")
    p.add_argument("--yes", action="store_true", help="really delete (it cannot be undone)")
    return parser


def opened(db: str) -> TableStore:
    """The server's store; a SQLite file is opened beside a server that may be using it (no lock file)."""
    if db.startswith(("postgresql://", "postgres://")):
        return open_store(db)
    if not os.path.exists(db):  # a typo must not leave a new empty database behind
        raise StoreError(f"database {db}: there is no such file; give the server's --db")
    return Store(db, lock=False)


def find(store: TableStore, name: str) -> AccountRow:
    account = store.account_named(name_key(name))
    if account is None:
        raise LookupError(f"there is no account named {name!r} (spots users list shows them)")
    return account


def read_password(stdin: TextIO) -> str:
    if stdin.isatty():
        first, again = getpass.getpass("New password: "), getpass.getpass("Again: ")
        if first != again:
            raise ValueError("the two passwords differ; nothing changed")
    else:
        first = stdin.readline().rstrip("\r\n")
    if not MIN_PASSWORD <= len(first) <= MAX_PASSWORD:
        raise ValueError(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters long; nothing changed")
    return first


def run(args: argparse.Namespace, store: TableStore, out: TextIO, stdin: TextIO) -> int:
    if args.action == "list":
        rows = store.accounts()
        print(f"{'name':24} {'created':16} {'sessions':>8} {'passkeys':>8}  e-mail / state", file=out)
        for account, sessions, keys in rows:
            created = time.strftime("%Y-%m-%d %H:%M", time.gmtime(account.created))
            state = ", ".join([x for x in (account.email or "", NOTICES.get(account.notify, f"notify={account.notify}"),
                                           "DISABLED" if account.disabled else "") if x]) or "-"
            print(f"{account.name:24} {created:16} {sessions:8} {keys:8}  {state}", file=out)
        print(f"{len(rows)} account{'s' if len(rows) != 1 else ''}", file=out)
        return 0
    if args.action == "reports":
        return reports(store, out, args.all, args.read)
    if args.action == "add-bot":
        owner = None if args.owner is None else find(store, args.owner).id
        bot, token = make_bot(store, args.name, owner)
        print(f"Bot account {bot.account.name} made. Its API token (shown only now; its program connects with it,"
              f" docs/bot-api.md):\n{token}", file=out)
        return 0
    account = find(store, args.name)
    if args.action == "bot-token":
        print(f"New API token for {account.name} (the old one no longer works):\n{replace_token(store, account.id)}",
              file=out)
    elif args.action in ("disable", "enable"):
        store.set_account(account.id, disabled=args.action == "disable")
        ended = store.end_sessions(account.id) if args.action == "disable" else 0
        print(f"{account.name}: {args.action}d" + (f"; {ended} session(s) ended" if ended else ""), file=out)
    elif args.action == "reset" and args.password_stdin:
        digest = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1).hash(read_password(stdin))
        store.set_account(account.id, password=digest, reset=None, reset_until=None, failures=0)
        store.end_sessions(account.id)
        print(f"{account.name}: new password set; every session ended", file=out)
    elif args.action == "reset":
        code = secrets.token_urlsafe(12)
        store.set_account(account.id, reset=hash_secret(code), reset_until=time.time() + RESET_HOURS * 3600)
        print(f"One-time reset code for {account.name} (valid {RESET_HOURS} hours; they enter it at /reset with a"
              f" new password):\n{code}", file=out)
    elif args.action == "delete":
        if not args.yes:
            raise ValueError(f"deleting {account.name} cannot be undone: add --yes")
        seats = store.delete_account(account.id)
        print(f"{account.name}: deleted with their sessions, passkeys and e-mail; {seats} seat(s) kept as"
              " 'deleted player'", file=out)
    return 0


def reports(store: TableStore, out: TextIO, every: bool, read: str | None) -> int:
    """The players' reports, oldest first: who reported whom, where, the line as it was said, and why."""
    if read is not None:
        if not store.read_report(read):
            raise LookupError(f"there is no open report {read!r} (spots users reports lists them)")
        print(f"report {read}: read", file=out)
        return 0
    rows = store.reports(every)
    for r in rows:
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(r.at))
        where = f"at table {r.table}" if r.table else "from their profile"
        reported = r.name if r.account else f"{r.name} (guest or spectator)"
        print(f"[{r.id}] {when} {r.reporter or 'deleted player'} reported {reported} {where}"
              f"{'' if r.status == 'open' else ' (read)'}", file=out)
        if r.line is not None:
            print(f"    said: {r.line!r}", file=out)
        print(f"    why:  {r.why!r}", file=out)
    print(f"{len(rows)} {'report' if len(rows) == 1 else 'reports'}{'' if every else ' open'}", file=out)
    return 0


def on_store(command: str, db: str, act: Callable[[TableStore], int]) -> int:
    """A host's command on the server's store: a store it cannot open, or an argument it refuses (an unknown
    name, a bad value), is one line on standard error and exit status 2; the store is closed whatever happens."""
    try:
        store = opened(db)
    except StoreError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        return 2
    try:
        return act(store)
    except (LookupError, ValueError) as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, stdin: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    return on_store("spots users", args.db, lambda store: run(args, store, out or sys.stdout, stdin or sys.stdin))


if __name__ == "__main__":
    raise SystemExit(main())
