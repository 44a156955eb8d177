"""CPU per action on the web table: one table of four people, played in process.

What one action costs the server, end to end, without the network or a load client in
the measure: a :class:`~rummoli.web.hub.Hub` on a temporary SQLite file (its real group
commit, on its storage thread), one :class:`~rummoli.web.room.Room` with four seated
people (``--spectators`` more watching), each a :class:`~rummoli.web.client.Client`
whose outbox is emptied after every action, as its writer would. Each action goes the way
a player's does (:func:`rummoli.web.commands.handle` with an ``Action``): checked,
stored (group commit), applied by the engine, then a frame built for each seat (its
view, its events, a run's patches) and the table's part, encoded as JSON. Then each
frame is put in a WebSocket frame the way the server's protocol library does
(``websockets``' ``Frame.serialize``, unmasked, as a server sends), with
permessage-deflate when ``--deflate`` is given (a compressor per connection, context
kept, as browsers negotiate it).

The figure is **CPU milliseconds per action**: ``time.process_time()`` (every thread of
the process, so the storage thread's commit counts) over the played actions, divided by
their number; best of ``--repeats`` runs (another program on the machine only ever adds
to it). Deals (the chance steps) are counted as actions: the server stores and
broadcasts them the same way. Actions are chosen by a seeded generator among the legal
ones, so every run plays the same games. ``--tables N`` plays N tables at once on the
one hub (seeds ``--seed``, ``--seed + 1``, ...), so that the actions share group commits
as on a busy server (one table alone pays a commit and a hop to the storage thread for
every action: about 0.1 ms more). ``--no-wire`` leaves the WebSocket framing out,
``--deflate`` adds permessage-deflate (and prints the bytes on the wire against the
JSON's). ``--profile`` prints a cProfile of one run of each game by cumulative time;
``--parts`` times the parts of an action that make the frames (a run's steps: their
views, their patches, their events; the frames' own views and events), each as CPU ms
per action of the best run (the timers add a little to the whole; the parts are what
to compare).

Not in the figure: the socket's own work (uvicorn's protocol object, the event loop's
writes, the kernel), which ``bench/bench_web_load.py``'s ``server_cpu_ms_per_action``
includes with everything else.

    PYTHONPATH=src .venv/bin/python bench/bench_web_action.py             # 4 games, 3 runs
    PYTHONPATH=src .venv/bin/python bench/bench_web_action.py --tables 16 --actions 300
    PYTHONPATH=src .venv/bin/python bench/bench_web_action.py --game rummy --deflate
    PYTHONPATH=src .venv/bin/python bench/bench_web_action.py --profile | head -60
    PYTHONPATH=src .venv/bin/python bench/bench_web_action.py --game rummoli --parts

:func:`play` is also what ``tests/web/test_web_frames.py`` records the frames of a fixed
seeded game with (the frames must stay byte-identical when the path is made cheaper).
Figures: docs/performance.md ("CPU per action").
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import random
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from rummoli.engine.base import CHANCE, CHANCE_ACTION
from rummoli.web import broadcast, runs
from rummoli.web import room as room_module
from rummoli.web.client import Client
from rummoli.web.commands import Action, handle
from rummoli.web.games import games, rules_from_dict, seat_limits
from rummoli.web.hub import Hub
from rummoli.web.protocol import Act
from rummoli.web.room import Room, Timing
from rummoli.web.security import hash_token
from rummoli.web.storage import PLAYING, Storage, StoredGame, StoredSeat

try:
    from rummoli.web.stops.steps import StepPatches
except ImportError:  # an older source tree, timed for a comparison
    StepPatches = None  # type: ignore[assignment,misc]

SEATS = 4
#: The moment every recorded game starts at: frames carry the table's times.
MOMENT = datetime(2026, 1, 2, 3, 4, 5)
NO_WAIT = Timing(bot_delay=0.0, round_pause=0.0, watch=False)
#: What ``--parts`` times: a name, the module, and the function it wraps where it is
#: called (a run's parts inside ``runs.seats_parts``, the frames' in ``broadcast``): the
#: first of the names given that the module has (so that the script times an older
#: source tree too, for a comparison).
PARTS: tuple[tuple[str, object, tuple[str, ...]], ...] = (
    ("a run's steps, in all", broadcast, ("seats_parts",)),
    # The Stops family's views and patches of a step, made together (web/stops/steps.py);
    # the two lines below: the plain way's (another game's, or an older source tree's).
    ("  their views and patches", StepPatches, ("__call__",)),
    ("  their views", runs, ("seat_views",)),
    ("  their patches", runs, ("diff_shared",)),
    ("  their events", runs, ("seats_events", "events_for")),
    ("the frames' views", broadcast, ("seat_views",)),
    ("the frames' events", broadcast, ("seats_events", "events_for")),
)


@dataclass
class Played:
    """What :func:`play` saw: each step's frames (per connection, in connection order:
    the seats, then the spectators) and the CPU it took."""

    frames: list[list[list[str]]] = field(default_factory=list)
    actions: int = 0
    cpu: float = 0.0
    wire_bytes: int = 0
    json_bytes: int = 0
    #: CPU seconds in each of :data:`PARTS` (``--parts``), by name.
    parts: dict[str, float] = field(default_factory=dict)


@contextmanager
def _fixed_clock() -> Iterator[None]:
    """The room's clock stopped at :data:`MOMENT` (its start and end times are in frames)."""
    names = vars(room_module)
    saved = names["utcnow"]
    names["utcnow"] = lambda: MOMENT
    try:
        yield
    finally:
        names["utcnow"] = saved


