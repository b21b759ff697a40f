"""The page scripts' catalog: the words every table and lobby page shows, and each hosted game's own.

Why one catalog built here: the scripts translate with ``T(text)`` from a dictionary sent in the page, so
the page needs the shared words (the seats, the replay, the lobby) and those of every game it may draw;
each game lists its own in its web view (``WebView.words``, ``WebView.plurals``, its ``goal``), so this
module names no game.
"""

from __future__ import annotations

import gettext
from typing import Any

from ...core.webview import N_, NP_
from ..coach import words as coach_words
from ..games import hosted

# Words the shared page scripts (static/*.js, the templates' scripts) and every game's table show.
JS_WORDS = [
    N_("Copied"), N_("Copy"),
    N_(" (sending…)"), N_(" (you)"), N_("(start)"), N_("Advisor"), N_("Back to the lobby"), N_("Bot: {bot}"),
    N_("Could not reach the server."), N_("Final table"), N_("Human"), N_("Join"), N_("Move"), N_("None yet."),
    N_("Pause"), N_("Play"), N_("Player"), N_("Replay"), N_("Seat {n}"), N_("Table {id}"),
    N_("The table before the first card is dealt."), N_("Thinking…"), N_("Turn"), N_("Waiting for {who}…"),
    N_("Watch"), N_("Watch the replay"), N_("Your move"), N_("Your name at this table (optional):"), N_("a draw"),
    N_("away"), N_("empty"), N_("first to {n}"), N_("free seat"), N_("live"), N_("name (optional)"), N_("nobody"),
    N_("not available"), N_("online"), N_("reconnecting…"), N_("scored"), N_("seat {n} name"),
    N_("seat {n} player"), N_("to move"), N_("turn {turn}, {who} to move"), N_("won by {who}"), N_("{bot} bot"),
    N_("Player {n}"), N_("{turns}, {moves}."), N_("Seat {n} is no longer free."), N_("deleted player"),
    N_("no hints: rated"), N_("no hints"), N_("players who finish {share}%"), N_("bots may join"), N_("Report"),
    N_("Report this line to the server's host"), N_("Sent: the host reads it."),
    N_("Salts: {salts}"), N_("No salt yet."), N_("Checking…"),
    N_("All {n} chance events match the fingerprint shown before the first roll."), N_("The dice do not match: {why}"),
    N_("This game's drawing did not load ({game})."),
]
JS_PLURALS = [
    NP_("{n} move", "{n} moves"),
    NP_("{n} turn", "{n} turns"),
    NP_("{n} watching", "{n} watching"),
    NP_("{n} position to review", "{n} positions to review"),  # the puzzle page's drill deck
]


def words() -> list[str]:
    """Every single-form word a page script may show: the shared ones, the coach's, then each hosted game's."""
    return [*JS_WORDS, *coach_words.JS_WORDS, *(w for kind in hosted().values() for w in kind.web.words)]


def plurals() -> list[tuple[str, str]]:
    """Every plural pair a page script may show: the shared ones, each hosted game's, and the lobby's goals."""
    views = [kind.web for kind in hosted().values()]
    goals = [v.goal for v in views if v.goal[0] != v.goal[1]]
    return [*JS_PLURALS, *(pair for v in views for pair in v.plurals), *goals]


def js_words(tr: gettext.NullTranslations) -> dict[str, Any]:
    """The page scripts' catalog: English text -> translation; a plural pair -> [one form, other form]."""
    catalog: dict[str, Any] = {text: tr.gettext(text) for text in words()}
    for one, other in plurals():
        catalog[one] = [tr.ngettext(one, other, 1), tr.ngettext(one, other, 2)]
    return catalog
