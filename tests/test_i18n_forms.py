"""Terms inserted into sentences agree: every such message, every value, both languages.

Every message of both domains (the terminal's and the pages') with a field that takes a
term (a poker hand, a card, a board space, a player, a count of chips or points) is
rendered in French and Russian with every value that field can take: every pair of
poker hands, every card, every space, "you" and names (one starting with a vowel for
French elision), and 0, 1, 2, 5, 21, 22, 25, 101 of each amount. Each rendering must
succeed and leave no field unfilled, and every form a translation asks for must be one
the language gives that kind of term. Then a sample of sentences, more than sixty per
language, is checked against what a native player writes, each with the source of its
forms.

The pages fill their fields with the same forms (``static/js/terms.js`` reads the table
``rummoli.i18n.forms`` builds, sent with the catalogue): the browser tests see them on
the page.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po

from rummoli import i18n
from rummoli.i18n.forms import CASES, FIELD, Amount, Card, Player, Space, hand, inflect, table
from rummoli.poker import CATEGORY_NAMES

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "rummoli" / "locale"
LANGS = ("fr", "ru")
#: Every poker hand's name, as the evaluator names it (each must have its forms).
HANDS = CATEGORY_NAMES
CARDS = [r + s for r in "23456789TJQKA" for s in "CDHS"]
SPACES = ("poker", "rummoli", "10S", "JD", "QC", "KH", "AS", "AKD", "789")
COUNTS = (0, 1, 2, 5, 21, 22, 25, 101)
NAMES = (Player("Bea"), Player("Ann"), Player("Éloi"))
YOU = Player("You", you=True)

#: The fields that take a term, by name (the convention both sides follow), and the
#: values each takes. ``other`` is a hand beside ``{hand}`` (the showdown).
HAND_VALUES = [hand(h) for h in HANDS]
FIELD_VALUES: dict[str, list[Any]] = {
    "hand": HAND_VALUES,
    "card": [Card(c) for c in CARDS],
    "space": [Space(s) for s in SPACES],
    # {name} is always a third person: "you" has messages of its own ({you}, "You pass").
    "name": list(NAMES),
    "you": [YOU],
    "dealer": list(NAMES),
    "to": list(NAMES),
    "chips": [Amount(n) for n in COUNTS],
    "points": [Amount(n, "point") for n in COUNTS],
}


#: The contexts whose messages are sentences of the game (a ``{name}`` there is a player;
#: in an error or a command's help it is a house rule's or an option's name).
GAME_CONTEXTS = (None, "computer player", "table", "seat")


def kind(field: str, message: str, context: str | None = None) -> str | None:
    if context not in GAME_CONTEXTS:
        return None
    if field == "hand" and re.search(r"[Hh]and \{hand\}", message):
        return None  # a Basic Rummy hand's number ("Hand {hand} summary")
    if field == "other" and "{hand}" in message:
        return "hand"
    return field if field in FIELD_VALUES else None


def catalogue(lang: str, domain: str) -> list[Message]:
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as po:
        return [m for m in read_po(po, locale=lang) if m.id]


def term_messages(lang: str) -> Iterator[tuple[str, Message, list[str]]]:
    """Each message with a term field: its domain, the message, the term fields."""
    for domain in ("rummoli", "web"):
        for message in catalogue(lang, domain):
            english = message.id if isinstance(message.id, str) else message.id[0]
            names = sorted(
                {f for f, _ in FIELD.findall(english) if kind(f, english, message.context)}
            )
            if names:
                yield domain, message, names


def valid_specs(lang: str, field_kind: str) -> set[str]:
    """The forms a translation may ask of a field of this kind in ``lang``."""
    forms = table(lang)
    prefix = {"hand": "hand.", "space": "space.", "card": "rank."}.get(field_kind)
    if prefix:
        names = {k for key, f in forms.items() if key.startswith(prefix) for k in f.forms}
    elif field_kind in ("chips", "points"):
        names = {"", *CASES} if lang == "ru" else {"", "de", "du", "au"}
    else:
        names = set(forms["player.you"].forms) | {"de", "du", "au", "que"}
    if field_kind == "card":
        names |= {"name"} | {f"name.{c}" for c in CASES}
    return names | {n[:1].upper() + n[1:] for n in names if n}


def spec_ok(spec: str, lang: str, field_kind: str) -> bool:
    if spec.startswith("?"):
        return all("=" not in o or o.split("=")[0] for o in spec[1:].split("|"))
    return spec in valid_specs(lang, field_kind)


def values_of(message: Message, fields: list[str]) -> Iterator[dict[str, Any]]:
    english = message.id if isinstance(message.id, str) else message.id[0]
    pools = [FIELD_VALUES[kind(f, english, message.context) or f] for f in fields]
    yield from (dict(zip(fields, combo, strict=True)) for combo in itertools.product(*pools))


def translations(message: Message, lang: str) -> Iterator[tuple[str, int | None]]:
    """Each form of the message's translation, with the count that picks it."""
    if isinstance(message.string, str):
        yield message.string, None
        return
    speaker = i18n.translator(lang)
    for n in COUNTS:
        index = speaker.translations.plural(n)  # type: ignore[attr-defined]
        yield message.string[index], n


