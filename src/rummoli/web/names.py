"""People's names at a table: normalised, never confusable with another's, never a bot's.

A name is how the others know who is who: in the seats, the log, the chat and the
statistics (which count a person's games by name). So two names at one table must not
*look* alike, not only differ: "Ann", the Cyrillic "Аnn", the Lisu "ꓮnn", the fullwidth
"Ａｎｎ", a mathematical bold "𝐀𝐧𝐧" and "Ann" followed by an invisible character are
different strings that people read as one.

What is done, in order:

1. the name is brought to Unicode's NFKC form (compatibility characters become the plain
   ones: fullwidth and mathematical letters are letters; ligatures are split) and
   trimmed; that is the name stored and shown;
2. **invisible characters are refused**: control and format characters (bidi controls,
   zero-width ones), every *default-ignorable* code point (Unicode's
   ``Default_Ignorable_Code_Point``: the combining grapheme joiner U+034F, variation
   selectors, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, tags...), and the
   blanks that are letters or symbols to Unicode but draw nothing (U+2800, the braille
   blank): "Ann\\u034f" drew exactly as "Ann";
3. more than two combining marks on one letter (the "zalgo" text that overflows a line)
   are refused (Vietnamese needs two);
4. the letters must be of **one script** (Common and Inherited characters, digits,
   punctuation, marks, go with any), or one of the mixtures a real name has: Latin with
   Han and Japanese kana, with Han and Bopomofo, or with Han and Hangul (Unicode TR39's
   "highly restrictive" level). "ꓮnn" (Lisu and Latin) is the shape of a spoof;
5. its **skeleton**, what people would read, must not be that of a name at the table:
   Unicode TR39's skeleton (each character replaced by its prototype in Unicode's
   ``confusables.txt``: Cyrillic "а" and Lisu "ꓮ" by "a", "1" and "I" by "l", "m" by
   "rn"), then case folded, accents and other combining marks removed, and runs of
   spaces made one. The data is Unicode's, from the maintained ``confusable_homoglyphs``
   package (pure Python; ICU's spoof checker, through PyICU, would need ICU's C++ library
   and a compiler on every machine that installs the project). It ships the pairs of
   ``confusables.txt`` without their direction; each pair links a character to its
   prototype, so the prototypes are found again (:func:`_prototypes`);
6. the computer players' names (``Bot 1`` ... and anything whose skeleton is theirs) and
   ``widow`` are reserved: a person could otherwise play as "Bot 2" and be counted with
   the bots' statistics.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import defaultdict
from functools import cache
from importlib import resources

from confusable_homoglyphs import categories  # type: ignore[import-untyped]

from rummoli.i18n import N_
from rummoli.web.wording import Worded

MAX_NAME = 40
#: Combining marks allowed on one letter (Vietnamese needs two; more is decoration).
MAX_MARKS = 2

#: Unicode's ``Default_Ignorable_Code_Point`` (DerivedCoreProperties.txt, Unicode 15):
#: characters that draw nothing unless a font chooses to. Python's ``unicodedata`` does
#: not have the property; the list is short and has not changed since Unicode 6.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
#: Characters that are not default-ignorable but draw nothing all the same.
BLANKS = frozenset({"\u2800"})
#: Categories never in a name: controls, formats, private use, surrogates, unassigned,
#: line and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
#: Scripts that go with any: punctuation, digits, spaces (Common), marks (Inherited).
_ANY_SCRIPT = frozenset({"COMMON", "INHERITED"})
#: The mixtures of scripts real names have (TR39's "highly restrictive" level).
_MIXTURES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
_SPACES = re.compile(r"\s+")
#: Marks the confusables' comments put around right-to-left characters (not data).
_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


class BadName(Worded):
    """A name that cannot be taken; the message says why."""


def invisible(ch: str) -> bool:
    """Whether ``ch`` draws nothing: default-ignorable, or a blank letter or symbol."""
    code = ord(ch)
    return ch in BLANKS or any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


@cache
def _prototypes() -> dict[str, str]:
    """What each confusable character reads as, from Unicode's ``confusables.txt`` as
    the package ships it: the pairs (a character, its prototype), stored both ways.

    The characters linked by pairs read alike: each group's characters are all mapped
    to one of them, a prototype of several characters if the group has one ("m" reads
    as "rn"), else its lowest code point (a stable choice; what matters is that every
    look-alike of a group maps to the same). A character's NFKC form (the form names are
    stored in) that the data does not list reads as the character did."""
    path = resources.files("confusable_homoglyphs") / "confusables.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    parent: dict[str, str] = {}

    def find(node: str) -> str:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def join(one: str, other: str) -> None:
        parent[find(one)] = find(other)

    for source, entries in data.items():
        one = source.translate(_DIRECTION_MARKS)
        for entry in entries:
            other = str(entry["c"]).translate(_DIRECTION_MARKS)
            if one and other:
                join(one, other)
    groups: defaultdict[str, list[str]] = defaultdict(list)
    for node in parent:
        groups[find(node)].append(node)
    mapping: dict[str, str] = {}
    for members in groups.values():
        several = sorted(m for m in members if len(m) > 1)
        target = several[0] if several else min(members)
        mapping.update((m, target) for m in members if len(m) == 1 and m != target)
    for node in list(parent):
        plain = unicodedata.normalize("NFKC", node)
        if len(node) == 1 and len(plain) == 1 and plain not in parent:
            mapping[plain] = mapping.get(node, node)
    return mapping


def _confusable_skeleton(text: str) -> str:
    """TR39's skeleton: NFD, each character by its prototype, NFD again (to a fixed
    point: a prototype of several characters is mapped through them too)."""
    prototypes = _prototypes()
    text = unicodedata.normalize("NFD", text)
    for _ in range(4):
        mapped = unicodedata.normalize("NFD", "".join(prototypes.get(ch, ch) for ch in text))
        if mapped == text:
            break
        text = mapped
    return text


def _read(text: str, fold_first: bool) -> str:
    """What people read in ``text``: TR39's skeleton, case folded, then the skeleton
    again; no invisible characters, no marks, one space between words."""
    text = "".join(ch for ch in text if not invisible(ch))
    if fold_first:
        text = text.casefold()
    text = _confusable_skeleton(_confusable_skeleton(text).casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _SPACES.sub(" ", text).strip()


def skeleton(name: str) -> str:
    """What people read in ``name`` (see the module's doc): two names with one skeleton
    look alike. :func:`skeletons` has the others it may be read as."""
    return _read(unicodedata.normalize("NFKC", name), fold_first=False)


def skeletons(name: str) -> frozenset[str]:
    """Every way ``name`` may be read: two names look alike if they share one.

    Unicode's look-alikes hold between characters of one case ("0" reads as "O", "I"
    as "l"; "o" and "O" are apart), so the skeleton is taken before case folding ("Ian"
    reads as "lan") and after it ("BOT" reads as "bot"); and of the name as typed as
    well as in NFKC (a look-alike whose NFKC form is no longer one: "￨", a look-alike of
    "l", is "│" once normalised, which Unicode lists apart)."""
    forms = {unicodedata.normalize("NFKC", name), name}
    return frozenset(_read(form, fold) for form in forms for fold in (False, True))


def scripts_of(text: str) -> set[str]:
    """The scripts of ``text``'s characters, leaving out those that go with any."""
    return {str(categories.alias(ch)) for ch in text} - _ANY_SCRIPT


