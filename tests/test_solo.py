"""Solo Spots (issue 29): the daily deal, keyed ("duplicate") dice, par and the bot's race, challenges.

The daily deal is pinned for one date, so any machine that deals it differently fails here. The keyed dice are
checked for what a player would notice (the same choices meet the same dice, other choices meet the same luck
at the same turn and roll) and for their distribution (chi-square over a fixed set of deals).
"""

from __future__ import annotations

import json
import random
from datetime import date, timedelta

import pytest

from spots.core.play import play_out
from spots.games.spots import Rules, RulesError, State
from spots.games.spots.bots import BOTS
from spots.games.spots.daily import CHALLENGES, Deal, Score, challenge_named, daily_deal, medal, parse_day
from spots.games.spots.keyed import KeyedDice, own_turn, rolls_this_turn
from spots.games.spots.par import cache_path, compute_par, par_of

PINNED = date(2026, 12, 1)
CHI2_5_DF_999 = 20.515  # chi-square, 5 degrees of freedom, 99.9th percentile
CHI2_35_DF_999 = 66.619  # 35 degrees of freedom


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path) -> str:  # type: ignore[no-untyped-def]
    """The web app's database: a SQLite file, or a PostgreSQL database (as in tests/test_web_accounts.py)."""
    if request.param == "sqlite":
        return str(tmp_path / "spots.db")
    return str(request.getfixturevalue("pg_url"))


def server_daily(db: str, day: date) -> Deal:
    """The server's daily deal of ``day`` on the database ``db``: keyed by its host's secret (made here if new)."""
    from spots.games.spots import solo_store
    from spots.web.store import open_store

    store = open_store(db)
    try:
        return daily_deal(day, solo_store.host_secret(store))
    finally:
        store.close()


def keyed_rolls_checked(moves: list[str], rules: Rules, dice: KeyedDice) -> int:
    """Replay ``moves``, checking every roll of a turn against the deal's streams; how many were checked."""
    probe, checked = State(rules), 0
    for move in moves:
        if move.startswith("roll ") and probe.turn >= 1:
            faces = sorted(dice.face("roll", own_turn(probe), rolls_this_turn(probe), d)
                           for d in range(probe.pending_dice))
            assert move == "roll " + " ".join(map(str, faces)), (probe.turn, move, faces)
            checked += 1
        probe.apply_action(move)
    assert probe.is_terminal()
    return checked


def rolls_by_turn(state: State) -> dict[tuple[int, int], str]:
    """Replay a finished solo game and give each roll's (turn, roll within the turn) -> its faces."""
    probe = State(state.rules)
    out = {}
    for move in state.history():
        if move.startswith("roll ") and probe.turn >= 1:
            out[(own_turn(probe), rolls_this_turn(probe))] = move
        probe.apply_action(move)
    return out


def test_the_daily_deal_of_a_date_is_pinned_and_the_same_every_time() -> None:
    deal = daily_deal(PINNED)
    assert deal.key == "14e19bc73bc616cf"
    assert deal.options == {"players": 1, "target": 6, "keyed_dice": "on",
                            "tricks": ["howl", "roll-over", "retrieve", "bolt", "chew", "fetch"]}
    state = play_out(State(deal.rules), [BOTS["greedy"](seed=0)], KeyedDice(deal.key))
    again = play_out(State(daily_deal(PINNED).rules), [BOTS["greedy"](seed=0)], KeyedDice(daily_deal(PINNED).key))
    assert state.history() == again.history()
    assert state.history()[:7] == ["reveal gretchen", "reveal goliath", "reveal mirabelle", "roll 2", "trick bolt",
                                   "set-aside 3", "roll 5"]


def test_daily_deals_differ_between_dates() -> None:
    deals = [daily_deal(PINNED + timedelta(days=d)) for d in range(30)]
    assert len({d.key for d in deals}) == 30
    assert len({tuple(d.options["tricks"]) for d in deals}) > 10  # the tile of each colour varies
    first_rolls = {play_out(State(d.rules), [BOTS["greedy"](seed=0)], KeyedDice(d.key)).history()[5] for d in deals}
    assert len(first_rolls) > 10


