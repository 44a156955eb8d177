"""``rummoli play``: one human against computer players, in a plain terminal, at any game
of the Stops family (Rummoli, Michigan, Tripoley, ...: the game is the state's own).

The loop drives the engine: chance steps are taken at once, computer players get their
seat's view through :func:`rummoli.bots.ask_bot`, and the human gets the table drawn from
seat 0's view, the sentences for the events seat 0 may see, and a numbered menu. The
console and the input function are parameters, so tests play whole games with a script.

Each computer player has a level (``random``, ``basic``, ``strong``; see
``docs/bots.md``), chosen for all of them (``--level``) or one by one (``--opponents``).
At any decision the human may type ``?`` (or ``hint``) for the strong bot's suggestion:
a strong bot asked from the human's own seat, with the human's view only, like any bot.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from rummoli.bots import Decision, ask_bot, make_bot
from rummoli.games.registry import describe
from rummoli.games.stops.state import FamilyRules, StopsState
from rummoli.games.stops.view import event_to_json, visible_events
from rummoli.i18n import N_, NP_, _, nformat, pgettext
from rummoli.i18n.terms import space_name
from rummoli.tui.menu import AskAmount, Command, Menu
from rummoli.tui.options import hint_text, parse_house_rules
from rummoli.tui.phrases import shown_name
from rummoli.tui.stops import render
from rummoli.tui.stops.narrate import Narrator
from rummoli.tui.stops.summary import RoundTally
from rummoli.tui.stops.words import game_words
from rummoli.tui.table import Quit, ReadLine, TableLoop, start_table
from rummoli.tui.table import announce as table_announce

#: The game a table plays when none is named: the family's first.
GAME = "rummoli"

#: The level of every computer player unless told otherwise: a fair first opponent.
DEFAULT_LEVEL = "basic"
#: The level whose suggestion ``?`` shows.
HINT_LEVEL = "strong"

HELP = N_(
    """\
[bold]Your turn:[/] type a choice's number, or its name: [bold]keep[/], [bold]check[/], \
[bold]raise 30[/], [bold]bid 5[/], a card such as [bold]7H[/] or [bold]10S[/].
[bold]At any prompt:[/] [bold]h[/] help, [bold]q[/] quit now (shows the standings), \
[bold]end[/] stop after this round, [bold]save[/] write the game record, \
[bold]?[/] or [bold]hint[/] the strong computer player's suggestion for your decision."""
)


def help_text(game: str) -> str:
    """The help: how to type, and how the game goes (its description's summary)."""
    summary = game_words(game).summary
    text = _(HELP)
    if summary:
        text += "\n" + _("[bold]The game:[/] {summary}").format(
            summary=pgettext("game summary", summary)
        )
    return text


def build_rules(
    chips: int, rounds: int, items: Sequence[str], preset: str | None, game: str = GAME
) -> FamilyRules:
    """The table's rules: the preset, then ``--chips``/``--rounds``, then ``--rule`` items."""
    data: dict[str, Any] = {"starting_chips": chips, "rounds": rounds}
    data.update(parse_house_rules(items))
    if preset is not None:
        data["preset"] = preset
    rules: FamilyRules = describe(game).rules(data)  # an unknown name lists the house rules
    return rules


def run_play(
    *,
    players: int,
    chips: int,
    rounds: int,
    rules: Sequence[str],
    preset: str | None,
    seed: int | None,
    name: str,
    level: str = DEFAULT_LEVEL,
    opponents: str | None = None,
    console: Console | None = None,
    read_line: ReadLine | None = None,
    save_dir: Path | None = None,
    pace: float = 0.0,
    game: str = GAME,
) -> int:
    """Set up a table and play; the exit code: 0 played, 2 bad settings, 130 interrupted.

    ``level`` is every computer player's level, unless ``opponents`` names one level per
    computer player (comma-separated, in seat order).
    """
    console = console or Console(highlight=False)

    def announce(state: StopsState, levels: Sequence[str]) -> None:
        again = _("(play this deal again with --seed {seed}; h for help, ? for a hint)")
        table_announce(console, state, describe(game), state.rules.changed(), levels, again)

    return start_table(
        console,
        game,
        players=players,
        level=level,
        opponents=opponents,
        name=name,
        seed=seed,
        rules=lambda: build_rules(chips, rounds, rules, preset, game),
        new_game=StopsState.new_game,
        announce=announce,
        play=lambda state, read, bots: play_game(
            state, console, read, bots, save_dir=save_dir, pace=pace
        ),
        read_line=read_line,
    )


