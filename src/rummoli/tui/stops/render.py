"""Drawing the table for one seat, from that seat's view only.

Everything here takes a view dict (``state.view(seat)``), never the state, so what the
screen shows is exactly what the engine says the seat may see. The layout is built for a
plain 80x24 terminal: a compact block of one line per player, printed each time the
human must decide, instead of a full-screen application.

Cards are always drawn by :func:`card`, as a rank and a suit symbol (``10♠``); board
spaces keep their names (``10S``, ``KH``), so a card on screen is never confused with a
space. A terminal that cannot show the symbols gets :func:`ascii_text` of every line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from rummoli.i18n import NP_, _, nformat, npgettext, number, pgettext
from rummoli.i18n.terms import poker_hand, rank_name, space_shown
from rummoli.tui.cards import (
    RANKS,
    SUITS,
    WIDTH,
    cards,
    hand,
    pack,
    suit_text,
)
from rummoli.tui.phrases import shown_name

PHASE_LABELS = {
    "start": NP_("phase", "the deal"),
    "widow": NP_("phase", "the widow"),
    "auction": NP_("phase", "widow auction"),
    "betting": NP_("phase", "poker betting"),
    "play": NP_("phase", "Rummoli phase"),
    "next_round": NP_("phase", "round over"),
    "over": NP_("phase", "game over"),
    "settlement": NP_("phase", "settlement poker"),
    "stake": NP_("phase", "stakes"),
}

#: The spare hand's phases in another game's word (its layout's ``spare_word``).
SPARE_PHASE_LABELS = {
    "dead hand": {
        "widow": NP_("phase", "the dead hand"),
        "auction": NP_("phase", "dead hand auction"),
    },
    "spare hand": {
        "widow": NP_("phase", "the spare hand"),
        "auction": NP_("phase", "spare hand auction"),
    },
}


def _spare_word(view: dict[str, Any]) -> str:
    """What the view's game calls its spare hand (Rummoli's "widow" when unknown)."""
    from rummoli.tui.stops.words import game_words

    game = view.get("game")
    return game_words(game).spare if isinstance(game, str) else "widow"


#: The labels in front of the table's lines, padded to one width in each language
#: (``Board  ``, ``Hand   ``): the longest label of the language sets it.
_LABELS = (
    NP_("table", "Board"),
    NP_("table", "Laid"),
    NP_("table", "Hand"),
    NP_("table", "Poker"),
    NP_("table", "Trumps"),
)


def label(word: str) -> str:
    """A table line's label (context ``table``), padded so the lines start together."""
    width = max(len(pgettext("table", w)) for w in _LABELS) + 2
    return f"{pgettext('table', word):<{width}}"


def header(view: dict[str, Any], rounds: int, play_phase: str = "") -> Text:
    """``Round 2/5 · poker betting · dealer Cy`` for the rule above the table
    (``play_phase``: the game's name of the runs, Rummoli's by default)."""
    players = view["players"]
    dealer = shown_name(players[view["dealer"]]["name"]) if view["dealer"] is not None else "?"
    phase = view["phase"]
    spare = _spare_word(view)
    if phase == "play" and play_phase:
        phase = pgettext("phase", play_phase)
    elif phase in ("widow", "auction") and spare in SPARE_PHASE_LABELS:
        phase = pgettext("phase", SPARE_PHASE_LABELS[spare][phase])
    else:
        phase = pgettext("phase", PHASE_LABELS[phase]) if phase in PHASE_LABELS else phase
    if rounds:
        round_ = _("Round {n}/{rounds}").format(n=view["round"], rounds=rounds)
    else:
        round_ = _("Round {n}").format(n=view["round"])
    dealt = _("dealer {name}").format(name=dealer)
    return Text(f" {round_} · {phase} · {dealt} ", style="bold")


def board_line(board: dict[str, int]) -> Text:
    """Each space with its chips, e.g. ``poker 3  10S 3 ... rummoli 12``."""
    tokens = []
    for name, chips in board.items():
        token = Text(space_shown(name) + " ", style="cyan")
        token.append(number(chips), style="bold yellow" if chips else "dim")
        tokens.append(token)
    return pack(tokens, label=label("Board"))


def _status(player: dict[str, Any], view: dict[str, Any]) -> Text:
    """What the table knows about a player this round, in a few words."""
    if player["out"]:
        return Text(_("out of the game"), style="dim")
    if not player["in_round"]:
        return Text(_("sits out"), style="dim")
    count = player["cards"]
    shown = nformat("{n} card", "{n} cards", count)
    parts: list[Text] = [Text(" " + shown if count < 10 else shown)]
    if view["phase"] not in ("betting", "settlement"):
        pass
    elif player["folded"]:
        parts.append(Text(_("folded"), style="dim"))
    else:
        parts.append(Text(_("bet {chips}").format(chips=number(player["bet"])), style="yellow"))
    return Text("  ").join(parts)


