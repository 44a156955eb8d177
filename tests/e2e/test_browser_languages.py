"""The pages in French and Russian, in real browsers (contexts with ``locale="fr-CA"`` and
``"ru-RU"``: the page picks its language from ``navigator.languages``).

- A whole game (one round) in each language against a computer player: every text the
  page shows (its text, titles, labels, placeholders), at every turn and at the end, holds
  no English word: no word of the pages' English messages that the language's own
  translations do not use. The table is checked at 390x844 and 1366x768 too: nothing
  wider than the window, no button cut.
- Two people at one table, Ann in French and Bea in Russian: the waiting table, the join
  form and a refused name (the server's refusal worded by Bea's page), then the same game,
  the other's moves included, each in her own language.
- The switch: a language chosen on one page is remembered on every page, and back.

After the game, its history, its replay, the player's page and the rules are checked the
same way.

``RUMMOLI_SCREENSHOTS=docs/img`` also saves the table in French and in Russian.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Browser, Page

from e2e.conftest import LiveServer
from e2e.pages import (
    DESKTOP,
    GAME_SECONDS,
    INSTANT_PACE,
    NO_GUIDE,
    PHONE,
    TIMEOUT_MS,
    Shots,
    create_in_lobby,
    take_first_seat,
)

LOCALE = Path(__file__).resolve().parents[2] / "src" / "rummoli" / "locale"
LARGE = {"width": 1366, "height": 768}
FIELD = re.compile(r"\{[^{}]*\}")
#: A word; a code word with underscores (``must_claim``) is one.
WORD = re.compile(r"[A-Za-z][A-Za-z'_]+")

#: Everything a person reads on the page: its text, and the texts of titles, labels and
#: placeholders (tooltips and screen readers say them).
PAGE_TEXT = """() => {
  const out = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    for (const name of ['title', 'aria-label', 'placeholder']) {
      const value = el.getAttribute(name);
      if (value) out.push(value);
    }
  }
  return out.join('\\n');
}"""
#: Someone's turn with a choice to click, at a step after ``acted``, or the end.
TURN_OR_END = """(acted) => {
  const t = document.querySelector('#table');
  return t.dataset.phase === 'over' || (t.dataset.myTurn === 'true'
    && Number(t.dataset.step) > acted
    && document.querySelector('[data-testid=actions] button') !== null);
}"""
#: A person to move at a step after ``acted``, or the end (on any page of the table).
SOMEONE_OR_END = """(acted) => {
  const t = document.querySelector('#table');
  return t.dataset.phase === 'over'
    || (Number(t.dataset.step) > acted && ['0', '1'].includes(t.dataset.toMove));
}"""
#: Whatever is wider than the window, buttons whose text does not fit them, and players'
#: names squeezed out by the badges beside them.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  const page = document.documentElement.scrollWidth;
  if (page > width + 1) wide.push('page ' + page);
  const boxes = '#table button, #table .pill, #table .space, #table .player';
  for (const el of document.querySelectorAll(boxes)) {
    if (!el.offsetParent) continue;
    const box = el.getBoundingClientRect();
    if (box.right > width + 1) wide.push(el.className + ' ' + box.right);
    const cut = el.tagName === 'BUTTON' && el.scrollWidth > el.clientWidth + 1;
    if (cut) wide.push('cut: ' + el.textContent);
  }
  // A player's name keeps room beside the longer badges: whole, or 40 pixels at least.
  for (const el of document.querySelectorAll('#table .player-name')) {
    const width = el.getBoundingClientRect().width;
    if (width < Math.min(el.scrollWidth, 40)) wide.push('name squeezed: ' + el.textContent);
  }
  return wide;
}"""


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(FIELD.sub(" ", text))}


def _strings(lang: str, domain: str) -> list[str]:
    """Every translation of ``lang``'s catalogue of ``domain``."""
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as po:
        catalogue = read_po(po, locale=lang)
    out: list[str] = []
    for message in catalogue:
        if message.id:
            out += [message.string] if isinstance(message.string, str) else list(message.string)
    return out


