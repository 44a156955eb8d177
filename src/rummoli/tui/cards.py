"""Cards and text for every game's terminal table: one card is always drawn the same way.

A card is a rank and a suit symbol (``10♠``, ``Q♣``: the international indices, the same
on the web pages and in every language's rules: docs/glossary.md "Cards"), red for
diamonds and hearts; a terminal that
cannot show the symbols gets :func:`ascii_text` of every line. :func:`pack` lays tokens on
as few lines as fit the 80-column layout both games are designed for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text

SUITS = "CDHS"
RANKS = "23456789TJQKA"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED_SUITS = ("D", "H")

#: The width the layout is designed for; wider terminals just get the same lines.
WIDTH = 80


def suit_text(suit: str) -> Text:
    """A suit letter as its symbol, red for diamonds and hearts."""
    return Text(SUIT_SYMBOLS[suit], style="bold red" if suit in RED_SUITS else "bold")


def card(text: str) -> Text:
    """One card from its text (``TS`` or ``10S``), e.g. ``10♠``."""
    rank, suit = text[:-1], text[-1]
    rank = "10" if rank == "T" else rank
    return Text(rank + SUIT_SYMBOLS[suit], style="bold red" if suit in RED_SUITS else "bold")


def cards(texts: Iterable[str]) -> Text:
    return Text(" ").join(card(c) for c in texts)


def hand(texts: Sequence[str]) -> Text:
    """A hand grouped by suit (C D H S), low to high, with a wider gap between suits."""
    groups = [sorted((c for c in texts if c[-1] == s), key=_rank_index) for s in SUITS]
    return Text("   ").join(cards(g) for g in groups if g)


_ASCII = str.maketrans(
    {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "·": ".", "…": "~", "▪": "|", "─": "-"}
)


def ascii_text(text: Text) -> Text:
    """The same text in plain ASCII, for a terminal without Unicode: one character for
    one (``10♠`` becomes ``10S``), so every style stays where it was."""
    out = text.copy()
    out.plain = text.plain.translate(_ASCII)
    return out


def _rank_index(card: str) -> int:
    rank = card[:-1]
    return RANKS.index("T" if rank == "10" else rank)


def pack(tokens: Sequence[Text], label: str = "", width: int = WIDTH, sep: str = "  ") -> Text:
    """Tokens on as few lines as fit ``width``, never splitting a token; continuation
    lines are indented under the first token so the label stands out."""
    indent = " " * len(label)
    out = Text(label)
    line_len = len(label)
    first = True
    for token in tokens:
        need = token.cell_len + (0 if first else len(sep))
        if not first and line_len + need > width:
            out.append("\n" + indent)
            line_len = len(indent)
            need = token.cell_len
        elif not first:
            out.append(sep)
        out.append_text(token)
        line_len += need
        first = False
    return out
