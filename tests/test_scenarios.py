"""Golden scenarios, bad input, and the ``rummoli scenario`` command.

Each file in ``tests/scenarios/`` is one golden scenario whose expected outcome was worked
out by hand from the rules (the reasoning is in its ``description``), never copied from the
engine's output: these files exist to catch engine bugs. A golden file is a JSON object:

``description``
    what the position tests and the hand-worked answer, briefly.
``scenario``
    the scenario input, exactly as ``rummoli scenario`` reads it (docs/scenarios.md).
``expect`` (optional)
    output fields to check, each compared whole (``chips``, ``board``, ``laid``,
    ``poker_winners``, ``rummoli_winner``, ``deadlock``; any subset).
``expect_events_contain`` (optional)
    event patterns that must match events of the output *in this order* (a subsequence:
    other events may come between). A pattern matches an event when every key of the
    pattern is in the event with an equal value, so ``{"type": "stop", "card": "4H"}``
    matches ``{"type": "stop", "card": "4H"}`` whatever other fields it has.
``expect_no_events`` (optional)
    patterns that no event of the output may match.
``expect_error_contains`` (optional)
    the scenario is bad input: the output must be an error whose message contains this
    text. Such a file has no other expectation.

Every golden file that plays also checks that chips are conserved (players plus board at
the end equal the chips given plus the board given).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummoli.cli import app
from rummoli.scenario import run_scenario

SCENARIO_DIR = Path(__file__).parent / "scenarios"
GOLDEN = sorted(SCENARIO_DIR.glob("*.json"))
EXPECT_KEYS = {"chips", "board", "laid", "poker_winners", "rummoli_winner", "deadlock"}
FILE_KEYS = {
    "description",
    "scenario",
    "expect",
    "expect_events_contain",
    "expect_no_events",
    "expect_error_contains",
}


def matches(pattern: dict[str, Any], event: dict[str, Any]) -> bool:
    """Whether every key of ``pattern`` is in ``event`` with an equal value."""
    return all(key in event and event[key] == value for key, value in pattern.items())


def missing_in_order(patterns: list[dict[str, Any]], events: list[dict[str, Any]]) -> Any:
    """The first pattern not matched when matching ``patterns`` in order against distinct
    ``events`` (a subsequence match), or None when all match."""
    position = 0
    for pattern in patterns:
        while position < len(events) and not matches(pattern, events[position]):
            position += 1
        if position == len(events):
            return pattern
        position += 1
    return None


def chips_given(scenario: dict[str, Any]) -> int:
    players = scenario["players"]
    chips = scenario.get("chips", scenario.get("rules", {}).get("starting_chips", 100))
    total = sum(chips) if isinstance(chips, list) else chips * len(players)
    board: dict[str, int] = scenario.get("board", {})
    return int(total) + sum(board.values())


def load(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_there_are_golden_files() -> None:
    assert len(GOLDEN) >= 30


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden(path: Path) -> None:
    golden = load(path)
    assert set(golden) <= FILE_KEYS, f"unknown keys {set(golden) - FILE_KEYS}"
    assert isinstance(golden.get("description"), str) and golden["description"]
    result = run_scenario(golden["scenario"])

    if "expect_error_contains" in golden:
        assert set(golden) == {"description", "scenario", "expect_error_contains"}
        assert "error" in result, f"expected an error, got chips {result['chips']}"
        assert golden["expect_error_contains"] in result["error"]
        return

    assert "error" not in result, result.get("error")
    expect = golden.get("expect", {})
    assert set(expect) <= EXPECT_KEYS
    assert expect or "expect_events_contain" in golden or "expect_no_events" in golden
    failures = [
        f"{key}: expected {value!r}, got {result[key]!r}"
        for key, value in expect.items()
        if result[key] != value
    ]
    assert not failures, "\n".join(failures)

    events = result["events"]
    pattern = missing_in_order(golden.get("expect_events_contain", []), events)
    assert pattern is None, f"no event matches {pattern} (in order)"
    for pattern in golden.get("expect_no_events", []):
        found = [e for e in events if matches(pattern, e)]
        assert not found, f"unexpected event {found[0]}"

    total = sum(result["chips"].values()) + sum(result["board"].values())
    assert total == chips_given(golden["scenario"]), "chips not conserved"


# --------------------------------------------------------------------------- the runner


def s1(**changes: Any) -> dict[str, Any]:
    """The position of golden file 01 (Ann wins everything), changed as given."""
    scenario = load(SCENARIO_DIR / "01_lead_3H_then_4H.json")["scenario"]
    scenario.update(changes)
    return {k: v for k, v in scenario.items() if v is not None}


def test_matches_subsequence() -> None:
    events: list[dict[str, Any]] = [{"type": "a", "x": 1}, {"type": "b"}, {"type": "a", "x": 2}]
    assert missing_in_order([{"type": "a"}, {"type": "a", "x": 2}], events) is None
    assert missing_in_order([{"type": "a", "x": 2}, {"type": "b"}], events) == {"type": "b"}
    assert missing_in_order([{"type": "a"}, {"type": "a"}, {"type": "a"}], events) == {"type": "a"}


def test_result_has_every_field_and_all_events() -> None:
    result = run_scenario(s1())
    assert list(result) == [
        "chips",
        "board",
        "laid",
        "poker_winners",
        "rummoli_winner",
        "deadlock",
        "events",
    ]
    # A referee's view: every seat's private "hand" event is there.
    hands = [e for e in result["events"] if e["type"] == "hand"]
    assert {e["player"] for e in hands} == {"Ann", "Bob"}
    assert result["events"][-1] == {"type": "round_over", "round": 1}
    json.dumps(result)  # JSON-ready


def test_game_may_be_left_out() -> None:
    assert run_scenario(s1(game=None)) == run_scenario(s1())


def test_choices_without_names_and_defaults() -> None:
    named = run_scenario(s1(choices=["Bob: keep", "Ann: pass", "Ann: check", "Bob: check"]))
    bare = run_scenario(s1(choices=["keep", "pass", "check", "check", "9C"]))
    default = run_scenario(s1())
    assert named == bare == default


def test_a_choice_changes_the_play() -> None:
    result = run_scenario(s1(choices=["keep", "pass", "check", "check", "9S"]))
    assert [x["card"] for x in result["laid"]] == ["3H", "4H", "9S", "9D", "9C"]


def test_without_fixed_cards_the_seed_deals() -> None:
    data = {"game": "rummoli", "players": ["Ann", "Bob", "Cy"]}
    first = run_scenario(data)
    assert "error" not in first
    assert first == run_scenario(data)  # seed 0: the same every time
    assert first["events"][0]["type"] == "cut"  # no dealer given: a cut decides


BAD_INPUT = {
    "unknown card": (
        {"game": "rummoli", "players": ["Ann", "Bob"], "dealer": 0, "deck": ["1X"]},
        "'1X'",
    ),
    "duplicate card": (
        s1(hands={"Ann": ["3H", "3H"], "Bob": ["5S"]}),
        "duplicate card 3H",
    ),
    "51 cards": (
        {
            "players": ["Ann", "Bob"],
            "dealer": 0,
            "deck": [r + s for s in "CDHS" for r in "23456789TJQKA"][:51],
        },
        "51",
    ),
    "9 players": ({"players": [f"P{i}" for i in range(9)]}, "9"),
    "unknown house rule": (s1(rules={"aces_low": True}), "aces_low"),
    "bad house rule value": (s1(rules={"widow": "sometimes"}), "widow"),
    "illegal choice": (s1(choices=["Bob: keep", "Ann: pass", "Ann: 3H"]), "3H"),
    "unknown action": (s1(choices=["Bob: shuffle"]), "shuffle"),
    "choice for the wrong player": (s1(choices=["Ann: keep"]), "Bob's decision"),
    "choice naming nobody": (s1(choices=["Zed: keep"]), "Zed"),
    "choice not text": (s1(choices=[1]), "choice 1"),
    "choices not a list": (s1(choices="keep"), "choices"),
    "choice left over": (
        s1(choices=["keep", "pass", "check", "check", "9C", "9D"]),
        "left over",
    ),
    "other game": (s1(game="rummy"), "rummy"),
    "unknown field": (s1(hand={"Ann": []}), "'hand'"),
    "not an object": ([1, 2], "object"),
    "exchange under widow none": (s1(rules={"widow": "none"}, choices=["Bob: exchange"]), "Ann"),
    "bid with a pay card": (
        load(SCENARIO_DIR / "28_pay_card_blocks_exchange_off.json")["scenario"]
        | {"rules": {}, "choices": ["Ann: bid 1"]},
        "bid 1",
    ),
    "lead lowest_in_hand refuses another suit": (
        load(SCENARIO_DIR / "31_lead_lowest_of_any_suit.json")["scenario"] | {"rules": {}},
        "9S",
    ),
}


@pytest.mark.parametrize("data, text", list(BAD_INPUT.values()), ids=list(BAD_INPUT))
def test_bad_input_is_an_error(data: Any, text: str) -> None:
    result = run_scenario(data)
    assert list(result) == ["error"], result
    assert text in result["error"]


# --------------------------------------------------------------------------- the command

runner = CliRunner()


def lines(output: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.splitlines()]


def test_cli_several_files() -> None:
    paths = [SCENARIO_DIR / "01_lead_3H_then_4H.json", SCENARIO_DIR / "13_AKD_won.json"]
    result = runner.invoke(app, ["scenario", *map(str, paths)])
    assert result.exit_code == 0, result.output
    out = lines(result.stdout)
    assert len(out) == 2
    for path, line in zip(paths, out, strict=True):
        assert line["chips"] == load(path)["expect"]["chips"]


def test_cli_stdin_json_lines_with_a_broken_line() -> None:
    good = json.dumps(s1())
    text = f"{good}\n\n{{broken\n{good}\n"
    result = runner.invoke(app, ["scenario", "-"], input=text)
    assert result.exit_code == 2
    out = lines(result.stdout)
    assert len(out) == 3
    assert out[0]["chips"] == {"Ann": 100, "Bob": 86}
    assert list(out[1]) == ["error"] and out[1]["error"].startswith("stdin line 3: not JSON")
    assert out[2] == out[0]


def test_cli_error_line_exit_status_and_the_others_still_run(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(s1(players=[f"P{i}" for i in range(9)])), encoding="utf-8")
    missing = tmp_path / "missing.json"
    good = SCENARIO_DIR / "01_lead_3H_then_4H.json"
    result = runner.invoke(app, ["scenario", str(bad), str(missing), str(good)])
    assert result.exit_code == 2
    out = lines(result.stdout)
    assert len(out) == 3
    assert out[0]["error"].startswith(f"{bad}: ")
    assert str(missing) in out[1]["error"]
    assert out[2]["chips"] == {"Ann": 100, "Bob": 86}
    assert "Traceback" not in result.output


def test_cli_a_file_with_a_list(tmp_path: Path) -> None:
    many = tmp_path / "many.json"
    many.write_text(json.dumps([s1(), s1(game="chess"), s1()]), encoding="utf-8")
    result = runner.invoke(app, ["scenario", str(many)])
    assert result.exit_code == 2
    out = lines(result.stdout)
    assert [next(iter(x)) for x in out] == ["chips", "error", "chips"]
    assert out[1]["error"].startswith(f"{many}[1]: ")


def test_cli_broken_json_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"players": ', encoding="utf-8")
    result = runner.invoke(app, ["scenario", str(broken)])
    assert result.exit_code == 2
    assert lines(result.stdout)[0]["error"].startswith(f"{broken}: not JSON")


def test_cli_jsonl_file(tmp_path: Path) -> None:
    jsonl = tmp_path / "two.jsonl"
    jsonl.write_text(json.dumps(s1()) + "\n" + json.dumps(s1()) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["scenario", str(jsonl)])
    assert result.exit_code == 0
    assert len(lines(result.stdout)) == 2


def test_cli_an_engine_failure_is_a_line_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    import rummoli.games.rummoli.scenario as scenario

    def broken(data: object) -> dict[str, Any]:
        raise KeyError("oops")

    monkeypatch.setattr(scenario, "_play", broken)
    result = runner.invoke(app, ["scenario", "-"], input=json.dumps(s1()) + "\n")
    assert result.exit_code == 2
    assert "internal error" in lines(result.stdout)[0]["error"]
