"""The game's words in the language in force: suits, ranks, cards, board spaces, poker
hands, and what each game's description says to people (titles, house rules).

The engine speaks English codes and words (``QC``, ``"full house"``, a house rule's help)
and stays standard library only; these functions translate them at the edge, from the
English text as message id with a context naming the group (``suit``, ``poker hand``,
``house rule``), so the same words serve the terminal now and the web page later (a
server can send the catalogue's entries of a context to a browser as JSON).

A house rule's short title for people ("Widow", "Poker phase"), the groups forms show
the rules in, each choice's title and one-line meaning, and the printed rule sets' names
are kept with the game's texts, in ``games/<game>/text/house_rules.json`` (a game without
one gets its code names in words); a rule's help is the description's own
``HouseRule.help``.
"""

from __future__ import annotations

import importlib.resources
import json
import re
from functools import cache
from typing import Any

from rummoli.engine.description import GameDescription, HouseRule
from rummoli.i18n import NP_, pgettext

#: Suit letters of the engine's card text, and what each is called.
SUIT_NAMES = {
    "C": NP_("suit", "clubs"),
    "D": NP_("suit", "diamonds"),
    "H": NP_("suit", "hearts"),
    "S": NP_("suit", "spades"),
}
#: "queen of clubs" is written per suit: Russian puts the suit in the genitive (дама
#: треф), French after "de" (dame de trèfle).
CARD_OF_SUIT = {
    "C": NP_("card", "{rank} of clubs"),
    "D": NP_("card", "{rank} of diamonds"),
    "H": NP_("card", "{rank} of hearts"),
    "S": NP_("card", "{rank} of spades"),
}
RANK_NAMES = {
    "2": NP_("rank", "two"),
    "3": NP_("rank", "three"),
    "4": NP_("rank", "four"),
    "5": NP_("rank", "five"),
    "6": NP_("rank", "six"),
    "7": NP_("rank", "seven"),
    "8": NP_("rank", "eight"),
    "9": NP_("rank", "nine"),
    "T": NP_("rank", "ten"),
    "J": NP_("rank", "jack"),
    "Q": NP_("rank", "queen"),
    "K": NP_("rank", "king"),
    "A": NP_("rank", "ace"),
}
#: The board's spaces as the board line names them. Pay cards keep their card text
#: (``10S``), as on the printed board; the words are translated.
SPACE_NAMES = {
    "poker": NP_("space", "poker"),
    "rummoli": NP_("space", "rummoli"),
    "AKD": NP_("space", "AKD"),
    "789": NP_("space", "789"),
    # The other games of the family: their pots and the spaces of several cards.
    "kitty": NP_("space", "kitty"),
    "pot": NP_("space", "pot"),
    "KQH": NP_("space", "KQH"),
    "8910": NP_("space", "8-9-10"),
    "pope": NP_("space", "Pope"),
    "matrimony": NP_("space", "Matrimony"),
    "intrigue": NP_("space", "Intrigue"),
    "ace": NP_("space", "Ace"),
    "king": NP_("space", "King"),
    "queen": NP_("space", "Queen"),
    "jack": NP_("space", "Jack"),
    "ten": NP_("space", "Ten"),
    "game": NP_("space", "Game"),
    "poch": NP_("space", "Poch"),
    "marriage": NP_("space", "Marriage"),
    "sequence": NP_("space", "Sequence"),
    "centre": NP_("space", "centre"),
}
#: The engine's poker categories (``rummoli.poker.CATEGORY_NAMES``).
POKER_HANDS = (
    NP_("poker hand", "high card"),
    NP_("poker hand", "pair"),
    NP_("poker hand", "two pair"),
    NP_("poker hand", "three of a kind"),
    NP_("poker hand", "straight"),
    NP_("poker hand", "flush"),
    NP_("poker hand", "full house"),
    NP_("poker hand", "four of a kind"),
    NP_("poker hand", "straight flush"),
)


def suit_name(letter: str) -> str:
    """``C`` -> ``clubs`` (``trèfle``, ``трефы``)."""
    return pgettext("suit", SUIT_NAMES[letter])


def rank_name(rank: str) -> str:
    rank = "T" if rank == "10" else rank
    return pgettext("rank", RANK_NAMES[rank])


def card_name(text: str) -> str:
    """A card's text in words: ``QC`` -> ``queen of clubs`` (``dame de trèfle``)."""
    rank, suit = text[:-1], text[-1]
    return pgettext("card", CARD_OF_SUIT[suit]).format(rank=rank_name(rank))


def space_name(code: str) -> str:
    """A board space by its word (``poker``: ``покер``), a pay card's as it is typed
    (``10S``: what the simulation report and its charts keep)."""
    return pgettext("space", SPACE_NAMES[code]) if code in SPACE_NAMES else code


