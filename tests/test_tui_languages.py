"""The terminal in French and Russian: whole games with no English left, the commands'
help and errors, ``rummoli rules``, and the language chosen by ``--lang`` or ``LANG``.

"No English left" is checked word by word: every word of the English messages (the
catalogue's message ids) that no translation of the language uses is a word that must
not appear on the screen. Names, cards and typed codes (``meld``, ``save``, house rule
names) appear in the translations themselves, so they are allowed.
"""

from __future__ import annotations

import io
import random
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from rich.console import Console

from rummoli import cli, i18n
from rummoli.bots import ask_bot, make_bot
from rummoli.cards import card_str, cards_of
from rummoli.engine.base import CHANCE, CHANCE_ACTION
from rummoli.games.registry import describe
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.games.rummy import Rules as RummyRules
from rummoli.games.rummy import RummyState
from rummoli.games.rummy import actions as act
from rummoli.tui.replay import step_through
from rummoli.tui.rummy.play import play_rummy
from rummoli.tui.stops.play import play_game

LOCALE = Path(i18n.__file__).parents[1] / "locale"
NAMES = ["Ana", "Bea", "Cy", "Di"]
WORD = re.compile(r"[A-Za-z][A-Za-z_]{2,}")


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


@cache
def english_words(lang: str) -> frozenset[str]:
    """Words of the English messages that the language's translations never use."""
    with (LOCALE / lang / "LC_MESSAGES" / "rummoli.po").open("rb") as po:
        catalog = read_po(po, locale=lang)
    english: set[str] = set()
    used: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        for text in ids:
            english.update(w.lower() for w in WORD.findall(_strip(text)))
        for text in forms:
            used.update(w.lower() for w in WORD.findall(text))
    return frozenset(english - used - {n.lower() for n in NAMES} - codes())


@cache
def codes() -> frozenset[str]:
    """What is the same in every language: house rules, presets, commands (typed as they
    are), and each language's name in its own words (``en (English)``)."""
    from rummoli.games import registry

    names = {i18n.language_name(lang).lower() for lang in i18n.languages()}
    names |= {"help", *(command.name or "" for command in cli.app.registered_commands)}
    names |= {
        command.callback.__name__ for command in cli.app.registered_commands if command.callback
    }
    for description in registry.descriptions():
        names |= {rule.name for rule in description.house_rules} | set(description.presets)
    return frozenset(names)


def _strip(text: str) -> str:
    """A message without its fields and markup (``{name}``, ``[bold]``)."""
    return re.sub(r"\{[^}]*\}|\[/?[a-z ]*\]", " ", text)


def english_left(text: str, lang: str) -> list[str]:
    """English words in ``text``; a code name (``pay_card_blocks_exchange``, typed as it
    is in every language), an option (``--preset``) and Typer's value types
    (``<float range>``) are not words."""
    words = english_words(lang)
    text = re.sub(r"<[^>]*>|--?[a-z][a-z-]*", " ", text)
    return sorted({w for w in WORD.findall(text) if "_" not in w and w.lower() in words})


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=80, highlight=False, color_system=None), out


def test_the_check_finds_english() -> None:
    assert english_left("Bea takes the widow; Ana passes", "fr") == ["passes", "takes", "the"]
    assert english_left("Bea prend la veuve; Ana passe", "fr") == []


# ---------------------------------------------------------------------- whole games


@pytest.mark.parametrize("lang", ["fr", "ru"])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_rummoli_game_speaks_the_language(lang: str, seed: int) -> None:
    i18n.set_language(lang)
    state = RummoliState.new_game(NAMES, Rules(rounds=2), seed=seed)
    bots = {s: make_bot("basic", seed * 10 + s) for s in range(1, 4)}
    rng = random.Random(seed)
    first = ["h", "xyz", "99"]  # help, a word that is no choice, a choice that is not there

    def human(prompt: str) -> str:
        if first:
            return first.pop(0)
        return str(rng.randint(1, 2)) if prompt.startswith(">") else ""

    out_console, out = console()
    assert play_game(state, out_console, human, bots) == 0
    text = out.getvalue()
    assert state.is_terminal()
    assert not english_left(text, lang), english_left(text, lang)
    said = {
        "fr": ("Manche 1", "jetons", "Fin de la partie"),
        "ru": ("Раунд 1", "фиш", "Игра окончена"),
    }
    assert all(part in text for part in said[lang])


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_the_hint_and_its_reason_speak_the_language(lang: str) -> None:
    i18n.set_language(lang)
    state = RummoliState.new_game(NAMES, Rules(rounds=1), seed=5)
    bots = {s: make_bot("random", s) for s in range(1, 4)}
    answers = ["?", "q"]
    out_console, out = console()
    play_game(state, out_console, lambda prompt: answers.pop(0) if answers else "", bots)
    text = out.getvalue()
    hint = next(line for line in text.splitlines() if line.startswith(("Conseil", "Совет")))
    assert not english_left(hint, lang), hint


