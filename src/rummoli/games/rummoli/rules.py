"""The house rules of Rummoli: one object, every switch named as in RULES.md.

The sources disagree in places (see ``docs/rules.md``); each disagreement is a switch here
with the default reading as its default, so a table plays exactly the game it agreed on.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rummoli.engine.base import SetupError
from rummoli.engine.house_rules import DataclassRules
from rummoli.engine.records import check_rules_version
from rummoli.games.rummoli.board import rummoli_layout
from rummoli.games.stops.layout import Layout

#: The version of Rummoli's rules this engine plays. A record (and a stored table) keeps
#: the version its game was played under, and replays under that version's behaviour
#: where behaviour changed since (``docs/engine.md``, "Rules versions"). 1: the rules
#: before version 2; 2: short all-ins as Robert's Rules of Poker say (a fixed limit's
#: completed bet, short all-ins adding up to a full raise reopen the betting), the game
#: ends by elimination when fewer than two players can pay the ante even if the table
#: asked to stop, and a position's laid cards are checked against the rules.
RULES_VERSION = 2

SHORT_ANTE = ("out", "pay_what_you_can")
WIDOW = ("exchange_or_auction", "exchange_only", "none")
POKER = ("betting", "showdown")
BET_LIMITS = ("no_limit", "pot_limit")
LEAD = ("lowest_in_hand", "lowest_of_any_suit")
SWITCH_LEAD = ("lowest_of_colour", "any_suit_of_colour")
DEADLOCK = ("end_round", "any_colour")
SETTLEMENT = ("one_poker_hand", "poker_per_pot", "high_card")
AUCTION = ("one_round", "open")
HEADS_UP_RAISES = ("capped", "unlimited")
HIGH_CARD_TIE = ("split", "cut_again")

#: The range of each numeric house rule, smallest and largest (``bet_limit``: when it is a
#: number). Why bounded: a table's amounts decide the size of the engine's lists of legal
#: bids and raises (one action per chip), and a setting of 10**12 made a server build
#: lists of millions of actions per move. The largest values are far past any game at a
#: kitchen table: ten times the rulebook's 100 chips a player, a fine or a fixed bet as
#: large as a whole stack, a hundred rounds (a long day of play).
RANGES: dict[str, tuple[int, int]] = {
    "starting_chips": (1, 1000),
    "cant_lead_fine": (0, 1000),
    "rounds": (0, 100),
    "bet_limit": (1, 1000),
}

#: The allowed words of each house rule that takes one word (``bet_limit`` takes a word
#: or a number: :data:`BET_LIMITS`).
CHOICES: dict[str, tuple[str, ...]] = {
    "short_ante": SHORT_ANTE,
    "widow": WIDOW,
    "poker": POKER,
    "lead": LEAD,
    "switch_lead": SWITCH_LEAD,
    "deadlock": DEADLOCK,
    "settlement": SETTLEMENT,
    "auction": AUCTION,
    "heads_up_raises": HEADS_UP_RAISES,
    "high_card_tie": HIGH_CARD_TIE,
}
_FLAGS = (
    "ace_of_spades",
    "pay_card_blocks_exchange",
    "must_claim",
    "auction_optional",
    "settlement_betting",
)

#: What each house rule means, for help texts and the table settings page.
RULE_HELP: dict[str, str] = {
    "starting_chips": "chips each player starts with",
    "ace_of_spades": "the board has the ace of spades space (AS)",
    "short_ante": "a player who cannot pay the whole ante: 'out' of the game, or "
    "'pay_what_you_can' (out only with no chips at all)",
    "widow": "'exchange_or_auction': dealer may exchange, else the widow is auctioned; "
    "'exchange_only': no auction; 'none': the widow stays dead",
    "pay_card_blocks_exchange": "a hand holding a pay card may neither exchange nor bid",
    "poker": "'betting': one betting round; 'showdown': hands shown, best takes the space",
    "bet_limit": "'no_limit', 'pot_limit', or a whole number N for fixed bets of N",
    "lead": "'lowest_in_hand': lead the lowest card held; 'lowest_of_any_suit': "
    "pick a suit and lead its lowest card",
    "switch_lead": "after a stop: 'lowest_of_colour' (lowest opposite-colour card) or "
    "'any_suit_of_colour' (pick an opposite-colour suit, lead its lowest card)",
    "cant_lead_fine": "chips a player pays to the rummoli space when he must lead "
    "after a stop but holds no card of the colour",
    "deadlock": "nobody holds the colour: 'end_round' (1 chip per card to rummoli) or "
    "'any_colour' (the player leads his lowest card of any suit)",
    "must_claim": "a player must claim a pay space as he lays the card, or the chips stay",
    "rounds": "rounds to play (0: until the table stops or one player is left)",
    "settlement": "board chips at the end: 'one_poker_hand', 'poker_per_pot' or 'high_card'",
    "auction": "the widow's auction: 'one_round' (clockwise, a pass is final) or 'open' "
    "(bids in any order: a player who passed may bid again, until all pass)",
    "auction_optional": "the dealer who keeps his hand may keep the widow out of auction "
    "(the rulebook: he 'can' auction it)",
    "heads_up_raises": "fixed limit, two players left who are not all-in: 'capped' (a bet "
    "and three raises) or 'unlimited' (Robert's Rules of Poker)",
    "settlement_betting": "the settlement's five-card deals are played with a betting round "
    "('a round of poker dealt and played')",
    "high_card_tie": "a tie for high card at the settlement: 'split' the chips or "
    "'cut_again' among the tied players ('the high man will take all')",
}


@dataclass(frozen=True, slots=True)
class Rules(DataclassRules):
    """Every house rule, with the defaults of RULES.md."""

    starting_chips: int = 100
    ace_of_spades: bool = True
    short_ante: str = "out"
    widow: str = "exchange_or_auction"
    pay_card_blocks_exchange: bool = True
    poker: str = "betting"
    bet_limit: str | int = "no_limit"
    lead: str = "lowest_in_hand"
    switch_lead: str = "lowest_of_colour"
    cant_lead_fine: int = 0
    deadlock: str = "end_round"
    must_claim: bool = False
    rounds: int = 0
    settlement: str = "one_poker_hand"
    auction: str = "one_round"
    auction_optional: bool = False
    heads_up_raises: str = "capped"
    settlement_betting: bool = False
    high_card_tie: str = "split"
    #: Not a house rule: the version of the rules the game is played under (a record
    #: keeps it, see :data:`RULES_VERSION`).
    rules_version: int = RULES_VERSION

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise SetupError(
                    f"house rule {name} must be one of {', '.join(allowed)}, not {value!r}"
                )
        for name in _FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise SetupError(f"house rule {name} must be true or false")
        for name in ("starting_chips", "cant_lead_fine", "rounds"):
            low, high = RANGES[name]
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise SetupError(
                    f"house rule {name} must be a whole number from {low} to {high}, not {value!r}"
                )
        limit = self.bet_limit
        low, high = RANGES["bet_limit"]
        if isinstance(limit, bool) or not (
            limit in BET_LIMITS or (isinstance(limit, int) and low <= limit <= high)
        ):
            raise SetupError(
                f"house rule bet_limit must be no_limit, pot_limit or a whole number "
                f"from {low} to {high}, not {limit!r}"
            )
        check_rules_version(self.rules_version, RULES_VERSION)

    @classmethod
    def _from_object(cls, data: dict[str, Any], known: set[str]) -> Rules:
        """Rummoli's house rules by name, over a ``preset``'s if one is named."""
        preset = data.get("preset")
        base = preset_rules(preset) if preset is not None else cls()
        unknown = sorted(str(k) for k in data if k not in known and k != "preset")
        if unknown:
            raise SetupError(f"unknown house rule {', '.join(unknown)}")
        overrides = {k: v for k, v in data.items() if k != "preset"}
        if isinstance(overrides.get("bet_limit"), str) and overrides["bet_limit"].isdigit():
            overrides["bet_limit"] = int(overrides["bet_limit"])
        return replace(base, **overrides)

    def layout(self) -> Layout:
        """Rummoli under these rules, as the family's engine plays it."""
        return rummoli_layout(self)


PRESETS: dict[str, dict[str, Any]] = {
    # The encyclopedia article: the defaults of RULES.md.
    "encyclopedia": {},
    # The printed rulebook, method 1: a poker showdown; no pay-card restriction on the
    # widow; at the end the board goes to a cut, the rulebook's first suggestion.
    "rulebook_method_1": {
        "poker": "showdown",
        "pay_card_blocks_exchange": False,
        "settlement": "high_card",
    },
    # The printed rulebook, method 2: regular poker betting, otherwise as method 1.
    "rulebook_method_2": {
        "poker": "betting",
        "pay_card_blocks_exchange": False,
        "settlement": "high_card",
    },
}


def preset_rules(name: object) -> Rules:
    if not isinstance(name, str) or name not in PRESETS:
        raise SetupError(f"unknown preset {name!r}; presets are {', '.join(PRESETS)}")
    return Rules(**PRESETS[name])