def fill(template: str, values: dict[str, Any]) -> str:
    """The message filled as the terminal fills it (:func:`rummoli.i18n.forms.inflect`)."""

    def one(match: re.Match[str]) -> str:
        name, spec = match.group(1), match.group(2) or ""
        return inflect(values[name], spec) if name in values else match.group(0)

    return FIELD.sub(one, template)


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_with_a_term_renders_with_every_value(lang: str) -> None:
    rendered = 0
    bad: list[tuple[str, str]] = []
    with i18n.language(lang):
        for _domain, message, fields in term_messages(lang):
            english = message.id if isinstance(message.id, str) else message.id[0]
            for text, n in translations(message, lang):
                for name, spec in FIELD.findall(text):
                    field_kind = kind(name, english, message.context)
                    if spec and (field_kind is None or not spec_ok(spec, lang, field_kind)):
                        bad.append((english, f"{{{name}:{spec}}}"))
                for values in values_of(message, fields):
                    out = fill(text, {"n": n, **values})
                    rendered += 1
                    if any(f in fields for f, _ in FIELD.findall(out)):
                        bad.append((english, out))
    assert not bad, bad[:10]
    assert rendered > 9_000, rendered


def test_the_pages_and_the_terminal_insert_terms_in_their_messages() -> None:
    """The messages this test renders are those the code fills with terms: the showdown,
    the spaces, the cards, the amounts, in both domains."""
    found = {m.id if isinstance(m.id, str) else m.id[0] for _d, m, _f in term_messages("ru")}
    for english in (
        "{name} wins the poker pot: {hand} beats {other}.",
        "{name} takes the {space} space: {chips}",
        "{name} takes space {space}: {chips}",
        "{name} lays {card}",
        "{you} went out first: {space} {kitty} + {paid} paid by the others.",
    ):
        assert english in found, english


# ----------------------------------------------------------------------- the sample
# Each expectation: the domain, the context, the English message, its values, and what
# a native card player writes. The forms' sources: Russian declension after Зализняк's
# dictionary (пара, пары, паре, пару; стрит and флеш as masculine nouns of the first
# declension: стрита, флешем; каре indeclinable; "две пары" as a numeral phrase: двух
# пар, двумя парами), and after a count written in figures the noun agrees with the
# count's last digits (1, 21 фишка/фишку; 2, 22 фишки; 5, 25, 101 ... фишек; 101 фишка:
# Розенталь, "Справочник по правописанию и стилистике", § числительные); French
# articles and elision by the Bescherelle (la paire, le brelan, l'as; de + le = du; the
# h of "huit" is aspirated: le huit); CLDR's French "one" category takes 0 (0 jeton) and
# its "many" exact millions (1 000 000 de jetons).

