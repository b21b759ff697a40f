"""Writing files so that a crash never leaves half a file: the one atomic write of the package."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["atomic_write"]


def atomic_write(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to a temporary file beside ``path``, then rename it over ``path``.

    A reader sees the old file or the new one, never a mix; the temporary file is removed if
    writing fails.
    """
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
