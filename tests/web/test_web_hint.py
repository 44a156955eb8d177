"""The hint button's server side: the strongest computer player's suggestion for a
person's own decision, from that seat's view only, to that client alone, refused with a
clear code otherwise, and rate-limited; its reason sent as a code and fields the page
knows (``static/js/hint.js``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from webtools import Conn, connect, create_table, join, room, server

from conftest import cards_in, hidden_cards
from rummoli.bots import Decision, make_bot
from rummoli.i18n.sentences import HINTS
from rummoli.web.hints import CODES, HINT_BURST, code_of, structured
from rummoli.web.protocol import ProtocolError, parse_message
from rummoli.web.security import stream_seed

HINT_JS = Path(__file__).parents[2] / "src/rummoli/web/static/js/hint.js"


def _sample(message: str) -> str:
    """A sentence of this shape, each field filled with a plausible value."""
    values = {"why": "pair, 31% to win", "card": "5S", "hand": "pair", "percent": "31%"}
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), "3"), message)


def test_every_reason_shape_has_a_code_the_page_knows() -> None:
    block = HINT_JS.read_text().split("const REASONS = {", 1)[1].split("\n};", 1)[0]
    page = set(re.findall(r"^  (\w+): \(", block, re.M))
    assert set(CODES) == page
    assert len(set(CODES)) == len(HINTS)  # no two shapes share a code
    for shape in HINTS:
        parsed = structured(_sample(shape.message))
        assert parsed["code"] == code_of(shape.message), shape.message


def test_a_reason_is_structured_with_its_nested_reason() -> None:
    assert structured("raise to 30: pair, 31% to win") == {
        "code": "raise_to_amount_why",
        "fields": {
            "amount": 30,
            "why": {
                "code": "hand_percent_to_win",
                "fields": {"hand": "pair", "percent": "31%"},
                "text": "pair, 31% to win",
            },
        },
        "text": "raise to 30: pair, 31% to win",
    }
    # "check: {why}" would match first; the strong player's comparison is what it is.
    assert structured("check: +12.3 chips over the round (fold: -1.0)")["code"] == (
        "action_mean_chips_over_the_round_other_other_mean"
    )
    unknown = structured("a sentence no bot says")
    assert unknown == {"code": "", "fields": {}, "text": "a sentence no bot says"}


def test_the_message_is_checked() -> None:
    assert parse_message('{"type": "hint", "step": 4}').step == 4  # type: ignore[union-attr]
    with pytest.raises(ProtocolError, match="step must be a whole number"):
        parse_message('{"type": "hint", "step": -1}')


def _hints(conn: Conn) -> list[dict[str, Any]]:
    return [f for f in conn.sync() if f["type"] in ("hint", "error")]


@pytest.mark.parametrize("game", ["rummoli", "rummy"])
def test_a_hint_at_my_decision_from_my_view_only(tmp_path: Path, game: str) -> None:
    seats = ["human", "human", "random", "random"] if game == "rummoli" else ["human", "human"]
    with server(tmp_path / "t.db") as client:
        table = create_table(
            client, seats, game=game, rules={"rounds": 1} if game == "rummoli" else {}
        )
        ann, bea = join(client, table, "Ann"), join(client, table, "Bea")
        with (
            connect(client, table, ann["token"]) as a,
            connect(client, table, bea["token"]) as b,
            connect(client, table) as watcher,
        ):
            # Wait for a decision of one of the two people.
            for _ in range(200):
                a.sync()
                b.sync()
                if a.my_turn() or b.my_turn():
                    break
            me, other = (a, b) if a.my_turn() else (b, a)
            assert me.my_turn()
            the_room = room(client, table)
            state = the_room.shown
            assert state is not None and me.seat is not None
            # What a fresh expert in that seat chooses from the seat's observation alone
            # (in a forced turn, shown as a turn of its own, the one move it may make).
            level = "strong"
            forced = the_room.forced(me.seat)
            if forced is None:
                seed = stream_seed(the_room.seed, f"hint:{me.seat}")
                expected = make_bot(level, seed, game).choose(
                    state.observation(me.seat), state.legal_actions()
                )
            else:
                expected = Decision(forced, "the only choice")
            me.send({"type": "hint", "step": me.step})
            # The expert thinks in a worker thread: its answer may come after a ping's pong.
            frame = me.until(lambda f: f["type"] in ("hint", "error"), timeout=60.0)
            assert not _hints(me)  # one answer
            assert frame["type"] == "hint", frame
            assert frame["step"] == me.step and frame["level"] == level
            assert frame["action"] == expected.action
            assert frame["text"] == state.action_to_text(expected.action)
            assert frame["reason"] == structured(expected.reason)
            assert frame["action"] in the_room.legal_now()
            # No card the seat may not see (Rummoli: the others' hands, the widow).
            if game == "rummoli":
                assert not cards_in(frame) & hidden_cards(state, me.seat)  # type: ignore[arg-type]
            # To that client alone.
            assert not _hints(other)
            assert not _hints(watcher)
            # Not your turn, a spectator, a stale step: refused, each with its code.
            other.send({"type": "hint"})
            assert [f["code"] for f in _hints(other)] == ["not_your_turn"]
            watcher.send({"type": "hint"})
            assert [f["code"] for f in _hints(watcher)] == ["spectator"]
            me.send({"type": "hint", "step": me.step + 5})
            assert [f["code"] for f in _hints(me)] == ["stale"]
            # Asking again at the same step gives the same answer (kept), until the budget
            # of hints is spent: then refused as too frequent.
            answers = []
            for _ in range(HINT_BURST + 1):
                me.send({"type": "hint", "step": me.step})
                answers.extend(_hints(me))
            assert any(f["type"] == "hint" for f in answers)
            assert all(f == frame for f in answers if f["type"] == "hint")
            assert answers[-1]["type"] == "error" and answers[-1]["code"] == "rate_limited"
            # Nothing changed at the table.
            assert the_room.step == me.step
