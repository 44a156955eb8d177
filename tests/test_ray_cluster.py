"""``rummoli simulate --backend ray`` on a real two-node Ray cluster, started by ``ray start``.

The cluster is this machine only (``127.0.0.1``): a head with one CPU and a second node
with one CPU and a resource of its own, each a ``ray start --block`` in a process group
of its own, so that the fixture stops exactly what it started. It runs in a HOME of its
own holding a token (``ray get-auth-token --generate``), so token authentication is on
as Ray ships it. Every run must give exactly the local figures for the same seed:

- ``--address`` from a driver that was told nothing about tokens;
- ``ray job submit`` (the driver inside the job finds the cluster by ``RAY_ADDRESS``);
- a run whose worker on the second node is killed mid-chunk (Ray runs it again).

Ray start-up is slow (tens of seconds on a busy machine), so these few tests share one
cluster, and every wait is bounded.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from rummoli.games.registry import describe
from rummoli.sim.game import simulation_part
from rummoli.sim.runner import run
from rummoli.sim.spec import ROUNDS, SimSpec

pytest.importorskip("ray")
pytest.importorskip("ray.dashboard.modules.job.sdk")  # ray[default]: the job server

BIN = Path(sys.executable).parent
RAY = str(BIN / "ray")
SRC = Path(__file__).resolve().parents[1] / "src"
START_TIMEOUT = 120.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class Cluster:
    address: str
    dashboard: str
    env: dict[str, str]
    temp: Path
    head: subprocess.Popen[bytes]
    second: subprocess.Popen[bytes]


def _start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            [RAY, "start", *args, "--block", "--disable-usage-stats"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped as one below
        )


def _group_alive(process: subprocess.Popen[bytes]) -> bool:
    """Whether any process of ``process``'s group is left (its leader reaped first)."""
    process.poll()
    try:
        os.killpg(process.pid, 0)
    except ProcessLookupError:
        return False
    return True


def _stop(*processes: subprocess.Popen[bytes]) -> None:
    """Stop each process's group (raylet, workers and all), the groups at once: a TERM,
    and a KILL for what is left after a short grace (some of a head's group outlive a
    TERM by more than 20 s; the cluster's files go with the test's folder anyway)."""
    for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 10.0)):
        alive = [p for p in processes if _group_alive(p)]
        for process in alive:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, sig)
        deadline = time.monotonic() + grace
        while any(_group_alive(p) for p in alive) and time.monotonic() < deadline:
            time.sleep(0.2)