def space_shown(code: str) -> str:
    """A board space as a table shows it: its word (``покер``), a pay card's by its
    cards, as on the pages and in the rules (``10S``: ``10♠``, ``AKD``: ``A-K♦``; any
    other game's space named by one card too: Michigan's ``AH``, Nain Jaune's ``7D``)."""
    from rummoli.i18n.forms import SPACE_CARDS, SUIT_SYMBOLS

    if code in SPACE_CARDS:
        return SPACE_CARDS[code]
    if code not in SPACE_NAMES and _ONE_CARD.fullmatch(code):
        rank = "10" if code[0] == "T" else code[:-1]
        return rank + SUIT_SYMBOLS[code[-1]]
    return space_name(code)


#: A space named by one card's text (``AH``, ``10D``).
_ONE_CARD = re.compile(r"(?:10|[2-9TJQKA])[CDHS]")


def poker_hand(name: str) -> str:
    """A poker category from the engine (``full house``) in the language in force."""
    return pgettext("poker hand", name)


def bot_label(description: GameDescription, level: str) -> tuple[str, str]:
    """A computer level for people, translated: its label (``Expert``) and what it does."""
    label = description.bot_label(level)
    title = pgettext("bot level", label.title) if level in description.bot_labels else label.title
    return title, pgettext("bot level help", label.help) if label.help else ""


def rules_document(description: GameDescription, lang: str) -> str:
    """The game's rules document (Markdown) in ``lang``, typeset for it (French spaces
    before ``: ; ! ?``: :mod:`rummoli.i18n.typography`)."""
    from rummoli.i18n.typography import typeset

    return typeset(description.rules_document(lang), lang)


def game_title(description: GameDescription) -> str:
    """The game's name for people (``Basic Rummy``: ``Rami de base``)."""
    return pgettext("game", description.title)


def house_rule_help(rule: HouseRule) -> str:
    """What a house rule means (its ``help``), translated; its choices stay code words."""
    return pgettext("house rule", rule.help)


def house_rule_title(description: GameDescription, rule: HouseRule) -> str:
    """A house rule's short title for people (``widow``: "Widow", "Veuve", "Вдова")."""
    english = english_titles(description).get(rule.name)
    if english is None:
        return rule.name.replace("_", " ").capitalize()
    return pgettext("house rule title", english)


def english_titles(description: GameDescription) -> dict[str, str]:
    """The house rules' English titles of ``description``, from the game's texts."""
    return dict(_texts(description.rules_text).get("titles", {}))


def house_rule_groups(description: GameDescription) -> list[tuple[str, list[str]]]:
    """The house rules as forms group them ("Widow": widow, pay_card_blocks_exchange),
    titles translated, in the game's order; rules of no group come last, as "Other"."""
    names = [rule.name for rule in description.house_rules]
    groups = [
        (pgettext("house rule group", str(title)), [n for n in members if n in names])
        for title, members in _texts(description.rules_text).get("groups", [])
    ]
    grouped = {n for _title, members in groups for n in members}
    rest = [n for n in names if n not in grouped]
    if rest:
        groups.append((pgettext("house rule group", "Other"), rest))
    return [(title, members) for title, members in groups if members]


def house_rule_value(description: GameDescription, rule: str, value: str) -> tuple[str, str]:
    """A choice's word for people, translated: its title and one line on what it does
    (``widow=none``: "No widow", "The widow stays out of play, face down."); a word the
    texts do not name is said in words, with no line."""
    found = _texts(description.rules_text).get("values", {}).get(rule, {}).get(value)
    if not found:
        return value.replace("_", " "), ""
    title, help_text = found
    return pgettext("house rule value", title), pgettext("house rule value help", help_text)


def preset_label(description: GameDescription, name: str) -> tuple[str, str]:
    """A printed rule set for people: its title and one line on what it changes."""
    found = _texts(description.rules_text).get("presets", {}).get(name)
    if not found:
        return name.replace("_", " "), ""
    title, help_text = found
    return pgettext("preset", title), pgettext("preset help", help_text)


def house_rule_texts(description: GameDescription) -> dict[str, Any]:
    """The game's house-rule texts in English (for the message extractor)."""
    return _texts(description.rules_text)


@cache
def _texts(rules_text: str) -> dict[str, Any]:
    """The game's ``text/house_rules.json`` (titles, groups, values, presets), or {}."""
    package = rules_text.partition(":")[0]
    if not package:
        return {}
    resource = importlib.resources.files(package).joinpath("text", "house_rules.json")
    if not resource.is_file():
        return {}
    data: dict[str, Any] = json.loads(resource.read_text(encoding="utf-8"))
    return data
