"""A decision's prompt agrees with the choices it offers, for every kind of decision of
both games (issue 20: the auction told a player who could bid that he held a pay card,
with the bid buttons right under it), and the spare hand's decisions of the family's
other games in their own word (Michigan's spare hand, Tripoley's dead hand: never
Rummoli's "widow").

The views are the server's own, of real positions: random games are played until each
kind of decision comes up (a dealer with and without a pay card, a bidder who may bid
before and after a bid, a bidder whose pay card blocks him, taking his forced turn, the
betting with a check, a bet to call or raise, a bet to call only, leads with a choice,
a claim; Rummy's draws and each mix of meld, lay off and discard). Each view is drawn by
the page's own ``renderActions`` in Chromium, and its prompt is read beside its buttons.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Browser

from e2e.conftest import LiveServer
from e2e.pages import desktop_page
from rummoli.games import registry
from rummoli.games.stops import actions as act
from rummoli.web.games import seat_view, web_part

View = dict[str, Any]

#: Draw one view's choices with the page's modules; its prompt and its controls.
RENDER = """async ([game, view, events, rules]) => {
  const board = await import("/static/js/board.js");
  const rummy = await import("/static/js/rummy.js");
  const node = document.createElement("div");
  document.body.append(node);
  if (game !== "rummy") {
    board.renderActions(node, view, () => {}, { events, rules });
  } else {
    const ctl = { choices: rummy.rummyChoices(view), selected: [], send() {}, toggle() {},
      select() {}, clear() {} };
    rummy.renderRummyActions(node, view, ctl);
  }
  const out = {
    prompt: node.querySelector('[data-testid="prompt"]')?.textContent ?? "",
    controls: [...node.querySelectorAll("[data-testid]")]
      .filter((n) => !n.disabled).map((n) => n.dataset.testid),
    text: node.textContent,
  };
  node.remove();
  return out;
}"""


def _kind(view: View) -> str | None:
    """The kind of a Rummoli decision, from the actions the view offers."""
    legal = view.get("legal_actions") or []
    texts = {a.get("kind") or a["text"].split(" ")[0] for a in legal}
    phase = view["phase"]
    if phase == "widow":
        # A keep alone is the forced turn of a dealer who holds a pay card.
        return "dealer may exchange" if "exchange" in texts else "dealer holds a pay card"
    if phase == "auction":
        high = view["auction"]["high_bidder"] is not None
        if "bid" in texts:
            return "bidder after a bid" if high else "first bidder"
        return None  # a pass alone is a forced turn (found apart)
    if phase == "betting":
        if "check" in texts:
            return "check or bet"
        return "call, raise or fold" if "raise" in texts else "call or fold"
    if phase == "play":
        if any(a["text"].endswith("claim") for a in legal):
            return "claim"
        return "lead with a choice" if len(legal) > 1 else None
    return None


#: What each kind's prompt says, and which controls it must and must not show.
RUMMOLI: dict[str, tuple[str, set[str], set[str]]] = {
    "dealer may exchange": (
        "Keep your hand, or exchange it", {"action-keep", "action-exchange"}, set()
    ),
    "dealer holds a pay card": ("you may not take the widow", {"action-keep"}, {"action-exchange"}),
    "first bidder": ("bid for the widow, or pass", {"bid-submit", "action-pass"}, set()),
    "bidder after a bid": ("Raise it or pass", {"bid-submit", "action-pass"}, set()),
    "blocked bidder": ("you may not bid for the widow", {"action-pass"}, {"bid-submit"}),
    "check or bet": ("check, or open the betting", {"action-check", "raise-submit"}, set()),
    "call, raise or fold": (
        "Call, raise or fold", {"action-call", "action-fold", "raise-submit"}, set()
    ),
    "call or fold": ("Call or fold", {"action-call", "action-fold"}, {"raise-submit"}),
    "lead with a choice": ("Your lead: choose the card to lay.", set(), set()),
    "claim": ("claim its space", set(), set()),
}  # fmt: skip


def _forced_kind(view: View) -> str:
    return "dealer holds a pay card" if view["phase"] == "widow" else "blocked bidder"


#: The spare hand's decisions, and the family's games that sell theirs as Rummoli's
#: widow is sold (with the house rules that make it so), in their own word.
SPARE_KINDS = (
    "dealer may exchange",
    "dealer holds a pay card",
    "first bidder",
    "bidder after a bid",
    "blocked bidder",
)
SOLD_SPARE = {"widow": "exchange_or_auction", "pay_card_blocks_exchange": True, "rounds": 2}
SPARE_GAMES = {"michigan": "spare hand", "tripoley": "dead hand"}


def _rummoli_views(
    game: str = "rummoli",
    variants: list[dict[str, Any]] | None = None,
    kinds: tuple[str, ...] = tuple(RUMMOLI),
) -> dict[str, tuple[View, list[dict[str, Any]], dict[str, Any]]]:
    """A real view of each kind of decision of a game of the family (with its round's
    events and rules)."""
    description = registry.describe(game)
    part = web_part(game)
    found: dict[str, tuple[View, list[dict[str, Any]], dict[str, Any]]] = {}
    variants = variants or [
        {"rounds": 2},
        {"rounds": 2, "bet_limit": 2},
        {"rounds": 2, "must_claim": True},
        {"rounds": 2, "starting_chips": 12},
    ]
    for seed in range(400):
        if set(kinds) <= set(found):
            break
        rules = description.rules(variants[seed % len(variants)])
        state = description.new_game(["Ann", "Bea", "Cy", "Dee"], rules, seed)
        rng = random.Random(seed)
        events: list[Any] = []
        while not state.is_terminal():
            seat = state.current_player()
            if seat >= 0:
                view = seat_view(game, state, seat)
                kind = _kind(view)
                if kind in kinds and kind not in found:
                    mine = description.events_for(events, seat, state.names)
                    found[kind] = (view, mine, rules.to_dict())
            before = state.clone()
            action = rng.choice(state.legal_actions())
            new = state.apply(action)
            if any(e[0] == "dealer" for e in new):
                events = []
            events.extend(new)
            if any(e[0] == "blocked" for e in new) and part.unfold is not None:
                # A pay card's keep or pass is shown as that seat's turn, with that one
                # action (web/stops/forced.py): the views of those turns.
                unfolding = part.unfold(before, action, new)
                if unfolding is None:
                    continue
                shown = [*events[: len(events) - len(new)], *unfolding.events]
                while (turn := unfolding.next()) is not None:
                    forced_view = seat_view(game, unfolding.state, turn[0], turn[1])
                    mine = description.events_for(shown, turn[0], state.names)
                    kind = _forced_kind(forced_view)
                    if kind in kinds:
                        found.setdefault(kind, (forced_view, mine, rules.to_dict()))
                    shown.extend(unfolding.play())
    assert set(kinds) <= set(found), set(kinds) - set(found)
    assert found["blocked bidder"][0]["legal_actions"] == [{"action": act.PASS, "text": "pass"}], (
        found["blocked bidder"][0]["legal_actions"]
    )
    return found


def _rummy_kind(view: View) -> str | None:
    legal = [a["text"].split(" ")[0] for a in view.get("legal_actions") or []]
    if view["phase"] == "draw":
        # (A draw with no choice is made by the engine: no decision.)
        return "draw or take" if "discard" in legal and "stock" in legal else None
    words = set(legal)
    discards = any(a["text"].startswith("discard ") for a in view["legal_actions"])
    if not discards:
        return None
    return {
        frozenset({"meld", "layoff"}): "meld, lay off, discard",
        frozenset({"meld"}): "meld, discard",
        frozenset({"layoff"}): "lay off, discard",
        frozenset(): "discard only",
    }.get(frozenset(words - {"discard"}))


RUMMY: dict[str, tuple[str, set[str], set[str]]] = {
    "draw or take": ("draw from the stock, or take", {"action-stock", "action-take"}, set()),
    "meld, lay off, discard": ("Meld, lay off, then discard one card.", set(), set()),
    "meld, discard": ("Meld, then discard one card.", set(), set()),
    "lay off, discard": ("Lay off, then discard one card.", set(), set()),
    "discard only": ("Discard one card.", set(), set()),
}


def _rummy_views() -> dict[str, tuple[View, list[dict[str, Any]], dict[str, Any]]]:
    description = registry.describe("rummy")
    found: dict[str, tuple[View, list[dict[str, Any]], dict[str, Any]]] = {}
    for seed in range(300):
        if len(found) == len(RUMMY):
            break
        state = description.new_game(["Ann", "Bea"], description.rules({"target": 30}), seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_player()
            if seat >= 0:
                view = seat_view("rummy", state, seat)
                kind = _rummy_kind(view)
                if kind is not None and kind not in found:
                    found[kind] = (view, [], {})
            state.apply(rng.choice(state.legal_actions()))
    assert set(found) == set(RUMMY), set(RUMMY) - set(found)
    return found


def _check(
    render: Callable[[str, View, list[dict[str, Any]], dict[str, Any]], dict[str, Any]],
    game: str,
    views: dict[str, tuple[View, list[dict[str, Any]], dict[str, Any]]],
    expected: dict[str, tuple[str, set[str], set[str]]],
) -> None:
    for kind, (view, events, rules) in views.items():
        shown = render(game, view, events, rules)
        words, present, absent = expected[kind]
        assert words in shown["prompt"], (kind, shown["prompt"])
        controls = set(shown["controls"])
        assert present <= controls and not absent & controls, (kind, shown)


def test_every_prompt_agrees_with_the_choices_it_offers(
    browser: Browser, live_server: LiveServer
) -> None:
    with desktop_page(browser) as page:
        page.goto(live_server.url + "/")

        def render(game: str, view: View, events: list[Any], rules: dict[str, Any]) -> Any:
            return page.evaluate(RENDER, [game, view, events, rules])

        _check(render, "rummoli", _rummoli_views(), RUMMOLI)
        _check(render, "rummy", _rummy_views(), RUMMY)
        for game, word in SPARE_GAMES.items():
            views = _rummoli_views(game, [SOLD_SPARE], SPARE_KINDS)
            expected = {
                kind: (RUMMOLI[kind][0].replace("widow", word), *RUMMOLI[kind][1:])
                for kind in SPARE_KINDS
            }
            _check(render, game, views, expected)
            for kind, (view, events, rules) in views.items():
                shown = render(game, view, events, rules)
                assert "widow" not in shown["text"].lower(), (game, kind, shown["text"])
                if kind == "dealer may exchange":
                    assert f"Take the {word}" in shown["text"], (game, shown["text"])
