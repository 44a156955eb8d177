"""The Ray backend: chunks as Ray tasks, on a local Ray or on a real cluster.

**Where.** A Ray the caller already started is used as it is. Otherwise ``--address``,
or else ``RAY_ADDRESS`` (``ray job submit`` sets it for the job's driver), names a
cluster to connect to; with neither, a local Ray is started with ``--jobs`` CPUs (all
cores by default). Connecting never passes ``num_cpus``: a cluster has its own.

**Token authentication.** Ray (2.59 and later) protects a cluster with a token when
one exists (``~/.ray/auth_token``, ``RAY_AUTH_TOKEN`` or ``RAY_AUTH_TOKEN_PATH``), but a
driver connecting to an explicit address does not look for it, so ``--address`` failed
with ``InvalidAuthToken``. Like Ray's own CLI, the backend turns token mode on when a
token is available and ``RAY_AUTH_MODE`` is not set; for a remote cluster the user
copies the head node's token once (``ray get-auth-token`` there, into ``RAY_AUTH_TOKEN``
or ``~/.ray/auth_token`` here; ``docs/simulation.md``).

**The code on the workers.** A cluster's workers get the package in the run's
``runtime_env`` (``py_modules``: the ``rummoli`` directory, with its compiled modules
when they are current, and the third-party packages the workers import, pure Python,
:data:`WORKER_DEPENDENCIES`), so nothing needs installing on the nodes but Ray and
Python. Each task is :func:`rummoli.compiled.run_chunk_on_node`: a node where the
shipped compiled modules do not load runs the ``.py`` sources, with the same figures.
A local Ray needs none of this: its workers are this machine's processes.

**Failures.** A task whose worker dies (killed, out of memory, node lost) is run again
by Ray, up to :data:`RETRIES` times; a chunk's figures depend only on the chunk, so the
figures are those of an undisturbed run.

``--jobs`` defaults to the cluster's CPUs, and at most ``2 * jobs`` chunks are in flight
(so cancelling is quick and every CPU stays busy).
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import pickle
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import rummoli
from rummoli.compiled import MODULES, compiled_modules, run_chunk_on_node, stale_sources
from rummoli.sim.runner import BackendError, Chunks, Finished, default_jobs, import_ray
from rummoli.sim.spec import Chunk

#: Times Ray runs a chunk again after its worker process died.
RETRIES: Final = 3
#: Third-party packages a worker imports (the simulation part's protocol names rich's
#: Console): shipped from this machine, so a bare node needs only Ray. A test checks the
#: list against what a worker really imports.
WORKER_DEPENDENCIES: Final = ("rich",)
#: Set by Ray in the driver of a job started by ``ray job submit``: the job's config.
_JOB_CONFIG: Final = "RAY_JOB_CONFIG_JSON_ENV_VAR"


def cluster_address(address: str | None) -> str | None:
    """The cluster to connect to: ``--address``, else ``RAY_ADDRESS``, else None."""
    return address or os.environ.get("RAY_ADDRESS") or None


def token_available() -> bool:
    """Whether this machine holds a Ray authentication token where Ray looks for one."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return True
    path = os.environ.get("RAY_AUTH_TOKEN_PATH")
    if path:
        return Path(path).is_file()
    return (Path.home() / ".ray" / "auth_token").is_file()


def use_token_if_available() -> bool:
    """Turn Ray's token mode on for this process when a token is available and
    ``RAY_AUTH_MODE`` says nothing (what Ray does itself for a cluster it finds alone).
    Returns whether token mode is on."""
    mode = os.environ.get("RAY_AUTH_MODE")
    if mode is not None:
        return mode.lower() == "token"
    if not token_available():
        return False
    os.environ["RAY_AUTH_MODE"] = "token"
    try:  # Ray read its config when imported: make it read the mode again
        config = getattr(importlib.import_module("ray._raylet"), "Config", None)
    except ImportError:
        config = None
    if config is not None:  # (a Ray without token authentication has none)
        config.initialize("")
    return True


