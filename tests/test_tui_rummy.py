"""Basic Rummy in the terminal, driven by typed input: whole matches, bad input, no peeking."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from typer.testing import CliRunner

from conftest import Screen, cards_on_screen, new_console, set_bot_levels
from rummoli.bots import Bot, Decision, make_bot
from rummoli.cards import card_str, cards_of, parse_card
from rummoli.cli import app
from rummoli.engine.base import Event
from rummoli.games import registry
from rummoli.games.registry import replay
from rummoli.games.rummy import Rules, RummyState, setup_from_dict
from rummoli.games.rummy import actions as act
from rummoli.games.rummy.view import events_for
from rummoli.tui.rummy import render
from rummoli.tui.rummy.input import TableCommand, parse_line
from rummoli.tui.rummy.narrate import RummyNarrator
from rummoli.tui.rummy.play import default_level, play_rummy, run_rummy_play
from rummoli.tui.rummy.summary import HandTally

NAMES = ["You", "Bea", "Cy", "Di"]


if TYPE_CHECKING:
    _Reads = RummyState  # it reads like the state (every other attribute is the state's)
else:
    _Reads = object


class Watched(_Reads):
    """A match that notes what seat 0 was allowed to learn, and who took which action.

    ``known``: every card named in an event seat 0 may see, this hand (the cut's cards
    stay known: they came from the cut's own deck, before the deal). A wrapper around
    the state, not a subclass: the state's class is compiled by mypyc, which a Python
    class cannot extend.
    """

    def __init__(self, state: RummyState) -> None:
        self.state = state
        self.known: set[str] = set()
        self.cut: set[str] = set()
        self.log: list[tuple[int, int]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.state, name)

    def apply(self, action: int) -> list[Event]:
        self.log.append((self.current_player(), action))
        events = self.state.apply(action)
        for event in events_for(events, 0, self.names):
            if event["type"] == "dealer":
                self.known = set()
            for key in ("card", "cards"):
                value = event.get(key)
                if isinstance(value, str):
                    self.known.add(value)
                elif isinstance(value, list):
                    self.known.update(value)
            if event["type"] == "cut":
                self.cut.add(event["card"])
        return events

    def human_actions(self) -> list[int]:
        return [a for seat, a in self.log if seat == 0]

    def hidden(self) -> set[str]:
        """The cards seat 0 may not see now: other hands and the stock, less any card an
        event has shown it this hand."""
        mask = 0
        for seat in range(1, len(self.names)):
            mask |= self.hands[seat]
        texts = {card_str(c) for c in cards_of(mask)} | {card_str(c) for c in self.stock}
        return texts - self.known - self.cut


def new_match(seed: int, players: int = 2, target: int = 25) -> tuple[Watched, dict[int, Bot]]:
    state = Watched(RummyState.new_game(NAMES[:players], Rules(target=target), seed=seed))
    bots = {s: make_bot("random", seed * 10 + s, game="rummy") for s in range(1, players)}
    return state, bots


def choose(state: RummyState, rng: random.Random) -> int:
    """A keen player: melds and lays off whenever he can, else draws or discards at random."""
    legal = state.legal_actions()
    plays = [a for a in legal if act.is_meld_action(a) or act.is_layoff_action(a)]
    return rng.choice(plays or legal)


def _card_word(card: int, rng: random.Random) -> str:
    text = card_str(card)
    if text[0] == "T" and rng.random() < 0.5:
        text = "10" + text[1]
    return text.lower() if rng.random() < 0.5 else text


def typed(action: int, state: RummyState, rng: random.Random) -> str:
    """How a person might type ``action``: every accepted form, picked at random."""
    if action == act.DRAW_STOCK:
        return rng.choice(["s", "stock", "draw", "draw stock", "S"])
    if action == act.DRAW_DISCARD:
        return rng.choice(["t", "take", "draw discard", "discard", "T"])
    if act.is_meld_action(action):
        cards = list(cards_of(act.meld_of(action)))
        rng.shuffle(cards)
        return rng.choice(["meld", "m"]) + " " + " ".join(_card_word(c, rng) for c in cards)
    if act.is_layoff_action(action):
        card, slot = act.layoff_of(action)
        word = _card_word(card, rng)
        slots = [
            act.layoff_of(a)[1]
            for a in state.legal_actions()
            if act.is_layoff_action(a) and act.layoff_of(a)[0] == card
        ]
        forms = [f"lay {word} on {slot + 1}", f"l {word} {slot + 1}", f"lay off {word} #{slot + 1}"]
        if slots == [slot]:
            forms.append(f"lay {word}")
        return rng.choice(forms)
    return rng.choice(["d ", "discard "]) + _card_word(act.discard_of(action), rng)


def typing_human(
    state: Watched,
    rng: random.Random,
    intended: list[int],
    on_prompt: Callable[[str], None] | None = None,
    lines: Iterable[str] = (),
) -> Callable[[str], str]:
    """A read_line that types ``lines`` first, then a move at every "> " prompt and Enter
    elsewhere; every move it means is noted in ``intended``."""
    queue = list(lines)

    def read_line(prompt: str) -> str:
        if on_prompt is not None:
            on_prompt(prompt)
        if queue:
            return queue.pop(0)
        if prompt != "> ":
            return ""
        action = choose(state, rng)
        intended.append(action)
        return typed(action, state, rng)

    return read_line


# ---------------------------------------------------------------------- whole matches


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4), (4, 2), (6, 3)])
def test_whole_matches_typed_move_by_move_never_show_a_hidden_card(
    seed: int, players: int, tmp_path: Path
) -> None:
    state, bots = new_match(seed, players)
    console, out = new_console()
    screen = Screen(out)
    checked = 0

    def check(prompt: str) -> None:
        nonlocal checked
        leaked = cards_on_screen(screen.new_text()) & state.hidden()
        assert not leaked, f"hidden cards on screen: {sorted(leaked)}"
        checked += 1

    intended: list[int] = []
    human = typing_human(state, random.Random(seed), intended, check)
    assert play_rummy(state, console, human, bots, save_dir=tmp_path) == 0
    text = out.getvalue()
    assert state.is_terminal()
    # Every move typed became exactly the action meant, and nothing else was applied.
    assert state.human_actions() == intended
    assert checked > 10
    assert "Match over" in text and "Hand 1 over" in text
    standings = text.split("Match over")[1]
    for name, score in zip(state.names, state.scores, strict=True):
        assert re.search(rf"\d\. {name}\s+{score} points", standings)
    winner = state.match_leader()
    assert max(state.scores) >= 25
    assert ("You win the match!" if winner == 0 else f"{state.names[winner]} wins") in text
    for line in text.splitlines():
        assert cell_len(line) <= 80, line


def test_the_leak_check_sees_cards_when_they_are_shown() -> None:
    """The check above means something: the own hand is on screen, in the form it seeks,
    and a card still hidden would be caught."""
    state, bots = new_match(7)
    console, out = new_console()
    hands: list[set[str]] = []
    hidden: list[set[str]] = []

    def remember(prompt: str) -> None:
        if prompt == "> " and not hands:
            hands.append({card_str(c) for c in cards_of(state.hands[0])})
            hidden.append(state.hidden())

    play_rummy(state, console, typing_human(state, random.Random(7), [], remember), bots)
    assert hands and hands[0] <= cards_on_screen(out.getvalue())
    assert len(hidden[0]) > 20  # the other hand and the stock were hidden at that point


def test_opponents_draws_from_the_stock_are_told_without_the_card() -> None:
    state = RummyState.new_game(["You", "Bea"], seed=3)
    state.apply(0)
    while state.current_player() != 1 or act.DRAW_STOCK not in state.legal_actions():
        state.apply(state.legal_actions()[-1])
    events = state.apply(act.DRAW_STOCK)
    drew = [e for e in events if e[0] == "drew"]
    assert drew and drew[0][1] == 1  # Bea drew a card the engine knows...
    narrator = RummyNarrator("You")
    for event in events_for(events, 0, state.names):
        narrator.feed(event)
    line = " ".join(t.plain for t in narrator.take())
    assert "Bea draws from the stock" in line
    assert not cards_on_screen(line)  # ...and You are not told which


def test_a_saved_record_replays_to_the_same_scores(tmp_path: Path) -> None:
    state, bots = new_match(4)
    console, out = new_console()
    answers = typing_human(state, random.Random(4), [])

    def read_line(prompt: str) -> str:
        return "save" if "Enter to leave" in prompt else answers(prompt)

    play_rummy(state, console, read_line, bots, save_dir=tmp_path)
    saved = list(tmp_path.glob("rummy-4*.json"))
    assert len(saved) == 1
    again = replay(json.loads(saved[0].read_text()))
    assert isinstance(again, RummyState)
    assert again.scores == state.scores and again.is_terminal()
    assert "Saved the match record" in out.getvalue()


def test_end_stops_the_match_after_the_hand() -> None:
    state, bots = new_match(6, target=500)
    console, out = new_console()
    play_rummy(state, console, typing_human(state, random.Random(6), [], lines=["end"]), bots)
    text = out.getvalue()
    assert "The match ends after this hand" in text
    assert state.is_terminal() and state.hand_no == 1
    assert "Hand 1 over" in text and "Match over" in text


def test_quit_and_end_of_input_leave_with_the_standings() -> None:
    for lines, reader in ((["q"], None), ([], "eof")):
        state, bots = new_match(5)
        console, out = new_console()

        def no_input(prompt: str) -> str:
            raise EOFError

        human = no_input if reader else typing_human(state, random.Random(5), [], lines=lines)
        assert play_rummy(state, console, human, bots) == 0
        assert not state.is_terminal()
        assert "You leave the table" in out.getvalue()


# ---------------------------------------------------------------------- bad input


def test_bad_input_asks_again_and_changes_nothing() -> None:
    plain, bots = new_match(8)
    console, _ = new_console()
    play_rummy(plain, console, typing_human(plain, random.Random(8), []), bots)

    fumbled, bots = new_match(8)
    console, out = new_console()
    snapshots: list[tuple[int, list[int]]] = []
    bad_draw = ["zz", "meld 7h 8h 9h", "d ks", "lay 5c on 2", "99", "meld"]

    def snapshot(prompt: str) -> None:
        snapshots.append((len(fumbled.actions), list(fumbled.hands)))

    human = typing_human(fumbled, random.Random(8), [], snapshot, bad_draw)
    play_rummy(fumbled, console, human, bots)
    text = out.getvalue()
    # Nothing moved while the bad lines were typed, and the match went on as without them.
    assert all(s == snapshots[0] for s in snapshots[: len(bad_draw) + 1])
    assert fumbled.actions == plain.actions
    assert "'zz' is not a move" in text
    assert text.count("draw first: s for the stock") == 4
    assert "'99' is not a move" in text


def position(hands: dict[str, list[str]], melds: list[list[str]], discard: list[str]) -> Any:
    """A first hand fixed card by card (the rest is the stock), You to play first."""
    used = {c for cards in [*hands.values(), *melds, discard] for c in cards}
    stock = [card_str(c) for c in range(52) if card_str(c) not in used]
    data = {"players": ["You", "Bea"], "dealer": "Bea", "hands": hands}
    data |= {"melds": melds, "discard": discard, "stock": stock}
    return setup_from_dict(data)


def after_draw(
    hands: dict[str, list[str]],
    melds: list[list[str]],
    discard: list[str],
    draw: int,
    rules: Rules | None = None,
) -> tuple[RummyState, dict[str, Any]]:
    state = RummyState(rules or Rules(), position(hands, melds, discard), seed=1)
    state.apply(0)
    state.apply(draw)
    return state, state.view(0)


def refuses(view: dict[str, Any], one_meld_per_turn: bool, lines: dict[str, str]) -> None:
    """Each typed line (a key of ``lines``) is refused with the message it maps to, a
    regular expression: what the player is told instead of a move."""
    for line, message in lines.items():
        with pytest.raises(ValueError, match=message):
            parse_line(line, view, one_meld_per_turn)


def test_a_card_that_fits_two_melds_is_laid_where_the_player_says() -> None:
    hands = {"You": ["7H", "2C", "9D", "KS"], "Bea": ["3C", "8D", "JD", "QH"]}
    melds = [["4H", "5H", "6H"], ["7C", "7D", "7S"]]
    _, view = after_draw(hands, melds, ["5S"], act.DRAW_DISCARD)
    seven = parse_card("7H")
    refuses(view, False, {"lay 7H": r"fits more than one meld: say which, lay 7♥ on 1 or 2"})
    assert parse_line("lay 7h on 1", view, False) == act.layoff_action(seven, 0)
    assert parse_line("l 7H #2", view, False) == act.layoff_action(seven, 1)
    assert parse_line("lay off 7H 2", view, False) == act.layoff_action(seven, 1)
    refuses(
        view,
        False,
        {
            "lay 7H on 3": "there is no meld 3",
            "lay 9D": "9♦ fits no meld on the table",
            "lay 9D on 1": r"9♦ does not fit #1 \(4♥ 5♥ 6♥\), nor any other",
            "d 8D": "you do not hold 8♦",
            "discard 5S": "you took 5♠ from the discard pile this turn",
            "s": "you have already drawn",
            "d 1X": "not a card",
            "ks": "what to do with KS",
        },
    )
    assert parse_line("d KS", view, False) == act.discard_action(parse_card("KS"))
    assert parse_line("sort", view, False) is TableCommand.SORT
    assert parse_line("?", view, False) is TableCommand.MOVES


def test_the_last_card_rule_and_one_meld_a_turn_are_explained() -> None:
    hands = {"You": ["5H", "6H", "7H"], "Bea": ["3C", "8D", "JD", "QH"]}
    _, view = after_draw(hands, [], ["KS"], act.DRAW_DISCARD)
    refuses(
        view,
        False,
        {
            "meld 5h 6h 7h": "would leave you only K♠",
            "meld 5h 6h 8h": "not a meld: a meld is 3 or 4 cards",
            "meld": "you have no meld to lay down",
        },
    )

    two = {"You": ["2C", "3C", "4C", "9D", "9H", "9S", "KH"], "Bea": ["3D", "8D", "JD", "QH"]}
    rules = Rules(one_meld_per_turn=True)
    state, view = after_draw(two, [], ["5S"], act.DRAW_DISCARD, rules)
    refuses(view, True, {"meld": "which meld"})
    state.apply(parse_line("meld 2C 3C 4C", view, True))
    refuses(state.view(0), True, {"meld 9d 9h 9s": "one meld a turn"})


def test_meld_alone_lays_down_the_only_meld() -> None:
    hands = {"You": ["5H", "6H", "7H", "KD"], "Bea": ["3C", "8D", "JD", "QH"]}
    _, view = after_draw(hands, [], ["2C"], act.DRAW_DISCARD)
    run = sum(1 << parse_card(c) for c in ("5H", "6H", "7H"))
    action = parse_line("meld", view, False)
    assert isinstance(action, int) and act.meld_of(action) == run


def test_the_hand_is_shown_by_suit_or_by_rank_with_aces_low() -> None:
    held = ["KS", "AC", "2C", "AS", "TD"]
    assert render.hand(held, render.BY_SUIT).plain == "A♣ 2♣  10♦  A♠ K♠"
    assert render.hand(held, render.BY_RANK).plain == "A♣ A♠  2♣  10♦  K♠"


def test_the_hand_summary_tells_going_rummy_and_every_hand_shown() -> None:
    tally = HandTally("You")
    for event in (
        {"type": "goes_out", "player": "Bea", "going_rummy": True},
        {"type": "show", "player": "You", "cards": ["AC", "KS"], "points": 11},
        {"type": "hand_won", "player": "Bea", "points": 22},
    ):
        tally.feed(event)
    lines = [t.plain for t in tally.summary()]
    assert lines[0] == "Bea went out with Going Rummy and won 22 points (11 doubled):"
    assert lines[1] == "  You   11 points  A♣ K♠"


def test_help_moves_sort_pile_and_hint_at_the_prompt() -> None:
    state, bots = new_match(3)
    console, out = new_console()
    lines = ["h", "?", "sort", "pile", "hint"]
    play_rummy(
        state,
        console,
        typing_human(state, random.Random(3), [], lines=lines),
        bots,
        hint_bot=make_bot("random", 1, game="rummy"),
    )
    text = out.getvalue()
    assert "At any prompt" in text
    assert re.search(r"Draw: +s \(stock\) · t \(take [2-9TJQKA][♣♦♥♠]\)", text)
    assert re.search(r"Hint: (s \(stock\)|t \(take)", text)
    assert "Hand by rank" in text
    assert "Pile (top last)" in text


def _first(seed: int) -> Bot:
    class First:
        def choose(self, observation: Any, legal: list[int]) -> Decision:
            return Decision(legal[0], "the first legal move")

    return First()


def test_levels_are_read_when_the_table_is_set_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only random: no hint. A stronger level added to the list becomes the default
    opponent and gives the hint, without a change here."""
    set_bot_levels(
        monkeypatch, "rummy", {"random": registry.describe("rummy").bots["random"]}, keep=False
    )
    assert default_level() == "random"
    console, out = new_console()
    answers = iter(["hint", "q"])
    run_rummy_play(seed=2, console=console, read_line=lambda prompt: next(answers))
    assert "No hint: Rummy has only the random computer player" in out.getvalue()
    assert "Bea (Beginner)" in out.getvalue()

    set_bot_levels(monkeypatch, "rummy", {"first": _first})
    assert default_level() == "first"
    console, out = new_console()
    answers = iter(["hint", "q"])
    run_rummy_play(seed=2, console=console, read_line=lambda prompt: next(answers))
    assert "Bea (First)" in out.getvalue()  # a level without a label: its code
    assert "Hint: s (stock) (the first legal move)" in out.getvalue()


# ---------------------------------------------------------------------- the command line


def test_the_cli_starts_a_rummy_match_and_leaves() -> None:
    result = CliRunner().invoke(
        app,
        ["play", "--game", "rummy", "--seed", "5", "-p", "3", "--rule", "target=60"],
        input="q\n",
    )
    assert result.exit_code == 0, result.output
    assert "Basic Rummy to 60 points · seed 5 · rules: target=60" in result.output
    assert "Hand 1 · to 60 points" in result.output
    assert "You leave the table" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "poker"], "unknown game 'poker'"),
        (["--game", "rummy", "--players", "5"], "Basic Rummy needs 2 to 4 players, not 5"),
        (["--game", "rummy", "--chips", "50"], "--chips is a Rummoli option"),
        (["--game", "rummy", "--rounds", "3"], "--rounds is a Rummoli option"),
        (["--game", "rummy", "--preset", "rulebook_method_1"], "--preset is a Rummoli option"),
        (["--game", "rummy", "--rule", "target=abc"], "target must be a whole number"),
        (
            ["--game", "rummy", "--rule", "widow=none"],
            "Basic Rummy house rule widow; house rules are target",
        ),
        (["--game", "rummy", "--rule", "one_meld_per_turn"], "NAME=VALUE"),
        (["--game", "rummy", "--level", "genius"], "unknown bot level 'genius'"),
        (["--game", "rummy", "-p", "3", "--opponents", "random"], "names 1 level for 2"),
    ],
)
def test_the_cli_rejects_bad_rummy_options(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["play", *args, "--seed", "1"], input="q\n")
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_the_cli_still_plays_rummoli_by_default() -> None:
    result = CliRunner().invoke(app, ["play", "--seed", "5", "-p", "3"], input="q\n")
    assert result.exit_code == 0, result.output
    assert "Rummoli" in result.output and "Basic Rummy" not in result.output


