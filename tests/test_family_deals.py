"""The family's deals by count and with a trump turned, as Nain Jaune and Poch declare
them: every seat count of the table dealt from the seed, the rest a talon, the trump the
turned card's suit (the golden files fix their cards, so they never deal)."""

from __future__ import annotations

from typing import Any

import pytest

from rummoli.cards import NUM_RANKS
from rummoli.games.registry import describe
from rummoli.games.stops.constants import TURNED

#: STOPS.md, Nain Jaune: "3 players 15 cards each and a talon of 7; 4: 12 and 4; 5: 9 and
#: 7; 6: 8 and 4; 7: 7 and 3; 8: 6 and 4".
NAIN_JAUNE = {3: (15, 7), 4: (12, 4), 5: (9, 7), 6: (8, 4), 7: (7, 3), 8: (6, 4)}


def dealt(game: str, players: int, rules: dict[str, object], seed: int = 1) -> Any:
    description = describe(game)
    state = description.new_game([f"P{i}" for i in range(players)], description.rules(rules), seed)
    state.apply(state.legal_actions()[0])  # the cut, the ante and the deal
    return state


@pytest.mark.parametrize("players", sorted(NAIN_JAUNE))
def test_nain_jaune_deals_by_its_table_and_keeps_a_talon(players: int) -> None:
    state = dealt("nain_jaune", players, {})
    each, talon = NAIN_JAUNE[players]
    assert [hand.bit_count() for hand in state.hands] == [each] * players
    assert state.widow.bit_count() == talon
    assert state.turned == -1


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_poch_deals_five_each_from_32_and_turns_the_talon_s_top(players: int) -> None:
    state = dealt("poch", players, {})
    assert [hand.bit_count() for hand in state.hands] == [5] * players
    turned = state.turned
    assert turned >= 0 and state.owner[turned] == TURNED
    assert state.trump == turned // NUM_RANKS
    assert state.widow.bit_count() == 32 - 5 * players - 1
    held = state.widow | (1 << turned)
    for hand in state.hands:
        held |= hand
    assert all(card % NUM_RANKS >= 5 for card in range(52) if held >> card & 1)  # 7 to ace


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_poch_whole_pack_deals_every_card_but_the_turned_one(players: int) -> None:
    state = dealt("poch", players, {"deal": "whole_pack"})
    sizes = [hand.bit_count() for hand in state.hands]
    assert sum(sizes) == 31 and max(sizes) - min(sizes) <= 1
    assert state.widow == 0 and state.turned >= 0


def test_poch_shows_each_bettor_his_best_set_not_five_cards() -> None:
    # STOPS.md, Poch: "sets rank quads > trips > pairs, higher rank wins": a hand is its
    # best set, so the view names that set (or none), never a five-card poker hand.
    seen = 0
    for seed in range(40):
        state = dealt("poch", 4, {}, seed)
        seat = state.current_player()
        if seat < 0:
            continue
        view = state.view(seat)
        if view["phase"] != "betting":
            continue
        ranks = [card[:-1] for card in view["hand"]]
        counts = {rank: ranks.count(rank) for rank in ranks}
        best = max(counts.values())
        shown = view.get("poker_hand")
        if best < 2:
            assert shown is None
            continue
        seen += 1
        names = {2: "pair", 3: "three of a kind", 4: "four of a kind"}
        assert shown["name"] == names[best]
        assert len(shown["cards"]) == best and len({c[:-1] for c in shown["cards"]}) == 1
    assert seen > 0
