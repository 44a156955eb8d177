"""Names at a table (issue 12, finding 9; issue 22): normalised (NFKC), never a
look-alike of a name already there (Unicode's confusables, TR39), no invisible
character, never a computer player's."""

from __future__ import annotations

import json
import unicodedata
from collections import defaultdict
from functools import cache
from importlib import resources
from pathlib import Path

import pytest
from webtools import INVITES, connect, create_table, join, server

from rummoli.web.names import BadName, check_name, skeleton

LOOK_ALIKES = [
    "\u0410nn",  # Cyrillic capital A, then Latin "nn"
    "\u0410nn\u0430",  # Cyrillic A and a, Latin "nn": mixed, and a look-alike of "Anna"
    "\uff21\uff4e\uff4e",  # fullwidth
    "\U0001d400\U0001d427\U0001d427",  # mathematical bold
    "A\u0301nn",  # a combining acute accent
    "ANN",
    " ann ",
    "Ann\u200b",  # a zero-width space (a format character: refused anyway)
    # The issue's own: each drew as "Ann" (the first three exactly, in Chromium).
    "Ann\u034f",  # combining grapheme joiner
    "Ann\u2800",  # braille blank
    "\ua4eenn",  # Lisu A
    "\u15c5nn",  # Canadian syllabics A
    "Ann\u3164",  # Hangul filler
    "A\u3164nn",
    "Ann\u115f",  # Hangul choseong filler
]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_look_alikes_of_a_name_at_the_table_are_refused(name: str) -> None:
    with pytest.raises(BadName):
        check_name(name, ["Ann", "Anna"])


def test_names_are_stored_in_nfkc_and_real_names_of_any_script_are_welcome() -> None:
    assert check_name("\uff21\uff4e\uff4e", []) == "Ann"
    assert check_name("\U0001d400\U0001d427\U0001d427", ["Bob"]) == "Ann"
    for name in ("\u0410\u043d\u043d\u0430", "\u0396\u03c9\u03ae", "\u674e\u534e", "Zo\u00eb"):
        assert check_name(name, ["Ann", "Bob"]) == name
    assert skeleton("Zoe\u0308") == skeleton("Zo\u00eb") == "zoe"


#: Real names of many scripts, each accepted beside the others.
REAL_NAMES = [
    "Zo\u00e9",
    "\u0414\u0438\u043c\u0430",  # Дима
    "\u674e\u96f7",  # 李雷
    "Nguy\u1ec5n",
    "O'Brien",
    "Anne-Marie",
    "\u0410\u043d\u043d\u0430",  # Анна
    "\u0396\u03c9\u03ae",  # Ζωή
    "\u5c71\u7530 \u592a\u90ce",  # 山田 太郎
    "\u3084\u307e\u3060",  # やまだ
    "Kim \ubbfc\uc218",  # Kim 민수 (Latin and Hangul)
    "\u092a\u094d\u0930\u093f\u092f\u093e",  # प्रिया
    "\u0645\u062d\u0645\u062f",  # محمد
    "\u05d9\u05d5\u05e1\u05d9",  # יוסי
    "\u0e2a\u0e21\u0e0a\u0e32\u0e22",  # สมชาย
    "Jos\u00e9 Mar\u00eda",
    "\u0141ukasz",
    "S\u00f8ren",
]


def test_real_names_of_many_scripts_are_accepted() -> None:
    for i, name in enumerate(REAL_NAMES):
        others = [*REAL_NAMES[:i], "Ann", "Bob"]
        assert check_name(name, others) == unicodedata.normalize("NFKC", name)


@cache
def _look_alike_groups() -> dict[str, set[str]]:
    """Each character's look-alikes, read straight from the package's data (the pairs of
    Unicode's confusables.txt): the test's own oracle, apart from names.py's."""
    path = resources.files("confusable_homoglyphs") / "confusables.json"
    links: defaultdict[str, set[str]] = defaultdict(set)
    for source, entries in json.loads(path.read_text(encoding="utf-8")).items():
        for entry in entries:
            links[source].add(entry["c"])
            links[entry["c"]].add(source)
    groups: dict[str, set[str]] = {}
    for start in list(links):
        if len(start) != 1 or start in groups:
            continue
        seen, todo = {start}, [start]
        while todo:
            for other in links[todo.pop()]:
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        group = {c for c in seen if len(c) == 1}
        for c in group:
            groups[c] = group
    return groups


