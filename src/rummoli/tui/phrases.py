"""Translated sentences with styled parts: a name in bold, chips in yellow.

A translation may put its placeholders in any order ("Bea bids 5" is "Bea bid 5" in
French and "Bea ставит 5" in Russian, but "paid to the dealer" moves about), so a
sentence is written as one message with ``{name}`` fields and filled here with rich
:class:`~rich.text.Text` pieces, each keeping its own style. Whole numbers are written
for the language in force (:func:`rummoli.i18n.number`); names and cards are put in as
they are. A term (:mod:`rummoli.i18n.forms`: a hand, a space, a player, an amount) gives
the form its field asks for (``{loser:acc}``, ``{space:def}``), in a style of its own
when it comes as :class:`Styled`.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from rummoli.i18n import _, number, pgettext
from rummoli.i18n.forms import FIELD, Player, Term


@dataclass(frozen=True, slots=True)
class Styled:
    """A term shown in a style (a player's name in bold) in whatever form is asked."""

    term: Term
    style: str = ""


Value = Text | str | int | Term | Styled


def fill(template: str, style: str = "", /, **values: Value) -> Text:
    """``template`` (already translated) with each ``{field}`` replaced by its value.

    A :class:`Text` value keeps its style; an int is formatted for the language; the
    words of the template get ``style``. A field without a value is left as written, so
    a bad translation shows rather than crashes (the catalogue test catches it first).
    """
    out = Text()
    position = 0
    for match in FIELD.finditer(template):
        out.append(template[position : match.start()], style=style)
        name, spec = match.group(1), match.group(2) or ""
        if name not in values:
            out.append(match.group(0))
        else:
            out.append_text(piece(values[name], spec))
        position = match.end()
    out.append(template[position:], style=style)
    return out


def piece(value: Value, spec: str = "") -> Text:
    """One value as text: a term in the form ``spec``, a number written for the
    language, text as it is."""
    if isinstance(value, Text):
        return value
    if isinstance(value, Styled):
        return Text(value.term.form(spec), style=value.style)
    if isinstance(value, Term):
        return Text(value.form(spec))
    if spec and isinstance(value, str):  # a plain text asked for a form is a name
        return Text(Player(value).form(spec))
    if isinstance(value, bool):
        return Text(str(value).lower())
    if isinstance(value, int):
        return Text(number(value))
    return Text(value)


#: The name ``rummoli play`` gives the human's seat when no ``--name`` is given: a code,
#: stored as it is in the record, that each language shows as its "you" (a record saved
#: in Russian replays in English with "You", not "Вы": names are data).
YOU = "You"


def shown_name(name: str, me: str | None = None) -> str:
    """A seat's name as the terminal shows it: as given, but the default human seat
    (:data:`YOU`) as the language's "You" to the human, and as "Human" to another
    seat's view (a replay from a computer player's seat)."""
    if name != YOU:
        return name
    return _("You") if me is None or name == me else pgettext("seat", "Human")


def join(pieces: list[Text], last: str, sep: str = ", ") -> Text:
    """``a, b and c``: ``last`` is the translated word before the last piece (`` and ``)."""
    if len(pieces) <= 1:
        return Text().join(pieces)
    return Text(sep).join(pieces[:-1]) + Text(last) + pieces[-1]
