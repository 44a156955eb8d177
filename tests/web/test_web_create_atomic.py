"""Creating a table and sitting down is one step: a refused name creates nothing (the
lobby used to create the table, then fail to seat an empty name, leaving a ghost)."""

from __future__ import annotations

from pathlib import Path

from webtools import server


def test_a_refused_name_leaves_no_table(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        body = {"seats": ["human", "basic"], "public": True}
        for bad in ("", "   ", "Bot 2", "x" * 200):
            answer = client.post("/api/tables", json={**body, "name": bad})
            assert answer.status_code == 400, (bad, answer.text)
        assert hub.rooms == {}
        assert client.get("/api/tables").json()["tables"] == []
        created = client.post("/api/tables", json={**body, "name": " Ann "})
        assert created.status_code == 201, created.text
        seat = created.json()["seat"]
        assert seat["seat"] == 0 and seat["name"] == "Ann" and len(seat["token"]) > 20
        listed = client.get("/api/tables").json()["tables"]
        assert listed[0]["seats"][0]["name"] == "Ann"