def code_words() -> set[str]:
    """What is typed stays the same in every language (docs/i18n.md): the house rules'
    names and values, as the lobby's form shows them beside their translated titles (a
    rule's name as its label's tooltip, its choices in its menu)."""
    from rummoli.web.settings import lobby_options

    words: set[str] = set()
    for game in lobby_options()["games"].values():
        for rule in game["rules"]:
            words |= _words(rule["name"])
            for choice in rule.get("choices", []):
                words |= _words(str(choice))
    return words


def english_words(lang: str, names: list[str]) -> set[str]:
    """The words of the pages' English messages that no translation of ``lang`` uses
    (nor a name): none of them may be on a page shown in ``lang``."""
    with (LOCALE / "web.pot").open("rb") as pot:
        template = read_po(pot)
    english: set[str] = set()
    for message in template:
        for text in [message.id] if isinstance(message.id, str) else list(message.id):
            english |= _words(text)
    # The switch names each language in its own words; the site's name is a name.
    used: set[str] = {"english", "rummoli"}
    for text in _strings(lang, "web"):
        used |= _words(text)
    for name in names:
        used |= _words(name)
    return english - used


def english_left(
    page: Page, forbidden: set[str], allowed: frozenset[str] = frozenset()
) -> set[str]:
    """The forbidden words on the page (but the ``allowed`` code words)."""
    shown: str = page.evaluate(PAGE_TEXT)
    return (_words(shown) & forbidden) - allowed


def _check_layout(page: Page) -> None:
    """The table at its turn on a phone and on a laptop: nothing is cut or too wide."""
    for size in (PHONE, LARGE):
        page.set_viewport_size(size)
        assert page.evaluate(OVERFLOW) == [], size
    page.set_viewport_size(DESKTOP)


#: The replay has loaded and shows a step (its counter is written). A function, not an
#: expression: the pages' CSP refuses the eval a polled expression needs.
REPLAY_SHOWN = "() => document.querySelector('[data-testid=replay-step]').textContent"


def _replay_choices(page: Page, base: str, forbidden: set[str]) -> None:
    """The last game's replay seen by the person's seat (0): at its first decision the
    choices are listed in the page's words ("passez, enchérissez 1–30"), not the
    engine's ("pass, bid")."""
    page.goto(base + "/history")
    page.locator("[data-testid^=replay-]").first.click()
    page.get_by_test_id("replay-step").wait_for()
    page.goto(page.url.split("?", 1)[0] + "?seat=0")
    page.wait_for_function(REPLAY_SHOWN)
    choices = page.get_by_test_id("replay-choices")
    for _ in range(60):
        if choices.inner_text().strip():
            break
        page.get_by_test_id("replay-next").click()
    assert choices.inner_text().strip(), "no decision of seat 0 in the first steps"
    assert english_left(page, forbidden) == set(), ("the replay's choices", choices.inner_text())


def _create(page: Page, base: str, name: str, *, second: str) -> str:
    """A one-round Rummoli table for two from the lobby: ``name`` sits, the second seat
    is ``second`` (``human`` or a computer level)."""
    page.goto(base + "/")
    fields: dict[str, str | bool] = {
        "create-name": name,
        "seat-count": "2",
        "seat-kind-1": second,
        "rounds": "1",
    }
    return create_in_lobby(page, fields)


