"""Playing one chunk: whole games between bots, every round tallied from its events.

This is the hot loop of a simulation, so it adds as little as it can to the engine's own
work: per decision one observation (what the seat may see, the only thing a bot gets),
one ``legal_actions()`` and one ``apply``; per round one pass over the events the engine
returned anyway, updating integer counters.

How rounds are counted (documented in ``docs/analysis.md``): a chunk plays games one
after another, each a fresh ``StopsState.new_game``, and counts their rounds; when a
game ends (the rules' ``rounds`` limit, or fewer than two players can pay the ante) the
next one starts; when the chunk's quota of rounds is reached the game in progress is cut
short after its round, without the settlement. With ``full_table`` a game also ends,
without the settlement and before the round is played, as soon as a player is out, so
that every round counted was played by every seat.
"""

from __future__ import annotations

from itertools import compress
from operator import itemgetter, sub
from typing import Final

from rummoli.bots import Bot, BotError, make_bot
from rummoli.engine.base import CHANCE_ACTION, TERMINAL, Event, IllegalActionError
from rummoli.games.stops.state import StopsState
from rummoli.games.stops.view import build_observation
from rummoli.sim.spec import Chunk
from rummoli.sim.stats import Histogram
from rummoli.sim.stops.stats import SimStats

#: Rounds of the sample game kept for the "chips over time" chart.
SAMPLE_ROUNDS: Final = 500

#: Event kinds some figure needs (about one event in five of a round; the rest are lays,
#: stops, hands, antes...). They are picked out of a round's events at C speed
#: (``compress`` over a set lookup of each kind), so the others cost no Python step.
_NEEDED: Final = frozenset(
    (
        "space", "call", "raise", "returned", "poker_pot", "pays", "round_won", "show",
        "fold", "deadlock", "exchange", "bought", "no_bid", "widow_dead", "claim",
        "turn_pays",
    )
)  # fmt: skip
_KIND: Final = itemgetter(0)


