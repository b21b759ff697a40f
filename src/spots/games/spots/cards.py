"""The dog deck: card data loaded from a JSON file (the shipped one or a custom one)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ...core.options import whole
from .errors import DeckError


def slug(name: str) -> str:
    """A card or tile name as the notation writes it: lower case, hyphens for spaces."""
    return "-".join(name.lower().split())


@dataclass(frozen=True, slots=True)
class DogCard:
    """One dog card: its notation name, its printed name, its spaces and paw prints."""

    name: str
    title: str
    spaces: tuple[int, ...]
    paws: int

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.title, "spaces": list(self.spaces), "paws": self.paws}


def parse_deck(doc: Any, source: str = "deck") -> tuple[DogCard, ...]:
    """Validate a deck document ``{"cards": [{"name", "spaces", "paws"}, ...]}``."""
    cards_doc = doc.get("cards") if isinstance(doc, dict) else doc
    if not isinstance(cards_doc, list) or not cards_doc:
        raise DeckError(f"{source}: expected a non-empty list of cards under 'cards'")
    cards: list[DogCard] = []
    seen: set[str] = set()
    for i, raw in enumerate(cards_doc):
        where = f"{source}: card {i + 1}"
        if not isinstance(raw, dict):
            raise DeckError(f"{where}: expected an object with name, spaces and paws")
        title = raw.get("name")
        spaces = raw.get("spaces")
        paws = raw.get("paws", 0)
        if not isinstance(title, str) or not slug(title):
            raise DeckError(f"{where}: 'name' must be a non-empty string")
        name = slug(title)
        if name in seen:
            raise DeckError(f"{where}: the name {title!r} is used twice")
        if name in ("yard",):
            raise DeckError(f"{where}: 'yard' is reserved by the move notation")
        if (
            not isinstance(spaces, list)
            or not spaces
            or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in spaces)
            or len(set(spaces)) != len(spaces)
        ):
            raise DeckError(f"{where} ({title}): 'spaces' must be distinct numbers from 1 to 6")
        whole(f"{where} ({title}): 'paws'", paws, 0, error=DeckError)
        seen.add(name)
        cards.append(DogCard(name, title, tuple(sorted(spaces)), paws))
    return tuple(cards)


def load_deck(path: str | Path | None = None) -> tuple[DogCard, ...]:
    """The shipped 32-card deck, or a custom deck file a user supplies."""
    if path is None:
        text = resources.files("spots.games.spots").joinpath("data/dogs.json").read_text("utf-8")
        source = "shipped deck"
    else:
        try:
            text = Path(path).read_text("utf-8")
        except OSError as exc:
            raise DeckError(f"cannot read deck file {str(path)!r}: {exc.strerror}") from None
        source = str(path)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DeckError(f"{source}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    return parse_deck(doc, source)