#: Invisible characters people slip into a name (Hangul and CJK fillers, a braille
#: blank, a grapheme joiner, variation selectors, bidi controls, zero-width ones).
INVISIBLE = [
    "\u3164", "\uffa0", "\u115f", "\u1160", "\u2800", "\u034f", "\ufe0f", "\ufe00",
    "\U000e0100", "\u202e", "\u2066", "\u200b", "\u200d", "\u2060", "\u00ad", "\u180e",
]  # fmt: skip
SAMPLE = ["Ann", "Paul", "Olga", "Emil", "\u0414\u0438\u043c\u0430", "\u0396\u03c9\u03ae",
          "\u0421\u0430\u0448\u0430", "\u674e\u96f7", "Zo\u00e9", "Kim"]  # fmt: skip


def _variants(name: str) -> set[str]:
    """Look-alikes of ``name``: each letter by each of its confusables, an invisible
    character at each place, a stack of marks, other cases and widths."""
    groups = _look_alike_groups()
    out = set()
    for i, ch in enumerate(name):
        for other in groups.get(ch, set()) - {ch}:
            out.add(name[:i] + other + name[i + 1 :])
        for blank in INVISIBLE:
            out.add(name[:i] + blank + name[i:])
    for blank in INVISIBLE:
        out.add(name + blank)
    out |= {name.upper(), name.lower(), name + "\u0301\u0302\u0303", f" {name} "}
    out.add("".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in name))
    return out - {name}


@pytest.mark.parametrize("name", SAMPLE)
def test_the_confusables_of_a_name_are_refused_beside_it(name: str) -> None:
    variants = _variants(name)
    assert len(variants) > 20
    accepted = []
    for variant in sorted(variants):
        try:
            check_name(variant, [name])
        except BadName:
            continue
        accepted.append(variant)
    assert accepted == []
    check_name(name, ["Bob"])  # the original itself is fine elsewhere


@pytest.mark.parametrize(
    "name",
    [
        "Bot 2",
        "bot2",
        "BOT 3",
        "Bot",
        "B\u03bft 1",
        "\uff22\uff4f\uff54 4",
        "widow",
        "B0t 1",
        "Computer 10",
        "Bot\u31642",
        "\u15b7ot 2",
    ],
)
def test_the_computer_players_names_are_reserved(name: str) -> None:
    with pytest.raises(BadName):
        check_name(name, [])


def test_mixed_scripts_and_stacked_marks_are_refused() -> None:
    with pytest.raises(BadName, match="mix"):
        check_name("P\u0430ul", [])  # a Cyrillic a inside a Latin name
    with pytest.raises(BadName, match="combining"):
        check_name("Zo\u0301\u0302\u0303\u0304e", [])  # zalgo
    with pytest.raises(BadName, match="mix"):
        check_name("\ua4eenn", [])  # Lisu and Latin
    with pytest.raises(BadName, match="sit on a letter"):
        check_name("M\u02dba", [])  # a spacing ogonek is a space and a mark in NFKC


def test_the_api_refuses_them_at_the_same_table(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human", "human"])
        join(client, table, "Ann")
        for name in ("\u0410nn", "\uff21\uff4e\uff4e", "Bot 3"):
            answer = client.post(
                f"/api/tables/{table}/join", json={"name": name, "invite": INVITES[table]}
            )
            assert answer.status_code == 409, name
        bob = join(client, table, "\uff22\uff4f\uff42")
        assert bob["name"] == "Bob"


def test_a_spectators_chat_name_is_checked_against_seats_and_spectators(tmp_path: Path) -> None:
    """A spectator may not chat as a look-alike of a seated player, nor of another
    spectator: the name is refused (said to him), and he chats as "Spectator N"."""
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human", "random"])
        join(client, table, "Ann")
        with connect(client, table, name="Zed") as zed:
            zed.send({"type": "chat", "channel": "spectators", "text": "hi"})
            assert zed.until(lambda f: f["type"] == "chat")["name"] == "Zed"
            for look_alike in ("Ann\u3164", "\u0410nn", "Z\u0435d", "ZED"):
                with connect(client, table, name=look_alike) as other:
                    refused = [f for f in other.frames if f["type"] == "error"]
                    assert refused and refused[0]["code"] == "bad_name", look_alike
                    other.send({"type": "chat", "channel": "spectators", "text": "me"})
                    line = other.until(lambda f: f["type"] == "chat" and f["text"] == "me")
                    assert line["name"].startswith("Spectator "), look_alike
