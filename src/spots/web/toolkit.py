"""What a game's own web pages (``WebView.routes``: Spots' Daily page) may use from the web app.

A game reaches the server through these names only, so the rest of ``spots.web`` may move without telling
any game (``tests/test_layout.py`` checks that no game imports anything else of it). The store is reached
through ``TableStore.read`` and ``write`` for the game's own tables (its ``WebView.migrations``).
"""

from __future__ import annotations

from .accounts.service import account_of
from .context import request_lang
from .games import hosted
from .guard import Refused, client_of, read_body
from .store.base import TableStore
from .tables.forms import clean_name
from .tables.workers import NICE
from .writer import Unavailable

__all__ = ["NICE", "Refused", "TableStore", "Unavailable", "account_of", "clean_name", "client_of", "hosted",
           "read_body", "request_lang"]
