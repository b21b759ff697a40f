"""What a seat is called on a page: its own name, or a label in the reader's language.

A seat nobody named is stored without a name, so that no language's default is kept in the database: it is shown
as "greedy bot" or "Player 2" in each reader's words. A deleted account's seats keep the name ``DELETED``, shown
translated the same way.
"""

from __future__ import annotations

import gettext
from typing import Any

from ...i18n import N_, translator
from ..accounts.store import DELETED

UNNAMED_BOT = N_("{bot} bot")  # {bot}: the bot's identifier (greedy, expectimax), never translated
UNNAMED_PERSON = N_("Player {n}")


def seat_label(name: str, bot: str | None, seat: int, account: str | None, tr: gettext.NullTranslations) -> str:
    """The name of seat ``seat`` (counting from 0) as a reader of ``tr``'s language sees it."""
    if name == DELETED and account is None:
        return tr.gettext(DELETED)
    if name:
        return name
    return tr.gettext(UNNAMED_BOT).format(bot=bot) if bot else tr.gettext(UNNAMED_PERSON).format(n=seat + 1)


def labels_in(seats: Any, lang: str) -> list[str]:
    """The names of a table's stored seats (``SeatRow``s) in one language."""
    tr = translator(lang)
    return [seat_label(s.name, s.bot, s.seat, s.account, tr) for s in seats]
