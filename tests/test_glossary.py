"""The catalogs use the players' words: every message holding a key term uses the glossary's word for it.

The glossary is ``src/spots/i18n/glossary.toml`` (the chosen word per language, the forms it may
take, and why where it differs from the seed rule texts). A message's English id is searched for
each term's English forms; its translation must then hold one of the term's forms in that language.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from spots import i18n
from spots.games.spots.tricks import SUGGESTED_SETS, TILES

I18N = Path(i18n.__file__).parent
TOML: dict[str, Any] = tomllib.loads((I18N / "glossary.toml").read_text("utf-8"))
GLOSSARY: dict[str, Any] = TOML["terms"]
LANGS = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]
QUOTED = re.compile(r"'[^']*'|\{\w*\}")  # move notation and commands the player types, and placeholders
PRINTED = {tile.title for tile in TILES.values()} | {"Adoption Event"}  # matched in their printed case


def catalog(code: str) -> dict[str, list[str]]:
    """Message id (the singular for plurals) -> its translations."""
    with open(I18N / "locale" / i18n.FOLDERS[code] / "LC_MESSAGES" / "spots.po", "rb") as f:
        po = read_po(f, locale=i18n.FOLDERS[code])
    return {(m.id if isinstance(m.id, str) else m.id[0]): [str(s) for s in (m.string if isinstance(m.string, tuple)
                                                                            else [m.string])] for m in po if m.id}


def pattern(english: str) -> re.Pattern[str]:
    flags = 0 if english in PRINTED else re.IGNORECASE
    return re.compile(r"(?<![\w-])" + re.escape(english) + r"(?![\w-])", flags)


def terms_in(msgid: str) -> list[str]:
    """The glossary terms a message holds; a longer term hides the words inside it ('Roll Over', 'dog park')."""
    text = QUOTED.sub(" ", msgid)
    found = []
    longest_first = sorted(GLOSSARY.items(), key=lambda kv: -max(len(e) for e in kv[1]["en"]))
    for key, term in longest_first:
        hit = False
        for english in sorted(term["en"], key=len, reverse=True):
            text, n = pattern(english).subn(" ", text)
            hit = hit or n > 0
        if hit:
            found.append(key)
    return found


# The words of the place to play, beside the game's own: ratings, chat, clocks, the coach, the daily deal, fair play.
PLACE = {"rating", "rated", "rating-uncertainty", "leaderboard", "session", "rematch", "mute", "chat", "quick-phrase",
         "invitation", "clock", "time-control", "turn-based", "out-of-time", "notice", "undo", "resign", "luck",
         "equity-lost", "band", "mistake", "par", "medal", "streak", "daily-deal", "challenge", "fair-play", "block",
         "link", "lobby", "advisor", "bot", "puzzle"}


def test_the_glossary_covers_every_term_tile_and_set_in_every_language() -> None:
    required = {"treat", "trick", "tile", "yard", "supply", "bust", "bury", "roll", "reroll", "score",
                "slow-and-steady", "fast-and-risky", "dog-card", "paw-print", "disc", "frame", "pattern-card",
                "drop", "claim"} | {name for name in TILES} | set(SUGGESTED_SETS) | PLACE
    assert not required - set(GLOSSARY), f"missing from glossary.toml: {sorted(required - set(GLOSSARY))}"
    for key, term in GLOSSARY.items():
        assert term["en"], key
        for code in LANGS:
            entry = term[code]
            assert entry["word"].strip(), (key, code)
    for name, tile in TILES.items():
        assert GLOSSARY[name]["en"] == [tile.title], name


@pytest.mark.parametrize("code", LANGS)
def test_no_two_terms_share_a_word(code: str) -> None:
    """One thing, one word, and one word, one thing: a rating is not the coach's band (es had 'Nivel' for both, vi
    'hạng'), a chat ban is not the sound switch."""
    by_word: dict[str, list[str]] = {}
    for key, term in GLOSSARY.items():
        by_word.setdefault(term[code]["word"].casefold(), []).append(key)
    assert not {word: keys for word, keys in by_word.items() if len(keys) > 1}


@pytest.mark.parametrize("code", LANGS)
def test_every_message_with_a_key_term_uses_the_glossary_word(code: str) -> None:
    translations = catalog(code)
    problems = []
    for msgid, strings in translations.items():
        for key in terms_in(msgid):
            entry = GLOSSARY[key][code]
            forms = entry.get("forms", [entry["word"]])
            for s in strings:
                if not any(form.casefold() in s.casefold() for form in forms):
                    problems.append(f"{msgid!r} -> {s!r}: needs {key!r} as {forms}")
    assert not problems, f"{code}: {len(problems)} messages off the glossary:\n" + "\n".join(problems)


@pytest.mark.parametrize("code", LANGS)
def test_no_translation_uses_a_word_the_glossary_avoids(code: str) -> None:
    """One word for one thing: a term's rejected words ('lanzada', 'vestíbulo', 軍師) and the spellings a language
    does not write (㩒 beside 撳) appear in no translation at all."""
    avoided = {word: f"{key}: write {term[code]['word']!r}" for key, term in GLOSSARY.items()
               for word in term[code].get("avoid", [])}
    avoided |= {word: f"write {instead}" for word, instead in TOML.get("spellings", {}).get(code, {}).items()}
    problems = [f"{msgid!r} -> {s!r}: {word!r} ({why})" for msgid, strings in catalog(code).items()
                for s in strings for word, why in avoided.items() if word.casefold() in s.casefold()]
    assert not problems, f"{code}:\n" + "\n".join(problems)


def test_spanish_double_spot_cards_are_tarjetas() -> None:
    """Seed 004 calls Double Spot's pattern cards 'tarjetas' (Spots' dog cards are 'cartas'): a message about a
    drop, a disc, the frame or a claim says 'tarjeta', never 'carta'."""
    double_spot = {"disc", "frame", "pattern-card", "drop", "claim"}
    bad = [f"{msgid!r} -> {s!r}" for msgid, strings in catalog("es").items()
           if re.search(r"\bcards?\b", msgid, re.IGNORECASE) and double_spot & set(terms_in(msgid))
           for s in strings if re.search(r"\bcartas?\b", s, re.IGNORECASE)]
    assert not bad, bad


@pytest.mark.parametrize("code", LANGS)
def test_tile_titles_are_the_glossary_names(code: str) -> None:
    """The tile names themselves, exactly: vi and zh-Hant keep the printed English name beside."""
    translations = catalog(code)
    for name, tile in TILES.items():
        assert translations[tile.title] == [GLOSSARY[name][code]["word"]], (code, name)
        if code in ("vi", "zh-Hant"):
            assert translations[tile.title][0].endswith(f" ({tile.title})"), (code, name)


def test_vietnamese_counts_dogs_with_the_classifier() -> None:
    """'2 con chó', never '2 chó' (nor '{n} chó')."""
    bad = [s for strings in catalog("vi").values() for s in strings
           if re.search(r"(\d|\{\w*\}) chó\b", s)]
    assert not bad, bad


def test_cantonese_avoids_the_mandarin_words_players_wince_at() -> None:
    """的 for 嘅, 砌 for filling a dog, 看 for 睇: the catalog is written Cantonese."""
    bad = [s for strings in catalog("zh-Hant").values() for s in strings
           if re.search(r"的|砌(?!出)|看|這|們|沒有|什麼|現在", s)]
    assert not bad, bad


def test_the_check_finds_terms_and_skips_notation() -> None:
    assert terms_in("Roll 2 dice. Then you may roll 1 die.") == ["roll"]
    assert "roll" not in terms_in("Roll Over")
    assert terms_in("Type a move in the notation (e.g. 'trick walk')") == []
    assert set(terms_in("{who} spends a treat to reroll {faces}.")) == {"treat", "reroll"}
    assert set(terms_in("{n} rated games; the rating is shown ± twice its uncertainty")) == {"rated", "rating",
                                                                                            "rating-uncertainty"}
    assert set(terms_in("Take 1 treat for each face-down trick tile other than Stay.")) == {"treat", "trick", "tile",
                                                                                            "stay"}
    assert terms_in("dog park") == ["dog-park"]