class AsciiOut(io.StringIO):
    """An output that, like an old terminal, can only take ASCII."""

    encoding = "ascii"


def test_a_terminal_without_unicode_gets_ascii() -> None:
    out = AsciiOut()
    state, bots = new_match(5)
    human = typing_human(state, random.Random(5), [])
    assert play_rummy(state, Console(file=out, width=80), human, bots) == 0
    text = out.getvalue()
    assert text.isascii()
    assert "Match over" in text
    assert re.search(r"Hand   .*\b[2-9TJQKA][CDHS]\b", text)


def test_a_hint_with_a_score_says_what_the_score_means() -> None:
    from rummoli.tui.rummy.play import SCORE_EXPLAINED

    class Scoring:
        def choose(self, observation: Any, legal: list[int]) -> Decision:
            return Decision(legal[0], "discard 9S (+1.25)")

    class Plain:
        def choose(self, observation: Any, legal: list[int]) -> Decision:
            return Decision(legal[0], "go out")

    for bot, explained in ((Scoring(), True), (Plain(), False)):
        state, bots = new_match(3)
        console, out = new_console()
        human = typing_human(state, random.Random(3), [], lines=["hint"])
        play_rummy(state, console, human, bots, hint_bot=bot)
        text = " ".join(out.getvalue().split())
        assert (" ".join(SCORE_EXPLAINED.split()) in text) is explained