@contextmanager
def _timed_parts(totals: dict[str, float]) -> Iterator[None]:
    """Each of :data:`PARTS` timed where it is called, its CPU seconds added to
    ``totals``; every function put back after."""
    saved = []
    for name, module, attributes in PARTS:
        attribute = next((a for a in attributes if hasattr(module, a)), None)
        if module is None or attribute is None:
            continue  # (not in the source tree timed)
        function = getattr(module, attribute)
        saved.append((module, attribute, function))

        def timed(
            *args: object, _f: Callable[..., object] = function, _n: str = name, **kw: object
        ) -> object:
            started = time.process_time()
            try:
                return _f(*args, **kw)
            finally:
                totals[_n] = totals.get(_n, 0.0) + time.process_time() - started

        setattr(module, attribute, timed)
    try:
        yield
    finally:
        for module, attribute, function in saved:
            setattr(module, attribute, function)


def _framer(deflate: bool) -> Callable[[str], bytes]:
    """What a connection's writer does with a frame's text: a WebSocket frame as the
    server sends it (``websockets``, unmasked), compressed if ``deflate``."""
    from websockets.frames import Frame, Opcode

    if not deflate:
        return lambda text: Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])
    from websockets.extensions.permessage_deflate import PerMessageDeflate

    extension = PerMessageDeflate(False, False, zlib.MAX_WBITS, zlib.MAX_WBITS)
    return lambda text: Frame(Opcode.TEXT, text.encode()).serialize(
        mask=False, extensions=[extension]
    )


async def _table(
    hub: Hub,
    game: str,
    seed: int,
    limit: int,
    spectators: int,
    deflate: bool | None,
    played: Played,
    record: bool,
) -> None:
    """One table of people playing ``limit`` actions at most, its frames drained after
    each (kept in ``played`` if ``record``)."""
    low, high = seat_limits(game)
    seats = max(low, min(SEATS, high))
    stored = StoredGame(
        id=f"bench-{game}-{seed}",
        status=PLAYING,
        rules=rules_from_dict(game, None).to_dict(),
        seed=seed,
        seats=[StoredSeat(i, f"P{i}", hash_token(f"t{i}")) for i in range(seats)],
        game=game,
        created_at=MOMENT,
    )
    await hub.db(hub.storage.create_game, stored)
    room = Room(hub, stored)
    hub.rooms[room.id] = room
    clients = [Client(i, "127.0.0.1") for i in range(seats)]
    clients += [Client(None, "127.0.0.1", f"S{i}", browser=f"b{i}") for i in range(spectators)]
    framers = [_framer(deflate) for _ in clients] if deflate is not None else []

    def drain() -> None:
        step: list[list[str]] = []
        for i, client in enumerate(clients):
            texts: list[str] = []
            while not client.outbox.empty():
                text = client.outbox.get_nowait()
                assert text is not None, "a client was dropped"
                texts.append(text)
                played.json_bytes += len(text)
                if framers:
                    played.wire_bytes += len(framers[i](text))
            step.append(texts)
        if record:
            played.frames.append(step)

    choose = random.Random(seed)
    for client in clients:
        room.attach(client)
    await room.start_game()
    drain()
    actions = 0
    while room.state is not None and not room.state.is_terminal() and actions < limit:
        shown = room.shown
        assert shown is not None
        to_move = shown.current_player()
        if to_move == CHANCE:
            await room.apply(CHANCE_ACTION)
        else:
            action = choose.choice(room.legal_now()[:3])  # as bench_web_load.py plays
            await handle(room, Action(clients[to_move], Act(action, room.step)))
        actions += 1
        drain()
    played.actions += actions


