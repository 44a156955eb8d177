"""The web table: play Rummoli in the browser with friends and computer players.

The server is the only authority: every room has one owner task (:mod:`.room`) that
applies actions in order, stores each one (:mod:`.storage`, by the group commit of
:mod:`.hub`) before anyone hears of it, and sends every client (:mod:`.broadcast`) only
what the engine's view of that client's seat allows
(:func:`rummoli.games.stops.view.build_view`, :func:`~rummoli.games.stops.view.events_for`).
The protocol is in ``docs/web.md``.
"""

from rummoli.web.app import create_app

__all__ = ["create_app"]
