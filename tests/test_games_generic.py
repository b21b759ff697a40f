"""Tests every game of the package passes, written against the game registry and the ``GameState`` protocol only.

Like OpenSpiel's generic game tests: random playouts that check the interface at
every step (whose move, legal moves, chance probabilities, refusals that change
nothing), serialization and replay round trips, clones and seeded determinism,
records, options schemas, words, hints and rendering. A new game joins by
registering its spec (``spots.core.games``); each of its ``quick`` option sets is played. Games from outside
the package run them too: Take (``tests/take``, a plugin in a folder of its own, registered around each test as
``SPOTS_GAMES=take`` would) and any other game ``SPOTS_GAMES`` names.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from spots.core import CHANCE, TERMINAL, Advice, GameState, IllegalMoveError, ReplayError, games, play_game, replay
from spots.core.bots import make_bot
from spots.core.errors import MalformedMoveError, RulesError, StateFormatError
from spots.core.games import GameSpec, get, registry, sniff, spec_of_rules
from take import SPEC as TAKE

pytestmark = pytest.mark.timeout(300)

Registry = dict[str, Callable[..., Any]]


def every_game() -> dict[str, GameSpec]:
    """The registered games (the built-in ones and any ``SPOTS_GAMES`` names), and Take."""
    found = dict(registry())
    found.setdefault(TAKE.name, TAKE)
    return found


@pytest.fixture(autouse=True)
def plugged() -> Iterator[None]:
    """Take registered for the test, as a server with ``SPOTS_GAMES=take`` has it (then gone again)."""
    added = TAKE.name not in registry()
    if added:
        games.register(TAKE)
    try:
        yield
    finally:
        if added:
            games.unregister(TAKE.name)


def variants() -> dict[str, tuple[GameSpec, dict[str, Any]]]:
    """Every game with each of its quick option sets: ``spots-0``, ``double-spot-1``, ``take-0``, ..."""
    return {f"{spec.name}-{i}": (spec, dict(options)) for spec in every_game().values()
            for i, options in enumerate(spec.quick)}


def entry(spec: GameSpec, options: dict[str, Any]) -> tuple[Callable[[], Any], Callable[[str], Any], Registry, int]:
    """(a fresh initial state, rebuild a state from its JSON, the game's bots, players)."""
    rules = spec.make_rules(**options)
    return (lambda: spec.new_state(rules), lambda text: spec.load(json.loads(text), "state"), dict(spec.bots),
            spec.seats(rules))


# name -> (a fresh initial state, rebuild a state from its JSON, the game's bots, players)
GAMES: dict[str, tuple[Callable[[], Any], Callable[[str], Any], Registry, int]] = {
    name: entry(spec, options) for name, (spec, options) in variants().items()
}
SPECS = list(every_game())


def step(state: Any, rng: random.Random) -> str:
    """One random step: a chance outcome by its probability, else a uniform legal move for the mover."""
    assert not state.is_terminal(), "the game is over: nothing to step"
    if state.is_chance_node():
        return str(state.sample_chance(rng))
    move = rng.choice(state.legal_actions())
    state.apply_action(move, player=state.current_player())
    return str(move)


def walk(state: Any, rng: random.Random, count: int) -> Any:
    """Up to ``count`` random steps, fewer where the game ends sooner (Take may end in four)."""
    for _ in range(count):
        if state.is_terminal():
            break
        step(state, rng)
    return state


def check_interface(state: Any) -> None:
    """What must hold at every position, whatever the game."""
    assert isinstance(state, GameState)
    player = state.current_player()
    if state.is_terminal():
        assert player == TERMINAL and state.legal_actions() == [] and state.chance_outcomes() == []
        returns = state.returns()
        assert all(0 <= r <= 1 for r in returns) and sum(returns) > 0
    elif state.is_chance_node():
        assert player == CHANCE
        outcomes = state.chance_outcomes(exact=True)
        assert outcomes and sum(p for _, p in outcomes) == 1 and all(isinstance(p, Fraction) for _, p in outcomes)
        assert all(m in state.legal_actions() for m, _ in outcomes)
        assert abs(sum(p for _, p in state.chance_outcomes()) - 1) < 1e-9
    else:
        assert player >= 0 and state.legal_actions()
        assert len(set(state.legal_actions())) == len(state.legal_actions())


def refusals_change_nothing(state: Any) -> None:
    """A malformed move, and a legal move sent for the wrong seat, raise and leave the state as it was."""
    before = state.to_json()
    for bad in ("", "fly away", "drop 99 blue 7", "place 9 nobody"):
        with pytest.raises(IllegalMoveError):
            state.apply_action(bad)
        assert state.to_json() == before
    if not state.is_chance_node() and not state.is_terminal():
        wrong = (state.current_player() + 1) % 2 if state.current_player() in (0, 1) else 0
        with pytest.raises(IllegalMoveError):
            state.apply_action(state.legal_actions()[0], player=wrong)
        assert state.to_json() == before


@pytest.mark.parametrize("game", list(GAMES))
def test_random_playouts_keep_the_interface(game: str) -> None:
    new = GAMES[game][0]
    for seed in range(40):
        rng = random.Random(seed)
        state = new()
        steps = 0
        while not state.is_terminal():
            check_interface(state)
            if steps % 17 == 0:
                refusals_change_nothing(state)
            step(state, rng)
            steps += 1
            assert steps < 20_000, "a game must end"
        check_interface(state)
        refusals_change_nothing(state)
        with pytest.raises(IllegalMoveError):
            state.apply_action("anything")


@pytest.mark.parametrize("game", list(GAMES))
def test_serialization_and_replay_round_trips_at_every_step(game: str) -> None:
    new, from_json = GAMES[game][:2]
    for seed in range(4):
        rng = random.Random(1000 + seed)
        state = new()
        while not state.is_terminal():
            again = from_json(state.to_json())
            assert again.to_json() == state.to_json() and again.legal_actions() == state.legal_actions()
            if len(state.history()) % 4 == 0:
                assert replay(new, state.history()).to_json() == state.to_json()
            step(state, rng)
        assert from_json(state.to_json()).returns() == state.returns()


@pytest.mark.parametrize("game", list(GAMES))
def test_clones_are_independent_and_seeds_repeat_games(game: str) -> None:
    new, _, registry, players = GAMES[game]
    state = walk(new(), random.Random(5), 25)
    rng = random.Random(6)
    copy = state.clone()
    frozen = copy.to_json()
    for _ in range(25):
        if state.is_terminal():
            break
        step(state, rng)
    assert copy.to_json() == frozen

    def game_with(seed: int) -> list[str]:
        name = "greedy" if "greedy" in registry else next(iter(registry))
        bots = [make_bot(registry, name, seed=seed + s) for s in range(players)]
        return list(play_game(new(), bots, random.Random(seed)).history())

    assert game_with(7) == game_with(7)
    assert len({tuple(game_with(seed)) for seed in range(7, 12)}) > 1  # other seeds, other games


@pytest.mark.parametrize("game", list(GAMES))
def test_a_bad_record_names_its_first_bad_move(game: str) -> None:
    new = GAMES[game][0]
    history = walk(new(), random.Random(3), 12).history()
    at = min(6, len(history) - 1)
    with pytest.raises(ReplayError) as err:
        replay(new, [*history[:at], "nonsense move", *history[at:]])
    assert str(err.value).startswith(f"move {at + 1} of the record:") and "'nonsense move'" in str(err.value)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_malformed_move_and_an_illegal_one_are_told_apart_by_type(game: str) -> None:
    """Text that is no move at all raises MalformedMoveError; a well-formed move that is not legal here (one played
    earlier) raises a plain IllegalMoveError. Both change nothing."""
    spec = variants()[game][0]
    assert spec.malformed, "each game gives a few malformed moves of its own notation (GameSpec.malformed)"
    state = walk(GAMES[game][0](), random.Random(5), 12)
    if state.is_terminal():  # one step back: a position with a move to make
        state = replay(GAMES[game][0], state.history()[:-1])
    before = state.to_json()
    for garbage in ("nonsense move", "", *spec.malformed):
        with pytest.raises(MalformedMoveError):
            state.apply_action(garbage)
        assert state.to_json() == before, garbage
    played = next((m for m in state.history() if m not in state.legal_actions()), None)
    if played is None:  # every move made so far is legal again (Take): the next seat's move sent out of turn
        played = state.legal_actions()[0]
        with pytest.raises(IllegalMoveError) as err:
            state.apply_action(played, player=1 - state.current_player())
        assert not isinstance(err.value, MalformedMoveError), err.value
        assert state.to_json() == before
        return
    with pytest.raises(IllegalMoveError) as err:
        state.apply_action(played)
    assert not isinstance(err.value, MalformedMoveError), err.value
    assert state.to_json() == before


@pytest.mark.parametrize("game", list(GAMES))
def test_every_bot_of_the_game_plays_only_legal_moves(game: str) -> None:
    new, _, registry, players = GAMES[game]
    for name in registry:
        if name in ("mcts", "expectimax") and players > 2:
            continue  # slow with four players; covered by the bots' own tests
        bot = make_bot(registry, name, seed=1, **({"iterations": 60} if name == "mcts" else {}))
        state, rng = new(), random.Random(11)
        for _ in range(60):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.sample_chance(rng)
                continue
            try:
                move = bot.choose(state.clone())
            except ValueError as exc:  # the exact policy plays only its solved variants, and says so
                assert name == "optimal" and "no solution for these rules" in str(exc), (name, exc)
                break
            assert move in state.legal_actions(), (name, move)
            state.apply_action(move, player=state.current_player())


# --------------------------------------------------------------------------- the registry's own promises


@pytest.mark.parametrize("name", SPECS)
def test_the_options_schema_matches_the_rules(name: str) -> None:
    spec = get(name)
    assert spec.make_rules() == spec.rules(), "the schema's defaults are the rules' defaults"
    for option in spec.options:
        assert option.label and option.help and option.flag.startswith("--")
        if option.default is not None:
            assert spec.check_options({option.name: option.default}) == {option.name: option.default}
            assert spec.make_rules(**{option.name: option.default}) == spec.rules()
        if option.kind == "int":
            for bad in ("3", 2.0, True):
                with pytest.raises(RulesError, match=f"{option.name} must be a whole number"):
                    spec.make_rules(**{option.name: bad})
            if option.low is not None:
                with pytest.raises(RulesError, match=option.name):
                    spec.make_rules(**{option.name: option.low - 1})
        if option.kind == "choice":
            with pytest.raises(RulesError, match="must be one of"):
                spec.make_rules(**{option.name: "no-such-choice"})
    with pytest.raises(RulesError, match="unknown option 'colour'") as info:
        spec.make_rules(colour="red")
    assert all(o.name in str(info.value) for o in spec.options)
    assert spec_of_rules(spec.make_rules()) is spec
    assert json.loads(json.dumps(spec.to_json()))["name"] == spec.name


@pytest.mark.parametrize("game", list(GAMES))
def test_records_round_trip_through_one_record_type(game: str, tmp_path: Path) -> None:
    spec = variants()[game][0]
    state, rng = GAMES[game][0](), random.Random(9)
    for _ in range(40):
        if state.is_terminal():
            break
        step(state, rng)
    path = tmp_path / "game.json"
    seats = [next(iter(spec.bots))] * spec.seats(state.rules)
    spec.record(state, seats=seats, seed=4).save(path)
    assert not list(tmp_path.glob("*.tmp")), "the atomic write leaves no temporary file"
    found, doc = sniff(str(path))
    assert found is spec and doc["format"] == spec.records.record
    record = spec.open_record(str(path))
    assert (record.moves, record.seats, record.seed) == (state.history(), seats, 4)
    assert record.rules == state.rules and record.replay().to_json() == state.to_json()
    assert spec.load(doc, str(path)).to_json() == state.to_json()
    saved = tmp_path / "state.json"
    saved.write_text(state.to_json())
    assert sniff(str(saved))[0] is spec and spec.records.load(saved).to_json() == state.to_json()
    other = next((s for s in registry().values() if s is not spec), None)
    if other is not None:  # a record is never mistaken for another game's
        with pytest.raises(StateFormatError, match=f"not a {other.title} record"):
            other.records.load(path)
    doc["moves"] = [*doc["moves"][:3], "nonsense move"]
    path.write_text(json.dumps(doc))
    with pytest.raises(ReplayError, match=f"^move 4 of the record {path}"):
        spec.records.load(path)


@pytest.mark.parametrize("game", list(GAMES))
def test_words_hints_and_text_for_every_position(game: str) -> None:
    spec, _ = variants()[game]
    state, rng = GAMES[game][0](), random.Random(21)
    for index in range(30):
        if state.is_terminal():
            break
        before = state.clone()
        move = step(state, rng)
        line = spec.describe_move(before, move, state)
        assert isinstance(line, str) and line.strip(), (move, line)
        assert spec.render(state).strip()
        if index % 10 == 3 and not state.is_terminal() and not state.is_chance_node():
            advice = spec.advise(state.clone(), seed=1)
            assert advice and all(isinstance(a, Advice) for a in advice)
            assert sorted(a.move for a in advice) == sorted(state.legal_actions())
    first = GAMES[game][0]()
    if first.is_chance_node():  # Spots and Double Spot open on a chance event; Take has none
        assert spec.advise(first) == [], "no hint at a chance node"
    assert spec.advise(walk(first, random.Random(22), 10_000)) == [], "no hint once the game is over"
