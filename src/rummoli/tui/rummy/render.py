"""Drawing a Basic Rummy table for one seat, from that seat's view only.

As for Rummoli (:mod:`rummoli.tui.stops.render`), everything here takes the view dict
(``state.view(seat)``), never the state, so the screen shows exactly what the engine says
the seat may see: its own hand, the other hands as counts, the stock as a count, the top
of the discard pile, the melds. The layout is a compact block for a plain 80x24 terminal,
printed each time the human decides.

Melds are numbered from 1 on screen (``#1 7♣ 8♣ 9♣``), and the human lays off by those
numbers (``lay 5C on 2``); the engine's slots count from 0, and that offset lives in
:func:`meld_number` and :mod:`rummoli.tui.rummy.input` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from rummoli.i18n import NP_, _, nformat, npgettext, number, pgettext
from rummoli.i18n.forms import Player
from rummoli.tui.cards import SUIT_SYMBOLS, SUITS, card, cards, pack
from rummoli.tui.phrases import fill, shown_name

#: Ranks with aces low, as Rummy plays them.
LOW_RANKS = "A23456789TJQK"

#: How the human's hand is ordered; ``sort`` switches between them.
BY_SUIT = "suit"
BY_RANK = "rank"


def meld_number(slot: int) -> str:
    """A meld's number as the screen shows it (slots count from 0, people from 1)."""
    return f"#{slot + 1}"


def symbols(text: str) -> str:
    """A card's text with its suit symbol (``KS`` -> ``K♠``, ``TS`` -> ``10♠``: the one
    notation of every table), for plain-string messages."""
    rank = text[:-1]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[text[-1]]


def low_rank_of(text: str) -> int:
    rank = text[:-1]
    return LOW_RANKS.index("T" if rank == "10" else rank)


def hand(texts: Sequence[str], order: str = BY_SUIT) -> Text:
    """A hand grouped by suit (C D H S, aces low) or by rank (A to K), with a wider gap
    between groups: suits show runs, ranks show sets."""
    if order == BY_RANK:
        ranks = sorted({low_rank_of(c) for c in texts})
        groups = [
            sorted((c for c in texts if low_rank_of(c) == r), key=lambda c: SUITS.index(c[-1]))
            for r in ranks
        ]
    else:
        groups = [sorted((c for c in texts if c[-1] == s), key=low_rank_of) for s in SUITS]
    return Text("  ").join(cards(g) for g in groups if g)


def header(view: dict[str, Any]) -> Text:
    """``Hand 2 · to 100 points · dealer Bea · your turn`` for the rule above the table."""
    players = view["players"]
    parts = [
        _("Hand {n}").format(n=view["hand_no"]),
        nformat("to {n} point", "to {n} points", view["target"]),
    ]
    if view["dealer"] is not None:
        parts.append(_("dealer {name}").format(name=shown_name(players[view["dealer"]]["name"])))
    if view["turn"] is not None:
        turn = view["turn"]
        if turn == view["seat"]:
            parts.append(_("your turn"))
        else:
            parts.append(_("{name}'s turn").format(name=Player(shown_name(players[turn]["name"]))))
    return Text(" " + " · ".join(parts) + " ", style="bold")


def player_line(seat: int, view: dict[str, Any]) -> Text:
    """One player: name ((D) for the dealer), match points, cards in hand (whose turn it
    is, the rule above says)."""
    player = view["players"][seat]
    me = seat == view["seat"]
    name = shown_name(player["name"])[:12] + (" " + _("(D)") if view["dealer"] == seat else "")
    line = Text("  ")
    line.append(f"{name:<17}", style="bold cyan" if me else "bold")
    score = player["score"]
    line.append(f"{number(score):>4}", style="bold yellow")
    line.append(" " + npgettext("after a number", "point", "points", score) + "  ")
    count = player["cards"]
    shown = nformat("{n} card", "{n} cards", count)
    line.append(" " + shown if count < 10 else shown)
    if player["has_melded"]:
        line.append("  " + _("has melded"), style="dim")
    return line


