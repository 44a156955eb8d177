"""The browser's catalogues: each language's compiled ``web.po`` as JSON for the page.

The pages' messages (``static/js/*.js``, the HTML's ``data-i18n`` texts, and the error
sentences the server marks with :func:`rummoli.i18n.N_` under ``web/``) are extracted
into their own domain, ``web`` (``locale/web.pot``, ``locale/<lang>/LC_MESSAGES/web.po``;
``make messages``). The server reads the compiled ``web.mo`` with the standard library's
``gettext`` once per language, typesets it (French spaces before ``: ; ! ?``) and sends it
as JSON (``GET /api/catalogue/{lang}``) with the glossary's inserted terms and their forms
(``rummoli.i18n.forms``), so the page needs no build step: ``static/js/i18n.js`` looks
messages up by their English text and fills ``{hand:acc}`` from the terms.

Plural forms: a ``.po`` holds gettext's forms in the order of its ``Plural-Forms``
expression (Babel's, from CLDR); the page picks a form with ``Intl.PluralRules``, whose
answer is a CLDR category. ``plural_categories`` maps each category to its form's index,
found by evaluating both rules (Babel's CLDR data, the catalogue's expression) on counts
that meet every category.
"""

from __future__ import annotations

import gettext
from functools import cache
from typing import Any

from babel import Locale

from rummoli import i18n
from rummoli.i18n.forms import table_json

DOMAIN = "web"
#: Counts that reach every integer CLDR category of the project's languages (French's
#: "many" is an exact million).
_SAMPLES = (*range(0, 220), 1_000_000, 2_000_000)


class UnknownLanguage(LookupError):
    """A language without a catalogue; the message lists those there are."""


def _plural_categories(lang: str, translations: gettext.GNUTranslations | None) -> dict[str, int]:
    """Each CLDR category of ``lang`` (for whole numbers) -> its gettext form's index."""
    plural_form = Locale.parse(lang).plural_form
    # The catalogue's compiled Plural-Forms expression (gettext sets it on reading).
    rule = translations.plural if translations is not None else (lambda n: int(n != 1))  # type: ignore[attr-defined]
    found: dict[str, int] = {}
    for n in _SAMPLES:
        found.setdefault(plural_form(n), int(rule(n)))
    found.setdefault("other", max(found.values(), default=0))
    return found


def _entries(translations: gettext.GNUTranslations) -> dict[str, Any]:
    """The catalogue's messages keyed as the page asks: the English text, ``context +
    "\\x04" + text`` with a context, a plural message's singular -> its list of forms."""
    raw: dict[Any, str] = translations._catalog  # type: ignore[attr-defined]
    out: dict[str, Any] = {}
    plural: dict[str, dict[int, str]] = {}
    for key, text in raw.items():
        if key == "" or not text:  # the header, or an untranslated message
            continue
        if isinstance(key, tuple):
            singular, index = key
            plural.setdefault(singular, {})[index] = text
        else:
            out[key] = text
    for singular, forms in plural.items():
        out[singular] = [forms.get(i, "") for i in range(max(forms) + 1)]
    return out


@cache
def catalogue(lang: str) -> dict[str, Any]:
    """The JSON the page loads for ``lang`` (read once, then kept): its messages, its
    plural categories and every language there is. English has no messages (its ids are
    the text); a language whose web catalogue is missing shows English too."""
    if lang not in i18n.languages():
        known = ", ".join(i18n.languages())
        raise UnknownLanguage(f"unknown language {lang!r}; languages are {known}")
    translations: gettext.GNUTranslations | None = None
    if lang != i18n.DEFAULT:
        try:
            found = gettext.translation(DOMAIN, str(_locale_dir()), languages=[lang])
        except OSError:
            found = None
        if isinstance(found, gettext.GNUTranslations):
            translations = found
            i18n.typeset_catalogue(translations, lang)
    return {
        "language": lang,
        "name": i18n.language_name(lang),
        "languages": [{"code": c, "name": i18n.language_name(c)} for c in i18n.languages()],
        "plural_categories": _plural_categories(lang, translations),
        "messages": _entries(translations) if translations is not None else {},
        # The inserted terms' forms ({hand:acc}, {space:def}): rummoli.i18n.forms.
        "terms": table_json(lang),
    }


def _locale_dir() -> Any:
    return i18n._locale_dir()


__all__ = ["DOMAIN", "UnknownLanguage", "catalogue"]
