"""Property tests of the move notation (section 10 of the rules).

Every move kind round-trips through ``parse`` and ``str``; sloppy spellings read
as the canonical form; any text either parses or raises IllegalMoveError; and
every move the engine offers (decisions and chance outcomes) is canonical.
"""

from __future__ import annotations

import random
import string
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import spots
from spots.games.spots import canonical
from spots.games.spots.notation import FORMS, MAX_TEXT
from spots.games.spots.tricks import TILES
from support.spots import random_play

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

DOGS = list(spots.Rules().cards)
TILE_NAMES = list(spots.TILES)

faces = st.integers(min_value=1, max_value=6)
# Names as the notation allows them: the real dogs and tiles, and any other well-formed name.
names = st.one_of(
    st.sampled_from(DOGS),
    st.sampled_from(TILE_NAMES),
    st.from_regex(r"[a-z0-9][a-z0-9'.&-]{0,14}", fullmatch=True),
)


def dice(min_size: int = 0, max_size: int = 8) -> st.SearchStrategy[tuple[int, ...]]:
    return st.lists(faces, min_size=min_size, max_size=max_size).map(lambda v: tuple(sorted(v)))


def M(kind: str, *args: int | str) -> spots.Move:
    return spots.Move(kind, tuple(args))


# One strategy per move kind, building canonical Move values.
MOVES_BY_KIND: dict[str, st.SearchStrategy[spots.Move]] = {
    "score": st.just(M("score")),
    "continue": st.just(M("continue")),
    "stop": st.just(M("stop")),
    "reroll": dice(0, 6).map(lambda d: M("reroll", *d)),
    "trick": names.map(lambda n: M("trick", n)),
    "place": st.tuples(faces, names).map(lambda a: M("place", *a)),
    "bury": faces.map(lambda v: M("bury", v)),
    "choose": faces.map(lambda v: M("choose", v)),
    "pick": dice(1, 7).map(lambda d: M("pick", *d)),
    "discard": dice(0, 4).map(lambda d: M("discard", *d)),
    "set-aside": st.integers(min_value=0, max_value=999).map(lambda n: M("set-aside", n)),
    "dig": st.tuples(st.integers(0, 9), faces, st.sampled_from(["up", "down"])).map(lambda a: M("dig", *a)),
    "move": st.tuples(names, faces, names, faces).map(lambda a: M("move", *a)),
    "take": st.tuples(st.one_of(st.just("yard"), names), faces).map(lambda a: M("take", *a)),
    "roll": dice(1, 12).map(lambda d: M("roll", *d)),
    "reveal": names.map(lambda n: M("reveal", n)),
}
DICE_LIST_KINDS = ("reroll", "pick", "discard", "roll")


def test_every_kind_has_a_strategy() -> None:
    assert set(MOVES_BY_KIND) == set(FORMS)


moves = st.one_of(*MOVES_BY_KIND.values())


# ----------------------------------------------------------------- round trips


@pytest.mark.parametrize("kind", sorted(FORMS))
@SETTINGS
@given(data=st.data())
def test_canonical_moves_round_trip(kind: str, data: st.DataObject) -> None:
    move = data.draw(MOVES_BY_KIND[kind])
    text = str(move)
    parsed = spots.parse(text)
    assert parsed == move
    assert str(parsed) == text
    assert canonical(text) == text
    assert parsed.kind == kind
    # Canonical text: lower case, single spaces, no padding.
    assert text == " ".join(text.split())
    assert text == text.lower()


