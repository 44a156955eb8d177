"""Events turned into short sentences: what happened since the human last decided.

The narrator reads events as JSON (``event_to_json`` of the events the seat may see), the
same form a web page or a log file gets, so it cannot show more than the seat may know.
Between two human decisions a whole run of forced plays can happen, so related events
share one line ("Cy 5♦ 6♦ · Bob 7♦ · You 8♦ (+3 JD) ▪") instead of one line each;
rich wraps a long line at the terminal width.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from rummoli.tui.cards import card, cards, pack

_RED = ("D", "H")

#: Why a run stopped, after its last card (the engine's "stop" event says it).
_STOP_REASONS = {
    "ace": "an ace ends its suit",
    "laid": "the next card was laid before",
    "widow": "the next card is in the widow",
}

# The line each kind of event belongs to; a new group starts a new line.
_GROUPS: dict[str, str] = {
    "cut": "cut",
    "dealer": "deal",
    "ante": "deal",
    "widow_dealt": "deal",
    "out": "out",
    "blocked": "widow",
    "keep": "widow",
    "exchange": "widow",
    "pass": "widow",
    "bid": "widow",
    "no_bid": "widow",
    "widow_dead": "widow",
    "bought": "widow",
    "check": "bet",
    "call": "bet",
    "raise": "bet",
    "fold": "bet",
    "returned": "bet",
    "show": "showdown",
    "poker_pot": "pot",
    "leads": "pot",
    "lay": "run",
    "space": "run",
    "unclaimed": "run",
    "stop": "run",
    "duty_passes": "duty",
    "deadlock_continue": "duty",
    "deadlock": "deadlock",
    "deadlock_pays": "deadlock",
    "round_won": "won",
    "pays": "won",
    "settle_cut": "settle",
    "settle_hand": "settle_hands",
    "settled": "settled",
}

# Groups whose every event gets a line of its own.
_ONE_PER_LINE = ("settle", "settled", "out")
# Groups whose entries are packed side by side, as many to a line as fit: a showdown of
# eight hands takes four lines, not eight, so it fits a 24-line screen with the table.
_PACKED = {"showdown": "Showdown: ", "settle_hands": "Settlement: "}

_PREFIX = {
    "cut": "Cut for the deal: ",
    "widow": "Widow: ",
    "bet": "Poker: ",
    "deadlock": "Deadlock: ",
}


class Narrator:
    """Collects the sentences for one seat; :meth:`take` hands over the finished lines."""

    def __init__(self, me: str) -> None:
        self.me = me
        self._lines: list[Text] = []
        #: For each finished line, where each laid card of it ends (character offsets),
        #: so a paced printer can show a run card by card.
        self._marks: list[list[int]] = []
        self._line_marks: list[int] = []
        self._group = ""
        self._line = Text()
        self._last_layer = ""
        self._antes: list[int] = []
        self._paying = False
        self._cut_by: set[str] = set()
        self._high_bet = 0
        self._stop_card = ""
        #: The entries of a packed group (the hands of a showdown) until it ends.
        self._packed: list[Text] = []

    # ------------------------------------------------------------------ words

    def who(self, name: str) -> Text:
        """A player as the subject of a sentence: "You" for the human."""
        if name == self.me:
            return Text("You", style="bold cyan")
        return Text(name, style="bold")

    def does(self, name: str, base: str, third: str) -> Text:
        """Subject and verb that agree: "You pass", "Bob passes"."""
        return Text.assemble(self.who(name), " ", base if name == self.me else third)

    # ------------------------------------------------------------------ lines

    def _flush(self) -> None:
        if self._group == "deal" and self._antes:
            self._part(_antes_text(self._antes))
        if self._packed:
            label = _PACKED[self._group]
            self._line = pack(self._packed, label=label, sep="   ")
            self._packed = []
        if self._line:
            self._lines.append(self._line)
            self._marks.append(self._line_marks)
        self._line = Text()
        self._line_marks = []
        self._group = ""
        self._last_layer = ""
        self._antes = []
        self._paying = False

    def _part(self, text: Text | str, sep: str = "; ") -> None:
        """Add one fragment to the current line."""
        if self._line and not self._line.plain.endswith(" "):
            self._line.append(sep)
        self._line.append_text(text if isinstance(text, Text) else Text(text))

    def take(self) -> list[Text]:
        """The finished lines so far (the current line too), and start afresh."""
        return [line for line, _ in self.take_paced()]

    def take_paced(self) -> list[tuple[Text, list[int]]]:
        """As :meth:`take`, each line with the offsets where its laid cards end (empty
        for a line that lays none): a run can then be shown one card at a time."""
        self._flush()
        lines, self._lines = self._lines, []
        marks, self._marks = self._marks, []
        return list(zip(lines, marks, strict=True))

    def feed(self, event: dict[str, Any]) -> None:
        """Narrate one event (JSON form)."""
        kind = event["type"]
        group = _GROUPS.get(kind)
        if group is None:  # hand, round_over, game_over: shown elsewhere
            return
        if group != self._group or group in _ONE_PER_LINE:
            self._flush()
            self._group = group
            self._line = Text()
            self._line.append(_PREFIX.get(group, ""), style="dim")
        getattr(self, "_" + kind)(event)

    # ------------------------------------------------------------------ the deal

    def _cut(self, e: dict[str, Any]) -> None:
        text = Text.assemble(self.who(e["player"]), " ", card(e["card"]))
        if e["player"] in self._cut_by:  # a tie: the tied players cut again
            self._cut_by.clear()
            self._part(Text.assemble(("tie, again: ", "dim"), text), "; ")
        else:
            self._part(text, ", ")
        self._cut_by.add(e["player"])

    def _dealer(self, e: dict[str, Any]) -> None:
        self._part(self.does(e["player"], "deal", "deals"))

    def _ante(self, e: dict[str, Any]) -> None:
        self._antes.append(e["chips"])

    def _widow_dealt(self, e: dict[str, Any]) -> None:
        if self._antes:
            self._part(_antes_text(self._antes))
            self._antes = []
        self._part(f"the widow has {e['count']} cards")
        self._high_bet = 0

    def _out(self, e: dict[str, Any]) -> None:
        self._part(
            Text.assemble(
                self.does(e["player"], "cannot", "cannot"), " pay the ante: out of the game"
            )
        )

    # ------------------------------------------------------------------ the widow

    def _blocked(self, e: dict[str, Any]) -> None:
        # Only the blocked player sees this event (the view decides): the table does not
        # learn that his hand holds a pay card.
        self._part(Text("your pay card rules out the widow", style="dim"))

    def _keep(self, e: dict[str, Any]) -> None:
        text = self.does(e["player"], "keep", "keeps")
        text.append(" the hand")
        self._part(text)

    def _exchange(self, e: dict[str, Any]) -> None:
        self._part(Text.assemble(self.does(e["player"], "take", "takes"), " the widow"))

    def _pass(self, e: dict[str, Any]) -> None:
        self._part(self.does(e["player"], "pass", "passes"))

    def _returned(self, e: dict[str, Any]) -> None:
        text = self.does(e["player"], "take", "takes")
        text.append(f" back {e['chips']} uncalled")
        self._part(text)

    def _bid(self, e: dict[str, Any]) -> None:
        self._part(Text.assemble(self.does(e["player"], "bid", "bids"), f" {e['chips']}"))

    def _no_bid(self, e: dict[str, Any]) -> None:
        self._part("no bid")

    def _widow_dead(self, e: dict[str, Any]) -> None:
        self._part("it stays out of play")

    def _bought(self, e: dict[str, Any]) -> None:
        text = self.does(e["player"], "buy", "buys")
        text.append(f" it for {e['chips']}, paid to ")
        text.append_text(self.who(e["dealer"]))
        self._part(text)

    # ------------------------------------------------------------------ poker

    def _check(self, e: dict[str, Any]) -> None:
        self._part(self.does(e["player"], "check", "checks"), ", ")

    def _fold(self, e: dict[str, Any]) -> None:
        self._part(self.does(e["player"], "fold", "folds"), ", ")

    def _call(self, e: dict[str, Any]) -> None:
        text = self.does(e["player"], "call", "calls")
        text.append(f" {e['total']}")
        if e["all_in"]:
            text.append(" (all in)", style="yellow")
        self._part(text, ", ")

    def _raise(self, e: dict[str, Any]) -> None:
        if self._high_bet:
            text = self.does(e["player"], "raise", "raises")
            text.append(f" to {e['total']}")
        else:
            text = self.does(e["player"], "bet", "bets")
            text.append(f" {e['total']}")
        if e["all_in"]:
            text.append(" (all in)", style="yellow")
        self._high_bet = e["total"]
        self._part(text, ", ")

    def _show(self, e: dict[str, Any]) -> None:
        text = self.who(e["player"])
        text.append(" ")
        text.append_text(cards(e["cards"]))
        text.append(f" {e['hand']}", style="italic")
        self._packed.append(text)

    def _poker_pot(self, e: dict[str, Any]) -> None:
        winners = e["winners"]
        space = "the poker space" if e["pot"] == 0 else f"side pot {e['pot']}"
        if len(winners) == 1:
            text = self.does(winners[0], "take", "takes")
            text.append(f" {space}: ")
            text.append(f"{e['chips']} chips", style="bold yellow")
        else:
            text = Text(" and ").join(self.who(w) for w in winners)
            text.append(f" split {space}: {e['share']} each")
        self._part(text)

    def _leads(self, e: dict[str, Any]) -> None:
        self._part(Text.assemble(self.does(e["player"], "lead", "leads"), "."), ". ")

    # ------------------------------------------------------------------ the Rummoli phase

    def _lay(self, e: dict[str, Any]) -> None:
        laid = card(e["card"])
        if e["player"] == self._last_layer:
            self._line.append(" ")
            self._line.append_text(laid)
        else:
            self._last_layer = e["player"]
            self._part(Text.assemble(self.who(e["player"]), " ", laid), " · ")
        self._line_marks.append(len(self._line))

    def _space(self, e: dict[str, Any]) -> None:
        self._line.append(f" (+{e['chips']} {e['space']})", style="bold green")

    def _unclaimed(self, e: dict[str, Any]) -> None:
        self._line.append(f" ({e['space']} not claimed)", style="dim")

    def _stop(self, e: dict[str, Any]) -> None:
        self._stop_card = e["card"]
        why = _STOP_REASONS.get(e.get("reason", ""), "")
        self._line.append(f" ▪ stop{f': {why}' if why else ''}", style="dim")
        self._flush()

    def _duty_passes(self, e: dict[str, Any]) -> None:
        colour = "black" if self._stop_card[-1:] in _RED else "red"
        text = self.does(e["player"], "have", "has")
        text.append(f" no {colour} card")
        if e["fine"]:
            text.append(f", fined {e['fine']}", style="yellow")
        self._part(text)

    def _deadlock_continue(self, e: dict[str, Any]) -> None:
        text = Text("nobody holds the colour: ")
        text.append_text(self.does(e["player"], "lead", "leads"))
        text.append(" any suit")
        self._part(text)

    def _deadlock(self, e: dict[str, Any]) -> None:
        self._part("nobody holds the colour; 1 chip per card to rummoli")

    def _deadlock_pays(self, e: dict[str, Any]) -> None:
        self._part(Text.assemble(self.who(e["player"]), f" {e['chips']}"), ", ")

    def _round_won(self, e: dict[str, Any]) -> None:
        text = self.does(e["player"], "go", "goes")
        text.append(" out and ")
        text.append("win" if e["player"] == self.me else "wins")
        text.append(" the round: rummoli space ")
        text.append(f"{e['chips']} chips", style="bold yellow")
        self._part(text)

    def _pays(self, e: dict[str, Any]) -> None:
        if not e["chips"]:  # nothing left to pay with: not worth a word
            return
        text = self.does(e["player"], "pay", "pays")
        text.append(f" {e['chips']}")
        self._part(text, ", " if self._paying else "; ")
        self._paying = True

    # ------------------------------------------------------------------ settlement

    def _settle_cut(self, e: dict[str, Any]) -> None:
        text = Text("Settlement cut: ", style="dim")
        text.append_text(self.who(e["player"]))
        text.append(" ")
        text.append_text(card(e["card"]))
        self._part(text)

    def _settle_hand(self, e: dict[str, Any]) -> None:
        text = self.who(e["player"])
        text.append(" ")
        text.append_text(cards(e["cards"]))
        text.append(f" {e['hand']}", style="italic")
        self._packed.append(text)

    def _settled(self, e: dict[str, Any]) -> None:
        what = "the board" if e["space"] == "all" else f"space {e['space']}"
        winners = e["winners"]
        if len(winners) == 1:
            text = self.does(winners[0], "take", "takes")
        else:
            text = Text(" and ").join(self.who(w) for w in winners)
            text.append(" split")
        text.append(f" {what}: ")
        text.append(f"{e['chips']} chips", style="bold yellow")
        self._part(text)


def _antes_text(antes: list[int]) -> str:
    """``antes 9 chips each``, or the amounts when some could not pay in full."""
    if len(set(antes)) == 1:
        return f"antes {antes[0]} chips each"
    return "antes " + ", ".join(str(a) for a in antes)
