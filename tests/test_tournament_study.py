"""The format study (``spots tournament study``): simulated Swiss events are the same from the same seed, duplicate
dice give every table of a round the same dice, the luck tie-break reorders only ties, and saved studies merge."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from spots.cli import main
from spots.core.games import get
from spots.tournaments.study import NoisyBot, Study, make_entrant, play_event, play_table, spearman


def test_an_event_is_the_same_from_the_same_seed_and_another_from_another() -> None:
    study = Study(per_group=2, rounds=3)
    first, again = play_event(study, 0, "plain", False), play_event(study, 0, "plain", False)
    assert first == again
    other = [play_event(study, e, "plain", False).ranked["standard"] for e in range(1, 4)]
    assert any(order != first.ranked["standard"] for order in other)
    assert sorted(first.ranked["standard"]) == [0, 0, 1, 1, 2, 2, 3, 3]


def chance_events(key: str, steps: int = 80) -> list[str]:
    """The first chance events of a two-player game on the deal ``key``, greedy moves between them."""
    spec = get("spots")
    rules, dice = spec.dealing.deal(spec.make_rules(players=2), key)  # type: ignore[union-attr]
    state, bot, events = spec.new_state(rules), spec.make_bot("greedy"), []
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            events.append(state.sample_chance(dice))
        else:
            state.apply_action(bot.choose(state))
    return events


def test_duplicate_dice_give_two_tables_of_a_round_the_same_dice() -> None:
    assert chance_events("1:0:1") == chance_events("1:0:1") != chance_events("1:0:2")
    study = Study(per_group=1)
    a = play_table(study, 1, ["0#0", "3#0"], "1:0:1", "duplicate", False)
    b = play_table(study, 1, ["0#0", "3#0"], "1:0:1", "duplicate", False)
    assert a == b  # the same players on the same deal play the same game


def test_the_luck_tie_break_measures_each_seat_and_sums_to_nothing() -> None:
    result = play_table(Study(), 1, ["0#0", "3#0"], "luck", "plain", True)
    assert result.luck is not None and sum(result.luck) == pytest.approx(0, abs=1e-9)
    assert any(abs(x) > 0.01 for x in result.luck)


def test_a_noisy_bot_plays_randomly_at_its_share_of_decisions() -> None:
    bot = make_entrant("greedy~1", seed=3)
    assert isinstance(bot, NoisyBot) and bot.name == "greedy~1"
    state = get("spots").new_state(get("spots").make_rules(players=2))
    dice = random.Random(1)
    while state.is_chance_node():
        state.sample_chance(dice)
    assert bot.choose(state) in state.legal_actions()
    with pytest.raises(ValueError, match="noise is from 0 to 1"):
        make_entrant("greedy~2", 0)
    with pytest.raises(ValueError, match="optional ~noise"):
        make_entrant("greedy~lots", 0)


def test_spearman_is_one_for_the_true_order_and_minus_one_for_its_reverse() -> None:
    assert spearman([0, 1, 2, 3]) == pytest.approx(1) and spearman([3, 2, 1, 0]) == pytest.approx(-1)
    # with groups of equal strength the true order is the best any standing can do, not 1
    assert spearman([0, 0, 1, 1, 2, 2]) == pytest.approx(-spearman([2, 2, 1, 1, 0, 0])) == pytest.approx(0.956, 1e-3)
    assert spearman([0, 1, 0, 1, 2, 2]) < spearman([0, 0, 1, 1, 2, 2])


def test_the_command_prints_the_figures_and_saved_studies_merge(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    plain, lucky = tmp_path / "plain.json", tmp_path / "luck.json"
    assert main(["tournament", "study", "--events", "2", "--per-group", "2", "--rounds", "2",
                 "--json", str(plain)]) == 0
    out = capsys.readouterr().out
    assert "| plain | standard | 2 |" in out and "| duplicate | standard | 2 |" in out
    assert "duplicate - plain:" in out
    saved = json.loads(plain.read_text())  # the same events as if analysed by the coach (luck: tested above)
    event = next(e for e in saved["events"] if e["event"] == 0 and e["dice"] == "plain")
    lucky.write_text(json.dumps({**saved, "events": [{**event, "luck": True, "ranked": {
        **event["ranked"], "luck first": list(reversed(event["ranked"]["standard"]))}}]}))
    assert main(["tournament", "report", str(plain), str(lucky)]) == 0
    merged = capsys.readouterr().out
    assert "| plain | luck first | 1 |" in merged and "| plain | standard | 2 |" in merged
    assert "luck first - standard (plain):" in merged
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**json.loads(plain.read_text()), "study": {**json.loads(plain.read_text())["study"],
                                                                           "rounds": 5}}))
    assert main(["tournament", "report", str(plain), str(other)]) == 2
    assert "another study" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("{}")
    assert main(["tournament", "report", str(tmp_path / "bad.json")]) == 2
    assert "is not a saved tournament study" in capsys.readouterr().err
    assert main(["tournament", "study", "--groups", "greedy,nobody"]) == 2
