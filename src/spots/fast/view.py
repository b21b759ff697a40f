"""Reading the simulator's arrays in the engine's terms: moves as notation, states as JSON.

Nothing here is compiled. ``move_text`` names a move exactly as the engine's
``legal_actions()`` does, and ``state_dict`` rebuilds the engine's ``State.to_dict()``
(without the rules and history), which is how the differential test compares the two.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import factorial, prod
from typing import Any

import numpy as np

from ..games.spots import Rules
from . import layout as L


def odds_tables() -> tuple[np.ndarray, np.ndarray]:
    """Every sorted outcome of 1 to 8 dice as counts by face and a float probability.

    The order (``combinations_with_replacement``) and the floats (ways / 6**k, correctly
    rounded) are those of ``spots.games.spots.dice.float_distribution``, so the greedy port's
    bust chances add the same numbers in the same order as the bot.
    """
    rows: list[list[float]] = []
    offsets = [0, 0]
    for k in range(1, 9):
        for faces in combinations_with_replacement(range(1, 7), k):
            ways = factorial(k) // prod(factorial(faces.count(v)) for v in set(faces))
            rows.append([float(faces.count(v)) for v in range(1, 7)] + [ways / 6**k])
        offsets.append(len(rows))
    return np.array(rows, dtype=np.float64), np.array(offsets, dtype=np.int64)


def dice_text(packed: int) -> list[str]:
    return [str(v) for v in range(1, 7) for _ in range(packed >> (4 * (v - 1)) & 15)]


def move_text(st: np.ndarray, rules: Rules, names: list[str], move: int) -> str:
    """A move number as the notation writes it."""
    kind, a = move & 255, move >> 8 & 255
    b, c, d = move >> 16 & 255, move >> 24 & 255, move >> 32 & 255
    seat = int(st[L.S_SEAT])

    def dog(slot: int) -> str:
        return names[int(st[L.S_PLAYERS + seat * L.P_SIZE + L.P_DOGS + 3 * slot])]

    if kind in (L.M_REROLL, L.M_PICK, L.M_DISCARD):
        word = {L.M_REROLL: "reroll", L.M_PICK: "pick", L.M_DISCARD: "discard"}[kind]
        return " ".join([word, *dice_text(move >> 8)])
    texts = {
        L.M_SCORE: lambda: "score",
        L.M_TRICK: lambda: f"trick {rules.tricks[a]}",
        L.M_PLACE: lambda: f"place {a} {dog(b)}",
        L.M_BURY: lambda: f"bury {a}",
        L.M_CHOOSE: lambda: f"choose {a}",
        L.M_SET_ASIDE: lambda: f"set-aside {a}",
        L.M_DIG: lambda: f"dig {a} {b} {'up' if c else 'down'}",
        L.M_MOVE: lambda: f"move {dog(a)} {b} {dog(c)} {d}",
        L.M_TAKE_YARD: lambda: f"take yard {a}",
        L.M_TAKE_DOG: lambda: f"take {dog(a)} {b}",
        L.M_CONTINUE: lambda: "continue",
        L.M_STOP: lambda: "stop",
    }
    return texts[kind]()


def counts_list(st: np.ndarray, base: int) -> list[int]:
    return [v for v in range(1, 7) for _ in range(int(st[base + v]))]


def _task(code: int, arg: int) -> list[Any]:
    return [L.TASK_NAMES[code], arg] if L.TASK_HAS_ARG[code] else [L.TASK_NAMES[code]]


def state_dict(st: np.ndarray, rules: Rules, names: list[str]) -> dict[str, Any]:
    """The position in the shape of the engine's ``State.to_dict()`` (no rules, no history)."""
    s = [int(x) for x in st]
    players = []
    for seat in range(rules.players):
        base = L.S_PLAYERS + seat * L.P_SIZE
        dogs = []
        for slot in range(s[base + L.P_NDOGS]):
            card, filled, scored = s[base + L.P_DOGS + 3 * slot: base + L.P_DOGS + 3 * slot + 3]
            dogs.append({"name": names[card], "filled": [v for v in range(1, 7) if filled >> v & 1],
                         "scored": bool(scored)})
        players.append({"dogs": dogs, "yard": counts_list(st, base + L.P_YARD), "treats": s[base + L.P_TREATS]})
    phase = L.PHASE_NAMES[s[L.S_PHASE]]
    offer = {L.OF_NONE: [], L.OF_ROLL: ["roll", s[L.S_OFFER_ARG]], L.OF_BOLT: ["bolt-roll"]}[s[L.S_OFFER]]
    chance_for = {L.CF_DEAL: ["deal", s[L.S_CF_SEAT]], L.CF_TOP: ["top"],
                  L.CF_FIRST_DIE: ["first-die", s[L.S_CF_SEAT]], L.CF_ROLL: ["roll"]}.get(s[L.S_CF], [])
    return {
        "phase": phase,
        "seat": s[L.S_SEAT],
        "first_player": None if s[L.S_FIRST] < 0 else s[L.S_FIRST],
        "turn": s[L.S_TURN],
        "players": players,
        "supply": {"dice": s[L.S_DICE], "treats": s[L.S_TREATS]},
        "tiles": [{"name": t, "face_up": bool(s[L.S_FACE_UP + i]), "treats": s[L.S_TILE_TREATS + i]}
                  for i, t in enumerate(rules.tricks)],
        "deck": {"top": None if s[L.S_TOP] < 0 else names[s[L.S_TOP]],
                 "rest": [names[c] for c in s[L.S_REST:L.S_REST + s[L.S_NREST]]]},
        "trick": None if s[L.S_TRICK] < 0 else {
            "name": rules.tricks[s[L.S_TRICK]], "step": s[L.S_STEP], "rolls_in_step": s[L.S_RIS],
            "set_aside": s[L.S_SET_ASIDE], "taken": bool(s[L.S_TAKEN]), "guard": s[L.S_GUARD] or None,
            "digs_left": s[L.S_DIGS], "offer": offer,
        },
        "roll": None if not s[L.S_ROLL] else {
            "size": s[L.S_R_SIZE], "dice": counts_list(st, L.S_R_DICE), "mode": L.KEEP_NAMES[s[L.S_R_MODE]],
            "choosing": L.KEEP_NAMES[s[L.S_R_CHOOSING]], "fresh": bool(s[L.S_R_FRESH]),
            "partial": bool(s[L.S_R_PARTIAL]), "bonus": "play-dead" if s[L.S_R_BONUS] else None,
            "held": counts_list(st, L.S_R_HELD),
        },
        "chance": {"for": chance_for, "dice": s[L.S_PENDING]} if phase.startswith("chance") else None,
        "tied": [s[L.S_TIED + i] for i in range(s[L.S_NTIED])],
        "agenda": [_task(s[L.S_AGENDA + 2 * i], s[L.S_AGENDA + 2 * i + 1]) for i in range(s[L.S_NAGENDA])],
        "winner": None if s[L.S_WINNER] < 0 else s[L.S_WINNER],
        "end_reason": {0: None, 1: "target", 2: "turn limit"}[s[L.S_REASON]],
        "busts": [s[L.S_PLAYERS + seat * L.P_SIZE + L.P_BUSTS] for seat in range(rules.players)],
    }


