"""A chat that cannot be flooded (issue 22): budgets per address and per table, not only
per connection; a bounded number of lines in memory and in storage; lines stored in the
actions' group commit; a filter that keeps joiners in words and emoji but refuses marks
stacked past a few and lines that show nothing."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import pytest
from webtools import Conn, connect, create_table, join, room, server

from rummoli.web.chat import MAX_CHAT_MARKS, ChatError, clean_text
from rummoli.web.limits import Limits

#: Budgets that let a test send as fast as it likes, but for the one it checks.
LAVISH = {
    "chat_burst": 1000,
    "chat_per_second": 100.0,
    "chat_address_burst": 1000,
    "chat_address_per_second": 100.0,
    "chat_table_burst": 1000,
    "chat_table_per_second": 100.0,
    "refused_burst": 1000,
}


def _spectators(stack: ExitStack, client: object, table: str, count: int) -> list[Conn]:
    return [stack.enter_context(connect(client, table)) for _ in range(count)]  # type: ignore[arg-type]


def _said(conns: list[Conn]) -> tuple[int, int]:
    """Of the lines ``conns`` each said: how many were delivered (back to their sender),
    how many refused."""
    delivered = refused = 0
    for conn in conns:
        mine = f"hello {id(conn)}"
        answer = conn.until(
            lambda f, mine=mine: f["type"] == "error" or (f["type"] == "chat" and f["text"] == mine)
        )
        delivered += answer["type"] == "chat"
        refused += answer["type"] == "error" and answer["code"] == "rate_limited"
    return delivered, refused


@pytest.mark.parametrize(
    "bound",
    [
        {"chat_address_burst": 10, "chat_address_per_second": 0.1},
        {"chat_table_burst": 10, "chat_table_per_second": 0.1},
    ],
)
def test_forty_connections_say_at_most_the_address_or_table_budget(
    tmp_path: Path, bound: dict[str, float]
) -> None:
    """40 connections of one address (the issue's: 200 lines in 2 s) each say a line at
    once: each has its own budget left, but the address's (or the table's) lets 10
    through."""
    limits = Limits(**{**LAVISH, **bound})  # type: ignore[arg-type]
    with server(tmp_path / "t.db", limits=limits) as client:
        table = create_table(client, ["human", "human"])
        with ExitStack() as stack:
            conns = _spectators(stack, client, table, 40)
            for conn in conns:
                conn.send({"type": "chat", "channel": "spectators", "text": f"hello {id(conn)}"})
            delivered, refused = _said(conns)
        assert delivered == 10 and refused == 30


def test_a_table_keeps_and_stores_a_bounded_chat_in_the_group_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    limits = Limits(**{**LAVISH, "chat_kept": 10, "chat_stored": 15})  # type: ignore[arg-type]
    with server(tmp_path / "t.db", limits=limits) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]

        def no_commit_of_its_own(*_: object) -> None:
            raise AssertionError("a chat line is stored in the group commit")

        monkeypatch.setattr(hub.storage, "append_chat", no_commit_of_its_own)
        table = create_table(client, ["human", "human"])
        ann = join(client, table, "Ann")
        with connect(client, table, ann["token"]) as a:
            for n in range(16):
                a.send({"type": "chat", "text": f"line {n}"})
            frames = [a.until(lambda f: f["type"] in ("chat", "error")) for _ in range(16)]
        said = [f["text"] for f in frames if f["type"] == "chat"]
        refused = [f["code"] for f in frames if f["type"] == "error"]
        assert said == [f"line {n}" for n in range(15)] and refused == ["chat_full"]
        the_room = room(client, table)
        assert [line.text for line in the_room.chat.lines] == said[-10:]
        assert [line.text for line in hub.storage.load_chat(table)] == said
    # After a restart the table keeps its latest lines and still counts what it stored.
    with (
        server(tmp_path / "t.db", limits=limits) as client,
        connect(client, table, ann["token"]) as a,
    ):
        assert [c["text"] for c in a.frames[-1]["chat"]] == said[-10:]
        a.send({"type": "chat", "text": "one more"})
        assert a.until(lambda f: f["type"] == "error")["code"] == "chat_full"


JOINED = [
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family: joiners inside an emoji
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian: a non-joiner in a word
    "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",  # England
    "\u2764\ufe0f",  # a red heart, its variation selector
    "Vi\u1ec7t Nam",
    "\u05e9\u05b8\u05c1\u05dc\u05d5\u05b9\u05dd",  # pointed Hebrew
    "x" + "\u0301" * MAX_CHAT_MARKS,
]
REFUSED = [
    "abc\u200d",  # a joiner at the end of a line
    "\u200d abc",
    "a\u200d\u200db",
    "x" + "\u0301" * (MAX_CHAT_MARKS + 1),  # stacked marks past the bound
    "Z" + "\u0336" * 299,  # the issue's: 299 marks over the lines around
    "\u3164\u3164",  # nothing visible: Hangul fillers
    "\u2800",  # a braille blank
    "\u0301\u0302",  # only marks
    "\u200b",
    "abc\u202edef",  # a bidi override
    "\U000e0067x",  # a tag outside an emoji
]


@pytest.mark.parametrize("text", JOINED)
def test_joiners_in_words_and_emoji_are_kept(text: str) -> None:
    import unicodedata

    assert clean_text(text) == unicodedata.normalize("NFC", text)


@pytest.mark.parametrize("text", REFUSED)
def test_lines_that_draw_outside_themselves_or_nothing_are_refused(text: str) -> None:
    with pytest.raises(ChatError):
        clean_text(text)


def test_the_server_says_why_a_line_is_refused(tmp_path: Path) -> None:
    with server(tmp_path / "t.db", limits=Limits(**LAVISH)) as client:  # type: ignore[arg-type]
        table = create_table(client, ["human", "human"])
        ann = join(client, table, "Ann")
        with connect(client, table, ann["token"]) as a:
            for text in (REFUSED[3], REFUSED[5], JOINED[0]):
                a.send({"type": "chat", "text": text})
            frames = [a.until(lambda f: f["type"] in ("chat", "error")) for _ in range(3)]
        assert [f["type"] for f in frames] == ["error", "error", "chat"]
        assert "marks" in frames[0]["message"] and "show" in frames[1]["message"]
