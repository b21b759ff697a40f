"""What a game gives the web app: how its table is drawn as JSON, how a move reads on a button, its look.

Why in ``spots.core`` (standard library only): a game's folder declares its web view beside its rules
(``games/<game>/web_view.py``) and its ``GameSpec`` holds the object itself, so neither the game nor the
registry needs the web extra; the web app (``spots.web``) reads it and names no game.
"""

from __future__ import annotations

import gettext
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

__all__ = ["NP_", "N_", "LobbyLink", "RulesPage", "Seats", "TableMode", "Tutorial", "WebView"]

StateT = TypeVar("StateT")
Translations = gettext.NullTranslations
Seats = list[dict[str, Any]]  # the table's seats as the page sees them (JSON rows: name, kind, online, ...)


@dataclass(frozen=True)
class Tutorial:
    """A guided first game: a normal table against a gentle bot, on seeded dice so every newcomer meets
    the same gentle start, with callouts (``words``: a template of their texts; ``script``: the page
    script that says which moment calls for which, on ``static/tutorial.js``)."""

    rules: Mapping[str, Any]  # the options that differ from the game's defaults (plain data, as in a lobby form)
    seed: int
    bot: str
    button: str  # the lobby button's words (a message id)
    words: str  # a template in the game's folder (``WebView.assets``/templates)
    script: str  # a script in the game's folder (``WebView.assets``/static)


def _no_context(tr: Translations) -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class RulesPage:
    """A game's rules page (``/rules/<game>``): a template in the game's folder (``WebView.assets``/templates,
    which extends the app's ``base.html``) and the data it draws, made in the reader's language."""

    template: str
    context: Callable[[Translations], Mapping[str, Any]] = _no_context  # (translator) -> the template's variables


def N_(text: str) -> str:
    """Marks a message id for extraction (``pybabel extract -k N_``); translated where it is shown."""
    return text


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a plural pair for extraction (``pybabel extract -k NP_:1,2``)."""
    return singular, plural


@dataclass(frozen=True)
class LobbyLink:
    """A button in the lobby to a page of the game's own (``href``; ``words``: a message id; ``id``: the element's)."""

    href: str
    words: str
    id: str = ""


@dataclass(frozen=True)
class TableMode:
    """What a table page adds when its address has the query parameter ``param`` (Spots' ``?solo=<deal>``): a
    template of words in the game's folder (``WebView.assets``/templates), styles and scripts (its static)."""

    param: str
    words: str = ""
    styles: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()


def _no_racers(state: object) -> list[int]:
    return []


@dataclass(frozen=True)
class WebView(Generic[StateT]):
    """What a game adds for the browser, typed by the game's state class (``WebView[State]``)."""

    # (state, seats, moves, translator, the seat whose side is drawn, live) -> the JSON view
    view: Callable[[StateT, Seats, int, Translations, int | None, bool], dict[str, Any]]
    label: Callable[[StateT, str, list[str], Translations], str]  # (state, move, names, tr) -> a button's words
    per_seat_view: bool = False  # does each player see their own side of the table?
    # seats that may claim the pending chance event live, first come first served (none: the server draws it)
    racers: Callable[[StateT], list[int]] = _no_racers
    # the lobby's words for a table's goal: a plural pair of message ids ({n}: the target), one when both are the same
    goal: tuple[str, str] = ("first to {n}", "first to {n}")
    draws: bool = False  # may a game end in a draw (the lobby says "a draw" for a finished game without a winner)?
    # The table page's look: the header's brand and tagline (message ids, translated where shown; the brand is
    # the spec's title when empty), the stylesheets and the scripts that draw this game's table, added after the
    # ones every table page loads, so the templates name no game. A game's script adds its renderer (board,
    # controls, end, hints; optional init, before/after a redraw, disarm) to ``Renderers[name]`` (static/page.js).
    brand: str = ""
    tagline: str = ""
    styles: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()
    tutorial: Tutorial | None = None  # the lobby offers a guided first game of each game that has one
    rules: RulesPage | None = None  # the game's rules page; None: its table page has no Rules link
    # The game's folder of browser files: ``static/`` (its styles and scripts, served at /games/<name>/) and
    # ``templates/`` (its tutorial's words). None: its styles and scripts are names under the app's /static/.
    assets: Path | None = None
    # The words its page scripts show (message ids; plural pairs apart), sent in the page's catalog
    words: tuple[str, ...] = ()
    plurals: tuple[tuple[str, str], ...] = field(default=())
    # The game's own pages (Spots' Daily page and challenges): a function giving their FastAPI ``APIRouter``,
    # called once when the app is made (so the game imports the web extra only then).
    routes: Callable[[], Any] | None = None
    # The dice of a deal the game names (a table made for it is stored with its name: ``tables.deal``), so a
    # table read back rolls on from the deal's own streams. None: the game has no named deals.
    deal_dice: Callable[[str], random.Random] | None = None
    # The game's own tables in the server's database: a folder of numbered SQL files (``0001_*.sql``), run on
    # SQLite and PostgreSQL after the shell's (``web/store/migrate.py``). None: the game keeps nothing there.
    migrations: Path | None = None
    # Buttons the lobby shows beside its Learn to play (Spots' Daily deal), and what a table page adds when its
    # address asks for a mode (``?solo=...``: the race panel's words, styles and scripts)
    links: tuple[LobbyLink, ...] = ()
    modes: tuple[TableMode, ...] = ()

    def asset_url(self, game: str, name: str) -> str:
        return f"/games/{game}/{name}" if self.assets is not None else f"/static/{name}"
