"""``rummoli play --game rummy``: Basic Rummy against computer players, in a plain terminal.

The loop is the one of Rummoli's table (:mod:`rummoli.tui.stops.play`): chance steps are taken
at once, computer players decide through :func:`rummoli.bots.ask_bot` from their seat's
observation, and the human gets the table drawn from seat 0's view
(:mod:`.rummy_render`), the sentences for the events seat 0 may see
(:mod:`.rummy_narrate`), and a prompt where the moves are typed (:mod:`.rummy_input`).
The console and the input function are parameters, so tests play whole matches.

The computer players' levels are the ones :func:`rummoli.bots.levels_for` lists for Rummy,
read when the table is set up, so a level added there is playable here at once. Unless
told otherwise every computer player plays the strongest of them, and ``hint`` asks that
level too, from the human's own view; while Rummy has only the random player, there is no
hint (a random move is no advice).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from rummoli.bots import ask_bot, levels_for, make_bot
from rummoli.games.registry import describe
from rummoli.games.rummy import Rules, RummyState
from rummoli.games.rummy import actions as act
from rummoli.games.rummy.view import events_for
from rummoli.i18n import N_, _, nformat
from rummoli.tui.cards import card, pack
from rummoli.tui.options import hint_text, parse_house_rules
from rummoli.tui.phrases import fill
from rummoli.tui.rummy import render
from rummoli.tui.rummy.input import TableCommand, move_text, parse_line
from rummoli.tui.rummy.narrate import RummyNarrator
from rummoli.tui.rummy.summary import HandTally
from rummoli.tui.table import Quit, ReadLine, TableLoop, start_table
from rummoli.tui.table import announce as table_announce

GAME = "rummy"
#: Seats at the table unless told otherwise: you and one computer player, 10 cards each.
DEFAULT_PLAYERS = 2

HELP = N_(
    """\
[bold]Draw:[/] [bold]s[/] the top card of the stock, [bold]t[/] the top card of the \
discard pile.
[bold]Then:[/] [bold]meld 7H 8H 9H[/] lays down a meld ([bold]m[/] for short), \
[bold]lay 5C on 2[/] lays 5C off on meld #2 ([bold]lay 5C[/] if it fits one meld only), \
and [bold]d KS[/] discards KS, which ends your turn. Cards: 7H, 10S or TS, QD, AC.
[bold]At any prompt:[/] [bold]?[/] your moves and a hint, [bold]hint[/] the hint alone, \
[bold]sort[/] hand by suit or by rank, [bold]pile[/] the whole discard pile, [bold]save[/] \
the match record, [bold]end[/] stop after this hand, [bold]q[/] quit now.
[bold]The game:[/] melds are 3-4 cards of a rank or 3+ in sequence of a suit, aces low \
(A-2-3, not Q-K-A). You may lay off on any meld. The card taken from the discard pile \
may not be discarded the same turn. The first out of cards wins the others' points \
(faces 10, aces 1), doubled for Going Rummy: all cards down in one turn."""
)


#: A score in a hint's reason (``discard 9S (+1.25)``, ``+0.40 against -0.75``).
_SCORE = re.compile(r"[+-]\d+\.\d\d")
#: What that score means, said under the hint.
SCORE_EXPLAINED = N_(
    "The number scores your hand after the move: minus the cards it cannot yet meld, plus "
    "how likely the next draws are to help. Higher is better."
)


# ---------------------------------------------------------------------- setting up


def default_level() -> str:
    """The level of every computer player unless told otherwise: the strongest there is
    (levels are listed weakest first)."""
    return list(levels_for(GAME))[-1]


def hint_level() -> str | None:
    """The level whose choice ``hint`` shows: the strongest, if it is more than random."""
    level = default_level()
    return None if level == "random" else level


def build_rules(items: Sequence[str]) -> Rules:
    """The table's Rummy rules from ``--rule NAME=VALUE`` items (``target=150``)."""
    rules: Rules = describe(GAME).rules(parse_house_rules(items))  # unknown names listed
    return rules


