"""A language's typography, applied to its messages as they are read, not by hand.

French puts a narrow no-break space (U+202F) before ``: ; ! ?`` and inside « »; a
translator writes ``Donne: {n}`` and ``«none»`` like the English, and :func:`typeset`
makes them ``Donne\u202f: {n}`` and ``«\u202fnone\u202f»``, so no entry can have a plain
space that lets the colon wrap onto the next line, and no two entries differ. A mark
that stands alone between spaces is a key or a symbol (``tapez ? pour un conseil``) and
is left as it is; so are ``http://``, ``10:30`` and a mark already spaced right.

The catalogues are typeset once, when a language is loaded (``rummoli.i18n.translator``
for the terminal, ``web/catalogue.py`` for the pages), and so are the rules documents:
the hot paths pay nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

NNBSP = "\u202f"
#: A high mark right after a word, a closing bracket or a field (or after a no-break
#: space), followed by the end, a space or closing punctuation. A mark after a plain
#: space is a key (``tapez ? pour un conseil``): the catalogues write marks attached.
_HIGH = re.compile(r"(?<=[\w)\]}»'\"%…*`])[\u00a0\u202f]?([:;!?]+)(?=$|[\s)\]»\"*`_,.])")
_OPEN = re.compile(r"«[ \u00a0\u202f]*")
_CLOSE = re.compile(r"[ \u00a0\u202f]*»")


def french(text: str) -> str:
    """``text`` with French spacing: U+202F before ``: ; ! ?`` and inside « »."""
    if not any(mark in text for mark in ":;!?«»"):
        return text
    text = _HIGH.sub(lambda m: NNBSP + m.group(1), text)
    text = _OPEN.sub("«" + NNBSP, text)
    return _CLOSE.sub(NNBSP + "»", text)


def _same(text: str) -> str:
    return text


#: Each language's typesetter (a language not named here has none).
TYPESETTERS: dict[str, Callable[[str], str]] = {"fr": french}


def typesetter(lang: str) -> Callable[[str], str]:
    """The function that typesets ``lang``'s messages (the text itself for most)."""
    return TYPESETTERS.get(lang, _same)


def typeset(text: str, lang: str) -> str:
    return typesetter(lang)(text)


def mark(punctuation: str) -> str:
    """A mark appended after a translated text (``:`` after a line that lists), spaced
    as the language in force spaces it (French: U+202F before it)."""
    from rummoli.i18n import current_language

    return typeset("x" + punctuation, current_language())[1:]
