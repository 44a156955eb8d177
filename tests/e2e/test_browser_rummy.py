"""A whole Basic Rummy match in real browsers: two people, two computer players and a
spectator.

Ann (a laptop) chooses Basic Rummy in the lobby, sets a low target (5 points: the first
hand somebody wins ends the match, a stalemate deals again) and creates the table; Bea (a
phone) joins with the invitation link; a third browser watches. The people play through
the page as people do: they draw by clicking the stock (or the discard pile), select cards
by clicking them and press "Meld", lay off by selecting a card and clicking the lit meld
(or dragging the card onto it; where a card fits two melds they pick one), and discard by
selecting a card and pressing "Discard" (or dragging it onto the pile). Every WebSocket
frame each browser received is then checked against the engine, rebuilt from the match's
record: exactly that seat's view, and no card that seat may not see.

``RUMMOLI_SCREENSHOTS=docs/img`` also saves ``rummy-table-desktop.png`` and
``rummy-table-phone.png`` (Ann's and Bea's tables with melds on them and a card selected
that fits one: the first such moment, so run it again for another) and
``rummy-standings.png``.
"""

from __future__ import annotations

import urllib.parse
import urllib.request
from typing import Any

from playwright.sync_api import Browser, Page

from e2e.conftest import LiveServer
from e2e.pages import Browsing, Shots, create_in_lobby, get_json, whole_game
from e2e.rummy_truth import check_rummy_frames, rummy_reference

Frame = dict[str, Any]
#: Bea's name holds markup: it must be shown as these characters, never parsed.
BEA = "Bea <i>x</i>"
#: Points of a card when it is left in a hand (the engine's scoring): discard these first.
POINTS = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10} | {str(n): n for n in range(2, 10)}

MY_TURN = """(step) => {
  const t = document.querySelector('#table');
  return t.dataset.myTurn === 'true' && Number(t.dataset.step) >= step
    && document.querySelector('[data-testid=actions] button') !== null
    && !document.querySelector('[data-testid=actions]').classList.contains('pending');
}"""
MOVED_ON = """(step) => Number(document.querySelector('#table').dataset.step) > step"""


def _create_table(ann: Browsing, base: str) -> str:
    """Ann picks Basic Rummy in the lobby: herself, Bea and two computers, to 5 points."""
    page = ann.page
    page.goto(base + "/")
    page.get_by_test_id("game").select_option("rummy")
    page.get_by_test_id("rule-one_meld_per_turn").wait_for()
    assert page.get_by_test_id("starting-chips").count() == 0  # chips are Rummoli's
    assert page.get_by_test_id("seat-count").input_value() == "4"
    # The computer levels come from the server (rummoli.bots.levels_for("rummy")).
    levels = page.eval_on_selector_all(
        "[data-testid=seat-kind-2] option", "os => os.map(o => o.value).filter(v => v !== 'human')"
    )
    assert "random" in levels
    fields: dict[str, str | bool] = {
        "create-name": "Ann",
        "seat-kind-1": "human",
        "seat-kind-2": levels[-1],
        "seat-kind-3": "random",
        "rule-target": "other",
        "rule-target-n": "5",
        "turn-timer": "0",
        "public": True,  # listed, so the spectator finds it
    }
    table_id = create_in_lobby(page, fields)
    ann.wait_table(status="waiting", seat="0", game="rummy")
    return table_id


class Player:
    """A person at the page: plays one whole turn by clicks (and, on a laptop, drags)."""

    def __init__(self, who: Browsing, *, drags: bool) -> None:
        self.who = who
        #: Drags with a mouse (a laptop); on a phone people tap.
        self.drags = drags
        self.turns = 0
        self.used: set[str] = set()

    def _act(self, click: Any) -> None:
        """One action: do the click (or drag), then wait until the table moved on."""
        step = self.who.step()
        click()
        self.who.page.wait_for_function(MOVED_ON, arg=step)

    def _select(self, cards: list[str]) -> None:
        for card in cards:
            self.who.test_id(f"hand-card-{card}").click()
        for card in cards:
            assert self.who.test_id(f"hand-card-{card}").get_attribute("data-selected") == "true"

    def play_turn(self, step: int, shots: Shots) -> None:
        page = self.who.page
        page.wait_for_function(MY_TURN, arg=step)
        self.turns += 1
        view = self.who.view()
        # (After a reshuffle the pile is empty: the engine draws from the stock for him.)
        if view["phase"] == "draw":
            texts = [a["text"] for a in view["legal_actions"]]
            if "discard" in texts and self.turns % 3 == 0:
                self.used.add("take")
                self._act(lambda: self.who.test_id("discard-pile").click())
            else:
                self.used.add("stock")
                self._act(lambda: self.who.test_id("stock").click())
        while True:
            data = self.who.data()
            if data["myTurn"] != "true" or data["phase"] != "play":
                return
            page.wait_for_function(MY_TURN, arg=int(data["step"]))
            view = self.who.view()
            texts = [a["text"].split() for a in view["legal_actions"]]
            melds = [t[1:] for t in texts if t[0] == "meld"]
            layoffs = [(t[1], int(t[2])) for t in texts if t[0] == "layoff"]
            discards = [t[1] for t in texts if t[0] == "discard" and len(t) == 2]
            if melds:
                self._meld(melds[0])
            elif layoffs:
                self._lay_off(layoffs, view, shots)
            else:
                self._discard(discards)

    def _meld(self, cards: list[str]) -> None:
        self._select(cards)
        button = self.who.test_id("action-meld")
        assert button.is_enabled()
        self.used.add("meld")
        self._act(button.click)

    def _lay_off(self, layoffs: list[tuple[str, int]], view: Frame, shots: Shots) -> None:
        card = layoffs[0][0]
        slots = [slot for c, slot in layoffs if c == card]
        self._select([card])
        lit = self.who.page.eval_on_selector_all(
            "[data-testid=melds] .meld.target", "ms => ms.map(m => Number(m.dataset.slot))"
        )
        assert lit == slots  # exactly the melds the card fits light up
        name = "rummy-table-desktop" if self.who.name == "Ann" else "rummy-table-phone"
        if shots.want(name) and len(view["melds"]) > 1:
            shots.take(self.who.page, name)
        slot = slots[-1]  # fits two melds: the player picks (the last one)
        if len(slots) > 1:
            self.used.add("picked a meld")
        target = self.who.test_id(f"meld-{slot}")
        if "drag to meld" not in self.used and self.drags:
            self.used.add("drag to meld")
            self._act(lambda: self.who.test_id(f"hand-card-{card}").drag_to(target))
        else:
            self.used.add("lay off")
            self._act(target.click)
        melds = self.who.view()["melds"]
        assert card in melds[slot], (card, slot, melds)

    def _discard(self, discards: list[str]) -> None:
        # Keep the cheap cards: discard the one worth most (the engine lists kings first).
        card = max(discards, key=lambda c: POINTS[c[0]])
        self._select([card])
        if "drag to pile" not in self.used and self.drags and self.turns % 2 == 0:
            self.used.add("drag to pile")
            pile = self.who.test_id("discard-pile")
            self._act(lambda: self.who.test_id(f"hand-card-{card}").drag_to(pile))
        else:
            self.used.add("discard")
            self._act(self.who.test_id("action-discard").click)


