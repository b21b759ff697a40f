"""What a study is: a declared grid of configurations, each played for a number of games from a seed.

A study has a *kind* (which report reads its rows), a base configuration, a
``grid`` (every combination of the listed values) and optional ``cases``
(explicit overrides, crossed with the grid). A configuration is a game
(any registered game: ``spots``, ``double-spot``, ...), the bots in seat order and the game's rules
options. Studies are built in (each game declares its own: ``Studies.named``, gathered by
``builtin_studies()``) or read from a small TOML file.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

SHARED_KINDS = ("seats", "ladder")  # the report kinds every game's rows can have


def kinds(games: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The study kinds for studies of these games (None: of any registered game): the shared ones, then each
    game's own (``Studies.reports``)."""
    from ..core.games import get, registry

    specs = registry().values() if games is None else [get(g) for g in games]
    return tuple(dict.fromkeys((*SHARED_KINDS, *(kind for spec in specs for kind in spec.study.reports))))

STUDY_KEYS = {"name", "kind", "description", "games", "seed", "chunk", "base", "grid", "cases"}


class StudyError(ValueError):
    """A study name, file or grid that cannot be run; the message says what is allowed."""


@dataclass(frozen=True)
class Config:
    """One cell of the grid: a game, its bots in seat order (rotated per game) and its rules options."""

    label: str
    game: str
    bots: tuple[str, ...]
    options: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "game": self.game, "bots": list(self.bots), "options": dict(self.options)}


@dataclass(frozen=True)
class Study:
    """A named grid of configurations × games, with the seed every game's dice derive from."""

    name: str
    kind: str
    description: str
    games: int
    seed: int
    chunk: int
    configs: tuple[Config, ...]
    source: dict[str, Any] = field(compare=False, repr=False, default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "kind": self.kind, "description": self.description, "games": self.games,
            "seed": self.seed, "chunk": self.chunk, "configs": [c.to_dict() for c in self.configs],
        }

    def fingerprint(self) -> str:
        """What fixes every game's result: configurations, seed and chunking (not the number of games).

        A configuration of a game whose defaults have changed counts with its rules in full, not only the
        options it names (Double Spot: rows played while ``lifts`` was 3 by default are never mixed with rows
        played under the rules' ending), and with the version of the game's rows once they have changed.
        """
        configs = [{**c.to_dict(), **_rules_in_full(c)} for c in self.configs]
        doc = {"seed": self.seed, "chunk": self.chunk, "configs": configs}
        return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]

    def chunks(self) -> list[tuple[int, int, int]]:
        """Every (configuration, first game, end game) piece of work, round-robin over the configurations
        so that a study stopped early has a balanced share of every one."""
        return [
            (index, start, min(start + self.chunk, self.games))
            for start in range(0, self.games, self.chunk)
            for index in range(len(self.configs))
        ]

    @property
    def total_games(self) -> int:
        return self.games * len(self.configs)


def _rules_in_full(config: Config) -> dict[str, Any]:
    """The rules as played, for a game whose defaults have changed (``Studies.rules_in_full``), and the
    version of its rows once it is past the first (``Studies.rows_version``); else {}."""
    from ..core.games import get
    from .play import make_rules

    spec = get(config.game)
    out: dict[str, Any] = {"rules": make_rules(config, 0).to_dict()} if spec.study.rules_in_full else {}
    if spec.study.rows_version != 1:
        out["rows_version"] = spec.study.rows_version
    return out


def builtin_studies() -> dict[str, dict[str, Any]]:
    """Every registered game's built-in studies by name (``Studies.named``), in the registry's order."""
    from ..core.games import registry

    return {name: dict(doc) for spec in registry().values() for name, doc in spec.study.named.items()}


BUILTIN = builtin_studies()  # the built-in games' studies (``builtin_studies()`` also has those of added games)


def builtin(name: str) -> Study:
    studies = builtin_studies()
    if name not in studies:
        raise StudyError(f"unknown study {name!r}; the studies are: {', '.join(studies)} "
                         "(or a study file: .toml, .yaml)")
    return parse_study({"name": name, **studies[name]}, f"study {name!r}")


FILE_KINDS = (".toml", ".yaml", ".yml")


