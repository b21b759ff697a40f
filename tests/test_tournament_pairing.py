"""Tournaments' pairings and standings on hand-worked cases (docs/tournaments.md says the rules these check)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from spots.tournaments import (
    GameResult,
    SameDice,
    arena_points,
    arena_standings,
    arena_tables,
    game_points,
    places,
    round_robin,
    same_dice,
    standings,
    swiss_round,
    table_sizes,
)
from spots.tournaments.pairing import meetings


def win(round_: int, winner: str, loser: str) -> GameResult:
    return GameResult(round_, (winner, loser), (1, 2))


def bye(round_: int, player: str) -> GameResult:
    return GameResult(round_, (player,), (1,))


def play_round(tables: list, round_: int, first_wins: bool = True) -> list[GameResult]:
    """Every table's first seat wins (or the last), others by seat order; a bye is a bye."""
    out = []
    for table in tables:
        order = table.players if first_wins else tuple(reversed(table.players))
        out.append(GameResult(round_, order, tuple(range(1, len(order) + 1))))
    return out


def test_a_round_has_as_few_tables_as_the_seats_allow_as_even_as_can_be() -> None:
    assert table_sizes(13, 4) == [4, 3, 3, 3]
    assert table_sizes(16, 4) == [4, 4, 4, 4]
    assert table_sizes(6, 4) == [3, 3]
    assert table_sizes(7, 3) == [3, 2, 2]
    assert table_sizes(5, 2) == [2, 2, 1]  # only at two seats is anyone left over: a bye
    with pytest.raises(ValueError, match="2, 3, 4 seats, not 5"):
        table_sizes(10, 5)


def test_places_follow_the_winner_then_the_scores_and_ties_share() -> None:
    assert places(1, [3, 5, 2]) == (2, 1, 3)
    assert places(2, [4, 4, 4, 1]) == (2, 2, 1, 4)  # the winner's score does not matter; equal others share
    assert places(None, [2, 2, 1]) == (1, 1, 3)  # the turn limit: the scores alone
    assert places(0, [5, 5]) == (1, 2)


def test_points_are_the_share_of_opponents_beaten_so_a_win_is_one_at_any_table() -> None:
    four = GameResult(1, ("a", "b", "c", "d"), (1, 2, 2, 4))
    assert [game_points(four, p) for p in "abcd"] == [1.0, 0.5, 0.5, 0.0]
    three = GameResult(1, ("a", "b", "c"), (1, 2, 3))
    assert [game_points(three, p) for p in "abc"] == [1.0, 0.5, 0.0]
    assert game_points(GameResult(1, ("a", "b"), (1, 1)), "b") == 0.5  # a draw
    assert game_points(bye(1, "a"), "a") == 1.0


def test_bots_filling_a_table_are_opponents_to_beat_but_not_in_the_standings() -> None:
    against_a_bot = GameResult(1, ("a",), (1,), others=(2,))  # a bye played against the filling bot, and won
    assert not against_a_bot.bye and game_points(against_a_bot, "a") == 1.0 and against_a_bot.won("a")
    lost = GameResult(1, ("b",), (2,), others=(1,))
    assert game_points(lost, "b") == 0.0 and not lost.won("b")
    short = GameResult(1, ("a", "b", "c"), (2, 1, 4), others=(3,))  # three entrants and a bot at a table of four
    assert [game_points(short, p) for p in "abc"] == [pytest.approx(2 / 3), 1.0, 0.0]
    lines = {line.player: line for line in standings("abc", [short, GameResult(2, ("c",), (1,), others=(2,))])}
    assert set(lines) == {"a", "b", "c"} and lines["c"].points == 1.0 and lines["c"].byes == 0
    assert lines["c"].buchholz == pytest.approx((2 / 3 + 1) / 2 + 1.0)  # the bot-only game: c's own points


def test_a_game_result_refuses_what_cannot_be() -> None:
    with pytest.raises(ValueError, match="one place per player"):
        GameResult(1, ("a", "b"), (1,))
    with pytest.raises(ValueError, match="sits twice"):
        GameResult(1, ("a", "a"), (1, 2))
    with pytest.raises(ValueError, match="unknown tie-break 'coin'"):
        standings("ab", [], ("coin",))


def hand_worked() -> list[GameResult]:
    # R1: A beats B, C beats D, E has the bye. R2: A beats D, E beats C, B has the bye.
    return [win(1, "A", "B"), win(1, "C", "D"), bye(1, "E"), win(2, "A", "D"), win(2, "E", "C"), bye(2, "B")]


