"""Shared by the learning environments' tests: random play and hidden-card edits."""

from __future__ import annotations

import random
from typing import Any

from rummoli.envs.adapters import adapter_for
from rummoli.envs.table import Table
from rummoli.games.rummy.state import RummyState
from rummoli.games.stops.state import RummoliState

#: Small settings for every game, so that whole games stay fast.
SETTINGS: dict[str, list[dict[str, Any]]] = {
    "rummoli": [
        {},
        {"players": 3, "actions": "compact", "must_claim": True, "widow": "exchange_only"},
        {"players": 2, "length": "game", "rounds": 3, "starting_chips": 30},
        {"players": 5, "poker": "showdown", "lead": "lowest_of_any_suit"},
    ],
    "rummy": [
        {},
        {"players": 3, "one_meld_per_turn": True},
        {"players": 2, "length": "game", "max_hands": 3, "target": 40},
        {"players": 4, "max_moves": 120},
    ],
}


def table_for(game: str, params: dict[str, Any] | None = None) -> Table:
    return Table(adapter_for(game).config(params or {}))


def random_step(table: Table, rng: random.Random) -> None:
    """One uniformly random chance outcome or legal action."""
    if table.is_chance():
        outcomes = table.chance_outcomes()
        table.apply(outcomes[rng.randrange(len(outcomes))][0])
    else:
        legal = table.legal_actions()
        table.apply(legal[rng.randrange(len(legal))])


def decision_points(table: Table, rng: random.Random, every: float = 0.3) -> list[Table]:
    """Copies of ``table`` at some of its decisions as it plays randomly to the end."""
    points = []
    while not table.is_terminal():
        if not table.is_chance() and rng.random() < every:
            points.append(table.clone())
        random_step(table, rng)
    return points


def some_decisions(game: str, params: dict[str, Any], rng: random.Random, want: int) -> list[Table]:
    """About ``want`` decision points, from as many random games as that takes."""
    points: list[Table] = []
    while len(points) < want:
        points.extend(decision_points(table_for(game, params), rng, every=0.4))
    return points[:want]


def hidden_from(table: Table, seat: int) -> int:
    """The cards ``seat`` cannot see now, by the rules (the engine's own tests' reading)."""
    engine = table.engine
    assert isinstance(engine, (RummoliState, RummyState))
    others = 0
    for other, hand in enumerate(engine.hands):
        if other != seat:
            others |= hand
    if isinstance(engine, RummyState):
        return others | sum(1 << card for card in engine.stock)
    mask = others | engine.widow
    for five in engine.shown.values():
        mask &= ~five
    if engine.widow_taker == seat:
        mask &= ~engine.known_widow
    return mask


def permute_hidden(table: Table, seat: int, rng: random.Random) -> Table:
    """A copy of ``table`` in which every card ``seat`` cannot see has moved (as far as
    the counts allow), each place keeping its count, and every private event of another
    seat in the log (its dealt hand, its stock draws) names other cards.

    Test code edits the engine's fields and the log directly: no API moves cards, and the
    copy stands for "another deal that ``seat`` could not tell from the real one"."""
    other = table.clone()
    engine = other.engine
    assert engine is not None and table.engine is not None
    hidden = hidden_from(table, seat)
    pool = [c for c in range(52) if hidden >> c & 1]
    shuffled = pool[:]
    for _ in range(20):
        rng.shuffle(shuffled)
        if len(pool) < 2 or all(a != b for a, b in zip(pool, shuffled, strict=True)):
            break
    move = dict(zip(pool, shuffled, strict=True))

    def moved(mask: int) -> int:
        out = mask & ~hidden
        for card in pool:
            if mask >> card & 1:
                out |= 1 << move[card]
        return out

    if isinstance(engine, RummoliState):
        engine.hands = [h if s == seat else moved(h) for s, h in enumerate(engine.hands)]
        engine.widow = moved(engine.widow)
        for card in pool:
            engine.owner[move[card]] = table.engine.owner[card]  # type: ignore[attr-defined]
    else:
        assert isinstance(engine, RummyState)
        engine.hands = [h if s == seat else moved(h) for s, h in enumerate(engine.hands)]
        engine.stock = [move.get(c, c) for c in engine.stock]
    log = []
    for who, item in other.log:
        if who < 0 and item[0] in ("hand", "drew", "blocked") and item[1] != seat:
            if item[0] == "hand":
                item = ("hand", item[1], rng.getrandbits(52))
            elif item[0] == "drew":
                item = ("drew", item[1], rng.randrange(52))
        log.append((who, item))
    other.log = log
    return other
