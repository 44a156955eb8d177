"""The house rules of Basic Rummy: one small object, every switch named as in RULES.md.

The seed fixes almost everything; what a table may still agree on is the match target
(by default 100, 150 or 200 points for 2, 3 or 4 players), whether a player may lay
down more than one meld a turn (``one_meld_per_turn``, default off: "in some versions only
one meld per turn is allowed"), and whether a hand that stalls is called off
(``stall_rule``, default off: the seed knows two stalemates only, see :mod:`.stalemate`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rummoli.engine.base import SetupError
from rummoli.engine.house_rules import DataclassRules
from rummoli.engine.records import check_rules_version

#: The version of Basic Rummy's rules this engine plays (a record keeps it; see
#: ``docs/engine.md``, "Rules versions"). 1: the rules before version 2, when 40 idle
#: turns in a row ended a hand in a stalemate (now the house rule ``stall_rule``); 2:
#: a hand ends only by the seed's two stalemates, and after 40 idle turns the player to
#: move must draw from the stock.
RULES_VERSION = 2

#: The seed's targets by number of players.
DEFAULT_TARGETS = {2: 100, 3: 150, 4: 200}
#: The smallest and the largest target. A hand scores tens of points, so 10,000 is a
#: match of hundreds of hands (tests play such long matches on purpose); a target of
#: 10**12 would be a match that never ends. (The target decides no list of actions.)
TARGET_RANGE = (1, 10_000)

RULE_HELP: dict[str, str] = {
    "target": "points that win the match (default: 100 for 2 players, 150 for 3, 200 for 4)",
    "one_meld_per_turn": "a player may lay down at most one meld a turn (lay-offs unlimited)",
    "stall_rule": "40 turns in a row of taking the discard pile's top and laying nothing end "
    "the hand in a stalemate (off: after 40 such turns the next player must draw from the "
    "stock)",
}


@dataclass(frozen=True, slots=True)
class Rules(DataclassRules):
    """Every house rule of Basic Rummy, with the defaults of RULES.md.

    ``target`` is ``None`` for "the seed's target for this number of players": a rules
    object does not know the table's size, and the default must follow it.
    """

    target: int | None = None
    one_meld_per_turn: bool = False
    stall_rule: bool = False
    #: Not a house rule: the version of the rules the match is played under.
    rules_version: int = RULES_VERSION

    def __post_init__(self) -> None:
        target = self.target
        low, high = TARGET_RANGE
        if target is not None and (
            isinstance(target, bool) or not isinstance(target, int) or not low <= target <= high
        ):
            raise SetupError(
                f"house rule target must be a whole number from {low} to {high}, not {target!r}"
            )
        for name in ("one_meld_per_turn", "stall_rule"):
            if not isinstance(getattr(self, name), bool):
                raise SetupError(f"house rule {name} must be true or false")
        check_rules_version(self.rules_version, RULES_VERSION)

    def stalls(self) -> bool:
        """Whether idle turns end a hand (``stall_rule``; always under rules version 1)."""
        return self.stall_rule or self.rules_version < 2

    def target_for(self, players: int) -> int:
        """The points that win the match at a table of ``players``."""
        return self.target if self.target is not None else DEFAULT_TARGETS[players]

    @classmethod
    def _from_object(cls, data: dict[str, Any], known: set[str]) -> Rules:
        """Rummy's house rules by name; an unknown one is refused with the list of all."""
        unknown = sorted(str(k) for k in data if k not in known)
        known.discard("rules_version")  # not a house rule, so not listed as one
        if unknown:
            raise SetupError(
                f"unknown Rummy house rule {', '.join(unknown)}; "
                f"house rules are {', '.join(sorted(known))}"
            )
        return replace(cls(), **data)
