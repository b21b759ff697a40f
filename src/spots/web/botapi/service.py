"""Making bot accounts and their API tokens, for the host (``spots users add-bot``) and for players (``/me/bots``).

Why names end in "bot": a bot is marked as one wherever its name is shown (a seat, the lobby, a leaderboard, a
chat line), with nothing for each page to look up; so a bot account's name ends in "bot" (any capitals:
``GreedyBot``, ``ana_bot``) and a person's new account name may not. A token is 32 random bytes, shown once;
the store keeps its SHA-256.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from ..accounts.look_alike import look_alike_key
from ..accounts.service import check_name, hash_secret, name_key
from ..accounts.store import Duplicate, LooksLike
from ..store import TableStore
from .store import BotRow

SUFFIX = "bot"
MAX_BOTS = 5  # bot accounts one player may make (the host may make any number)


Tr = Callable[[str], str]


def is_bot_name(name: str) -> bool:
    return name_key(name).endswith(SUFFIX)


def check_bot_name(value: Any, _: Tr = str) -> str:
    """A bot account's name, or a ValueError saying what is allowed."""
    name = check_name(value, _)
    if not is_bot_name(name):
        raise ValueError(_("A bot's name ends in 'bot' (such as {name}Bot), so that everyone sees it is a bot."
                           ).format(name=name))
    return name


def new_token() -> str:
    return secrets.token_urlsafe(32)


def make_bot(store: TableStore, name: Any, owner: str | None, _: Tr = str) -> tuple[BotRow, str]:
    """A new bot account (its owner's, or the host's with None) and its API token (raises ValueError: why not)."""
    name = check_bot_name(name, _)
    if owner is not None and len(store.bots_of(owner)) >= MAX_BOTS:
        raise ValueError(_("You already have as many bots as a player may have."))
    token = new_token()
    try:
        bot = store.create_bot(secrets.token_hex(8), name, name_key(name), owner, hash_secret(token),
                               look_alike_key(name))
    except Duplicate:
        raise ValueError(_("The name {name} is taken; choose another.").format(name=name)) from None
    except LooksLike as exc:
        raise ValueError(_("The name {name} looks too much like {taken}, a name taken here; choose another."
                           ).format(name=name, taken=exc)) from None
    return bot, token


def replace_token(store: TableStore, account_id: str) -> str:
    """A new API token for a bot account: the old one stops working (its connection closes within a second)."""
    token = new_token()
    if not store.new_bot_token(account_id, hash_secret(token)):
        raise ValueError("that account is not a bot account")
    return token
