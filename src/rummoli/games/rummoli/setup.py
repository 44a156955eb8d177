"""Where a Rummoli game starts: players, chips, dealer, board, and optionally fixed cards.

A new game needs only the players; a scenario (a dispute to settle, a bug report, a
golden test) also fixes the dealer, the board and the cards of the first round. Every
check of such a position happens here, before any state exists, so bad input changes
nothing and the error names the problem.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummoli.cards import CardError, card_str, parse_cards
from rummoli.engine.base import SetupError

MIN_PLAYERS = 2
MAX_PLAYERS = 8


@dataclass(frozen=True)
class Setup:
    """The start of a game. ``hands`` (seat order, then the widow) or ``deck`` fixes the
    first round's cards; with neither, the game's seed shuffles."""

    players: tuple[str, ...]
    chips: tuple[int, ...]
    dealer: int | None = None
    board: Mapping[str, int] = field(default_factory=dict)
    hands: tuple[tuple[int, ...], ...] | None = None
    deck: tuple[int, ...] | None = None
    single_round: bool = False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"players": list(self.players), "chips": list(self.chips)}
        if self.dealer is not None:
            data["dealer"] = self.dealer
        if self.board:
            data["board"] = dict(self.board)
        if self.hands is not None:
            data["hands"] = {
                name: [card_str(c) for c in hand]
                for name, hand in zip((*self.players, "widow"), self.hands, strict=True)
            }
        if self.deck is not None:
            data["deck"] = [card_str(c) for c in self.deck]
        if self.single_round:
            data["single_round"] = True
        return data


def players_from(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise SetupError("players must be a list of names")
    if not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        raise SetupError(f"Rummoli needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(value)}")
    names = tuple(p.strip() for p in value)
    if any(not n for n in names):
        raise SetupError("a player name is empty")
    if len(set(names)) != len(names):
        raise SetupError("two players have the same name")
    if "widow" in names:
        raise SetupError("'widow' is the name of the extra hand, not of a player")
    return names


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SetupError(f"{what} must be a whole number >= 0, not {value!r}")
    return value


def setup_from_dict(data: Mapping[str, Any], default_chips: int) -> Setup:
    """Read the setup part of a scenario or record, checking everything."""
    players = players_from(data.get("players"))
    raw_chips = data.get("chips", default_chips)
    if isinstance(raw_chips, list):
        if len(raw_chips) != len(players):
            raise SetupError(f"chips lists {len(raw_chips)} numbers for {len(players)} players")
        chips = tuple(_whole(c, "chips") for c in raw_chips)
    else:
        chips = (_whole(raw_chips, "chips"),) * len(players)
    dealer = data.get("dealer")
    if dealer is not None:
        if isinstance(dealer, str) and dealer in players:
            dealer = players.index(dealer)
        if isinstance(dealer, bool) or not isinstance(dealer, int):
            raise SetupError(f"dealer must be a seat index or a player's name, not {dealer!r}")
        if not 0 <= dealer < len(players):
            raise SetupError(f"dealer {dealer} is not a seat (0..{len(players) - 1})")
    board_data = data.get("board", {})
    if not isinstance(board_data, dict):
        raise SetupError("board must be an object of chips by space")
    board = {str(k): _whole(v, f"board space {k}") for k, v in board_data.items()}
    hands = deck = None
    if "hands" in data and "deck" in data:
        raise SetupError("give either hands or deck, not both")
    if "hands" in data:
        hands = _hands_from(data["hands"], players)
    elif "deck" in data:
        try:
            cards = parse_cards(data["deck"], what="deck")
        except CardError as error:
            raise SetupError(str(error)) from None
        if len(cards) != 52:
            raise SetupError(f"the deck must hold all 52 cards, not {len(cards)}")
        deck = tuple(cards)
    if (hands is not None or deck is not None) and dealer is None:
        raise SetupError("a position with fixed cards must name the dealer")
    single = data.get("single_round", False)
    if not isinstance(single, bool):
        raise SetupError("single_round must be true or false")
    return Setup(players, chips, dealer, board, hands, deck, single)


def _hands_from(value: object, players: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, dict):
        raise SetupError("hands must be an object of cards by player name and 'widow'")
    unknown = [k for k in value if k not in players and k != "widow"]
    if unknown:
        raise SetupError(f"hands names unknown player {unknown[0]!r}")
    hands: list[tuple[int, ...]] = []
    seen: dict[int, str] = {}
    for name in (*players, "widow"):
        try:
            cards = parse_cards(value.get(name, []), what=f"the hand of {name}")
        except CardError as error:
            raise SetupError(str(error)) from None
        for card in cards:
            if card in seen:
                raise SetupError(
                    f"card {card_str(card)} is in the hands of both {seen[card]} and {name}"
                )
            seen[card] = name
        hands.append(tuple(cards))
    if len(seen) != 52:
        raise SetupError(f"the hands and widow must hold all 52 cards, not {len(seen)}")
    return tuple(hands)
