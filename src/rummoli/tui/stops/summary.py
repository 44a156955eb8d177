"""The round summary: who went out, who won which space, and how the chips moved.

Built from the round's public events (JSON form), so it says nothing the table could not
see; the chip changes come from two snapshots of the seat's view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from rummoli.i18n import _, number
from rummoli.i18n.forms import Space
from rummoli.i18n.terms import space_name, space_shown
from rummoli.tui.cards import pack
from rummoli.tui.phrases import fill, shown_name
from rummoli.tui.stops.words import GameWords


class RoundTally:
    """Collects one round's results while its events go by."""

    def __init__(self, me: str, words: GameWords | None = None) -> None:
        self.me = me
        self.words = words or GameWords()
        self.spaces: list[tuple[str, str, int]] = []
        self.poker: dict[str, int] = {}
        self.winner = ""
        self.rummoli = 0
        self.paid = 0
        self.deadlock = False

    def feed(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind in ("space", "claim", "turn_pays"):
            self.spaces.append((event["player"], event["space"], event["chips"]))
        elif kind == "poker_pot":
            for winner in event["winners"]:
                self.poker[winner] = self.poker.get(winner, 0) + event["share"]
        elif kind == "round_won":
            self.winner, self.rummoli = event["player"], event["chips"]
        elif kind == "pays":
            self.paid += event["chips"]
        elif kind == "deadlock":
            self.deadlock = True

    def _name(self, name: str) -> Text:
        return Text(shown_name(name, self.me), style="bold cyan" if name == self.me else "bold")

    def summary(
        self, before: Sequence[tuple[str, int]], after: Sequence[tuple[str, int]], board: int
    ) -> list[Text]:
        """A few lines: the round's winner, spaces and poker won, chips with changes."""
        return [self._outcome(), self._spaces(), self._chips(before, after, board)]

    def _outcome(self) -> Text:
        kitty = self.words.kitty
        if self.winner:
            # The verb agrees with its subject: "you" has a sentence of its own.
            mine = self.winner == self.me
            paid = Text(number(self.paid), style="bold yellow")
            if not kitty:
                you = _("{you} went out first: {paid} paid by the others.")
                other = _("{name} went out first: {paid} paid by the others.")
                return self._winner_line(you if mine else other, paid=paid)
            you = _("{you} went out first: {space} {kitty} + {paid} paid by the others.")
            other = _("{name} went out first: {space} {kitty} + {paid} paid by the others.")
            return self._winner_line(
                you if mine else other,
                space=Space(kitty),
                kitty=Text(number(self.rummoli), style="bold yellow"),
                paid=paid,
            )
        if self.deadlock and not kitty:
            return Text(_("Deadlock: nobody went out."))
        if self.deadlock:
            return Text(
                _("Deadlock: nobody went out; 1 chip per card went to {space}.").format(
                    space=space_name(kitty)
                )
            )
        return Text(_("The round ended without a winner."))

    def _winner_line(self, sentence: str, **values: Text | Space) -> Text:
        """The round's winner's sentence: ``{you}`` or ``{name}`` filled in, and ``values``."""
        you = Text(_("You"), style="bold cyan")
        return fill(sentence, you=you, name=self._name(self.winner), **values)

    def _spaces(self) -> Text:
        tokens = [
            Text.assemble(self._name(p), f" {space_shown(space)} ", (number(c), "bold yellow"))
            for p, space, c in self.spaces
        ] or [Text(_("none won"), style="dim")]
        text = pack(tokens, label=_label(_("Spaces:")), sep=" · ")
        if self.poker:
            won = [
                Text.assemble(self._name(p), " ", (number(c), "bold yellow"))
                for p, c in self.poker.items()
            ]
            text = Text("\n").join([text, pack(won, label=_label(_("Poker:")), sep=" · ")])
        return text

    def _chips(
        self, before: Sequence[tuple[str, int]], after: Sequence[tuple[str, int]], board: int
    ) -> Text:
        """Chips and their change this round; players long out (0, unchanged) are left out."""
        old = dict(before)
        tokens = []
        for name, chips in sorted(after, key=lambda p: -p[1]):
            change = chips - old.get(name, chips)
            if not chips and not change:
                continue
            style = "green" if change > 0 else "red" if change < 0 else "dim"
            sign = "+" if change >= 0 else "-"
            shown = f"({sign}{number(abs(change))})"
            tokens.append(Text.assemble(self._name(name), f" {number(chips)} ", (shown, style)))
        tokens.append(Text(_("board {chips}").format(chips=number(board)), style="dim"))
        return pack(tokens, label=_label(_("Chips:")), sep=" · ")


def _label(word: str) -> str:
    """A summary line's label, padded so the three lines' contents start together."""
    width = max(len(_(w)) for w in ("Spaces:", "Poker:", "Chips:")) + 1
    return f"{word:<{width}}"
