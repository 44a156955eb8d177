"""The end of a Rummy hand: who went out (or the stalemate), every hand shown, the points.

Built from the hand's public events (JSON form): at the end of a hand the players lay
their cards down to be counted, so the ``show`` events are public, and the summary says
nothing the table could not see.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from rummoli.i18n import _, nformat
from rummoli.i18n.typography import mark
from rummoli.tui.cards import cards
from rummoli.tui.phrases import fill, shown_name


class HandTally:
    """Collects one hand's result while its events go by."""

    def __init__(self, me: str) -> None:
        self.me = me
        self.winner = ""
        self.going_rummy = False
        self.points = 0
        self.stalemate = ""
        self.shown: list[tuple[str, list[str], int]] = []

    def feed(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "goes_out":
            self.winner, self.going_rummy = event["player"], event["going_rummy"]
        elif kind == "hand_won":
            self.points = event["points"]
        elif kind == "stalemate":
            self.stalemate = event["reason"]
        elif kind == "show":
            self.shown.append((event["player"], event["cards"], event["points"]))

    def _name(self, name: str, width: int = 0) -> Text:
        style = "bold cyan" if name == self.me else "bold"
        return Text(f"{shown_name(name, self.me)[:16]:<{width}}", style=style)

    def summary(self) -> list[Text]:
        """The outcome line, then one line per hand left: its cards and their points."""
        lines = [self._outcome()]
        width = max((len(name[:16]) for name, _, _ in self.shown), default=0)
        for name, held, points in self.shown:
            line = Text("  ")
            line.append_text(self._name(name, width))
            shown = nformat("{n} point", "{n} points", points)
            line.append(f"  {shown:>10}  ", style="yellow")
            line.append_text(cards(held))
            lines.append(line)
        return lines

    def _outcome(self) -> Text:
        if self.winner:
            points = Text(nformat("{n} point", "{n} points", self.points), style="bold yellow")
            # The verb agrees with its subject: "you" has sentences of its own.
            mine = self.winner == self.me
            if self.going_rummy:
                template = (
                    _("{you} went out with Going Rummy and won {points} ({half} doubled)")
                    if mine
                    else _("{name} went out with Going Rummy and won {points} ({half} doubled)")
                )
            else:
                template = (
                    _("{you} went out and won {points}")
                    if mine
                    else _("{name} went out and won {points}")
                )
            text = fill(
                template,
                you=Text(_("You"), style="bold cyan"),
                name=self._name(self.winner),
                points=points,
                half=self.points // 2,
            )
            text.append(mark(":") if self.shown else ".")
            return text
        if self.stalemate:
            return Text(_("Stalemate: nobody scores this hand. Hands left:"), style="yellow")
        return Text(_("The hand ended without a winner."))