def stalled_hand_events() -> list[dict[str, Any]]:
    """The events seat 0 sees at the end of a real hand the stall rule ends: both players
    only take the discard top and discard another card, turn after turn."""
    state = RummyState.new_game(["You", "Bea"], Rules(stall_rule=True), seed=3)
    events = list(state.apply(0))
    while not state.stalemate:
        assert state.winner < 0 and len(events) < 2_000
        events += state.apply(act.DRAW_DISCARD)
        if not state.stalemate:  # discard another card than the one taken
            events += state.apply(max(a for a in state.legal_actions() if act.is_discard_action(a)))
    return events_for(events, 0, state.names)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            "Stalemate: for 40 turns in a row, players only took the discard top and laid "
            "nothing down. Nobody scores.",
        ),
        (
            "fr",
            "Impasse\u202f: pendant 40 tours d'affilée, les joueurs n'ont fait que prendre la "
            "carte du dessus de la défausse, sans rien poser. Personne ne marque.",
        ),
        (
            "ru",
            "Пат: 40 ходов подряд игроки только брали верхнюю карту сброса и ничего не "
            "выкладывали. Очков не получает никто.",
        ),
    ],
)
def test_a_stalled_hand_is_narrated_in_every_language(lang: str, expected: str) -> None:
    from rummoli import i18n

    events = stalled_hand_events()
    assert {"type": "stalemate", "reason": "stalled", "why": None} in events
    with i18n.language(lang):
        narrator = RummyNarrator("You")
        for event in events:
            narrator.feed(event)
        lines = [t.plain for t in narrator.take()]
    assert lines[-1] == expected


def test_every_stalemate_reason_of_the_engine_has_its_sentence() -> None:
    from rummoli import i18n
    from rummoli.games.rummy import stalemate

    reasons = [
        (stalemate.STOCK_OUT, None),
        (stalemate.BLOCKED, None),
        (stalemate.BLOCKED, stalemate.ONE_CARD_EACH),
        (stalemate.BLOCKED, stalemate.NO_MELD),
        (stalemate.STALLED, None),
    ]
    for lang in ("en", "fr", "ru"):
        with i18n.language(lang):
            said = set()
            for reason, why in reasons:
                narrator = RummyNarrator("You")
                narrator.feed({"type": "stalemate", "reason": reason, "why": why})
                (line,) = narrator.take()
                # An unknown reason would be shown as its code: "Stalemate: stalled. ..."
                assert f" {reason}. " not in line.plain, (lang, line.plain)
                assert why is None or why not in line.plain, (lang, line.plain)
                said.add(line.plain)
        assert len(said) == len(reasons), lang  # a different sentence for each
