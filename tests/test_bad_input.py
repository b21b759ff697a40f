"""Bad input gets a clear error and changes nothing.

Moves: malformed, illegal, for the wrong seat, bad chance outcomes, after the end.
Files: corrupt saved states and game records. And the round trips that saving,
loading, replaying and cloning promise.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import spots
from spots.games.spots import canonical
from spots.games.spots.record import ReplayError
from spots.games.spots.state import State
from support.spots import random_play

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----------------------------------------------------------------- positions


@cache
def sampled_positions() -> tuple[State, ...]:
    """Clones of positions of several random games: setup, decisions, chance nodes of both kinds."""
    out = []
    for seed in range(8):
        for i, state in enumerate(random_play(seed, 1 + seed % 4, max_steps=1200)):
            if i < 12 or i % 23 == 0:
                out.append(state.clone())
    return tuple(out)


def live_positions() -> list[State]:
    return [s for s in sampled_positions() if not s.is_terminal()]


def decision_positions() -> list[State]:
    return [s for s in sampled_positions() if not s.is_terminal() and not s.is_chance_node()]


def roll_positions() -> list[State]:
    return [s for s in sampled_positions() if s.phase == "chance-roll"]


def reveal_positions() -> list[State]:
    return [s for s in sampled_positions() if s.phase == "chance-reveal"]


@cache
def terminal_positions() -> tuple[State, ...]:
    out = []
    for seed in range(6):
        *_, last = random_play(seed, 1 + seed % 4, target=1, max_steps=5000)
        assert last.is_terminal()
        out.append(last.clone())
    *_, last = random_play(99, 2, turn_limit=3, max_steps=5000)
    assert last.is_terminal() and last.end_reason == "turn limit"
    out.append(last.clone())
    return tuple(out)


def test_the_sampled_positions_are_varied() -> None:
    phases = {s.phase for s in sampled_positions()}
    assert {"chance-roll", "chance-reveal", "turn", "roll", "continue"} <= phases
    assert {s.rules.players for s in sampled_positions()} == {1, 2, 3, 4}
    assert len(decision_positions()) > 150
    assert len(roll_positions()) > 30
    assert len(reveal_positions()) > 10


def listing(state: State) -> str:
    """What a refusal at this state should list: its legal moves (or the pending roll)."""
    if state.phase == "chance-roll":
        return f"roll followed by {state.pending_dice} faces"
    legal = state.legal_actions()
    return ", ".join(legal[:3])


def refuse(state: State, move: object, **kwargs: Any) -> spots.IllegalMoveError:
    """Apply a move that must be refused; check the state is unchanged; return the error."""
    before = state.to_json()
    legal_before = state.legal_actions()
    with pytest.raises(spots.IllegalMoveError) as info:
        state.apply_action(move, **kwargs)
    assert state.to_json() == before, f"a refused move {move!r} changed the state"
    assert state.legal_actions() == legal_before
    exc = info.value
    text = move if isinstance(move, str) else str(move)
    if len(text) <= 200:
        assert repr(text) in str(exc), f"the message does not quote the move: {exc}"
    return exc


# ----------------------------------------------------------------- malformed moves

MALFORMED = [
    "",
    "   ",
    "jump",
    "place",
    "place 7 wilbur",
    "place 4 Wil Bur",
    "bury 0",
    "bury six",
    "trick",
    "score 2",
    "roll",
    "roll 1 9",
    "reveal",
    "reveal lil beth",
    "dig 0 3 sideways",
    "set-aside many",
    "take yard",
    "move wilbur 3",
    "pick",
    "x" * 300,
]
MALFORMED_IDS = [m if len(m) < 40 else m[:10] + "..." for m in MALFORMED]


@pytest.mark.parametrize("text", MALFORMED, ids=MALFORMED_IDS)
def test_malformed_moves_are_refused_and_change_nothing(text: str) -> None:
    for state in live_positions()[::3]:
        exc = refuse(state, text)
        assert "malformed move" in str(exc)
        if state.phase != "chance-roll":  # see the next test
            assert listing(state) in str(exc), f"the legal moves are not listed: {exc}"
            assert exc.legal == state.legal_actions()


@pytest.mark.parametrize("text", ["", "jump", "roll", "roll 1 9", "place 7 wilbur"])
def test_a_malformed_move_at_a_roll_describes_the_pending_roll(text: str) -> None:
    """At a chance roll, every refusal (malformed or not) says which roll is pending."""
    for state in roll_positions()[::4]:
        exc = refuse(state, text)
        assert listing(state) in str(exc), f"the pending roll is not described: {exc}"


# ----------------------------------------------------------------- illegal but well-formed moves

WELL_FORMED = [
    "score",
    "continue",
    "stop",
    "reroll",
    "reroll 1",
    "reroll 2 5",
    "trick walk",
    "trick search",
    "trick fido",
    "place 4 wilbur",
    "place 1 burt",
    "place 3 fido",
    "bury 1",
    "bury 6",
    "choose 3",
    "choose 6",
    "pick 3 5",
    "pick 2 6",
    "discard",
    "discard 1",
    "set-aside 3",
    "set-aside 99",
    "set-aside 0",
    "dig 0 1 up",
    "dig 3 6 down",
    "dig 7 2 up",
    "move wilbur 3 doog 6",
    "take yard 5",
    "take doog 6",
    "roll 1",
    "roll 1 2",
    "roll 1 1 1 1 1 1 1 1 1",
    "reveal burt",
    "reveal fido",
    "reveal doog",
]


def test_illegal_well_formed_moves_are_refused_and_list_the_legal_moves() -> None:
    refused = 0
    for state in decision_positions()[::2] + reveal_positions():
        legal = state.legal_actions()
        for move in WELL_FORMED:
            if move in legal:
                continue
            exc = refuse(state, move)
            refused += 1
            assert exc.legal == legal
            assert "illegal move" in str(exc)
            assert ", ".join(legal[:3]) in str(exc)
            # The same move spelt sloppily is refused the same way, quoting what was sent.
            refuse(state, "  " + move.upper() + " ")
    assert refused > 500


def test_legal_moves_spelt_sloppily_are_accepted_and_recorded_canonically() -> None:
    for state in decision_positions()[::2]:
        for move in state.legal_actions():
            sloppy = "  " + "  ".join(move.upper().split()) + "\t"
            a, b = state.clone(), state.clone()
            a.apply_action(move)
            b.apply_action(sloppy)
            assert b.history()[-1] == move
            assert a == b


def test_a_move_object_is_accepted_like_its_text() -> None:
    for state in decision_positions()[:40]:
        move = state.legal_actions()[0]
        a, b = state.clone(), state.clone()
        a.apply_action(move)
        b.apply_action(spots.parse(move))
        assert a == b


# ----------------------------------------------------------------- the wrong seat


def test_a_move_for_the_wrong_seat_is_refused() -> None:
    checked = 0
    for state in decision_positions():
        n = state.rules.players
        seat = state.current_player()
        move = state.legal_actions()[0]
        for other in [*range(n), spots.CHANCE, n, 7]:
            if other == seat:
                continue
            exc = refuse(state, move, player=other)
            assert f"seat {other} cannot move now" in str(exc)
            assert f"seat {seat}" in str(exc)
            assert exc.legal == state.legal_actions()
            checked += 1
        # The right seat may play it.
        state.clone().apply_action(move, player=seat)
    assert checked > 300


def test_no_seat_may_send_a_chance_outcome() -> None:
    for state in roll_positions()[:20] + reveal_positions()[:20]:
        outcome = state.chance_outcomes()[0][0]
        for seat in range(state.rules.players):
            exc = refuse(state, outcome, player=seat)
            assert "chance event" in str(exc)
        state.clone().apply_action(outcome, player=spots.CHANCE)


# ----------------------------------------------------------------- chance nodes


def test_a_roll_with_the_wrong_number_of_dice_is_refused() -> None:
    for state in roll_positions():
        k = state.pending_dice
        for count in {1, k - 1, k + 1, 13} - {0, k}:
            text = "roll " + " ".join(["3"] * count)
            exc = refuse(state, text)
            assert f"a roll of {k} dice is pending" in str(exc)
            assert listing(state) in str(exc)
        for text in ["reveal burt", "place 4 wilbur", "score", "stop"]:
            exc = refuse(state, text)
            assert listing(state) in str(exc), f"the pending roll is not described: {exc}"


def test_roll_faces_out_of_order_are_put_in_order() -> None:
    rng = random.Random(5)
    seen = 0
    for state in roll_positions():
        k = state.pending_dice
        faces = [rng.randint(1, 6) for _ in range(k)]
        shuffled = sorted(faces, reverse=True)
        a, b = state.clone(), state.clone()
        a.apply_action("roll " + " ".join(map(str, sorted(faces))))
        b.apply_action("ROLL  " + "  ".join(map(str, shuffled)))
        assert b.history()[-1] == "roll " + " ".join(map(str, sorted(faces)))
        assert a == b
        seen += 1
    assert seen > 30


def test_a_reveal_of_a_card_not_in_the_deck_is_refused() -> None:
    for state in reveal_positions():
        rest = {o.split()[1] for o, _ in state.chance_outcomes()}
        gone = [c for c in state.rules.cards if c not in rest]
        for text in [*(f"reveal {c}" for c in gone[:3]), "reveal fido", "roll 3", "roll 1 2"]:
            exc = refuse(state, text)
            assert exc.legal == state.legal_actions()
            assert ", ".join(state.legal_actions()[:3]) in str(exc)


def test_sample_chance_at_a_decision_is_refused() -> None:
    for state in decision_positions()[:30] + list(terminal_positions()):
        before = state.to_json()
        with pytest.raises(spots.IllegalMoveError, match="not a chance node"):
            state.sample_chance(random.Random(0))
        assert state.to_json() == before


# ----------------------------------------------------------------- the end of the game


@pytest.mark.parametrize(
    "move", ["score", "stop", "trick walk", "roll 1", "reveal burt", "place 4 wilbur", "", "jump", "ROLL 6 1"]
)
def test_no_move_is_accepted_once_the_game_is_over(move: str) -> None:
    for state in terminal_positions():
        assert state.legal_actions() == []
        for player in (None, 0, spots.CHANCE, spots.TERMINAL):
            exc = refuse(state, move, player=player)
            assert "game is over" in str(exc)
            assert exc.legal == []


# ----------------------------------------------------------------- any text


@st.composite
def near_legal(draw: st.DrawFn, state: State) -> str:
    """A legal move, maybe damaged: a token dropped, replaced or added, case changed."""
    legal = state.legal_actions() or ["score"]
    if state.phase == "chance-roll" and len(legal) > 200:
        legal = legal[:: len(legal) // 100]
    tokens = draw(st.sampled_from(legal)).split()
    token = st.one_of(
        st.sampled_from(["1", "6", "7", "0", "yard", "up", "down", "wilbur", "doog", "walk", "²", "-1"]),
        st.text(max_size=4),
    )
    for _ in range(draw(st.integers(0, 2))):
        op = draw(st.sampled_from(["drop", "replace", "add", "upper", "shuffle"]))
        if op == "drop" and tokens:
            tokens.pop(draw(st.integers(0, len(tokens) - 1)))
        elif op == "replace" and tokens:
            tokens[draw(st.integers(0, len(tokens) - 1))] = draw(token)
        elif op == "add":
            tokens.insert(draw(st.integers(0, len(tokens))), draw(token))
        elif op == "upper":
            tokens = [t.upper() for t in tokens]
        elif op == "shuffle":
            tokens = draw(st.permutations(tokens))
    return " ".join(tokens)


positions_st = st.deferred(lambda: st.sampled_from(list(sampled_positions()) + list(terminal_positions())))


@SETTINGS
@given(data=st.data())
def test_any_text_is_either_a_legal_move_or_refused_without_change(data: st.DataObject) -> None:
    state = data.draw(positions_st).clone()
    text = data.draw(st.one_of(st.text(), near_legal(state)), label="text")
    before = state.to_json()
    legal = state.legal_actions()
    try:
        state.apply_action(text)
    except spots.IllegalMoveError as exc:
        assert state.to_json() == before, f"refused {text!r} but changed the state"
        if len(text) <= 200:
            assert repr(text) in str(exc)
        return
    move = canonical(text)
    if state.history()[-1].startswith("roll") and not legal:
        raise AssertionError("a roll was accepted at a node with no legal move")
    assert move in legal, f"{text!r} was accepted but {move!r} was not legal"
    assert state.history()[-1] == move


# ----------------------------------------------------------------- corrupt saved states


@cache
def base_state() -> State:
    """A position in the middle of a trick, with a roll in hand and a deck top."""
    for state in sampled_positions():
        if state.phase == "roll" and state.roll is not None and state.deck_top and state.rules.players >= 2:
            return state
    raise AssertionError("no position with a roll in hand")


def base_doc() -> dict[str, Any]:
    return json.loads(base_state().to_json())


def load(text: str) -> spots.StateFormatError:
    with pytest.raises(spots.StateFormatError) as info:
        spots.State.from_json(text)
    assert isinstance(info.value, ValueError)
    return info.value


def edited(path: tuple[Any, ...], value: Any = ..., delete: bool = False) -> str:
    doc = base_doc()
    target = doc
    for key in path[:-1]:
        target = target[key]
    if delete:
        del target[path[-1]]
    elif callable(value):
        target[path[-1]] = value(target[path[-1]])
    else:
        target[path[-1]] = value
    return json.dumps(doc)


def test_the_base_state_loads() -> None:
    assert spots.State.from_json(base_state().to_json()) == base_state()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("not json at all", "not valid JSON"),
        ("{'format': 'spots-state'}", "not valid JSON"),
        ("null", "not a Spots state"),
        ("[]", "not a Spots state"),
        ("42", "not a Spots state"),
        ('"spots-state"', "not a Spots state"),
        ("{}", "not a Spots state"),
        ('{"format": "spots-record", "version": 1}', "not a Spots state"),
        ('{"format": "spots-state"}', "version"),
        ('{"format": "spots-state", "version": 2}', "unsupported state version 2"),
        ('{"format": "spots-state", "version": "1"}', "unsupported state version"),
        ('{"format": "spots-state", "version": 1}', "corrupt state"),
    ],
)
def test_documents_that_are_not_states(text: str, words: str) -> None:
    assert words in str(load(text))


def test_a_truncated_document_is_refused() -> None:
    text = base_state().to_json()
    for cut in range(0, len(text), max(1, len(text) // 97)):
        load(text[:cut])


@pytest.mark.parametrize("key", sorted(json.loads(spots.Game().new_initial_state().to_json())))
def test_a_missing_key_is_named(key: str) -> None:
    exc = load(edited((key,), delete=True))
    assert key in str(exc)


def _add_die_to_yard(yard: list[int]) -> list[int]:
    return [*yard, 1]


@pytest.mark.parametrize(
    ("path", "value", "words"),
    [
        (("rules",), "standard", "rules"),
        (("rules", "players"), 9, "bad rules"),
        (("rules", "players"), "two", "bad rules"),
        (("rules", "tricks"), ["walk", "fly"], "bad rules"),
        (("rules", "colour"), "red", "bad rules"),
        (("phase",), "napping", "unknown phase"),
        (("phase",), None, "phase"),
        (("seat",), "first", "corrupt state"),
        (("seat",), None, "corrupt state"),
        (("turn",), [1], "corrupt state"),
        (("players",), "xx", "corrupt state"),
        (("players",), [], "players"),
        (("players", 0), "me", "corrupt state"),
        (("players", 0, "dogs"), 5, "corrupt state"),
        (("players", 0, "dogs", 0, "name"), "fido", "fido"),
        (("players", 0, "dogs", 0, "filled"), [7], "spaces it lacks"),
        (("players", 0, "dogs", 0, "filled"), "12", ""),  # read as [1, 2]: refused only if the dog lacks them
        (("players", 0, "yard"), _add_die_to_yard, "dice do not add up"),
        (("players", 0, "yard"), [9], "not 1-6"),
        (("players", 0, "yard"), ["six"], "corrupt state"),
        (("players", 0, "treats"), lambda t: t + 1, "treats do not add up"),
        (("players", 0, "treats"), "many", "corrupt state"),
        (("supply",), [40, 20], "corrupt state"),
        (("supply", "dice"), lambda d: d + 1, "dice do not add up"),
        (("supply", "dice"), None, "corrupt state"),
        (("supply", "treats"), lambda t: t - 1, "treats do not add up"),
        (("tiles",), [], "tiles"),
        (("tiles", 0, "name"), "fly", "tiles"),
        (("tiles", 0, "treats"), 3, "treats do not add up"),
        (("deck",), None, "corrupt state"),
        (("deck", "top"), "fido", "fido"),
        (("deck", "rest"), ["fido"], "fido"),
        (("deck", "rest"), "burt", "unknown dog 'b'"),
        (("trick",), [1, 2], "corrupt state"),
        (("trick", "name"), "fly", "fly"),
        (("trick", "step"), "two", "corrupt state"),
        (("roll",), "6 6", "corrupt state"),
        (("roll", "dice"), None, "corrupt state"),
        (("roll", "dice"), lambda d: [*d, 6], "dice do not add up"),
        (("roll", "held"), 3, "corrupt state"),
        (("agenda",), [["fly-away"]], "unknown task"),
        (("agenda",), [[]], "unknown task"),
        (("agenda",), 7, "corrupt state"),
        (("tied",), ["a"], "corrupt state"),
        (("history",), 7, "corrupt state"),
    ],
)
def test_corrupt_fields_are_refused_with_a_clear_message(path: tuple[Any, ...], value: Any, words: str) -> None:
    exc = load(edited(path, value))
    assert words in str(exc)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("turn",), float("inf")),
        (("seat",), float("-inf")),
        (("turn",), float("nan")),
        (("supply", "dice"), float("inf")),
        (("players", 0, "treats"), float("inf")),
        (("trick", "step"), float("inf")),
    ],
)
def test_infinite_and_nan_numbers_are_refused(path: tuple[Any, ...], value: float) -> None:
    """JSON from Python may hold Infinity and NaN; int() of them must not escape as OverflowError."""
    load(edited(path, value))


@pytest.mark.parametrize(
    "text", [pytest.param("[" * 100_000, id="arrays"), pytest.param('{"a":' * 100_000, id="objects")]
)
def test_deeply_nested_json_is_refused(text: str) -> None:
    load(text)


def _supply_below_zero(kind: str) -> str:
    """The base state with one die or treat too many taken out of the supply, the totals still adding up.

    Dice go into the roll in hand, treats to seat 0; the supply is then -1.
    """
    doc = base_doc()
    moved = doc["supply"][kind] + 1
    if kind == "dice":
        doc["roll"]["dice"] = sorted(doc["roll"]["dice"] + [1] * moved)
    else:
        doc["players"][0]["treats"] += moved
    doc["supply"][kind] = -1
    return json.dumps(doc)


@pytest.mark.parametrize("kind", ["dice", "treats"])
def test_a_negative_supply_is_refused_even_when_the_totals_add_up(kind: str) -> None:
    message = str(load(_supply_below_zero(kind)))
    assert "supply" in message and "-1" in message


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("seat",), 5),
        (("seat",), -1),
        (("deck", "top"), ""),
        (("deck", "top"), 0),
        (("deck", "top"), False),
    ],
)
def test_values_that_would_break_the_game_later_are_refused_at_load(path: tuple[Any, ...], value: Any) -> None:
    """A state that loads must be playable: these slip past the loader and fail later."""
    load(edited(path, value))


# Random JSON values to put in place of parts of a valid document.
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 50)
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["walk", "wilbur", "roll", "turn", "yard", "chance-roll", "spots-state"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=8,
)


def paths_of(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = []
    if isinstance(doc, dict):
        for key, value in doc.items():
            out.append((*prefix, key))
            out.extend(paths_of(value, (*prefix, key)))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            out.append((*prefix, i))
            out.extend(paths_of(value, (*prefix, i)))
    return out


@st.composite
def mutated_documents(draw: st.DrawFn) -> str:
    base = draw(st.sampled_from([s for s in sampled_positions()[::7]] + [base_state()]))
    doc = json.loads(base.to_json())
    for _ in range(draw(st.integers(1, 3))):
        paths = paths_of(doc)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        op = draw(st.sampled_from(["delete", "replace", "replace", "add"]))
        if op == "delete":
            del parent[path[-1]]
        elif op == "replace":
            parent[path[-1]] = draw(json_values)
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = draw(json_values)
        else:
            parent.insert(path[-1], draw(json_values))
    return json.dumps(doc)


@SETTINGS
@given(text=mutated_documents())
def test_a_mutated_document_loads_or_raises_state_format_error(text: str) -> None:
    try:
        state = spots.State.from_json(text)
    except spots.StateFormatError as exc:
        assert str(exc)
        return
    # It loaded: it saves and loads back to itself.
    assert spots.State.from_json(state.to_json()) == state


# ----------------------------------------------------------------- records


def game_history(seed: int = 3, players: int = 3, steps: int = 400) -> tuple[spots.Rules, list[str]]:
    *_, state = random_play(seed, players, max_steps=steps)
    return state.rules, state.history()


@pytest.mark.parametrize("bad", ["jump", "place 9 wilbur", "reveal fido", "trick fly", "roll 1 1 1 1 1 1 1 1 1 1"])
def test_replay_names_the_bad_move(bad: str) -> None:
    rules, history = game_history()
    for k in [0, 1, 5, len(history) // 2, len(history) - 1]:
        moves = [*history[:k], bad, *history[k + 1 :]]
        with pytest.raises(ReplayError) as info:
            spots.replay(moves, rules)
        exc = info.value
        assert isinstance(exc, spots.IllegalMoveError)
        assert exc.index == k
        assert str(exc).startswith(f"move {k + 1} of the record")
        assert repr(bad) in str(exc)


def test_replay_of_a_move_legal_elsewhere_names_it() -> None:
    rules, history = game_history()
    k = next(i for i in range(40, len(history)) if history[i].startswith("trick"))
    moves = [*history[:k], "stop", *history[k:]]  # "stop" is no answer at the start of a turn
    with pytest.raises(ReplayError, match=f"^move {k + 1} of the record"):
        spots.replay(moves, rules)


def test_replay_takes_rules_as_a_dict_and_refuses_bad_rules() -> None:
    rules, history = game_history(steps=100)
    assert spots.replay(history, rules.to_dict()) == spots.replay(history, rules)
    with pytest.raises(spots.RulesError):
        spots.replay(history, {"players": 9})


def test_load_record_of_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(spots.StateFormatError, match="cannot read"):
        spots.load_record(tmp_path / "nowhere.json")
    with pytest.raises(spots.StateFormatError, match="cannot read"):
        spots.load_record(tmp_path)  # a directory


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"format": "chess"}', "'format' must be"),
        ('{"moves": []}', "'format' must be"),
        ('{"format": "spots-record", "version": 1, "rules": {}}', "the moves must be a list of strings"),
        ('{"format": "spots-record", "version": 1, "rules": {}, "moves": "score"}', "list of strings"),
        ('{"format": "spots-record", "version": 1, "rules": {}, "moves": [1, 2]}', "list of strings"),
        ('{"format": "spots-record", "version": 1, "rules": {"players": 0}, "moves": []}', "bad rules"),
        ('{"format": "spots-record", "version": 1, "rules": [], "moves": []}', "bad rules"),
        ('{"format": "spots-record", "version": 1, "moves": []}', "bad rules"),
        ('{"format": "spots-state", "rules": {}}', "list of strings"),
    ],
)
def test_load_record_of_a_bad_file(tmp_path: Path, content: str, words: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(content, "utf-8")
    with pytest.raises(spots.StateFormatError) as info:
        spots.load_record(path)
    assert words in str(info.value)
    assert str(path) in str(info.value)


def test_load_record_of_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe{\x00")
    with pytest.raises(spots.StateFormatError):
        spots.load_record(path)


def test_load_record_of_deeply_nested_json(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("[" * 100_000, "utf-8")
    with pytest.raises(spots.StateFormatError):
        spots.load_record(path)


def test_load_record_with_a_bad_move_names_it(tmp_path: Path) -> None:
    rules, history = game_history(steps=60)
    path = tmp_path / "game.json"
    doc = {"format": "spots-record", "version": 1, "rules": rules.to_dict(), "moves": [*history[:10], "jump"]}
    path.write_text(json.dumps(doc), "utf-8")
    with pytest.raises(ReplayError, match=r"^move 11 of the record"):
        spots.load_record(path)


def test_save_and_load_record_round_trip(tmp_path: Path) -> None:
    for seed in range(4):
        *_, state = random_play(seed, 1 + seed % 4, max_steps=300 + 50 * seed)
        path = tmp_path / f"game{seed}.json"
        spots.save_record(state, path)
        assert spots.load_record(path) == state
        # A saved state is a record too.
        saved = tmp_path / f"state{seed}.json"
        saved.write_text(state.to_json(), "utf-8")
        assert spots.load_record(saved) == state


# ----------------------------------------------------------------- round trips and clones


@pytest.mark.parametrize(("seed", "players"), [(0, 1), (1, 2), (2, 3), (3, 4), (4, 2)])
def test_json_round_trip_at_every_step(seed: int, players: int) -> None:
    steps = 0
    for state in random_play(seed, players, max_steps=700):
        text = state.to_json()
        loaded = spots.State.from_json(text)
        assert loaded == state
        assert loaded.to_json() == text
        assert loaded.legal_actions() == state.legal_actions()
        assert loaded.current_player() == state.current_player()
        assert loaded.is_terminal() == state.is_terminal()
        assert loaded.returns() == state.returns()
        steps += 1
    assert steps > 300


def play_on_together(a: State, b: State, seed: int, steps: int = 60) -> Iterator[None]:
    """Play the same random moves on two states, yielding after each."""
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    for _ in range(steps):
        if a.is_terminal():
            assert b.is_terminal()
            return
        assert a.legal_actions() == b.legal_actions()
        if a.is_chance_node():
            assert a.sample_chance(rng_a) == b.sample_chance(rng_b)
        else:
            move = rng_a.choice(a.legal_actions())
            assert move == rng_b.choice(b.legal_actions())
            a.apply_action(move)
            b.apply_action(move)
        yield


@pytest.mark.parametrize(("seed", "players"), [(10, 2), (11, 3), (12, 4), (13, 1)])
def test_a_loaded_state_plays_on_like_the_original(seed: int, players: int) -> None:
    for i, state in enumerate(random_play(seed, players, max_steps=600)):
        if i % 50 or state.is_terminal():
            continue
        loaded = spots.State.from_json(state.to_json())
        clone = state.clone()
        for _ in play_on_together(loaded, clone, i):
            pass
        assert loaded.history() == clone.history()
        assert loaded.returns() == clone.returns()


@pytest.mark.parametrize(("seed", "players"), [(10, 2), (11, 3), (12, 4), (13, 1)])
def test_a_loaded_state_stays_equal_to_the_original(seed: int, players: int) -> None:
    """Equal states stay equal under the same moves: no hidden field survives a save."""
    for i, state in enumerate(random_play(seed, players, max_steps=600)):
        if i % 50 or state.is_terminal():
            continue
        loaded = spots.State.from_json(state.to_json())
        clone = state.clone()
        assert loaded == clone
        for _ in play_on_together(loaded, clone, i):
            assert loaded.to_dict() == clone.to_dict(), f"diverged after {loaded.history()[-1]!r}"


@pytest.mark.parametrize(("seed", "players"), [(20, 1), (21, 2), (22, 3), (23, 4)])
def test_replay_of_the_history_rebuilds_the_state(seed: int, players: int) -> None:
    for i, state in enumerate(random_play(seed, players, max_steps=800)):
        if i % 97 == 0 or state.is_terminal():
            assert spots.replay(state.history(), state.rules) == state
    for state in terminal_positions():
        assert spots.replay(state.history(), state.rules) == state


def test_clones_are_independent() -> None:
    for seed, state in enumerate(sampled_positions()[::4]):
        if state.is_terminal():
            continue
        before = state.to_json()
        clone = state.clone()
        assert clone == state
        rng = random.Random(seed)
        for _ in range(80):
            if clone.is_terminal():
                break
            if clone.is_chance_node():
                clone.sample_chance(rng)
            else:
                clone.apply_action(rng.choice(clone.legal_actions()))
        assert state.to_json() == before, "playing on a clone changed the original"
        # And the other way round: playing on the original leaves an earlier clone alone.
        original = state.clone()  # stands for the original, keeping the cached position intact
        snapshot = original.clone()
        snapshot_before = snapshot.to_json()
        for _ in range(80):
            if original.is_terminal():
                break
            if original.is_chance_node():
                original.sample_chance(rng)
            else:
                original.apply_action(rng.choice(original.legal_actions()))
        assert snapshot.to_json() == snapshot_before, "playing on the original changed a clone"


def test_to_dict_is_a_copy() -> None:
    """Editing the plain data a state gives out must not edit the state."""
    for state in sampled_positions()[::5]:
        before = state.to_json()
        doc = state.to_dict()
        for value in doc.values():
            if isinstance(value, list):
                value.append(["x"])
            elif isinstance(value, dict):
                for inner in value.values():
                    if isinstance(inner, list):
                        inner.append(99)
        assert state.to_json() == before, "to_dict shares lists with the state"


@SETTINGS
@given(data=st.data())
def test_refused_moves_leave_clones_and_originals_alike(data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(decision_positions()))
    clone = state.clone()
    move = data.draw(st.sampled_from(WELL_FORMED + MALFORMED))
    assume(move not in clone.legal_actions())
    with pytest.raises(spots.IllegalMoveError):
        clone.apply_action(move)
    assert clone == state
