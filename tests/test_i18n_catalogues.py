"""The message catalogues: complete, consistent with the English, compiled, up to date.

A catalogue fails here when a message lacks a translation, when a translation's
``{fields}`` or rich markup differ from the English, when a plural message lacks a form
its language needs (the forms and the rule are Babel's, from CLDR), when the committed
``.mo`` is not what its ``.po`` compiles to, or when the code holds a message the
catalogues do not (``make messages`` then ``make catalogues`` fix the last two).

Both domains are checked: ``rummoli`` (the Python side, ``babel.cfg``) and ``web`` (the
browser's pages, ``babel-web.cfg``, served as JSON by ``/api/catalogue/{lang}``).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from rummoli import i18n

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "rummoli" / "locale"
TRANSLATED = [lang for lang in i18n.languages() if lang != i18n.DEFAULT]
#: The extraction keywords of the Makefile's ``messages`` target.
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    "nformat": (1, 2),
    "NN_": (1, 2),
    "NP_": ((1, "c"), 2),
    "NPN_": ((1, "c"), 2, 3),
}
#: Each domain's mapping file and its extraction keywords (the Makefile's).
DOMAINS = {
    "rummoli": ("babel.cfg", KEYWORDS),
    "web": ("babel-web.cfg", {**DEFAULT_KEYWORDS, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}),
}
CASES = [(lang, domain) for domain in DOMAINS for lang in TRANSLATED]
#: A field, and the form of the inserted term a translation may ask for (``{loser:acc}``:
#: rummoli.i18n.forms); the field's name is what must match the English.
FIELD = re.compile(r"\{(\w*)(?::[^{}]*)?\}")
MARKUP = re.compile(r"\[/?(?:bold|italic|dim|red|green|yellow|blue|cyan|magenta)?\]")


def catalogue(lang: str, domain: str = "rummoli") -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as po:
        return read_po(po, locale=lang)


def messages(lang: str, domain: str = "rummoli") -> list[Message]:
    return [m for m in catalogue(lang, domain) if m.id]


def fields(text: str) -> set[str]:
    return set(FIELD.findall(text))


def test_french_and_russian_are_there() -> None:
    assert {"en", "fr", "ru"} <= set(i18n.languages())


@pytest.mark.parametrize(("lang", "domain"), CASES)
def test_every_message_is_translated(lang: str, domain: str) -> None:
    untranslated = [
        m.id
        for m in messages(lang, domain)
        if m.fuzzy or not m.string or any(not form for form in _forms(m))
    ]
    assert not untranslated, untranslated


@pytest.mark.parametrize(("lang", "domain"), CASES)
def test_plural_forms_are_babel_s_cldr_rules_with_every_form(lang: str, domain: str) -> None:
    cat = catalogue(lang, domain)
    rule = get_plural(lang)
    assert cat.plural_forms == rule.plural_forms
    for message in messages(lang, domain):
        if message.pluralizable:
            assert len(_forms(message)) == rule.num_plurals, message.id


@pytest.mark.parametrize(("lang", "domain"), CASES)
def test_translations_keep_the_fields_and_markup_of_the_english(lang: str, domain: str) -> None:
    wrong = []
    for message in messages(lang, domain):
        english = [message.id] if isinstance(message.id, str) else list(message.id)
        allowed = set().union(*(fields(e) for e in english))
        required = fields(english[0])
        markup = sorted(MARKUP.findall(english[0]))
        for form in _forms(message):
            # A plural form may name the count the singular leaves out ("1 arg" has no
            # {nargs}), never a field the English lacks; every other field is kept.
            if not required <= fields(form) <= allowed:
                wrong.append((message.id, form))
            if sorted(MARKUP.findall(form)) != markup:
                wrong.append((message.id, form))
    assert not wrong, wrong


@pytest.mark.parametrize(("lang", "domain"), CASES)
def test_the_compiled_catalogue_is_its_po_compiled(lang: str, domain: str) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, catalogue(lang, domain))
    on_disk = (LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo").read_bytes()
    assert compiled.getvalue() == on_disk, f"run `make catalogues` ({lang}, {domain})"


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_of_the_code_is_in_every_catalogue(domain: str) -> None:
    mapping, keywords = DOMAINS[domain]
    with (ROOT / mapping).open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found = {
        (context, message if isinstance(message, str) else message[0])
        for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords
        )
    }
    assert len(found) > 400
    for lang in TRANSLATED:
        known = {
            (m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in messages(lang, domain)
        }
        missing = sorted(found - known, key=str)
        assert not missing, f"{lang}: run `make messages`, translate, `make catalogues`: {missing}"


def _forms(message: Message) -> list[str]:
    return [message.string] if isinstance(message.string, str) else list(message.string)
