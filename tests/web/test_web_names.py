"""Names at a table (issue 12, finding 9): normalised (NFKC), never a look-alike of a
name already there, never a computer player's."""

from __future__ import annotations

from pathlib import Path

import pytest
from webtools import INVITES, create_table, join, server

from rummoli.web.names import BadName, check_name, skeleton

LOOK_ALIKES = [
    "\u0410nn",  # Cyrillic capital A, then Latin "nn"
    "\u0410\u043f\u043f",  # all Cyrillic
    "\uff21\uff4e\uff4e",  # fullwidth
    "\U0001d400\U0001d427\U0001d427",  # mathematical bold
    "A\u0301nn",  # a combining acute accent
    "ANN",
    " ann ",
    "Ann\u200b",  # a zero-width space (a format character: refused anyway)
]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_look_alikes_of_a_name_at_the_table_are_refused(name: str) -> None:
    with pytest.raises(BadName):
        check_name(name, ["Ann"])


def test_names_are_stored_in_nfkc_and_real_names_of_any_script_are_welcome() -> None:
    assert check_name("\uff21\uff4e\uff4e", []) == "Ann"
    assert check_name("\U0001d400\U0001d427\U0001d427", ["Bob"]) == "Ann"
    for name in ("\u0410\u043d\u043d\u0430", "\u0396\u03c9\u03ae", "\u674e\u534e", "Zo\u00eb"):
        assert check_name(name, ["Ann", "Bob"]) == name
    assert skeleton("Zoe\u0308") == skeleton("Zo\u00eb") == "zoe"


@pytest.mark.parametrize(
    "name", ["Bot 2", "bot2", "BOT 3", "Bot", "B\u03bft 1", "\uff22\uff4f\uff54 4", "widow"]
)
def test_the_computer_players_names_are_reserved(name: str) -> None:
    with pytest.raises(BadName):
        check_name(name, [])


def test_mixed_scripts_and_stacked_marks_are_refused() -> None:
    with pytest.raises(BadName, match="mix"):
        check_name("P\u0430ul", [])  # a Cyrillic a inside a Latin name
    with pytest.raises(BadName, match="combining"):
        check_name("Zo\u0301\u0302\u0303\u0304e", [])  # zalgo


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
