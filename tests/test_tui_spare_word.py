"""The terminal names each game's spare hand as its layout does: Rummoli's widow,
Michigan's spare hand, Tripoley's dead hand, the talon of Poch's and Nain Jaune's deals
by count (STOPS.md), in the deal's line and a stop's."""

from __future__ import annotations

import pytest

from rummoli.tui.stops.narrate import Narrator
from rummoli.tui.stops.words import game_words

EVENTS = [
    {"type": "dealer", "player": "a"},
    {"type": "widow_dealt", "count": 10},
    {"type": "widow_dead"},
    {"type": "stop", "card": "6D", "reason": "widow"},
]


@pytest.mark.parametrize(
    ("game", "word", "other"),
    [
        ("rummoli", "widow", "dead hand"),
        ("michigan", "spare hand", "widow"),
        ("tripoley", "dead hand", "widow"),
        ("newmarket", "spare hand", "widow"),
        ("pope_joan", "spare hand", "widow"),
        ("poch", "talon", "spare hand"),
        ("nain_jaune", "talon", "widow"),
    ],
)
def test_the_spare_hand_is_called_by_the_games_word(game: str, word: str, other: str) -> None:
    narrator = Narrator("a", game_words(game))
    for event in EVENTS:
        narrator.feed(event)
    text = " ".join(str(line) for line in narrator.take())
    assert f"the {word} has 10 cards" in text
    assert f"the next card is in the {word}" in text
    assert other not in text


@pytest.mark.parametrize(
    ("game", "words"),
    [
        ("rummoli", ("the widow", "widow auction")),
        ("michigan", ("the spare hand", "spare hand auction")),
        ("tripoley", ("the dead hand", "dead hand auction")),
    ],
)
def test_the_header_names_the_spare_hands_phases_by_the_games_word(
    game: str, words: tuple[str, str]
) -> None:
    from rummoli.tui.stops.render import header

    for phase, word in zip(("widow", "auction"), words, strict=True):
        view = {"game": game, "phase": phase, "players": [{"name": "a"}], "dealer": 0, "round": 1}
        assert f" · {word} · " in str(header(view, 1))


def test_a_king_ending_a_sequence_by_rank_is_not_said_to_end_its_suit() -> None:
    # Nain Jaune (STOPS.md): "a king ends the sequence and its player starts a new one";
    # the next sequence may be of any suit, so the suit's word would mislead.
    narrator = Narrator("a", game_words("nain_jaune"))
    narrator.feed({"type": "stop", "card": "KH", "reason": "sequence_king"})
    text = " ".join(str(line) for line in narrator.take())
    assert "a king ends the sequence" in text and "suit" not in text


def test_a_space_named_by_one_card_is_shown_by_its_card() -> None:
    # Michigan's boodles and Nain Jaune's corners are single cards, drawn as the page and
    # the rules write them; Rummoli's spaces keep their own forms, the pots their words.
    from rummoli.i18n.terms import space_shown

    assert [space_shown(s) for s in ("AH", "10D", "7D", "KH", "AKD")] == [
        "A♥",
        "10♦",
        "7♦",
        "K♥",
        "A-K♦",
    ]
    assert space_shown("kitty") == "kitty" and space_shown("789") == "7-8-9"
