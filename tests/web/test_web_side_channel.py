"""The pay-card side channel (issue 12, finding 3): from the frames any other seat gets,
and when it gets them, nobody can tell a pass (or a dealer's keep) forced by a pay card
from a chosen one better than by chance.

A whole game of one person and seven computer players, with a spectator, is played with
the house rule on (the default). The server's frames to the spectator and to the
person, with the time each was sent, are kept. For every pass and keep, the truth (was
it forced by a pay card?) comes from the record; what an observer has is how it was
shown: whether the frame before showed that seat to move, whether the move came first
in its own frame, the step it carried, and whether it came a computer player's pause
after the frame before. The best any rule can do from these is counted, and must be no
better than always guessing the commoner case. Before the fix, a forced pass came inside
the previous player's frame, with no turn of its own: 47 right out of 47.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest
from webtools import INVITES, choose, connect, create_table, join, people, server

from rummoli.engine.base import Event
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.games.stops.setup import setup_from_dict
from rummoli.web import client as client_module
from rummoli.web.room import Timing

BOT_DELAY = 0.02
#: The game's seed: its deals (and the bots' choices) bring many passes and keeps of each kind.
SEED = 2
Sent = list[tuple[float, dict[str, Any]]]


def _truth(record: dict[str, Any]) -> list[tuple[str, int, bool]]:
    """Every pass and keep of the game in order: (kind, seat, forced by a pay card)."""
    rules = Rules.from_dict(record["rules"])
    state = RummoliState(
        rules, setup_from_dict(record["setup"], rules.starting_chips), record["seed"]
    )
    moves: list[tuple[str, int, bool]] = []
    for action in record["actions"]:
        events: list[Event] = state.apply(action)
        for i, event in enumerate(events):
            if event[0] in ("pass", "keep"):
                blocked = i > 0 and events[i - 1] == ("blocked", event[1])
                moves.append((event[0], event[1], blocked))
    return moves


def _observed(sent: Sent, names: list[str]) -> list[tuple[str, int, tuple[Any, ...]]]:
    """Every pass and keep an observer saw, with what it could read around it."""
    seen: list[tuple[str, int, tuple[Any, ...]]] = []
    last_view: dict[str, Any] | None = None
    last_time = last_step = None
    for moment, frame in sent:
        if frame.get("type") not in ("state", "update") or frame.get("view") is None:
            continue
        if frame["type"] == "update":
            for i, event in enumerate(frame["events"]):
                if event["type"] in ("pass", "keep"):
                    seat = names.index(event["player"])
                    features = (
                        last_view is not None and last_view["to_move"] == seat,
                        i == 0,
                        last_step is not None and frame["step"] == last_step + 1,
                        last_time is not None and moment - last_time >= BOT_DELAY / 2,
                    )
                    seen.append((event["type"], seat, features))
        last_view, last_time, last_step = frame["view"], moment, frame["step"]
    return seen


def _play_slowly(person: Any, spectator: Any, rng: random.Random) -> None:
    """Play the person's seat to the end like a person: a little thought before every
    move, forced or not (as long as a computer's pause), never instantly."""
    deadline = time.monotonic() + 120
    acted = -1
    while not all(c.view and c.view["phase"] == "over" for c in (person, spectator)):
        assert time.monotonic() < deadline, "the game did not end in time"
        for conn in (person, spectator):
            frame = conn.poll(0.005)
            assert frame is None or frame["type"] != "error", frame
        if person.my_turn() and acted != person.step:
            time.sleep(BOT_DELAY * 1.5)
            while (frame := person.poll(0.001)) is not None:
                assert frame["type"] != "error", frame
            if person.my_turn() and acted != person.step:
                acted = person.step
                action = choose(person.view, rng)
                person.send({"type": "action", "action": action, "step": person.step})


def _best_guess(samples: list[tuple[tuple[Any, ...], bool]]) -> tuple[float, float]:
    """The accuracy of the best rule from features to "forced?" on these samples, and
    that of always guessing the commoner answer."""
    by_features: dict[tuple[Any, ...], Counter[bool]] = {}
    for features, forced in samples:
        by_features.setdefault(features, Counter())[forced] += 1
    best = sum(max(c.values()) for c in by_features.values()) / len(samples)
    base = max(Counter(f for _, f in samples).values()) / len(samples)
    return best, base


def test_forced_passes_look_like_chosen_ones_to_every_other_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: dict[int, Sent] = {}
    original = client_module.Client.send

    def recording(self: client_module.Client, frame: dict[str, Any] | str) -> None:
        data = orjson.loads(frame) if isinstance(frame, str) else frame
        sent.setdefault(id(self), []).append((time.monotonic(), data))
        original(self, frame)

    monkeypatch.setattr(client_module.Client, "send", recording)
    # A fixed deal (the server draws a secret seed): one with many passes of each kind.
    monkeypatch.setattr("rummoli.web.hub.new_seed", lambda: SEED)
    timing = Timing(bot_delay=BOT_DELAY, round_pause=0.0)
    with server(tmp_path / "t.db", timing=timing) as client:
        # Eight seats and no ace of spades space: small hands, fewer pay cards, so
        # about as many chosen passes as forced ones.
        table = create_table(
            client,
            ["human", "basic", "basic", "random", "basic", "basic", "random", "basic"],
            rules={"rounds": 14, "ace_of_spades": False, "starting_chips": 300},
        )
        token = join(client, table, "Ann")["token"]
        hub = client.app.state.hub  # type: ignore[attr-defined]
        with connect(client, table, token) as ann, connect(client, table) as spectator:
            the_room = hub.rooms[table]
            clients = {c.seat: id(c) for c in the_room.clients}
            _play_slowly(ann, spectator, random.Random(8))
        record = client.get(f"/api/games/{table}/record", headers=people(table)).json()
        assert INVITES[table] not in str(sent)
    names = record["setup"]["players"]
    truth = _truth(record)
    forced_total = sum(forced for _, _, forced in truth)
    assert forced_total >= 8 and len(truth) - forced_total >= 8, "too few of each to judge"
    for observer in (None, 0):  # the spectator, and the person's seat
        seen = _observed(sent[clients[observer]], names)
        assert [(k, s) for k, s, _ in seen] == [(k, s) for k, s, _ in truth]
        samples = [
            (features, forced)
            for (_, seat, features), (_, _, forced) in zip(seen, truth, strict=True)
            if seat != observer  # a seat knows its own hand
        ]
        best, base = _best_guess(samples)
        assert best <= base + 0.05, (observer, best, base, Counter(samples))
