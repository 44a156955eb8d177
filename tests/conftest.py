"""Shared helpers for the engine tests, and the hypothesis profiles.

Profiles, chosen with ``HYPOTHESIS_PROFILE``: ``explore`` (the default on a developer's
machine: new random examples every run, to find new bugs), ``ci`` (the default when the
``CI`` variable is set: derandomized, so a landing never depends on which examples a run
happened to draw; run ``explore`` locally to hunt) and ``dev`` (fewer examples, quick).
All have no deadline (a whole game per example is far slower than hypothesis expects of
one call) and print the reproduction blob of a failing example.

The helpers are imported by the test modules (``from conftest import ...``): pytest puts
this directory on ``sys.path`` because ``tests`` is not a package.
"""

from __future__ import annotations

import copy
import dataclasses
import io
import os
import random
import re
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from rich.console import Console

from rummoli.bots import Bot, Decision, ask_bot
from rummoli.cards import FULL_DECK, card_str, cards_of, parse_card, sorted_by_suit
from rummoli.compiled import stale_sources
from rummoli.engine.base import CHANCE, CHANCE_ACTION, Event, GameState
from rummoli.games import registry
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.games.rummy import Rules as RummyRules
from rummoli.games.rummy import RummyState
from rummoli.games.rummy import setup_from_dict as rummy_setup
from rummoli.games.stops.constants import REMOVED, STAKE, TURNED
from rummoli.games.stops.setup import setup_from_dict
from rummoli.games.stops.state import IN_WIDOW, LAID
from rummoli.games.stops.view import events_for
from rummoli.tui.stops.play import run_play


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to test old compiled code: an edited source whose module was compiled in
    place before the edit would not be the code that runs."""
    stale = stale_sources()
    if stale:
        pytest.exit(
            "compiled before their last edit: " + ", ".join(stale) + ". Run `make test` "
            "(it compiles again), or `.venv/bin/python setup.py build_ext --inplace`.",
            returncode=4,
        )


#: Set to replay the deals of a failed web test's tables (its report says the value).
TABLE_SEEDS = "RUMMOLI_TEST_SEEDS"


@pytest.fixture(autouse=True)
def table_seeds(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The tables an in-process server makes in a web or browser test draw their secret
    seeds from one generator seeded for that test, and a failed test's report says how
    to deal them again (:data:`TABLE_SEEDS`). Why: the server's seeds come from
    :mod:`secrets`, so a failure that depends on the deal (stop 34's, one seed in fifty)
    could not be replayed from CI's log. A test that fixes its own seeds still does."""
    if request.node.path.parent.name not in ("web", "e2e"):
        yield
        return
    base = int(os.environ.get(TABLE_SEEDS) or random.SystemRandom().getrandbits(32))
    seeds = random.Random(f"{base}:{request.node.nodeid}")
    request.node.stash[_SEEDS_BASE] = base
    monkeypatch.setattr("rummoli.web.hub.new_seed", lambda: seeds.getrandbits(62))
    yield


_SEEDS_BASE = pytest.StashKey[int]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed web test's report says the value of :data:`TABLE_SEEDS` that replays it."""
    report = yield
    base = item.stash.get(_SEEDS_BASE, None)
    if report.failed and base is not None:
        report.sections.append(
            ("table seeds", f"{TABLE_SEEDS}={base} deals this test's tables again")
        )
    return report


settings.register_profile(
    "explore",
    deadline=None,
    derandomize=False,
    print_blob=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("ci", parent=settings.get_profile("explore"), derandomize=True)
settings.register_profile("dev", parent=settings.get_profile("explore"), max_examples=20)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "explore")
)

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


def check_seats_events(game: str, events: list[Event], names: list[str]) -> None:
    """A table's frames make each event JSON once for every seat (the description's
    ``events_for_seats``): each seat, and a spectator, must get exactly what
    ``events_for`` gives it alone (seats in any order)."""
    description = registry.describe(game)
    assert description.events_for_seats is not None, f"{game} has no events_for_seats"
    seats: list[int | None] = [None, *reversed(range(len(names)))]
    alone = [description.events_for(events, seat, names) for seat in seats]
    assert description.seats_events(events, seats, names) == alone


def players(n: int) -> list[str]:
    return list(NAMES[:n])