def piles_line(view: dict[str, Any]) -> Text:
    """``Stock 23 · Discard 9♥ (5 cards)``, and the card taken this turn, if any."""
    line = Text(_("Stock") + " ", style="dim")
    line.append(number(view["stock"]), style="bold")
    line.append(" · " + _("Discard") + " ", style="dim")
    pile = view["discard"]
    if pile:
        line.append_text(card(pile[-1]))
        line.append(" (" + nformat("{n} card", "{n} cards", len(pile)) + ")", style="dim")
    else:
        line.append(_("empty"), style="dim")
    if view["reshuffled"]:
        line.append(" · " + _("reshuffled"), style="dim")
    taken = view["taken_discard"]
    if taken is not None and taken in view.get("hand", ()):
        line.append(" · ", style="italic")
        line.append_text(fill(_("you took {card} (keep it this turn)"), "italic", card=card(taken)))
    return line


def melds_block(melds: Sequence[Sequence[str]]) -> Text:
    """Every meld on the table with its number: ``#1 7♣ 8♣ 9♣  #2 Q♦ Q♥ Q♠``."""
    if not melds:
        return Text.assemble((label("Melds"), "dim"), (_("none yet"), "dim"))
    tokens = []
    for slot, meld in enumerate(melds):
        token = Text(meld_number(slot) + " ", style="bold magenta")
        token.append_text(cards(meld))
        tokens.append(token)
    return pack(tokens, label=label("Melds"), sep="   ")


def table(view: dict[str, Any], order: str = BY_SUIT) -> list[Text]:
    """The whole table as ``view["seat"]`` sees it: the others, piles, melds, own hand."""
    me = view["seat"]
    n = len(view["players"])
    lines = [player_line((me + step) % n, view) for step in range(1, n)]
    lines.append(piles_line(view))
    lines.append(melds_block(view["melds"]))
    lines.append(player_line(me, view))
    lines.append(pack([hand(view["hand"], order)], label=label("Hand")))
    return lines


def pile_line(view: dict[str, Any]) -> Text:
    """The whole discard pile, bottom first (it lies face up: anyone may look)."""
    if not view["discard"]:
        return Text(_("The discard pile is empty."))
    return pack([card(c) for c in view["discard"]], label=_("Pile (top last)") + "  ", sep=" ")


def standings(players: Sequence[dict[str, Any]], me: str) -> Text:
    """The match standings, most points first."""
    order = sorted(players, key=lambda p: -p["score"])
    lines = []
    for place, player in enumerate(order, start=1):
        line = Text(f"{place:>3}. ")
        line.append(
            f"{shown_name(player['name'], me)[:20]:<20}",
            style="bold cyan" if player["name"] == me else "bold",
        )
        score = player["score"]
        line.append(f"{number(score):>5}", style="bold yellow")
        line.append(" " + npgettext("after a number", "point", "points", score))
        lines.append(line)
    return Text("\n").join(lines)


def scores_line(view: dict[str, Any], me: str) -> Text:
    """``Match (to 100): Bea 74 · You 45 · Cy 30``."""
    tokens = []
    for player in sorted(view["players"], key=lambda p: -p["score"]):
        style = "bold cyan" if player["name"] == me else "bold"
        tokens.append(
            Text.assemble(
                (shown_name(player["name"], me), style), " ", (number(player["score"]), "yellow")
            )
        )
    return pack(
        tokens, label=_("Match (to {target}): ").format(target=number(view["target"])), sep=" · "
    )


#: The labels in front of the table's lines (context ``table``), padded to one width.
_LABELS = (NP_("table", "Melds"), NP_("table", "Hand"))


def label(word: str) -> str:
    """A table line's label in the language in force, padded so the lines start together."""
    width = max(len(pgettext("table", w)) for w in _LABELS) + 2
    return f"{pgettext('table', word):<{width}}"