def test_a_date_is_read_as_yyyy_mm_dd_and_anything_else_is_refused() -> None:
    assert parse_day("2026-12-01") == PINNED
    with pytest.raises(RulesError, match="YYYY-MM-DD"):
        parse_day("1/12/2026")


def test_keyed_dice_are_a_rules_option_off_by_default_and_checked() -> None:
    assert Rules().keyed_dice == "off" and "keyed_dice" not in Rules().to_dict()  # old documents read the same
    assert Rules(keyed_dice="on").to_dict()["keyed_dice"] == "on"
    assert Rules.from_dict(Rules(keyed_dice="on").to_dict()).keyed_dice == "on"
    with pytest.raises(RulesError, match="keyed_dice must be one of off, on"):
        Rules(keyed_dice="yes")


def test_without_the_option_a_keyed_generator_rolls_as_seeded_dice_do() -> None:
    """Seeded dice stay the default: off, a KeyedDice is an ordinary generator seeded from its deal."""
    plain = play_out(State(Rules(players=2)), [BOTS["greedy"](seed=1)] * 2, random.Random("keyed:7"))
    keyed = play_out(State(Rules(players=2)), [BOTS["greedy"](seed=1)] * 2, KeyedDice(7))
    assert plain.history() == keyed.history()


def test_identical_choices_meet_identical_dice_and_other_choices_the_same_luck() -> None:
    rules = Rules(players=1, keyed_dice="on", tricks="beginner")
    greedy = play_out(State(rules), [BOTS["greedy"](seed=0)], KeyedDice("deal"))
    again = play_out(State(rules), [BOTS["greedy"](seed=0)], KeyedDice("deal"))
    assert greedy.history() == again.history()
    others = [play_out(State(rules), [BOTS["random"](seed=s)], KeyedDice("deal")) for s in range(6)]
    mine = rolls_by_turn(greedy)
    same_size = shared = 0
    for other in others:
        assert other.history() != greedy.history()
        for key, roll in rolls_by_turn(other).items():
            if key in mine and len(roll.split()) == len(mine[key].split()):
                same_size += 1
                shared += roll == mine[key]
    assert same_size > 10 and shared == same_size  # the same turn, roll and size: the same dice, whatever came before
    elsewhere = play_out(State(rules), [BOTS["greedy"](seed=0)], KeyedDice("another deal"))
    assert elsewhere.history() != greedy.history()


def test_a_bots_search_never_draws_the_deals_dice() -> None:
    """Under keyed rules a plain generator (a bot's own) draws ordinary dice: no search sees the deal's future."""
    rules = Rules(players=1, keyed_dice="on")
    keyed, plain = State(rules), State(rules)
    while keyed.is_chance_node():
        keyed.sample_chance(KeyedDice("d"))
    draws = set()
    for seed in range(20):
        probe = State(rules)
        while probe.is_chance_node():
            probe.sample_chance(random.Random(seed))
        draws.add(tuple(probe.history()))
    assert len(draws) > 10 and plain.history() == []


def test_keyed_faces_are_uniform_and_independent_chi_square() -> None:
    counts = [0] * 6
    pairs = [0] * 36
    turns = [0] * 36
    for deal in range(300):
        dice = KeyedDice(f"chi:{deal}")
        for turn in range(1, 11):
            for roll in range(2):
                faces = [dice.face("roll", turn, roll, die) for die in range(4)]
                for f in faces:
                    counts[f - 1] += 1
                pairs[(faces[0] - 1) * 6 + faces[1] - 1] += 1  # two dice of one roll
                nxt = dice.face("roll", turn + 1, roll, 0)
                turns[(faces[0] - 1) * 6 + nxt - 1] += 1  # the same die a turn later
    n = sum(counts)
    assert sum((c - n / 6) ** 2 / (n / 6) for c in counts) < CHI2_5_DF_999
    for table in (pairs, turns):
        m = sum(table)
        assert sum((c - m / 36) ** 2 / (m / 36) for c in table) < CHI2_35_DF_999
    assert KeyedDice("x").face("roll", 1, 0, 0) == KeyedDice("x").face("roll", 1, 0, 0)


