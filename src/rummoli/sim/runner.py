"""Running the chunks of a simulation: in this process, on a process pool, or on Ray.

Every backend gives ``(chunk index, stats)`` as chunks finish, in whatever order they
finish; :class:`Merger` puts them back in chunk order. Since a chunk's numbers depend
only on the chunk, the backends and the number of workers change the speed, never the
figures.

Ray (:mod:`rummoli.sim.ray_backend` has the details): with ``--address``, or inside
``ray job submit`` (which sets ``RAY_ADDRESS``), the run connects to that cluster and
ships the package to its workers in a ``runtime_env``; otherwise it starts a local Ray.
A chunk whose worker dies is run again by Ray, with the same figures.

Interrupting (Ctrl-C) stops a backend cleanly: pool workers ignore SIGINT (only the
parent reacts, so no worker prints a traceback) and are terminated; Ray tasks still
running are cancelled and the connection to Ray is closed (a Ray started here stops).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from rummoli.sim.game import simulation_part
from rummoli.sim.spec import Chunk, SimSpec

LOCAL = "local"
RAY = "ray"
BACKENDS = (LOCAL, RAY)

#: A finished chunk: its index and its statistics (the game's own: the runner moves and
#: merges them, it never reads them).
Finished = tuple[int, Any]


class BackendError(RuntimeError):
    """The backend cannot run: Ray missing, or its cluster out of reach."""


class Chunks(Iterator[Finished]):
    """The finished chunks of a running backend, and where they run.

    ``jobs`` is how many chunks run at once (the workers, or the Ray cluster's CPUs);
    ``where`` says it in a few words for the progress bar and the report; a Ray run
    counts the chunks its workers ran compiled and plain (a node whose compiled modules
    do not load runs the plain-Python ones: the same figures, slower).
    """

    def __init__(self, finished: Iterable[Finished], jobs: int, where: str) -> None:
        self._finished = iter(finished)
        self.jobs = jobs
        self.where = where
        self.chunks_compiled = 0
        self.chunks_plain = 0

    def __next__(self) -> Finished:
        return next(self._finished)


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class Merger:
    """Collects finished chunks and merges them in chunk order.

    Merging is exact in any order (integer sums and counts), but chunk order also fixes
    which chunk's sample game is shown, and keeps "same seed, same output" true to the
    byte. Chunks that finish early wait in ``pending`` until those before them arrive.
    """

    def __init__(self, spec: SimSpec) -> None:
        self.spec = spec
        self.stats: Any = simulation_part(spec.game).empty_stats(spec)
        self.pending: dict[int, Any] = {}
        self.next_index = 0
        #: Rounds and games of every finished chunk, pending ones included (for progress).
        self.rounds_done = 0
        self.games_done = 0

    def add(self, index: int, stats: Any) -> None:
        self.rounds_done += stats.rounds
        self.games_done += stats.games_started
        self.pending[index] = stats
        while self.next_index in self.pending:
            self.stats.merge(self.pending.pop(self.next_index))
            self.next_index += 1

    def result(self) -> Any:
        """Everything finished so far; after an interruption, chunks past a gap too
        (the game's own statistics)."""
        for index in sorted(self.pending):
            self.stats.merge(self.pending.pop(index))
        return self.stats


@contextmanager
def running(
    spec: SimSpec, *, jobs: int | None = None, backend: str = LOCAL, address: str | None = None
) -> Iterator[Chunks]:
    """Start the backend and give an iterator of chunks as they finish.

    ``jobs`` (None: the default) is this machine's cores for the local backend and a
    local Ray, and the cluster's CPUs for a Ray cluster. The workers start on entry
    (before a caller's progress bar starts its refresh thread, which matters for
    ``fork``) and are stopped on exit, also when an exception such as KeyboardInterrupt
    leaves the block early.
    """
    chunks = spec.chunks()
    if backend == RAY:
        from rummoli.sim import ray_backend

        with ray_backend.running(chunks, jobs, address) as finished:
            yield finished
    elif backend != LOCAL:
        raise ValueError(f"unknown backend {backend!r}; backends are {', '.join(BACKENDS)}")
    else:
        workers = jobs or default_jobs()
        if workers <= 1 or len(chunks) == 1:
            yield Chunks(map(play_indexed, chunks), 1, "this process")
            return
        # fork: workers start at once, the engine and the bots already imported.
        context = multiprocessing.get_context("fork")
        processes = min(workers, len(chunks))
        pool = context.Pool(processes, initializer=_ignore_sigint)
        try:
            results = pool.imap_unordered(play_indexed, chunks)
            yield Chunks(results, workers, f"{processes} local processes")
        finally:
            pool.terminate()
            pool.join()


def run(
    spec: SimSpec, *, jobs: int | None = None, backend: str = LOCAL, address: str | None = None
) -> Any:
    """Play a whole simulation without a progress bar and return its merged statistics
    (the game's own: :class:`rummoli.sim.stops.stats.SimStats` for Rummoli)."""
    merger = Merger(spec)
    with running(spec, jobs=jobs, backend=backend, address=address) as finished:
        for index, stats in finished:
            merger.add(index, stats)
    return merger.result()


def play_indexed(chunk: Chunk) -> Finished:
    """Play one chunk where this is called: ``(its index, its statistics)``."""
    # Each game's loop is imported where it runs: a Rummy run needs none of Rummoli's.
    return chunk.index, simulation_part(chunk.spec.game).play_chunk(chunk)


def _ignore_sigint() -> None:
    """Pool worker start-up: Ctrl-C reaches the whole process group, but only the parent
    should react (it stops the workers itself)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendError("the ray backend needs Ray: pip install 'rummoli[ray]'") from None
    return ray