def new_state(
    n: int,
    rules: Rules | None = None,
    seed: int = 0,
    *,
    chips: list[int] | None = None,
    dealer: int | None = None,
    board: dict[str, int] | None = None,
) -> RummoliState:
    """A game of ``n`` players; with ``chips``/``dealer``/``board`` from a setup dict."""
    rules = rules or Rules()
    if chips is None and dealer is None and board is None:
        return RummoliState.new_game(players(n), rules, seed)
    data: dict[str, object] = {"players": players(n)}
    if chips is not None:
        data["chips"] = chips
    if dealer is not None:
        data["dealer"] = dealer
    if board:
        data["board"] = board
    return RummoliState(rules, setup_from_dict(data, rules.starting_chips), seed)


def choose_action(state: RummoliState, rng: random.Random) -> int:
    """A random legal action: uniform half the time, else one of the first (cheap) ones.

    Uniform choice alone would almost always bid or raise big (those have many values),
    so games would be all-in every round; the mix plays checks, calls and passes too.
    """
    return mostly_cheap(state.legal_actions(), rng)


def mostly_cheap(legal: list[int], rng: random.Random, uniform: float = 0.5) -> int:
    """One of ``legal``: uniform with probability ``uniform``, else the first (the
    cheapest) half of the time and one of the first three the other half."""
    r = rng.random()
    if r < uniform:
        return rng.choice(legal)
    if r < (1 + uniform) / 2:
        return legal[0]
    return rng.choice(legal[:3])


StepHook = Callable[[RummoliState, int, list[Event]], None]


def play_random(
    state: RummoliState,
    rng: random.Random,
    *,
    max_steps: int = 50_000,
    on_step: StepHook | None = None,
) -> list[Event]:
    """Play to the end with random legal actions; returns every event (in order)."""
    events: list[Event] = []
    steps = 0
    while not state.is_terminal():
        assert steps < max_steps, f"game did not end in {max_steps} steps: {state!r}"
        action = choose_action(state, rng)
        new = state.apply(action)
        events.extend(new)
        if on_step is not None:
            on_step(state, action, new)
        steps += 1
    return events


def play_until(
    state: RummoliState,
    rng: random.Random,
    stop: Callable[[RummoliState], bool],
    *,
    max_steps: int = 50_000,
) -> list[Event]:
    """Play random actions until ``stop(state)`` or the end of the game."""
    events: list[Event] = []
    steps = 0
    while not state.is_terminal() and not stop(state):
        assert steps < max_steps
        events.extend(state.apply(choose_action(state, rng)))
        steps += 1
    return events


def bot_moves(state: GameState, bots: Mapping[int, Bot]) -> Iterator[tuple[int, Decision]]:
    """Play ``state`` to the end, chance moves applied and every seat's move asked of its
    bot (``ask_bot`` refuses an illegal answer). Yields each seat to move with its bot's
    decision before applying it, so that a test may first look at the position (or stop
    there): the games of the bot tests, which differ only in what they check on the way."""
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(CHANCE_ACTION)
            continue
        decision = ask_bot(bots[seat], state, seat)
        yield seat, decision
        state.apply(decision.action)


def state_snapshot(state: Any, *fields: str) -> dict[str, Any]:
    """What a state shows (the spectator's and every seat's view, its record, the legal
    actions and who is to move) and a copy of each of its named ``fields``: equal before
    and after whatever must change nothing (a refused action, a clone's move)."""
    seats = range(len(state.names))
    taken = {
        "views": [state.view(seat) for seat in (None, *seats)],
        "record": state.record(),
        "legal": state.legal_actions(),
        "player": state.current_player(),
    }
    for name in fields:
        taken[name] = copy.copy(getattr(state, name))
    return taken


def card_mask(*texts: str) -> int:
    """The bit mask of the named cards (``"7H"``)."""
    return sum(1 << parse_card(t) for t in texts)


def rummy_position(rules: RummyRules | None = None, **changes: Any) -> RummyState:
    """A hand of Basic Rummy as a test sets it: Ann (seat 0, to play first; Bob deals)
    and the named cards where they are, the rest of the deck in the stock after the
    stock cards named (which are on top). ``changes``: the setup's keys (``hands``,
    ``stock``, ``discard``, ``melds``...), as in ``setup_from_dict``."""
    data: dict[str, Any] = {"players": ["Ann", "Bob"], "dealer": 1, **changes}
    known = card_mask(*[c for h in data["hands"].values() for c in h])
    known |= card_mask(*data.get("stock", []), *data.get("discard", []))
    for meld in data.get("melds", []):
        known |= card_mask(*meld)
    data["stock"] = list(data.get("stock", [])) + [
        card_str(c) for c in cards_of(~known & FULL_DECK)
    ]
    state = RummyState(rules or RummyRules(), rummy_setup(data))
    state.apply(CHANCE_ACTION)
    return state


