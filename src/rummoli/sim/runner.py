"""Running the chunks of a simulation: in this process, on a process pool, or on Ray.

Every backend gives ``(chunk index, stats)`` as chunks finish, in whatever order they
finish; :class:`Merger` puts them back in chunk order. Since a chunk's numbers depend
only on the chunk, the backends and the number of workers change the speed, never the
figures.

Interrupting (Ctrl-C) stops a backend cleanly: pool workers ignore SIGINT (only the
parent reacts, so no worker prints a traceback) and are terminated; Ray tasks still
running are cancelled and a Ray started here is shut down.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Generator, Iterator
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
    spec: SimSpec, *, jobs: int = 1, backend: str = LOCAL, address: str | None = None
) -> Iterator[Iterator[Finished]]:
    """Start the backend and give an iterator of chunks as they finish.

    The workers start on entry (before a caller's progress bar starts its refresh
    thread, which matters for ``fork``) and are stopped on exit, also when an exception
    such as KeyboardInterrupt leaves the block early.
    """
    chunks = spec.chunks()
    if backend == RAY:
        ray = import_ray()
        started = _start_ray(ray, jobs, address)
        results = _ray_results(ray, chunks, jobs)
        try:
            yield results
        finally:
            results.close()  # cancels the tasks still running
            if started:
                ray.shutdown()
    elif backend != LOCAL:
        raise ValueError(f"unknown backend {backend!r}; backends are {', '.join(BACKENDS)}")
    elif jobs <= 1 or len(chunks) == 1:
        yield map(_indexed, chunks)
    else:
        # fork: workers start at once, the engine and the bots already imported.
        context = multiprocessing.get_context("fork")
        pool = context.Pool(min(jobs, len(chunks)), initializer=_ignore_sigint)
        try:
            yield pool.imap_unordered(_indexed, chunks)
        finally:
            pool.terminate()
            pool.join()


def run(spec: SimSpec, *, jobs: int = 1, backend: str = LOCAL, address: str | None = None) -> Any:
    """Play a whole simulation without a progress bar and return its merged statistics
    (the game's own: :class:`rummoli.sim.rummoli.stats.SimStats` for Rummoli)."""
    merger = Merger(spec)
    with running(spec, jobs=jobs, backend=backend, address=address) as finished:
        for index, stats in finished:
            merger.add(index, stats)
    return merger.result()


def _indexed(chunk: Chunk) -> Finished:
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


def _start_ray(ray: Any, jobs: int, address: str | None) -> bool:
    """Connect to Ray; returns whether this call started it (and so must shut it down).

    A Ray the caller already started is used as it is; else ``address`` names a
    cluster, or, with none, a local Ray with ``jobs`` CPUs is started. A cluster's
    workers must have ``rummoli`` installed.
    """
    if ray.is_initialized():
        return False
    try:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(jobs, 1), include_dashboard=False, log_to_driver=False)
    except Exception as error:  # Ray raises many kinds; the message is what matters
        where = f"the Ray cluster at {address}" if address else "a local Ray"
        raise BackendError(f"cannot start or reach {where}: {error}") from error
    return True


def _ray_results(ray: Any, chunks: list[Chunk], jobs: int) -> Generator[Finished, None, None]:
    """Chunks as Ray tasks, at most ``2 * jobs`` in flight so that cancelling is quick."""
    remote = ray.remote(_indexed)
    queue = list(reversed(chunks))
    in_flight: list[Any] = []
    try:
        limit = 2 * max(jobs, 1)
        while queue or in_flight:
            while queue and len(in_flight) < limit:
                in_flight.append(remote.remote(queue.pop()))
            done, in_flight = ray.wait(in_flight, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in in_flight:
            ray.cancel(ref, force=True)