def _one_script(text: str) -> bool:
    found = scripts_of(text)
    return len(found) <= 1 or any(found <= mixture for mixture in _MIXTURES)


#: Digits read as the letters they look like, in a reserved name ("B0t 1" is "bot l").
_DIGITS = str.maketrans({"0": "o", "1": "l"})


@cache
def _reserved() -> re.Pattern[str]:
    """The reserved names as :func:`skeletons` read them: the computers' ``Bot N`` (and
    ``Computer N``), digits read as letters, and ``widow``."""
    words = {_read(w, True).translate(_DIGITS) for w in ("bot", "computer")}
    widow = _read("widow", True).translate(_DIGITS)
    alternatives = "|".join(re.escape(w) for w in sorted(words))
    return re.compile(rf"^(({alternatives}) ?[\dlo]*|{re.escape(widow)})$")


def reserved(name: str) -> bool:
    """Whether ``name`` reads as a computer player's name or the widow."""
    pattern = _reserved()
    return any(pattern.match(key.translate(_DIGITS)) for key in skeletons(name))


def normalise(name: object) -> str:
    """A name as it is stored and shown (NFKC, trimmed), or :class:`BadName` why not."""
    if not isinstance(name, str):
        raise BadName(N_("the name must be text"))
    text = unicodedata.normalize("NFKC", name).strip()
    if not text:
        raise BadName(N_("please give a name"))
    if len(text) > MAX_NAME:
        raise BadName(N_("a name has at most {n} characters"), n=MAX_NAME)
    if any(unicodedata.category(ch) in _REFUSED_CATEGORIES for ch in text):
        raise BadName(N_("a name cannot hold control characters"))
    if any(invisible(ch) for ch in text):
        raise BadName(N_("a name cannot hold invisible characters"))
    marks = 0
    previous = " "
    for ch in text:
        if unicodedata.category(ch).startswith("M"):
            # A mark sits on a letter or a digit: on a space it is a look-alike of one
            # (the spacing ogonek "˛", a look-alike of "i", is a space and a mark once
            # normalised).
            if not unicodedata.category(previous).startswith(("L", "N")):
                raise BadName(N_("a combining mark must sit on a letter"))
            marks += 1 if unicodedata.combining(ch) else 0  # spacing vowel signs do not stack
            if marks > MAX_MARKS:
                raise BadName(N_("a name cannot stack combining marks"))
        else:
            marks = 0
            previous = ch
    if not _one_script(text):
        raise BadName(N_("a name cannot mix the letters of several scripts (they look alike)"))
    if reserved(text):
        raise BadName(N_("{name} is reserved (the computer players, the widow)"), name=repr(text))
    return text


def check_name(name: object, taken: list[str]) -> str:
    """A player's name as it will be stored and shown, unless it cannot be taken here.

    ``taken``: the names already at the table. Names are text, never markup: the page
    writes them with ``textContent``, so ``<b>`` is shown as those three characters.
    """
    text = normalise(name)
    mine = skeletons(name if isinstance(name, str) else text)
    for other in taken:
        if skeletons(other) & mine:
            if other.casefold() == text.casefold():
                raise BadName(
                    N_("{name} is already at this table; please choose another"),
                    name=repr(text),
                )
            raise BadName(
                N_(
                    "{name} looks like {other}, who is already at this table; please choose another"
                ),
                name=repr(text),
                other=repr(other),
            )
    return text


__all__ = [
    "MAX_NAME",
    "BadName",
    "check_name",
    "invisible",
    "normalise",
    "reserved",
    "scripts_of",
    "skeleton",
    "skeletons",
]
