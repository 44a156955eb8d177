"""The glossary as data: ``glossary.toml`` is the list, ``docs/glossary.md`` its reading.

Every game term has one entry: its words in English, French and Russian, a note, and
the words a translation must not use for it (``fr_not``, ``ru_not``: regular
expressions, checked against every catalogue entry whose English speaks of the term,
``en_match``: ``tests/test_i18n_glossary.py``). The terms sentences insert (hands, ranks,
spaces, counted nouns, "you") carry their forms too (:mod:`rummoli.i18n.forms`).

``python -m rummoli.i18n.glossary docs/glossary.md`` writes the Markdown page; a test
checks the committed page is what this writes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rummoli.i18n.forms import glossary

#: The languages the glossary gives words in, in its columns' order.
LANGUAGES = ("en", "fr", "ru")

_INTRO = """\
# Glossary: the game's words in English, French and Russian

<!-- Written by `python -m rummoli.i18n.glossary docs/glossary.md` from
src/rummoli/i18n/glossary.toml: edit that file, then run the command. -->

The catalogues (`src/rummoli/locale/`) and the rules documents
(`src/rummoli/games/<game>/text/rules.{fr,ru}.md`) use these words, and only these:
`src/rummoli/i18n/glossary.toml` holds them as data, and `tests/test_i18n_glossary.py`
fails on any catalogue entry whose English speaks of a term and whose translation uses
a word listed under *not*. The Russian terms follow the project's Russian source text
(`shared/seeds/002_*.txt`: банк, вдова, дилер, фишки, ставка); the French ones are the
standard card vocabulary as a Quebec table says it. French typography (a narrow no-break
space before `: ; ! ?` and inside « ») is applied when a catalogue is read
(`rummoli.i18n.typography`), never typed in an entry.

The terms a sentence inserts (poker hands, ranks, board spaces, counted nouns, "you")
have their forms there too: the Russian cases, the French gender (docs/i18n.md "Terms in
sentences"). Where a word is typed (card codes, house rules, commands), it is the same in
every language; the table says so.
"""

_CARDS = """\
On screen, at the keyboard and in the rules documents, cards are written with the
international indices in every language: `2`-`10`, `J`, `Q`, `K`, `A` and the suit
symbols ♣ ♦ ♥ ♠ (`Q♣`, `10♥`, `A♠`): never the French letters (V, D, R) nor the Russian
ones (В, Д, К, Т), so a ten is never read as a Russian ace (Т). A card is typed with
the English letters `C` `D` `H` `S` for the suits (`QD`, `10S` or `TS`); the rules
documents say so where they explain typing.
"""


@dataclass(frozen=True, slots=True)
class Term:
    """One glossary entry."""

    section: str
    words: dict[str, str]
    note: str
    #: The English messages that speak of the term (a regular expression), or "".
    en_match: str
    #: Per language, what a translation of such a message must not contain.
    forbidden: dict[str, tuple[str, ...]]

    def matches(self, english: str) -> bool:
        """Whether an English message speaks of the term, at a sentence's start too."""
        return bool(self.en_match) and re.search(self.en_match, english, re.IGNORECASE) is not None

    def violations(self, lang: str, text: str) -> list[str]:
        """The forbidden variants ``text`` uses (case-insensitive)."""
        return [p for p in self.forbidden.get(lang, ()) if re.search(p, text, re.IGNORECASE)]


def _term(entry: dict[str, Any]) -> Term:
    return Term(
        section=entry.get("section", ""),
        words={lang: entry.get(lang, "") for lang in LANGUAGES},
        note=entry.get("note", ""),
        en_match=entry.get("en_match", ""),
        forbidden={lang: tuple(entry.get(f"{lang}_not", ())) for lang in LANGUAGES if lang != "en"},
    )


def terms() -> list[Term]:
    """Every entry of the glossary, in its order."""
    return [_term(e) for e in glossary()]


def _sections() -> Iterator[tuple[str, list[Term]]]:
    order: dict[str, list[Term]] = {}
    for term in terms():
        order.setdefault(term.section, []).append(term)
    yield from order.items()


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _forbidden(term: Term) -> str:
    said = [
        f"{lang}: not {', '.join(f'`{p}`' for p in patterns)}"
        for lang, patterns in term.forbidden.items()
        if patterns
    ]
    return "; ".join(said)


def markdown() -> str:
    """``docs/glossary.md``: the intro, then one table per section."""
    out = [_INTRO]
    for section, entries in _sections():
        out.append(f"\n## {section}\n")
        out.append("| English | French | Russian | note |\n|---|---|---|---|")
        for term in entries:
            if "{" in term.words["en"]:  # a frame for other words (a pay card's space)
                continue
            note = "; ".join(part for part in (term.note, _forbidden(term)) if part)
            cells = [term.words["en"], term.words["fr"], term.words["ru"], note]
            out.append("| " + " | ".join(_cell(c) for c in cells) + " |")
        if section == "Cards":
            out.append("\n" + _CARDS)
    return "\n".join(out).rstrip() + "\n"


def main(argv: list[str]) -> int:
    """Write the Markdown page to the path given (standard output without one)."""
    text = markdown()
    if argv:
        with open(argv[0], "w", encoding="utf-8") as page:
            page.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
