"""Translations: gettext catalogs (``locale/<lang>/LC_MESSAGES/spots.po``) read with Babel.

The English text in the code is the message id. The ``.po`` files are compiled
into memory the first time a language is asked for (no build step, no ``.mo``
files in git). To refresh the template after changing texts, from the project folder::

    pybabel extract -F src/spots/i18n/babel.cfg -k N_ -k NP_:1,2 --no-location --sort-output \\
        -o src/spots/i18n/messages.pot src/spots/games src/spots/play src/spots/web src/spots/i18n \\
        src/spots/analysis
    pybabel update -i src/spots/i18n/messages.pot -d src/spots/i18n/locale -D spots \\
        --no-fuzzy-matching --ignore-obsolete

Dog names and the move notation are not translated.
"""

from __future__ import annotations

import gettext
import io
import os
import unicodedata
from collections.abc import Sequence
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
DEFAULT = "en"
# code -> the language's own name (what the switcher shows)
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español", "vi": "Tiếng Việt", "zh-Hant": "繁體中文（香港）"}
# code -> the folder under locale/ (gettext/Babel spell the script with an underscore)
FOLDERS = {"es": "es", "vi": "vi", "zh-Hant": "zh_Hant"}

Translations = gettext.NullTranslations


def N_(text: str) -> str:
    """Marks a message for extraction (``pybabel extract -k N_``); it is translated where it is shown."""
    return text


def normalize(lang: str | None) -> str | None:
    """A language tag (``es-MX``, ``zh_HK.UTF-8``, ``zh-Hant``) as one of LANGUAGES, or None."""
    if not lang:
        return None
    tag = lang.split(".")[0].split("@")[0].replace("_", "-").strip().lower()
    if not tag or tag in ("c", "posix"):
        return None
    parts = tag.split("-")
    if parts[0] == "zh":
        # Traditional script (Hong Kong, Macau, Taiwan, or 'Hant'); plain 'zh' / 'zh-cn' are not offered.
        if any(p in ("hant", "hk", "mo", "tw") for p in parts[1:]) or len(parts) == 1 or parts[1] == "yue":
            return "zh-Hant"
        return None
    if parts[0] == "yue":
        return "zh-Hant"
    return parts[0] if parts[0] in LANGUAGES else None


def resolve(lang: str | None) -> str:
    """The language to use for a request: a known code, else English."""
    return normalize(lang) or DEFAULT


@cache
def translator(lang: str | None = None) -> gettext.NullTranslations:
    """The translations of one language (English, and anything unknown, is the text in the code)."""
    code = resolve(lang)
    if code == DEFAULT:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    folder = FOLDERS[code]
    with open(LOCALE_DIR / folder / "LC_MESSAGES" / "spots.po", "rb") as f:
        catalog = read_po(f, locale=folder, domain="spots")
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def negotiate(accept_language: str | None) -> str:
    """The best of LANGUAGES for an HTTP ``Accept-Language`` header (English when nothing fits)."""
    if not accept_language:
        return DEFAULT
    choices: list[tuple[float, int, str]] = []
    for i, item in enumerate(accept_language.split(",")):
        tag, _, params = item.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            key, _, value = p.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        code = normalize(tag)
        if code and q > 0:
            choices.append((-q, i, code))
    return min(choices)[2] if choices else DEFAULT


def from_environment(environ: dict[str, str] | None = None) -> str:
    """The terminal's language from LANGUAGE / LC_ALL / LC_MESSAGES / LANG."""
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if value:
            for part in value.split(":"):
                code = normalize(part)
                if code:
                    return code
            if key != "LANGUAGE":
                return DEFAULT
    return DEFAULT


def locale_name(lang: str | None) -> str:
    """The Babel/CLDR locale for number formatting."""
    code = resolve(lang)
    return FOLDERS.get(code, "en")


def width(text: str) -> int:
    """How many terminal columns ``text`` takes: Chinese characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1 for c in text)


def pad(text: str, columns: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``columns`` terminal columns (left-aligned, or right with ``right``)."""
    fill = " " * max(0, columns - width(text))
    return fill + text if right else text + fill


def refused_move(error: ValueError, move: str, legal: Sequence[str], tr: gettext.NullTranslations) -> str:
    """What to tell a player whose move was refused, in their language.

    In English the engine's own text (it says what was wrong); in another language the move and
    the moves that are legal here (the engine's reasons are not translated). The web and the
    terminal both say it this way.
    """
    english = "{move} is not a legal move here. Legal here: {legal}"
    text = tr.gettext("{move} is not a legal move here. Legal here: {legal}")
    if text == english:
        return str(error)
    return text.format(move=repr(move), legal=", ".join(legal))


# Why nothing (more) can be taken back, by the reason codes of ``spots.core.undo``.
UNDO_REASONS = {
    "over": N_("the game is over"),
    "chance": N_("nothing of yours has been played since the last roll or reveal"),
    "other": N_("the last move was another player's"),
    "turn": N_("your turn has just begun"),
    "start": N_("nothing has been played yet"),
    "waiting": N_("a roll or reveal is about to be drawn"),
    "not-yours": N_("only the player to move may take back their own moves"),
}


def undo_refused(why: str, rule: str, tr: gettext.NullTranslations) -> str:
    """What to tell a player whose undo was refused: why, then what the game allows (its ``undo_rule``)."""
    _ = tr.gettext
    text = _("Nothing to undo: {why}.").format(why=_(UNDO_REASONS[why]))
    return f"{text} {_(rule)}" if rule else text
