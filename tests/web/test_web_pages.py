"""A wrong address gets a friendly page (the API keeps its JSON), and each game's rules
are served as HTML made from its own rules text, with raw HTML escaped."""

from __future__ import annotations

from pathlib import Path

from webtools import server


def test_an_unknown_page_is_a_friendly_404_and_the_api_keeps_json(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        page = client.get("/no/such/page")
        assert page.status_code == 404
        assert page.headers["content-type"].startswith("text/html")
        assert "There is no such page" in page.text and 'href="/"' in page.text
        api = client.get("/api/no-such-thing")
        assert api.status_code == 404 and api.json() == {"detail": "Not Found"}
        table = client.get("/api/tables/nosuchtable")
        assert table.status_code == 404 and "detail" in table.json()


def test_the_rules_of_each_game_as_html(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        assert "rules.js" in client.get("/rules").text
        rummoli = client.get("/api/rules/rummoli").json()
        assert rummoli["title"] == "Rummoli"
        assert "<h1>Rummoli</h1>" in rummoli["html"] and "<strong>stops</strong>" in rummoli["html"]
        rummy = client.get("/api/rules/rummy").json()
        assert "Going Rummy" in rummy["html"]
        assert client.get("/api/rules/chess").status_code == 404


def test_raw_html_in_a_rules_text_is_escaped() -> None:
    from rummoli.web.app import _RULES_MARKDOWN

    html = _RULES_MARKDOWN.render("# Title\n\n<script>alert(1)</script>\n")
    assert "<script>" not in html and "&lt;script&gt;" in html
