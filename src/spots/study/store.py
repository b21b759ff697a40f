"""Results as data: one Parquet file per finished chunk, under ``<out>/<study>/rows/``.

A chunk is written to a temporary name and renamed when complete, so a study
killed mid-write leaves no half chunk; a rerun sees which chunks exist and
plays only the others. ``manifest.json`` holds the study's fingerprint: rows
made under different configurations or seeds are never mixed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from .spec import Study, StudyError

SCHEMA = pa.schema([
    ("config", pa.int32()),
    ("game", pa.int32()),
    ("seed", pa.int64()),
    ("engine", pa.string()),
    ("kind", pa.string()),
    ("seats", pa.list_(pa.string())),
    ("players", pa.int8()),
    ("tricks", pa.list_(pa.string())),
    ("target", pa.int16()),
    ("bust_limit", pa.int16()),
    ("first_player", pa.int8()),
    ("winner", pa.int8()),
    ("returns", pa.list_(pa.float64())),
    ("turns", pa.int32()),
    ("turns_taken", pa.list_(pa.int32())),
    ("busts", pa.list_(pa.int32())),
    ("scores", pa.list_(pa.int16())),
    ("uses", pa.list_(pa.list_(pa.int16()))),
    ("lead_changes", pa.int16()),
    ("end_reason", pa.string()),
    ("full", pa.bool_()),
])
ROW_FIELDS = tuple(SCHEMA.names)


class ChunkStore:
    """The rows of one study on disk."""

    def __init__(self, root: Path, study: Study) -> None:
        self.root = Path(root) / study.name
        self.rows = self.root / "rows"
        self.study = study
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
        table = pa.Table.from_pylist([{k: row[k] for k in ROW_FIELDS} for row in rows], schema=SCHEMA)
        final = self.path(config, start, stop)
        temp = final.with_name(f".{final.name}.tmp")  # hidden: readers of the folder skip it
        pq.write_table(table, temp)
        os.replace(temp, final)

    def load(self) -> list[dict[str, Any]]:
        """Every row of this study's games 0..games-1 (each game once, in configuration and game order)."""
        files = sorted(self.rows.glob("*.parquet"))
        if not files:
            return []
        table = pa.concat_tables([pq.read_table(f, schema=SCHEMA) for f in files])
        seen: dict[tuple[int, int], dict[str, Any]] = {}
        for row in table.to_pylist():
            if row["game"] < self.study.games and row["config"] < len(self.study.configs):
                seen.setdefault((row["config"], row["game"]), row)
        return [seen[k] for k in sorted(seen)]
