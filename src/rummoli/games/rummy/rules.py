"""The house rules of Basic Rummy: one small object, every switch named as in RULES.md.

The seed fixes almost everything; what a table may still agree on is the match target
(by default 100, 150 or 200 points for 2, 3 or 4 players) and whether a player may lay
down more than one meld a turn (``one_meld_per_turn``, default off: "in some versions only
one meld per turn is allowed").
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from rummoli.engine.base import SetupError

#: The seed's targets by number of players.
DEFAULT_TARGETS = {2: 100, 3: 150, 4: 200}
#: The smallest and the largest target. A hand scores tens of points, so 10,000 is a
#: match of hundreds of hands (tests play such long matches on purpose); a target of
#: 10**12 would be a match that never ends. (The target decides no list of actions.)
TARGET_RANGE = (1, 10_000)

RULE_HELP: dict[str, str] = {
    "target": "points that win the match (default: 100 for 2 players, 150 for 3, 200 for 4)",
    "one_meld_per_turn": "a player may lay down at most one meld a turn (lay-offs unlimited)",
}


@dataclass(frozen=True, slots=True)
class Rules:
    """Every house rule of Basic Rummy, with the defaults of RULES.md.

    ``target`` is ``None`` for "the seed's target for this number of players": a rules
    object does not know the table's size, and the default must follow it.
    """

    target: int | None = None
    one_meld_per_turn: bool = False

    def __post_init__(self) -> None:
        target = self.target
        low, high = TARGET_RANGE
        if target is not None and (
            isinstance(target, bool) or not isinstance(target, int) or not low <= target <= high
        ):
            raise SetupError(
                f"house rule target must be a whole number from {low} to {high}, not {target!r}"
            )
        if not isinstance(self.one_meld_per_turn, bool):
            raise SetupError("house rule one_meld_per_turn must be true or false")

    def target_for(self, players: int) -> int:
        """The points that win the match at a table of ``players``."""
        return self.target if self.target is not None else DEFAULT_TARGETS[players]

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Rules from a JSON object of house rules by name; unknown names are an error."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise SetupError("rules must be an object of house rules by name")
        known = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise SetupError(
                f"unknown Rummy house rule {', '.join(unknown)}; "
                f"house rules are {', '.join(sorted(known))}"
            )
        return replace(cls(), **data)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def changed(self) -> dict[str, Any]:
        """Only the house rules that differ from the defaults."""
        default = Rules()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}