@SETTINGS
@given(move=moves)
def test_parse_of_str_is_identity(move: spots.Move) -> None:
    assert spots.parse(str(move)) == move


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("score", M("score")),
        ("trick walk", M("trick", "walk")),
        ("trick roll-over", M("trick", "roll-over")),
        ("reroll", M("reroll")),
        ("reroll 2 5", M("reroll", 2, 5)),
        ("place 4 wilbur", M("place", 4, "wilbur")),
        ("place 3 lil-beth", M("place", 3, "lil-beth")),
        ("bury 6", M("bury", 6)),
        ("choose 4", M("choose", 4)),
        ("pick 3 5", M("pick", 3, 5)),
        ("discard 1 2", M("discard", 1, 2)),
        ("discard", M("discard")),
        ("set-aside 5", M("set-aside", 5)),
        ("dig 1 4 up", M("dig", 1, 4, "up")),
        ("dig 0 1 down", M("dig", 0, 1, "down")),
        ("move wilbur 3 doog 6", M("move", "wilbur", 3, "doog", 6)),
        ("take yard 5", M("take", "yard", 5)),
        ("take doog 6", M("take", "doog", 6)),
        ("continue", M("continue")),
        ("stop", M("stop")),
        ("roll 1 3 3 6", M("roll", 1, 3, 3, 6)),
        ("reveal wilbur", M("reveal", "wilbur")),
    ],
)
def test_the_rules_table_examples(text: str, expected: spots.Move) -> None:
    """Every example of the table in section 10 parses to the expected move and prints back."""
    assert spots.parse(text) == expected
    assert str(expected) == text


# ----------------------------------------------------------------- sloppy spellings

blanks = st.text(alphabet=" \t", min_size=1, max_size=3)
pads = st.text(alphabet=" \t\n", max_size=3)


@st.composite
def sloppy(draw: st.DrawFn) -> tuple[str, spots.Move]:
    """A canonical move and a non-canonical spelling of it."""
    move = draw(moves)
    args = [str(a) for a in move.args]
    if move.kind in DICE_LIST_KINDS:
        args = draw(st.permutations(args))
    if move.kind == "set-aside":
        args = [args[0].zfill(draw(st.integers(len(args[0]), 3)))]  # leading zeros, at most 3 digits
    tokens = [move.kind, *args]
    # Random case, letter by letter.
    tokens = ["".join(draw(st.sampled_from([c.lower(), c.upper()])) for c in t) for t in tokens]
    text = draw(pads)
    for i, token in enumerate(tokens):
        text += (draw(blanks) if i else "") + token
    text += draw(pads)
    return text, move


@SETTINGS
@given(case=sloppy())
@example(case=("ROLL 6 1 3 3", M("roll", 1, 3, 3, 6)))
@example(case=("  Place   4\tWilbur ", M("place", 4, "wilbur")))
@example(case=("reroll 5 2", M("reroll", 2, 5)))
@example(case=("set-aside 012", M("set-aside", 12)))
@example(case=("Dig 1 4 UP", M("dig", 1, 4, "up")))
def test_non_canonical_spellings_parse_to_the_canonical_move(case: tuple[str, spots.Move]) -> None:
    text, move = case
    assert spots.parse(text) == move
    assert canonical(text) == str(move)


# ----------------------------------------------------------------- arbitrary text

# Tokens that look like move parts, including look-alike digits that str.isdigit accepts.
near_tokens = st.one_of(
    st.sampled_from(list(FORMS)),
    st.sampled_from(["0", "1", "6", "7", "10", "012", "1000", "-1", "yard", "up", "down", "wilbur", "walk"]),
    st.sampled_from(["²", "³", "١", "٣", "①", "߁", "𝟙", "Ⅻ", "½", "1.5", "٣٣"]),
    st.text(alphabet=string.ascii_letters + string.digits + "-'.&_", min_size=1, max_size=6),
    st.text(min_size=1, max_size=4).filter(lambda t: not t.isspace()),
)
near_moves = st.lists(near_tokens, min_size=0, max_size=6).map(" ".join)
any_text = st.one_of(
    st.text(),
    st.text(max_size=300),
    near_moves,
    st.builds(lambda k, t: f"{k} {t}", st.sampled_from(list(FORMS)), st.text(max_size=20)),
)


def check_parse_or_illegal(text: str) -> None:
    try:
        move = spots.parse(text)
    except spots.IllegalMoveError as exc:
        assert isinstance(exc, ValueError)
        assert "malformed move" in str(exc)
        assert exc.reason.startswith("malformed move")
        return
    # It parsed: its canonical text is a fixed point.
    assert move.kind in FORMS
    assert spots.parse(str(move)) == move
    assert canonical(str(move)) == str(move)


