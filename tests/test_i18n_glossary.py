"""The glossary is enforced: one word per term, one card notation, French typography.

``src/rummoli/i18n/glossary.toml`` is the glossary as data (``docs/glossary.md`` is
written from it); every catalogue entry of both domains whose English speaks of a term
must not use a word the glossary forbids for it; the words of the terms sentences
insert are the catalogues' own; the rules documents write cards as the screen does;
French entries carry no hand-made space before ``: ; !`` (the typesetter puts a narrow
no-break space there when a catalogue is read) and every French text read has it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po

from rummoli import i18n
from rummoli.games import registry
from rummoli.i18n import forms, glossary, typography
from rummoli.i18n.terms import POKER_HANDS, RANK_NAMES, rules_document

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "rummoli" / "locale"
DOMAINS = ("rummoli", "web")
LANGS = ("fr", "ru")


def entries(lang: str, domain: str) -> list[Message]:
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as po:
        return [m for m in read_po(po, locale=lang) if m.id]


def texts(message: Message) -> list[str]:
    return [message.string] if isinstance(message.string, str) else list(message.string)


def english(message: Message) -> str:
    return message.id if isinstance(message.id, str) else " ".join(message.id)


def test_the_markdown_page_is_the_glossary_s_reading() -> None:
    page = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    assert page == glossary.markdown(), "run python -m rummoli.i18n.glossary docs/glossary.md"


def test_every_entry_has_its_three_words_and_valid_patterns() -> None:
    found = glossary.terms()
    assert len(found) > 100
    for term in found:
        assert all(term.words[lang] for lang in glossary.LANGUAGES), term
        for pattern in (term.en_match, *[p for ps in term.forbidden.values() for p in ps]):
            re.compile(pattern)
        if any(term.forbidden.values()):
            assert term.en_match, f"{term.words['en']}: forbidden words need en_match"


def test_the_check_finds_a_forbidden_variant() -> None:
    """The check itself: a term with forbidden words refuses them, in any case."""
    board = next(t for t in glossary.terms() if t.words["en"] == "board")
    assert board.matches("the board's chips")
    assert board.violations("fr", "les jetons du Tableau") == [r"\btableaux?\b"]
    assert board.violations("fr", "les jetons du plateau") == []
    hand = next(t for t in glossary.terms() if t.words["en"].startswith("hand (the cards"))
    assert hand.violations("ru", "Ваша рука") and not hand.violations("ru", "карты на руках")


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGS)
def test_no_catalogue_entry_uses_a_forbidden_variant(lang: str, domain: str) -> None:
    terms = [t for t in glossary.terms() if t.forbidden.get(lang)]
    wrong = [
        (english(m), text, term.words["en"], term.violations(lang, text))
        for m in entries(lang, domain)
        for term in terms
        if term.matches(english(m))
        for text in texts(m)
        if term.violations(lang, text)
    ]
    assert not wrong, wrong


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_inserted_terms_are_the_catalogue_s_words(lang: str, domain: str) -> None:
    """A poker hand and a rank read the same alone (a column, a card's name) and in a
    sentence (the glossary's forms)."""
    by_key = {(m.context, m.id): m.string for m in entries(lang, domain)}
    table = forms.table(lang)
    checked = 0
    for english_word in POKER_HANDS:
        found = by_key.get(("poker hand", english_word))
        if found is not None:
            assert found == table[f"hand.{english_word}"].forms[""], english_word
            checked += 1
    for rank, english_word in RANK_NAMES.items():
        found = by_key.get(("rank", english_word))
        if found is not None:
            assert found == table[f"rank.{rank}"].forms[""], english_word
            checked += 1
    assert checked >= 20


#: A card written with the letters of a language's own deck next to a suit symbol.
LOCAL_INDICES = {"fr": re.compile(r"\b[VDR](?=[♣♦♥♠])"), "ru": re.compile(r"[ВДКТ](?=[♣♦♥♠])")}


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_documents_write_cards_as_the_screen_does(lang: str) -> None:
    for name in registry.names():
        document = registry.describe(name).rules_document(lang)
        assert not LOCAL_INDICES[lang].findall(document), (name, lang)
        assert not re.search(r"\bT(?=[♣♦♥♠])", document), "a ten is 10 on the screen"


@pytest.mark.parametrize("domain", DOMAINS)
def test_french_entries_leave_the_spaces_to_the_typesetter(domain: str) -> None:
    """No plain or no-break space typed before ``: ; !`` nor inside « »; no narrow
    no-break space typed by hand (a spaced ``?`` is a key: ``tapez ? pour un conseil``)."""
    wrong = [
        (english(m), text)
        for m in entries("fr", domain)
        for text in texts(m)
        if re.search(r"\S[ \u00a0\u202f]+[:;!](?=\s|$)", text)
        or "\u202f" in text
        or re.search(r"«[ \u00a0]|[ \u00a0]»", text)
    ]
    assert not wrong, wrong


def test_the_typesetter_spaces_french_marks_and_leaves_the_rest() -> None:
    french = typography.french
    nnbsp = typography.NNBSP
    assert french("Donne: {n}") == f"Donne{nnbsp}: {{n}}"
    assert french("Prêt? Oui!") == f"Prêt{nnbsp}? Oui{nnbsp}!"
    assert french("«none»") == f"«{nnbsp}none{nnbsp}»"
    assert french("tapez ? pour un conseil") == "tapez ? pour un conseil"
    assert french("http://x 10:30") == "http://x 10:30"
    assert french(french("a; b")) == french("a; b") == f"a{nnbsp}; b"


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_french_text_read_has_its_narrow_spaces(domain: str) -> None:
    """What a person reads (a catalogue as loaded, a rules document) has no plain space
    before ``: ; !`` and has a narrow no-break space before each."""
    if domain == "rummoli":
        catalog = i18n.translator("fr").translations._catalog
        read = [text for key, text in catalog.items() if key != ""]  # not the header
    else:
        from rummoli.web.catalogue import catalogue

        raw = catalogue("fr")["messages"].values()
        read = [t for v in raw for t in (v if isinstance(v, list) else [v])]
    read += [rules_document(registry.describe(n), "fr") for n in registry.names()]
    plain = [t for t in read if re.search(r"\w[ \u00a0]?[:;!](?=\s|$)", str(t))]
    assert not plain, plain[:5]
    assert sum(f"{typography.NNBSP}:" in str(t) for t in read) > 100
