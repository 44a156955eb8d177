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
``expect_views`` (optional, with ``"views": true``)
    for a seat (a player's name, or ``spectator``): fields of its view at the end, each
    compared whole (``{"Ann": {"hand": [...]}}``).
``expect_seat_events_contain`` / ``expect_seat_no_events`` (optional, with ``"views": true``)
    for a seat: event patterns that must match the events that seat saw, in order; or
    that none of them may match (a privacy question: Bob never sees Ann's hand).

Whole games (``deals``) also compare ``deals``, ``settlement`` and ``standings``.

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
ALL = [r + s for s in "CDHS" for r in "23456789TJQKA"]
#: The other games of the Stops family keep theirs in a folder each (Basic Rummy's, in
#: ``rummy/``, are checked by ``test_rummy.py``).
FAMILY = ("michigan", "tripoley", "newmarket", "pope_joan", "poch", "nain_jaune")
GOLDEN = sorted(SCENARIO_DIR.glob("*.json")) + [
    path for game in FAMILY for path in sorted((SCENARIO_DIR / game).glob("*.json"))
]
#: The round's winner is ``rummoli_winner`` in Rummoli's answer, ``winner`` in the others'.
EXPECT_KEYS = {"chips", "board", "laid", "poker_winners", "rummoli_winner", "winner", "deadlock"}
GAME_KEYS = {"chips", "board", "deals", "settlement", "standings"}
FILE_KEYS = {
    "description",
    "scenario",
    "expect",
    "expect_events_contain",
    "expect_no_events",
    "expect_error_contains",
    "expect_views",
    "expect_seat_events_contain",
    "expect_seat_no_events",
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


@pytest.mark.parametrize("path", GOLDEN, ids=[str(p.relative_to(SCENARIO_DIR)) for p in GOLDEN])
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
    assert set(expect) <= (GAME_KEYS if "deals" in golden["scenario"] else EXPECT_KEYS)
    assert expect or "expect_events_contain" in golden or "expect_no_events" in golden
    failures = [
        f"{key}: expected {value!r}, got {result[key]!r}"
        for key, value in expect.items()
        if result[key] != value
    ]
    assert not failures, "\n".join(failures)
    check_events(result["events"], golden)
    check_views(result, golden)

    total = sum(result["chips"].values()) + sum(result["board"].values())
    assert total == chips_given(golden["scenario"]), "chips not conserved"


def check_events(
    events: list[dict[str, Any]], golden: dict[str, Any], contain: str = "", none: str = ""
) -> None:
    """The file's event patterns: in order (a subsequence), and never."""
    pattern = missing_in_order(golden.get(contain or "expect_events_contain", []), events)
    assert pattern is None, f"no event matches {pattern} (in order)"
    for pattern in golden.get(none or "expect_no_events", []):
        found = [e for e in events if matches(pattern, e)]
        assert not found, f"unexpected event {found[0]}"


def seat_part(result: dict[str, Any], who: str) -> dict[str, Any]:
    views = result["views"]
    part: dict[str, Any] = views["spectator"] if who == "spectator" else views["players"][who]
    return part


def check_views(result: dict[str, Any], golden: dict[str, Any]) -> None:
    """``expect_views`` and the per-seat event patterns (files with ``"views": true``)."""
    keys = ("expect_views", "expect_seat_events_contain", "expect_seat_no_events")
    if not any(key in golden for key in keys):
        return
    assert golden["scenario"].get("views") is True
    for who, fields in golden.get("expect_views", {}).items():
        view = seat_part(result, who)["view"]
        for key, value in fields.items():
            assert view[key] == value, f"{who}'s view {key}: expected {value!r}, got {view[key]!r}"
    for who in {*golden.get(keys[1], {}), *golden.get(keys[2], {})}:
        seen = seat_part(result, who)["events"]
        patterns = {
            "contain": golden.get(keys[1], {}).get(who, []),
            "none": golden.get(keys[2], {}).get(who, []),
        }
        check_events(seen, {"c": patterns["contain"], "n": patterns["none"]}, "c", "n")


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


WHOLE = {"players": ["Ann", "Bob"], "dealer": "Bob", "deals": [{}]}
BAD_INPUT |= {
    "views not a flag": (s1(views="yes"), "views must be true or false"),
    "deals not a list": (WHOLE | {"deals": {}}, "deals must be a non-empty list"),
    "deals empty": (WHOLE | {"deals": []}, "deals must be a non-empty list"),
    "deal not an object": (WHOLE | {"deals": [3]}, "deal 1 must be an object"),
    "deal with an unknown field": (WHOLE | {"deals": [{"hand": {}}]}, "deal 1: unknown field"),
    "deal with hands and deck": (
        WHOLE | {"deals": [{}, {"hands": {}, "deck": []}]},
        "deal 2: give either hands or deck",
    ),
    "deal with bad cards": (WHOLE | {"deals": [{"deck": ["AS"]}]}, "deal 1: the deck must"),
    "later deal with bad cards": (
        WHOLE | {"deals": [{}, {"deck": ["AS"]}]},
        "deal 2: the deck must hold all 52 cards",
    ),
    "request_end not a flag": (
        WHOLE | {"deals": [{"request_end": 1}]},
        "deal 1: request_end must be true or false",
    ),
    "deal choices not a list": (WHOLE | {"deals": [{"choices": "keep"}]}, "deal 1: choices"),
    "choices at the top of a whole game": (
        WHOLE | {"choices": ["keep"]},
        "a whole game gives each round's cards and choices in deals, not choices",
    ),
    "a choice left over in a deal": (
        WHOLE | {"deals": [{"choices": ["keep", "pass"] + ["check"] * 2 + ["2C"] * 60}]},
        "deal 1: ",
    ),
    "cut with a bad card": (WHOLE | {"dealer": None, "cut": ["ZZ"]}, "cut: "),
    "cut and dealer": (WHOLE | {"cut": ["AS", "KS"]}, "either the dealer or the cut"),
    "cut too short": (
        {"players": ["Ann", "Bob"], "cut": ["KS", "KD"], "deals": [{}]},
        "the cut for the first dealer needs 2 more cards",
    ),
    "cut card twice in one cut": (
        {"players": ["Ann", "Bob"], "cut": ["KS", "KS"], "deals": [{}]},
        "a card comes twice in one draw",
    ),
    "laid without hands": (s1(hands=None, laid=[]), "needs the hands still held"),
    "laid not a list": (s1(laid="7H"), "laid must be a list"),
    "laid item malformed": (s1(laid=[{"card": "7H"}]), "laid card 1 must be"),
    "laid card twice": (
        s1(laid=[{"player": "Ann", "card": "2C"}, {"player": "Ann", "card": "2C"}]),
        "card 2C is laid twice",
    ),
    "laid without a lead": (s1(laid=None, lead=None) | {"laid": []}, "name the lead"),
    "one player holding cards": (
        s1(lead="Bob", hands={"Ann": ["3H"], "widow": [c for c in ALL if c != "3H"]}),
        "at least two players holding cards",
    ),
    "lead holds no card": (
        s1(
            players=["Ann", "Bob", "Cy"],
            lead="Cy",
            hands={"Ann": ["3H"], "Bob": ["4H"], "widow": [c for c in ALL if c not in "3H 4H"]},
        ),
        "the lead Cy holds no card",
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
    import rummoli.games.stops.scenario as scenario

    def broken(self: object, data: object) -> dict[str, Any]:
        raise KeyError("oops")

    monkeypatch.setattr(scenario._Runner, "_one_round", broken)
    result = runner.invoke(app, ["scenario", "-"], input=json.dumps(s1()) + "\n")
    assert result.exit_code == 2
    assert "internal error" in lines(result.stdout)[0]["error"]
