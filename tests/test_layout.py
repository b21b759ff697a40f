"""Where code lives: shells that name no game, games that reach the web app through its toolkit only, and the web
app as feature folders (``CONTRIBUTING.md``, "Where things go")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
SPOTS = SRC / "spots"
SHELLS = ["web", "play", "core", "study", "analysis", "arena.py", "cli.py"]
# The web app's assembly and the helpers every feature shares; everything else is in a feature's folder.
FLAT_IN_WEB = {"__init__", "app", "server", "config", "context", "games", "guard", "toolkit", "writer"}


def imports_of(path: Path) -> set[str]:
    """Every module a file imports, relative imports resolved, with each imported name as a possible module."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    package = parts if parts[-1] == "__init__" else parts[:-1]
    package = [p for p in package if p != "__init__"]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names)
    return found


def files(*where: str) -> list[Path]:
    paths = [SPOTS / w for w in where]
    return sorted(p for w in paths for p in ([w] if w.suffix == ".py" else w.rglob("*.py")))


def test_no_shell_imports_a_game() -> None:
    for path in files(*SHELLS):
        games = {m for m in imports_of(path) if m.startswith("spots.games.")}
        assert not games, f"{path.relative_to(SRC)} imports {sorted(games)}: shells ask the registry"


def test_a_game_reaches_the_web_app_through_its_toolkit_only() -> None:
    for path in files("games"):
        web = {m for m in imports_of(path) if m.startswith("spots.web.") and m.count(".") >= 2}
        outside = {m for m in web if not m.startswith("spots.web.toolkit")}
        assert not outside, f"{path.relative_to(SRC)} imports {sorted(outside)}: use spots.web.toolkit"


def test_the_web_app_is_feature_folders() -> None:
    flat = {p.stem for p in (SPOTS / "web").glob("*.py")}
    assert flat == FLAT_IN_WEB, f"modules outside a feature folder: {sorted(flat - FLAT_IN_WEB)}"
    folders = {p.name for p in (SPOTS / "web").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert {"tables", "accounts", "talk", "clocks", "coach", "notices", "store"} <= folders
    for folder in folders:
        assert ast.get_docstring(ast.parse((SPOTS / "web" / folder / "__init__.py").read_text())), folder


@pytest.mark.parametrize("folder", ["tests"])
def test_no_test_imports_another_test_module(folder: str) -> None:
    for path in sorted((SRC.parent / folder).glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        named |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        bad = {m for m in named if m.startswith("test_") or m == "conftest"}
        assert not bad, f"{path.name} imports {sorted(bad)}: shared helpers go in tests/support/"