class _Tally:
    """Turns the events of each round into the counters of a :class:`SimStats`.

    Chips won per round are summed in plain lists during a game and added to the
    :class:`Moments` of each bot, seat, level and position when the game ends: the
    same integers, with a few list updates a round instead of dozens of attribute
    updates.
    """

    __slots__ = (
        "betting",
        "gaps",
        "kitty",
        "last_paid",
        "level_of",
        "level_sq",
        "level_total",
        "payouts",
        "pos_n",
        "pos_sq",
        "pos_total",
        "rounds",
        "seat_sq",
        "seat_total",
        "single_level",
        "space_index",
        "stats",
        "unpaid",
    )

    def __init__(self, stats: SimStats, bots: tuple[str, ...], betting: bool, kitty: int) -> None:
        self.stats = stats
        self.level_of = [stats.levels.index(level) for level in bots]
        self.single_level = len(stats.levels) == 1
        self.betting = betting
        spaces = stats.spaces
        self.space_index = {name: i for i, name in enumerate(spaces)}
        #: The kitty the first player out takes (-1: the board has none).
        self.kitty = kitty
        self.payouts: list[Histogram] = [stats.space[name].payouts for name in spaces]
        self.gaps: list[Histogram] = [stats.space[name].gaps for name in spaces]
        self.unpaid: list[Histogram] = [stats.space[name].unpaid_at_end for name in spaces]
        #: The round of the current game in which each space was last emptied.
        self.last_paid = [0] * len(spaces)
        seats = stats.seats
        # Sums of the current game, added to the stats' Moments by ``flush``.
        self.rounds = 0
        self.seat_total = [0] * seats
        self.seat_sq = [0] * seats
        self.level_total = [0] * len(stats.levels)
        self.level_sq = [0] * len(stats.levels)
        self.pos_n = [0] * seats
        self.pos_total = [0] * seats
        self.pos_sq = [0] * seats

    def new_game(self) -> None:
        self.last_paid = [0] * len(self.last_paid)

    def end_game(self, board: list[int], round_no: int) -> None:
        """The game is over or cut short: spaces still holding chips never paid."""
        for space, chips in enumerate(board):
            if chips:
                hist = self.unpaid[space]
                age = round_no - self.last_paid[space]
                hist[age] = hist.get(age, 0) + 1

    def flush(self, seat_bot: list[int]) -> None:
        """Add the current game's sums to the stats (``seat_bot``: the game's seating)."""
        stats = self.stats
        rounds = self.rounds
        if not rounds:
            return
        for seat, bot in enumerate(seat_bot):
            total, squares = self.seat_total[seat], self.seat_sq[seat]
            for m in (stats.bots[bot], stats.by_seat[seat]):
                m.n += rounds
                m.total += total
                m.squares += squares
        for level, m in enumerate(stats.by_level):
            m.n += rounds
            m.total += self.level_total[level]
            m.squares += self.level_sq[level]
        dealt = stats.dealt_in
        for position, m in enumerate(stats.by_position):
            count = self.pos_n[position]
            m.n += count
            m.total += self.pos_total[position]
            m.squares += self.pos_sq[position]
            dealt.n += count
            dealt.total += self.pos_total[position]
            dealt.squares += self.pos_sq[position]
        # The next game's sums start from zero (in place: the lists are the tally's own).
        self.rounds = 0
        for sums in (
            self.seat_total,
            self.seat_sq,
            self.level_total,
            self.level_sq,
            self.pos_n,
            self.pos_total,
            self.pos_sq,
        ):
            sums[:] = [0] * len(sums)

    def _paid(self, space: int, chips: int, round_no: int) -> None:
        hist = self.payouts[space]
        hist[chips] = hist.get(chips, 0) + 1
        gap = round_no - self.last_paid[space]
        hist = self.gaps[space]
        hist[gap] = hist.get(gap, 0) + 1
        self.last_paid[space] = round_no

    def round(
        self,
        state: StopsState,
        events: list[Event],
        before: list[int],
        board_before: int,
        seat_bot: list[int],
    ) -> None:
        """Count one finished round: ``before`` are the chips before its ante."""
        stats = self.stats
        stats.rounds += 1
        self.rounds += 1
        won = list(map(sub, state.chips, before))
        seat_total = self.seat_total
        seat_sq = self.seat_sq
        for seat, chips in enumerate(won):
            seat_total[seat] += chips
            seat_sq[seat] += chips * chips
        level_total = self.level_total
        level_sq = self.level_sq
        if self.single_level:
            total = sum(won)
            level_total[0] += total
            level_sq[0] += total * total
        else:
            by_level = [0] * len(level_total)
            level_of = self.level_of
            for seat, bot in enumerate(seat_bot):
                by_level[level_of[bot]] += won[seat]
            for level, total in enumerate(by_level):
                level_total[level] += total
                level_sq[level] += total * total
        n = stats.seats
        dealer = state.dealer
        pos_n = self.pos_n
        pos_total = self.pos_total
        pos_sq = self.pos_sq
        for seat in state.in_round:
            chips = won[seat]
            position = (seat - dealer) % n
            pos_n[position] += 1
            pos_total[position] += chips
            pos_sq[position] += chips * chips
        stats.board_change += sum(state.board) - board_before

        round_no = state.round_no
        poker_taken = bets = collected = 0
        shown = bought = won_round = False
        taker = -1
        for event in compress(events, map(_NEEDED.__contains__, map(_KIND, events))):
            kind = event[0]
            if kind == "space" or kind == "claim" or kind == "turn_pays":
                self._paid(self.space_index[event[2]], event[3], round_no)
            elif kind == "call" or kind == "raise":
                bets += event[3]
            elif kind == "returned":
                bets -= event[2]
            elif kind == "poker_pot":
                poker_taken += event[4] * len(event[3])
            elif kind == "pays":
                collected += event[3]
            elif kind == "round_won":
                won_round = True
                if self.kitty >= 0:
                    self._paid(self.kitty, event[2], round_no)
            elif kind == "show":
                shown = True
            elif kind == "fold":
                stats.folds += 1
            elif kind == "deadlock":
                stats.deadlocks += 1
            elif kind == "exchange":
                taker = event[1]
            elif kind == "bought":
                bought = True
                stats.widow_bought += 1
                stats.winning_bid.add(event[2])
            elif kind == "no_bid":
                stats.widow_no_bid += 1
            elif kind == "widow_dead":
                stats.widow_dead += 1
        if poker_taken:  # (poker is the first space of a board that has one)
            self._paid(0, poker_taken, round_no)
        stats.poker_pot.add(poker_taken)
        if self.betting:
            stats.poker_bets.add(bets)
        if shown:
            stats.showdowns += 1
        if won_round:
            stats.rounds_won += 1
            stats.collected.add(collected)
        if taker >= 0:
            chips = won[taker]
            if bought:
                stats.taker_bought.add(chips)
            else:
                stats.widow_exchanged += 1
                stats.taker_exchanged.add(chips)


