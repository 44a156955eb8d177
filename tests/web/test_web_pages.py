"""A wrong address gets a friendly page (the API keeps its JSON), and each game's rules
are served as a tree of plain elements made from its own rules text (no raw HTML)."""

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
        blocks = rummoli["blocks"]
        assert blocks[0] == ["h1", "Rummoli"]
        assert ["strong", "stops"] in str_tree(blocks)
        rummy = client.get("/api/rules/rummy").json()
        assert "Going Rummy" in str(rummy["blocks"])
        assert client.get("/api/rules/chess").status_code == 404


def str_tree(blocks: list[object]) -> list[object]:
    """Every element of a tree, flattened."""
    out: list[object] = []
    for node in blocks:
        if isinstance(node, list):
            out.append(node)
            out.extend(str_tree(node[1:]))
    return out


def test_raw_html_in_a_rules_text_never_becomes_an_element() -> None:
    from rummoli.web.rulestext import TAGS, rules_tree

    tree = rules_tree("# Title\n\n<script>alert(1)</script>\n\n- **a** and `b`\n")
    assert all(node[0] in TAGS for node in str_tree(tree))
    assert "script" not in [node[0] for node in str_tree(tree)]
    assert tree[0] == ["h1", "Title"]
    assert ["li", ["strong", "a"], " and ", ["code", "b"]] in str_tree(tree)