def _counts(st: np.ndarray, base: int, dice: list[int]) -> None:
    for v in dice:
        st[base + v] += 1


_TASK_CODES = {name: code for code, name in enumerate(L.TASK_NAMES) if name}
_KEEP_CODES = {name: code for code, name in enumerate(L.KEEP_NAMES)}
_CHANCE_CODES = {"deal": L.CF_DEAL, "top": L.CF_TOP, "first-die": L.CF_FIRST_DIE, "roll": L.CF_ROLL}


def state_array(doc: dict[str, Any], rules: Rules, names: list[str]) -> np.ndarray:
    """The simulator's array of an engine position (``State.to_dict()``): ``state_dict``'s inverse.

    Why: a search or a rollout can start the compiled loop from any position of a real game, not only from
    a new deal (the coach's reference rollouts play the rest of a game this way)."""
    st = np.zeros(L.STATE_SIZE, dtype=np.int64)
    card = {name: i for i, name in enumerate(names)}
    st[L.S_PHASE] = L.PHASE_NAMES.index(doc["phase"])
    st[L.S_SEAT], st[L.S_TURN] = doc["seat"], doc["turn"]
    st[L.S_FIRST] = -1 if doc["first_player"] is None else doc["first_player"]
    st[L.S_DICE], st[L.S_TREATS] = doc["supply"]["dice"], doc["supply"]["treats"]
    for i, tile in enumerate(doc["tiles"]):
        st[L.S_FACE_UP + i], st[L.S_TILE_TREATS + i] = int(tile["face_up"]), tile["treats"]
    top, rest = doc["deck"]["top"], doc["deck"]["rest"]
    st[L.S_TOP] = -1 if top is None else card[top]
    st[L.S_NREST] = len(rest)
    for i, name in enumerate(rest):
        st[L.S_REST + i] = card[name]
    trick = doc["trick"]
    st[L.S_TRICK] = -1
    if trick is not None:
        st[L.S_TRICK] = rules.tricks.index(trick["name"])
        st[L.S_STEP], st[L.S_RIS], st[L.S_SET_ASIDE] = trick["step"], trick["rolls_in_step"], trick["set_aside"]
        st[L.S_TAKEN], st[L.S_GUARD], st[L.S_DIGS] = int(trick["taken"]), trick["guard"] or 0, trick["digs_left"]
        offer = trick["offer"]
        st[L.S_OFFER] = L.OF_NONE if not offer else L.OF_ROLL if offer[0] == "roll" else L.OF_BOLT
        st[L.S_OFFER_ARG] = offer[1] if offer and offer[0] == "roll" else 0
    roll = doc["roll"]
    if roll is not None:
        st[L.S_ROLL], st[L.S_R_SIZE] = 1, roll["size"]
        st[L.S_R_MODE], st[L.S_R_CHOOSING] = _KEEP_CODES[roll["mode"]], _KEEP_CODES[roll["choosing"]]
        st[L.S_R_FRESH], st[L.S_R_PARTIAL] = int(roll["fresh"]), int(roll["partial"])
        st[L.S_R_BONUS] = int(roll["bonus"] == "play-dead")
        _counts(st, L.S_R_DICE, roll["dice"])
        _counts(st, L.S_R_HELD, roll["held"])
    chance = doc.get("chance")
    if chance:
        purpose = chance["for"]
        st[L.S_PENDING], st[L.S_CF] = chance["dice"], _CHANCE_CODES[purpose[0]]
        st[L.S_CF_SEAT] = purpose[1] if len(purpose) > 1 else 0
    st[L.S_NTIED] = len(doc["tied"])
    for i, seat in enumerate(doc["tied"]):
        st[L.S_TIED + i] = seat
    st[L.S_NAGENDA] = len(doc["agenda"])
    for i, task in enumerate(doc["agenda"]):
        st[L.S_AGENDA + 2 * i] = _TASK_CODES[task[0]]
        st[L.S_AGENDA + 2 * i + 1] = task[1] if len(task) > 1 else 0
    st[L.S_WINNER] = -1 if doc["winner"] is None else doc["winner"]
    st[L.S_REASON] = {None: 0, "target": 1, "turn limit": 2}[doc["end_reason"]]
    for seat, player in enumerate(doc["players"]):
        base = L.S_PLAYERS + seat * L.P_SIZE
        st[base + L.P_TREATS], st[base + L.P_BUSTS] = player["treats"], doc["busts"][seat]
        st[base + L.P_NDOGS] = len(player["dogs"])
        _counts(st, base + L.P_YARD, player["yard"])
        for slot, dog in enumerate(player["dogs"]):
            at = base + L.P_DOGS + 3 * slot
            st[at] = card[dog["name"]]
            st[at + 1] = sum(1 << v for v in dog["filled"])
            st[at + 2] = int(dog["scored"])
    return st