def test_buchholz_and_sonneborn_berger_as_worked_by_hand() -> None:
    lines = {line.player: line for line in standings("ABCDE", hand_worked())}
    # Points: A 2, E 2 (a bye and a win), B 1 (a bye), C 1, D 0.
    assert {p: lines[p].points for p in "ABCDE"} == {"A": 2, "B": 1, "C": 1, "D": 0, "E": 2}
    # Buchholz: A met B (1) and D (0): 1. E's bye counts as a virtual opponent with E's own 2, and C (1): 3.
    assert lines["A"].buchholz == 1 and lines["E"].buchholz == 3
    # B: A (2) and a bye (B's own 1): 3. C: D (0) and E (2): 2.
    assert lines["B"].buchholz == 3 and lines["C"].buchholz == 2
    # Sonneborn-Berger: the points earned in each game times that opponent's points. A: 1x1 + 1x0. E: 1x2 + 1x1.
    assert lines["A"].sonneborn_berger == 1 and lines["E"].sonneborn_berger == 3
    assert [line.player for line in standings("ABCDE", hand_worked())] == ["E", "A", "B", "C", "D"]
    assert [line.rank for line in standings("ABCDE", hand_worked())] == [1, 2, 3, 4, 5]


def test_the_luck_tie_break_puts_who_needed_less_luck_first() -> None:
    results = hand_worked()
    results[3] = GameResult(2, ("A", "D"), (1, 2), luck=(-0.4, 0.4))  # A won against the dice
    results[4] = GameResult(2, ("E", "C"), (1, 2), luck=(0.3, -0.3))  # E won with them
    assert [line.player for line in standings("ABCDE", results)][:2] == ["E", "A"]
    lucky_last = standings("ABCDE", results, ("luck", "buchholz"))
    assert [line.player for line in lucky_last][:2] == ["A", "E"]
    assert lucky_last[0].luck == pytest.approx(-0.4)


def test_multi_seat_buchholz_is_the_mean_of_the_table() -> None:
    game = GameResult(1, ("a", "b", "c", "d"), (1, 2, 3, 4))
    lines = {line.player: line for line in standings("abcd", [game])}
    assert lines["a"].buchholz == pytest.approx((2 / 3 + 1 / 3 + 0) / 3)
    assert lines["b"].sonneborn_berger == pytest.approx(2 / 3 * (1 + 1 / 3 + 0) / 3)


def test_the_first_swiss_round_pairs_neighbours_in_the_seeding() -> None:
    tables = swiss_round(list("abcdef"), [], 2, seeds={"a": 6, "b": 5, "c": 4, "d": 3, "e": 2, "f": 1})
    assert [t.players for t in tables] == [("a", "b"), ("c", "d"), ("e", "f")]


def test_swiss_never_repeats_a_pairing_while_a_seating_without_one_exists() -> None:
    # Four players: after a-b, c-d and a-c, b-d, only a-d and b-c are new, whatever the scores say.
    results = [win(1, "a", "b"), win(1, "c", "d"), win(2, "a", "c"), win(2, "b", "d")]
    tables = swiss_round(list("abcd"), results, 2)
    assert sorted(sorted(t.players) for t in tables) == [["a", "d"], ["b", "c"]]
    # A fourth round cannot avoid a repeat: every table meets once more, never a pair for the third time.
    results += play_round(tables, 3)
    fourth = swiss_round(list("abcd"), results, 2)
    met = meetings(results)
    assert all(met[frozenset(t.players)] == 1 for t in fourth)


def test_sixteen_players_at_fours_meet_nobody_twice_in_five_rounds() -> None:
    players = [f"p{i:02}" for i in range(16)]
    results: list[GameResult] = []
    for number in range(1, 6):
        tables = swiss_round(players, results, 4)
        assert sorted(len(t.players) for t in tables) == [4, 4, 4, 4]
        assert sorted(p for t in tables for p in t.players) == players
        results += play_round(tables, number, first_wins=number % 2 == 0)
    assert max(meetings(results).values()) == 1


def test_byes_go_to_the_lowest_ranked_and_go_round() -> None:
    players = list("abcde")
    results: list[GameResult] = []
    byes = []
    for number in range(1, 6):
        tables = swiss_round(players, results, 2, seeds={p: 5 - i for i, p in enumerate(players)})
        ranking = [line.player for line in standings(players, results, seeds={p: 5 - i for i, p in enumerate(players)})]
        given = [t.players[0] for t in tables if t.bye]
        assert len(given) == 1
        had = {r.players[0] for r in results if r.bye}
        assert given[0] == [p for p in ranking if p not in had][-1]  # the lowest-ranked without a bye yet
        byes += given
        results += play_round(tables, number)
    assert sorted(byes) == players  # five rounds, five players: one bye each


def test_seats_go_round_like_colours() -> None:
    # Round 1: b sat first and lost to a; c sat first and beat d. Round 2 pairs a-c and b-d by score.
    results = [GameResult(1, ("b", "a"), (2, 1)), win(1, "c", "d")]
    tables = swiss_round(list("abcd"), results, 2)
    assert [t.players for t in tables] == [("a", "c"), ("d", "b")]  # who had not sat first sits first


