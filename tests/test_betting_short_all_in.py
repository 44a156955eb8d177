"""The short all-in by limit (``games/rummoli/betting.py``, ``docs/rules.md``).

Fixed limit (Robert's Rules of Poker): an all-in of at least half a bet counts as a full
raise, reopens the betting and counts as one of the raises; one of less does not, unless
the player who already acted faces a full bet by his turn (several short all-ins). No
limit and pot limit: a short all-in never reopens the betting for players who acted. The
golden files 46, 46b, 47, 47b and 47c play the same rules through whole rounds.
"""

from __future__ import annotations

import pytest

from rummoli.games.rummoli.betting import FIXED_LIMIT_BETS, NO_LIMIT, POT_LIMIT, Betting


def table(limit: int, chips: list[int]) -> tuple[Betting, list[int]]:
    return Betting(list(range(len(chips))), len(chips), limit), chips


@pytest.mark.parametrize(
    ("all_in", "reopens"),
    [(15, True), (16, True), (20, True), (14, False), (11, False)],
)
def test_fixed_limit_half_a_bet_reopens(all_in: int, reopens: bool) -> None:
    betting, chips = table(10, [100, all_in, 100])
    betting.put_in(0, 10, chips)  # Ann bets 10
    betting.put_in(1, all_in, chips)  # Bob all-in
    assert chips[1] == 0
    betting.put_in(2, all_in, chips)  # Cy calls
    totals = betting.raise_range(0, chips, pot=0)
    assert (list(totals) == [all_in + 10]) is reopens
    assert betting.bets_made == (2 if reopens else 1)


def test_fixed_limit_odd_bet_half_rounds_up() -> None:
    """Half of 5 is 2.5: an all-in raise of 3 counts, one of 2 does not."""
    for raise_by, reopens in ((3, True), (2, False)):
        betting, chips = table(5, [100, 5 + raise_by, 100])
        betting.put_in(0, 5, chips)
        betting.put_in(1, 5 + raise_by, chips)
        betting.put_in(2, 5 + raise_by, chips)
        assert bool(betting.raise_range(0, chips, 0)) is reopens


def test_fixed_limit_short_all_ins_that_add_up_to_a_full_bet() -> None:
    """Ann bets 10; Bob, Cy and Dee go all-in to 14, 18 and 22 (each 4 more: short); Eve
    calls 22. Ann faces 12 more, at least a full bet, so she may raise again (to 32)."""
    betting, chips = table(10, [100, 14, 18, 22, 100])
    betting.put_in(0, 10, chips)
    for seat, total in ((1, 14), (2, 18), (3, 22)):
        betting.put_in(seat, total, chips)
    betting.put_in(4, 22, chips)
    assert betting.bets_made == 1
    assert list(betting.raise_range(0, chips, 0)) == [32]
    # Had only two of them gone all-in (Ann faces 8), she could not.
    betting, chips = table(10, [100, 14, 18, 100])
    betting.put_in(0, 10, chips)
    betting.put_in(1, 14, chips)
    betting.put_in(2, 18, chips)
    betting.put_in(3, 18, chips)
    assert not betting.raise_range(0, chips, 0)


def test_fixed_limit_a_half_bet_all_in_uses_up_one_of_the_bets() -> None:
    betting, chips = table(10, [100, 100, 25])
    betting.put_in(0, 10, chips)
    betting.put_in(1, 20, chips)
    assert list(betting.raise_range(2, chips, 0)) == [25]  # all he has: half a bet over 20
    betting.put_in(2, 25, chips)
    assert betting.bets_made == 3
    betting.put_in(0, 35, chips)  # the fourth and last bet
    assert not betting.raise_range(1, chips, 0)


@pytest.mark.parametrize("limit", [NO_LIMIT, POT_LIMIT])
def test_no_limit_and_pot_limit_short_all_in_never_reopens(limit: int) -> None:
    """Bet 10, all-in to 19 (9 more, short of the 10 a raise needs): no reopening, even
    though 9 is far more than half a raise."""
    betting, chips = table(limit, [100, 19, 100])
    betting.put_in(0, 10, chips)
    betting.put_in(1, 19, chips)
    betting.put_in(2, 19, chips)
    assert not betting.raise_range(0, chips, pot=100)
    # A full raise (to 20 or more) does reopen.
    betting, chips = table(limit, [100, 20, 100])
    betting.put_in(0, 10, chips)
    betting.put_in(1, 20, chips)
    betting.put_in(2, 20, chips)
    assert betting.raise_range(0, chips, pot=100)


def test_fixed_limit_cap_still_holds() -> None:
    betting, chips = table(10, [100, 100])
    for bet in range(FIXED_LIMIT_BETS):
        betting.put_in(bet % 2, 10 * (bet + 1), chips)
    assert not betting.raise_range(0, chips, 0)
