"""What the family's terminal part says differently for each game, read from its data.

The table, the narration and the round's summary are written once for the family; what
differs between its games in words follows from each game's description and layout (the
kitty the first player out takes, whether the lead after a stop is of the other colour
or of another suit, the name of the play phase, the game's summary for the help), so no
sentence compares a game's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rummoli.games.registry import describe
from rummoli.games.stops import layout as lay
from rummoli.i18n import NP_

#: The play of the runs as the table's header names it, by the layout's ``play_phase``.
PLAY_PHASES = {
    "the Rummoli phase": NP_("phase", "Rummoli phase"),
    "the play": NP_("phase", "the runs"),
}


#: The spare hand's words the terminal has sentences for.
SPARE_WORDS = ("widow", "dead hand", "spare hand", "talon")


@dataclass(frozen=True, slots=True)
class GameWords:
    """One game's words at the terminal (English message ids)."""

    #: The game's registry name and its title.
    game: str = "rummoli"
    title: str = "Rummoli"
    #: The space the first player out takes ("" when the board has none).
    kitty: str = "rummoli"
    #: The lead after a stop: "colour" (the other colour), "suit" (another suit), "any".
    switch: str = "colour"
    #: The header's name of the play phase (context ``phase``).
    play_phase: str = PLAY_PHASES["the Rummoli phase"]
    #: How a round goes, for the help (context ``game summary``).
    summary: str = ""
    #: What the game calls its spare hand (the layout's ``spare_word``): "widow",
    #: "dead hand", "spare hand", or "talon" (the rest of a deal by count: Poch's, Nain
    #: Jaune's); any other word: the terminal says "spare hand".
    spare: str = "widow"


@cache
def game_words(game: str) -> GameWords:
    """The words of the family's game ``game``, from its description and default layout."""
    description = describe(game)
    plan = description.rules({}).layout()
    switch = plan.switch_lead
    kind = (
        "colour"
        if switch in (lay.LOWEST_OF_COLOUR, lay.ANY_SUIT_OF_COLOUR)
        else "any"
        if switch in (lay.ANY_CARD, lay.LOWEST_OF_ANY_SUIT)
        else "suit"
    )
    return GameWords(
        game=description.name,
        title=description.title,
        kitty=plan.spaces[-1].name if plan.has_kitty else "",
        switch=kind,
        play_phase=PLAY_PHASES.get(plan.play_phase, PLAY_PHASES["the play"]),
        summary=description.summary,
        spare=plan.spare_word if plan.spare_word in SPARE_WORDS else "spare hand",
    )
