"""Terms inserted into sentences, in the form each sentence asks for.

A message inserts a hand, a card, a space, a player or an amount as a field; English
needs no more, but Russian puts the loser's hand in the accusative ("флеш бьёт пару")
and French chooses an article by gender and elides before a vowel ("la case poker",
"d'Ann"). gettext has no grammar, so a translation asks for a form in the field itself:
``{loser:acc}``, ``{space:def}``, ``{name:de}``, and the value, a :class:`Term`, answers
with that form from the glossary's table (``glossary.toml``: one entry per game term,
its words in every language and the forms of those sentences insert). The page's
modules do the same with the same table, served with their catalogue
(``static/js/i18n.js``); docs/i18n.md "Terms in sentences" says why this and not
Fluent.

Forms (a field with no form gets the term's plain word, so English needs none):

- Russian: the cases ``nom gen dat acc ins prep``; an amount's noun agrees with its
  count in that case (``{chips:acc}``: 1 фишку, 2 фишки, 5 фишек, 21 фишку).
- French: ``def`` (la paire, le brelan, l'as, les deux paires), ``indef`` (une paire),
  ``du`` (de la paire, du brelan, de l'as), ``au`` (à la paire, au brelan), ``de``
  (de Bea, d'Ann), ``que`` (que Bea, qu'Ann).
- Any language: ``name`` (a card in words: "dame de trèfle"; ``name.acc`` for a case),
  a capital first letter for a form at a sentence's start (``{space:Def}``), and a
  choice by the term's features: ``{hand:?f=haute|haut}`` takes the first option whose
  key the term has (``m``, ``f``, ``sg``, ``pl``, ``you``; an amount's CLDR category
  ``one``, ``few``, ``many``, ``other``), else the option without a key.

Python's :meth:`str.format` hands a field's form to :meth:`Term.__format__`, so a term
goes into any message as it is; :func:`rummoli.tui.phrases.fill` reads forms too.
"""

from __future__ import annotations

import importlib.resources
import re
import tomllib
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from rummoli.i18n import current

#: The Russian cases, in the order of a ``ru_forms`` list.
CASES = ("nom", "gen", "dat", "acc", "ins", "prep")
#: The French forms built from a word's gender, number and first letter.
FRENCH_FORMS = ("def", "indef", "du", "au", "de", "que")
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
#: The board's pay spaces by their cards, as the board shows them in every interface
#: and the rules documents write them (the card notation: docs/glossary.md "Cards").
SPACE_CARDS = {
    "10S": "10♠",
    "JD": "J♦",
    "QC": "Q♣",
    "KH": "K♥",
    "AS": "A♠",
    "AKD": "A-K♦",
    "789": "7-8-9",
}
#: A word French elides before ("l'as", "d'Ann"): a vowel or a mute h.
_VOWEL = re.compile(r"^[aeiouàâäéèêëîïôöûùüœæh]", re.IGNORECASE)


@cache
def glossary() -> list[dict[str, Any]]:
    """The glossary's entries (``glossary.toml``), in its order."""
    text = importlib.resources.files("rummoli.i18n").joinpath("glossary.toml").read_text("utf-8")
    entries: list[dict[str, Any]] = tomllib.loads(text)["term"]
    return entries


@dataclass(frozen=True, slots=True)
class Forms:
    """One term in one language: its forms by name ("" the plain word) and features."""

    forms: dict[str, str]
    tags: frozenset[str]
    #: Plural forms, for a counted noun (Russian: the cases of the plural).
    plural: dict[str, str]


def _french(entry: dict[str, Any], word: str, plural: str) -> Forms:
    gender = entry.get("fr_gender", "m")
    many = entry.get("fr_number", "sg") == "pl"
    elide = entry.get("fr_elide", bool(_VOWEL.match(word)))
    forms = {"": word, **french_articles(word, gender, many, elide)}
    forms.update(entry.get("fr_forms", {}))
    tags = {gender, "pl" if many else "sg"} | ({"vowel"} if elide else set())
    plural_forms = {"": plural, **french_articles(plural, gender, True, elide)}
    return Forms(forms, frozenset(tags), plural_forms)


def french_articles(word: str, gender: str, many: bool, elide: bool) -> dict[str, str]:
    """The French forms of ``word`` with its articles and prepositions (``def``: la
    paire, l'as, les deux paires; ``du``: de la paire, du brelan; ...)."""
    if many:
        article, of, to = "les ", "des ", "aux "
    elif elide:
        article, of, to = "l'", "de l'", "à l'"
    elif gender == "f":
        article, of, to = "la ", "de la ", "à la "
    else:
        article, of, to = "le ", "du ", "au "
    indef = "des " if many else ("une " if gender == "f" else "un ")
    return {
        "def": article + word,
        "indef": indef + word,
        "du": of + word,
        "au": to + word,
        "de": ("d'" if elide else "de ") + word,
        "que": ("qu'" if elide else "que ") + word,
    }