@pytest.mark.parametrize(
    ("locale", "lang", "turn_word"), [("fr-CA", "fr", "À vous"), ("ru-RU", "ru", "Ваш ход")]
)
def test_a_whole_game_in_the_browser_s_language(
    browser: Browser, live_server: LiveServer, locale: str, lang: str, turn_word: str
) -> None:
    started = time.monotonic()
    shots = Shots()
    context = browser.new_context(locale=locale, viewport=DESKTOP)
    context.add_init_script(INSTANT_PACE)
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        # The computer player's seat is worded in the language: "Bot" is not a name here.
        forbidden = english_words(lang, ["Élise"])
        page.goto(live_server.url + "/")
        page.get_by_test_id("create-submit").wait_for()
        assert page.evaluate("document.documentElement.lang") == lang
        assert english_left(page, forbidden, frozenset(code_words())) == set(), "the lobby"
        _create(page, live_server.url, "Élise", second="basic")
        acted, turns, best = -1, 0, 0
        while True:
            assert time.monotonic() - started < GAME_SECONDS, "the game took too long"
            page.wait_for_function(TURN_OR_END, arg=acted)
            data = page.eval_on_selector("#table", "t => ({...t.dataset})")
            left = english_left(page, forbidden)
            assert left == set(), (data["phase"], left)
            if data["phase"] == "over":
                break
            if turns == 0:
                assert page.get_by_test_id("turn").inner_text() == turn_word
                _check_layout(page)
                # The first round's guide (its words checked above) steps aside.
                if page.get_by_test_id("tour-skip").count():
                    page.get_by_test_id("tour-skip").click()
            laid = page.eval_on_selector_all(".laid-cell.on", "cells => cells.length")
            score = 100 + laid if data["phase"] == "play" else int(data["phase"] == "betting")
            if shots.dir is not None and score > best:
                best = score
                page.evaluate("window.scrollTo(0, 0)")
                shots.take(page, f"table-{lang}")
            page.get_by_test_id("actions").locator("button").first.click()
            acted, turns = int(data["step"]), turns + 1
        assert turns > 0
        page.get_by_test_id("standings").wait_for()
        page.get_by_test_id("round-summary").wait_for()
        assert english_left(page, forbidden) == set(), "the end"
        # The log speaks the language too, to the person ("Vous", "Вы") and of the others.
        log = page.get_by_test_id("log").locator("li").all_inner_texts()
        assert any(line.startswith({"fr": "Vous ", "ru": "Вы "}[lang]) for line in log)
        assert any(
            line.startswith({"fr": "Robot 2 coupe", "ru": "Бот 2 тянет"}[lang]) for line in log
        )
        # The other pages, with this game in them: the history, its replay (first and
        # last steps), the player's page, the rules.
        base = live_server.url
        # The rules say the typed words too: house rules, their values, card codes (AS).
        typed = frozenset(code_words() | {r + s for r in "23456789tjqka" for s in "cdhs"})
        for path, ready, allowed in (
            ("/history", "[data-testid^=history-row-]", frozenset()),
            ("/player?name=%C3%89lise", "[data-testid=stat-games]", frozenset()),
            ("/rules", "[data-testid=house-rules] table", typed),
            ("/rules?game=rummy", "[data-testid=house-rules] table", typed),
        ):
            page.goto(base + path)
            page.wait_for_selector(ready)
            assert english_left(page, forbidden, allowed) == set(), path
        page.goto(base + "/history")
        page.locator("[data-testid^=replay-]").first.click()
        page.get_by_test_id("replay-step").wait_for()
        page.wait_for_function(REPLAY_SHOWN)
        assert english_left(page, forbidden) == set(), "the replay"
        page.get_by_test_id("replay-last").click()
        page.wait_for_function("() => document.querySelector('#table').dataset.phase === 'over'")
        assert english_left(page, forbidden) == set(), "the replay's end"
        _replay_choices(page, base, forbidden)
    finally:
        context.close()