def _typed(action: int) -> str:
    """A move as a person types it (the command words are the same in every language)."""
    if action == act.DRAW_STOCK:
        return "s"
    if action == act.DRAW_DISCARD:
        return "t"
    if act.is_meld_action(action):
        return "meld " + " ".join(card_str(c) for c in cards_of(act.meld_of(action)))
    if act.is_layoff_action(action):
        card, slot = act.layoff_of(action)
        return f"lay {card_str(card)} {slot + 1}"
    return f"d {card_str(act.discard_of(action))}"


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_a_whole_rummy_match_speaks_the_language(lang: str) -> None:
    i18n.set_language(lang)
    state = RummyState.new_game(NAMES[:3], RummyRules(target=40), seed=3)
    bots = {s: make_bot("basic", 30 + s, game="rummy") for s in range(1, 3)}
    rng = random.Random(3)
    first = ["?", "sort", "pile", "meld 2C", "lay KS sur 9"]

    def human(prompt: str) -> str:
        if prompt != "> ":
            return ""
        if first:
            return first.pop(0)
        legal = state.legal_actions()
        plays = [a for a in legal if act.is_meld_action(a) or act.is_layoff_action(a)]
        return _typed(rng.choice(plays or legal))

    out_console, out = console()
    assert play_rummy(state, out_console, human, bots) == 0
    assert state.is_terminal()
    text = out.getvalue()
    assert not english_left(text, lang), english_left(text, lang)


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_the_replay_speaks_the_language(lang: str, tmp_path: Path) -> None:
    import json

    state = RummoliState.new_game(NAMES, Rules(rounds=1), seed=8)
    bots = {s: make_bot("random", s) for s in range(4)}
    while not state.is_terminal():
        seat = state.current_player()
        chance = seat == CHANCE
        state.apply(CHANCE_ACTION if chance else ask_bot(bots[seat], state, seat).action)
    i18n.set_language(lang)
    out_console, out = console()
    assert step_through(json.dumps(state.record()), out_console, seat=1) == 0
    text = out.getvalue()
    assert not english_left(text, lang), english_left(text, lang)
    assert {"fr": "vu par Bea", "ru": "глазами игрока Bea"}[lang] in text


@pytest.mark.parametrize(
    ("lang", "rummoli_says", "rummy_says"),
    [
        (
            "fr",
            "Humain choisit parmi\u202f: suivre, se coucher, relancer à 22",
            "Bea n'a pas A♦ A♥ A♠\u202f; Bea choisit parmi\u202f: d K♣, d Q♥, d J♦, d 10♦",
        ),
        (
            "ru",
            "выбирает Человек, варианты: уравнять, сбросить карты, повысить до 22",
            "у игрока Bea нет A♦ A♥ A♠; Bea выбирает из: d K♣, d Q♥, d J♦, d 10♦",
        ),
    ],
)
def test_a_refused_record_lists_the_choices_in_the_table_s_words(
    lang: str, rummoli_says: str, rummy_says: str
) -> None:
    """The engine's refusal of a record's action names the seat as the table does (the
    default "You" is "Human" here: nobody's own view) and the legal actions and cards
    in the table's words, not the engine's ("You decides among: call, fold, raise 22")."""
    import json

    said = {}
    for game, rules, wrong in (("rummoli", {"rounds": 1}, 999), ("rummy", {}, 3)):
        description = describe(game)
        state = description.new_game(["You", "Bea"], description.rules(rules), 2)
        rng = random.Random(2)
        for _ in range(200):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        record = state.record()
        record["actions"][2] = wrong
        i18n.set_language(lang)
        out_console, out = console()
        assert step_through(json.dumps(record), out_console) == 2
        said[game] = re.sub(r"[ \n]+", " ", out.getvalue())
        i18n.set_language("en")
    assert rummoli_says in said["rummoli"], said["rummoli"]
    assert rummy_says in said["rummy"], said["rummy"]
    for text in said.values():
        assert not english_left(text, lang), english_left(text, lang)


