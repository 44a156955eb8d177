"""The hint button: the strongest computer player's suggestion for a person's decision.

The terminal's ``?`` asks the game's strongest level (:meth:`GameDescription.hint_level`)
what it would do in the person's place; this is the same for the web table, as a client
message (``{"type": "hint", "step": n}``) answered to that client alone:

- **From the seat's view only.** The bot is handed ``state.observation(seat)`` and the
  seat's legal actions, exactly what a computer player in that seat is given
  (:func:`rummoli.bots.ask_bot`'s rule): it cannot read the other hands, the widow or the
  deck, so a hint never leaks a hidden card.
- **Only at your own decision.** A spectator, a seat not to move, a game not started or
  over, or a stale step is refused with a code (:func:`refusal`), before anything runs.
- **Cheap for the server.** Each connection has its own small budget of hints
  (:data:`HINT_BURST`, then :data:`HINT_PER_SECOND`), the answer for a seat at a step
  is kept (asking again costs nothing), and one hint at a time runs per table, in a
  worker thread (the strong Rummoli player takes a median of 20 ms:
  ``bench/bench_hint.py``), never in the room's owner: a hint never delays the table.
- **Structured.** The bot's reason is an English sentence (the bots are standard library
  only and speak English); it is sent as a ``code`` and its ``fields``
  (:func:`structured`), matched against the known shapes of
  :data:`rummoli.i18n.sentences.HINTS`, so the page writes the sentence in its own
  language (``static/js/hint.js``). The English text comes along for a shape the page
  does not know.
"""

from __future__ import annotations

import asyncio
import logging
import re
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rummoli.bots import Bot, Decision, make_bot
from rummoli.i18n import N_
from rummoli.i18n.sentences import HINTS, pattern
from rummoli.web.client import Client
from rummoli.web.commands import ACTION_REFUSALS, turn_refusal
from rummoli.web.games import description
from rummoli.web.protocol import error_message
from rummoli.web.security import stream_seed

if TYPE_CHECKING:
    from rummoli.web.room import Room

log = logging.getLogger(__name__)

#: Hints a connection may ask in a burst...
HINT_BURST = 5
#: ...then so many a second (one every two seconds): a person reads a hint before
#: asking for the next; a script asking in a loop is refused.
HINT_PER_SECOND = 0.5
#: Answers kept per table (one per seat and step).
CACHE_SIZE = 64


def code_of(message: str) -> str:
    """A hint shape's code: its English message as a slug (``"raise to {amount}: {why}"``
    is ``raise_to_amount_why``). The page keeps its sentences under the same codes."""
    return re.sub(r"[^a-z0-9]+", "_", message.lower()).strip("_")


#: Every known reason's code, in the order shapes are tried.
CODES = tuple(code_of(shape.message) for shape in HINTS)


def _value(text: str) -> int | str:
    return int(text) if text.isdigit() and len(text) < 16 else text


def _parse(text: str) -> dict[str, Any] | None:
    """The first shape ``text`` has whose nested reasons (``why``) are known too."""
    fallback: dict[str, Any] | None = None
    for shape, code in zip(HINTS, CODES, strict=True):
        match = pattern(shape.message).match(text)
        if match is None:
            continue
        fields: dict[str, Any] = {}
        known = True
        for name, value in match.groupdict().items():
            if name == "why":
                inner = _parse(value)
                known = known and inner is not None
                fields[name] = inner if inner is not None else {"code": "", "text": value}
            else:
                fields[name] = _value(value)
        found = {"code": code, "fields": fields, "text": text}
        if known:
            return found
        fallback = fallback or found
    return fallback


def structured(reason: str) -> dict[str, Any]:
    """A bot's reason as ``{"code", "fields", "text"}``: ``code`` names its shape (empty
    for a sentence of no known shape), ``fields`` its values (whole numbers as numbers, a
    nested reason as its own ``{"code", ...}``), ``text`` the English sentence."""
    if not reason:
        return {"code": "", "fields": {}, "text": ""}
    return _parse(reason) or {"code": "", "fields": {}, "text": reason}


