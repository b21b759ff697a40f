"""The games the server can host: each registered game (``spots.core.games``) with the few web things it adds.

Why a small description per game instead of branches in the room: the room,
the store and the WebSocket protocol are the same for every game (moves in
notation, chance events drawn by the server, one record per table). Everything
about the game itself (rules, states, records, bots, words, the advisor, the
summary a lobby row shows) comes from its ``GameSpec``, and so does how its table is
drawn as JSON, how a move reads on a button, and whether each player sees their own
side or races to claim a chance event: the ``WebView`` (``spots.core.webview``) its
spec holds (``GameSpec.web``), so the server lists games from the registry.
"""

from __future__ import annotations

import gettext
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import jinja2

from ..core.bots import Bot
from ..core.games import AnySpec, registry
from ..core.protocol import GameState
from ..core.webview import Seats, Tutorial, WebView

__all__ = ["GameKind", "Seats", "Tutorial", "WebView", "asset_path", "games_json", "hosted"]

Translations = gettext.NullTranslations
BOT_CLOCK_MS = 250.0  # the longest a search bot thinks on the server (its node budget usually stops it sooner)


@dataclass(frozen=True)
class GameKind:
    """A hosted game as a table sees it: its ``GameSpec`` alone (the web view is the spec's ``web``), with the
    few things the server decides itself (a bot's clock, the advisor's rows, the page's look)."""

    spec: AnySpec

    @property
    def web(self) -> WebView[Any]:
        web = self.spec.web
        if web is None:
            raise ValueError(f"{self.spec.title} has no web view: the server does not host it")
        return web

    @property
    def bots(self) -> tuple[str, ...]:
        """The bots a table may seat: those the lobby offers (a baseline kept for the arena is not one)."""
        return tuple(b.name for b in self.spec.offered_bots())

    def look(self, gettext: Callable[[str], str]) -> dict[str, Any]:
        """The table pages' header and assets for this game (``base.html``, ``table.html``), translated."""
        name = self.spec.name
        web, url = self.web, partial(self.web.asset_url, name)
        return {"name": name, "brand": gettext(web.brand or self.spec.title),
                "tagline": gettext(web.tagline) if web.tagline else "",
                "styles": [url(s) for s in web.styles], "scripts": [url(s) for s in web.scripts],
                "sides": web.per_seat_view,  # the replay offers "Other side" when each seat sees its own
                "rules": f"/rules/{name}" if web.rules is not None else None,  # the table's Rules link
                "modes": [{"param": m.param, "words": f"games/{name}/{m.words}" if m.words else "",
                           "styles": [url(s) for s in m.styles], "scripts": [url(s) for s in m.scripts]}
                          for m in web.modes],  # what the page adds when its address asks (``?solo=``)
                "tutorial": None if web.tutorial is None else {"words": f"games/{name}/{web.tutorial.words}",
                                                               "script": url(web.tutorial.script),
                                                               "title": gettext(web.tutorial.button)}}

    def make_bot(self, name: str, seed: int) -> Bot:
        """Online, a search bot also gets a clock: on a busy server it answers with its best move so far
        rather than keep a person waiting. (Elsewhere bots stop by their node budgets alone, so a seeded
        game is the same on any machine.) Bots that never search long take no clock."""
        try:
            return self.spec.make_bot(name, seed=seed, time_ms=BOT_CLOCK_MS)
        except ValueError:  # random, greedy, ppo: no time_ms option
            return self.spec.make_bot(name, seed=seed)

    def draws_chance(self, state: GameState) -> bool:
        """A chance event the server draws itself (a claim race is decided by the players instead)."""
        return bool(state.is_chance_node()) and not self.web.racers(state)

    def advice(self, state: GameState, names: list[str], tr: Translations) -> list[dict[str, Any]]:
        """The game's advisor, seeded by the position so a hint is repeatable, as JSON rows for the table."""
        seed = random.Random(repr(state.key())).randrange(2**31)
        return [
            {"move": a.move, "label": self.web.label(state, a.move, names, tr), "score": round(a.value, 3),
             "bust": None if a.bust is None else round(float(a.bust), 4), "rank": a.rank or i,
             "takes": list(a.takes), "result": a.result, "risk": _rounded(a.risk), "next": _rounded(a.next)}
            for i, a in enumerate(self.spec.advise(state, seed=seed)[:12], 1)
        ]


ASSET_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png"}


def asset_path(game: str, name: str) -> Path | None:
    """A browser file of a hosted game's folder (``WebView.assets``/static), or None: a plain file name with a
    served suffix only, so nothing else of the folder (its templates, its Python) is ever sent."""
    kind = hosted().get(game)
    if kind is None or kind.web.assets is None or Path(name).name != name or name.startswith("."):
        return None
    path = kind.web.assets / "static" / name
    return path if path.suffix in ASSET_TYPES and path.is_file() else None


class GameTemplates(jinja2.BaseLoader):
    """Templates named ``games/<game>/<file>``, read from that hosted game's folder (``WebView.assets``/templates)."""

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        _, game, name = [*template.split("/", 2), "", ""][:3]
        kind = hosted().get(game) if template.startswith("games/") else None
        if kind is None or kind.web.assets is None or "/" in name:
            raise jinja2.TemplateNotFound(template)
        path = kind.web.assets / "templates" / name
        if not path.is_file():
            raise jinja2.TemplateNotFound(template)
        mtime = path.stat().st_mtime
        return path.read_text("utf-8"), str(path), lambda: path.stat().st_mtime == mtime


def _rounded(chance: float | None) -> float | None:
    return None if chance is None else round(chance, 4)


_hosted: dict[str, GameKind] = {}
_seen: list[tuple[AnySpec, ...]] = [()]  # the registry's specs when ``_hosted`` was filled
_filling = threading.Lock()


def hosted() -> dict[str, GameKind]:
    """The games the server hosts: every registered game whose spec names a web view, in registry order.

    Filled again whenever the registry has changed (a game added, removed or registered anew), so a game
    registered after start-up is hosted too.
    """
    games = registry()
    with _filling:  # tables are rebuilt on threads: one must never see the registry half filled
        specs = tuple(games.values())
        if len(specs) != len(_seen[0]) or any(a is not b for a, b in zip(specs, _seen[0], strict=False)):
            fresh = {name: GameKind(spec) for name, spec in games.items() if spec.web is not None}
            _hosted.clear()
            _hosted.update(fresh)
            _seen[0] = specs
        return dict(_hosted)


def games_json(gettext: Callable[[str], str] | None = None) -> list[dict[str, Any]]:
    """``GET /api/games``: each hosted game's spec and options schema (the lobby form is generated from it).

    ``gettext`` translates the options' labels into the page's language (the help texts stay English).
    """
    out = []
    for kind in hosted().values():
        doc = kind.spec.to_json()
        if gettext is not None:
            for option in doc["options"]:
                option["label"] = gettext(option["label"])
        out.append(doc)
    return out
