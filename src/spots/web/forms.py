"""Reading a create-table request: games, seats (who sits, which seats are open), tricks and variants.

Why separate from the routes: this is all validation, and every refusal is a
``ValueError`` whose message says what was wrong and what is allowed.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.errors import RulesError
from ..games.double_spot.rules import CLAIM_RULES
from ..games.spots import Rules
from ..games.spots.tricks import N_, SUGGESTED_SETS
from .games import DOUBLE_SPOT, GAMES, SPOTS, GameKind
from .guard import check_text
from .rooms import DICE

MAX_NAME = 24
TRICK_SETS = ["beginner", *[s for s in SUGGESTED_SETS if s != "adoption-event"], "random", "all", "custom"]
TRICK_SET_LABELS = {  # what the lobby's menu shows for each trick set
    "beginner": N_("beginner (Adoption Event)"), "dog-park": N_("dog park"), "agility-course": N_("agility course"),
    "hunting": N_("hunting"), "kennel-club": N_("kennel club"), "puppy-pen": N_("puppy pen"),
    "random": N_("random"), "all": N_("all"), "custom": N_("custom"),
}
OPTION_LIMITS = {  # variant options a lobby form may set, with sane bounds for a public server
    "bust_limit": (0, 60), "dog_limit": (1, 32), "dice": (1, 200), "treats": (0, 200),
    "starting_treats": (0, 20), "starting_dogs": (0, 6), "turn_limit": (1, 5000),
}
# Double Spot's lobby options
DOUBLE_SPOT_LIMITS = {"columns": (4, 12), "rows": (4, 10), "target": (1, 10), "lifts": (0, 9)}


def clean_name(value: Any, default: str) -> str:
    """A seat name: text only, spaces collapsed, at most ``MAX_NAME`` characters; refused if not storable."""
    if not isinstance(value, str):
        return default
    text = re.sub(r"\s+", " ", check_text(value, "a name")).strip()[:MAX_NAME]
    return text or default


def _whole(name: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}")
    return value


def parse_seats(body: dict[str, Any], kind: GameKind) -> list[dict[str, Any]]:
    """The seats of a create-table request: humans and the game's bots, with clean names.

    A human seat is invite-only (taken only with its link) unless it says ``"open": true``
    (anyone may take it from the lobby). The creator's own seat (``"creator_seat"``, by
    default the first human seat; ``null`` when the creator does not play) is taken from
    the start and cannot be open.
    """
    low, high = kind.players
    seats_in = body.get("seats")
    if not isinstance(seats_in, list) or not low <= len(seats_in) <= high:
        count = f"{low} to {high}" if low != high else str(low)
        raise ValueError(f"'seats' must be a list of {count} seats for {kind.title}")
    seats: list[dict[str, Any]] = []
    for i, s in enumerate(seats_in):
        if not isinstance(s, dict) or s.get("kind") not in ("human", "bot"):
            raise ValueError(f"seat {i}: 'kind' must be 'human' or 'bot'")
        if s["kind"] == "bot":
            bot = s.get("bot", "greedy")
            if not isinstance(bot, str) or bot not in kind.bots:
                raise ValueError(f"seat {i}: unknown bot {bot!r}; the bots are {', '.join(kind.bots)}")
            seats.append({"kind": "bot", "bot": bot, "name": clean_name(s.get("name"), f"{bot.title()} bot")})
        else:
            if not isinstance(s.get("open", False), bool):
                raise ValueError(f"seat {i}: 'open' must be true or false")
            seats.append({"kind": "human", "bot": None, "name": clean_name(s.get("name"), f"Player {i + 1}"),
                          "open": bool(s.get("open", False)), "claimed": False})
    humans = [i for i, s in enumerate(seats) if s["kind"] == "human"]
    mine = body.get("creator_seat", humans[0] if humans else None)
    if mine is not None:
        if not isinstance(mine, int) or isinstance(mine, bool) or mine not in humans:
            raise ValueError("'creator_seat' must be the number of a human seat (counting from 0), or null")
        if seats[mine]["open"]:
            raise ValueError(f"seat {mine} is the creator's own seat; it cannot also be open to the lobby")
        seats[mine]["claimed"] = True
    return seats


def parse_new_table(body: Any) -> tuple[GameKind, Any, list[dict[str, Any]]]:
    """Read the lobby's create-table request; raise ValueError with a message people understand."""
    if not isinstance(body, dict):
        raise ValueError("expected a JSON object")
    game = body.get("game", "spots")
    if not isinstance(game, str) or game not in GAMES:
        raise ValueError(f"unknown game {game!r}; the games are {', '.join(GAMES)}")
    if game == DOUBLE_SPOT.name:
        return DOUBLE_SPOT, *parse_double_spot(body)
    return SPOTS, *parse_spots(body)


def parse_double_spot(body: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
    """Double Spot's options: board size, cards to win and the claim rule."""
    seats = parse_seats(body, DOUBLE_SPOT)
    options: dict[str, Any] = {"target": _whole("target", body.get("target", 5), *DOUBLE_SPOT_LIMITS["target"])}
    extra = body.get("options") or {}
    if not isinstance(extra, dict):
        raise ValueError("'options' must be an object")
    for key, value in extra.items():
        if value is None or value == "":
            continue
        if key == "claim":
            if value not in CLAIM_RULES:
                raise ValueError(f"option claim must be one of {', '.join(CLAIM_RULES)}")
            options[key] = value
        elif key in DOUBLE_SPOT_LIMITS:
            options[key] = _whole(f"option {key}", value, *DOUBLE_SPOT_LIMITS[key])
        else:
            raise ValueError(f"unknown option {key!r}; options are {', '.join([*DOUBLE_SPOT_LIMITS, 'claim'])}")
    try:
        rules = DOUBLE_SPOT.rules_from_dict(options)
    except RulesError as exc:
        raise ValueError(str(exc)) from None
    return rules, seats


def parse_spots(body: dict[str, Any]) -> tuple[Rules, list[dict[str, Any]]]:
    """Spots' options: trick set, dogs to win and the variants."""
    seats = parse_seats(body, SPOTS)
    options: dict[str, Any] = {"players": len(seats)}
    tricks = body.get("tricks", "beginner")
    if tricks == "custom" or isinstance(tricks, list):
        tiles = body.get("tiles") if tricks == "custom" else tricks
        if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles):
            raise ValueError("a custom trick set is a list of tile names")
        options["tricks"] = tiles
    elif isinstance(tricks, str) and tricks in TRICK_SETS:
        options["tricks"] = tricks
    else:
        raise ValueError(f"'tricks' must be one of {', '.join(TRICK_SETS)} or a list of tiles")
    if options["tricks"] == "random":
        options["tricks_seed"] = DICE.randrange(2**31)
    target = body.get("target", 6)
    if not isinstance(target, int) or isinstance(target, bool) or not 1 <= target <= 20:
        raise ValueError("'target' must be a whole number from 1 to 20")
    options["target"] = target
    extra = body.get("options") or {}
    if not isinstance(extra, dict):
        raise ValueError("'options' must be an object")
    for key, value in extra.items():
        if key not in OPTION_LIMITS:
            raise ValueError(f"unknown option {key!r}; options are {', '.join(OPTION_LIMITS)}")
        if value is None or value == "":
            continue
        low, high = OPTION_LIMITS[key]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ValueError(f"option {key} must be a whole number from {low} to {high}")
        options[key] = value
    try:
        rules = Rules(**options)
    except RulesError as exc:
        raise ValueError(str(exc)) from None
    return rules, seats
