"""Choosing the language, plural forms by CLDR, numbers for the locale, a fourth language."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural

from rummoli import i18n
from rummoli.i18n import LanguageError, language, nformat, npgettext, number

COUNTS = (0, 1, 2, 5, 21, 22, 25, 111)


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "fr_CA.UTF-8"}, "fr"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "fr_CA.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "fr_CA.UTF-8", "LC_MESSAGES": "ru_RU", "LC_ALL": "en_US.UTF-8"}, "en"),
        ({"LC_ALL": "C", "LANG": "fr_CA.UTF-8"}, "en"),  # the first one set decides
        ({"LANG": "de_DE.UTF-8"}, "en"),  # a language without a catalogue: English
        ({"LC_ALL": "", "LANG": "ru"}, "ru"),  # an empty variable counts as unset
    ],
)
def test_the_environment_chooses_the_language(environ: dict[str, str], expected: str) -> None:
    assert i18n.language_from_environment(environ) == expected


def test_an_explicit_language_wins_and_an_unknown_one_is_refused() -> None:
    assert i18n.choose_language("fr-CA", {"LANG": "ru_RU.UTF-8"}) == "fr"
    assert i18n.choose_language("RU", {}) == "ru"
    with pytest.raises(LanguageError) as error:
        i18n.choose_language("de", {"LANG": "fr_CA.UTF-8"})
    message = str(error.value)
    assert "'de'" in message and "fr (français)" in message and "ru (русский)" in message


def test_the_refusal_is_said_in_the_language_in_force() -> None:
    with language("fr"), pytest.raises(LanguageError, match="langue inconnue 'xx'"):
        i18n.check_language("xx")


def test_a_language_holds_for_a_block_only() -> None:
    with language("ru"):
        assert i18n.current_language() == "ru"
        with language("fr"):
            assert i18n._("You") == "Vous"
        assert i18n._("You") == "Вы"
    assert i18n._("You") == "You"


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "ru",
            [
                "0 фишек",
                "1 фишка",
                "2 фишки",
                "5 фишек",
                "21 фишка",
                "22 фишки",
                "25 фишек",
                "111 фишек",
            ],
        ),
        (
            "fr",
            [
                "0 jeton",
                "1 jeton",
                "2 jetons",
                "5 jetons",
                "21 jetons",
                "22 jetons",
                "25 jetons",
                "111 jetons",
            ],
        ),
        (
            "en",
            [
                "0 chips",
                "1 chip",
                "2 chips",
                "5 chips",
                "21 chips",
                "22 chips",
                "25 chips",
                "111 chips",
            ],
        ),
    ],
)
def test_plurals_follow_cldr(lang: str, expected: list[str]) -> None:
    with language(lang):
        assert [nformat("{n} chip", "{n} chips", n) for n in COUNTS] == expected


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_the_form_chosen_is_the_cldr_category_of_the_count(lang: str) -> None:
    """Each count gets the form of its CLDR category (Babel's ``Locale.plural_form``):
    counts of one category share a form, different categories get different forms."""
    locale = Locale.parse(lang)
    with language(lang):
        by_category: dict[str, set[str]] = {}
        for n in (*COUNTS, 3, 4, 11, 12, 14, 101, 1_000_000):
            word = npgettext("after a number", "chip", "chips", n)
            by_category.setdefault(locale.plural_form(n), set()).add(word)
    assert all(len(words) == 1 for words in by_category.values()), by_category
    words = [next(iter(w)) for w in by_category.values()]
    assert len(set(words)) == len(words) == get_plural(lang).num_plurals


def test_french_millions_take_de_as_cldr_s_many_form_says() -> None:
    with language("fr"):
        assert nformat("{n} chip", "{n} chips", 1_000_000) == "1\u202f000\u202f000 de jetons"


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("en", "12,345"), ("fr", "12\u202f345"), ("ru", "12\xa0345")],
)
def test_numbers_are_written_for_the_locale(lang: str, expected: str) -> None:
    with language(lang):
        assert number(12345) == expected
        assert number(7) == "7"


def test_a_fourth_language_is_one_new_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder with a compiled catalogue is all a language needs: it is then listed,
    chosen from the environment, and speaks with its own plural rule (German: two)."""
    locale = tmp_path / "locale"
    shutil.copytree(Path(i18n.__file__).parents[1] / "locale", locale)
    catalog = Catalog(locale="de", domain="rummoli")
    catalog.add("You", "Sie")
    catalog.add(("{n} chip", "{n} chips"), ("{n} Chip", "{n} Chips"))
    (locale / "de" / "LC_MESSAGES").mkdir(parents=True)
    with (locale / "de" / "LC_MESSAGES" / "rummoli.mo").open("wb") as mo:
        write_mo(mo, catalog)
    monkeypatch.setattr(i18n, "_locale_dir", lambda: locale)
    i18n.languages.cache_clear()
    i18n.translator.cache_clear()
    try:
        assert i18n.languages() == ("en", "de", "fr", "ru")
        assert i18n.language_from_environment({"LANG": "de_AT.UTF-8"}) == "de"
        assert i18n.language_name("de") == "Deutsch"  # Babel's, the catalogue has none
        with language("de"):
            assert i18n._("You") == "Sie"
            assert nformat("{n} chip", "{n} chips", 1) == "1 Chip"
            assert nformat("{n} chip", "{n} chips", 21) == "21 Chips"
            assert i18n._("Game over") == "Game over"  # not translated yet: English
            assert number(12345) == "12.345"
    finally:
        # The real folder back before the caches are emptied: emptied first, a call from
        # another thread in between (a browser test's server still answering a page)
        # would keep the fourth language for the rest of the run.
        monkeypatch.undo()
        i18n.languages.cache_clear()
        i18n.translator.cache_clear()
