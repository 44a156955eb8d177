"""The English the engine and the computer players write, translated by its shape.

Every reason a computer player gives (``?`` shows it) and every error a person can cause
at the terminal must have a known shape in :mod:`rummoli.i18n.sentences`: a reason or an
error of a new shape fails here, naming it, before a French or Russian player reads it
in English.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from rummoli import i18n
from rummoli.bots import ask_bot, make_bot
from rummoli.engine.base import CHANCE, CHANCE_ACTION, GameError
from rummoli.games import registry
from rummoli.i18n.sentences import HINTS, error, hint
from rummoli.sim.command import OptionError, build_rules
from rummoli.tui.options import parse_house_rules


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


def reasons(game: str, levels: list[str], seed: int, decisions: int) -> set[str]:
    """The reasons the computer players give over ``decisions`` decisions of a game."""
    description = registry.describe(game)
    names = [f"P{i}" for i in range(len(levels))]
    state = description.new_game(names, description.rules({}), seed)
    bots = [make_bot(level, seed * 10 + s, game) for s, level in enumerate(levels)]
    found: set[str] = set()
    while not state.is_terminal() and decisions:
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(CHANCE_ACTION)
            continue
        decision = ask_bot(bots[seat], state, seat)
        if decision.reason:
            found.add(decision.reason)
        state.apply(decision.action)
        decisions -= 1
    return found


@pytest.mark.parametrize(
    ("game", "levels", "decisions"),
    [
        ("rummoli", ["basic"] * 4, 400),
        ("rummoli", ["strong", "basic", "strong", "random"], 60),
        ("rummy", ["basic", "basic", "basic"], 300),
        ("rummy", ["strong", "strong"], 120),
    ],
)
@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_every_reason_of_the_computer_players_is_translated(
    game: str, levels: list[str], decisions: int, lang: str
) -> None:
    found = reasons(game, levels, seed=4, decisions=decisions)
    assert len(found) >= 3
    with i18n.language(lang):
        unknown = sorted(r for r in found if hint(r) == r)
        # Translated whole: no English words of a known shape left inside (a reason
        # inside a reason that matched a looser shape first would keep them).
        half = sorted(r for r in found if any(w in hint(r) for w in english_wording()))
    assert not unknown, unknown
    assert not half, half


def english_wording() -> set[str]:
    """The fixed wording of every known reason shape: its text between the fields."""
    wording = set()
    for shape in HINTS:
        for piece in re.split(r"\{\w+\}", shape.message):
            piece = piece.strip(" :,()")
            if len(piece.split()) >= 2:
                wording.add(piece)
    return wording


def test_a_nested_reason_is_translated_whole() -> None:
    with i18n.language("fr"):
        assert hint("fold: two pair, 31% to win, not worth the call") == (
            "se coucher\u202f: deux paires, 31\u00a0% de chances de gagner, "
            "ça ne vaut pas de suivre"
        )
    with i18n.language("ru"):
        assert hint("raise 30: +4.1 chips over the round (call: -1.0)", {"action": str}) == (
            "raise 30: +4,1 фишки за раунд (call: -1,0)"
        )


def test_a_sentence_of_no_known_shape_stays_as_it_is() -> None:
    with i18n.language("fr"):
        assert hint("a brand new kind of reason") == "a brand new kind of reason"


def _errors() -> list[str]:
    """The errors a person can cause from the terminal, as the engine writes them."""
    out = []
    bad_rules = [
        ["colour=red"],
        ["widow=sometimes"],
        ["must_claim=maybe"],
        ["starting_chips=0"],
        ["bet_limit=0"],
    ]
    for items in bad_rules:
        try:
            build_rules(items, None, "rummoli")
        except OptionError as problem:
            out.append(str(problem))
    for items, preset, game in (
        ([], "nope", "rummoli"),
        ([], "x", "rummy"),
        (["target=0"], None, "rummy"),
    ):
        try:
            build_rules(items, preset, game)
        except OptionError as problem:
            out.append(str(problem))
    for call in (
        lambda: registry.describe("chess"),
        lambda: registry.describe("rummy").check_players(7),
        lambda: registry.replay("{}"),
        lambda: registry.replay("not json"),
        lambda: parse_house_rules(["widow"]),
    ):
        try:
            call()
        except (GameError, ValueError) as problem:
            out.append(str(problem))
    return out


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_the_errors_a_person_can_cause_are_translated(lang: str) -> None:
    found = _errors()
    assert len(found) == 13
    with i18n.language(lang):
        unknown = [e for e in found if error(e) == e]
    assert not unknown, unknown


def test_a_translated_error_keeps_names_codes_and_numbers() -> None:
    with i18n.language("ru"):
        message = error("house rule widow must be one of exchange_or_auction, none, not 'x'")
    assert message == (
        "домашнее правило widow принимает значения exchange_or_auction, none, а не 'x'"
    )


def test_a_bound_is_translated_with_the_numbers_of_the_language() -> None:
    with pytest.raises(OptionError) as problem:
        build_rules(["target=0"], None, "rummy")
    english = str(problem.value)
    assert english == "house rule target must be a whole number from 1 to 10000, not 0"
    with i18n.language("fr"):
        assert error(english) == (
            "la règle maison target doit être un nombre entier de 1 à 10\u202f000, pas 0"
        )
    with i18n.language("ru"):
        assert error(english) == (
            "домашнее правило target должно быть целым числом от 1 до 10\u00a0000, а не 0"
        )