def test_at_a_multiplayer_table_every_seat_rolls_from_the_same_streams() -> None:
    rules = Rules(players=2, keyed_dice="on", tricks="beginner")
    state = play_out(State(rules), [BOTS["greedy"](seed=0)] * 2, KeyedDice("table"))
    assert keyed_rolls_checked(state.history(), rules, KeyedDice("table")) > 20


def test_par_is_reproducible_and_its_interval_holds_the_games(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SPOTS_PAR_CACHE", str(tmp_path))
    deal = challenge_named("clean-sheet").deal
    first = compute_par(deal, games=3, bot="mcts")
    assert first.to_dict() == compute_par(deal, games=3, bot="mcts").to_dict()
    assert first.low <= first.mean <= first.high and min(first.turns) <= first.mean <= max(first.turns)
    assert first.race[-1].dogs == 3 and first.race[-1].turn == first.turns[0]
    cached = par_of(deal, games=3, bot="mcts")
    assert cached.to_dict() == first.to_dict() and list(tmp_path.iterdir())
    assert par_of(deal, games=3, bot="mcts").to_dict() == first.to_dict()  # read back from the cache


def test_a_solved_challenge_has_the_exact_optimum_as_par() -> None:
    par = compute_par(CHALLENGES["first-pair"].deal, games=2)
    assert par.bot == "optimal" and par.exact == pytest.approx(4.1565, abs=1e-4) and par.value == par.exact


def test_medals_are_measured_from_par_and_need_the_goal() -> None:
    six = CHALLENGES["agility-six"]
    assert medal(six, Score(21, 1, True, 0), par=21.85) == "gold"
    assert medal(six, Score(27, 1, True, 0), par=21.85) == "silver"  # 27 <= 1.25 x 21.85 = 27.3
    assert medal(six, Score(28, 1, True, 0), par=21.85) == "bronze"
    assert medal(six, Score(29, 0, True, 0), par=21.85) is None  # over 28 turns: the goal is missed
    assert medal(six, Score(1000, 0, False, 0), par=21.85) is None  # the turn limit, not the target
    clean = CHALLENGES["clean-sheet"]
    assert medal(clean, Score(5, 1, True, 0), par=8.0) is None
    assert medal(CHALLENGES["treat-hoard"], Score(5, 0, True, 7), par=8.0) is None
    with pytest.raises(RulesError, match="the challenges are"):
        challenge_named("nope")


def test_spots_par_prints_the_same_figures_each_time(tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from spots.cli import main

    monkeypatch.setenv("SPOTS_PAR_CACHE", str(tmp_path))
    argv = ["par", "--challenge", "clean-sheet", "--games", "3", "--bot", "mcts"]
    assert main([*argv, "--no-cache"]) == 0
    fresh = capsys.readouterr().out
    assert main(argv) == 0 and main(argv) == 0  # worked out and cached, then read back
    cached = capsys.readouterr().out
    assert "par 13.67 turns: the mcts bot's mean over 3 games" in fresh and cached == fresh * 2
    assert main(["par", "--date", "2026-13-01"]) == 2
    assert "YYYY-MM-DD" in capsys.readouterr().err


def test_the_daily_deal_at_the_terminal_ends_with_the_score_against_par_and_the_race(  # type: ignore[no-untyped-def]
        tmp_path, monkeypatch, capsys) -> None:
    import io

    from spots.cli import main

    monkeypatch.setenv("SPOTS_PAR_CACHE", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr("sys.stdin", io.StringIO("score\n1\n" * 4000))  # score when it can, else the first move
    assert main(["play", "--daily", "--date", "2026-12-01", "--autosave", "", "--fast", "--plain", "--lang", "en",
                 "--par-games", "2"]) == 0
    out = capsys.readouterr().out
    assert "Everyone plays these same dice today" in out
    assert "Your result:" in out and "turns: the expectimax bot's mean of 2 games on these dice" in out
    assert out.index("Your result:") < out.index("turns: the expectimax bot's mean")  # the result first, then par
    assert "Race on the same dice (dogs scored after each turn):" in out
    race = out.split("Race on the same dice (dogs scored after each turn):")[1].split()
    assert race[:3] == ["turn", "you", "bot"] and race[3] == "1" and race[-1] == "6"  # the bot ends with 6 dogs
    assert main(["play", "--challenge", "nope"]) == 2
    assert "the challenges are: agility-six" in capsys.readouterr().err


def test_a_daily_game_left_at_the_terminal_is_continued_on_the_deals_dice(  # type: ignore[no-untyped-def]
        tmp_path, monkeypatch, capsys) -> None:
    import io

    from spots.cli import main

    monkeypatch.setenv("SPOTS_PAR_CACHE", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    argv = ["play", "--daily", "--date", "2026-12-01", "--fast", "--plain", "--lang", "en", "--par-games", "2"]

    def played(answers: str) -> str:
        monkeypatch.setattr("sys.stdin", io.StringIO(answers))
        main(argv)
        return capsys.readouterr().out

    whole = played("score\n1\n" * 4000)  # one sitting, to the end (its autosave is a finished game)
    assert "Your result:" in whole
    saved = tmp_path / "spots-daily-2026-12-01.json"
    record = saved.read_text()
    again = played("score\n1\n" * 4000)  # the same command once it is finished: shown, not started over
    turns = whole.split("Your result: ")[1].split(" turns")[0]
    assert f"You finished this deal in {turns} turns (saved in spots-daily-2026-12-01.json)" in again
    assert "To play it again, save the new game elsewhere with --autosave FILE." in again
    assert [line for line in again.splitlines() if line.startswith("Your result:")] == \
        [line for line in whole.splitlines() if line.startswith("Your result:")]
    assert saved.read_text() == record  # the finished record is kept as it was
    saved.unlink()
    left = played("score\n1\n" * 12 + "quit\n")  # the same answers, then the player leaves
    assert "continue with: spots play --daily --date 2026-12-01" in left and "--load" not in left
    moves = len(json.loads(saved.read_text())["moves"])
    back = played("score\n1\n" * 4000)
    assert "Continuing your game saved in spots-daily-2026-12-01.json." in back
    assert len(json.loads(saved.read_text())["moves"]) > moves
    result = [line for line in whole.splitlines() if line.startswith("Your result:")]
    assert result and result == [line for line in back.splitlines() if line.startswith("Your result:")]
    saved.write_text("{not json")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(argv) == 2 and "spots-daily-2026-12-01.json" in capsys.readouterr().err
    assert saved.read_text() == "{not json"  # a file it cannot read is left as it is


def test_a_keyed_table_draws_a_deal_of_its_own_and_a_bot_worker_gets_the_same_dice() -> None:
    import pickle

    from spots.games.spots.keyed import table_dice

    plain = random.Random(5)
    assert table_dice(Rules(), plain) is plain  # seeded or the OS's dice, as ever
    keyed = table_dice(Rules(keyed_dice="on"), random.Random(5))
    assert isinstance(keyed, KeyedDice) and keyed.deal != table_dice(Rules(keyed_dice="on"), random.Random(6)).deal
    assert table_dice(Rules(keyed_dice="on"), keyed) is keyed  # a deal's dice stay the deal's
    copy = pickle.loads(pickle.dumps(keyed))
    assert copy.deal == keyed.deal and copy.face("roll", 3, 1, 2) == keyed.face("roll", 3, 1, 2)
    assert copy.random() == keyed.random()


def test_the_duplicate_arena_deals_each_round_of_seatings_the_same_dice(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import spots.arena as arena

    dealt: list[tuple[str, str]] = []

    def watched(state, bots, dice, *rest):  # type: ignore[no-untyped-def]
        dealt.append((type(dice).__name__, getattr(dice, "deal", "")))
        assert state.rules.keyed_dice == ("on" if isinstance(dice, KeyedDice) else "off")
        return play_out(state, bots, dice, *rest)

    monkeypatch.setattr(arena, "play_out", watched)
    keyed = arena.run_match(Rules(players=2, target=1), ["greedy", "random"], 6, seed=3, duplicate=True)
    assert dealt == [("KeyedDice", "3:0")] * 2 + [("KeyedDice", "3:1")] * 2 + [("KeyedDice", "3:2")] * 2
    assert [r.seats[0] for r in keyed] == ["greedy", "random"] * 3  # each deal in both seatings
    dealt.clear()
    arena.run_match(Rules(players=2, target=1), ["greedy", "random"], 2, seed=3)
    assert dealt == [("Random", "")] * 2
    intervals = arena.deal_intervals(keyed, 2)
    assert set(intervals) == {"greedy", "random"}
    assert all(low <= mean <= high for mean, low, high in intervals.values())


def test_the_duplicate_arena_is_refused_where_there_are_no_keyed_dice(capsys) -> None:  # type: ignore[no-untyped-def]
    from spots.cli import main

    assert main(["arena", "--game", "double-spot", "--bots", "greedy", "--games", "2", "--duplicate"]) == 2
    assert "keyed dice, a rules option Double Spot does not have" in capsys.readouterr().err
    assert main(["arena", "--bots", "greedy", "--games", "2", "--duplicate", "--engine", "fast"]) == 2
    assert "leave out --engine fast" in capsys.readouterr().err
    assert main(["arena", "--bots", "greedy,random", "--games", "4", "--target", "1", "--duplicate",
                 "--no-progress"]) == 0
    assert "duplicate (keyed) dice, one deal per round; per deal (rounds of 2 games)" in capsys.readouterr().out


def test_an_online_table_with_keyed_dice_rolls_every_seat_from_its_secret_deals_streams(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import time

    from support.processes import PATIENT_S
    from support.web import client, new_table

    with client(tmp_path / "k.db", bot_delay=0.0) as c:
        bots = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
        table = new_table(c, bots, keyed_dice="on", target=3)
        deadline = time.time() + PATIENT_S
        while c.get(f"/api/tables/{table['id']}").json()["status"] != "over" and time.time() < deadline:
            time.sleep(0.05)  # a safety net: the bots play at once; the loop ends when the game does
        record = c.get(f"/api/tables/{table['id']}/record").json()
        hub = c.app.state.hub  # type: ignore[attr-defined]
        room = hub.rooms.get(table["id"]) or hub.archive.get(table["id"])
    assert record["rules"]["keyed_dice"] == "on"
    dice = room.dice
    assert isinstance(dice, KeyedDice) and len(dice.deal) == 16
    assert keyed_rolls_checked(record["moves"], Rules.from_dict(record["rules"]), dice) > 10


def test_signed_in_players_finished_daily_games_make_the_board_of_the_day(db, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import html
    import json

    from spots.games.spots.daily import utc_today
    from spots.games.spots.par import play_deal
    from support.web import app_on, as_, decisions, opened, play_all, sign_up

    monkeypatch.setenv("SPOTS_PAR_GAMES", "2")
    monkeypatch.setenv("SPOTS_PAR_CACHE", str(tmp_path / "par"))
    deal = server_daily(db, utc_today())
    game = play_deal(deal, "greedy", 0)  # the moves a player sends; on the deal's dice they meet the same rolls
    cached = compute_par(deal, games=2, bot="greedy")  # a par in the cache: the server need not work one out here
    cache_path(deal, 2, None).parent.mkdir(parents=True)
    cache_path(deal, 2, None).write_text(json.dumps(cached.to_dict()))
    moves = decisions(game.history())

    def play_daily(c) -> None:  # type: ignore[no-untyped-def]
        made = c.post("/daily", follow_redirects=False)
        assert made.status_code == 303 and made.headers["location"].endswith(f"?solo={deal.name}")
        seat_token = made.headers["location"].split("/play/")[1].split("?")[0]
        table_id = c.app.state.hub.by_token[seat_token][0]
        with c.websocket_connect(f"/ws/{table_id}?token={seat_token}") as ws:
            view = play_all(ws, moves, opened(ws)["state"]["view"])
            assert view["over"]

    with app_on(db, rate=1e6) as c:  # on SQLite and on PostgreSQL
        as_(c, None)
        play_daily(c)  # a guest's game: played, but nobody the board can name
        page = html.unescape(c.get("/daily?lang=en").text)
        assert "Nobody signed in has finished today's deal yet." in page and 'href="/signin"' in page
        ada = sign_up(c, "Ada")
        as_(c, ada)
        play_daily(c)
        page = html.unescape(c.get("/daily?lang=en").text)
        board = page.split('id="daily-board">')[1].split("</ol>")[0]
        assert board.count("<li>") == 1 and f"<b>Ada</b>: {game.turn} turns, {game.busts[0]} busts" in board
        assert "Sign in to put your games" not in page


def test_a_daily_deal_refuses_rules_of_its_own_and_other_seats(capsys) -> None:  # type: ignore[no-untyped-def]
    from spots.cli import main

    assert main(["play", "--daily", "--target", "3"]) == 2
    assert "rules of its own: leave out --target" in capsys.readouterr().err
    assert main(["play", "--challenge", "clean-sheet", "--seat", "me", "--seat", "greedy"]) == 2
    assert "leave out --load and --seat" in capsys.readouterr().err
    assert main(["play", "--daily", "--challenge", "clean-sheet"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["play", "--date", "2026-12-01"]) == 2
    assert "--date goes with --daily" in capsys.readouterr().err


def test_a_daily_table_read_back_after_a_restart_rolls_on_from_its_deals_dice(db, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import json

    from spots.games.spots.daily import utc_today
    from spots.games.spots.par import play_deal
    from support.web import app_on, decisions, opened, play_all

    monkeypatch.setenv("SPOTS_PAR_GAMES", "2")
    monkeypatch.setenv("SPOTS_PAR_CACHE", str(tmp_path / "par"))
    deal = server_daily(db, utc_today())
    game = play_deal(deal, "greedy", 0)
    cache_path(deal, 2, None).parent.mkdir(parents=True)
    cache_path(deal, 2, None).write_text(json.dumps(compute_par(deal, games=2, bot="greedy").to_dict()))
    moves = decisions(game.history())
    half = len(moves) // 2

    def send(c, seat_token: str, these: list[str]) -> dict:  # type: ignore[no-untyped-def,type-arg]
        table_id = c.app.state.hub.by_token[seat_token][0]
        with c.websocket_connect(f"/ws/{table_id}?token={seat_token}") as ws:
            return play_all(ws, these, opened(ws)["state"]["view"])  # refused unless the dice are the deal's

    with app_on(db, rate=1e6) as c:
        made = c.post("/daily", follow_redirects=False)
        seat_token = made.headers["location"].split("/play/")[1].split("?")[0]
        assert not send(c, seat_token, moves[:half])["over"]
    with app_on(db, rate=1e6) as c:  # a new server process on the same file
        view = send(c, seat_token, moves[half:])
    assert view["over"] and view["turn"] == game.turn


def test_a_finished_challenge_gets_its_medal_from_par(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import time

    from spots.games.spots.par import play_deal
    from support.processes import PATIENT_S
    from support.web import app_on, decisions, opened, play_all

    monkeypatch.setenv("SPOTS_PAR_GAMES", "2")
    monkeypatch.setenv("SPOTS_PAR_CACHE", str(tmp_path / "par"))
    deal = CHALLENGES["first-pair"].deal  # a solved variant: par is the exact optimum, 4.1565 turns
    game = play_deal(deal, "optimal", 0)
    with app_on(str(tmp_path / "m.db"), rate=1e6) as c:
        made = c.post("/challenge", data={"challenge": "first-pair"}, follow_redirects=False)
        seat_token = made.headers["location"].split("/play/")[1].split("?")[0]
        table_id = c.app.state.hub.by_token[seat_token][0]
        with c.websocket_connect(f"/ws/{table_id}?token={seat_token}") as ws:
            play_all(ws, decisions(game.history()), opened(ws)["state"]["view"])
        deadline = time.time() + PATIENT_S
        race = c.get(f"/api/solo/first-pair?table={table_id}&lang=es").json()
        while race["pending"] and time.time() < deadline:  # par is worked out in a thread: asked again until known
            time.sleep(0.1)
            race = c.get(f"/api/solo/first-pair?table={table_id}&lang=es").json()
        assert c.get(f"/api/solo/clean-sheet?table={table_id}").status_code == 404  # another deal's table
    assert race["par"]["exact"] == pytest.approx(4.1565, abs=1e-4) and race["par"]["bot"] == "optimal"
    assert race["score"] == {"turns": game.turn, "busts": game.busts[0], "reached": True}
    assert game.turn == 5 and race["medal"] == "silver" and race["medal_word"] == "plata"  # 5 <= 1.25 x 4.1565
    assert [r["dogs"] for r in race["you"]] == [r["dogs"] for r in race["bot"]]  # the same moves, the same game
    assert race["challenge"]["goal"] == "Puntúa los perros del objetivo en 6 turnos o menos"


def test_a_challenge_at_the_terminal_ends_with_its_medal(tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    import io

    from spots.cli import main
    from spots.games.spots.par import play_deal

    game = play_deal(CHALLENGES["first-pair"].deal, "optimal", 0)  # typed move by move: the optimal policy's game
    typed = "".join(m + "\n" for m in game.history() if not m.startswith(("roll ", "reveal ")))
    monkeypatch.setenv("SPOTS_PAR_CACHE", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    assert main(["play", "--challenge", "first-pair", "--autosave", "", "--fast", "--plain", "--lang", "vi",
                 "--par-games", "2"]) == 0
    out = capsys.readouterr().out
    assert "Thử thách: Cặp đầu tiên: một con chó, đã giải chính xác." in out
    assert "Kết quả của bạn: 5 lượt" in out and "Mức chuẩn 4.16 lượt: số lượt tối ưu chính xác" in out
    assert "Huy chương: bạc." in out  # 5 turns: within a quarter over the exact par of 4.1565


def test_keyed_rules_at_the_terminal_and_in_selfplay_roll_from_a_deal_drawn_from_the_seed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    from spots.cli import main

    out = tmp_path / "g.json"
    assert main(["selfplay", "--seed", "1", "--keyed-dice", "on", "--bots", "greedy,random", "--quiet",
                 "--out", str(out)]) == 0
    record = json.loads(out.read_text())
    dice = KeyedDice(f"{random.Random(1).getrandbits(64):016x}")  # the deal a seeded table draws
    assert record["rules"]["keyed_dice"] == "on"
    assert keyed_rolls_checked(record["moves"], Rules.from_dict(record["rules"]), dice) > 10


def test_the_servers_par_bot_is_the_strongest_unless_the_operator_names_another(monkeypatch, caplog) -> None:  # type: ignore[no-untyped-def]
    """``SPOTS_PAR_BOT`` names the bot a server's pars are set by (a small server's cheaper par); a name that is no
    bot is said in the log with the bots there are, and par stays the strongest bot's."""
    from spots.games.spots.solo_web import bot_of_par

    deal = daily_deal(date(2026, 1, 2))
    monkeypatch.delenv("SPOTS_PAR_BOT", raising=False)
    assert bot_of_par(deal) is None  # the strongest: par_bot(deal)
    monkeypatch.setenv("SPOTS_PAR_BOT", "greedy")
    assert bot_of_par(deal) == "greedy"
    monkeypatch.setenv("SPOTS_PAR_BOT", "grandmaster")
    with caplog.at_level("ERROR", logger="spots.web.solo"):
        assert bot_of_par(deal) is None
    assert "SPOTS_PAR_BOT=grandmaster is not a bot" in caplog.text and "expectimax" in caplog.text