def player_line(seat: int, view: dict[str, Any], me: bool = False) -> Text:
    """One player: name ((D) for the dealer), chips, cards, bet, laid cards."""
    player = view["players"][seat]
    name = shown_name(player["name"])[:12] + (" " + _("(D)") if view["dealer"] == seat else "")
    line = Text(" ")
    line.append(f"{name:<16}", style="bold cyan" if me else "bold")
    chips = player["chips"]
    line.append(f"{number(chips):>5}", style="bold yellow")
    line.append(" " + chips_word(chips))
    line.append("  ")
    line.append_text(_status(player, view))
    laid = player["laid"]
    if laid and not me:
        word = "  " + _("laid") + " "
        room = WIDTH - line.cell_len - len(word)
        shown = laid[-max(room // 3, 1) :]
        line.append(word if len(shown) == len(laid) else word + "…", style="dim")
        line.append_text(cards(shown))
    return line


def laid_strip(view: dict[str, Any]) -> Text:
    """Every suit as 13 places: the ranks already laid, ``x`` for a card known to be in
    the widow, a dot for the others. Where a run will stop is the first thing a Rummoli
    player looks for."""
    laid = {entry["card"] for entry in view["laid"]}
    dead = set(view["widow"]["known"])
    tokens = []
    for suit in SUITS:
        token = suit_text(suit)
        token.append(" ")
        for rank in RANKS:
            if rank + suit in laid:
                token.append(rank, style="bold")
            elif rank + suit in dead:
                token.append("x", style="dim red")
            else:
                token.append("·", style="dim")
        tokens.append(token)
    return pack(tokens, label=label("Laid"))


def table(view: dict[str, Any]) -> list[Text]:
    """The whole table as ``view["seat"]`` sees it: board, others, laid cards, own hand."""
    me = view["seat"]
    n = len(view["players"])
    lines: list[Text] = [board_line(view["board"])]
    trump = view.get("trump")
    if trump and trump["suit"]:
        token = suit_text(trump["suit"])
        if trump["card"]:
            token.append("  ")
            token.append_text(cards([trump["card"]]))
        lines.append(pack([token], label=label("Trumps")))
    for step in range(1, n):
        lines.append(player_line((me + step) % n, view))
    if view["laid"] or view["phase"] == "play":
        lines.append(laid_strip(view))
    extra = situation(view)
    if extra is not None:
        lines.append(extra)
    lines.append(player_line(me, view, me=True))
    lines.append(pack([hand(view["hand"])], label=label("Hand")))
    poker = view.get("poker_hand")
    if poker:
        lines.append(
            pack(
                [Text(poker_hand(poker["name"]), style="bold"), cards(poker["cards"])],
                label=label("Poker"),
            )
        )
    known = view["widow"]["known"]
    if known:
        spare = _spare_word(view)
        if spare == "dead hand":
            name = _("Dead hand  (your old hand) ")
        elif spare == "spare hand":
            name = _("Spare hand  (your old hand) ")
        else:
            name = _("Widow  (your old hand) ")
        lines.append(pack([cards(known)], label=name))
    return lines


def situation(view: dict[str, Any]) -> Text | None:
    """The auction's or the betting's state, when one is going on."""
    names = [shown_name(p["name"]) for p in view["players"]]
    if view["phase"] == "auction" and "auction" in view:
        auction = view["auction"]
        if auction["high_bidder"] is None:
            return Text(_("Widow auction: no bid yet"), style="italic")
        who = names[auction["high_bidder"]]
        return Text(
            _("Widow auction: high bid {chips} by {name}").format(
                chips=number(auction["high_bid"]), name=who
            ),
            style="italic",
        )
    sequence = view.get("sequence")
    if sequence is not None:
        if sequence["next"] is None:
            return Text(_("A new sequence: any card"), style="italic")
        return Text(_("Next rank: {rank}").format(rank=rank_name(sequence["next"])), style="italic")
    if "betting" in view:  # the poker phase's, or the settlement's (settlement_betting)
        betting = view["betting"]
        return Text(
            _("Poker: pot {pot}, high bet {high}").format(
                pot=number(betting["pot"]), high=number(betting["high"])
            ),
            style="italic",
        )
    return None


def standings(players: Sequence[tuple[str, int]], me: str) -> Text:
    """Final or current standings, most chips first."""
    order = sorted(players, key=lambda p: -p[1])
    lines = []
    for place, (name, chips) in enumerate(order, start=1):
        style = "bold cyan" if name == me else "bold"
        line = Text(f"{place:>3}. ")
        line.append(f"{shown_name(name, me)[:20]:<20}", style=style)
        line.append(f"{number(chips):>6}", style="bold yellow")
        line.append(" " + chips_word(chips))
        lines.append(line)
    return Text("\n").join(lines)


def chips_word(chips: int) -> str:
    """The noun after a count of chips, in the form the count needs (``chips``,
    ``фишки``, ``фишек``), for columns where the number is printed apart."""
    return npgettext("after a number", "chip", "chips", chips)
