"""Playing one chunk: whole games between bots, every round tallied from its events.

This is the hot loop of a simulation, so it adds as little as it can to the engine's own
work: per decision one observation (what the seat may see, the only thing a bot gets),
one ``legal_actions()`` and one ``apply``; per round one pass over the events the engine
returned anyway, updating integer counters.

How rounds are counted (documented in ``docs/analysis.md``): a chunk plays games one
after another, each a fresh ``RummoliState.new_game``, and counts their rounds; when a
game ends (the rules' ``rounds`` limit, or fewer than two players can pay the ante) the
next one starts; when the chunk's quota of rounds is reached the game in progress is cut
short after its round, without the settlement. With ``full_table`` a game also ends,
without the settlement and before the round is played, as soon as a player is out, so
that every round counted was played by every seat.
"""

from __future__ import annotations

from rummoli.bots import Bot, BotError, make_bot
from rummoli.engine.base import CHANCE_ACTION, TERMINAL, Event, IllegalActionError
from rummoli.games.rummoli import RummoliState
from rummoli.games.rummoli.view import build_observation
from rummoli.sim.spec import ROUNDS, Chunk
from rummoli.sim.stats import Histogram, SimStats

#: Rounds of the sample game kept for the "chips over time" chart.
SAMPLE_ROUNDS = 500

#: Event kinds no figure needs (about four in five events of a round, most of them lays):
#: one set lookup skips each.
_SKIP = frozenset(
    (
        "lay", "stop", "hand", "ante", "blocked", "pass", "duty_passes", "dealer",
        "widow_dealt", "leads", "round_over", "keep", "cut", "deadlock_pays", "out",
        "bid", "check", "unclaimed", "deadlock_continue",
    )
)  # fmt: skip


class _Tally:
    """Turns the events of each round into the counters of a :class:`SimStats`."""

    __slots__ = (
        "gaps",
        "last_paid",
        "level_of",
        "payouts",
        "rummoli",
        "space_index",
        "stats",
        "unpaid",
    )

    def __init__(self, stats: SimStats, bots: tuple[str, ...]) -> None:
        self.stats = stats
        self.level_of = [stats.levels.index(level) for level in bots]
        spaces = stats.spaces
        self.space_index = {name: i for i, name in enumerate(spaces)}
        self.rummoli = self.space_index["rummoli"]
        self.payouts: list[Histogram] = [stats.space[name].payouts for name in spaces]
        self.gaps: list[Histogram] = [stats.space[name].gaps for name in spaces]
        self.unpaid: list[Histogram] = [stats.space[name].unpaid_at_end for name in spaces]
        #: The round of the current game in which each space was last emptied.
        self.last_paid = [0] * len(spaces)

    def new_game(self) -> None:
        self.last_paid = [0] * len(self.last_paid)

    def end_game(self, board: list[int], round_no: int) -> None:
        """The game is over or cut short: spaces still holding chips never paid."""
        for space, chips in enumerate(board):
            if chips:
                hist = self.unpaid[space]
                age = round_no - self.last_paid[space]
                hist[age] = hist.get(age, 0) + 1

    def _paid(self, space: int, chips: int, round_no: int) -> None:
        hist = self.payouts[space]
        hist[chips] = hist.get(chips, 0) + 1
        gap = round_no - self.last_paid[space]
        hist = self.gaps[space]
        hist[gap] = hist.get(gap, 0) + 1
        self.last_paid[space] = round_no

    def round(
        self,
        state: RummoliState,
        events: list[Event],
        before: list[int],
        board_before: int,
        seat_bot: list[int],
    ) -> None:
        """Count one finished round: ``before`` are the chips before its ante."""
        stats = self.stats
        stats.rounds += 1
        after = state.chips
        bots = stats.bots
        by_seat = stats.by_seat
        level_of = self.level_of
        by_level = [0] * len(stats.levels)
        for seat, bot in enumerate(seat_bot):
            won = after[seat] - before[seat]
            by_level[level_of[bot]] += won
            m = bots[bot]
            m.n += 1
            m.total += won
            m.squares += won * won
            m = by_seat[seat]
            m.n += 1
            m.total += won
            m.squares += won * won
        for m, won in zip(stats.by_level, by_level, strict=True):
            m.n += 1
            m.total += won
            m.squares += won * won
        n = stats.seats
        dealer = state.dealer
        by_position = stats.by_position
        dealt = stats.dealt_in
        for seat in state.in_round:
            won = after[seat] - before[seat]
            m = by_position[(seat - dealer) % n]
            m.n += 1
            m.total += won
            m.squares += won * won
            dealt.n += 1
            dealt.total += won
            dealt.squares += won * won
        stats.board_change += sum(state.board) - board_before

        round_no = state.round_no
        poker_taken = bets = collected = 0
        shown = bought = won_round = False
        taker = -1
        for event in events:
            kind = event[0]
            if kind in _SKIP:
                continue
            if kind == "space":
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
                self._paid(self.rummoli, event[2], round_no)
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
        if poker_taken:  # (poker is the first space of every board)
            self._paid(0, poker_taken, round_no)
        stats.poker_pot.add(poker_taken)
        if state.rules.poker == "betting":
            stats.poker_bets.add(bets)
        if shown:
            stats.showdowns += 1
        if won_round:
            stats.rounds_won += 1
            stats.collected.add(collected)
        if taker >= 0:
            won = after[taker] - before[taker]
            if bought:
                stats.taker_bought.add(won)
            else:
                stats.widow_exchanged += 1
                stats.taker_exchanged.add(won)


def play_chunk(chunk: Chunk) -> SimStats:
    """Play one chunk to its quota of rounds or games and return what it counted."""
    spec = chunk.spec
    stats = SimStats.empty(spec.seats, spec.spaces, spec.levels)
    stats.chunks = 1
    bots = [make_bot(level, chunk.bot_seed(i)) for i, level in enumerate(spec.bots)]
    tally = _Tally(stats, spec.bots)
    counting_rounds = spec.mode == ROUNDS
    game = 0
    while (stats.rounds if counting_rounds else game) < chunk.quota:
        shift = chunk.rotation(game)
        # Bot i sits in seat (i + shift) % seats, so seat s holds bot (s - shift) % seats.
        seat_bot = [(seat - shift) % spec.seats for seat in range(spec.seats)]
        limit = chunk.quota - stats.rounds if counting_rounds else 0
        sample = chunk.index == 0 and game == 0
        played = _play_game(chunk, game, bots, seat_bot, tally, limit, sample)
        for seat, bot in enumerate(seat_bot):
            stats.bot_seat_rounds[bot][seat] += played
        game += 1
    stats.per_chunk[chunk.index] = (stats.rounds, tuple(m.total for m in stats.bots))
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
    state = RummoliState.new_game(names, spec.rules, chunk.game_seed(game))
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
    stats: SimStats, state: RummoliState, before: list[int], board: list[int], seat_bot: list[int]
) -> None:
    """The game ended: count the settlement of the board apart from the rounds."""
    stats.games_finished += 1
    stats.board_settled += sum(board) - sum(state.board)
    for seat, bot in enumerate(seat_bot):
        stats.settlement[bot].add(state.chips[seat] - before[seat])
    length = state.round_no
    stats.game_lengths[length] = stats.game_lengths.get(length, 0) + 1