# ---------------------------------------------------------------------- terminal play

#: A card as the terminal draws it: a rank and a suit symbol. Board spaces are written
#: with letters (10S, KH), so this pattern finds cards and nothing else.
SCREEN_CARD = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")
SUIT_LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def cards_on_screen(text: str) -> set[str]:
    """Every card the terminal drew in ``text``, as card strings (``"TH"``)."""
    found = SCREEN_CARD.findall(text)
    return {rank.replace("10", "T") + SUIT_LETTER[suit] for rank, suit in found}


def new_console() -> tuple[Console, io.StringIO]:
    """An 80-column console writing into a string, which the test then reads."""
    out = io.StringIO()
    return Console(file=out, width=80, highlight=False), out


class Screen:
    """What a terminal game printed, read a piece at a time: each look returns the text
    printed since the last, for tests that check the screen at every prompt."""

    def __init__(self, out: io.StringIO) -> None:
        self.out = out
        self.seen = 0

    def new_text(self) -> str:
        text = self.out.getvalue()[self.seen :]
        self.seen = len(self.out.getvalue())
        return text


def script(
    lines: Iterable[str], on_prompt: Callable[[str], None] | None = None
) -> Callable[[str], str]:
    """A read_line that answers from ``lines``, then "1" (the first choice) for ever."""
    queue = list(lines)

    def read_line(prompt: str) -> str:
        if on_prompt is not None:
            on_prompt(prompt)
        return queue.pop(0) if queue else "1"

    return read_line


def run_play_scripted(**options: Any) -> tuple[int, str]:
    """``run_play`` (a Rummoli game in the terminal) on a fresh console, every question
    answered "1"; its exit code and what it printed. ``options`` replace the defaults
    (three players, 100 chips, one round, seed 1, no house rule)."""
    console, out = new_console()
    defaults: dict[str, Any] = {
        "players": 3,
        "chips": 100,
        "rounds": 1,
        "rules": [],
        "preset": None,
        "seed": 1,
        "name": "You",
    }
    code = run_play(console=console, read_line=script([]), **{**defaults, **options})
    return code, out.getvalue()


def shown_mask(state: RummoliState) -> int:
    mask = 0
    for five in state.shown.values():
        mask |= five
    return mask


def claimed_mask(state: RummoliState) -> int:
    """The cards shown this round to claim spaces held at the deal (Tripoley's)."""
    mask = 0
    for _, _, _, shown in state.claims:
        mask |= shown
    return mask


def laid_mask(state: RummoliState) -> int:
    mask = 0
    for _, card in state.laid:
        mask |= 1 << card
    return mask


def visible_mask(state: RummoliState, seat: int | None) -> int:
    """Every card ``seat`` (None: a spectator) may know the place of, by the rules:
    its own hand, laid cards, cards shown at a showdown, and the widow's cards when it
    gave its own hand to the widow, and the cards shown to claim a space held at the deal."""
    mask = laid_mask(state) | shown_mask(state) | claimed_mask(state)
    if seat is not None:
        mask |= state.hands[seat]
        if state.widow_taker == seat:
            mask |= state.known_widow
    return mask


def hidden_mask(state: RummoliState, seat: int | None) -> int:
    """Cards in other players' hands or the widow that ``seat`` may not see."""
    mask = state.widow
    for other, hand in enumerate(state.hands):
        if other != seat:
            mask |= hand
    return mask & ~visible_mask(state, seat)


CARD = re.compile(r"[2-9TJQKA][CDHS]")
#: Events whose cards come from decks of their own (the cut for the deal, the settlement
#: deal), so they may name cards that are also in hidden hands of the game's deck.
OWN_DECK = {"cut", "settle_hand", "settle_cut"}


def cards_in(value: Any) -> set[str]:
    """Every card-like string anywhere in a frame (hands, events, views)."""
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value))
    return {value} if isinstance(value, str) and CARD.fullmatch(value) else set()


