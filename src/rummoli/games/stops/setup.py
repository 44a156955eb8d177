"""Where a game of the family starts: players, chips, dealer, board, and optionally fixed
cards.

A new game needs only the players; a scenario (a dispute to settle, a bug report, a
golden test) also fixes the dealer, the board and the cards: of the first round, of later
rounds, of the cut for the first dealer and of the settlement's deals; or a position in
the middle of a round, in the runs (Rummoli's "Rummoli phase"). The cards must be the
game's pack (52, 51 or 32 cards, its layout's ``deck``): the hands, then the widow
(Rummoli's widow, the spare hand, or the talon of a deal by counts), and the card turned
for trumps (``"turned"``) where the game turns one. Every check that needs only the data happens
here, before any state exists, so bad input changes nothing and the error names the
problem; what depends on the play (who is out when a later round is dealt, how many cards
the settlement needs) is checked when the engine gets there (:mod:`.deal`,
:mod:`.round_end`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummoli.cards import CardError, card_str, parse_card, parse_cards
from rummoli.engine.base import SetupError
from rummoli.engine.fields import draws_from, player_names, seat_from, whole
from rummoli.engine.setups import later_deal
from rummoli.games.stops.layout import NONE, Layout

MIN_PLAYERS = 2
MAX_PLAYERS = 8


@dataclass(frozen=True)
class Pack:
    """What a setup's cards are checked against: the game's pack and whether a card is
    turned for trumps (Rummoli: 52 cards, none), its title and seats for messages."""

    title: str = "Rummoli"
    cards: int = 52
    mask: int = (1 << 52) - 1
    turns: bool = False
    fewest: int = MIN_PLAYERS
    most: int = MAX_PLAYERS
    #: The play of the runs, for messages (Rummoli's: "the Rummoli phase").
    phase: str = "the Rummoli phase"

    @classmethod
    def of(cls, plan: Layout | None) -> Pack:
        if plan is None:
            return cls()
        return cls(
            plan.title or plan.game,
            plan.deck,
            plan.deck_mask(),
            plan.trump != NONE,
            plan.min_players,
            plan.max_players,
            plan.play_phase,
        )


@dataclass(frozen=True)
class Deal:
    """The cards of one round: ``hands`` (seat order, then the widow) or a ``deck`` in
    dealing order; neither: the seed deals it."""

    hands: tuple[tuple[int, ...], ...] | None = None
    deck: tuple[int, ...] | None = None
    #: With ``hands``: the card turned for trumps (-1: none).
    turned: int = -1

    def to_dict(self, players: Sequence[str]) -> dict[str, Any]:
        if self.hands is not None:
            return {"hands": _hands_dict(self.hands, players, self.turned)}
        if self.deck is not None:
            return {"deck": [card_str(c) for c in self.deck]}
        return {}


@dataclass(frozen=True)
class Setup:
    """The start of a game. ``hands`` (seat order, then the widow) or ``deck`` fixes the
    first round's cards, ``later_deals`` those of rounds 2, 3, ...; with neither, the
    game's seed shuffles. ``cut`` and ``settlement`` fix the cards of the cut for the first
    dealer and of the settlement's deals, in the order they are drawn (a fresh deck for
    each cut again after a tie, and for each pot).

    With ``laid`` (possibly empty), the game starts in the Rummoli phase of its first
    round: ``hands`` are the cards still held, ``laid`` the cards laid so far (seat, card)
    in order, ``lead`` who led the phase (the winner of the poker phase), ``chips`` and
    ``board`` as they are at that moment."""

    players: tuple[str, ...]
    chips: tuple[int, ...]
    dealer: int | None = None
    board: Mapping[str, int] = field(default_factory=dict)
    hands: tuple[tuple[int, ...], ...] | None = None
    deck: tuple[int, ...] | None = None
    single_round: bool = False
    later_deals: tuple[Deal, ...] = ()
    cut: tuple[int, ...] = ()
    settlement: tuple[int, ...] = ()
    laid: tuple[tuple[int, int], ...] | None = None
    lead: int | None = None
    #: With ``hands``: the card turned for trumps (-1: none).
    turned: int = -1

    def fixed_deal(self, round_no: int) -> Deal | None:
        """The fixed cards of round ``round_no`` (from 1), or None: the seed deals."""
        if round_no == 1:
            if self.hands is None and self.deck is None:
                return None
            return Deal(self.hands, self.deck, self.turned)
        return later_deal(self.later_deals, round_no)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"players": list(self.players), "chips": list(self.chips)}
        if self.dealer is not None:
            data["dealer"] = self.dealer
        if self.board:
            data["board"] = dict(self.board)
        if self.hands is not None:
            data["hands"] = _hands_dict(self.hands, self.players, self.turned)
        if self.deck is not None:
            data["deck"] = [card_str(c) for c in self.deck]
        if self.single_round:
            data["single_round"] = True
        if self.later_deals:
            data["later_deals"] = [deal.to_dict(self.players) for deal in self.later_deals]
        if self.cut:
            data["cut"] = [card_str(c) for c in self.cut]
        if self.settlement:
            data["settlement"] = [card_str(c) for c in self.settlement]
        if self.laid is not None:
            data["laid"] = [{"player": self.players[s], "card": card_str(c)} for s, c in self.laid]
        if self.lead is not None:
            data["lead"] = self.lead
        return data


def _hands_dict(
    hands: tuple[tuple[int, ...], ...], players: Sequence[str], turned: int = -1
) -> dict[str, Any]:
    data: dict[str, Any] = {
        name: [card_str(c) for c in hand]
        for name, hand in zip((*players, "widow"), hands, strict=True)
    }
    if turned >= 0:
        data["turned"] = [card_str(turned)]
    return data


def players_from(value: object, plan: Layout | None = None) -> tuple[str, ...]:
    """The players' names for the game of ``plan`` (None: Rummoli's 2 to 8). Read from
    the layout's fields, not through a :class:`Pack`: every new game asks this, and
    making a pack (its deck's mask) was a sixth of a 2-seat game's start."""
    if plan is None:
        names = player_names(value, "Rummoli", MIN_PLAYERS, MAX_PLAYERS)
    else:
        title = plan.title or plan.game
        names = player_names(value, title, plan.min_players, plan.max_players)
    for reserved in ("widow", "turned"):
        if reserved in names:
            raise SetupError(f"{reserved!r} is the name of the extra hand, not of a player")
    return names


def setup_from_dict(
    data: Mapping[str, Any], default_chips: int, first: str = "", plan: Layout | None = None
) -> Setup:
    """Read the setup part of a scenario or record, checking everything. ``first`` names
    the first round's cards in messages about them (``"deal 1: "`` in a whole game);
    ``plan``, the game's layout, says its pack (None: Rummoli's 52 cards)."""
    pack = Pack.of(plan)
    players = players_from(data.get("players"), plan)
    raw_chips = data.get("chips", default_chips)
    if isinstance(raw_chips, list):
        if len(raw_chips) != len(players):
            raise SetupError(f"chips lists {len(raw_chips)} numbers for {len(players)} players")
        chips = tuple(whole(c, "chips") for c in raw_chips)
    else:
        chips = (whole(raw_chips, "chips"),) * len(players)
    dealer = data.get("dealer")
    if dealer is not None:
        dealer = seat_from(dealer, players, "dealer")
    board_data = data.get("board", {})
    if not isinstance(board_data, dict):
        raise SetupError("board must be an object of chips by space")
    board = {str(k): whole(v, f"board space {k}") for k, v in board_data.items()}
    if "hands" in data and "deck" in data:
        raise SetupError("give either hands or deck, not both")
    laid = lead = None
    if "laid" in data or "lead" in data:
        if "hands" not in data:
            raise SetupError(
                f"a position in {pack.phase} needs the hands still held (and the widow)"
            )
        laid = _laid_from(data.get("laid", []), players, pack)
        if data.get("lead") is not None:
            lead = seat_from(data["lead"], players, "lead")
    try:
        first_deal = _deal_from(data, players, laid, pack)
    except SetupError as error:
        raise SetupError(f"{first}{error}") from None
    cut = draws_from(data.get("cut", []), "cut")
    # A draw is from a fresh pack of the game's: a card outside it (Poch's 2C) is a
    # mistake in the file, not a card to rank.
    _check_in_pack(cut, pack, "the cut")
    settlement = draws_from(data.get("settlement", []), "settlement")
    _check_in_pack(settlement, pack, "the settlement")
    if cut and dealer is not None:
        raise SetupError("give either the dealer or the cut for the first dealer, not both")
    if first_deal is not None and dealer is None and (laid is not None or not cut):
        raise SetupError(
            "a position with fixed cards must name the dealer"
            + ("" if laid is not None else " (or give the cut for the first dealer)")
        )
    raw_later = data.get("later_deals", [])
    if not isinstance(raw_later, list):
        raise SetupError("later_deals must be a list of deals")
    later = tuple(_later_deal(item, players, n, pack) for n, item in enumerate(raw_later, start=2))
    single = data.get("single_round", False)
    if not isinstance(single, bool):
        raise SetupError("single_round must be true or false")
    setup = Setup(
        players,
        chips,
        dealer,
        board,
        first_deal.hands if first_deal else None,
        first_deal.deck if first_deal else None,
        single,
        later,
        cut,
        settlement,
        laid,
        lead,
        first_deal.turned if first_deal else -1,
    )
    if laid is not None:
        _check_play_position(setup, pack)
    return setup


def _deal_from(
    data: Mapping[str, Any],
    players: Sequence[str],
    laid: tuple[tuple[int, int], ...] | None,
    pack: Pack,
) -> Deal | None:
    """The cards of a deal: ``hands`` (with the cards already laid, the whole pack) or
    ``deck``."""
    if "hands" in data:
        already = {card: players[seat] for seat, card in laid or ()}
        hands, turned = _hands_from(data["hands"], players, already, pack)
        return Deal(hands=hands, turned=turned)
    if "deck" in data:
        try:
            cards = parse_cards(data["deck"], what="deck")
        except CardError as error:
            raise SetupError(str(error)) from None
        if len(cards) != pack.cards:
            raise SetupError(f"the deck must hold all {pack.cards} cards, not {len(cards)}")
        _check_in_pack(cards, pack, "the deck")
        return Deal(deck=tuple(cards))
    return None


def _check_in_pack(cards: Sequence[int], pack: Pack, where: str) -> None:
    for card in cards:
        if not pack.mask >> card & 1:
            raise SetupError(f"{where}: {card_str(card)} is not in the {pack.cards}-card pack")


def _later_deal(item: object, players: Sequence[str], number: int, pack: Pack) -> Deal:
    """A later round's cards: ``{"hands": ...}``, ``{"deck": ...}`` or ``{}`` (the seed's)."""
    if not isinstance(item, dict) or set(item) - {"hands", "deck"}:
        raise SetupError(f"deal {number} must be an object with hands or a deck (or neither)")
    if "hands" in item and "deck" in item:
        raise SetupError(f"deal {number}: give either hands or deck, not both")
    try:
        deal = _deal_from(item, players, None, pack)
    except SetupError as error:
        raise SetupError(f"deal {number}: {error}") from None
    return deal or Deal()


def _hands_from(
    value: object, players: Sequence[str], already: Mapping[int, str], pack: Pack
) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The hands then the widow, and the card turned for trumps (-1: none)."""
    if not isinstance(value, dict):
        raise SetupError("hands must be an object of cards by player name and 'widow'")
    extra = ("widow", "turned") if pack.turns else ("widow",)
    unknown = [k for k in value if k not in players and k not in extra]
    if unknown:
        raise SetupError(f"hands names unknown player {unknown[0]!r}")
    if pack.turns and len(value.get("turned", [])) != 1:
        raise SetupError("hands must give the card turned for trumps: 'turned': [one card]")
    hands: list[tuple[int, ...]] = []
    seen: dict[int, str] = {}
    for name in (*players, *extra):
        try:
            cards = parse_cards(value.get(name, []), what=f"the hand of {name}")
        except CardError as error:
            raise SetupError(str(error)) from None
        _check_in_pack(cards, pack, f"the hand of {name}")
        for card in cards:
            if card in seen:
                raise SetupError(
                    f"card {card_str(card)} is in the hands of both {seen[card]} and {name}"
                )
            if card in already:
                raise SetupError(
                    f"card {card_str(card)} is in the hand of {name} but was laid by "
                    f"{already[card]}"
                )
            seen[card] = name
        hands.append(tuple(cards))
    turned = hands.pop()[0] if pack.turns else -1
    total = pack.cards
    if already:
        if len(seen) + len(already) != total:
            raise SetupError(
                f"the hands, widow and laid cards must hold all {total} cards, not "
                f"{len(seen) + len(already)}"
            )
    elif len(seen) != total:
        raise SetupError(f"the hands and widow must hold all {total} cards, not {len(seen)}")
    return tuple(hands), turned