@SETTINGS
@given(text=any_text)
@example(text="set-aside ²")
@example(text="dig ² 1 up")
@example(text="dig ١ 1 up")
@example(text="set-aside ١٢")
@example(text="place ١ wilbur")
@example(text="roll ①")
@example(text="\x00")
@example(text="ﬃ")
@example(text="İ")
def test_arbitrary_text_parses_or_raises_illegal_move(text: str) -> None:
    check_parse_or_illegal(text)


@pytest.mark.parametrize("text", ["set-aside ²", "dig ² 1 up", "set-aside 1²", "dig ³ 1 down"])
def test_superscript_digits_are_not_counts_or_seats(text: str) -> None:
    """``str.isdigit`` accepts superscripts, which ``int`` cannot read: still a malformed move."""
    with pytest.raises(spots.IllegalMoveError, match="malformed move"):
        spots.parse(text)


@pytest.mark.parametrize("value", [None, 5, 4.5, b"score", ["score"], ("score",), object()])
def test_non_text_is_refused(value: object) -> None:
    with pytest.raises(spots.IllegalMoveError, match="a move is text"):
        spots.parse(value)


# ----------------------------------------------------------------- malformed moves name the problem


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty"),
        ("   \t ", "empty"),
        ("jump", "unknown move 'jump'"),
        ("trick", "expected the form 'trick <tile>'"),
        ("trick walk run", "expected the form 'trick <tile>'"),
        ("score now", "expected the form 'score'"),
        ("continue 1", "expected the form 'continue'"),
        ("stop please", "expected the form 'stop'"),
        ("place 4", "expected the form 'place <die> <dog>'"),
        ("place 7 wilbur", "'7' is not a die face from 1 to 6"),
        ("place 0 wilbur", "'0' is not a die face"),
        ("place four wilbur", "'four' is not a die face"),
        ("place 4 wil_bur", "'wil_bur' is not a name"),
        ("place 4 -wilbur", "'-wilbur' is not a name"),
        ("bury", "expected the form 'bury <die>'"),
        ("bury 6 6", "expected the form 'bury <die>'"),
        ("bury x", "'x' is not a die face"),
        ("choose 9", "'9' is not a die face"),
        ("pick", "expected the form 'pick <dice>'"),
        ("pick 3 8", "'8' is not a die face"),
        ("roll", "expected the form 'roll <dice>'"),
        ("roll 1 2 x", "'x' is not a die face"),
        ("reroll 0", "'0' is not a die face"),
        ("discard 1 7", "'7' is not a die face"),
        ("set-aside", "expected the form 'set-aside <count>'"),
        ("set-aside many", "'many' is not a count of dice"),
        ("set-aside -3", "'-3' is not a count of dice"),
        ("set-aside 1000", "'1000' is not a count of dice"),
        ("dig 0 3", "expected the form 'dig <seat> <die> up|down'"),
        ("dig x 3 up", "'x' is not a seat number"),
        ("dig 10 3 up", "'10' is not a seat number"),
        ("dig 0 3 sideways", "'sideways' must be 'up' or 'down'"),
        ("dig 0 9 up", "'9' is not a die face"),
        ("move wilbur 3 doog", "expected the form 'move <dog> <die> <dog> <die>'"),
        ("move wilbur 3 doog 8", "'8' is not a die face"),
        ("take yard", "expected the form 'take yard <die>  |  take <dog> <die>'"),
        ("take yard 0", "'0' is not a die face"),
        ("reveal", "expected the form 'reveal <dog>'"),
        ("reveal lil beth", "expected the form 'reveal <dog>'"),
        ("reveal lil_beth", "'lil_beth' is not a name"),
        ("x" * (MAX_TEXT + 1), f"{MAX_TEXT + 1} characters; a move has at most {MAX_TEXT}"),
    ],
)
def test_malformed_moves_name_the_problem(text: str, problem: str) -> None:
    with pytest.raises(spots.IllegalMoveError) as info:
        spots.parse(text)
    exc = info.value
    message = str(exc)
    assert problem in message
    assert message.startswith("malformed move (")
    if len(text) <= MAX_TEXT:
        assert exc.move == text
        assert repr(text) in message
    # The error lists the forms a move can take.
    assert exc.legal == list(FORMS.values())
    assert ", ".join(list(FORMS.values())[:3]) in message