# ---------------------------------------------------------------------- the command


def run_cli(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *args: str,
    env: dict[str, str] | None = None,
) -> tuple[int, str]:
    """``rummoli ARGS`` through its entry point, with ``env`` as the locale variables."""
    for variable in i18n.ENVIRONMENT:
        monkeypatch.delenv(variable, raising=False)
    for key, value in (env or {}).items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setattr(sys, "argv", ["rummoli", *args])
    with pytest.raises(SystemExit) as done:
        cli.main()
    captured = capsys.readouterr()
    code = done.value.code
    return (code if isinstance(code, int) else 0), captured.out + captured.err


@pytest.mark.parametrize(
    ("lang", "heading", "rule_title"),
    [("fr", "La phase Rummoli", "Veuve"), ("ru", "Фаза руммоли", "Вдова")],
    # The headings are the documents' own: rules.fr.md and rules.ru.md.
)
def test_rules_in_each_language(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    heading: str,
    rule_title: str,
) -> None:
    code, out = run_cli(monkeypatch, capsys, "rules", "--lang", lang, "--rule", "widow=none")
    assert code == 0
    assert heading in out and rule_title in out
    assert "widow" in out and "none *" in out  # what is typed stays as it is typed
    document = describe("rummoli").rules_document(lang)
    assert heading in document and heading in out  # the document of the language, shown
    assert not english_left(out, lang), english_left(out, lang)