def _laid_from(value: object, players: Sequence[str], pack: Pack) -> tuple[tuple[int, int], ...]:
    """Cards laid in the Rummoli phase, in order: ``[{"player": "Ann", "card": "7H"}]``."""
    if not isinstance(value, list):
        raise SetupError("laid must be a list of {'player': name, 'card': card}, in order")
    laid: list[tuple[int, int]] = []
    seen: set[int] = set()
    for number, item in enumerate(value, start=1):
        if not isinstance(item, dict) or set(item) != {"player", "card"}:
            raise SetupError(f"laid card {number} must be {{'player': name, 'card': card}}")
        seat = seat_from(item["player"], players, f"the player of laid card {number}")
        try:
            card = parse_card(item["card"])
        except CardError as error:
            raise SetupError(f"laid card {number}: {error}") from None
        if card in seen:
            raise SetupError(f"card {card_str(card)} is laid twice")
        _check_in_pack([card], pack, f"laid card {number}")
        seen.add(card)
        laid.append((seat, card))
    return tuple(laid)


def _check_play_position(setup: Setup, pack: Pack) -> None:
    """A position in the Rummoli phase: who holds cards is in the round (the others are
    out of the game); the dealer, the lead and every player who laid a card are in it."""
    assert setup.hands is not None and setup.laid is not None
    names = setup.players
    holding = [seat for seat in range(len(names)) if setup.hands[seat]]
    if len(holding) < 2:
        raise SetupError("a round needs at least two players holding cards")
    assert setup.dealer is not None
    for seat, what in ((setup.dealer, "the dealer"), (setup.lead, "the lead")):
        if seat is not None and seat not in holding:
            raise SetupError(
                f"{what} {names[seat]} holds no card: a player without cards is out of the "
                "game (or has won the round)"
            )
    for seat, card in setup.laid:
        if seat not in holding:
            raise SetupError(
                f"{names[seat]} laid {card_str(card)} but holds no card: he has already won "
                "the round"
            )
    if not setup.laid and setup.lead is None:
        raise SetupError("name the lead: the player who leads the first card of the phase")
    if setup.laid and setup.lead is not None and setup.laid[0][0] != setup.lead:
        first = names[setup.laid[0][0]]
        raise SetupError(
            f"the lead {names[setup.lead]} leads the first card of the phase, but {first} laid it"
        )
    if setup.later_deals:
        raise SetupError(f"a position in {pack.phase} plays that round only")
