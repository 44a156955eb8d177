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

from rummoli.i18n import _, nformat, number
from rummoli.i18n.forms import Space
from rummoli.i18n.terms import poker_hand, rank_name, space_name, space_shown
from rummoli.i18n.typography import mark
from rummoli.tui.cards import card, cards, pack
from rummoli.tui.phrases import Value, fill, join, shown_name
from rummoli.tui.stops.narrate_tables import (
    GROUPS,
    ONE_PER_LINE,
    PACKED,
    PREFIX,
    STOP_REASONS,
    WON,
)
from rummoli.tui.stops.words import GameWords

_RED = ("D", "H")


class Narrator:
    """Collects the sentences for one seat; :meth:`take` hands over the finished lines."""

    def __init__(self, me: str, words: GameWords | None = None) -> None:
        self.me = me
        #: The game's words (Rummoli's when none are given).
        self.words = words or GameWords()
        self._staker = ""
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
            return Text(_("You"), style="bold cyan")
        return Text(shown_name(name, self.me), style="bold")

    def does(self, name: str, mine: str, theirs: str, **values: Value) -> Text:
        """The sentence for the human (``mine``, with ``{you}``) or another player
        (``theirs``, with ``{name}``), both translated: "You pass", "Bob passes"."""
        if name == self.me:
            return fill(mine, you=self.who(name), **values)
        return fill(theirs, name=self.who(name), **values)

    def _player_does(self, e: dict[str, Any], mine: str, theirs: str, **values: Value) -> None:
        """A part of the line: what the event's player did (:meth:`does`)."""
        self._part(self.does(e["player"], mine, theirs, **values))

    def names(self, players: list[str]) -> Text:
        """``Bea and Cy``, ``You, Bea and Cy``."""
        return join([self.who(p) for p in players], _(" and "))

    # ------------------------------------------------------------------ lines

    def _flush(self) -> None:
        if self._group == "deal" and self._antes:
            self._part(_antes_text(self._antes))
        if self._packed:
            label = _(PACKED[self._group])
            self._line = pack(self._packed, label=label, sep="   ")
            self._packed = []
        if self._line:
            self._lines.append(self._line)
            self._marks.append(self._line_marks)
        self._line = Text()
        self._line_marks = []
        self._group = ""
        self._staker = ""  # a new line names the player who stakes
        self._last_layer = ""
        self._antes = []
        self._paying = False

    def _part(self, text: Text | str, sep: str = "; ") -> None:
        """Add one fragment to the current line (a ``;`` spaced as the language spaces
        it: French puts a narrow no-break space before it)."""
        if self._line and not self._line.plain.endswith(" "):
            self._line.append(mark(sep.strip()) + " " if sep.strip() == ";" else sep)
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
        group = GROUPS.get(kind)
        if group is None:  # hand, round_over, game_over: shown elsewhere
            return
        if group != self._group or group in ONE_PER_LINE:
            self._flush()
            self._group = group
            self._line = Text()
            prefix = self.words.spare if group == "widow" else group
            self._line.append(_(PREFIX.get(prefix, "")), style="dim")
        getattr(self, "_" + kind)(event)

    # ------------------------------------------------------------------ the deal

    def _cut(self, e: dict[str, Any]) -> None:
        text = Text.assemble(self.who(e["player"]), " ", card(e["card"]))
        if e["player"] in self._cut_by:  # a tie: the tied players cut again
            self._cut_by.clear()
            self._part(Text.assemble((_("tie, again: "), "dim"), text), "; ")
        else:
            self._part(text, ", ")
        self._cut_by.add(e["player"])

    def _dealer(self, e: dict[str, Any]) -> None:
        self._player_does(e, _("{you} deal"), _("{name} deals"))

    def _ante(self, e: dict[str, Any]) -> None:
        self._antes.append(e["chips"])

    def _widow_dealt(self, e: dict[str, Any]) -> None:
        if self._antes:
            self._part(_antes_text(self._antes))
            self._antes = []
        count = e["count"]
        spare = self.words.spare
        if spare == "dead hand":
            self._part(nformat("the dead hand has {n} card", "the dead hand has {n} cards", count))
        elif spare == "spare hand":
            self._part(
                nformat("the spare hand has {n} card", "the spare hand has {n} cards", count)
            )
        elif spare == "talon":
            self._part(nformat("the talon has {n} card", "the talon has {n} cards", count))
        else:
            self._part(nformat("the widow has {n} card", "the widow has {n} cards", count))
        self._high_bet = 0

    def _stake(self, e: dict[str, Any]) -> None:
        if e["player"] == self._staker:
            self._line.append(" " + space_name(e["space"]), style="cyan")
            return
        self._staker = e["player"]
        self._part(Text.assemble(self.who(e["player"]), " ", (space_name(e["space"]), "cyan")))

    def _turned(self, e: dict[str, Any]) -> None:
        self._part(fill(_("{card} turned for trumps"), card=card(e["card"])))

    def _turn_pays(self, e: dict[str, Any]) -> None:
        self._player_does(
            e,
            _("the card turned gives {you} {space}: {chips}"),
            _("the card turned gives {name} {space}: {chips}"),
            space=space_name(e["space"]),
            chips=gold_chips(e["chips"]),
        )

    def _deal_ends(self, e: dict[str, Any]) -> None:
        self._part(fill(_("{card} turned: the deal is over"), card=card(e["card"])))

    def _claim(self, e: dict[str, Any]) -> None:
        self._player_does(
            e,
            _("{you} hold {cards}: {space} {chips}"),
            _("{name} holds {cards}: {space} {chips}"),
            cards=cards(e["cards"]),
            space=space_name(e["space"]),
            chips=gold_chips(e["chips"]),
        )

    def _out(self, e: dict[str, Any]) -> None:
        self._player_does(
            e,
            _("{you} cannot pay the ante: out of the game"),
            _("{name} cannot pay the ante: out of the game"),
        )

    # ------------------------------------------------------------------ the widow

    def _blocked(self, e: dict[str, Any]) -> None:
        # Only the blocked player sees this event (the view decides): the table does not
        # learn that this hand holds a pay card.
        self._part(Text(_("your pay card rules out the widow"), style="dim"))

    def _keep(self, e: dict[str, Any]) -> None:
        self._player_does(e, _("{you} keep the hand"), _("{name} keeps the hand"))

    def _exchange(self, e: dict[str, Any]) -> None:
        self._player_does(e, _("{you} take the widow"), _("{name} takes the widow"))

    def _pass(self, e: dict[str, Any]) -> None:
        self._player_does(e, _("{you} pass"), _("{name} passes"))

    def _returned(self, e: dict[str, Any]) -> None:
        self._player_does(
            e,
            _("{you} take back {chips} uncalled"),
            _("{name} takes back {chips} uncalled"),
            chips=e["chips"],
        )

    def _bid(self, e: dict[str, Any]) -> None:
        self._player_does(e, _("{you} bid {chips}"), _("{name} bids {chips}"), chips=e["chips"])

    def _no_bid(self, e: dict[str, Any]) -> None:
        self._part(_("no bid"))

    def _widow_dead(self, e: dict[str, Any]) -> None:
        self._part(_("it stays out of play"))

    def _bought(self, e: dict[str, Any]) -> None:
        buyer, dealer = e["player"], e["dealer"]
        if buyer == self.me:
            template = _("{you} buy it for {chips}, paid to {dealer}")
        elif dealer == self.me:
            template = _("{name} buys it for {chips}, paid to you")
        else:
            template = _("{name} buys it for {chips}, paid to {dealer}")
        self._part(
            fill(
                template,
                you=self.who(buyer),
                name=self.who(buyer),
                dealer=self.who(dealer),
                chips=e["chips"],
            )
        )

    # ------------------------------------------------------------------ poker

    def _check(self, e: dict[str, Any]) -> None:
        self._part(self.does(e["player"], _("{you} check"), _("{name} checks")), ", ")

    def _fold(self, e: dict[str, Any]) -> None:
        self._part(self.does(e["player"], _("{you} fold"), _("{name} folds")), ", ")

    def _call(self, e: dict[str, Any]) -> None:
        text = self.does(
            e["player"], _("{you} call {total}"), _("{name} calls {total}"), total=e["total"]
        )
        if e["all_in"]:
            text.append(" " + _("(all in)"), style="yellow")
        self._part(text, ", ")

    def _raise(self, e: dict[str, Any]) -> None:
        player, total = e["player"], e["total"]
        if self._high_bet:
            text = self.does(
                player, _("{you} raise to {total}"), _("{name} raises to {total}"), total=total
            )
        else:
            text = self.does(player, _("{you} bet {total}"), _("{name} bets {total}"), total=total)
        if e["all_in"]:
            text.append(" " + _("(all in)"), style="yellow")
        self._high_bet = total
        self._part(text, ", ")

    def _show(self, e: dict[str, Any]) -> None:
        text = self.who(e["player"])
        text.append(" ")
        text.append_text(cards(e["cards"]))
        text.append(" " + poker_hand(e["hand"]), style="italic")
        self._packed.append(text)

    def _show_set(self, e: dict[str, Any]) -> None:
        text = self.who(e["player"])
        text.append(" ")
        text.append_text(cards(e["cards"]) if e["cards"] else Text(_("no set"), style="dim"))
        self._packed.append(text)

    def _unopened(self, e: dict[str, Any]) -> None:
        self._part(_("nobody opens the betting: the pot stays"))

    def _poker_pot(self, e: dict[str, Any]) -> None:
        pot = e["pot"]
        chips = gold_chips(e["chips"])
        what = "poker space" if pot == 0 else "side pot"
        self._part(self._won(what, e["winners"], chips=chips, share=e["share"], pot=pot))

    def _leads(self, e: dict[str, Any]) -> None:
        self._part(self.does(e["player"], _("{you} lead."), _("{name} leads.")), ". ")

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
        self._line.append(f" (+{number(e['chips'])} {space_shown(e['space'])})", style="bold green")

    def _unclaimed(self, e: dict[str, Any]) -> None:
        shown = _("({space} not claimed)").format(space=Space(e["space"]))
        self._line.append(" " + shown, style="dim")

    def _stop(self, e: dict[str, Any]) -> None:
        self._stop_card = e["card"]
        reason = e.get("reason", "")
        if reason == "widow":  # the game's own word for its spare hand
            reason = self.words.spare
        why = STOP_REASONS.get(reason, "")
        said = _("stop: {why}").format(why=_(why)) if why else _("stop")
        self._line.append(f" ▪ {said}", style="dim")
        self._flush()

    def _sans(self, e: dict[str, Any]) -> None:
        self._line.append(" " + _("sans {rank}").format(rank=rank_name(e["rank"])), style="dim")

    def _duty_passes(self, e: dict[str, Any]) -> None:
        player = e["player"]
        if self.words.switch != "colour":
            text = self.does(player, _("{you} have no other suit"), _("{name} has no other suit"))
        elif self._stop_card[-1:] in _RED:
            text = self.does(player, _("{you} have no black card"), _("{name} has no black card"))
        else:
            text = self.does(player, _("{you} have no red card"), _("{name} has no red card"))
        if e["fine"]:
            text.append(_(", fined {fine}").format(fine=number(e["fine"])), style="yellow")
        self._part(text)

    def _deadlock_continue(self, e: dict[str, Any]) -> None:
        if self.words.switch != "colour":
            mine = _("nobody holds another suit: {you} lead any suit")
            theirs = _("nobody holds another suit: {name} leads any suit")
        else:
            mine = _("nobody holds the colour: {you} lead any suit")
            theirs = _("nobody holds the colour: {name} leads any suit")
        self._player_does(e, mine, theirs)

    def _deadlock(self, e: dict[str, Any]) -> None:
        kitty = self.words.kitty
        if not kitty:
            self._part(_("nobody can lead: the deal is over"))
        elif self.words.switch != "colour":
            self._part(
                _("nobody holds another suit; 1 chip per card to {space}").format(
                    space=space_name(kitty)
                )
            )
        else:
            self._part(
                _("nobody holds the colour; 1 chip per card to {space}").format(
                    space=space_name(kitty)
                )
            )

    def _deadlock_pays(self, e: dict[str, Any]) -> None:
        self._part(Text.assemble(self.who(e["player"]), " ", number(e["chips"])), ", ")

    def _round_won(self, e: dict[str, Any]) -> None:
        kitty = self.words.kitty
        if not kitty and not e["chips"]:
            self._player_does(
                e,
                _("{you} go out and win the round"),
                _("{name} goes out and wins the round"),
            )
            return
        self._player_does(
            e,
            _("{you} go out and win the round: {space} space {chips}"),
            _("{name} goes out and wins the round: {space} space {chips}"),
            space=space_name(kitty or "kitty"),
            chips=gold_chips(e["chips"]),
        )

    def _grand_opera(self, e: dict[str, Any]) -> None:
        self._player_does(
            e,
            _("before anyone else laid a card: grand opéra, {you} take the board: {chips}"),
            _("before anyone else laid a card: grand opéra, {name} takes the board: {chips}"),
            chips=gold_chips(e["chips"]),
        )

    def _held_pays(self, e: dict[str, Any]) -> None:
        if not e["chips"]:
            return
        self._player_does(
            e,
            _("{you} still hold the {space} card: {chips} to its space"),
            _("{name} still holds the {space} card: {chips} to its space"),
            space=space_name(e["space"]),
            chips=e["chips"],
        )

    def _pays(self, e: dict[str, Any]) -> None:
        if not e["chips"]:  # nothing left to pay with: not worth a word
            return
        text = self.does(
            e["player"], _("{you} pay {chips}"), _("{name} pays {chips}"), chips=e["chips"]
        )
        self._part(text, ", " if self._paying else "; ")
        self._paying = True

    # ------------------------------------------------------------------ settlement

    def _settle_cut(self, e: dict[str, Any]) -> None:
        text = fill(
            _("Settlement cut: {name} {card}"),
            "dim",
            name=self.who(e["player"]),
            card=card(e["card"]),
        )
        self._part(text)

    def _settle_hand(self, e: dict[str, Any]) -> None:
        text = self.who(e["player"])
        text.append(" ")
        text.append_text(cards(e["cards"]))
        text.append(" " + poker_hand(e["hand"]), style="italic")
        self._packed.append(text)

    def _settled(self, e: dict[str, Any]) -> None:
        chips = gold_chips(e["chips"])
        what = "board" if e["space"] == "all" else "space"
        self._part(self._won(what, e["winners"], chips=chips, space=Space(e["space"])))

    def _won(self, what: str, winners: list[str], **values: Value) -> Text:
        """Chips won (:data:`WON` says what): by one player, the sentence agreeing with
        "you" or a name; by several, split."""
        mine, theirs, split = WON[what]
        if len(winners) == 1:
            return self.does(winners[0], _(mine), _(theirs), **values)
        return fill(_(split), names=self.names(winners), **values)


def gold_chips(chips: int) -> Text:
    """Chips won, as the narrator shows them (:func:`chips_text`, in bold yellow)."""
    return Text(chips_text(chips), style="bold yellow")


def chips_text(chips: int) -> str:
    """``1 chip``, ``5 chips`` (``5 фишек``): the count with its noun."""
    return nformat("{n} chip", "{n} chips", chips)


def _antes_text(antes: list[int]) -> str:
    """``antes 9 chips each``, or the amounts when some could not pay in full."""
    if len(set(antes)) == 1:
        return nformat("antes {n} chip each", "antes {n} chips each", antes[0])
    return _("antes {amounts}").format(amounts=", ".join(number(a) for a in antes))