def play_chunk(chunk: Chunk) -> SimStats:
    """Play one chunk to its quota of rounds or games and return what it counted."""
    spec = chunk.spec
    plan = spec.rules.layout()
    stats = SimStats.empty(spec.seats, plan.names, spec.levels)
    bots = [make_bot(level, chunk.bot_seed(i), spec.game) for i, level in enumerate(spec.bots)]
    kitty = len(plan.spaces) - 1 if plan.has_kitty else -1
    tally = _Tally(stats, spec.bots, plan.poker == "betting", kitty)

    def play_game(game: int, seat_bot: list[int], limit: int) -> int:
        sample = chunk.index == 0 and game == 0
        played = _play_game(chunk, game, bots, seat_bot, tally, limit, sample)
        tally.flush(seat_bot)
        return played

    chunk.play(stats, play_game)
    return stats


def _play_game(
    chunk: Chunk,
    game: int,
    bots: list[Bot],
    seat_bot: list[int],
    tally: _Tally,
    limit: int,
    sample: bool,
) -> int:
    """Play one game (cut short after ``limit`` rounds if ``limit``); returns its rounds."""
    spec = chunk.spec
    stats = tally.stats
    names = [f"P{seat + 1}" for seat in range(spec.seats)]
    state = StopsState.new_game(names, spec.rules, chunk.game_seed(game))
    stats.games_started += 1
    tally.new_game()
    players = [bots[bot] for bot in seat_bot]
    if sample:
        stats.sample_chips = [tuple(state.chips)]
        stats.sample_bots = tuple(seat_bot)
        stats.sample_chunk = chunk.index
    apply = state.apply
    legal_actions = state.legal_actions
    observe = build_observation
    full_table = spec.full_table
    rounds = 0
    while True:
        before = state.chips[:]
        board = state.board[:]
        board_before = sum(board)
        events = apply(CHANCE_ACTION)
        if state.to_move == TERMINAL:
            _settled(stats, state, before, board, seat_bot)
            tally.end_game(board, state.round_no)
            return rounds
        if full_table and len(state.in_round) < spec.seats:
            # A player is out: this round is not at a full table, so it is not played;
            # the game ends here like one cut short, without the settlement.
            stats.board_left += board_before
            tally.end_game(board, state.round_no - 1)
            return rounds
        while state.to_move >= 0:
            seat = state.to_move
            legal = legal_actions()
            action = players[seat].choose(observe(state, seat), legal).action
            try:
                events += apply(action)
            except IllegalActionError:
                raise BotError(
                    f"{type(players[seat]).__name__} ({spec.bots[seat_bot[seat]]}) chose "
                    f"{action!r}, which is not legal (legal: {legal[:12]})"
                ) from None
        tally.round(state, events, before, board_before, seat_bot)
        rounds += 1
        if sample and rounds <= SAMPLE_ROUNDS:
            stats.sample_chips.append(tuple(state.chips))
        if limit and rounds >= limit:
            stats.board_left += sum(state.board)
            tally.end_game(state.board, state.round_no)
            return rounds


def _settled(
    stats: SimStats, state: StopsState, before: list[int], board: list[int], seat_bot: list[int]
) -> None:
    """The game ended: count the settlement of the board apart from the rounds."""
    stats.games_finished += 1
    stats.board_settled += sum(board) - sum(state.board)
    for seat, bot in enumerate(seat_bot):
        stats.settlement[bot].add(state.chips[seat] - before[seat])
    length = state.round_no
    stats.game_lengths[length] = stats.game_lengths.get(length, 0) + 1