def hidden_cards(state: RummoliState, seat: int | None) -> set[str]:
    """:func:`hidden_mask` as card strings, as frames name cards."""
    return {card_str(c) for c in cards_of(hidden_mask(state, seat))}


def checked_game_frames(
    frames: list[dict[str, Any]],
    seat: int | None,
    states: list[Any],
    events: list[list[Event]],
    hidden: Callable[[int], set[str]],
    own_deck: set[str],
    seat_events: Callable[[list[Event], int | None, Any], list[dict[str, Any]]],
) -> Iterator[tuple[dict[str, Any], Any, list[dict[str, Any]]]]:
    """The checks every game's frames pass: a frame that is not the game's carries no
    card; each game frame's view is the engine's for ``seat`` at its step, an update's
    events are that step's for the seat (``seat_events``, the game's ``events_for``), a
    state's log ends the seat's events so far; and no card of ``hidden(step)`` is in the
    view or the events (but those of a deck of their own, ``own_deck``). Yields each
    game frame with the engine's state at its step and the events it showed, for the
    game's own checks."""
    names = states[0].names
    for frame in frames:
        kind = frame["type"]
        if kind in ("table", "error", "pong"):
            assert not cards_in(frame), frame
            continue
        if kind not in ("state", "update") or frame["view"] is None:
            continue
        step = frame["step"]
        truth = states[step]
        assert frame["view"] == truth.view(seat), f"step {step}: the view of {seat} differs"
        if kind == "update":
            assert frame["events"] == seat_events(events[step], seat, names)
            shown = [e for e in frame["events"] if e["type"] not in own_deck]
        else:
            every = seat_events([e for evs in events[: step + 1] for e in evs], seat, names)
            log = frame["log"]
            assert log == every[len(every) - len(log) :] and (log or not every)
            shown = []  # earlier events are in the log: they were seen then
        leaked = cards_in([frame["view"], shown]) & hidden(step)
        assert not leaked, f"step {step}: seat {seat} received hidden cards {leaked}"
        yield frame, truth, shown


def check_rummoli_frames(
    frames: list[dict[str, Any]],
    seat: int | None,
    states: list[RummoliState],
    events: list[list[Event]],
) -> int:
    """Each game frame a client got is the engine's output for ``seat`` at its step and
    shows no card that seat may not see; returns how many game frames were checked.
    Shared by the in-process WebSocket test and the browser test."""
    assert all(f["type"] in ("table", "error", "pong", "state", "update") for f in frames)
    names = states[0].names
    checked = 0
    for frame, truth, public in checked_game_frames(
        frames,
        seat,
        states,
        events,
        lambda step: hidden_cards(states[step], seat),
        OWN_DECK,
        events_for,
    ):
        checked += 1
        if frame["type"] == "update":
            check_run_parts(frame, truth, seat, names)
        if seat is None:
            assert "hand" not in frame["view"] and "legal_actions" not in frame["view"]
            assert all(e["type"] not in ("hand", "blocked") for e in public)
        else:
            own = [card_str(c) for c in sorted_by_suit(cards_of(truth.hands[seat]))]
            assert frame["view"]["hand"] == own
            assert all(
                e["player"] == names[seat] for e in public if e["type"] in ("hand", "blocked")
            )
    return checked


def check_run_parts(
    frame: dict[str, Any], truth: Any, seat: int | None, names: tuple[str, ...] | list[str]
) -> None:
    """An update shown card by card (``parts``) gives every step the engine's view of
    that step (nobody to move) and its own events; one shown at once has no parts.
    ``truth``: the reference's shown step (its card-by-card ``steps``, if any)."""
    from rummoli.web.patch import apply

    steps = getattr(truth, "steps", [])
    parts = frame.get("parts")
    if not steps:
        assert parts is None, f"step {frame['step']}: parts for an action of one step"
        return
    assert parts is not None and len(parts) == len(steps) + 1, frame["step"]
    start = 0
    for index, part in enumerate(parts):
        count = part[0]
        chunk = frame["events"][start : start + count]
        start += count
        if index < len(steps):
            step_events, state = steps[index]
            assert chunk == events_for(step_events, seat, names), (frame["step"], index)
            shown = apply(frame["view"], part[1])
            assert shown == truth.step_view(index, seat), (frame["step"], index, seat)
            leaked = cards_in(shown) & hidden_cards(state, seat)
            assert not leaked, f"step {frame['step']}.{index}: hidden cards {leaked}"
    assert start == len(frame["events"])


