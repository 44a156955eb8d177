"""People's names at a table: normalised, never confusable with another's, never a bot's.

A name is how the others know who is who: in the seats, the log, the chat and the
statistics (which count a person's games by name). So two names at one table must not
*look* alike, not only differ: "Ann", the Cyrillic "Аnn", the fullwidth "Ａｎｎ" and a
mathematical bold "𝐀𝐧𝐧" are four different strings that people read as one.

What is done, in order:

1. the name is brought to Unicode's NFKC form (compatibility characters become the plain
   ones: fullwidth and mathematical letters are letters; ligatures are split) and
   trimmed; that is the name stored and shown;
2. its **skeleton** is what people would read: NFKC, case folded, accents and other
   combining marks removed, the common look-alikes of Latin letters in Cyrillic, Greek
   and a few other scripts mapped to the Latin letter, the letter-like digits 0 and 1
   mapped to o and l, and runs of spaces made one. Two names with the same skeleton
   cannot sit at the same table (after Unicode's TR39 "skeleton", with a table small
   enough to read);
3. a name mixing Latin letters with Cyrillic or Greek ones is refused outright (the
   shape of a spoof, and of no real name);
4. control and format characters, and more than two combining marks on one letter
   (the "zalgo" text that overflows a line), are refused;
5. the computer players' names (``Bot 1`` ... and anything that reads like them) and
   ``widow`` are reserved: a person could otherwise play as "Bot 2" and be counted
   with the bots' statistics.
"""

from __future__ import annotations

import re
import unicodedata

from rummoli.i18n import N_
from rummoli.web.wording import Worded

MAX_NAME = 40
#: Combining marks allowed on one letter (Vietnamese needs two; more is decoration).
MAX_MARKS = 2

#: Look-alikes of Latin letters (lower case, after case folding), by script.
_CONFUSABLE = {
    # Cyrillic
    "а": "a",
    "в": "b",
    "с": "c",
    "ԁ": "d",
    "е": "e",
    "ё": "e",
    "һ": "h",
    "і": "i",
    "ї": "i",
    "ј": "j",
    "к": "k",
    "ӏ": "l",
    "м": "m",
    "н": "h",
    "о": "o",
    "р": "p",
    "ԛ": "q",
    "г": "r",
    "ѕ": "s",
    "т": "t",
    "ц": "u",
    "ѵ": "v",
    "ԝ": "w",
    "х": "x",
    "у": "y",
    "з": "3",
    "ь": "b",
    "п": "n",
    "л": "n",
    "ү": "y",
    "ɡ": "g",
    # Greek
    "α": "a",
    "β": "b",
    "ϲ": "c",
    "δ": "d",
    "ε": "e",
    "η": "n",
    "ι": "i",
    "κ": "k",
    "ν": "v",
    "ο": "o",
    "ρ": "p",
    "τ": "t",
    "υ": "u",
    "χ": "x",
    "γ": "y",
    "ω": "w",
    "ζ": "z",
    "μ": "u",
    "ϳ": "j",
    # Armenian, Cherokee and others that copy Latin shapes
    "օ": "o",
    "ս": "u",
    "ց": "g",
    "հ": "h",
    "ո": "n",
    "ᴀ": "a",
    "ʙ": "b",
    "ᴄ": "c",
    "ᴅ": "d",
    "ᴇ": "e",
    "ɢ": "g",
    "ʜ": "h",
    "ɪ": "i",
    "ᴊ": "j",
    "ᴋ": "k",
    "ʟ": "l",
    "ᴍ": "m",
    "ɴ": "n",
    "ᴏ": "o",
    "ᴘ": "p",
    "ʀ": "r",
    "ꜱ": "s",
    "ᴛ": "t",
    "ᴜ": "u",
    "ᴠ": "v",
    "ᴡ": "w",
    "ʏ": "y",
    "ᴢ": "z",
    "ı": "i",
    "ȷ": "j",
    "ł": "l",
    "ø": "o",
    "đ": "d",
    "ħ": "h",
    # digits and signs read as letters
    "0": "o",
    "1": "l",
    "|": "l",
    "$": "s",
    "@": "a",
}
_SKELETON = str.maketrans(_CONFUSABLE)
#: Reserved skeletons (digits are read as letters there: "Bot 1" is "bot l").
_RESERVED = re.compile(r"^((bot|computer) ?[\dlo]*|widow)$")
_SPACES = re.compile(r"\s+")


class BadName(Worded):
    """A name that cannot be taken; the message says why."""


def _script(ch: str) -> str:
    """The script of a letter, from its Unicode name (LATIN, CYRILLIC, GREEK...)."""
    try:
        return unicodedata.name(ch).split(" ", 1)[0]
    except ValueError:
        return ""


def skeleton(name: str) -> str:
    """What people read in ``name``: two names with one skeleton look alike."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))
    text = text.translate(_SKELETON)
    return _SPACES.sub(" ", text).strip()


def normalise(name: object) -> str:
    """A name as it is stored and shown (NFKC, trimmed), or :class:`BadName` why not."""
    if not isinstance(name, str):
        raise BadName(N_("the name must be text"))
    text = unicodedata.normalize("NFKC", name).strip()
    if not text:
        raise BadName(N_("please give a name"))
    if len(text) > MAX_NAME:
        raise BadName(N_("a name has at most {n} characters"), n=MAX_NAME)
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp") for ch in text):
        raise BadName(N_("a name cannot hold control characters"))
    marks = 0
    for ch in text:
        marks = marks + 1 if unicodedata.combining(ch) else 0
        if marks > MAX_MARKS:
            raise BadName(N_("a name cannot stack combining marks"))
    scripts = {_script(ch) for ch in text if ch.isalpha()}
    if "LATIN" in scripts and scripts & {"CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE"}:
        raise BadName(N_("a name cannot mix Latin letters with look-alikes from other scripts"))
    if _RESERVED.match(skeleton(text)):
        raise BadName(N_("{name} is reserved (the computer players, the widow)"), name=repr(text))
    return text


def check_name(name: object, taken: list[str]) -> str:
    """A player's name as it will be stored and shown, unless it cannot be taken here.

    ``taken``: the names already at the table. Names are text, never markup: the page
    writes them with ``textContent``, so ``<b>`` is shown as those three characters.
    """
    text = normalise(name)
    mine = skeleton(text)
    for other in taken:
        if skeleton(other) == mine:
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


__all__ = ["MAX_NAME", "BadName", "check_name", "normalise", "skeleton"]
