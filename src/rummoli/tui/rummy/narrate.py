"""Rummy events turned into short sentences: what happened since the human last decided.

The narrator reads events as JSON (``events_for(events, seat, names)`` of
:mod:`rummoli.games.rummy.view`), the form a web page or a log file gets, so it cannot say
more than the seat may know: another player's draw from the stock is "draws from the
stock", and only the human's own draw names its card. One player's turn is one line
("Bea takes 9♥, melds 7♣ 8♣ 9♣ as #3, lays off 5♣ on #2, discards K♠"); rich wraps a
long line at the terminal width. The end of a hand (hands shown, points) is left to
:mod:`rummoli.tui.rummy.summary`, which prints it as a table.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from rummoli.games.rummy.stalemate import STALL_TURNS, STALLED
from rummoli.i18n import N_, NN_, _, nformat
from rummoli.tui.cards import card, cards
from rummoli.tui.phrases import fill, shown_name
from rummoli.tui.rummy.render import meld_number

#: Events shown elsewhere: the own hand on the table, the end of a hand in the summary.
_SILENT = ("hand", "show", "hand_won", "hand_over", "game_over")

_STALEMATE = {
    "stock": N_("the stock ran out a second time"),
    "blocked": N_("nobody can go out any more (no card fits a meld, no new meld can be made)"),
}
#: Why the detection found the hand hopeless (the event's ``why``, :mod:`.stalemate`).
_HOPELESS = {
    "one_card_each": N_(
        "nobody can ever go out: every player holds one card, and no card still in play "
        "fits a meld on the table"
    ),
    "no_meld": N_(
        "nobody can ever go out: no card still in play fits a meld on the table, and no "
        "three of them make a meld"
    ),
}
#: The stall rule (:mod:`rummoli.games.rummy.stalemate`): ``STALL_TURNS`` idle turns in a
#: row, told with the engine's number so the sentence cannot drift from the rule.
_STALLED = NN_(
    "for {n} turn in a row, players only took the discard top and laid nothing down",
    "for {n} turns in a row, players only took the discard top and laid nothing down",
)


# Lines that are nobody's turn; names are stripped, so these can be no player's name.
_CUT, _DEAL = " cut", " deal"


class RummyNarrator:
    """Collects the sentences for one seat; :meth:`take` hands over the finished lines."""

    def __init__(self, me: str) -> None:
        self.me = me
        self._lines: list[Text] = []
        self._line = Text()
        self._turn = ""

    # ------------------------------------------------------------------ words

    def who(self, name: str) -> Text:
        """A player as the subject of a sentence: "You" for the human."""
        if name == self.me:
            return Text(_("You"), style="bold cyan")
        return Text(shown_name(name, self.me), style="bold")

    def verb(self, name: str, base: str, third: str, **values: Text | str | int) -> Text:
        """The words after the subject, agreeing with it (both translated): "You draw",
        "Bea draws"; ``values`` fill their fields."""
        return fill(base if name == self.me else third, **values)

    # ------------------------------------------------------------------ lines

    def _flush(self) -> None:
        if self._line:
            self._lines.append(self._line)
        self._line = Text()
        self._turn = ""

    def _turn_part(self, name: str, text: Text | str) -> None:
        """Add to the line of ``name``'s turn, starting that line if needed."""
        if self._turn != name:
            self._flush()
            self._turn = name
            self._line = self.who(name)
            self._line.append(" ")
        elif not self._line.plain.endswith(" "):
            self._line.append(", ")
        self._line.append_text(text if isinstance(text, Text) else Text(text))

    def _own_line(self, text: Text) -> None:
        self._flush()
        self._lines.append(text)

    def take(self) -> list[Text]:
        """The finished lines so far (the current line too), and start afresh."""
        self._flush()
        lines, self._lines = self._lines, []
        return lines

    def feed(self, event: dict[str, Any]) -> None:
        """Narrate one event (JSON form)."""
        kind = event["type"]
        if kind in _SILENT:
            return
        getattr(self, "_" + kind)(event)

    # ------------------------------------------------------------------ the deal

    def _cut(self, e: dict[str, Any]) -> None:
        if self._turn != _CUT:
            self._flush()
            self._turn = _CUT
            self._line = Text(_("Cut for the deal: "), style="dim")
        else:
            self._line.append(", ")
        self._line.append_text(Text.assemble(self.who(e["player"]), " ", card(e["card"])))

    def _dealer(self, e: dict[str, Any]) -> None:
        name = e["player"]
        self._flush()
        self._turn = _DEAL
        self._line = Text.assemble(self.who(name), " ", self.verb(name, _("deal"), _("deals")))

    def _upcard(self, e: dict[str, Any]) -> None:
        self._line.append_text(fill(_("; the upcard is {card}"), card=card(e["card"])))
        self._flush()

    # ------------------------------------------------------------------ a turn

    def _draw_stock(self, e: dict[str, Any]) -> None:
        name = e["player"]
        # The human's own draw is told by the private "drew" event that follows.
        if name != self.me:
            self._turn_part(name, _("draws from the stock"))

    def _drew(self, e: dict[str, Any]) -> None:
        self._turn_part(e["player"], fill(_("draw {card} from the stock"), card=card(e["card"])))

    def _draw_discard(self, e: dict[str, Any]) -> None:
        name = e["player"]
        part = self.verb(
            name,
            _("take {card} from the discard pile"),
            _("takes {card} from the discard pile"),
            card=card(e["card"]),
        )
        self._turn_part(name, part)

    def _meld(self, e: dict[str, Any]) -> None:
        mine, theirs = _("meld {cards} as {number}"), _("melds {cards} as {number}")
        self._on_meld(e, mine, theirs, cards=cards(e["cards"]))

    def _lay_off(self, e: dict[str, Any]) -> None:
        mine, theirs = _("lay off {card} on {number}"), _("lays off {card} on {number}")
        self._on_meld(e, mine, theirs, card=card(e["card"]))

    def _on_meld(self, e: dict[str, Any], base: str, third: str, **values: Text) -> None:
        """A turn's part that puts cards on the table: a meld laid down or cards laid
        off, each naming the meld by its number (its slot)."""
        name = e["player"]
        number = Text(meld_number(e["slot"]), style="magenta")
        self._turn_part(name, self.verb(name, base, third, number=number, **values))

    def _discard(self, e: dict[str, Any]) -> None:
        name = e["player"]
        part = self.verb(name, _("discard {card}"), _("discards {card}"), card=card(e["card"]))
        self._turn_part(name, part)

    def _goes_out(self, e: dict[str, Any]) -> None:
        name = e["player"]
        part = Text(_("go out") if name == self.me else _("goes out"), style="bold green")
        if e["going_rummy"]:
            part.append(_(": Going Rummy, double points!"), style="bold green")
        self._turn_part(name, part)
        self._flush()

    def _reshuffle(self, e: dict[str, Any]) -> None:
        self._own_line(
            Text(
                nformat(
                    "The stock is empty: the discard pile ({n} card) is shuffled into a new "
                    "stock (the last time this hand).",
                    "The stock is empty: the discard pile ({n} cards) is shuffled into a new "
                    "stock (the last time this hand).",
                    e["count"],
                ),
                style="yellow",
            )
        )

    def _stalemate(self, e: dict[str, Any]) -> None:
        reason = e["reason"]
        if reason == STALLED:
            why = nformat(*_STALLED, STALL_TURNS)
        elif e.get("why") in _HOPELESS:
            why = _(_HOPELESS[e["why"]])
        else:
            why = _(_STALEMATE[reason]) if reason in _STALEMATE else reason
        self._own_line(Text(_("Stalemate: {why}. Nobody scores.").format(why=why), style="yellow"))