async def _play(
    game: str,
    seed: int,
    limit: int,
    spectators: int,
    deflate: bool | None,
    db: Path,
    tables: int,
    parts: bool,
) -> Played:
    storage = Storage(f"sqlite:///{db}")
    hub = Hub(storage, NO_WAIT)
    played = Played()
    started = time.process_time()
    # Several tables at once share the group commits, as on a busy server.
    with _timed_parts(played.parts) if parts else nullcontext():
        await asyncio.gather(
            *(
                _table(hub, game, seed + t, limit, spectators, deflate, played, t == 0)
                for t in range(tables)
            )
        )
    played.cpu = time.process_time() - started
    await hub.stop()
    storage.close()
    return played


def play(
    game: str,
    seed: int,
    *,
    limit: int = 10_000,
    spectators: int = 0,
    deflate: bool | None = None,
    db: Path | None = None,
    tables: int = 1,
    parts: bool = False,
) -> Played:
    """Play one seeded game of ``game`` at a table of four (or the game's nearest seat
    count) for at most ``limit`` actions; every frame each connection got, by step.
    ``deflate``: None, frames are not put on the wire; False, framed; True, framed and
    compressed (``Played.wire_bytes``). ``tables``: so many tables at once (seeds
    ``seed``, ``seed + 1``, ...; the frames kept are the first one's). ``parts``: time
    :data:`PARTS` too (``Played.parts``)."""
    with tempfile.TemporaryDirectory() as folder, _fixed_clock():
        path = db or Path(folder) / "bench.db"
        return asyncio.run(_play(game, seed, limit, spectators, deflate, path, tables, parts))


def _run(args: argparse.Namespace, game: str) -> Played:
    return play(
        game,
        args.seed,
        limit=args.actions,
        spectators=args.spectators,
        deflate=args.wire,
        tables=args.tables,
        parts=args.parts,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game (default: every one)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--actions", type=int, default=1500, help="actions per table at most")
    parser.add_argument("--spectators", type=int, default=0)
    parser.add_argument(
        "--tables", type=int, default=1, help="tables played at once (sharing group commits)"
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--deflate", action="store_true", help="permessage-deflate on the wire")
    parser.add_argument("--no-wire", action="store_true", help="leave WebSocket framing out")
    parser.add_argument("--profile", action="store_true", help="cProfile one run of each game")
    parser.add_argument(
        "--parts", action="store_true", help="time the parts that make the frames, per action"
    )
    args = parser.parse_args()
    args.wire = None if args.no_wire else args.deflate
    chosen = args.game or list(games())
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for game in chosen:
            _run(args, game)
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(60)
        return
    total_actions = 0
    total_cpu = 0.0
    for game in chosen:
        runs = [_run(args, game) for _ in range(args.repeats)]
        best = min(runs, key=lambda p: p.cpu)
        per = [r.cpu / r.actions * 1000 for r in runs]
        total_actions += best.actions
        total_cpu += best.cpu
        wire = (
            f", {best.wire_bytes / best.json_bytes:.3f} of the JSON on the wire"
            if (args.wire is not None)
            else ""
        )
        print(
            f"{game:10s} {best.actions:5d} actions  best {min(per):.3f} ms CPU/action "
            f"(runs {', '.join(f'{p:.3f}' for p in per)}), "
            f"{best.json_bytes / best.actions / 1000:.1f} kB JSON/action{wire}"
        )
        for name, _, _ in PARTS if args.parts else ():
            print(f"  {name:24s} {best.parts.get(name, 0.0) / best.actions * 1000:.3f} ms/action")
    mean = total_cpu / total_actions * 1000
    print(f"all games  {total_actions:5d} actions  {mean:.3f} ms CPU/action")


if __name__ == "__main__":
    main()
