"""The house rules the family's games share, declared once with each game's default.

Chips, rounds, a short ante, the spare hand and its auction, the poker stage, the leads,
claims, the settlement at the end: every game of the family has some of these, named
and meaning as in Rummoli's rules (``docs/rules.md``), often with another default (the
spare hand of Michigan is dead; Tripoley's poker is opened by the dealer). A game's
declaration (``games/<game>/description.py``) takes the ones it has from here, with its
defaults, and adds its own; :func:`family_layout` copies their values into the layout,
with the game's identity from its declaration. The groups' defaults are what most games
have (Michigan's runs, a shared settlement), so a game names only where it differs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummoli.engine.description import BOOL, CHOICE, CHOICE_OR_INT, INT, HouseRule
from rummoli.games.stops import layout as lay
from rummoli.games.stops.game import FamilyGame

#: Rummoli's bounds (``rummoli.games.rummoli.rules.RANGES``), for every game.
CHIPS = (1, 1000)
ROUNDS = (0, 100)
FINE = (0, 1000)
BET = (1, 1000)

SETTLEMENTS = ("share", "one_poker_hand", "poker_per_pot", "high_card")


def chips_rules(chips: int = 100) -> tuple[HouseRule, ...]:
    """Starting chips, rounds, and what a player short of the ante does."""
    return (
        HouseRule(
            "starting_chips", chips, INT, "chips each player starts with", minimum=1, maximum=1000
        ),
        HouseRule(
            "rounds",
            0,
            INT,
            "rounds to play (0: until the table stops or one player is left)",
            minimum=0,
            maximum=100,
        ),
        HouseRule(
            "short_ante",
            "out",
            CHOICE,
            "a player who cannot pay the whole ante: 'out' of the game, or "
            "'pay_what_you_can' (out only with no chips at all)",
            choices=("out", "pay_what_you_can"),
        ),
    )


def widow_rules(default: str, blocks: bool, word: str) -> tuple[HouseRule, ...]:
    """The spare hand (``word``: what the game calls it) and its auction."""
    return (
        HouseRule(
            "widow",
            default,
            CHOICE,
            f"the {word}: 'none' (it stays dead), 'exchange_only' (the dealer may take it "
            "for his hand, unseen) or 'exchange_or_auction' (else it is auctioned)",
            choices=("none", "exchange_only", "exchange_or_auction"),
        ),
        HouseRule(
            "pay_card_blocks_exchange",
            blocks,
            BOOL,
            f"a hand holding a pay card may neither take the {word} nor bid for it",
        ),
        HouseRule(
            "auction",
            "one_round",
            CHOICE,
            f"the {word}'s auction: 'one_round' (a pass is final) or 'open' (a player who "
            "passed may bid again after a higher bid)",
            choices=("one_round", "open"),
        ),
    )


def poker_rules(default: str = "betting") -> tuple[HouseRule, ...]:
    """The poker stage: a betting round or a showdown, and its limits."""
    return (
        HouseRule(
            "poker",
            default,
            CHOICE,
            "'betting': one betting round; 'showdown': hands shown, best takes the pot",
            choices=("betting", "showdown"),
        ),
        _bet_limit(),
        _heads_up(),
    )


def _bet_limit() -> HouseRule:
    return HouseRule(
        "bet_limit",
        "no_limit",
        CHOICE_OR_INT,
        "'no_limit', 'pot_limit', or a whole number N for fixed bets of N",
        choices=("no_limit", "pot_limit"),
        minimum=1,
        maximum=1000,
    )


def _heads_up() -> HouseRule:
    return HouseRule(
        "heads_up_raises",
        "capped",
        CHOICE,
        "fixed limit, two players left who are not all-in: 'capped' (a bet and three raises) "
        "or 'unlimited' (Robert's Rules of Poker)",
        choices=("capped", "unlimited"),
    )


def betting_rules() -> tuple[HouseRule, ...]:
    """The limits of a betting round that has no showdown choice (Poch's Pochen)."""
    return (_bet_limit(), _heads_up())


#: Michigan's leads (Tripoley's too): the lowest card of any suit, then of another suit.
SUIT_LEADS = ("lowest_of_any_suit", "lowest_in_hand")
OTHER_SUIT = ("any_other_suit", "lowest_of_other_suits")


def run_rules(
    lead: str = SUIT_LEADS[0],
    leads: tuple[str, ...] = SUIT_LEADS,
    switch: str = OTHER_SUIT[0],
    switches: tuple[str, ...] = OTHER_SUIT,
    kitty: bool = True,
    without: tuple[str, ...] = (),
) -> tuple[HouseRule, ...]:
    """The first lead, the lead after a stop, the deadlock, the fine and claims: by
    default Michigan's; ``without`` names those a game does not have (Poch's pools are
    all paid to the cards held, so nothing is claimed)."""
    rules = [
        HouseRule("lead", lead, CHOICE, "how the first card of a deal is led", choices=leads),
        HouseRule(
            "switch_lead",
            switch,
            CHOICE,
            "after a stop, what the player who stopped leads",
            choices=switches,
        ),
        HouseRule(
            "deadlock",
            "any_suit",
            CHOICE,
            "nobody can lead after a stop: 'any_suit' (the player who stopped leads his "
            "lowest card of any suit) or 'end_round'",
            choices=("any_suit", "end_round"),
        ),
    ]
    if kitty:
        rules.append(
            HouseRule(
                "cant_lead_fine",
                0,
                INT,
                "chips a player pays to the kitty when he must lead after a stop but "
                "holds no card he may lead",
                minimum=0,
                maximum=1000,
            )
        )
    rules.append(claim_rule())
    return tuple(rule for rule in rules if rule.name not in without)


def claim_rule() -> HouseRule:
    return HouseRule(
        "must_claim",
        False,
        BOOL,
        "a player must claim a pay space as he lays the card, or the chips stay",
    )


def settlement_rules(default: str = "share", betting: bool = False) -> tuple[HouseRule, ...]:
    """Board chips at the end of the game (by default shared by the players still in,
    the settlement's deals without betting)."""
    rules = [
        HouseRule(
            "settlement",
            default,
            CHOICE,
            "board chips at the end: 'share' (shared by the players still in), "
            "'one_poker_hand', 'poker_per_pot' or 'high_card'",
            choices=SETTLEMENTS,
        ),
        HouseRule(
            "high_card_tie",
            "split",
            CHOICE,
            "a tie for high card at the settlement: 'split' the chips or 'cut_again'",
            choices=("split", "cut_again"),
        ),
    ]
    if betting:
        rules.append(
            HouseRule(
                "settlement_betting",
                False,
                BOOL,
                "the settlement's five-card deals are played with a betting round",
            )
        )
    return tuple(rules)


#: A board as its spaces' names and the cards that win each, in board order.
SpaceCards = tuple[tuple[str, tuple[str, ...]], ...]


def single_card_spaces(*cards: str) -> SpaceCards:
    """Spaces each won by one card and named by it, as printed boards name them
    (``("AH", ("AH",))``): the card is written once."""
    return tuple((card, (card,)) for card in cards)


def family_layout(game: FamilyGame, values: Mapping[str, Any], **fields: Any) -> lay.Layout:
    """A layout from a game's declaration (its name, title, seats and presentation:
    :meth:`FamilyGame.identity`), its house rules (those of this module, by name) and the
    game's own ``fields``, which win."""
    data = game.identity()
    data.update({name: values[name] for name in lay.HOUSE_RULE_FIELDS if name in values})
    if "deadlock" in values:
        data["deadlock"] = lay.END_ROUND if values["deadlock"] == "end_round" else lay.CONTINUE
    data.update(fields)
    return lay.Layout(**data)