# One sentence a line (a table to read down): the lines are long on purpose.
# ruff: noqa: E501
# fmt: off
SAMPLE: dict[str, list[tuple[str, str | None, str, dict[str, Any], str]]] = {
    'ru': [
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'flush', 'other': 'pair'}, 'Bea забирает банк покера: флеш бьёт пару.'),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'pair', 'other': 'high card'}, 'Bea забирает банк покера: пара бьёт старшую карту.'),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'two pair', 'other': 'pair'}, 'Bea забирает банк покера: две пары бьют пару.'),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'three of a kind', 'other': 'two pair'}, 'Bea забирает банк покера: тройка бьёт две пары.'),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'straight', 'other': 'three of a kind'}, 'Bea забирает банк покера: стрит бьёт тройку.'),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'flush', 'other': 'straight'}, 'Bea забирает банк покера: флеш бьёт стрит.'),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'full house', 'other': 'flush'}, 'Bea забирает банк покера: фулл-хаус бьёт флеш.'),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'four of a kind', 'other': 'full house'}, 'Bea забирает банк покера: каре бьёт фулл-хаус.'),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'straight flush', 'other': 'four of a kind'}, 'Bea забирает банк покера: стрит-флеш бьёт каре.'),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'straight flush', 'other': 'high card'}, 'Bea забирает банк покера: стрит-флеш бьёт старшую карту.'),
        ('web', None, 'You win the poker pot: {hand} beats {other}.', {'hand': 'full house', 'other': 'three of a kind'}, 'Вы забираете банк покера: фулл-хаус бьёт тройку.'),
        ('web', None, '{name} takes the {space} space: {chips}', {'space': 'poker', 'chips': 5}, 'Bea забирает банк покера: 5 фишек'),
        ('web', None, '{name} takes the {space} space: {chips}', {'space': 'rummoli', 'chips': 1}, 'Bea забирает банк руммоли: 1 фишка'),
        ('web', None, '{name} takes the {space} space: {chips}', {'space': '10S', 'chips': 2}, 'Bea забирает банк 10♠: 2 фишки'),
        ('web', None, '{name} takes the {space} space: {chips}', {'space': 'AKD', 'chips': 21}, 'Bea забирает банк A-K♦: 21 фишка'),
        ('web', None, '{name} takes the {space} space: {chips}', {'space': '789', 'chips': 22}, 'Bea забирает банк 7-8-9: 22 фишки'),
        ('web', None, '{name} takes the {space} space: {chips}', {'space': 'QC', 'chips': 25}, 'Bea забирает банк Q♣: 25 фишек'),
        ('web', None, '{name} takes the {space} space: {chips}', {'space': 'KH', 'chips': 101}, 'Bea забирает банк K♥: 101 фишка'),
        ('web', None, '{name} takes the {space} space: {chips}', {'space': 'JD', 'chips': 0}, 'Bea забирает банк J♦: 0 фишек'),
        ('web', None, 'You take the {space} space: {chips}', {'space': 'AS', 'chips': 111}, 'Вы забираете банк A♠: 111 фишек'),
        ('web', None, '{names} share the {space} space: {chips}', {'names': 'Ann и Bea', 'space': 'poker', 'chips': 12}, 'Ann и Bea делят банк покера: 12 фишек'),
        ('web', None, '{name} did not claim {space}: the chips stay', {'space': 'AKD'}, 'Bea не требует банк A-K♦: фишки остаются'),
        ('web', None, '{name} took the {space} space: {chips}.', {'space': 'rummoli', 'chips': 3}, 'Bea забирает банк руммоли: 3 фишки.'),
        ('rummoli', None, '{name} takes space {space}: {chips}', {'space': 'poker', 'chips': '5 фишек'}, 'Bea забирает банк покера: 5 фишек'),
        ('rummoli', None, '{names} split space {space}: {chips}', {'names': 'Ann и Bea', 'space': 'rummoli', 'chips': '8 фишек'}, 'Ann и Bea делят банк руммоли: 8 фишек'),
        ('rummoli', None, '({space} not claimed)', {'space': '10S'}, '(банк 10♠ не востребован)'),
        ('rummoli', None, '{you} went out first: {space} {kitty} + {paid} paid by the others.', {'you': 'Вы', 'space': 'rummoli', 'kitty': 9, 'paid': 14}, 'Вы раньше всех избавились от карт: банк руммоли 9 + 14 от остальных.'),
        ('rummoli', None, '{name} went out first: {space} {kitty} + {paid} paid by the others.', {'space': 'rummoli', 'kitty': 9, 'paid': 14}, 'Bea раньше всех избавляется от карт: банк руммоли 9 + 14 от остальных.'),
        ('rummoli', None, '{you} keep the hand', {'you': 'Вы'}, 'Вы оставляете свои карты'),
        ('web', None, 'You fold (the poker pot only)', {}, 'Вы сбрасываете карты (теряете только банк покера)'),
        ('web', None, '{name} folds (the poker pot only)', {}, 'Bea сбрасывает карты (теряет только банк покера)'),
        ('web', 'computer player', 'Bot {n}', {'n': 3}, 'Бот 3'),
        ('web', None, '{name} ({chips})', {'name': 'Бот 3', 'chips': 3}, 'Бот 3 (3 фишки)'),
        ('web', None, '{name} ({chips})', {'name': 'Бот 4', 'chips': 21}, 'Бот 4 (21 фишка)'),
        ('web', None, '{name} ({chips})', {'name': 'Бот 2', 'chips': 5}, 'Бот 2 (5 фишек)'),
        ('web', None, '{name} bids {chips} for the widow', {'chips': 1}, 'Bea предлагает 1 фишку за вдову'),
        ('web', None, '{name} bids {chips} for the widow', {'chips': 2}, 'Bea предлагает 2 фишки за вдову'),
        ('web', None, '{name} bids {chips} for the widow', {'chips': 5}, 'Bea предлагает 5 фишек за вдову'),
        ('web', None, '{name} bids {chips} for the widow', {'chips': 21}, 'Bea предлагает 21 фишку за вдову'),
        ('web', None, '{name} bids {chips} for the widow', {'chips': 22}, 'Bea предлагает 22 фишки за вдову'),
        ('web', None, '{name} bids {chips} for the widow', {'chips': 25}, 'Bea предлагает 25 фишек за вдову'),
        ('web', None, '{name} bids {chips} for the widow', {'chips': 101}, 'Bea предлагает 101 фишку за вдову'),
        ('web', None, '{name} pays you {chips}', {'chips': 1}, 'Bea платит вам 1 фишку'),
        ('web', None, '{name} pays you {chips}', {'chips': 21}, 'Bea платит вам 21 фишку'),
        ('web', None, '{name} pays you {chips}', {'chips': 0}, 'Bea платит вам 0 фишек'),
        ('web', None, '{name} scores {points}', {'points': 1}, 'Bea получает 1 очко'),
        ('web', None, '{name} scores {points}', {'points': 2}, 'Bea получает 2 очка'),
        ('web', None, '{name} scores {points}', {'points': 5}, 'Bea получает 5 очков'),
        ('web', None, '{name} scores {points}', {'points': 21}, 'Bea получает 21 очко'),
        ('web', None, '{name} buys the widow for {chips}, paid to {dealer}', {'chips': 21, 'dealer': 'Ann'}, 'Bea покупает вдову за 21 фишку, плата — Ann'),
        ('web', None, '{name} wins the poker pot: the same hand ({hand}), with higher cards.', {'hand': 'flush'}, 'Bea забирает банк покера: такая же комбинация (флеш), но карты старше.'),
        ('web', None, '{names} tie with {hand}: they share the poker pot.', {'names': 'Ann и Bea', 'hand': 'two pair'}, 'Ничья между Ann и Bea: у каждого две пары, банк покера делится.'),
        ('web', None, 'Mute {name} for yourself', {'name': 'Ann'}, 'Скрыть сообщения игрока Ann для себя'),
        ('web', None, 'Mute {name} for yourself', {'name': 'Bea'}, 'Скрыть сообщения игрока Bea для себя'),
        ('rummoli', None, "{name}'s turn", {'name': 'Éloi'}, 'ходит Éloi'),
        ('rummoli', None, "{name}'s turn", {'name': 'Bea'}, 'ходит Bea'),
        ('web', None, '{name} lays {card}', {'card': 'TS'}, 'Bea выкладывает 10♠'),
        ('web', None, 'You lead {card}, your lowest card', {'card': '2H'}, 'Вы начинаете с младшей карты: 2♥'),
        ('web', None, 'Poker: you took {chips}.', {'chips': 1}, 'Покер: вы забрали 1 фишку.'),
        ('web', None, 'Poker: you took {chips}.', {'chips': 25}, 'Покер: вы забрали 25 фишек.'),
        ('web', None, '{name} pays {to} {chips}', {'to': 'Ann', 'chips': 2}, 'Bea платит Ann: 2 фишки'),
        ('web', None, 'You take back {chips} uncalled', {'chips': 21}, 'Вы забираете назад неуравненную ставку: 21 фишка'),
        ('web', None, '{name} wins the poker pot: {chips}', {'chips': 5}, 'Bea выигрывает банк покера: 5 фишек'),
        ('web', None, 'You score {points}', {'points': 22}, 'Вы получаете 22 очка'),
        ('web', None, 'You went out and score {points}.', {'points': 101}, 'Вы избавились от карт и получаете 101 очко.'),
    ],
    'fr': [
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'flush', 'other': 'pair'}, "Bea remporte la case poker\u202f: un flush bat une paire."),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'pair', 'other': 'high card'}, "Bea remporte la case poker\u202f: une paire bat une carte haute."),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'two pair', 'other': 'pair'}, "Bea remporte la case poker\u202f: deux paires battent une paire."),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'three of a kind', 'other': 'two pair'}, "Bea remporte la case poker\u202f: un brelan bat deux paires."),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'straight', 'other': 'three of a kind'}, "Bea remporte la case poker\u202f: une quinte bat un brelan."),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'flush', 'other': 'straight'}, "Bea remporte la case poker\u202f: un flush bat une quinte."),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'full house', 'other': 'flush'}, "Bea remporte la case poker\u202f: un full bat un flush."),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'four of a kind', 'other': 'full house'}, "Bea remporte la case poker\u202f: un carré bat un full."),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'straight flush', 'other': 'four of a kind'}, "Bea remporte la case poker\u202f: une quinte flush bat un carré."),
        ('web', None, '{name} wins the poker pot: {hand} beats {other}.', {'hand': 'two pair', 'other': 'high card'}, "Bea remporte la case poker\u202f: deux paires battent une carte haute."),
        ('web', None, 'You win the poker pot: {hand} beats {other}.', {'hand': 'three of a kind', 'other': 'pair'}, "Vous remportez la case poker\u202f: un brelan bat une paire."),
        ('web', None, '{names} tie with {hand}: they share the poker pot.', {'names': 'Ann et Bea', 'hand': 'flush'}, "Égalité entre Ann et Bea, chacun avec un flush\u202f: ils se partagent la case poker."),
        ('web', None, '{names} tie with {hand}: they share the poker pot.', {'names': 'Ann et Bea', 'hand': 'pair'}, "Égalité entre Ann et Bea, chacun avec une paire\u202f: ils se partagent la case poker."),
        ('web', None, '{name} takes the {space} space: {chips}', {'space': 'poker', 'chips': 5}, "Bea prend la case poker\u202f: 5 jetons"),
        ('web', None, '{name} takes the {space} space: {chips}', {'space': 'rummoli', 'chips': 1}, "Bea prend la case rummoli\u202f: 1 jeton"),
        ('web', None, '{name} takes the {space} space: {chips}', {'space': '10S', 'chips': 0}, "Bea prend la case 10♠\u202f: 0 jeton"),
        ('web', None, '{name} takes the {space} space: {chips}', {'space': 'AKD', 'chips': 21}, "Bea prend la case A-K♦\u202f: 21 jetons"),
        ('web', None, '{name} takes the {space} space: {chips}', {'space': '789', 'chips': 2}, "Bea prend la case 7-8-9\u202f: 2 jetons"),
        ('web', None, '{name} takes the {space} space: {chips}', {'space': 'QC', 'chips': 1000000}, "Bea prend la case Q♣\u202f: 1\u202f000\u202f000 de jetons"),
        ('web', None, 'You take the {space} space: {chips}', {'space': 'JD', 'chips': 101}, "Vous prenez la case J♦\u202f: 101 jetons"),
        ('web', None, '{names} share the {space} space: {chips}', {'names': 'Ann et Bea', 'space': 'poker', 'chips': 12}, "Ann et Bea se partagent la case poker\u202f: 12 jetons"),
        ('web', None, 'You did not claim {space}: the chips stay', {'space': 'KH'}, "Vous n'avez pas réclamé la case K♥\u202f: les jetons restent"),
        ('web', None, '{name} took the {space} space: {chips}.', {'space': 'AS', 'chips': 22}, "Bea a pris la case A♠\u202f: 22 jetons."),
        ('rummoli', None, '{names} split space {space}: {chips}', {'names': 'Ann et Bea', 'space': 'poker', 'chips': '8 jetons'}, "partage de la case poker entre Ann et Bea\u202f: 8 jetons"),
        ('rummoli', None, '{you} take space {space}: {chips}', {'you': 'Vous', 'space': 'rummoli', 'chips': '3 jetons'}, "Vous prenez la case rummoli\u202f: 3 jetons"),
        ('rummoli', None, '({space} not claimed)', {'space': 'poker'}, '(case poker non réclamée)'),
        ('rummoli', None, '{you} went out first: {space} {kitty} + {paid} paid by the others.', {'you': 'Vous', 'space': 'rummoli', 'kitty': 9, 'paid': 14}, "Vous sortez en premier\u202f: case rummoli 9 + 14 payés par les autres."),
        ('rummoli', None, '{name} went out first: {space} {kitty} + {paid} paid by the others.', {'space': 'rummoli', 'kitty': 9, 'paid': 14}, "Bea sort en premier\u202f: case rummoli 9 + 14 payés par les autres."),
        ('web', None, 'You fold (the poker pot only)', {}, 'Vous vous couchez (vous ne perdez que la case poker)'),
        ('web', 'computer player', 'Bot {n}', {'n': 2}, 'Robot 2'),
        ('web', None, '{name} ({chips})', {'name': 'Robot 3', 'chips': 3}, 'Robot 3 (3 jetons)'),
        ('web', None, '{name} ({chips})', {'name': 'Robot 4', 'chips': 1}, 'Robot 4 (1 jeton)'),
        ('web', None, '{name} bids {chips} for the widow', {'chips': 1}, 'Bea enchérit 1 jeton pour la veuve'),
        ('web', None, '{name} bids {chips} for the widow', {'chips': 2}, 'Bea enchérit 2 jetons pour la veuve'),
        ('web', None, '{name} bids {chips} for the widow', {'chips': 5}, 'Bea enchérit 5 jetons pour la veuve'),
        ('web', None, '{name} bids {chips} for the widow', {'chips': 21}, 'Bea enchérit 21 jetons pour la veuve'),
        ('web', None, '{name} bids {chips} for the widow', {'chips': 22}, 'Bea enchérit 22 jetons pour la veuve'),
        ('web', None, '{name} bids {chips} for the widow', {'chips': 25}, 'Bea enchérit 25 jetons pour la veuve'),
        ('web', None, '{name} bids {chips} for the widow', {'chips': 101}, 'Bea enchérit 101 jetons pour la veuve'),
        ('web', None, '{name} pays you {chips}', {'chips': 1}, 'Bea vous paie 1 jeton'),
        ('web', None, '{name} pays you {chips}', {'chips': 21}, 'Bea vous paie 21 jetons'),
        ('web', None, '{name} pays you {chips}', {'chips': 0}, 'Bea vous paie 0 jeton'),
        ('web', None, '{name} scores {points}', {'points': 1}, 'Bea marque 1 point'),
        ('web', None, '{name} scores {points}', {'points': 2}, 'Bea marque 2 points'),
        ('web', None, '{name} scores {points}', {'points': 5}, 'Bea marque 5 points'),
        ('web', None, '{name} scores {points}', {'points': 21}, 'Bea marque 21 points'),
        ('web', None, '{name} buys the widow for {chips}, paid to {dealer}', {'chips': 21, 'dealer': 'Ann'}, 'Bea achète la veuve pour 21 jetons, payés à Ann'),
        ('web', None, '{name} wins the poker pot: the same hand ({hand}), with higher cards.', {'hand': 'flush'}, "Bea remporte la case poker\u202f: même main (flush), mais des cartes plus hautes."),
        ('web', None, '{names} tie with {hand}: they share the poker pot.', {'names': 'Ann et Bea', 'hand': 'two pair'}, "Égalité entre Ann et Bea, chacun avec deux paires\u202f: ils se partagent la case poker."),
        ('web', None, 'Mute {name} for yourself', {'name': 'Ann'}, "Ne plus voir les messages d'Ann"),
        ('web', None, 'Mute {name} for yourself', {'name': 'Bea'}, 'Ne plus voir les messages de Bea'),
        ('rummoli', None, "{name}'s turn", {'name': 'Éloi'}, "au tour d'Éloi"),
        ('rummoli', None, "{name}'s turn", {'name': 'Bea'}, 'au tour de Bea'),
        ('web', None, '{name} lays {card}', {'card': 'TS'}, 'Bea pose 10♠'),
        ('web', None, 'You lead {card}, your lowest card', {'card': '2H'}, 'Vous entamez avec 2♥, votre plus basse carte'),
        ('web', None, 'Poker: you took {chips}.', {'chips': 1}, "Poker\u202f: vous avez pris 1 jeton."),
        ('web', None, 'Poker: you took {chips}.', {'chips': 25}, "Poker\u202f: vous avez pris 25 jetons."),
        ('web', None, '{name} pays {to} {chips}', {'to': 'Ann', 'chips': 2}, 'Bea paie 2 jetons à Ann'),
        ('web', None, 'You take back {chips} uncalled', {'chips': 21}, 'Vous reprenez 21 jetons non suivis'),
        ('web', None, '{name} wins the poker pot: {chips}', {'chips': 5}, "Bea gagne la case poker\u202f: 5 jetons"),
        ('web', None, 'You score {points}', {'points': 22}, 'Vous marquez 22 points'),
        ('web', None, 'You went out and score {points}.', {'points': 101}, 'Vous sortez et marquez 101 points.'),
    ],
}
# fmt: on