#: What a hint is refused with, by reason (the words of an action's refusal, but where
#: a hint needs its own).
HINT_REFUSALS = {
    **ACTION_REFUSALS,
    "spectator": N_("hints are for the players; take a seat to play"),
    "stale": N_("the table has moved on: ask again"),
    "not_your_turn": N_("a hint is for your own decision: it is not your turn"),
}


def refusal(room: Room, client: Client, step: int | None) -> tuple[str, str] | None:
    """Why a hint must be refused now; None: it may be computed."""
    return turn_refusal(room, client, step, HINT_REFUSALS)


@dataclass
class _Desk:
    """One table's hints: the bots (one per seat, as the terminal keeps one), the answers
    given, and the lock that runs one hint at a time."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bots: dict[int, Bot] = field(default_factory=dict)
    answers: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)


_DESKS: weakref.WeakKeyDictionary[Room, _Desk] = weakref.WeakKeyDictionary()
#: Hints being worked out (kept so the tasks are not collected while they run).
_RUNNING: set[asyncio.Task[None]] = set()


def _desk(room: Room) -> _Desk:
    desk = _DESKS.get(room)
    if desk is None:
        desk = _DESKS[room] = _Desk()
    return desk


def ask(room: Room, client: Client, step: int | None) -> None:
    """Work out the hint for ``client``'s seat in the background; the answer (or a
    refusal) goes to that client alone. The caller made the cheap checks."""
    task = asyncio.get_running_loop().create_task(answer(room, client, step))
    _RUNNING.add(task)
    task.add_done_callback(_RUNNING.discard)


async def answer(room: Room, client: Client, step: int | None) -> None:
    """Compute and send one hint (see the module's doc)."""
    desk = _desk(room)
    async with desk.lock:
        why = refusal(room, client, step)
        if why is not None:
            client.send(error_message(*why, room.step))
            return
        seat = client.seat
        state = room.shown
        assert seat is not None and state is not None
        now = room.step
        frame = desk.answers.get((seat, now))
        if frame is None:
            forced = room.forced(seat)
            if forced is not None:
                decision = Decision(forced, "the only choice")
            else:
                # What the seat sees, taken now on the event loop (the owner cannot change
                # the game meanwhile); the bot thinks over it in a worker thread.
                observation = state.observation(seat)
                legal = list(state.legal_actions())
                if not legal:
                    client.send(error_message("no_decision", N_("there is nothing to decide"), now))
                    return
                bot = desk.bots.get(seat)
                if bot is None:
                    level = description(room.game).hint_level()
                    seed = stream_seed(room.seed, f"hint:{seat}")
                    bot = desk.bots[seat] = make_bot(level, seed, room.game)
                try:
                    decision = await asyncio.to_thread(bot.choose, observation, legal)
                except Exception:  # a bug in a bot must not cost the table anything
                    log.exception("room %s: the hint for seat %d failed", room.id, seat)
                    client.send(error_message("no_hint", N_("no hint could be found"), now))
                    return
                if decision.action not in legal:
                    log.error("room %s: the hint bot chose an illegal action", room.id)
                    client.send(error_message("no_hint", N_("no hint could be found"), now))
                    return
            frame = {
                "type": "hint",
                "step": now,
                "action": decision.action,
                "text": state.action_to_text(decision.action),
                "level": description(room.game).hint_level(),
                "reason": structured(decision.reason),
            }
            if len(desk.answers) >= CACHE_SIZE:
                desk.answers.pop(next(iter(desk.answers)))
            desk.answers[(seat, now)] = frame
        client.send(frame)


__all__ = ["CODES", "HINT_BURST", "HINT_PER_SECOND", "answer", "ask", "refusal", "structured"]