def test_rummy_rules_in_russian_from_lang(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_cli(
        monkeypatch, capsys, "rules", "--game", "rummy", env={"LANG": "ru_RU.UTF-8"}
    )
    assert code == 0
    assert "Простой рамми" in out and "по числу игроков (100 для 2, 150 для 3, 200 для 4)" in out


def test_lang_wins_over_the_environment_and_help_is_translated(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_cli(
        monkeypatch, capsys, "play", "--help", "--lang", "fr", env={"LANG": "ru_RU.UTF-8"}
    )
    assert code == 0
    assert "Utilisation\u202f:" in out and "Afficher ce message et quitter." in out
    assert "Jouer au Rummoli" in out and "Règles maison de Rummoli" in out
    assert "--lang" in out
    assert not english_left(out, "fr"), english_left(out, "fr")


@pytest.mark.parametrize("command", ["games", "replay", "scenario", "simulate", "serve", "rules"])
def test_every_command_takes_lang(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    code, out = run_cli(monkeypatch, capsys, command, "--help", "--lang", "ru")
    assert code == 0
    assert "Использование:" in out and "--lang" in out


def test_games_lists_titles_in_the_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_cli(monkeypatch, capsys, "games", env={"LC_ALL": "fr_CA.UTF-8"})
    assert code == 0
    assert "Jeux" in out and "Rami de base" in out and "règles maison" in out


def test_an_unknown_language_is_refused_with_the_languages(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_cli(monkeypatch, capsys, "rules", "--lang", "de")
    assert code == 2
    assert "unknown language 'de'" in out
    assert "en (English), fr (français), ru (русский)" in out


@pytest.mark.parametrize(
    ("args", "lang", "said"),
    [
        (["play", "--players", "10"], "fr", "Valeur invalide pour '--players' / '-p' :"),
        (["rules", "--game", "chess"], "ru", "неизвестная игра 'chess'; есть игры: rummoli, rummy"),
        (["rules", "--rule", "widow=sometimes"], "fr", "la règle maison widow doit valoir"),
        (["play", "--nope"], "ru", "Нет такого параметра: --nope"),
    ],
)
def test_errors_are_said_in_the_language(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    lang: str,
    said: str,
) -> None:
    code, out = run_cli(monkeypatch, capsys, *args, env={"LANG": f"{lang}.UTF-8"})
    assert code == 2
    assert said in " ".join(out.replace("│", " ").split())


@pytest.mark.parametrize(
    ("lang", "check", "bet", "refused"),
    [
        ("fr", "parole", "miser 30", "miser de 1 à 91, s'il vous plaît."),
        ("ru", "чек", "поставить 30", "поставить: от 1 до 91, пожалуйста."),
        ("en", "check", "bet 30", "bet from 1 to 91, please."),
    ],
)
def test_the_menu_takes_the_language_s_words_and_the_english_ones(
    lang: str, check: str, bet: str, refused: str
) -> None:
    from rummoli.tui.menu import Menu

    state = RummoliState.new_game(NAMES, Rules(), seed=1)
    codec = state.codec
    legal = [codec.from_text("check"), *(codec.raise_to(n) for n in range(1, 92))]
    i18n.set_language(lang)
    menu = Menu(legal, state.action_to_text, state.action_from_text)
    assert menu.parse(check) == menu.parse("check") == codec.from_text("check")
    assert menu.parse(bet) == menu.parse("raise 30") == codec.raise_to(30)
    with pytest.raises(ValueError) as error:
        menu.parse(bet.split()[0] + " 92")
    assert str(error.value) == refused


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "fr",
            [
                "arrêt\u202f: un as termine sa couleur",
                "arrêt\u202f: la carte suivante est déjà posée",
                "arrêt\u202f: la carte suivante est dans la veuve",
                "arrêt\u202f: la carte suivante n'est pas dans le jeu",
                "arrêt\u202f: la carte suivante a été retournée pour l'atout",
                "arrêt\u202f: un roi termine sa couleur",
                "arrêt\u202f: personne n'a le rang suivant",
                "arrêt\u202f: un roi termine la suite",
            ],
        ),
        (
            "ru",
            [
                "стоп: туз заканчивает масть",
                "стоп: следующая карта уже выложена",
                "стоп: следующая карта во вдове",
                "стоп: следующей карты нет в колоде",
                "стоп: следующая карта открыта как козырь",
                "стоп: король заканчивает масть",
                "стоп: ни у кого нет следующего достоинства",
                "стоп: король заканчивает цепочку",
            ],
        ),
    ],
)
def test_every_stop_reason_of_the_engine_is_said_in_the_language(
    lang: str, said: list[str]
) -> None:
    from rummoli.games.stops.runs import STOP_REASONS
    from rummoli.games.stops.view import event_to_json
    from rummoli.tui.stops.narrate import Narrator

    i18n.set_language(lang)
    lines = []
    for reason in STOP_REASONS:
        narrator = Narrator("Ana")
        narrator.feed(event_to_json(("lay", 0, 11), ["Ana", "Bea"]))
        narrator.feed(event_to_json(("stop", 11, reason), ["Ana", "Bea"]))
        lines.append(narrator.take()[-1].plain)
    assert [line.rpartition(" ▪ ")[2] for line in lines] == said


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_every_commands_help_names_its_kinds_of_value_in_the_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    # Typer writes an option's kind of value (<int range>, <bool>) and the usage line's
    # placeholders ([OPTIONS], COMMAND [ARGS]...) in English: they are translated too.
    english = re.compile(r"<(str|int|int range|float range|bool|path|list\[str\])>")
    code, out = run_cli(monkeypatch, capsys, "--help", "--lang", lang)
    assert code == 0 and "COMMAND [ARGS]" not in out, out
    assert {"fr": "COMMANDE [ARGUMENTS]", "ru": "[ПАРАМЕТРЫ] КОМАНДА"}[lang] in out, out
    kinds: set[str] = set()
    for command in ("play", "games", "replay", "scenario", "simulate", "evaluate", "serve"):
        code, out = run_cli(monkeypatch, capsys, command, "--help", "--lang", lang)
        assert code == 0, out
        assert not english.search(out), (command, english.findall(out))
        kinds |= set(re.findall(r"<([^<>|]+)>", out))
    expected = {
        "fr": {"entier", "nombre", "oui/non", "chemin", "texte"},
        "ru": {"целое", "число", "да/нет", "путь", "текст"},
    }
    assert expected[lang] <= kinds, kinds
    code, out = run_cli(monkeypatch, capsys, "replay", "--help", "--lang", "en")
    assert "<int range>" in out and "[OPTIONS]" in out  # English keeps Typer's own labels