def runtime_env() -> dict[str, Any]:
    """The ``runtime_env`` that carries the package and its worker dependencies.

    The compiled modules go along only when every one is built and none is stale (else
    the workers run the sources, as a driver would after an edit).
    """
    package = Path(rummoli.__file__).parent
    modules = [str(package)]
    for name in WORKER_DEPENDENCIES:
        module = importlib.import_module(name)
        modules.append(str(Path(str(module.__file__)).parent))
    excludes = ["**/__pycache__", "*.pyc"]
    if len(compiled_modules()) != len(MODULES) or stale_sources():
        excludes.append("*.so")
    env: dict[str, Any] = {"py_modules": modules, "excludes": excludes}
    return _with_job_env(env)


def _with_job_env(env: dict[str, Any]) -> dict[str, Any]:
    """Inside ``ray job submit``, Ray merges the job's runtime_env with the driver's and
    refuses a field given by both; a job that ships modules of its own keeps them."""
    text = os.environ.get(_JOB_CONFIG)
    if not text:
        return env
    job = (json.loads(text).get("runtime_env") or {}) if text else {}
    shared = [key for key in env if key in job]
    if not shared:
        return env
    for key in shared:
        env[key] = list(job[key]) + list(env[key])
    os.environ["RAY_OVERRIDE_JOB_RUNTIME_ENV"] = "1"  # ours now includes the job's
    return env


def connect(ray: Any, jobs: int | None, address: str | None) -> tuple[bool, int, str]:
    """Start or reach Ray: (whether this call initialised Ray, CPUs to use, where)."""
    target = cluster_address(address)
    initialised = False
    if not ray.is_initialized():
        try:
            if target:
                use_token_if_available()
                ray.init(
                    address=target,
                    runtime_env=runtime_env(),
                    log_to_driver=False,
                    logging_level=logging.WARNING,
                )
            else:
                ray.init(
                    num_cpus=jobs or default_jobs(),
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.WARNING,
                )
        except Exception as error:  # Ray raises many kinds; the message is what matters
            raise BackendError(_cannot_connect(target, error)) from error
        initialised = True
    cpus = int(ray.cluster_resources().get("CPU", 0)) or 1
    nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
    where = f"Ray, {cpus} CPUs on {nodes} node{'s' if nodes != 1 else ''}"
    return initialised, jobs or cpus, where


def _cannot_connect(target: str | None, error: Exception) -> str:
    if not target:
        return f"cannot start a local Ray: {error}"
    text = f"cannot reach the Ray cluster at {target}: {error}"
    if "auth" in str(error).lower() or "Failed to connect" in str(error):
        text += (
            ". If the cluster uses token authentication, copy its token from the head "
            "node (`ray get-auth-token` there) into RAY_AUTH_TOKEN or ~/.ray/auth_token"
        )
    return text


class _RayChunks(Chunks):
    """Ray's finished chunks, counting those run compiled and plain."""

    def __init__(self, results: Iterator[tuple[int, Any, bool]], jobs: int, where: str) -> None:
        super().__init__((), jobs, where)
        self._results = results

    def __next__(self) -> Finished:
        index, stats, compiled = next(self._results)
        if compiled:
            self.chunks_compiled += 1
        else:
            self.chunks_plain += 1
        return index, stats


@contextmanager
def running(chunks: Sequence[Chunk], jobs: int | None, address: str | None) -> Iterator[Chunks]:
    """Chunks as Ray tasks; the connection closes on exit if this opened it."""
    ray = import_ray()
    initialised, cpus, where = connect(ray, jobs, address)
    results = _results(ray, list(chunks), cpus)
    try:
        yield _RayChunks(results, cpus, where)
    finally:
        results.close()  # cancels the tasks still running
        if initialised:
            ray.shutdown()


def _results(
    ray: Any, chunks: list[Chunk], jobs: int
) -> Generator[tuple[int, Any, bool], None, None]:
    """At most ``2 * jobs`` tasks in flight; ``(index, stats, ran compiled)`` as each
    finishes."""
    remote = ray.remote(max_retries=RETRIES, retry_exceptions=False)(run_chunk_on_node)
    queue = list(reversed(chunks))
    in_flight: list[Any] = []
    try:
        limit = 2 * max(jobs, 1)
        while queue or in_flight:
            while queue and len(in_flight) < limit:
                in_flight.append(remote.remote(pickle.dumps(queue.pop())))
            done, in_flight = ray.wait(in_flight, num_returns=1)
            for ref in done:
                result: tuple[int, Any, bool] = ray.get(ref)
                yield result
    finally:
        for ref in in_flight:
            ray.cancel(ref, force=True)
