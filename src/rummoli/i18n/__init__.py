"""The project's languages: which one a person reads, and its words, plurals and numbers.

Messages are gettext catalogues (``src/rummoli/locale/<lang>/LC_MESSAGES/rummoli.po``,
compiled to ``.mo``) managed with Babel (``docs/i18n.md``); the English text of a message
is its id, so English needs no catalogue and a missing translation falls back to English,
never to a code. Plural forms come from each catalogue's ``Plural-Forms`` header, which
Babel writes from CLDR's rules (Russian: one, few, many; French: one for 0 and 1); numbers
are formatted by Babel for the language's locale.

The language in force is a context variable, set once by the ``rummoli`` command
(:func:`set_language`) or for a block (:func:`language`): code that draws a table calls
:func:`_` and friends without passing a language around, and a server may give each
request its own language (a context variable is per thread and per asyncio task).

A fourth language is one new catalogue: :func:`languages` lists the folders of
``locale/`` that hold one.
"""

from __future__ import annotations

import contextlib
import importlib.resources
import os
import re
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from functools import cache
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel.support import NullTranslations

# Babel is imported where a language is first used, not here: the message markers (N_,
# NP_...) are imported by modules that also run in simulation workers and on Ray nodes,
# which ship only the workers' dependencies (rummoli.sim.ray_backend) and never translate.

#: The language of the message ids, and the one used when nothing else is asked for.
DEFAULT = "en"
#: The gettext domain of every catalogue.
DOMAIN = "rummoli"
#: The environment variables that name a language, in POSIX order of precedence.
ENVIRONMENT = ("LC_ALL", "LC_MESSAGES", "LANG")


class LanguageError(ValueError):
    """A language the project has no catalogue for; the message lists the languages."""


def _locale_dir() -> Traversable:
    return importlib.resources.files("rummoli").joinpath("locale")


@cache
def languages() -> tuple[str, ...]:
    """Every language there is: English, then each folder of ``locale/`` with a catalogue."""
    found = [
        entry.name
        for entry in _locale_dir().iterdir()
        if entry.joinpath("LC_MESSAGES", f"{DOMAIN}.mo").is_file()
    ]
    return (DEFAULT, *sorted(code for code in found if code != DEFAULT))


def language_name(code: str) -> str:
    """A language in its own words, as a list of languages shows it (``français``): each
    catalogue names its own language (context ``language name``; Babel's locale data
    would say the same, but loading it costs a tenth of a second at every start); a
    catalogue that does not gets Babel's name for it."""
    english = NP_("language name", "English")
    name = translator(code).pgettext("language name", english)
    if name == english and code != DEFAULT:
        from babel import Locale

        return Locale.parse(code).get_display_name(code) or code
    return name


def normalize(code: str) -> str:
    """The language part of a locale name: ``fr_CA.UTF-8`` and ``fr-CA`` give ``fr``."""
    return code.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()


def check_language(code: str) -> str:
    """``code`` as one of :func:`languages` (``fr-CA`` is French); :class:`LanguageError`
    listing the languages otherwise."""
    lang = normalize(code.strip())
    if lang not in languages():
        known = ", ".join(f"{c} ({language_name(c)})" for c in languages())
        raise LanguageError(
            _("unknown language {code}; languages are {known}").format(code=repr(code), known=known)
        )
    return lang


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for (``LC_ALL``, else ``LC_MESSAGES``, else
    ``LANG``), if the project has it; else English. ``C`` and ``POSIX`` are English."""
    env = os.environ if environ is None else environ
    for variable in ENVIRONMENT:
        value = env.get(variable, "").strip()
        if not value:
            continue
        lang = normalize(value)
        # The first variable set decides, as for every POSIX program: LC_ALL=C wins over
        # LANG=fr_CA.UTF-8. A language without a catalogue falls back to English.
        return lang if lang in languages() else DEFAULT
    return DEFAULT


def choose_language(explicit: str | None, environ: Mapping[str, str] | None = None) -> str:
    """``--lang`` if given (an unknown one is a :class:`LanguageError`), else the
    environment's language."""
    if explicit is not None:
        return check_language(explicit)
    return language_from_environment(environ)


class Translator:
    """One language's messages, plural forms and number format."""

    def __init__(self, lang: str, translations: NullTranslations) -> None:
        from babel import Locale

        self.lang = lang
        self.translations = translations
        self.locale = Locale.parse(lang)

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message) if message else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return str(self.translations.pgettext(context, message)) if message else message

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.translations.npgettext(context, singular, plural, n)

    def number(self, value: int | float) -> str:
        """``value`` written for this language: ``1,000`` in English, ``1 000`` in French."""
        from babel.numbers import format_decimal

        return format_decimal(value, locale=self.locale)

    def fixed(self, value: float, digits: int, sign: bool = False, group: bool = True) -> str:
        """``value`` with ``digits`` decimals (``+`` before a gain with ``sign``), grouped
        by thousands unless ``group`` is false, in this language's symbols: ``-1,234.50``,
        ``-1 234,50``.

        Python rounds (the float's exact value, ties to even), so every language shows
        the same digits as the English, which is exactly ``f"{value:,.2f}"``; Babel's own
        rounding goes through the float's shortest text and can differ in the last digit.
        """
        text = f"{value:{'+' if sign else ''}{',' if group else ''}.{digits}f}"
        if self.lang == DEFAULT:
            return text
        symbols = self._symbols()
        return "".join(symbols.get(char, char) for char in text)

    def percent(self, share: float, digits: int = 1) -> str:
        """A share (0.123) as a percentage with ``digits`` decimals, in the language's
        pattern: ``12.3%``, ``12,3 %`` (a no-break space before the sign)."""
        pattern = self.locale.percent_formats[None].pattern.split(";")[0]
        return re.sub(
            r"[#0,.]+", lambda _: self.fixed(100 * share, digits, group=False), pattern, count=1
        )

    @cache  # noqa: B019 - one translator per language, kept for the program's life
    def _symbols(self) -> dict[str, str]:
        from babel.numbers import (
            get_decimal_symbol,
            get_group_symbol,
            get_minus_sign_symbol,
            get_plus_sign_symbol,
        )

        return {
            ",": get_group_symbol(self.locale),
            ".": get_decimal_symbol(self.locale),
            "-": get_minus_sign_symbol(self.locale),
            "+": get_plus_sign_symbol(self.locale),
        }