# ---------------------------------------------------------------------- the game loop


class _Table(TableLoop[StopsState]):
    """One game at the terminal: the human's prompts, the narration and the summaries."""

    def _setup(self) -> None:
        self.words = game_words(self.state.plan.game)
        self.narrator = Narrator(self.me, self.words)
        self.tally = RoundTally(self.me, self.words)
        self.told_out = False
        self.chips_before = self._chips()

    def _apply(self, action: int) -> None:
        """Apply one action and narrate what seat ``human`` may see of it."""
        state = self.state
        events = visible_events(state.apply(action), self.human)
        self.deal_ended = False
        for event in events:
            data = event_to_json(event, state.names)
            self.narrator.feed(data)
            self.tally.feed(data)
            if data["type"] == "round_over":
                self.deal_ended = True
        self._check_out()

    def _check_out(self) -> None:
        """A human out of chips only watches: the table stops after this round."""
        if self.told_out or not self.state.view(self.human)["players"][self.human]["out"]:
            return
        self.told_out = True
        if not self.state.is_terminal():
            self._flush_log()
            self._say(Text(_("You are out: the table stops after this round."), "yellow"))
            self.state.request_end()

    def _chips(self) -> list[tuple[str, int]]:
        players = self.state.view(self.human)["players"]
        return [(p["name"], p["chips"]) for p in players]

    # ------------------------------------------------------------------ output

    def _flush_log(self) -> None:
        self._say_paced(self.narrator.take_paced())

    def _show_table(self, view: dict[str, Any]) -> None:
        self._rule(render.header(view, self.state.rules.rounds, self.words.play_phase))
        self._say(*render.table(view))

    # ------------------------------------------------------------------ the human

    def _ask_human(self) -> int:
        """Show the table and the menu, and read until a legal choice is typed."""
        self._flush_log()
        view = self.state.view(self.human)
        menu = Menu(
            [entry["action"] for entry in view["legal_actions"]],
            self.state.action_to_text,
            self.state.action_from_text,
            lambda text: _label(text, view),
        )
        self._show_table(view)
        self._say(menu.render())
        while True:
            try:
                choice = menu.parse(self._read("> "))
            except ValueError as error:
                self._say(Text(str(error), style="red"))
                continue
            if isinstance(choice, Command):
                self._command(choice)
            elif isinstance(choice, AskAmount):
                action = self._ask_amount(menu, choice)
                if action is not None:
                    return action
            else:
                return choice

    def _ask_amount(self, menu: Menu, choice: AskAmount) -> int | None:
        """Read the amount for a ranged entry; an empty line goes back to the menu."""
        entry = choice.entry
        while True:
            line = self._read(
                _("{word} how much? ({low}-{high}) > ").format(
                    word=entry.typed_word, low=entry.low, high=entry.high
                )
            )
            if not line.strip():
                return None
            try:
                return menu.amount(entry, line)
            except ValueError as error:
                self._say(Text(str(error), style="red"))

    def _command(self, command: Command) -> None:
        if command is Command.QUIT:
            raise Quit
        if command is Command.HELP:
            self._say(Text.from_markup(help_text(self.words.game)))
        elif command is Command.SAVE:
            self._save()
        elif command is Command.END:
            self.state.request_end()
            self._say(Text(_("The game ends after this round."), style="yellow"))
        elif command is Command.HINT:
            self._say(self._hint_line())

    def _hint_line(self) -> Text:
        """The hint: the action in the menu's words, the bot's reason translated."""
        view = self.state.view(self.human)

        def words(text: str) -> str:
            return _label(text, view)

        return hint_text(self._hint(), lambda a: words(self.state.action_to_text(a)), words)

    def _hint(self) -> Decision:
        """The hint bot's choice for the human's decision, from the human's view only."""
        if self.hint_bot is None:
            self.hint_bot = make_bot(HINT_LEVEL, self.state.seed * 10 + self.human, self.words.game)
        return ask_bot(self.hint_bot, self.state, self.human)

    # ------------------------------------------------------------------ rounds and the end

    def _between_deals(self) -> None:
        """The round's summary, then a pause so it can be read before the next deal."""
        self._flush_log()
        self._rule(
            Text(" " + _("Round {n} over").format(n=self.state.round_no) + " ", style="bold")
        )
        chips = self._chips()
        board = sum(self.state.view(self.human)["board"].values())
        self._say(*self.tally.summary(self.chips_before, chips, board))
        self.tally = RoundTally(self.me, self.words)
        self.chips_before = chips
        if self._last_round():
            return
        prompt = _("Enter: next round, end: finish now, q: quit > ")
        self._pause(prompt, help_text(self.words.game))

    def _last_round(self) -> bool:
        """Whether the table stops now (then the settlement follows without a pause)."""
        state = self.state
        rounds = state.rules.rounds
        return state.end_requested or bool(rounds and state.round_no >= rounds)

    def _finish(self) -> None:
        self._flush_log()
        self._rule(Text(" " + _("Game over") + " ", style="bold"))
        chips = self._chips()
        self._say(render.standings(chips, self.me), self._winner_line(chips))
        self._seed_and_save(_("Type save to keep the game record, Enter to leave > "))

    def _winner_line(self, chips: list[tuple[str, int]]) -> Text:
        best = max(c for _, c in chips)
        winners = [n for n, c in chips if c == best]
        if winners == [self.me]:
            return Text(_("You win the game!"), style="bold green")
        if len(winners) == 1:
            return Text(_("{name} wins the game.").format(name=winners[0]), style="bold")
        shown = ", ".join(shown_name(n, self.me) for n in winners)
        return Text(_("A tie between {names}.").format(names=shown), style="bold")

    def _leave(self) -> None:
        """Quit: the standings as they are, board chips not settled."""
        self._flush_log()
        self._rule(Text(" " + _("You leave the table") + " ", style="bold"))
        chips = self._chips()
        self._say(render.standings(chips, self.me))
        board = sum(self.state.view(self.human)["board"].values())
        if board:
            left = nformat(
                "{n} chip was left on the board.", "{n} chips were left on the board.", board
            )
            self._say(Text(left, style="dim"))
        self._say(Text(_("Seed {seed}.").format(seed=self.state.seed), style="dim"))

    def _save(self) -> None:
        """Write the game record (it replays with ``rummoli replay``)."""
        name = f"{self.words.game}-{self.state.seed}"
        self._save_record(name, _("Saved the game record to {path}"))


