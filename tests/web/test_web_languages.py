"""The web side of the languages: the page's catalogues as JSON, the lobby's and the rules
page's texts in the asked language, and refusals that travel as a message id and values
(so each person reads them in his own language)."""

from __future__ import annotations

from pathlib import Path

from webtools import connect, create_table, server

from rummoli.web.app import page_language


def test_the_catalogue_of_a_language_holds_its_messages_and_plural_forms(
    tmp_path: Path,
) -> None:
    with server(tmp_path / "t.db") as client:
        ru = client.get("/api/catalogue/ru")
        assert ru.status_code == 200
        body = ru.json()
        assert body["language"] == "ru" and body["name"] == "русский"
        assert {"code": "fr", "name": "français"} in body["languages"]
        messages = body["messages"]
        # A plain message, one with a context, a plural one (three Russian forms).
        assert messages["Your turn"] == "Ваш ход"
        assert messages["phase\x04Widow auction"] == "Аукцион вдовы"
        assert messages["{n} chip"] == ["{n} фишка", "{n} фишки", "{n} фишек"]
        # Each CLDR category the browser's Intl.PluralRules answers names its form.
        assert body["plural_categories"] == {"one": 0, "few": 1, "many": 2, "other": 2}
        fr = client.get("/api/catalogue/fr").json()
        # French: 0 and 1 are "one"; exact millions "many" (Babel's CLDR).
        assert fr["plural_categories"] == {"one": 0, "many": 1, "other": 2}
        assert fr["messages"]["{n} chip"][0] == "{n} jeton"


def test_english_needs_no_messages_and_an_unknown_language_is_a_clear_404(
    tmp_path: Path,
) -> None:
    with server(tmp_path / "t.db") as client:
        en = client.get("/api/catalogue/en").json()
        # English is the message ids themselves: the page falls back to them.
        assert en["messages"] == {} and en["plural_categories"] == {"one": 0, "other": 1}
        unknown = client.get("/api/catalogue/de")
        assert unknown.status_code == 404
        assert unknown.json()["detail"] == "unknown language 'de'; languages are en, fr, ru"


def test_a_message_without_a_translation_is_left_out_so_the_page_shows_english(
    tmp_path: Path,
) -> None:
    from rummoli.web.catalogue import _entries

    class Fake:
        def __init__(self) -> None:
            self._catalog = {"": "h", "Pass": "Passer", "Fold": "", ("{n} chip", 0): "{n} jeton"}

    entries = _entries(Fake())  # type: ignore[arg-type]
    assert entries == {"Pass": "Passer", "{n} chip": ["{n} jeton"]}


def test_the_page_language_from_the_query_then_accept_language_then_english() -> None:
    assert page_language("fr-CA", "ru") == "fr"
    assert page_language(None, "de-DE,ru-RU;q=0.8,en;q=0.5") == "ru"
    assert page_language("de", None) == "en"
    assert page_language(None, None) == "en"


def test_the_lobby_and_the_rules_in_the_asked_language(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        fr = client.get("/api/options?lang=fr").json()
        rummy = fr["games"]["rummy"]
        assert fr["language"] == "fr"
        assert rummy["title"] == "Rami de base"
        assert fr["games"]["rummoli"]["level_labels"]["strong"]["title"] == "Expert"
        assert "veuve" in fr["games"]["rummoli"]["level_labels"]["basic"]["help"]
        bot = client.get("/api/bots/stats?game=rummy&level=strong&lang=ru").json()
        assert bot["label"] == "Эксперт" and bot["title"] == "Простой рамми"
        widow = next(r for r in fr["games"]["rummoli"]["rules"] if r["name"] == "widow")
        assert widow["title"] == "Veuve" and "veuve" in widow["help"]
        # The values stay the code words the rules take, in every language.
        assert widow["default"] in widow["choices"]
        ru = client.get("/api/options", headers={"Accept-Language": "ru-RU,ru;q=0.9"}).json()
        assert ru["games"]["rummoli"]["round_word"] == "раунд"
        rules = client.get("/api/rules/rummoli?lang=ru").json()
        assert rules["language"] == "ru" and rules["title"] == "Руммоли"
        english = client.get("/api/rules/rummoli").json()
        assert english["blocks"] != rules["blocks"]


def test_refusals_carry_a_message_id_and_values(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human", "basic"])
        taken = client.post(f"/api/tables/{table}/join", json={"name": "Ann", "seat": 0})
        assert taken.status_code == 403  # private: no invitation
        assert taken.json()["text"] == "this table is private: you need its invitation link"
        missing = client.get("/api/tables/nope")
        assert missing.json() == {
            "detail": "there is no such table",
            "text": "there is no such table",
            "params": {},
        }
        bad = client.post("/api/tables", json={"seats": ["human"], "name": "x" * 100})
        body = bad.json()
        assert body["text"] == "seats must be a list of {low} to {high} seats"
        assert body["params"] == {"low": 2, "high": 8}
        assert body["detail"] == "seats must be a list of 2 to 8 seats"


def test_a_websocket_refusal_is_worded_for_each_person(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human"])
        with connect(client, table) as watcher:
            watcher.send({"type": "action", "action": 0})
            error = watcher.until(lambda f: f["type"] == "error")
            assert error["code"] == "spectator"
            assert error["text"] == "spectators watch; take a seat to play"
            assert error["params"] == {}
            assert error["message"] == error["text"]


def test_a_refused_name_keeps_its_fields_for_the_page(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human"], public=True)
        assert client.post(f"/api/tables/{table}/join", json={"name": "Ann"}).status_code == 200
        twin = client.post(f"/api/tables/{table}/join", json={"name": "ANN"}).json()
        assert twin["text"] == "{name} is already at this table; please choose another"
        assert twin["params"] == {"name": "'ANN'"}
        fr = client.get("/api/catalogue/fr").json()["messages"]
        assert "{name}" in fr[twin["text"]]


def test_an_engine_refusal_of_the_settings_is_worded_in_the_page_s_language(
    tmp_path: Path,
) -> None:
    with server(tmp_path / "t.db") as client:
        request = {"seats": ["human", "basic"], "rules": {"widow": "bogus"}}
        fr = client.post("/api/tables?lang=fr", json=request).json()
        assert fr["detail"].startswith("house rule widow must be one of")
        assert fr["text"].startswith("la règle maison widow doit valoir")
        ru = client.post("/api/tables", json=request, headers={"Accept-Language": "ru"}).json()
        assert ru["detail"] == fr["detail"] and ru["text"] != fr["detail"]
        assert client.post("/api/tables", json=request).json()["text"] == fr["detail"]