def test_two_people_at_one_table_each_in_her_language(
    browser: Browser, live_server: LiveServer
) -> None:
    started = time.monotonic()
    contexts = [
        browser.new_context(locale="fr-CA", viewport=DESKTOP),
        browser.new_context(locale="ru-RU", viewport=PHONE, is_mobile=True, has_touch=True),
    ]
    for context in contexts:
        context.add_init_script(INSTANT_PACE)
    try:
        ann, bea = (context.new_page() for context in contexts)
        for page in (ann, bea):
            page.set_default_timeout(TIMEOUT_MS)
        forbidden = {
            "0": english_words("fr", ["Ann", "Bea"]),
            "1": english_words("ru", ["Ann", "Bea"]),
        }
        _create(ann, live_server.url, "Ann", second="human")
        ann.get_by_test_id("waiting").get_by_text("En attente de joueurs").wait_for()
        # The waiting table (the invitation, the seats) and the join form, each in hers.
        assert english_left(ann, forbidden["0"]) == set(), "waiting"
        bea.goto(ann.get_by_test_id("invite-link").input_value())
        # A refused name: the server's refusal is worded by Bea's page, in Russian.
        bea.get_by_test_id("join-name").fill("ANN")
        bea.get_by_test_id("join-submit").click()
        refusal = bea.get_by_test_id("join-error")
        refusal.get_by_text("уже за этим столом", exact=False).wait_for()
        assert "'ANN'" in refusal.inner_text()
        bea.get_by_test_id("join-name").fill("Bea")
        assert english_left(bea, forbidden["1"]) == set(), "joining"
        bea.get_by_test_id("join-submit").click()
        pages = {"0": ann, "1": bea}
        acted = -1
        while True:
            assert time.monotonic() - started < GAME_SECONDS, "the game took too long"
            ann.wait_for_function(SOMEONE_OR_END, arg=acted)
            data = ann.eval_on_selector("#table", "t => ({...t.dataset})")
            if data["phase"] == "over":
                break
            who = pages[data["toMove"]]
            who.wait_for_function(TURN_OR_END, arg=acted)
            step = who.eval_on_selector("#table", "t => t.dataset.step")
            for seat, page in pages.items():
                assert english_left(page, forbidden[seat]) == set(), seat
            who.get_by_test_id("actions").locator("button").first.click()
            acted = int(step)
        for page in (ann, bea):
            page.get_by_test_id("standings").wait_for()
        assert ann.get_by_test_id("round").inner_text() == "Manche 1 sur 1"
        assert bea.get_by_test_id("round").inner_text() == "Раунд 1 из 1"
        # Each reads the other's moves in her own language.
        ann_log = ann.get_by_test_id("log").locator("li").all_inner_texts()
        bea_log = bea.get_by_test_id("log").locator("li").all_inner_texts()
        assert any(line.startswith("Bea ") for line in ann_log)
        assert any(line.startswith("Vous ") for line in ann_log)
        assert any(line.startswith("Вы ") for line in bea_log)
        assert any("Ann" in line and re.search("[а-я]", line) for line in bea_log)
        for seat, page in pages.items():
            assert english_left(page, forbidden[seat]) == set(), seat
    finally:
        for context in contexts:
            context.close()


def test_the_language_switch_is_remembered_on_every_page(
    browser: Browser, live_server: LiveServer
) -> None:
    context = browser.new_context(locale="en-US", viewport=DESKTOP)
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(live_server.url + "/")
        page.get_by_test_id("create-submit").wait_for()
        assert page.get_by_test_id("nav-history").inner_text() == "History"
        assert page.evaluate("document.documentElement.lang") == "en"
        page.get_by_test_id("language").select_option("ru")
        page.wait_for_function("() => document.documentElement.lang === 'ru'")
        page.get_by_test_id("create-submit").wait_for()
        assert page.get_by_test_id("create-submit").inner_text() == "Создать стол и сесть"
        assert page.evaluate("localStorage.getItem('rummoli.lang')") == "ru"
        # Another page, and the page for a wrong address, in the chosen language.
        page.goto(live_server.url + "/rules")
        page.get_by_test_id("house-rules").locator("table").wait_for()
        assert page.get_by_test_id("nav-history").inner_text() == "История"
        assert page.locator("section.panel > h2").inner_text() == "Домашние правила"
        page.goto(live_server.url + "/no/such/page")
        page.wait_for_function("() => document.documentElement.lang === 'ru'")
        assert page.locator("h1").inner_text() == "Такой страницы нет"
        page.get_by_test_id("language").select_option("fr")
        page.wait_for_function("() => document.documentElement.lang === 'fr'")
        assert page.locator("h1").inner_text() == "Cette page n'existe pas"
        page.goto(live_server.url + "/history")
        assert page.get_by_test_id("nav-history").inner_text() == "Historique"
        page.get_by_test_id("language").select_option("en")
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        assert page.get_by_test_id("nav-history").inner_text() == "History"
    finally:
        context.close()


