"""Short all-ins by limit, as Robert's Rules of Poker say (``games/rummoli/betting.py``,
quoted in ``docs/rules.md``), and the heads-up raise cap.

Fixed limit N: an all-in of at least half a bet over the last full bet counts as a full
bet (it reopens the betting and is one of the bet and three raises; the next raise goes N
above it); one of less does not, and the next player may fold, call or complete the bet
(raise to the last full bet plus N). No limit and pot limit: the minimum raise stays the
last full raise over the high bet. Under every limit a player who has acted may raise
again only if he faces a full raise by his turn (a fixed limit: half a bet), whether one
raise or several short all-ins made it. The legacy rules (rules version 1) are kept for old
records. Golden files 46, 46b, 47, 47b, 47c, 47d, 47e, 47f, 47g and 68 play the same rules
through whole rounds.
"""

from __future__ import annotations

import pytest

from rummoli.games.stops.betting import FIXED_LIMIT_BETS, NO_LIMIT, POT_LIMIT, Betting


def table(
    limit: int, chips: list[int], *, heads_up: bool = False, legacy: bool = False
) -> tuple[Betting, list[int]]:
    return Betting(list(range(len(chips))), len(chips), limit, heads_up, legacy), chips


# --------------------------------------------------------------------------- fixed limit


@pytest.mark.parametrize(
    ("all_in", "reopens"),
    [(15, True), (16, True), (20, True), (14, False), (11, False)],
)
def test_fixed_limit_half_a_bet_reopens(all_in: int, reopens: bool) -> None:
    """Bet 10, an all-in to ``all_in``: half a bet (5) or more over 10 is a full bet, and
    Ann may raise a full 10 over it ("raising a $15 all-in bet to $35" on a $20 round)."""
    betting, chips = table(10, [100, all_in, 100])
    betting.put_in(0, 10, chips)  # Ann bets 10
    betting.put_in(1, all_in, chips)  # Bob all-in
    assert chips[1] == 0
    betting.put_in(2, all_in, chips)  # Cy calls
    totals = betting.raise_range(0, chips, pot=0)
    assert (list(totals) == [all_in + 10]) is reopens
    assert not totals or reopens
    assert betting.bets_made == (2 if reopens else 1)


def test_fixed_limit_odd_bet_half_rounds_up() -> None:
    """Half of 5 is 2.5: an all-in raise of 3 counts, one of 2 does not."""
    for raise_by, reopens in ((3, True), (2, False)):
        betting, chips = table(5, [100, 5 + raise_by, 100])
        betting.put_in(0, 5, chips)
        betting.put_in(1, 5 + raise_by, chips)
        betting.put_in(2, 5 + raise_by, chips)
        assert bool(betting.raise_range(0, chips, 0)) is reopens


def test_fixed_limit_opening_all_in_under_half_a_bet_is_completed() -> None:
    """Limit 10, Ann opens all-in for 4: Bob may fold, call 4, or complete the bet to 10
    (Robert's Rules: "may fold, call, or complete the wager"), not raise to 14."""
    betting, chips = table(10, [4, 100, 100])
    betting.put_in(0, 4, chips)
    assert betting.bets_made == 0  # not a bet yet
    assert list(betting.raise_range(1, chips, 0)) == [10]
    betting.put_in(1, 10, chips)
    assert betting.bets_made == 1  # the completed bet is the opening bet
    assert list(betting.raise_range(2, chips, 0)) == [20]


def test_fixed_limit_raise_over_a_short_all_in_goes_a_bet_over_the_last_full_bet() -> None:
    """Limit 10: a bet of 10 and an all-in to 12; the next raise goes to 20, not 22."""
    betting, chips = table(10, [100, 12, 100])
    betting.put_in(0, 10, chips)
    betting.put_in(1, 12, chips)
    assert list(betting.raise_range(2, chips, 0)) == [20]
    betting.put_in(2, 20, chips)
    assert betting.bets_made == 2
    assert list(betting.raise_range(0, chips, 0)) == [30]  # Ann faces a full raise


