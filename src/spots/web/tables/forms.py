"""Reading a create-table request: games, seats (who sits, which seats are open) and the game's options.

Why separate from the routes: this is all validation, and every refusal is a
``ValueError`` whose message says what was wrong and what is allowed. The options
are read and checked from the game's options schema (``spots.core.options``, the
same routine as the command line's flags), so no game is named here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ...core.errors import RulesError
from ...core.games import GameSpec
from ...core.options import CUSTOM, Option
from ..games import GameKind, hosted
from ..guard import check_text
from .rooms import DICE

MAX_NAME = 24


def clean_name(value: Any, default: str) -> str:
    """A seat name: text only, spaces collapsed, at most ``MAX_NAME`` characters; refused if not storable."""
    if not isinstance(value, str):
        return default
    text = re.sub(r"\s+", " ", check_text(value, "a name")).strip()[:MAX_NAME]
    return text or default


def parse_seats(body: dict[str, Any], kind: GameKind) -> list[dict[str, Any]]:
    """The seats of a create-table request: humans and the game's bots, with clean names.

    A human seat is invite-only (taken only with its link) unless it says ``"open": true``
    (anyone may take it from the lobby). The creator's own seat (``"creator_seat"``, by
    default the first human seat; ``null`` when the creator does not play) is taken from
    the start and cannot be open.
    """
    low, high = kind.spec.players
    seats_in = body.get("seats")
    if not isinstance(seats_in, list) or not low <= len(seats_in) <= high:
        count = f"{low} to {high}" if low != high else str(low)
        raise ValueError(f"'seats' must be a list of {count} seats for {kind.spec.title}")
    seats: list[dict[str, Any]] = []
    for i, s in enumerate(seats_in):
        if not isinstance(s, dict) or s.get("kind") not in ("human", "bot"):
            raise ValueError(f"seat {i}: 'kind' must be 'human' or 'bot'")
        if s["kind"] == "bot":
            bot = s.get("bot", "greedy")
            if isinstance(bot, str) and bot in kind.spec.bots and bot not in kind.bots:
                raise ValueError(f"seat {i}: the bot {bot!r} is not offered at tables (the arena and the terminal "
                                 f"have it); the bots are {', '.join(kind.bots)}")
            if not isinstance(bot, str) or bot not in kind.bots:
                raise ValueError(f"seat {i}: unknown bot {bot!r}; the bots are {', '.join(kind.bots)}")
            seats.append({"kind": "bot", "bot": bot, "name": clean_name(s.get("name"), "")})
        else:
            if not isinstance(s.get("open", False), bool):
                raise ValueError(f"seat {i}: 'open' must be true or false")
            seats.append({"kind": "human", "bot": None, "name": clean_name(s.get("name"), ""),
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
    games = hosted()
    game = body.get("game", next(iter(games)))
    if not isinstance(game, str) or game not in games:
        raise ValueError(f"unknown game {game!r}; the games are {', '.join(games)}")
    kind = games[game]
    seats = parse_seats(body, kind)
    try:
        rules = kind.spec.rules(**lobby_options(kind.spec, body, len(seats)))  # checked by the schema there
    except RulesError as exc:
        raise ValueError(str(exc)) from None
    return kind, rules, seats


def lobby_options(spec: GameSpec, body: dict[str, Any], seats: int) -> dict[str, Any]:
    """The game's options in a request, checked as a public lobby takes them (``validate_options``).

    They come under ``"options"``, or (as the first API clients sent them) at the top level under
    their own names; an option with picks set to ``custom`` takes its list from its ``custom_field``.
    The seat count fills the game's seats option, and a seed option is drawn here (SystemRandom).
    """
    extra = body.get("options") or {}
    if not isinstance(extra, dict):
        raise ValueError("'options' must be an object")
    given: dict[str, Any] = {}
    for option in spec.options:
        lobby = option.lobby
        value = extra.get(option.name, body.get(option.name)) if lobby else extra.get(option.name)
        if lobby and lobby.picks and value == CUSTOM:
            value = body.get(lobby.custom_field) if lobby.custom_field else None
            if not isinstance(value, list):
                raise ValueError(f"a {CUSTOM} {option.name} list is a list of names")
        if value is not None and value != "":
            given[option.name] = value
    given.update({k: v for k, v in extra.items() if k not in given and v is not None and v != ""})
    if spec.seats_option:
        if given.get(spec.seats_option, seats) != seats:
            raise ValueError(f"{spec.seats_option} is the number of seats here ({seats})")
        given[spec.seats_option] = seats
    checked = spec.check_options(given, public=True)
    for option in spec.options:
        if option.drawn and checked.get(option.name) is None:
            checked[option.name] = DICE.randrange(2**31)
    return checked


def bot_labels(spec: GameSpec, _: Callable[[str], str]) -> dict[str, str]:
    """The bots a game offers players, each named with its strength in a word ("Bot: greedy (easy)")."""
    return {b.name: _("Bot: {bot} ({level})").format(bot=b.name, level=_(b.level)) if b.level
            else _("Bot: {bot}").format(bot=b.name) for b in spec.offered_bots()}


def lobby_form(_: Callable[[str], str]) -> list[dict[str, Any]]:
    """The lobby's create-table form, generated from each hosted game's options schema and translated.

    One entry per game (name, title, blurb, seats and the fields in order); a field is a menu
    (``menu``: value, label, selected) or a number box (``min``/``max``: the public caps), with
    the ``picks`` to tick when its menu says ``custom``. ``lobby.html`` draws it and
    ``lobby.js`` reads it back into ``{"game", "seats", "options"}``.
    """
    out = []
    for kind in hosted().values():
        spec = kind.spec
        fields = [lobby_field(spec, option, _) for option in spec.options if option.lobby is not None]
        out.append({"name": spec.name, "title": _(spec.title), "blurb": _(spec.blurb) if spec.blurb else spec.summary,
                    "goal": list(kind.web.goal), "draws": kind.web.draws,
                    "bots": list(kind.bots), "seats": spec.players[0], "seats_option": spec.seats_option,
                    "bot_labels": bot_labels(spec, _),
                    "main": [f for f in fields if f["place"] == "main"],
                    "variants": [f for f in fields if f["place"] != "main"]})
    return out


def lobby_field(spec: GameSpec, option: Option, _: Callable[[str], str]) -> dict[str, Any]:
    """One field of the lobby form (see ``lobby_form``)."""
    lobby = option.lobby
    assert lobby is not None
    presets = list(lobby.presets) or [(c, c) for c in option.choices]
    low, high = lobby.cap or (option.low, option.high)
    return {
        "id": f"opt-{spec.name}-{option.name}", "name": option.name, "kind": option.kind, "label": _(option.label),
        "place": lobby.place, "min": low, "max": high,
        "placeholder": "" if option.default is None else option.default,
        "menu": [{"value": v, "label": _(label), "selected": v == option.default} for v, label in presets],
        "picks": [{"value": v, "label": _(label), "look": look, "checked": v in lobby.picked}
                  for v, label, look in lobby.picks],
        "picks_label": _(lobby.picks_label) if lobby.picks_label else "",
    }
