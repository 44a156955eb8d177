"""Rummoli: rules object, state machine, views and records."""

from rummoli.games.rummoli.rules import PRESETS, Rules, preset_rules
from rummoli.games.stops.record import make_record, replayer
from rummoli.games.stops.setup import Setup, setup_from_dict
from rummoli.games.stops.state import RummoliState

#: Rebuild a game of Rummoli from its record, applying every action.
replay = replayer("rummoli", "Rummoli", Rules.from_dict)

__all__ = [
    "PRESETS",
    "Rules",
    "RummoliState",
    "Setup",
    "make_record",
    "preset_rules",
    "replay",
    "setup_from_dict",
]
