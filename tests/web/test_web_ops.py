"""The operator's endpoints, in process: health, readiness, the metrics as Prometheus
parses them, the drain's refusals, and the log's lines with their table."""

from __future__ import annotations

import gc
import io
import json
import logging
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine
from webtools import choose, connect, create_table, join, room, server

from rummoli.web import logs
from rummoli.web.metrics import WINDOW, ActionRate
from rummoli.web.migrate import head
from rummoli.web.ops import CONTENT_TYPE, RESTARTING, drain


@pytest.fixture(autouse=True)
def collector_restored() -> Iterator[None]:
    """``serve`` run in this process sets the collector as a server's: the test process's
    own settings come back after each test."""
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def scrape(client: TestClient) -> dict[str, float]:
    """``/metrics`` through Prometheus' own text parser: each sample by its name and
    labels (``name{label=value,...}``)."""
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"] == CONTENT_TYPE
    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return samples


def hub_of(client: TestClient) -> Any:
    return client.app.state.hub  # type: ignore[attr-defined]


def test_healthz_and_readyz_when_all_is_well(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        assert client.get("/healthz").json() == {"status": "ok", "draining": False}
        ready = client.get("/readyz")
        assert ready.status_code == 200
        assert ready.json() == {
            "ready": True,
            "draining": False,
            "database": "ok",
            "migrations": {"current": head(), "head": head()},
        }


def test_readyz_refuses_a_schema_behind_the_newest_migration(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with server(path) as client:
        with sqlite3.connect(path) as db:  # another server, older, has rolled it back
            db.execute("UPDATE alembic_version SET version_num = '0001'")
        ready = client.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["migrations"] == {"current": "0001", "head": head()}
        assert ready.json()["ready"] is False
        assert client.get("/healthz").status_code == 200  # alive all the same


def test_readyz_refuses_a_database_that_does_not_answer(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        storage = hub_of(client).storage
        good = storage.engine
        storage.engine = create_engine(f"sqlite:///{tmp_path / 'no' / 'such' / 'dir.db'}")
        try:
            ready = client.get("/readyz")
        finally:
            storage.engine.dispose()
            storage.engine = good
        assert ready.status_code == 503
        assert ready.json()["database"].startswith("OperationalError")
        assert client.get("/readyz").status_code == 200  # back once it answers


def _play_until_my_turn(conn: Any, rng: random.Random, decisions: int) -> None:
    for _ in range(decisions):
        conn.wait_view(lambda v: v["to_move"] == conn.seat and v.get("legal_actions"))
        conn.send({"type": "action", "action": choose(conn.view, rng), "step": conn.step})
        conn.until(lambda f: f["type"] in ("update", "error"))
    conn.wait_view(lambda v: v["to_move"] == conn.seat and v.get("legal_actions"))
    conn.sync()  # nothing moves now: the table waits for this seat


def test_metrics_count_what_the_tables_did(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A fixed deal: with a random one the game could end before Ann's seventh decision.
    monkeypatch.setattr("rummoli.web.hub.new_seed", lambda: 20261202)
    with server(tmp_path / "t.db") as client:
        before = scrape(client)
        assert before["rummoli_actions_total"] == 0
        assert before["rummoli_tables{status=playing}"] == 0
        table = create_table(client, ["human", "random", "random"], rules={"rounds": 5})
        token = join(client, table, "Ann")["token"]
        waiting = scrape(client)
        assert waiting["rummoli_tables{status=playing}"] == 1  # every seat is taken
        with connect(client, table, token) as ann, connect(client, table) as spectator:
            _play_until_my_turn(ann, random.Random(2), 6)
            stored = hub_of(client).storage.load_game(table).actions
            # Refusals, each with its reason: stale (the reader's), illegal (the owner's),
            # a spectator's move (the reader's).
            ann.send({"type": "action", "action": 0, "step": ann.step - 1})
            assert ann.until(lambda f: f["type"] == "error")["code"] == "stale"
            ann.send({"type": "action", "action": 10**9, "step": ann.step})
            assert ann.until(lambda f: f["type"] == "error")["code"] == "illegal"
            spectator.send({"type": "action", "action": 0, "step": spectator.step})
            assert spectator.until(lambda f: f["type"] == "error")["code"] == "spectator"
            ann.sync()
            spectator.sync()
            after = scrape(client)
            assert after["rummoli_connections{role=player}"] == 1
            assert after["rummoli_connections{role=spectator}"] == 1
        assert len(stored) > 6
        assert after["rummoli_actions_total"] == len(stored)
        assert after["rummoli_action_seconds_count"] == len(stored)
        assert 0 < after["rummoli_action_seconds_sum"] < 60
        assert 1 <= after["rummoli_db_commit_seconds_count"] <= len(stored)
        assert (
            after["rummoli_db_commit_seconds_bucket{le=+Inf}"]
            == (after["rummoli_db_commit_seconds_count"])
        )
        assert after["rummoli_tables{status=playing}"] == 1
        assert after["rummoli_seats{kind=person}"] == 1
        assert after["rummoli_seats{kind=computer}"] == 2
        assert after["rummoli_seats{kind=free}"] == 0
        for reason in ("stale", "illegal", "spectator"):
            assert after[f"rummoli_refused_messages_total{{reason={reason}}}"] == 1
        assert after["rummoli_draining"] == 0
        assert after["process_resident_memory_bytes"] > 0
        deadline = time.monotonic() + 10  # the server sees the close a moment later
        while scrape(client)["rummoli_connections{role=player}"] != 0:
            assert time.monotonic() < deadline, "a closed connection is still counted"
            time.sleep(0.02)


def test_actions_per_second_is_the_mean_of_the_last_whole_seconds() -> None:
    now = [100.2]
    rate = ActionRate(lambda: now[0])
    for _ in range(30):
        rate.add()
    now[0] = 101.5
    for _ in range(10):
        rate.add()
    now[0] = 102.1
    rate.add()  # the second under way is not counted yet
    assert rate.per_second() == 40 / WINDOW
    now[0] = 101.0 + WINDOW + 0.5  # second 100 has left the window
    assert rate.per_second() == 11 / WINDOW
    now[0] = 200.0
    assert rate.per_second() == 0.0


def test_while_draining_changes_are_refused_and_reads_served(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "random"], public=True)
        hub = hub_of(client)
        took = client.portal.call(drain, hub)  # type: ignore[union-attr]
        assert 0 <= took < 5
        owner = room(client, table).task
        assert owner is not None and owner.done()
        refused = client.post("/api/tables", json={"seats": ["human", "random"]})
        assert refused.status_code == 503
        assert refused.headers["retry-after"] == "5"
        assert refused.json()["text"] == RESTARTING
        joined = client.post(f"/api/tables/{table}/join", json={"name": "Ann"})
        assert joined.status_code == 503
        assert len(hub.rooms) == 1  # no table was made
        assert client.get("/api/tables").status_code == 200
        assert client.get("/healthz").json() == {"status": "ok", "draining": True}
        assert client.get("/readyz").status_code == 503
        with client.websocket_connect(f"/ws/{table}") as ws:
            frame = ws.receive_json()
            assert frame["code"] == "restarting" and frame["text"] == RESTARTING
            try:
                ws.receive_json()
                raise AssertionError("the connection stayed open")
            except Exception as closed:  # starlette's WebSocketDisconnect
                assert getattr(closed, "code", None) == 1012
        metrics = scrape(client)
        assert metrics["rummoli_draining"] == 1
        assert metrics["rummoli_refused_messages_total{reason=restarting}"] == 1


def test_the_drain_tells_every_connection_to_reconnect(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "random"])
        token = join(client, table, "Ann")["token"]
        with connect(client, table, token) as ann:
            ann.sync()
            client.portal.call(drain, hub_of(client))  # type: ignore[union-attr]
            frame = ann.until(lambda f: f["type"] == "error")
            assert frame["code"] == "restarting"
            ann.send({"type": "ping"})
            assert ann.until(lambda f: f["type"] == "pong")  # open until uvicorn closes it


def test_the_log_names_the_table_on_every_line_about_it() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(logs.TableFilter())
    handler.setFormatter(logs.JsonFormatter())
    logger = logging.getLogger("rummoli.test.logs")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        logger.info("no table here")
        token = logs.TABLE.set("T1")
        try:
            logger.info("a move at %s", "T1")
            logger.info("about another", extra={"table": "T2"})
            try:
                raise ValueError("boom")
            except ValueError:
                logger.exception("failed")
        finally:
            logs.TABLE.reset(token)
    finally:
        logger.removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(line["message"], line["table"]) for line in lines] == [
        ("no table here", None),
        ("a move at T1", "T1"),
        ("about another", "T2"),
        ("failed", "T1"),
    ]
    assert lines[0]["level"] == "INFO" and lines[0]["logger"] == "rummoli.test.logs"
    assert lines[0]["time"].endswith("+00:00")
    assert "ValueError: boom" in lines[3]["exception"]


def test_serve_refuses_an_unknown_log_format_or_an_unbounded_shutdown() -> None:
    from typer.testing import CliRunner

    from rummoli.cli import app

    runner = CliRunner()
    for args, named in (
        (["--log-format", "yaml"], "'yaml' is not one of 'text', 'json'"),
        (["--log-level", "loud"], "is not one of 'debug', 'info', 'warning', 'error'"),
        (["--shutdown-seconds", "0"], "should be greater than or equal to 1"),
        (["--shutdown-seconds", "301"], "should be less than or equal to 300"),
    ):
        refused = runner.invoke(app, ["serve", *args])
        assert refused.exit_code == 2
        assert named in " ".join(refused.output.replace("│", " ").split()), refused.output


def test_serve_sets_each_per_address_limit_within_its_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A load benchmark's clients all come from loopback: it lifts these limits for its
    # own server, so serve must pass each through to the server's Limits, and bound it.
    from typer.testing import CliRunner

    from rummoli import cli, cli_web
    from rummoli.web import limits as web_limits

    assert cli_web.MAX_PER_ADDRESS == web_limits.MAX_PER_ADDRESS
    given: list[web_limits.Limits] = []

    def create_app(url: str, **options: Any) -> str:
        given.append(options["limits"])
        return "app"

    monkeypatch.setattr("rummoli.web.app.create_app", create_app)
    monkeypatch.setattr("rummoli.web.ops.serve", lambda *args, **kwargs: None)
    monkeypatch.setattr("rummoli.web.storage.refuse_newer_schema", lambda url: None)
    runner = CliRunner()
    args = ["--connections-per-address", "7", "--connects-per-minute", "5"]
    served = runner.invoke(cli.app, ["serve", *args, "--tables-per-minute", "9"])
    assert served.exit_code == 0, served.output
    assert [
        (g.connections_per_address, g.connects_per_minute, g.tables_per_minute) for g in given
    ] == [(7, 5, 9)]
    for option in ("--connections-per-address", "--connects-per-minute", "--tables-per-minute"):
        for value in ("0", str(cli_web.MAX_PER_ADDRESS + 1)):
            refused = runner.invoke(cli.app, ["serve", option, value])
            assert refused.exit_code == 2, (option, value, refused.output)
    with pytest.raises(ValueError, match="connects_per_minute must be at most 1,000,000"):
        web_limits.Limits(connects_per_minute=cli_web.MAX_PER_ADDRESS + 1)


def test_serve_runs_its_collector_at_the_server_s_thresholds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Python's 700-object threshold made full collections of a busy server's heap, each
    # pausing every table (docs/performance.md, "The garbage collector"): serve sets the
    # thresholds, and freezes what it loaded, before it serves.
    from typer.testing import CliRunner

    from rummoli import cli
    from rummoli.web.ops import GC_THRESHOLDS

    seen: list[tuple[tuple[int, int, int], int]] = []
    monkeypatch.setattr("rummoli.web.app.create_app", lambda url, **options: "app")
    monkeypatch.setattr(
        "rummoli.web.ops.serve",
        lambda *args, **kwargs: seen.append((gc.get_threshold(), gc.get_freeze_count())),
    )
    monkeypatch.setattr("rummoli.web.storage.refuse_newer_schema", lambda url: None)
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    served = CliRunner().invoke(cli.app, ["serve"])
    assert served.exit_code == 0, served.output
    assert GC_THRESHOLDS[0] > 700
    [(thresholds, frozen)] = seen
    assert thresholds == GC_THRESHOLDS and frozen > 0


def test_serve_offers_websocket_compression_only_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Deflating every frame doubles an action's CPU (docs/web.md, "Compression"): off by
    # default, on with --ws-deflate.
    from typer.testing import CliRunner

    from rummoli import cli

    offered: list[bool] = []
    monkeypatch.setattr("rummoli.web.app.create_app", lambda url, **options: "app")
    monkeypatch.setattr(
        "rummoli.web.ops.serve",
        lambda *args, **kwargs: offered.append(kwargs["ws_per_message_deflate"]),
    )
    monkeypatch.setattr("rummoli.web.storage.refuse_newer_schema", lambda url: None)
    runner = CliRunner()
    for args in ([], ["--ws-deflate"], ["--no-ws-deflate"]):
        served = runner.invoke(cli.app, ["serve", *args])
        assert served.exit_code == 0, served.output
    assert offered == [False, True, False]
