"""The Stops family at the web table: the lobby offers every family game, and a table
plays a round of each against computers, its frames carrying the board's layout as the
game's data declares it (shape, spaces, the spare hand's word), nothing hidden shown."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from webtools import connect, create_table, join, server

from rummoli.games import registry
from rummoli.games.stops.layout import SHAPES
from rummoli.web.games import games


def _family() -> list[str]:
    return [d.name for d in registry.descriptions() if d.name not in ("rummoli", "rummy")]


def test_every_family_game_is_offered_with_a_shape_the_page_draws() -> None:
    offered = games()
    for name in _family():
        plan = registry.describe(name).rules({}).layout()
        assert name in offered
        assert plan.board_shape in SHAPES


@pytest.mark.parametrize(
    ("game", "shape", "spare", "spaces"),
    [
        # Michigan's four boodle cards AH KC QD JS, its spare hand dead (pagat.com).
        ("michigan", "row", "spare hand", ["AH", "KC", "QD", "JS"]),
        # Tripoley's board: the pot, seven pay sections, the kitty (Cadaco).
        (
            "tripoley",
            "sections",
            "dead hand",
            ["pot", "AH", "KH", "QH", "JH", "10H", "KQH", "8910", "kitty"],
        ),
        # Newmarket's four horses and the kitty; a spare hand the dealer may take.
        ("newmarket", "row", "spare hand", ["AH", "KC", "QD", "JS", "kitty"]),
        # Pope Joan's round board of eight pools (Parlett), the Game its kitty.
        (
            "pope_joan",
            "round",
            "spare hand",
            ["pope", "matrimony", "intrigue", "ace", "king", "queen", "jack", "game"],
        ),
        # Poch's eight pools round the centre, its talon dead (pagat.com).
        (
            "poch",
            "round",
            "talon",
            ["poch", "ace", "king", "queen", "jack", "ten", "marriage", "sequence", "centre"],
        ),
        # Nain Jaune's four corners and the yellow dwarf in the centre, its talon dead
        # (regledujeu.fr).
        ("nain_jaune", "corners", "talon", ["10D", "JC", "QS", "KH", "7D"]),
    ],
)
def test_a_round_at_the_table_sends_the_board_as_its_layout_declares(
    tmp_path: Path, game: str, shape: str, spare: str, spaces: list[str]
) -> None:
    with server(tmp_path / "t.db") as client:
        assert game in client.get("/api/options").json()["games"]
        # Three rounds: in one, a seat may have no choice at all (Poch without a set to
        # open the Pochen, every card of the runs forced), and the loop must see one.
        table = create_table(client, ["human", "basic", "basic"], game=game, rules={"rounds": 3})
        seat = join(client, table, "Ann")
        rng = random.Random(5)
        frames = 0
        with connect(client, table, seat["token"]) as me:
            while True:
                view = me.wait_view(lambda v: v["to_move"] in (0, None))
                frames += 1
                layout = view["layout"]
                assert layout["shape"] == shape and layout["spare"] == spare
                assert [s["name"] for s in layout["spaces"]] == spaces
                assert list(view["board"]) == spaces  # every space drawn, in its order
                # This seat sees its own hand and the others' counts only.
                assert all("hand" not in p for p in view["players"])
                assert len(view.get("hand", [])) == view["players"][0]["cards"]
                if view["to_move"] is None:
                    break
                me.play(rng.choice([a["action"] for a in view["legal_actions"] if "action" in a]))
        assert frames >= 2 and view["phase"] == "over"
        chips = sum(p["chips"] for p in view["players"])
        assert chips == 3 * 100  # nothing made or lost
