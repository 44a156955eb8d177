"""Rummoli: rules object, state machine, views and records."""

from rummoli.games.rummoli.record import make_record, replay
from rummoli.games.rummoli.rules import PRESETS, Rules, preset_rules
from rummoli.games.rummoli.setup import Setup, setup_from_dict
from rummoli.games.rummoli.state import RummoliState

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
