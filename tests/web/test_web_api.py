"""The HTTP API and the pages: creating tables, joining, secrets kept, names as text."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from dataclasses import fields
from pathlib import Path

import pytest
from webtools import connect, create_table, join, offered, people, refused_table, room, server

from rummoli.bots import LEVELS
from rummoli.games.rummoli import PRESETS, Rules
from rummoli.web.app import STATIC

EVIL = "<img src=x onerror=alert(1)>"


def test_options_list_every_house_rule_with_help_presets_and_levels(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        options = client.get("/api/options").json()
    names = [r["name"] for r in options["rules"]]
    assert names == [f.name for f in fields(Rules) if f.name != "rules_version"]
    default = Rules()
    for rule in options["rules"]:
        assert rule["help"], rule["name"]
        assert rule["default"] == getattr(default, rule["name"])
    assert options["presets"] == PRESETS
    assert options["levels"] == list(LEVELS)
    assert options["seats"] == {"min": 2, "max": 8}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"seats": ["human"]}, "2 to 8"),
        ({"seats": ["human"] * 9}, "2 to 8"),
        ({"seats": ["random", "random"]}, "at least one seat for a person"),
        ({"seats": ["human", "genius"]}, "computer level"),
        ({"seats": ["human", "human"], "rules": {"widow": "maybe"}}, "widow"),
        (
            {"seats": ["human", "human"], "rules": {"jokers": True}},
            "Rummoli house rule jokers; house rules",
        ),
        ({"seats": ["human", "human"], "rules": {"preset": "nope"}}, "unknown preset"),
        ({"seats": ["human", "human"], "timer": 30}, "unknown field timer"),
        ({"seats": ["human", "human"], "seed": 4, "bots": 1}, "unknown field bots, seed"),
        ({"seats": ["human", "human"], "turn_timer": -1}, "turn_timer"),
        ({"seats": ["human", "human"], "time_limit": "soon"}, "time_limit"),
        # Basic Rummy's table (its seats and house rules), and a game there is not.
        ({"game": "rummy", "seats": ["human"] * 5}, "2 to 4"),
        ({"game": "rummy", "seats": ["human", "genius"]}, "computer level"),
        (
            {"game": "rummy", "seats": ["human", "human"], "rules": {"rounds": 3}},
            "Basic Rummy house rule rounds",
        ),
        ({"game": "rummy", "seats": ["human", "human"], "rules": {"target": 0}}, "target"),
        ({"game": "rummy", "seats": ["human", "human"], "rules": [1]}, "rules must be"),
        ({"game": "poker", "seats": ["human", "human"]}, "game must be one of"),
    ],
)
def test_bad_table_settings_are_refused_with_a_reason(
    tmp_path: Path, body: dict, message: str
) -> None:
    with server(tmp_path / "t.db") as client:
        assert message in refused_table(client, body)


def test_create_with_a_preset_and_join(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(
            client,
            ["human", "human", "random"],
            rules={"preset": "rulebook_method_1", "rounds": 2, "starting_chips": 50},
            turn_timer=30,
            public=True,
        )
        info = client.get(f"/api/tables/{table}").json()
        assert info["status"] == "waiting"
        assert info["rules"]["poker"] == "showdown" and info["rules"]["rounds"] == 2
        assert info["seats"][2]["bot"] == "random" and info["seats"][2]["name"]
        listed = client.get("/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == [table]
        assert [s["free"] for s in listed[0]["seats"]] == [True, True, False]

        seat = join(client, table, EVIL)
        assert seat["seat"] == 0 and seat["name"] == EVIL
        assert len(seat["token"]) >= 22  # 128 bits, URL-safe
        for name, reason in [
            ("", "give a name"),
            ("   ", "give a name"),
            ("x" * 41, "at most"),
            ("tab\there", "control"),
            ("Widow", "widow"),
            (EVIL.upper(), "already"),
        ]:
            response = client.post(f"/api/tables/{table}/join", json={"name": name})
            assert response.status_code == 409, name
            assert reason in response.json()["detail"]
        assert (
            client.post(f"/api/tables/{table}/join", json={"name": "X", "seat": 2}).status_code
            == 409
        )
        assert (
            client.post(f"/api/tables/{table}/join", json={"name": "X", "seat": 9}).status_code
            == 400
        )
        join(client, table, "Bob")
        assert client.get(f"/api/tables/{table}").json()["status"] == "playing"
        late = client.post(f"/api/tables/{table}/join", json={"name": "Late"})
        assert late.status_code == 409 and "started" in late.json()["detail"]
        assert client.get("/api/tables/nope").status_code == 404
        assert client.post("/api/tables/nope/join", json={"name": "A"}).status_code == 404


def test_unfinished_games_leak_no_seed_and_have_no_record(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "random"])
        token = join(client, table, "Ann")["token"]
        seed = str(room(client, table).seed)
        texts = [
            client.get("/api/tables").text,
            client.get(f"/api/tables/{table}").text,
            client.get("/api/history").text,
        ]
        with connect(client, table, token) as seat, connect(client, table) as watcher:
            texts += [str(f) for f in seat.frames + watcher.frames]
        assert all(seed not in text and "seed" not in text for text in texts)
        record = client.get(f"/api/games/{table}/record", headers=people(table))
        assert record.status_code == 409 and "over" in record.json()["detail"]
        assert client.get(f"/api/games/{table}/replay", headers=people(table)).status_code == 409
        assert client.get("/api/games/nope/record").status_code == 404


def test_tokens_are_stored_hashed(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with server(path) as client:
        table = create_table(client, ["human", "human"])
        token = join(client, table, "Ann")["token"]
    with sqlite3.connect(path) as db:
        stored = db.execute("SELECT token_hash FROM seats WHERE game_id = ?", (table,)).fetchall()
    assert (hashlib.sha256(token.encode()).hexdigest(),) in stored
    for suffix in ("", "-wal"):
        file = Path(f"{path}{suffix}")
        if file.exists():
            assert token.encode() not in file.read_bytes()


def test_pages_are_served_with_a_strict_content_security_policy(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        for url in ("/", "/table/abc", "/history", "/replay/abc", "/player?name=x"):
            response = client.get(url)
            assert response.status_code == 200, url
            assert response.headers["content-type"].startswith("text/html")
            policy = response.headers["content-security-policy"]
            assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        for asset in ("/static/style.css", "/static/js/table.js", "/static/js/board.js"):
            assert client.get(asset).status_code == 200
        too_big = client.post(
            "/api/tables",
            content=b"{" + b" " * 70_000 + b"}",
            headers={"content-type": "application/json"},
        )
        assert too_big.status_code == 413


def test_page_code_writes_text_never_markup() -> None:
    """Names reach the page only as text: no module uses innerHTML or its cousins, and
    the one element builder turns strings into text nodes."""
    sources = {p.name: p.read_text(encoding="utf-8") for p in (STATIC / "js").glob("*.js")}
    assert {"dom.js", "table.js", "lobby.js", "board.js", "replay.js"} <= set(sources)
    markup = re.compile(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(")
    for name, source in sources.items():
        assert not markup.search(source), name
    dom = sources["dom.js"]
    assert "document.createTextNode(String(child))" in dom
    assert "textContent" in dom
    for page in STATIC.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert "<script>" not in html and not re.search(r"\son[a-z]+\s*=", html), page.name


@pytest.mark.parametrize("game", ["rummoli", "rummy"])
def test_options_group_every_house_rule_once_and_name_every_choice_and_preset(
    tmp_path: Path, game: str
) -> None:
    """The lobby's house rules for people: every rule in exactly one group, every word of
    a choice rule with a title and a line (a word the texts forgot would show its code),
    every printed rule set with a title."""
    with server(tmp_path / "t.db") as client:
        options = offered(client, game)
        french = offered(client, game, lang="fr")
    names = [r["name"] for r in options["rules"]]
    grouped = [name for group in options["groups"] for name in group["rules"]]
    assert sorted(grouped) == sorted(names) and len(grouped) == len(set(grouped))
    assert all(group["title"] for group in options["groups"])
    for rule in options["rules"]:
        if rule["kind"] in ("choice", "choice_or_int"):
            assert sorted(rule["values"]) == sorted(rule["choices"]), rule["name"]
            for word, label in rule["values"].items():
                assert label["title"] and label["title"] != word and label["help"], (rule, word)
    assert sorted(options["preset_labels"]) == sorted(options["presets"])
    for name, label in options["preset_labels"].items():
        assert label["title"] and label["title"] != name and label["help"]
    # In French, the same structure with the words translated.
    assert [g["rules"] for g in french["groups"]] == [g["rules"] for g in options["groups"]]
    for english, translated in zip(options["rules"], french["rules"], strict=True):
        for word in english.get("values", {}):
            assert translated["values"][word]["title"] != english["values"][word]["title"], word