def load_study(name_or_path: str) -> Study:
    """A built-in study by name, or a study file (TOML, or YAML with PyYAML) by path."""
    if name_or_path in builtin_studies():
        return builtin(name_or_path)
    path = Path(name_or_path)
    if path.suffix.lower() not in FILE_KINDS:
        if path.exists() or path.suffix:
            raise StudyError(f"study file {path}: a study file ends in .toml, .yaml or .yml "
                             f"(or name a built-in study: {', '.join(builtin_studies())})")
        return builtin(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise StudyError(f"cannot read study file {path}: {getattr(exc, 'strerror', None) or exc}") from None
    doc = _parse_toml(text, path) if path.suffix.lower() == ".toml" else _parse_yaml(text, path)
    if not isinstance(doc, dict):
        raise StudyError(f"study file {path} must hold a table of keys (name, kind, games, ...), not {doc!r}")
    doc.setdefault("name", path.stem)
    study = parse_study(doc, f"study file {path}")
    return replace(study, source={**study.source, "file": str(path)})  # the report says how to rerun it


def _parse_toml(text: str, path: Path) -> Any:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StudyError(f"study file {path} is not valid TOML: {exc}") from None


def _parse_yaml(text: str, path: Path) -> Any:
    try:
        import yaml
    except ImportError:
        raise StudyError(f"study file {path}: YAML files need PyYAML (pip install 'spots[study]'); "
                         "or write the study in TOML") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise StudyError(f"study file {path} is not valid YAML: {exc}") from None


def _whole(doc: Mapping[str, Any], key: str, default: int, low: int, where: str) -> int:
    value = doc.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise StudyError(f"{where}: {key} must be a whole number of at least {low}, not {value!r}")
    return value


def parse_study(doc: Mapping[str, Any], where: str) -> Study:
    """A study from its declaration; every configuration is checked before any game is played."""
    unknown = sorted(set(doc) - STUDY_KEYS)
    if unknown:
        raise StudyError(f"{where}: unknown key(s) {', '.join(unknown)}; the keys are: {', '.join(sorted(STUDY_KEYS))}")
    name = doc.get("name")
    if not isinstance(name, str) or not name.replace("-", "").replace("_", "").isalnum():
        raise StudyError(f"{where}: name must be letters, digits, '-' or '_', not {name!r}")
    kind = doc.get("kind", "seats")
    if kind not in kinds():
        raise StudyError(f"{where}: kind must be one of {', '.join(kinds())}, not {kind!r}")
    base = doc.get("base", {})
    grid = doc.get("grid", {})
    cases = doc.get("cases", [{}]) or [{}]
    if not isinstance(base, dict) or not isinstance(grid, dict):
        raise StudyError(f"{where}: base and grid must be tables of options")
    if not isinstance(cases, list) or not all(isinstance(c, dict) for c in cases):
        raise StudyError(f"{where}: cases must be a list of tables of options")
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise StudyError(f"{where}: grid.{key} must be a non-empty list of values, not {values!r}")
    combos = [dict(zip(grid, values, strict=True)) for values in itertools.product(*grid.values())]
    configs = tuple(
        make_config({**base, **case, **combo}, f"{where}, configuration {i + 1}")
        for i, (case, combo) in enumerate(itertools.product(cases, combos))
    )
    games = tuple(dict.fromkeys(c.game for c in configs))
    if kind not in kinds(games):
        raise StudyError(f"{where}: a study of {', '.join(games)} can be of kind {', '.join(kinds(games))}, not "
                         f"{kind!r} (that report reads another game's rows)")
    return Study(
        name=name, kind=kind, description=str(doc.get("description", "")),
        games=_whole(doc, "games", 100, 1, where), seed=_whole(doc, "seed", 0, 0, where),
        chunk=_whole(doc, "chunk", 50, 1, where), configs=configs, source=dict(doc),
    )


def make_config(options: dict[str, Any], where: str) -> Config:
    """One configuration, checked: a known game, known bots, rules options the game accepts."""
    from ..core.games import registry
    from .play import check_config

    options = dict(options)
    games = registry()
    game = options.pop("game", next(iter(games)))  # a configuration that names no game plays the first listed
    if game not in games:
        raise StudyError(f"{where}: game must be one of {', '.join(games)}, not {game!r}")
    bots = options.pop("bots", ["greedy"])
    if isinstance(bots, str):
        bots = [bots]
    if not isinstance(bots, list) or not bots or not all(isinstance(b, str) for b in bots):
        raise StudyError(f"{where}: bots must be a list of bot names, not {bots!r}")
    label = ", ".join(f"{k}={_short(v)}" for k, v in sorted(options.items()))
    config = Config(label=f"{'/'.join(bots)}; {label}" if label else "/".join(bots), game=game,
                    bots=tuple(bots), options=options)
    try:
        check_config(config)
    except ValueError as exc:
        raise StudyError(f"{where} ({config.label}): {exc}") from None
    return config


def _short(value: Any) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def describe_all() -> str:
    """The text of ``spots study --list``."""
    lines = []
    for name in builtin_studies():
        study = builtin(name)
        lines.append(f"{name}  ({study.kind}; {len(study.configs)} configurations x {study.games} games "
                     f"= {study.total_games} games, seed {study.seed})")
        lines.append(f"    {study.description}")
    lines.append("A study can also be a TOML (or YAML) file: name, kind, description, games, seed, chunk, base, "
                 "grid, cases (see docs/studies/README.md).")
    return "\n".join(lines)
