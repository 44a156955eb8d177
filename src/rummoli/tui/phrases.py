"""Translated sentences with styled parts: a name in bold, chips in yellow.

A translation may put its placeholders in any order ("Bea bids 5" is "Bea bid 5" in
French and "Bea ставит 5" in Russian, but "paid to the dealer" moves about), so a
sentence is written as one message with ``{name}`` fields and filled here with rich
:class:`~rich.text.Text` pieces, each keeping its own style. Whole numbers are written
for the language in force (:func:`rummoli.i18n.number`); names and cards are put in as
they are.
"""

from __future__ import annotations

import re

from rich.text import Text

from rummoli.i18n import number

_FIELD = re.compile(r"\{(\w+)\}")


def fill(template: str, style: str = "", /, **values: Text | str | int) -> Text:
    """``template`` (already translated) with each ``{field}`` replaced by its value.

    A :class:`Text` value keeps its style; an int is formatted for the language; the
    words of the template get ``style``. A field without a value is left as written, so
    a bad translation shows rather than crashes (the catalogue test catches it first).
    """
    out = Text()
    position = 0
    for match in _FIELD.finditer(template):
        out.append(template[position : match.start()], style=style)
        name = match.group(1)
        if name not in values:
            out.append(match.group(0))
        else:
            out.append_text(piece(values[name]))
        position = match.end()
    out.append(template[position:], style=style)
    return out


def piece(value: Text | str | int) -> Text:
    """One value as text: a number written for the language, text as it is."""
    if isinstance(value, Text):
        return value
    if isinstance(value, bool):
        return Text(str(value).lower())
    if isinstance(value, int):
        return Text(number(value))
    return Text(value)


def join(pieces: list[Text], last: str, sep: str = ", ") -> Text:
    """``a, b and c``: ``last`` is the translated word before the last piece (`` and ``)."""
    if len(pieces) <= 1:
        return Text().join(pieces)
    return Text(sep).join(pieces[:-1]) + Text(last) + pieces[-1]
