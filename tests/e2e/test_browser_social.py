"""A private table in real browsers: the lobby does not list it, its invitation link
seats a friend, a stranger without it can neither sit nor watch; the host makes a
spectator link; two people and a spectator chat (each in his own channel, a player
reading the spectators' too), one mutes another; a game of one round, then a rematch
both accept. Every game frame each page got is checked as in the other browser tests,
and no chat frame names a card or reaches a spectator from the players."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser

from conftest import cards_in, check_rummoli_frames
from e2e.conftest import LiveServer
from e2e.pages import Browsing, create_in_lobby, get_json, whole_game, whole_game_pages
from e2e.rummoli_truth import expanded, shown_reference
from e2e.test_browser_game import MY_TURN

Frame = dict[str, Any]


def _post(url: str, body: dict[str, Any]) -> int:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10):  # loopback only
            return 200
    except urllib.error.HTTPError as error:
        return error.code


def _chat_texts(who: Browsing) -> list[str]:
    texts: list[str] = who.page.eval_on_selector_all(
        "[data-testid=chat] .chat-text", "nodes => nodes.map(n => n.textContent)"
    )
    return texts


def _wait_chat(who: Browsing, text: str) -> None:
    who.page.wait_for_function(
        """(text) => [...document.querySelectorAll('[data-testid=chat] .chat-text')]
            .some(n => n.textContent === text)""",
        arg=text,
    )


def _say(who: Browsing, text: str) -> None:
    who.page.get_by_test_id("chat-input").fill(text)
    who.page.get_by_test_id("chat-send").click()
    _wait_chat(who, text)


def _game_frames(frames: list[Frame]) -> list[Frame]:
    return [f for f in frames if f["type"] not in ("chat", "muted", "listening", "rematch")]


def test_a_private_table_its_chat_and_a_rematch(browser: Browser, live_server: LiveServer) -> None:
    base = live_server.url
    with whole_game(browser, base, ["Ann", "Bea", "Zed"]) as game:
        ann, bea, zed = game.pages
        page = ann.page
        page.goto(base + "/")
        assert not page.get_by_test_id("public").is_checked()  # private by default
        fields: dict[str, str | bool] = {
            "create-name": "Ann",
            "seat-count": "3",
            "seat-kind-1": "human",
            "seat-kind-2": "random",
            "rounds": "1",
        }
        table_id = create_in_lobby(page, fields)
        ann.wait_table(status="waiting", seat="0")
        invite = page.get_by_test_id("invite-link").input_value()
        secret = invite.split("#invite=", 1)[1]
        assert len(secret) >= 32

        # A stranger: the lobby does not list it; the bare link neither seats nor shows it.
        zed.page.goto(base + "/")
        zed.page.get_by_test_id("create-submit").wait_for()
        zed.page.wait_for_timeout(300)  # the list of tables has loaded by now
        assert zed.page.get_by_test_id(f"table-row-{table_id}").count() == 0
        assert get_json(f"{base}/api/tables")["tables"] == []
        zed.page.goto(f"{base}/table/{table_id}")
        zed.wait_table(status="private")
        assert zed.page.get_by_test_id("join-form").count() == 0
        assert _post(f"{base}/api/tables/{table_id}/join", {"name": "Zed"}) == 403

        # The host makes a spectator link: with it Zed watches (and still cannot sit).
        page.get_by_test_id("host-watch-link").click()
        watch = page.get_by_test_id("watch-link")
        watch.wait_for()
        zed.page.goto(watch.input_value())
        zed.wait_table(status="waiting", seat="")
        assert zed.page.get_by_test_id("join-form").count() == 0
        assert secret not in zed.page.content()

        # Bea comes through the invitation and sits: the game starts.
        bea.page.goto(invite)
        bea.page.get_by_test_id("join-name").fill("Bea")
        bea.page.get_by_test_id("join-submit").click()
        for who, seat in ((ann, "0"), (bea, "1"), (zed, "")):
            who.wait_table(status="playing", seat=seat)

        # The chat: players among themselves, the spectator among spectators.
        _say(ann, "hello Bea")
        _wait_chat(bea, "hello Bea")
        _say(zed, "go Bea")
        bea.page.get_by_test_id("listen-spectators").check()
        bea.page.wait_for_timeout(200)
        _say(zed, "well done")
        _wait_chat(bea, "well done")
        assert "go Bea" not in _chat_texts(bea)  # said before she turned it on
        assert "hello Bea" not in _chat_texts(zed)  # the players' chat stays theirs
        bea.page.get_by_test_id("react-clap").click()
        _wait_chat(ann, "👏")
        # Bea mutes Zed, for herself only.
        bea.page.locator("[data-testid^=chat-mute-s]").first.click()
        bea.page.get_by_test_id("muted-list").wait_for()
        _say(zed, "can you hear me")
        bea.page.wait_for_timeout(300)
        assert "can you hear me" not in _chat_texts(bea)
        # The mute follows Zed, not his connection: he reloads, and is still muted.
        zed.page.reload()
        zed.wait_table(status="playing", seat="")
        _say(zed, "and now")
        bea.page.wait_for_timeout(300)
        assert "and now" not in _chat_texts(bea)

        # One round: each person clicks his first choice (a forced pass is one too).
        people = {"0": ann, "1": bea}
        acted = -1
        while (data := game.next_decision(acted)) is not None:
            step, seat = int(data["step"]), data["toMove"]
            who = people[seat]
            who.page.wait_for_function(MY_TURN, arg=step)
            who.page.get_by_test_id("actions").locator("button").first.click()
            acted = step
        for who in (ann, bea, zed):
            who.wait_table(phase="over", status="finished")
        assert zed.page.get_by_test_id("rematch-button").count() == 0  # for players only

        # The game was private, and stays so: a stranger gets nothing of it; its host's
        # and players' pages send their secrets (the record's link, the history, the
        # replay); the spectator, who is none of its people, does not find it listed.
        try:
            get_json(f"{base}/api/games/{table_id}/record")
            raise AssertionError("a private game's record answered a stranger")
        except urllib.error.HTTPError as error:
            assert error.code == 403
        with ann.page.expect_download() as download:
            ann.page.get_by_test_id("record-link").click()
        record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
        assert record["setup"]["players"][:2] == ["Ann", "Bea"]
        states, events = shown_reference(record)
        refused = [f for f in zed.sockets[0] if f["type"] == "error"]
        assert [f["code"] for f in refused] == ["private"]  # the bare link, refused
        for who in (ann, bea, zed):
            for frames in who.sockets:
                states_seen = [f for f in frames if f["type"] == "state"]
                if not states_seen:
                    continue
                seen_as = states_seen[0]["seat"]
                assert not [f for f in frames if f["type"] == "error"], who.name
                check_rummoli_frames(expanded(_game_frames(frames)), seen_as, states, events)
                chat = [f for f in frames if f["type"] == "chat"]
                assert not cards_in(chat)
                if seen_as is None:
                    assert {f["channel"] for f in chat} <= {"spectators"}

        for who, listed in ((ann, 1), (zed, 0)):
            shown = who.page.context.new_page()
            shown.goto(f"{base}/history")
            shown.wait_for_function(
                "() => !document.querySelector('#games').textContent.includes('Loading')"
            )
            assert shown.get_by_test_id(f"history-row-{table_id}").count() == listed
            shown.close()
        bea.page.goto(f"{base}/replay/{table_id}?seat=1")
        bea.page.get_by_test_id("replay-chat").wait_for()
        bea.page.go_back()
        bea.wait_table(status="finished")

        # The rematch: Ann asks, Bea accepts; both end up at the new table, playing.
        ann.page.get_by_test_id("rematch-button").click()
        ann.page.wait_for_url("**/table/*")
        ann.page.wait_for_function("(old) => !location.pathname.endsWith(old)", arg=table_id)
        new_id = ann.page.url.rsplit("/", 1)[1]
        ann.wait_table(status="waiting", seat="0")
        bea.page.get_by_test_id("rematch-status").wait_for()
        bea.page.get_by_test_id("rematch-button").click()
        bea.page.wait_for_function("(id) => location.pathname.endsWith(id)", arg=new_id)
        for who, seat in ((ann, "0"), (bea, "1")):
            who.wait_table(status="playing", seat=seat)
        assert new_id != table_id
    print(f"\nprivate table, chat and rematch in the browser: {game.seconds():.1f} s")


def test_the_host_removes_a_person_who_cannot_come_back(
    browser: Browser, live_server: LiveServer
) -> None:
    """Before the start the host removes Bea: her page says so and stops reconnecting;
    a reload (the same browser) neither seats her nor lets her watch with the
    invitation, and she cannot sit again under her name from another browser."""
    base = live_server.url
    with whole_game_pages(browser, ["Ann", "Bea", "Other"]) as (ann, bea, other):
        page = ann.page
        page.goto(base + "/")
        two_people: dict[str, str | bool] = {
            "create-name": "Ann",
            "seat-count": "3",
            "seat-kind-1": "human",
            "seat-kind-2": "human",
        }
        create_in_lobby(page, two_people)
        ann.wait_table(status="waiting", seat="0")
        invite = page.get_by_test_id("invite-link").input_value()
        bea.page.goto(invite)
        bea.page.get_by_test_id("join-name").fill("Bea")
        bea.page.get_by_test_id("join-submit").click()
        bea.wait_table(status="waiting", seat="1")
        page.get_by_test_id("host-remove-1").click()
        bea.wait_table(status="removed")
        sockets = len(bea.sockets)
        bea.page.wait_for_timeout(1500)
        assert len(bea.sockets) == sockets  # no reconnecting
        bea.page.reload()
        bea.wait_table(status="removed")
        assert bea.page.get_by_test_id("join-form").count() == 0
        # From another browser, with the invitation: not under her name, but anyone
        # else may take the seat.
        other.page.goto(invite)
        other.page.get_by_test_id("join-name").fill("Bea")
        other.page.get_by_test_id("join-submit").click()
        other.page.wait_for_function(
            "() => (document.querySelector('[data-testid=join-error]') || {}).textContent"
        )
        assert "removed" in other.page.get_by_test_id("join-error").text_content()
        assert other.data()["seat"] == ""
        other.page.get_by_test_id("join-name").fill("Cy")
        other.page.get_by_test_id("join-submit").click()
        other.wait_table(seat="1")
