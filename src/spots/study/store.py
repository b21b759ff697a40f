"""Results as data: one Parquet file per finished chunk, under ``<out>/<study>/rows/``.

A chunk is written to a temporary name and renamed when complete, so a study
killed mid-write leaves no half chunk; a rerun sees which chunks exist and
plays only the others. ``manifest.json`` holds the study's fingerprint: rows
made under different configurations or seeds are never mixed. A row has the columns
every game's rows share (``play.SHARED_COLUMNS``) and those of its game (``Studies.columns``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from .play import SHARED_COLUMNS, row_columns
from .spec import Study, StudyError

ARROW = {"str": pa.string(), "bool": pa.bool_(), "float": pa.float64(), "int8": pa.int8(), "int16": pa.int16(),
         "int32": pa.int32(), "int64": pa.int64()}  # a study column's type (``COLUMN_TYPES``) as Parquet stores it


def arrow_type(kind: str) -> pa.DataType:
    """A column type (``int16``, ``list[str]``, ...) as a pyarrow type."""
    if kind.startswith("list[") and kind.endswith("]"):
        return pa.list_(arrow_type(kind[5:-1]))
    return ARROW[kind]


def schema_of(study: Study) -> pa.Schema:
    """The rows' schema: the shared columns, then the own columns of each game the study plays."""
    try:
        columns = row_columns([c.game for c in study.configs])
    except ValueError as exc:
        raise StudyError(f"study {study.name!r}: {exc}") from None
    return pa.schema([(name, arrow_type(kind)) for name, kind in columns.items()])


class ChunkStore:
    """The rows of one study on disk."""

    def __init__(self, root: Path, study: Study) -> None:
        self.root = Path(root) / study.name
        self.rows = self.root / "rows"
        self.study = study
        self.schema = schema_of(study)
        self.rows.mkdir(parents=True, exist_ok=True)
        manifest = self.root / "manifest.json"
        doc = {"fingerprint": study.fingerprint(), "study": study.to_dict()}
        if manifest.exists():
            old = json.loads(manifest.read_text(encoding="utf-8"))
            if old.get("fingerprint") != doc["fingerprint"]:
                raise StudyError(
                    f"{self.root} holds results of a different version of study {study.name!r} (other "
                    "configurations, seed or chunk size); pass another --out or delete that folder"
                )
        manifest.write_text(json.dumps(doc, indent=1), encoding="utf-8")

    def path(self, config: int, start: int, stop: int) -> Path:
        return self.rows / f"c{config:04d}-g{start:07d}-{stop:07d}.parquet"

    def has(self, config: int, start: int, stop: int) -> bool:
        return self.path(config, start, stop).exists()

    def write(self, config: int, start: int, stop: int, rows: list[dict[str, Any]]) -> None:
        if len(rows) != stop - start:
            raise RuntimeError(f"chunk {config}:{start}-{stop} came back with {len(rows)} rows")
        missing = sorted({k for row in rows for k in SHARED_COLUMNS if k not in row})
        if missing:
            raise RuntimeError(f"chunk {config}:{start}-{stop} came back with rows missing {', '.join(missing)}")
        # a game's own columns are empty (null) in the rows of the study's other games
        table = pa.Table.from_pylist([{k: row.get(k) for k in self.schema.names} for row in rows], schema=self.schema)
        final = self.path(config, start, stop)
        temp = final.with_name(f".{final.name}.tmp")  # hidden: readers of the folder skip it
        pq.write_table(table, temp)
        os.replace(temp, final)

    def load(self) -> list[dict[str, Any]]:
        """Every row of this study's games 0..games-1 (each game once, in configuration and game order)."""
        files = sorted(self.rows.glob("*.parquet"))
        if not files:
            return []
        table = pa.concat_tables([pq.read_table(f, schema=self.schema) for f in files])
        seen: dict[tuple[int, int], dict[str, Any]] = {}
        for row in table.to_pylist():
            if row["game"] < self.study.games and row["config"] < len(self.study.configs):
                seen.setdefault((row["config"], row["game"]), row)
        return [seen[k] for k in sorted(seen)]
