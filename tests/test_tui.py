"""Terminal play, driven by scripted input: whole games, bad input, and no peeking."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console
from typer.testing import CliRunner

from conftest import Screen, cards_on_screen, new_console, run_play_scripted, script
from rummoli.bots import Bot, make_bot
from rummoli.cards import card_str, cards_of
from rummoli.cli import app
from rummoli.engine.base import CHANCE_ACTION
from rummoli.games.rummoli import Rules, RummoliState, replay
from rummoli.tui.menu import Menu
from rummoli.tui.options import parse_house_rules
from rummoli.tui.stops.play import play_game


def new_game(seed: int, players: int = 3, rounds: int = 2) -> tuple[RummoliState, dict[int, Bot]]:
    names = ["You", "Bea", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"][:players]
    state = RummoliState.new_game(names, Rules(rounds=rounds), seed=seed)
    bots = {s: make_bot("random", seed * 10 + s) for s in range(1, players)}
    return state, bots


def test_a_whole_game_ends_with_standings(tmp_path: Path) -> None:
    state, bots = new_game(5)
    console, out = new_console()
    assert play_game(state, console, script([]), bots, save_dir=tmp_path) == 0
    text = out.getvalue()
    assert state.is_terminal()
    assert "Game over" in text
    standings = text.split("Game over")[1]
    for name, chips in state.standings():
        assert re.search(rf"\d\. {name}\s+{chips} chips", standings)
    assert "Round 1 over" in text


def test_a_wrong_key_asks_again_and_changes_nothing(tmp_path: Path) -> None:
    plain, _ = new_game(8)
    console, _ = new_console()
    play_game(plain, console, script([]), new_game(8)[1], save_dir=tmp_path)
    fumbled, bots = new_game(8)
    console, out = new_console()
    play_game(fumbled, console, script(["zz", "99", "", "raise 100000", "1"]), bots)
    text = out.getvalue()
    assert "'zz' is not a choice" in text
    assert "there is no choice 99" in text
    assert fumbled.actions == plain.actions


def test_an_amount_can_be_typed_or_asked_for() -> None:
    state, bots = new_game(3, rounds=1)
    console, out = new_console()
    prompts: list[str] = []
    play_game(state, console, script(["2", "abc", "1"], prompts.append), bots)
    assert any("how much?" in p for p in prompts)
    assert "type a whole number from" in out.getvalue()
    assert "You bet 1" in out.getvalue()


def test_quit_shows_the_standings_at_once() -> None:
    state, bots = new_game(5)
    console, out = new_console()
    assert play_game(state, console, script(["q"]), bots) == 0
    assert not state.is_terminal()
    assert "You leave the table" in out.getvalue()
    assert "You " in out.getvalue().split("You leave the table")[1]


def test_end_of_input_leaves_quietly() -> None:
    def no_input(prompt: str) -> str:
        raise EOFError

    state, bots = new_game(5)
    console, out = new_console()
    assert play_game(state, console, no_input, bots) == 0
    assert "You leave the table" in out.getvalue()


def test_save_writes_a_record_that_replays(tmp_path: Path) -> None:
    state, bots = new_game(5, rounds=1)
    console, _ = new_console()
    # When the script runs out every prompt gets "1"; the final prompt gets "save".
    answers = script([], None)

    def read_line(prompt: str) -> str:
        return "save" if "save" in prompt else answers(prompt)

    play_game(state, console, read_line, bots, save_dir=tmp_path)
    saved = list(tmp_path.glob("rummoli-5*.json"))
    assert len(saved) == 1
    assert replay(json.loads(saved[0].read_text())).chips == state.chips


def test_help_and_end_commands() -> None:
    state, bots = new_game(5, rounds=0)
    console, out = new_console()
    assert play_game(state, console, script(["h", "end"]), bots) == 0
    text = out.getvalue()
    assert "At any prompt" in text
    assert "The game ends after this round" in text
    assert state.is_terminal() and state.round_no == 1


@pytest.mark.parametrize(
    ("rules", "preset", "message"),
    [
        (["widow=bogus"], None, "widow must be one of"),
        (["nonsense"], None, "NAME=VALUE"),
        (
            ["colour=red"],
            None,
            "Rummoli house rule colour; house rules are",
        ),
        ([], "nope", "unknown preset"),
        (["ace_of_spades=2"], None, "true or false"),
    ],
)
def test_bad_house_rules_print_an_error_and_return_2(
    rules: list[str], preset: str | None, message: str
) -> None:
    code, text = run_play_scripted(rules=rules, preset=preset)
    assert code == 2
    assert message in text
    assert "Traceback" not in text


def test_house_rules_are_parsed_by_type() -> None:
    parsed = parse_house_rules(["must_claim=true", "cant_lead_fine=2", "widow=none"])
    assert parsed == {"must_claim": True, "cant_lead_fine": 2, "widow": "none"}


def test_house_rules_and_a_preset_reach_the_game() -> None:
    code, text = run_play_scripted(
        chips=50,
        rules=["must_claim=on", "cant_lead_fine=1"],
        preset="rulebook_method_1",
        seed=4,
        name="Zed",
    )
    assert code == 0
    head = " ".join(text.split("(play this deal again")[0].split())
    for part in ("poker=showdown", "must_claim=true", "cant_lead_fine=1", "starting_chips=50"):
        assert part in head


def random_human(rng: random.Random, on_prompt: Callable[[str], None]) -> Callable[[str], str]:
    """A human who types a random small number, and a valid amount when asked for one."""

    def read_line(prompt: str) -> str:
        on_prompt(prompt)
        amounts = re.search(r"\((\d+)-(\d+)\)", prompt)
        if amounts:
            return str(rng.randint(int(amounts[1]), int(amounts[2])))
        return str(rng.randint(1, 3))

    return read_line


@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 4), (3, 5), (4, 2), (9, 8)])
def test_the_screen_never_shows_hidden_cards(seed: int, players: int) -> None:
    state, bots = new_game(seed, players, rounds=3)
    console, out = new_console()
    screen = Screen(out)
    twin = state.clone()
    cut_cards = {e[2] for e in twin.apply(CHANCE_ACTION) if e[0] == "cut"}
    checked = 0

    def check(prompt: str) -> None:
        nonlocal checked
        text = screen.new_text()
        if state.is_terminal():
            return
        hidden = state.widow & ~state.known_widow
        for seat in range(1, players):
            hidden |= state.hands[seat] & ~state.shown.get(seat, 0)
        hidden_text = {card_str(c) for c in cards_of(hidden) if c not in cut_cards}
        # The board line names its pay spaces by their cards (Q♣ 4): no card shown.
        shown = "\n".join(line for line in text.splitlines() if not line.startswith("Board"))
        leaked = cards_on_screen(shown) & hidden_text
        assert not leaked, f"hidden cards on screen: {sorted(leaked)}"
        checked += 1

    play_game(state, console, random_human(random.Random(seed), check), bots)
    assert checked >= 3
    for line in out.getvalue().splitlines():
        assert cell_len(line) <= 80, line


def test_own_hand_and_laid_cards_are_on_screen() -> None:
    """The check above means something: cards do appear, in the form it looks for."""
    state, bots = new_game(5)
    console, out = new_console()
    hands: list[set[str]] = []

    def remember(prompt: str) -> None:
        if state.current_player() == 0:
            hands.append({card_str(c) for c in cards_of(state.hands[0])})

    play_game(state, console, script([], remember), bots)
    assert hands and hands[0] <= cards_on_screen(out.getvalue())


def test_menu_merges_amounts_into_a_range() -> None:
    state, _ = new_game(3, rounds=1)
    legal = [4, *range(state.codec.raise_to(1), state.codec.raise_to(91) + 1)]
    menu = Menu(legal, state.action_to_text, state.action_from_text)
    assert [e.label for e in menu.entries] == ["check", "bet 1-91"]
    assert menu.parse("bet 30") == state.codec.raise_to(30)
    assert menu.parse("raise 30") == state.codec.raise_to(30)
    with pytest.raises(ValueError, match="from 1 to 91"):
        menu.parse("bet 92")


def test_the_cli_plays_a_game() -> None:
    result = CliRunner().invoke(
        app, ["play", "--players", "3", "--rounds", "1", "--seed", "5"], input="1\n" * 300
    )
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    assert "seed 5" in result.output


def test_the_cli_rejects_a_bad_rule() -> None:
    result = CliRunner().invoke(app, ["play", "--rule", "widow=maybe", "--seed", "1"])
    assert result.exit_code == 2
    assert "widow must be one of" in result.output


class AsciiOut(io.StringIO):
    """An output that, like an old terminal, can only take ASCII."""

    encoding = "ascii"


def test_a_terminal_without_unicode_gets_ascii() -> None:
    out = AsciiOut()
    state, bots = new_game(5)
    assert play_game(state, Console(file=out, width=80), script([]), bots) == 0
    text = out.getvalue()
    assert text.isascii()
    assert "Game over" in text
    assert re.search(r"Hand   .*\b[2-9TJQKA][CDHS]\b", text)
