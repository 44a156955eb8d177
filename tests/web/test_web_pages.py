"""A wrong address gets a friendly page (the API keeps its JSON), and each game's rules
are served as a tree of plain elements made from its own rules text (no raw HTML)."""

from __future__ import annotations

from pathlib import Path

import pytest
from webtools import server

from rummoli.web import pages
from rummoli.web.pages import FRAME, STATIC


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


#: Each page's address and its own file.
PAGES = {
    "/": "index.html",
    "/table/abc": "table.html",
    "/history": "history.html",
    "/replay/abc": "replay.html",
    "/player": "player.html",
    "/rules": "rules.html",
    "/no/such/page": "404.html",
}


def test_every_page_is_the_shared_frame_around_its_own_part(tmp_path: Path) -> None:
    """Each page is served whole: the head every page shares (``static/page.html``) with
    the page's own title and module in it, the page's ``<main>`` in the body, and the
    validators a browser's cache keeps, the same each time for the same page."""
    shared_head = FRAME.read_text(encoding="utf-8").split("$head")[0]
    etags = set()
    with server(tmp_path / "t.db") as client:
        for url, name in PAGES.items():
            response = client.get(url)
            assert response.status_code == (404 if name == "404.html" else 200), url
            head, body = response.text.split("</head>")
            own = (STATIC / name).read_text(encoding="utf-8")
            own_head, own_main = own.split("<main", 1)
            assert head.startswith(shared_head), url
            assert head.count("<title") == 1 and head.endswith(own_head.rstrip(" ")), url
            assert body.startswith("\n<body>\n") and body.endswith("</body>\n</html>\n")
            assert "<main" + own_main in body and "$main" not in body, url
            assert "last-modified" in response.headers
            assert client.get(url).headers["etag"] == response.headers["etag"], url
            etags.add(response.headers["etag"])
    assert len(etags) == len(PAGES)


def test_a_page_file_without_its_main_is_refused_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page's file must say where its body begins: one that does not is named, rather
    than served as a page with no body."""
    (tmp_path / "page.html").write_text(FRAME.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "broken.html").write_text("  <title>Broken</title>\n  <p>text</p>\n")
    monkeypatch.setattr(pages, "STATIC", tmp_path)
    monkeypatch.setattr(pages, "FRAME", tmp_path / "page.html")
    with pytest.raises(ValueError, match=r"static/broken\.html has no line that opens its <main>"):
        pages.filled_page("broken.html")


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