def test_fixed_limit_short_all_ins_that_add_up_to_half_a_bet() -> None:
    """Ann bets 10; Bob all-in to 13 (3 over 10: short), Cy calls 13, Dee all-in to 16
    (6 over the last full bet 10: several all-ins adding up to half a bet count as a full
    bet), Eve calls. Ann faces 6 more: reopened, she may raise to 26; Cy faces 3, less than
    half a bet: not reopened for him (TDA 47: "for players who have already acted")."""
    betting, chips = table(10, [100, 13, 100, 16, 100])
    betting.put_in(0, 10, chips)
    betting.put_in(1, 13, chips)
    betting.put_in(2, 13, chips)
    assert betting.bets_made == 1
    betting.put_in(3, 16, chips)
    assert betting.bets_made == 2 and betting.full == 16
    betting.put_in(4, 16, chips)
    assert list(betting.raise_range(0, chips, 0)) == [26]
    assert not betting.raise_range(2, chips, 0)


def test_fixed_limit_a_half_bet_all_in_uses_up_one_of_the_bets() -> None:
    betting, chips = table(10, [100, 100, 25])
    betting.put_in(0, 10, chips)
    betting.put_in(1, 20, chips)
    assert list(betting.raise_range(2, chips, 0)) == [25]  # all he has: half a bet over 20
    betting.put_in(2, 25, chips)
    assert betting.bets_made == 3
    betting.put_in(0, 35, chips)  # the fourth and last bet
    assert not betting.raise_range(1, chips, 0)


def test_fixed_limit_cap_still_holds() -> None:
    betting, chips = table(10, [100, 100])
    for bet in range(FIXED_LIMIT_BETS):
        betting.put_in(bet % 2, 10 * (bet + 1), chips)
    assert not betting.raise_range(0, chips, 0)


# --------------------------------------------------------------------------- heads-up


def test_heads_up_unlimited_raises() -> None:
    """Robert's Rules: "Unlimited raising is allowed in heads-up play"."""
    betting, chips = table(10, [100, 100], heads_up=True)
    for bet in range(FIXED_LIMIT_BETS + 3):
        assert list(betting.raise_range(bet % 2, chips, 0)) == [10 * (bet + 1)]
        betting.put_in(bet % 2, 10 * (bet + 1), chips)
    assert betting.bets_made == FIXED_LIMIT_BETS + 3


def test_heads_up_once_capped_stays_capped() -> None:
    """ "Once the raising is capped on a betting round, it cannot be uncapped by a
    subsequent fold that leaves two players heads-up."""
    betting, chips = table(10, [100, 100, 100], heads_up=True)
    for bet in range(FIXED_LIMIT_BETS):
        betting.put_in(bet % 3, 10 * (bet + 1), chips)  # Ann, Bob, Cy, Ann: capped at 40
    assert betting.capped
    betting.folded[1] = True  # Bob folds: heads-up, but capped
    assert not betting.raise_range(2, chips, 0)


def test_heads_up_counts_the_players_not_all_in() -> None:
    """Three in the pot, one of them all-in: the raising is heads-up ("a pot involving
    three or more players who are not all-in" is the capped one)."""
    betting, chips = table(10, [100, 5, 100], heads_up=True)
    betting.put_in(0, 10, chips)
    betting.put_in(1, 5, chips)  # Bob calls all-in for less
    for bet in range(1, FIXED_LIMIT_BETS):
        betting.put_in(2 if bet % 2 else 0, 10 * (bet + 1), chips)
    assert betting.bets_made == FIXED_LIMIT_BETS and not betting.capped
    assert list(betting.raise_range(0, chips, 0)) == [50]  # Cy made the fourth bet


def test_heads_up_capped_by_default() -> None:
    betting, chips = table(10, [100, 100])
    for bet in range(FIXED_LIMIT_BETS):
        betting.put_in(bet % 2, 10 * (bet + 1), chips)
    assert not betting.raise_range(0, chips, 0)


