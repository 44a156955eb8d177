"""Where a game of Basic Rummy starts: players, dealer, scores, and optionally fixed cards.

A new game needs only the players. A scenario (a dispute, a bug report, a golden test) also
fixes the dealer and the first hand's position: every hand, the stock (top first), the
discard pile (bottom first) and melds already on the table, perhaps from the middle of
the hand; or the cards of every hand of a match (each a position or a deck in dealing
order) and of the cut for the first dealer. Every check of such cards happens here,
before any state exists, so bad input changes nothing and the error names the problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rummoli.cards import CardError, card_str, cards_of, format_cards, parse_cards
from rummoli.engine.base import SetupError
from rummoli.engine.fields import draws_from, player_names, seat_from, whole
from rummoli.engine.setups import later_deal
from rummoli.games.rummy.melds import MAX_MELDS, is_meld, meld_cards, sorted_hand

MIN_PLAYERS = 2
MAX_PLAYERS = 4
#: The keys of a position (the first hand's cards), all optional but ``hands``.
POSITION_KEYS = ("hands", "stock", "discard", "melds")
#: The keys that make a position one from the middle of a hand (optional; need ``hands``).
MID_HAND_KEYS = ("turn", "reshuffled", "played")


@dataclass(frozen=True)
class Deal:
    """The cards of a later hand of a match: a position at its start (``hands``, the
    ``stock`` top first, the ``discard`` pile bottom first), or a ``deck`` in dealing
    order; neither: the seed deals it."""

    hands: tuple[tuple[int, ...], ...] | None = None
    stock: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    deck: tuple[int, ...] | None = None

    def to_dict(self, players: tuple[str, ...]) -> dict[str, Any]:
        if self.deck is not None:
            return {"deck": [card_str(c) for c in self.deck]}
        if self.hands is None:
            return {}
        return {
            "hands": {
                name: [card_str(c) for c in hand]
                for name, hand in zip(players, self.hands, strict=True)
            },
            "stock": [card_str(c) for c in self.stock],
            "discard": [card_str(c) for c in self.discard],
        }


@dataclass(frozen=True)
class Setup:
    """The start of a game. With ``hands`` the first hand starts from that position (and
    ``stock``, ``discard``, ``melds`` complete it to 52 cards); without, the seed deals.
    ``single_hand`` ends the game after the first hand (scenarios).

    A position may come from the middle of a hand, at the start of a turn: ``turn`` is the
    seat to play (default: the dealer's left), ``reshuffled`` says the stock was already
    rebuilt from the discard pile once (so its next depletion is a stalemate, and the
    cards below the pile's top are out of play), ``played`` the seats that melded or laid
    off earlier in the hand (their going out is not Going Rummy).

    Instead of a position, ``deck`` deals the first hand from a deck in dealing order;
    ``later_deals`` fix the cards of hands 2, 3, ...; ``cut`` the cards of the cut for the
    first dealer, in the order they are drawn (a fresh deck for each cut after a tie)."""

    players: tuple[str, ...]
    dealer: int | None = None
    scores: tuple[int, ...] | None = None
    hands: tuple[tuple[int, ...], ...] | None = None
    stock: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    melds: tuple[tuple[int, ...], ...] = ()
    single_hand: bool = False
    turn: int | None = None
    reshuffled: bool = False
    played: tuple[int, ...] = ()
    deck: tuple[int, ...] | None = None
    later_deals: tuple[Deal, ...] = ()
    cut: tuple[int, ...] = ()

    def deal_for(self, hand_no: int) -> Deal | None:
        """The fixed cards of hand ``hand_no`` (from 1) if it is dealt from a deck or is a
        later hand's position; None: the seed deals (or hand 1 is the position above)."""
        if hand_no == 1:
            return Deal(deck=self.deck) if self.deck is not None else None
        return later_deal(self.later_deals, hand_no)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"players": list(self.players)}
        if self.dealer is not None:
            data["dealer"] = self.dealer
        if self.scores is not None:
            data["scores"] = list(self.scores)
        if self.hands is not None:
            data["hands"] = {
                name: [card_str(c) for c in hand]
                for name, hand in zip(self.players, self.hands, strict=True)
            }
            data["stock"] = [card_str(c) for c in self.stock]
            data["discard"] = [card_str(c) for c in self.discard]
            data["melds"] = [[card_str(c) for c in meld] for meld in self.melds]
        if self.turn is not None:
            data["turn"] = self.turn
        if self.reshuffled:
            data["reshuffled"] = True
        if self.played:
            data["played"] = [self.players[seat] for seat in self.played]
        if self.deck is not None:
            data["deck"] = [card_str(c) for c in self.deck]
        if self.later_deals:
            data["later_deals"] = [deal.to_dict(self.players) for deal in self.later_deals]
        if self.cut:
            data["cut"] = [card_str(c) for c in self.cut]
        if self.single_hand:
            data["single_hand"] = True
        return data


def players_from(value: object) -> tuple[str, ...]:
    return player_names(value, "Basic Rummy", MIN_PLAYERS, MAX_PLAYERS)


def _scores_from(value: object, players: tuple[str, ...]) -> tuple[int, ...]:
    if isinstance(value, list):
        if len(value) != len(players):
            raise SetupError(f"scores lists {len(value)} numbers for {len(players)} players")
        return tuple(whole(v, "a score") for v in value)
    if isinstance(value, dict):
        unknown = [k for k in value if k not in players]
        if unknown:
            raise SetupError(f"scores names unknown player {unknown[0]!r}")
        return tuple(whole(value.get(name, 0), f"the score of {name}") for name in players)
    raise SetupError("scores must be an object of points by player name (or a list)")


def setup_from_dict(data: Mapping[str, Any], first: str = "") -> Setup:
    """Read the setup part of a scenario or record, checking everything. ``first`` names
    the first hand's cards in messages about them (``"deal 1: "`` in a whole match)."""
    try:
        return _setup_from_dict(data, first)
    except _FirstDealError as error:
        raise SetupError(f"{first}{error}") from None


class _FirstDealError(SetupError):
    """A problem with the first hand's cards (named by ``setup_from_dict``'s caller)."""


def _setup_from_dict(data: Mapping[str, Any], first: str) -> Setup:
    players = players_from(data.get("players"))
    dealer = data.get("dealer")
    if dealer is not None:
        dealer = seat_from(dealer, players, "dealer")
    scores = None
    if data.get("scores") is not None:
        scores = _scores_from(data["scores"], players)
    single = data.get("single_hand", False)
    if not isinstance(single, bool):
        raise SetupError("single_hand must be true or false")
    raw_later = data.get("later_deals", [])
    if not isinstance(raw_later, list):
        raise SetupError("later_deals must be a list of deals")
    later = tuple(_later_deal(item, players, n) for n, item in enumerate(raw_later, start=2))
    cut = draws_from(data.get("cut", []), "cut")
    if cut and dealer is not None:
        raise SetupError("give either the dealer or the cut for the first dealer, not both")
    deck = None
    if "deck" in data:
        if any(key in data for key in (*POSITION_KEYS, *MID_HAND_KEYS)):
            raise SetupError("give either a position (hands, stock, ...) or a deck, not both")
        try:
            deck = _deck_from(data["deck"])
        except SetupError as error:
            raise _FirstDealError(str(error)) from None
    setup = Setup(
        players, dealer, scores, single_hand=single, deck=deck, later_deals=later, cut=cut
    )
    if deck is not None and dealer is None and not cut:
        raise SetupError(
            "a position with fixed cards must name the dealer (or give the cut for the "
            "first dealer)"
        )
    if not any(key in data for key in POSITION_KEYS):
        given = [key for key in MID_HAND_KEYS if key in data]
        if given:
            raise SetupError(f"{given[0]} describes a position: give the players' hands too")
        return setup
    if "hands" not in data:
        raise SetupError("a position needs the players' hands, not only a stock or melds")
    if dealer is None and not cut:
        raise SetupError(
            "a position with fixed cards must name the dealer (or give the cut for the "
            "first dealer)"
        )
    try:
        return _with_position(setup, data)
    except SetupError as error:
        raise _FirstDealError(str(error)) from None


def _deck_from(value: object) -> tuple[int, ...]:
    cards = _cards(value, "the deck")
    if len(cards) != 52:
        raise SetupError(f"the deck must hold all 52 cards, not {len(cards)}")
    return tuple(cards)


def _later_deal(item: object, players: tuple[str, ...], number: int) -> Deal:
    """A later hand's cards: ``{"deck": ...}``, a position without melds, or ``{}``."""
    if not isinstance(item, dict) or set(item) - {"hands", "stock", "discard", "deck"}:
        raise SetupError(
            f"deal {number} must be an object with a deck, or hands, stock and discard"
        )
    try:
        if "deck" in item:
            if len(item) > 1:
                raise SetupError("give either a position (hands, stock, ...) or a deck")
            return Deal(deck=_deck_from(item["deck"]))
        if not item:
            return Deal()
        if "hands" not in item:
            raise SetupError("a position needs the players' hands, not only a stock")
        position = _with_position(Setup(players), item)
    except SetupError as error:
        raise SetupError(f"deal {number}: {error}") from None
    return Deal(position.hands, position.stock, position.discard)


def _cards(value: object, what: str) -> list[int]:
    if not isinstance(value, list):
        raise SetupError(f"{what} must be a list of cards")
    try:
        return parse_cards(value, what=what)
    except CardError as error:
        raise SetupError(str(error)) from None


def _with_position(setup: Setup, data: Mapping[str, Any]) -> Setup:
    players = setup.players
    places: dict[int, str] = {}

    def place(cards: list[int], where: str) -> tuple[int, ...]:
        for card in cards:
            if card in places:
                raise SetupError(f"card {card_str(card)} is in both {places[card]} and {where}")
            places[card] = where
        return tuple(cards)

    raw_hands = data.get("hands")
    if not isinstance(raw_hands, dict):
        raise SetupError("hands must be an object of cards by player name")
    unknown = [k for k in raw_hands if k not in players]
    if unknown:
        raise SetupError(f"hands names unknown player {unknown[0]!r}")
    hands = []
    for name in players:
        cards = _cards(raw_hands.get(name, []), f"the hand of {name}")
        if not cards:
            raise SetupError(f"{name} holds no card: a player with no card has already won")
        hands.append(place(cards, f"the hand of {name}"))
    stock = place(_cards(data.get("stock", []), "the stock"), "the stock")
    discard = place(_cards(data.get("discard", []), "the discard pile"), "the discard pile")
    raw_melds = data.get("melds", [])
    if not isinstance(raw_melds, list):
        raise SetupError("melds must be a list of melds, each a list of cards")
    if len(raw_melds) > MAX_MELDS:
        raise SetupError(f"a table holds at most {MAX_MELDS} melds, not {len(raw_melds)}")
    melds = []
    for number, raw in enumerate(raw_melds):
        what = f"meld {number}"
        cards = _cards(raw, what)
        mask = sum(1 << c for c in cards)
        if not is_meld(mask):
            raise SetupError(
                f"{what} ({format_cards(cards)}) is not a meld: a set is 3 or 4 cards of one "
                "rank, a run 3 or more cards of one suit in sequence, aces low"
            )
        melds.append(place(meld_cards(mask), what))
    if len(places) != 52:
        missing = sorted_hand(c for c in cards_of((1 << 52) - 1) if c not in places)
        raise SetupError(
            f"the hands, stock, discard pile and melds must hold all 52 cards, not "
            f"{len(places)}; missing: {format_cards(missing)}"
        )
    turn = data.get("turn")
    if turn is not None:
        turn = seat_from(turn, players, "turn")
    reshuffled = data.get("reshuffled", False)
    if not isinstance(reshuffled, bool):
        raise SetupError("reshuffled must be true or false")
    return Setup(
        players,
        setup.dealer,
        setup.scores,
        tuple(hands),
        stock,
        discard,
        tuple(melds),
        setup.single_hand,
        turn,
        reshuffled,
        _played_from(data.get("played", []), players),
        setup.deck,
        setup.later_deals,
        setup.cut,
    )


def _played_from(value: object, players: tuple[str, ...]) -> tuple[int, ...]:
    """The seats that melded or laid off earlier in the hand, in seat order."""
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise SetupError("played must be a list of the names of players who melded or laid off")
    for name in value:
        if name not in players:
            raise SetupError(f"played names unknown player {name!r}")
    if len(set(value)) != len(value):
        raise SetupError("played names a player twice")
    return tuple(seat for seat, name in enumerate(players) if name in value)