def test_two_people_two_computers_and_a_spectator_play_a_rummy_match(
    browser: Browser, live_server: LiveServer
) -> None:
    with whole_game(browser, live_server.url, ["Ann", "Bea", "spectator"]) as match:
        ann, bea, spectator = match.pages
        table_id = _create_table(ann, match.base)

        def in_lobby(page: Page) -> None:
            game = page.get_by_test_id(f"table-game-{table_id}").inner_text()
            assert game == "Basic Rummy"

        match.seat_bea_and_the_spectator(table_id, BEA, in_lobby)
        for who in match.pages:
            who.wait_table(game="rummy")
        assert not spectator.page.locator("#me").is_visible()
        assert spectator.test_id("stock").is_visible()

        people = {"0": Player(ann, drags=True), "1": Player(bea, drags=False)}
        acted = -1
        while (data := match.next_decision(acted)) is not None:
            step = int(data["step"])
            player = people[data["toMove"]]
            # The spectator sees only counts of the hands, and the stock's size.
            counts = [int(spectator.test_id(f"player-cards-{i}").inner_text()) for i in range(4)]
            assert counts == [p["cards"] for p in spectator.view()["players"]]
            player.play_turn(step, match.shots)
            acted = player.who.step() - 1

        assert people["0"].turns > 0 and people["1"].turns > 0
        for who in match.pages:
            who.wait_table(phase="over", status="finished")
            who.page.get_by_test_id("standings").wait_for()
            who.page.get_by_test_id("round-summary").wait_for()
        if match.shots.want("rummy-standings"):
            match.shots.take(ann.page, "rummy-standings")
        assert ann.test_id("record-link").get_attribute("href") == (f"/api/games/{table_id}/record")
        assert spectator.test_id("standings").locator("li").count() == 4
        used = people["0"].used | people["1"].used
        assert {"stock", "discard"} <= used, used

        record = get_json(f"{match.base}/api/games/{table_id}/record")
        assert record["game"] == "rummy" and record["rules"]["target"] == 5
        states, events = rummy_reference(record)
        final = states[-1]
        assert final.is_terminal() and len(states) - 1 == ann.step()
        assert record["setup"]["players"][:2] == ["Ann", BEA]
        for who in match.pages:
            assert who.test_id("player-name-1").inner_text() == BEA
            assert who.page.locator("#table i:not([class])").count() == 0
        for who in match.pages:
            scores = [int(who.test_id(f"player-score-{i}").inner_text()) for i in range(4)]
            assert scores == final.scores
        assert ann.connections()[0][0] == 0
        assert [seat for seat, _ in bea.connections()] == [None, 1]
        assert [seat for seat, _ in spectator.connections()] == [None]
        checked = match.check_every_connection(
            lambda frames, seat: check_rummy_frames(frames, seat, states, events)
        )
        assert checked > 3 * (len(states) - 1) // 2, checked

        # The replay page steps through the match from Bea's seat; her statistics page
        # shows her Rummy apart.
        bea.page.get_by_test_id("replay-link").click()
        bea.wait_table(game="rummy", step="0")
        bea.test_id("replay-last").click()
        bea.wait_table(step=str(len(states) - 1))
        assert bea.test_id("melds").is_visible() and bea.test_id("hand").count() == 1
        bea.page.goto(f"{match.base}/player?name={urllib.parse.quote(BEA)}")
        assert bea.test_id("rummy-games").inner_text() == "1"
        for who in match.pages:
            assert not who.errors, f"{who.name}: {who.errors}"
    print(f"\nwhole Rummy match in the browser: {match.seconds():.1f} s, used {used}")