def run_rummy_play(
    *,
    players: int = DEFAULT_PLAYERS,
    rules: Sequence[str] = (),
    seed: int | None = None,
    name: str = "You",
    level: str | None = None,
    opponents: str | None = None,
    console: Console | None = None,
    read_line: ReadLine | None = None,
    save_dir: Path | None = None,
) -> int:
    """Set up a Rummy table and play; the exit code: 0 played, 2 bad settings, 130
    interrupted. ``level`` (default: :func:`default_level`) is every computer player's
    level, unless ``opponents`` names one per computer player, comma-separated."""
    console = console or Console(highlight=False)

    def announce(state: RummyState, levels: Sequence[str]) -> None:
        again = _("(play this deal again with --seed {seed}; h for help, ? for your moves)")
        target = nformat("to {n} point", "to {n} points", state.target)
        table_announce(
            console, state, describe(GAME), state.rules.changed(), levels, again, " ", target
        )

    return start_table(
        console,
        GAME,
        players=players,
        level=level or default_level(),
        opponents=opponents,
        name=name,
        seed=seed,
        rules=lambda: build_rules(rules),
        new_game=RummyState.new_game,
        announce=announce,
        play=lambda state, read, bots: play_rummy(state, console, read, bots, save_dir=save_dir),
        read_line=read_line,
    )


# ---------------------------------------------------------------------- the game loop


class _RummyTable(TableLoop[RummyState]):
    """One match at the terminal: the human's prompts, the narration and the summaries."""

    def _setup(self) -> None:
        self.narrator = RummyNarrator(self.me)
        self.tally = HandTally(self.me)
        self.order = render.BY_SUIT
        self.match_winner: str | None = None

    def _apply(self, action: int) -> None:
        """Apply one action and narrate what seat ``human`` may see of it."""
        state = self.state
        self.deal_ended = False
        for event in events_for(state.apply(action), self.human, state.names):
            self.narrator.feed(event)
            self.tally.feed(event)
            if event["type"] == "hand_over":
                self.deal_ended = True
            elif event["type"] == "game_over":
                self.match_winner = event["winner"]

    # ------------------------------------------------------------------ output

    def _flush_log(self) -> None:
        self._say(*self.narrator.take())

    def _view(self) -> dict[str, Any]:
        return self.state.view(self.human)

    # ------------------------------------------------------------------ the human

    def _ask_human(self) -> int:
        """Show the table and read until a legal move is typed."""
        self._flush_log()
        view = self._view()
        self._rule(render.header(view))
        self._say(*render.table(view, self.order), _prompt_line(view))
        while True:
            line = self._read("> ")
            try:
                choice = parse_line(line, view, self.state.rules.one_meld_per_turn)
            except ValueError as error:
                self._say(Text(str(error), style="red"))
                continue
            if isinstance(choice, TableCommand):
                self._command(choice, view)
            else:
                return choice

    def _command(self, command: TableCommand, view: dict[str, Any]) -> None:
        if command is TableCommand.QUIT:
            raise Quit
        if command is TableCommand.HELP:
            self._say(Text.from_markup(_(HELP)), *moves_lines(view))
        elif command is TableCommand.MOVES:
            self._say(*moves_lines(view), self._hint(view))
        elif command is TableCommand.HINT:
            self._say(self._hint(view))
        elif command is TableCommand.SORT:
            self.order = render.BY_RANK if self.order == render.BY_SUIT else render.BY_SUIT
            label = (
                _("Hand by suit") if self.order == render.BY_SUIT else _("Hand by rank")
            ) + "  "
            self._say(pack([render.hand(view["hand"], self.order)], label=label))
        elif command is TableCommand.PILE:
            self._say(render.pile_line(view))
        elif command is TableCommand.SAVE:
            self._save()
        elif command is TableCommand.END:
            self.state.request_end()
            self._say(Text(_("The match ends after this hand."), style="yellow"))

    def _hint(self, view: dict[str, Any]) -> Text:
        """The hint bot's choice for the human's decision, from the human's view only."""
        if self.hint_bot is None:
            level = hint_level()
            if level is None:
                return Text(
                    _("No hint: Rummy has only the random computer player so far."), style="dim"
                )
            self.hint_bot = make_bot(level, self.state.seed * 10 + self.human, game=GAME)
        decision = ask_bot(self.hint_bot, self.state, self.human)
        text = hint_text(decision, lambda action: move_text(action, view))
        if _SCORE.search(decision.reason):
            text.append("\n" + _(SCORE_EXPLAINED), style="dim")
        return text

    # ------------------------------------------------------------------ hands and the end

    def _hand_summary(self) -> None:
        self._flush_log()
        self._rule(Text(" " + _("Hand {n} over").format(n=self.state.hand_no) + " ", style="bold"))
        self._say(*self.tally.summary(), render.scores_line(self._view(), self.me))
        self.tally = HandTally(self.me)

    def _between_deals(self) -> None:
        """The hand's summary, then a pause so it can be read before the next deal."""
        self._hand_summary()
        self._pause(_("Enter: next hand, end: finish the match now, q: quit > "), _(HELP))

    def _finish(self) -> None:
        if self.deal_ended:
            self._hand_summary()
        self._flush_log()
        self._rule(Text(" " + _("Match over") + " ", style="bold"))
        self._say(render.standings(self._view()["players"], self.me), self._winner_line())
        self._seed_and_save(_("Type save to keep the match record, Enter to leave > "))

    def _winner_line(self) -> Text:
        winner = self.match_winner
        if winner == self.me:
            return Text(_("You win the match!"), style="bold green")
        if winner is not None:
            return Text(_("{name} wins the match.").format(name=winner), style="bold")
        return Text(_("The match ends in a tie."), style="bold")

    def _leave(self) -> None:
        """Quit: the standings as they are."""
        self._flush_log()
        self._rule(Text(" " + _("You leave the table") + " ", style="bold"))
        self._say(render.standings(self._view()["players"], self.me))
        self._say(Text(_("Seed {seed}.").format(seed=self.state.seed), style="dim"))

    def _save(self) -> None:
        """Write the match record (it replays with ``rummoli replay``)."""
        self._save_record(f"rummy-{self.state.seed}", _("Saved the match record to {path}"))


