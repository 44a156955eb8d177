"""Each family game's web part by its name: ``rummoli.web.stops.parts:<game>`` (PEP
562's module ``__getattr__``: a game added to the family needs no line here)."""

from __future__ import annotations

from rummoli.web.games import WebPart
from rummoli.web.stops import web_part


def __getattr__(game: str) -> WebPart:
    if game.startswith("__"):
        raise AttributeError(game)
    return web_part(game)