# --------------------------------------------------------------------------- no limit


@pytest.mark.parametrize("limit", [NO_LIMIT, POT_LIMIT])
def test_short_all_ins_that_add_up_to_a_full_raise_reopen(limit: int) -> None:
    """Bet 10, all-in 15, all-in 20, call: Ann faces 10 more, a full raise, so she may
    raise (at least a full raise over 20: to 30). Robert's Rules, no limit rule 6:
    "Multiple all-in wagers ... still act as a raise and reopen the betting"."""
    betting, chips = table(limit, [100, 15, 20, 100])
    betting.put_in(0, 10, chips)
    betting.put_in(1, 15, chips)
    betting.put_in(2, 20, chips)
    betting.put_in(3, 20, chips)
    totals = betting.raise_range(0, chips, pot=200)
    assert totals and totals.start == 30


@pytest.mark.parametrize("limit", [NO_LIMIT, POT_LIMIT])
def test_short_all_in_short_of_a_full_raise_does_not_reopen(limit: int) -> None:
    """Bet 10, all-in to 19 (9 more, short of the 10 a raise needs): no reopening, even
    though 9 is far more than half a raise (the half-bet rule is for limit poker only)."""
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


def test_no_limit_tda_example() -> None:
    """TDA rule 47, example 1: A opens 100, B all-in 125, C calls, D all-in 200, E calls.
    A faces 100, a full raise: he may raise (to at least 300, the last full bet over the
    high). C faces 75: not reopened for him."""
    betting, chips = table(NO_LIMIT, [1000, 125, 1000, 200, 1000])
    betting.put_in(0, 100, chips)
    betting.put_in(1, 125, chips)
    betting.put_in(2, 125, chips)
    betting.put_in(3, 200, chips)
    betting.put_in(4, 200, chips)
    assert betting.raise_range(0, chips, 0).start == 300
    assert not betting.raise_range(2, chips, 0)


def test_no_limit_minimum_raise_over_a_short_all_in() -> None:
    """ "If a player bets $100 and the next player goes all-in for $140, a player wishing
    to raise must make the total bet at least $240"."""
    betting, chips = table(NO_LIMIT, [1000, 140, 1000])
    betting.put_in(0, 100, chips)
    betting.put_in(1, 140, chips)
    assert betting.raise_range(2, chips, 0).start == 240


def test_no_limit_the_raiser_raised_only_by_a_short_all_in_may_not_raise() -> None:
    """Robert's Rules' example: A bets 100, B raises to 200, C all-in for less than 300,
    A calls: B has no option to raise again ("he wasn't fully raised"); A could have."""
    betting, chips = table(NO_LIMIT, [1000, 1000, 250])
    betting.put_in(0, 100, chips)
    betting.put_in(1, 200, chips)
    betting.put_in(2, 250, chips)
    assert betting.raise_range(0, chips, 0).start == 350
    betting.put_in(0, 250, chips)
    assert not betting.raise_range(1, chips, 0)


# --------------------------------------------------------------------------- legacy


def test_legacy_rules_of_version_1() -> None:
    """Records of rules version 1 replay as they were played: a fixed-limit raise went a
    bet over the high bet (14 over an all-in of 4), and no limit's short all-ins never
    reopened the betting."""
    betting, chips = table(10, [4, 100, 100], legacy=True)
    betting.put_in(0, 4, chips)
    assert list(betting.raise_range(1, chips, 0)) == [14]
    betting, chips = table(10, [100, 12, 100], legacy=True)
    betting.put_in(0, 10, chips)
    betting.put_in(1, 12, chips)
    assert list(betting.raise_range(2, chips, 0)) == [22]
    betting, chips = table(NO_LIMIT, [100, 15, 20, 100], legacy=True)
    for seat, total in ((0, 10), (1, 15), (2, 20), (3, 20)):
        betting.put_in(seat, total, chips)
    assert not betting.raise_range(0, chips, 0)
