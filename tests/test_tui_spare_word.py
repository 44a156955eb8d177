"""The terminal names each game's spare hand as its layout does: Rummoli's widow,
Michigan's spare hand, Tripoley's dead hand (STOPS.md), in the deal's line and a stop's."""

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