@pytest.mark.parametrize("name", sorted(set(TILES) - set(FORMS)))
def test_a_trick_name_alone_is_the_trick(name: str) -> None:
    """A player may type 'walk' for 'trick walk' (any case, any spaces): no move begins with those words."""
    assert spots.parse(name) == M("trick", name)
    assert canonical(f"  {name.upper()} ") == f"trick {name}"


def test_a_trick_name_that_is_also_a_move_needs_the_word_trick() -> None:
    """'dig' begins the Dig adjustment move (`dig 1 4 up`), so the trick is only 'trick dig'; the error says so."""
    assert sorted(set(TILES) & set(FORMS)) == ["dig"]
    with pytest.raises(spots.IllegalMoveError, match="the trick is 'trick dig'"):
        spots.parse("dig")
    with pytest.raises(spots.IllegalMoveError, match="unknown move 'walk'"):
        spots.parse("walk 2")  # a name alone, nothing after it


def test_a_move_text_of_exactly_the_length_limit_is_read() -> None:
    """The limit counts every character, spaces included: MAX_TEXT is read, one more is refused."""
    longest = "roll" + " 1" * ((MAX_TEXT - 4) // 2)
    assert len(longest) == MAX_TEXT
    assert spots.parse(longest) == spots.Move("roll", (1,) * ((MAX_TEXT - 4) // 2))
    assert spots.parse("  stop".ljust(MAX_TEXT)) == spots.Move("stop")
    with pytest.raises(spots.IllegalMoveError, match=f"{MAX_TEXT + 1} characters; a move has at most {MAX_TEXT}"):
        spots.parse(longest + " ")
    # The longest move a default game can make, a roll of all 40 dice, is well inside the limit.
    assert len("roll" + " 6" * spots.Rules().dice) < MAX_TEXT


# ----------------------------------------------------------------- the engine's own moves are canonical


def assert_canonical(move: str) -> None:
    assert canonical(move) == move, f"non-canonical move {move!r} (canonical: {canonical(move)!r})"
    assert str(spots.parse(move)) == move


GAMES = [(seed, 1 + seed % 4, "all") for seed in range(12)] + [
    (100 + seed, 1 + seed % 4, "beginner") for seed in range(4)
]


@pytest.mark.parametrize(("seed", "players", "tricks"), GAMES)
def test_legal_moves_and_chance_outcomes_are_canonical(seed: int, players: int, tricks: str) -> None:
    decisions = chance = 0
    for state in random_play(seed, players, tricks):
        if state.is_terminal():
            assert state.legal_actions() == []
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if len(outcomes) > 60:  # a roll of many dice: too many outcomes to check at every node
                continue
            chance += 1
            legal = state.legal_actions()
            assert legal == [o for o, _ in outcomes]
            assert len(set(legal)) == len(legal)
            for move in legal:
                assert_canonical(move)
            exact = state.chance_outcomes(exact=True)
            assert sum((p for _, p in exact), Fraction(0)) == 1
            continue
        decisions += 1
        legal = state.legal_actions()
        assert legal, f"no legal move at a decision node: {state!r}"
        assert len(set(legal)) == len(legal), f"duplicate legal moves {legal}"
        for move in legal:
            assert_canonical(move)
    assert decisions > 200
    assert chance > 100


def test_random_play_offers_every_move_kind() -> None:
    """The games above exercise every kind of decision (a guard against a vacuous test)."""
    kinds: set[str] = set()
    for seed, players, tricks in GAMES:
        for state in random_play(seed, players, tricks):
            if not state.is_terminal():
                kinds.update(
                    m.split()[0] for m in state.legal_actions() if not state.is_chance_node() or state.pending_dice <= 2
                )
    assert kinds == set(FORMS)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_sampled_chance_outcomes_are_canonical_and_legal(players: int) -> None:
    rng = random.Random(players)
    state = spots.Game(spots.Rules(players=players, tricks="all")).new_initial_state()
    for _ in range(2000):
        if state.is_terminal():
            break
        if state.is_chance_node():
            legal = set(state.legal_actions())
            text = state.sample_chance(rng)
            assert_canonical(text)
            assert text in legal
            assert state.history()[-1] == text
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert all(canonical(m) == m for m in state.history())