#: The menu's words for the engine's actions (context ``menu``).
_LABELS = {
    "deal": NP_("menu", "deal"),
    "keep": NP_("menu", "keep your hand"),
    "exchange": NP_("menu", "exchange it for the widow"),
    "no_auction": NP_("menu", "keep your hand, no auction"),
    "pass": NP_("menu", "pass"),
    "check": NP_("menu", "check"),
    "call": NP_("menu", "call"),
    "fold": NP_("menu", "fold"),
}


def menu_label(text: str) -> str:
    """An action's engine text as the menu says it, without a view (a refusal's list)."""
    return _label(text, {})


def _label(text: str, view: dict[str, Any]) -> str:
    """A menu label: a few words more than the engine's text (``call`` says its cost)."""
    word, _space, rest = text.partition(" ")
    if rest == "claim":
        return pgettext("menu", "{card} claim").format(card=word)
    if word == "stake":
        return pgettext("menu", "a chip on {space}").format(space=space_name(rest))
    if word in ("bid", "raise") and rest.isdigit():
        key = {"bid": "bid {amount}", "raise": "raise to {amount}"}[word]
        return pgettext("menu", key).format(amount=rest)
    if text != "call" or "betting" not in view:
        return pgettext("menu", _LABELS[text]) if text in _LABELS else text
    me = view["players"][view["seat"]]
    cost = min(view["betting"]["high"] - me["bet"], me["chips"])
    if cost == me["chips"]:
        return pgettext("menu", "call (+{cost}, all in)").format(cost=cost)
    return pgettext("menu", "call (+{cost})").format(cost=cost)


#: Play ``state`` to the end (:meth:`TableLoop.play`): ``human`` at the keyboard, ``bots``
#: at the other seats; ``hint_bot`` answers ``?`` (default: a strong bot seeded from the
#: game's seed).
play_game = _Table.play