@pytest.mark.parametrize(
    ("locale", "lang", "name", "hand_word"),
    [("fr-CA", "fr", "Élise", "Donne"), ("ru-RU", "ru", "Вера", "Раздача")],
)
def test_a_rummy_match_in_the_browser_s_language(
    browser: Browser, live_server: LiveServer, locale: str, lang: str, name: str, hand_word: str
) -> None:
    """Basic Rummy's table in French and in Russian: a refusal provoked on purpose (a
    computer player's name taken in the lobby), then the person draws from the stock and
    discards her first card until the computer has won the match (a low target keeps it
    short). The computer player's seat is worded too ("Robot 2", "Бот 2"): "Bot" is no
    name the page may show."""
    started = time.monotonic()
    context = browser.new_context(locale=locale, viewport=DESKTOP)
    context.add_init_script(INSTANT_PACE)
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        forbidden = english_words(lang, [name])
        page.goto(live_server.url + "/?game=rummy")
        page.get_by_test_id("rule-target").wait_for()
        assert english_left(page, forbidden, frozenset(code_words())) == set(), "the lobby"
        page.get_by_test_id("create-name").fill("Bot 2")
        page.get_by_test_id("create-submit").click()
        refusal = page.locator("#create-error")
        refusal.locator("*").first.wait_for()
        assert refusal.inner_text().strip()
        # The refusal quotes the name typed ("Bot 2"), a name: its own words are checked.
        typed = frozenset(code_words() | {"bot"})
        assert english_left(page, forbidden, typed) == set(), "the refusal"
        fields: dict[str, str | bool] = {
            "create-name": name,
            "seat-count": "2",
            "seat-kind-1": "basic",
            "rule-target": "other",
            "rule-target-n": "5",
        }
        create_in_lobby(page, fields)
        acted = -1
        while True:
            assert time.monotonic() - started < GAME_SECONDS, "the match took too long"
            page.wait_for_function(TURN_OR_END, arg=acted)
            data = page.eval_on_selector("#table", "t => ({...t.dataset})")
            assert english_left(page, forbidden) == set(), data["phase"]
            if data["phase"] == "over":
                break
            if data["phase"] == "draw":
                page.get_by_test_id("stock").click()
            else:
                page.locator("[data-testid^=hand-card-]").first.click()
                page.get_by_test_id("hint").wait_for()
                assert english_left(page, forbidden) == set(), "a card selected"
                page.get_by_test_id("action-discard").click()
            acted = int(data["step"])
        page.get_by_test_id("standings").wait_for()
        assert english_left(page, forbidden) == set(), "the end"
        assert page.get_by_test_id("round").inner_text().startswith(hand_word)
        robot = {"fr": "Robot 2", "ru": "Бот 2"}[lang]
        assert robot in page.get_by_test_id("player-name-1").inner_text()
        _replay_choices(page, live_server.url, forbidden)
    finally:
        context.close()


#: A deal of two seats whose person holds nine spades of seventeen cards (CI found it:
#: the suit widened the page to 434 pixels on a 390-pixel phone).
LONG_SUIT_SEED = 530867161223682837
#: The most cards of one suit in the hand shown.
LONGEST_SUIT = """() => Math.max(0, ...[...document.querySelectorAll('#table .suit-group')]
  .map(group => group.children.length))"""


def test_a_long_suit_wraps_within_itself_on_a_phone(
    browser: Browser, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("rummoli.web.hub.new_seed", lambda: LONG_SUIT_SEED)
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(NO_GUIDE)
    try:
        page = context.new_page()
        body = {"seats": ["human", "basic"], "name": "Ann", "rules": {"rounds": 1}}
        table = take_first_seat(page, live_server.url, body)
        page.goto(f"{live_server.url}/table/{table}")
        page.locator("#table .suit-group").first.wait_for()
        assert page.evaluate(LONGEST_SUIT) >= 9  # the deal this test is about
        assert page.evaluate(OVERFLOW) == []
    finally:
        context.close()