@pytest.mark.parametrize("count", [5, 6, 8])
def test_a_round_robin_meets_every_pair_once_and_rotates_byes_and_seats(count: int) -> None:
    players = [f"p{i}" for i in range(count)]
    rounds = round_robin(players)
    assert len(rounds) == count - 1 + count % 2
    pairs = Counter(frozenset(t.players) for tables in rounds for t in tables if not t.bye)
    assert set(pairs) == {frozenset(p) for p in itertools.combinations(players, 2)}
    assert set(pairs.values()) == {1}
    for tables in rounds:
        assert sorted(p for t in tables for p in t.players) == sorted(players)
    byes = Counter(t.players[0] for tables in rounds for t in tables if t.bye)
    assert all(byes[p] == count % 2 for p in players)
    firsts = Counter(t.players[0] for tables in rounds for t in tables if not t.bye)
    games = count - 1
    assert all(abs(firsts[p] - games / 2) <= 1 for p in players), firsts
    with pytest.raises(ValueError, match="two players or more"):
        round_robin(["solo"])


def test_arena_points_double_on_a_streak_of_two_wins() -> None:
    games = [win(1, "a", "b"), win(2, "a", "c"), win(3, "a", "d"), GameResult(4, ("a", "b"), (1, 1)),
             win(5, "b", "a"), win(6, "a", "c")]
    # 2, 2, then on fire: 4; a draw on fire: 2 (and the streak ends); a loss 0; a win 2.
    assert arena_points(games, "a") == [2, 2, 4, 2, 0, 2]
    four = GameResult(1, ("a", "b", "c", "d"), (1, 2, 3, 4))
    assert arena_points([four], "b") == [pytest.approx(4 / 3)]
    lines = arena_standings("abcd", games)
    assert [line.player for line in lines][:2] == ["a", "b"] and lines[0].points == 12


def test_an_arena_seats_the_nearest_in_points_but_not_last_games_opponent() -> None:
    points = {"a": 10, "b": 9, "c": 8, "d": 1}
    tables = arena_tables(["a", "b", "c", "d"], points, {}, 2)
    assert [t.players for t in tables] == [("a", "b"), ("c", "d")]
    again = arena_tables(["a", "b", "c", "d"], points, {"a": ["b"], "b": ["a"]}, 2)
    assert sorted(sorted(t.players) for t in again) == [["a", "c"], ["b", "d"]]
    assert arena_tables(["a", "b"], points, {"a": ["b"], "b": ["a"]}, 2)[0].players == ("a", "b")  # nobody else
    # At fours, three waiting wait for a fourth, unless they have waited long enough.
    assert arena_tables(["a", "b", "c"], points, {}, 4) == []
    assert [t.players for t in arena_tables(["a", "b", "c"], points, {}, 4, smaller=True)] == [("a", "b", "c")]
    assert arena_tables(["a"], points, {}, 2, smaller=True) == []  # alone: nobody to play ...
    assert [t.players for t in arena_tables(["a"], points, {}, 2, True, smallest=1)] == [("a",)]  # ... but a bot
    # Five waiting at twos: the one who came last keeps waiting.
    seated = {p for t in arena_tables(["d", "c", "b", "a", "e"], {**points, "e": 20}, {}, 2) for p in t.players}
    assert seated == {"a", "b", "c", "d"}


def test_duplicate_dice_set_each_result_against_the_same_seat_at_tables_of_the_same_size() -> None:
    results = [GameResult(1, ("a", "b"), (1, 2), scores=(10, 4)), GameResult(1, ("c", "d"), (1, 2), scores=(6, 4)),
               GameResult(1, ("e", "f"), (1, 2), scores=(10, 7)),
               GameResult(1, ("g", "h", "i"), (1, 2, 3), scores=(3, 2, 1)),  # alone with a three-seat deal
               GameResult(2, ("a", "c"), (2, 1), scores=(1, 9)),  # another round: other dice
               GameResult(1, ("j",), (1,))]  # a bye
    found = same_dice(results)
    # seat 0 held 10, 6, 10: a and e share first (0.75: one beaten, one tied of two); c is last
    assert found[0][0] == SameDice(1, 3, 0.75) and found[2][0] == SameDice(1, 3, 0.75)
    assert found[1][0] == SameDice(3, 3, 0.0)
    # seat 1 held 4, 4, 7: b and d tie behind f
    assert found[0][1] == SameDice(2, 3, 0.25) and found[1][1] == SameDice(2, 3, 0.25)
    assert found[2][1] == SameDice(1, 3, 1.0)
    assert found[3] == (None, None, None) and found[4] == (None, None) and found[5] == (None,)
