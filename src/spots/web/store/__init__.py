"""The web app's durable memory: tables, seats and every accepted move, in SQLite or PostgreSQL.

``base.TableStore`` is what the app needs from a database; ``sqlite.Store`` keeps it in one SQLite file for
one server process, ``postgres.PgStore`` in PostgreSQL for several processes sharing the tables;
``open_store`` picks by the ``--db`` value.
"""

from __future__ import annotations

from pathlib import Path

from .base import Conflict, SeatRow, StoreError, TableRow, TableStore, new_token, redact
from .migrate import SCHEMA_VERSION
from .sqlite import Store

__all__ = ["SCHEMA_VERSION", "Conflict", "SeatRow", "Store", "StoreError", "TableRow", "TableStore",
           "new_token", "open_store", "redact"]


def open_store(db: str | Path, durable: bool = False) -> TableStore:
    """The store for ``--db``: a ``postgresql://`` URL, or else a SQLite file (raises ``StoreError``)."""
    text = str(db)
    if text.startswith(("postgresql://", "postgres://")):
        try:
            from .postgres import PgStore
        except ImportError:
            raise StoreError(f"database {redact(text)}: PostgreSQL needs the psycopg driver;"
                             " install it with: pip install 'spots[postgres]'") from None
        return PgStore(text)
    return Store(text, durable=durable)