@cache
def translator(lang: str) -> Translator:
    """The translator of one of :func:`languages` (English: the message ids themselves)."""
    from babel.support import NullTranslations, Translations

    lang = check_language(lang)
    if lang == DEFAULT:
        return Translator(lang, NullTranslations())
    directory = _locale_dir().joinpath(lang, "LC_MESSAGES", f"{DOMAIN}.mo")
    with directory.open("rb") as mo:
        translations = Translations(mo, domain=DOMAIN)
    typeset_catalogue(translations, lang)
    return Translator(lang, translations)


def typeset_catalogue(translations: object, lang: str) -> None:
    """Apply ``lang``'s typography (:mod:`rummoli.i18n.typography`: French spaces before
    ``: ; ! ?``) to every message of a loaded gettext catalogue, once."""
    from rummoli.i18n.typography import typesetter

    typeset = typesetter(lang)
    catalog: dict[object, str] = translations._catalog  # type: ignore[attr-defined]
    for key, text in catalog.items():
        if key != "" and text:
            catalog[key] = typeset(text)


_current: ContextVar[Translator | None] = ContextVar("rummoli_language", default=None)


def current() -> Translator:
    """The translator in force (English until a language is set)."""
    found = _current.get()
    return translator(DEFAULT) if found is None else found


def current_language() -> str:
    return current().lang


def set_language(lang: str) -> Translator:
    """Read ``lang`` from now on (in this context); the translator. An unknown language
    is a :class:`LanguageError`."""
    found = translator(lang)
    _current.set(found)
    return found


@contextlib.contextmanager
def language(lang: str) -> Iterator[Translator]:
    """Read ``lang`` within a ``with`` block, then the language before it."""
    token = _current.set(translator(lang))
    try:
        yield current()
    finally:
        _current.reset(token)


# ---------------------------------------------------------------------- the message calls
# The names Babel's extractor knows (``_``, ``ngettext``, ``pgettext``, ``npgettext``,
# ``N_``) plus ``nformat``, ``NN_``, ``NP_`` and ``NPN_`` (``-k nformat:1,2 -k NN_:1,2
# -k NP_:1c,2 -k NPN_:1c,2,3``: the Makefile's ``messages`` target).


def _(message: str) -> str:
    """``message`` in the language in force."""
    return current().gettext(message)


def gettext(message: str) -> str:
    return current().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for ``n`` by the language's plural rules (format it with
    ``{n}`` yourself: :func:`number` writes it)."""
    return current().ngettext(singular, plural, n)


def nformat(singular: str, plural: str, n: int, **values: object) -> str:
    """The form of a message for ``n``, with ``{n}`` written for the language and the
    other fields filled: ``nformat("{n} chip", "{n} chips", 5)`` is "5 фишек" in Russian."""
    return current().ngettext(singular, plural, n).format(n=number(n), **values)


def pgettext(context: str, message: str) -> str:
    """``message`` of ``context`` (a group: ``suit``, ``house rule``...) translated."""
    return current().pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return current().npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Marks a message for extraction where it is translated later (a table of words)."""
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a plural message for extraction where ``ngettext`` is called later."""
    return singular, plural


def NPN_(context: str, singular: str, plural: str) -> tuple[str, str]:
    """Marks a plural message of ``context`` for extraction (``npgettext`` later)."""
    return singular, plural


def NP_(context: str, message: str) -> str:
    """Marks a message of ``context`` for extraction; translated later by ``pgettext``."""
    return message


def number(value: int | float) -> str:
    """``value`` formatted for the language in force."""
    return current().number(value)


def fixed(value: float, digits: int, sign: bool = False, group: bool = True) -> str:
    """``value`` with ``digits`` decimals for the language in force (see
    :meth:`Translator.fixed`)."""
    return current().fixed(value, digits, sign, group)


def percent(share: float, digits: int = 1) -> str:
    """A share as a percentage for the language in force: ``12.3%``, ``12,3 %``."""
    return current().percent(share, digits)


__all__ = [
    "DEFAULT",
    "DOMAIN",
    "NN_",
    "NPN_",
    "NP_",
    "N_",
    "LanguageError",
    "Translator",
    "_",
    "check_language",
    "choose_language",
    "current",
    "current_language",
    "fixed",
    "gettext",
    "language",
    "language_from_environment",
    "language_name",
    "languages",
    "nformat",
    "ngettext",
    "normalize",
    "npgettext",
    "number",
    "percent",
    "pgettext",
    "set_language",
    "translator",
]
