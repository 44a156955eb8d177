"""Basic Rummy: rules object, melds, state machine, views, records and scenarios."""

from rummoli.games.rummy.record import make_record, replay
from rummoli.games.rummy.rules import Rules
from rummoli.games.rummy.setup import Setup, setup_from_dict
from rummoli.games.rummy.state import RummyState

__all__ = [
    "Rules",
    "RummyState",
    "Setup",
    "make_record",
    "replay",
    "setup_from_dict",
]