def _prompt_line(view: dict[str, Any]) -> Text:
    """What can be typed now, in one line."""
    text = Text()
    if view["phase"] == "draw":
        text.append(_("Draw: "), style="bold")
        text.append("s", style="bold magenta")
        text.append(" " + _("stock"))
        if view["discard"]:
            text.append(", ")
            text.append("t", style="bold magenta")
            text.append(" ")
            text.append_text(fill(_("take {card}"), card=card(view["discard"][-1])))
    else:
        text.append(_("Play: "), style="bold")
        text.append(_("meld CARDS · lay CARD on N · d CARD"))
    text.append("   " + _("(? moves, h help)"), style="dim")
    return text


def moves_lines(view: dict[str, Any]) -> list[Text]:
    """Every legal move, grouped: draws, melds, lay-offs, discards."""
    legal = [entry["action"] for entry in view["legal_actions"]]
    groups: list[tuple[str, list[int]]] = [
        (_("Draw:"), [a for a in legal if a in (act.DRAW_STOCK, act.DRAW_DISCARD)]),
        (_("Meld:"), [a for a in legal if act.is_meld_action(a)]),
        (_("Lay off:"), [a for a in legal if act.is_layoff_action(a)]),
    ]
    width = max(len(label) for label, _actions in groups) + 1
    width = max(width, len(_("Discard:")) + 1)
    lines = []
    for label, actions in groups:
        if actions:
            tokens = [Text(move_text(a, view)) for a in actions]
            lines.append(pack(tokens, label=f"{label:<{width}}", sep=" · "))
    discards = [a for a in legal if act.is_discard_action(a)]
    if discards:
        line = Text(f"{_('Discard:'):<{width}}" + _("d CARD, any card"))
        taken = view["taken_discard"]
        if len(discards) < len(view["hand"]) and taken:
            line.append_text(fill(_(" but {card} (taken this turn)"), card=card(taken)))
        lines.append(line)
    return lines


#: Play the match ``state`` to its end (:meth:`TableLoop.play`): ``human`` at the
#: keyboard, ``bots`` elsewhere; ``hint_bot`` answers ``hint`` (default: a bot of
#: :func:`hint_level`, if there is one).
play_rummy = _RummyTable.play
