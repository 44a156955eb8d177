"""Rummoli's part of the web table: its players' statistics.

Rummoli's statistics are counted from what is stored when a game ends (each seat's final
chips), so they need no replay. A win is finishing with the most chips (tied players each
count one); "chips won" is final chips less starting chips, so losses count too. Rummoli
has no draws or stalemates: a game always ends with a count of chips.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummoli.web.games import WebPart
from rummoli.web.history import amount_stats


def _starting_chips(rules: Mapping[str, Any]) -> int:
    return int(rules.get("starting_chips", 0))


WEB = WebPart(
    player_stats=amount_stats,
    starting_amount=_starting_chips,
    intro="Rummoli: a board of pay spaces, a widow to take or auction, a round of poker, "
    "then a race to lay out your cards.",
)