def _value(field: str, value: Any) -> Any:
    if field in ("hand", "other") and value in HANDS:
        return hand(value)
    if field == "space" and value in SPACES:
        return Space(value)
    if field == "chips" and isinstance(value, int):
        return Amount(value)
    if field == "points" and isinstance(value, int):
        return Amount(value, "point")
    if field == "card" and value in CARDS:
        return Card(value)
    return value


def _say(lang: str, domain: str, context: str | None, english: str, values: dict[str, Any]) -> str:
    found = {(m.context, m.id): m for m in catalogue(lang, domain)}
    message = found[(context, english)]
    assert isinstance(message.string, str), english
    from rummoli.i18n.typography import typeset

    template = typeset(message.string, lang)
    filled = {"name": "Bea", **{k: _value(k, v) for k, v in values.items()}}
    return fill(template, filled)


@pytest.mark.parametrize("lang", LANGS)
def test_a_sample_of_sentences_reads_as_a_native_player_writes(lang: str) -> None:
    assert len(SAMPLE[lang]) >= 60, "at least sixty sentences a language"
    with i18n.language(lang):
        got = [(e, _say(lang, d, c, e, v), want) for d, c, e, v, want in SAMPLE[lang]]
    assert [(e, g) for e, g, _w in got] == [(e, w) for e, _g, w in got]