def permute_unseen(state: RummoliState, seat: int | None, rng: random.Random) -> RummoliState:
    """A copy of ``state`` in which the cards ``seat`` cannot see are shuffled among the
    places it cannot see (other hands and the widow), every place keeping its count.

    Test code edits the internal ``hands``, ``widow`` and ``owner`` fields directly: the
    public API has (rightly) no way to move cards, and this copy stands for "another deal
    that ``seat`` could not tell apart from the real one".
    """
    other = state.clone()
    hidden = hidden_mask(state, seat)
    places: list[int] = [s for s in range(len(state.hands)) if s != seat]
    places.append(IN_WIDOW)
    pool = cards_of(hidden)
    rng.shuffle(pool)
    for place in places:
        current = state.widow if place == IN_WIDOW else state.hands[place]
        keep = current & ~hidden
        count = (current & hidden).bit_count()
        taken, pool = pool[:count], pool[count:]
        new = keep
        for card in taken:
            new |= 1 << card
        if place == IN_WIDOW:
            other.widow = new
        else:
            other.hands[place] = new
        for card in taken:
            other.owner[card] = place
    assert not pool
    return other


def check_card_places(state: RummoliState) -> None:
    """Hands, widow and laid cards (and a card turned for trumps) partition the game's
    pack, and ``owner`` agrees with them; a card outside the pack is ``REMOVED``."""
    if state.round_no == 0:
        return
    assert state.cards_conserved()
    if state.phase == STAKE:  # chips placed by choice before the deal: no card dealt yet
        assert not state.widow and not any(state.hands) and not state.laid
        return
    seen = 0
    total = 0
    for seat, hand in enumerate(state.hands):
        assert not seen & hand, f"a card of seat {seat} is elsewhere too"
        seen |= hand
        total += hand.bit_count()
        for card in cards_of(hand):
            assert state.owner[card] == seat, f"owner of card {card} is not seat {seat}"
        if seat not in state.in_round:
            # (A player who goes out at the next ante keeps the last round's cards.)
            assert hand == 0, f"seat {seat} is not in the round but holds cards"
    assert not seen & state.widow
    seen |= state.widow
    for card in cards_of(state.widow):
        assert state.owner[card] == IN_WIDOW
    laid = laid_mask(state)
    assert laid.bit_count() == len(state.laid), "a card was laid twice"
    assert not seen & laid
    seen |= laid
    for card in cards_of(laid):
        assert state.owner[card] == LAID
    total += state.widow.bit_count() + len(state.laid)
    if state.turned >= 0:
        bit = 1 << state.turned
        assert not seen & bit, "the turned card is elsewhere too"
        assert state.owner[state.turned] == TURNED
        seen |= bit
        total += 1
    pack = state.tables.deck
    for card in cards_of(FULL_DECK ^ pack):
        assert state.owner[card] == REMOVED, f"card {card} is outside the pack"
    assert seen == pack
    assert total == pack.bit_count()


def set_bot_levels(
    monkeypatch: pytest.MonkeyPatch, game: str, levels: Mapping[str, object], *, keep: bool = True
) -> None:
    """Give ``game`` these computer levels (``level -> factory``) for one test, besides
    its own (``keep``) or instead of them (their labels for people go with them). Forked
    pool workers see them too."""
    original = registry.describe(game)
    bots = {**original.bots, **levels} if keep else dict(levels)
    registry.descriptions()  # the built-in games are registered before one is replaced
    labels = {level: label for level, label in original.bot_labels.items() if level in bots}
    replaced = dataclasses.replace(original, bots=bots, bot_labels=labels)
    monkeypatch.setitem(registry._registered, game, replaced)


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A private PostgreSQL server for the test module that asks for one (``web/pgserver.py``;
    the storage tests of ``web/``), skipped only where none can run. Here rather than in a
    ``web/conftest.py``, whose module name would hide this one's helpers from the tests
    that import them (``from conftest import cards_in``)."""
    from pgserver import Unavailable, postgres_server

    try:
        with postgres_server() as url:
            yield url
    except Unavailable as why:
        pytest.skip(f"PostgreSQL cannot run here: {why}")
