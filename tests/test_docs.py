"""The docs a newcomer reads: the rules in the project, links that work in a clone, one list of bots, the install.

What a reader of the README or ``docs/`` would trip over if it drifted: a link out of the repository, a rules
text that says something else than the web app's ``/rules`` page, a bot list other than the lobby's, an extra
the README does not explain, or a web app that needs more than ``.[web]`` to run.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from spots.core import games
from spots.games.spots.tricks import TILES
from support.processes import CHILD_ENV

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
RULES_PAGE = ROOT / "src" / "spots" / "games" / "spots" / "web" / "templates" / "rules.html"
MESSAGE = re.compile(r'_\("((?:[^"\\]|\\.)*)"\)')


def flat(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (markdown wraps lines anywhere)."""
    return re.sub(r"\s+", " ", text)


def test_docs_link_only_to_files_in_the_repository() -> None:
    problems = []
    for doc in DOCS:
        text = doc.read_text("utf-8")
        if "../shared" in text:
            problems.append(f"{doc.relative_to(ROOT)} names ../shared")
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = (doc.parent / target.split("#")[0]).resolve()
            if not path.is_relative_to(ROOT):
                problems.append(f"{doc.relative_to(ROOT)}: {target} is outside the repository")
            elif not path.exists():
                problems.append(f"{doc.relative_to(ROOT)}: {target} does not exist")
    assert not problems, problems


def test_the_rules_document_says_what_the_rules_page_says() -> None:
    """docs/rules.md holds every paragraph of /rules and every tile's text, word for word."""
    rules = flat((ROOT / "docs" / "rules.md").read_text("utf-8"))
    page = MESSAGE.findall(RULES_PAGE.read_text("utf-8"))
    paragraphs = [p for p in page if len(p.split()) > 6]
    assert len(paragraphs) >= 9, paragraphs  # the summary, setup, turn, ..., the tile reset
    missing = [p for p in paragraphs if flat(p) not in rules]
    missing += [f"{t.title}: {t.text}" for t in TILES.values() if f"**{t.title}**: {flat(t.text)}" not in rules]
    assert not missing, missing


def test_the_readme_and_the_docs_point_to_the_rules_document() -> None:
    for doc in ("README.md", "docs/web.md", "docs/double-spot.md"):
        assert "rules.md" in (ROOT / doc).read_text("utf-8"), doc


def lobby_line(spec: games.GameSpec) -> str:
    return f"{spec.title}: " + ", ".join(f"`{b.name}` ({b.level})" for b in spec.offered_bots()) + "."


@pytest.mark.parametrize("doc", ["README.md", "docs/web.md"])
def test_the_docs_list_the_lobbys_bots(doc: str) -> None:
    """One list of bots: the README and docs/web.md name exactly the bots the lobby offers, with their levels."""
    text = flat((ROOT / doc).read_text("utf-8"))
    for spec in games.registry().values():
        assert lobby_line(spec) in text, f"{doc} should say: {lobby_line(spec)}"


def test_the_lobby_keeps_internal_baselines_out_and_labels_every_bot() -> None:
    spots, double_spot = games.get("spots"), games.get("double-spot")
    offered = [b.name for b in spots.offered_bots()]
    assert "expectimax-v1" not in offered and "ppo" not in offered
    assert offered[0] == "random" and offered[-1] == "expectimax-learned"  # weakest first, the strongest last
    for spec in (spots, double_spot):
        assert all(b.name in spec.bots and b.level and b.why for b in spec.offered_bots()), spec.name


def test_the_readme_says_what_each_extra_brings() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]
    readme = (ROOT / "README.md").read_text("utf-8")
    assert 'pip install -e ".[web]" && .venv/bin/spots serve' in readme
    missing = [name for name in extras if f"| `{name}` |" not in readme]
    assert not missing, f"extras the README's table does not explain: {missing}"


# Modules of every extra but ``web`` (which has numpy, for the learned bot): the web app must start, draw its pages
# and seat every lobby bot without them.
OTHER_EXTRAS = ("rich", "numba", "ray", "pyarrow", "psycopg", "pyspiel", "open_spiel", "gymnasium",
                "pettingzoo", "torch", "matplotlib", "yaml", "sb3_contrib")
WEB_ONLY = f"""
import random, sys
BLOCKED = {OTHER_EXTRAS!r}
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{{name}} is not in the web extra")
sys.meta_path.insert(0, Block())
from fastapi.testclient import TestClient
from spots.core import games
from spots.web import create_app
with TestClient(create_app(sys.argv[1], bot_delay=0.0)) as c:
    for path in ("/", "/rules", "/favicon.ico"):
        assert c.get(path).status_code == 200, path
    for spec in games.registry().values():
        for bot in spec.offered_bots():
            state, rng = spec.new_state(), random.Random(1)
            while state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
            assert spec.make_bot(bot.name, seed=1).choose(state) in state.legal_actions(), bot.name
            seats = [{{"kind": "human"}}, {{"kind": "bot", "bot": bot.name}}]
            assert c.post("/api/tables", json={{"game": spec.name, "seats": seats}}).status_code == 201, bot.name
print("served")
"""


def test_the_web_extra_alone_serves_the_app_and_every_lobby_bot(tmp_path: Path) -> None:
    """Command 1 installs only ``.[web]``: nothing the app or a lobby bot imports may come from another extra."""
    done = subprocess.run([sys.executable, "-c", WEB_ONLY, str(tmp_path / "t.sqlite3")], capture_output=True,
                          text=True, env=CHILD_ENV, timeout=110)
    assert done.returncode == 0 and "served" in done.stdout, done.stderr[-3000:]