def _russian(entry: dict[str, Any]) -> Forms:
    cases = entry.get("ru_forms") or [entry["ru"]] * len(CASES)
    forms = {"": cases[0], **dict(zip(CASES, cases, strict=True))}
    plural_cases = entry.get("ru_plural")
    plural = dict(zip(CASES, plural_cases, strict=True)) if plural_cases else dict(forms)
    plural[""] = plural["nom"]
    tags = {entry.get("ru_gender", ""), entry.get("ru_number", "sg")} - {""}
    return Forms(forms, frozenset(tags), plural)


def _entry_forms(entry: dict[str, Any], lang: str) -> Forms:
    if lang == "ru":
        return _russian(entry)
    word = entry.get(lang) or entry["en"]
    plural = entry.get(f"{lang}_plural") or entry.get("en_plural") or word
    if lang == "fr":
        return _french(entry, word, plural)
    return Forms({"": word}, frozenset({"sg"}), {"": plural})


@cache
def table(lang: str) -> dict[str, Forms]:
    """Every inserted term's forms in ``lang``, by the term's id (``hand.pair``)."""
    return {e["id"]: _entry_forms(e, lang) for e in glossary() if "id" in e}


def table_json(lang: str) -> dict[str, Any]:
    """The table as the pages read it (``static/js/i18n.js``): forms, plural, tags."""
    return {
        key: {"forms": found.forms, "plural": found.plural, "tags": sorted(found.tags)}
        for key, found in table(lang).items()
    }


# ---------------------------------------------------------------------- choosing a form


def choose(spec: str, tags: frozenset[str] | set[str]) -> str | None:
    """The option of a choice spec (``?f=haute|haut``) for a term with ``tags``; None
    if ``spec`` is no choice."""
    if not spec.startswith("?"):
        return None
    fallback = ""
    for option in spec[1:].split("|"):
        key, sep, text = option.partition("=")
        if not sep:
            fallback = option
        elif key in tags:
            return text
    return fallback


def pick(forms: dict[str, str], spec: str) -> str:
    """The form ``spec`` names (a capital first letter: the form, capitalised); the plain
    word when the language has no such form (English has no cases)."""
    if not spec:
        return forms[""]
    name = spec[0].lower() + spec[1:]
    found = forms.get(name, forms[""])
    return found[:1].upper() + found[1:] if spec[0].isupper() else found


def _split(spec: str) -> tuple[str, str]:
    """``name.acc`` -> ("name", "acc"); ``acc`` -> ("", "acc")."""
    head, _dot, tail = spec.partition(".")
    return (head, tail) if head.lower() == "name" else ("", spec)


class Term:
    """A value a sentence inserts; ``format(term, spec)`` is its form ``spec``."""

    __slots__ = ()

    def forms(self, lang: str) -> Forms:
        raise NotImplementedError

    def form(self, spec: str = "", lang: str | None = None) -> str:
        lang = lang or current().lang
        found = self.forms(lang)
        chosen = choose(spec, found.tags)
        return chosen if chosen is not None else pick(found.forms, spec)

    def __format__(self, spec: str) -> str:
        return self.form(spec)

    def __str__(self) -> str:
        return self.form()


@dataclass(frozen=True, slots=True)
class Word(Term):
    """A glossary term by its id: ``Word("hand.pair")``."""

    key: str

    def forms(self, lang: str) -> Forms:
        return table(lang)[self.key]


def hand(category: str) -> Word:
    """A poker hand from the engine's category name (``full house``)."""
    return Word("hand." + category)


def card_text(code: str) -> str:
    """A card as the screen shows it in every language: ``QC`` -> ``Q♣``, ``TS`` -> ``10♠``."""
    rank, suit = code[:-1], code[-1]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit]


@dataclass(frozen=True, slots=True)
class Card(Term):
    """A card (``QC``): its indices (``Q♣``), or in words with ``name`` (``name.acc``)."""

    code: str

    def forms(self, lang: str) -> Forms:
        rank = Word("rank." + ("T" if self.code[:-1] == "10" else self.code[:-1]))
        rank_forms = rank.forms(lang)
        text = card_text(self.code)
        forms = {"": text}
        if lang == "fr":
            gender = "f" if "f" in rank_forms.tags else "m"
            forms.update(french_articles(text, gender, False, "vowel" in rank_forms.tags))
        return Forms(forms, rank_forms.tags, forms)

    def form(self, spec: str = "", lang: str | None = None) -> str:
        head, tail = _split(spec)
        if not head:
            return Term.form(self, spec, lang)
        from rummoli.i18n import translator
        from rummoli.i18n.terms import CARD_OF_SUIT

        lang = lang or current().lang
        rank = Word("rank." + ("T" if self.code[:-1] == "10" else self.code[:-1]))
        words = translator(lang).pgettext("card", CARD_OF_SUIT[self.code[-1]])
        named = words.format(rank=rank.form(tail.lower(), lang))
        return named[:1].upper() + named[1:] if head[0].isupper() else named