def _wait(condition: object, what: str, log: Path, timeout: float = START_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.5)
    raise AssertionError(f"{what} not ready after {timeout:.0f} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    home = tmp_path_factory.mktemp("home")
    # A short path: Ray's socket paths must stay under the 107 characters Unix allows.
    temp = Path(f"/tmp/rummoli-ray-{os.getpid()}")
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(HOME=str(home), PYTHONPATH=str(SRC))
    subprocess.run([RAY, "get-auth-token", "--generate"], env=env, check=True, capture_output=True)
    port, dashboard = free_port(), free_port()
    common = ["--node-ip-address=127.0.0.1", "--num-cpus=1", f"--temp-dir={temp}"]
    head_log = home / "head.log"
    head = _start(
        ["--head", f"--port={port}", "--dashboard-host=127.0.0.1",
         f"--dashboard-port={dashboard}", *common],
        env, head_log,
    )  # fmt: skip
    second: subprocess.Popen[bytes] | None = None
    try:
        _wait(lambda: listening(port) and listening(dashboard), "the head node", head_log)
        # Ray asks a node joining a cluster with an explicit address to say token mode.
        second_log = home / "second.log"
        second = _start(
            [f"--address=127.0.0.1:{port}", '--resources={"second": 1}', *common],
            {**env, "RAY_AUTH_MODE": "token"},
            second_log,
        )
        _wait(lambda: b"Ray runtime started" in second_log.read_bytes(), "node 2", second_log)
        yield Cluster(f"127.0.0.1:{port}", f"http://127.0.0.1:{dashboard}", env, temp,
                      head, second)  # fmt: skip
    finally:
        _stop(head, *([] if second is None else [second]))
        shutil.rmtree(temp, ignore_errors=True)  # the session's logs and sockets


def simulate_cli(
    env: dict[str, str], out: Path, *args: str, timeout: float = 240.0
) -> dict[str, object]:
    """``rummoli simulate`` in a fresh process; its JSON file."""
    subprocess.run(
        [sys.executable, "-c", "from rummoli.cli import main; main()", "simulate",
         *args, "--json", str(out)],
        env=env, check=True, capture_output=True, timeout=timeout,
    )  # fmt: skip
    data: dict[str, object] = json.loads(out.read_text())
    return data


ARGS = ("--rounds", "240", "--bots", "basic,strong,basic,random", "--chunk-size", "30")


def local_figures() -> object:
    spec = SimSpec(
        ("basic", "strong", "basic", "random"), describe("rummoli").rules({}), ROUNDS, 240,
        11, False, 30,
    )  # fmt: skip
    return json.loads(json.dumps(simulation_part("rummoli").summarize(run(spec), spec)))


def test_address_reaches_the_cluster_with_its_token_and_gives_the_local_figures(
    cluster: Cluster, tmp_path: Path
) -> None:
    data = simulate_cli(
        cluster.env, tmp_path / "a.json", *ARGS, "--seed", "11",
        "--backend", "ray", "--address", cluster.address,
    )  # fmt: skip
    ran = data.pop("run")
    assert data == local_figures()
    assert isinstance(ran, dict)
    # --jobs defaults to the cluster's CPUs, the work spread over both nodes.
    assert ran["jobs"] == 2 and ran["where"] == "Ray, 2 CPUs on 2 nodes"
    assert ran["chunks_compiled"] + ran["chunks_plain"] == 8
    # Compiled where the driver is (the shipped compiled modules load on both nodes).
    assert ran["chunks_compiled"] == (8 if ran["compiled"] else 0)
    # The package reached the workers through the runtime_env, not an install.
    shipped = list((cluster.temp / "session_latest" / "runtime_resources").rglob("rummoli"))
    assert any((path / "compiled.py").is_file() for path in shipped)


def test_a_job_submitted_with_ray_job_submit_finds_the_cluster_by_ray_address(
    cluster: Cluster, tmp_path: Path
) -> None:
    out = tmp_path / "job.json"
    result = subprocess.run(
        [RAY, "job", "submit", "--address", cluster.dashboard, "--",
         sys.executable, "-c", "from rummoli.cli import main; main()", "simulate",
         *ARGS, "--seed", "11", "--backend", "ray", "--json", str(out)],
        env={**cluster.env, "RAY_AUTH_MODE": "token"},  # Ray's CLI asks for the mode
        capture_output=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout.decode()[-3000:]
    assert b"succeeded" in result.stdout + result.stderr
    data = json.loads(out.read_text())
    ran = data.pop("run")
    assert data == local_figures()
    assert ran["jobs"] == 2 and ran["backend"] == "ray"


def _processes() -> Iterator[tuple[int, int, int, str]]:
    """(pid, parent pid, process group, first word of the command line) of each process."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        yield int(entry), int(fields[1]), int(fields[2]), command.decode(errors="replace")


def _task_on_second_node(cluster: Cluster) -> int | None:
    """A worker of the second node running a chunk now (its raylet is in that node's
    process group; a worker is the raylet's child, named after the task it runs)."""
    processes = list(_processes())
    raylets = {
        pid for pid, _, group, command in processes
        if group == cluster.second.pid and command.endswith("/raylet")
    }  # fmt: skip
    for pid, parent, _, command in processes:
        if parent in raylets and command.startswith("ray::run_chunk_on_node"):
            return pid
    return None


def test_a_worker_killed_mid_chunk_is_retried_and_the_figures_do_not_change(
    cluster: Cluster, tmp_path: Path
) -> None:
    out = tmp_path / "killed.json"
    driver = subprocess.Popen(
        [sys.executable, "-c", "from rummoli.cli import main; main()", "simulate", *ARGS,
         "--seed", "11", "--backend", "ray", "--address", cluster.address,
         "--json", str(out)],
        env=cluster.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    killed = None
    try:
        deadline = time.monotonic() + 120
        while killed is None and driver.poll() is None and time.monotonic() < deadline:
            victim = _task_on_second_node(cluster)
            if victim is not None:
                time.sleep(0.2)  # well into its chunk
                try:
                    os.kill(victim, signal.SIGKILL)
                    killed = victim
                except ProcessLookupError:  # it finished first: wait for the next one
                    pass
            time.sleep(0.05)
        _, errors = driver.communicate(timeout=240)
    finally:
        if driver.poll() is None:
            driver.kill()
    assert killed is not None, "no chunk ran on the second node"
    assert driver.returncode == 0, errors.decode()[-3000:]
    data = json.loads(out.read_text())
    ran = data.pop("run")
    assert data == local_figures()
    assert data["complete"] and ran["chunks_compiled"] + ran["chunks_plain"] == 8
