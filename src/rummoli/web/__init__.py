"""The web table: play Rummoli in the browser with friends and computer players.

The server is the only authority: every room has one owner task (:mod:`.room`) that
applies actions in order, stores each one (:mod:`.storage`, by the group commit of
:mod:`.hub`) before anyone hears of it, and sends every client (:mod:`.broadcast`) only
what the engine's view of that client's seat allows
(:func:`rummoli.games.stops.view.build_view`, :func:`~rummoli.games.stops.view.events_for`).
The protocol is in ``docs/web.md``.

``create_app`` is imported when first asked for: the package's small parts that are
compiled (:mod:`.patch`) are imported by a compiled install's check, a simulation's Ray
worker among them, which must not import the web server for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rummoli.web.app import create_app


def __getattr__(name: str) -> object:
    if name == "create_app":
        from rummoli.web.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["create_app"]