@dataclass(frozen=True, slots=True)
class Space(Term):
    """A board space (``poker``, ``10S``, ``AKD``) in a sentence: "the poker space"."""

    code: str

    def forms(self, lang: str) -> Forms:
        found = table(lang).get("space." + self.code)
        if found is not None:
            return found
        frame = table(lang)["space.cards"]
        cards = SPACE_CARDS.get(self.code, self.code)
        return Forms(
            {k: v.replace("{cards}", cards) for k, v in frame.forms.items()},
            frame.tags,
            {k: v.replace("{cards}", cards) for k, v in frame.plural.items()},
        )


@dataclass(frozen=True, slots=True)
class Player(Term):
    """A seat in a sentence: a name as given (never translated), or the human's own
    seat (``you``), which takes the language's "you"."""

    name: str
    you: bool = False

    def forms(self, lang: str) -> Forms:
        if self.you:
            return table(lang)["player.you"]
        return _name_forms(self.name, lang)


@cache
def _name_forms(name: str, lang: str) -> Forms:
    forms = dict.fromkeys(("", *CASES, "def", "indef"), name)
    if lang == "fr":
        elide = bool(_VOWEL.match(name))
        forms.update(
            du=("d'" if elide else "de ") + name,
            de=("d'" if elide else "de ") + name,
            au="à " + name,
            que=("qu'" if elide else "que ") + name,
        )
    return Forms(forms, frozenset({"name", "sg"}), forms)


@dataclass(frozen=True, slots=True)
class Amount(Term):
    """A count with its noun (``Amount(5, "chip")``: "5 chips", "5 фишек"); a case
    form makes the noun agree with the count in that case (``acc``: 21 фишку)."""

    n: int | float
    noun: str = "chip"

    def forms(self, lang: str) -> Forms:
        return _amount_forms(self.n, self.noun, lang)


@lru_cache(maxsize=4096)
def _amount_forms(n: int | float, noun_key: str, lang: str) -> Forms:
    """An amount's forms (kept: a table's lines say the same few counts again and again;
    the number's formatting by Babel is what costs)."""
    from rummoli.i18n import translator

    speaker = translator(lang)
    noun = table(lang)["noun." + noun_key]
    category = speaker.locale.plural_form(n)
    figure = speaker.number(n)
    if lang == "ru":
        forms = {k: f"{figure} {_russian_agreement(noun, k, category)}" for k in ("", *CASES)}
    else:
        one = category == "one"
        word = noun.forms[""] if one else noun.plural[""]
        joiner = " de " if category == "many" else " "
        forms = {"": figure + joiner + word}
        if lang == "fr":
            forms.update(de="de " + forms[""], du="de " + forms[""], au="à " + forms[""])
    return Forms(forms, frozenset({category}), forms)


def _russian_agreement(noun: Forms, case: str, category: str) -> str:
    """The noun after a count written in figures, in ``case``: in the nominative and
    the accusative the count governs (1 фишка/фишку, 2 фишки, 5 фишек); in the other
    cases the noun takes the count's case, singular after 1 (21 фишке, 5 фишкам)."""
    case = case or "nom"
    if case in ("nom", "acc"):
        if category == "one":
            return noun.forms[case]
        if category == "few":
            return noun.forms["gen"]
        return noun.plural["gen"] if category == "many" else noun.forms["gen"]
    return noun.forms[case] if category == "one" else noun.plural[case]


#: A field and its form in a message: ``{name}``, ``{loser:acc}``.
FIELD = re.compile(r"\{(\w+)(?::([^{}]*))?\}")


def inflect(value: object, spec: str) -> str:
    """A field's value in the form ``spec``: a term's form; a name (plain text) in the
    language's form of a name (French elision: ``d'Ann``); anything else as text."""
    if isinstance(value, Term):
        return value.form(spec)
    if spec and isinstance(value, str):  # a plain text asked for a form is a name
        return Player(value).form(spec)
    return str(value)


__all__ = [
    "CASES",
    "FIELD",
    "FRENCH_FORMS",
    "Amount",
    "Card",
    "Forms",
    "Player",
    "Space",
    "Term",
    "Word",
    "card_text",
    "choose",
    "glossary",
    "hand",
    "inflect",
    "pick",
    "table",
    "table_json",
]
