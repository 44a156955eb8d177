"""Babel extractors for the messages that are not ``_()`` calls in the source.

Two kinds of English text reach people without passing through a marker:

- what each game's description says (its title, its words for a round and a game, each
  house rule's help) and the house rules' titles in ``games/<game>/text/house_rules.json``:
  :func:`descriptions`, run on ``games/*/description.py``;
- the ``rummoli`` command's help texts, which Typer takes from docstrings and option
  declarations: :func:`command`, run on ``cli.py`` (its ``_()`` calls are extracted too).

Both import the code and read the texts from the objects, so the catalogue holds exactly
what is shown. ``babel.cfg`` maps them; ``make messages`` runs the extraction.

The browser's catalogue (domain ``web``, ``babel-web.cfg``) has two more: :func:`html`,
the texts of the pages' HTML marked ``data-i18n`` (and the attributes named by
``data-i18n-attr``), and :func:`game_titles`, the games' names (the history and the
players' pages show the names the server stores, in English).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Collection, Iterator, Mapping
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any, cast

from babel.messages.extract import extract_python

from rummoli.engine.description import GameDescription

#: What an extractor yields: line, function name, message(s), comments.
Found = tuple[int, str, Any, list[str]]


def _reads_the_file(
    read: Callable[[IO[bytes]], Iterator[Found]],
) -> Callable[..., Iterator[Found]]:
    """Babel's extractor made of ``read``, which finds its texts in the file alone:
    Babel's keywords, comment tags and options (``command`` reads them, for its
    ``_()`` calls) are taken and left aside."""

    @functools.wraps(read)
    def extractor(fileobj: IO[bytes], *_protocol: Any, **_options: Any) -> Iterator[Found]:
        return read(fileobj)

    return extractor


@_reads_the_file
def descriptions(fileobj: IO[bytes]) -> Iterator[Found]:
    """The texts of the game described in ``games/<game>/description.py``."""
    from rummoli.i18n.terms import english_titles, house_rule_texts

    description = _described(fileobj)
    yield 1, "pgettext", ("game", description.title), ["The game's name."]
    if description.summary:
        note = [f"How a round of {description.title} goes, for help screens."]
        yield 1, "pgettext", ("game summary", description.summary), note
    for word in (description.round_word, description.game_word, description.amount):
        yield 1, "pgettext", ("game word", word), ["What the game calls a deal, a game, its score."]
    titles = english_titles(description)
    for rule in description.house_rules:
        if rule.help:
            yield 1, "pgettext", ("house rule", rule.help), [f"House rule {rule.name}."]
        if rule.name in titles:
            title = titles[rule.name]
            yield 1, "pgettext", ("house rule title", title), [f"House rule {rule.name}."]
    texts = house_rule_texts(description)
    for group, _members in texts.get("groups", []):
        yield 1, "pgettext", ("house rule group", group), ["A group of house rules in forms."]
    for rule_name, values in texts.get("values", {}).items():
        for value, (title, help_text) in values.items():
            note = [f"House rule {rule_name}={value}."]
            yield 1, "pgettext", ("house rule value", title), note
            yield 1, "pgettext", ("house rule value help", help_text), note
    for preset, (title, help_text) in texts.get("presets", {}).items():
        note = [f"Printed rule set {preset} of {description.title}."]
        yield 1, "pgettext", ("preset", title), note
        yield 1, "pgettext", ("preset help", help_text), note
    for level, label in description.bot_labels.items():
        note = [f"Computer player level {level} of {description.title}."]
        yield 1, "pgettext", ("bot level", label.title), note
        if label.help:
            yield 1, "pgettext", ("bot level help", label.help), note


def command(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: dict[str, Any],
) -> Iterator[Found]:
    """``cli.py``'s ``_()`` calls and those of the web's commands it registers
    (``cli_web.py``), then every help text of the command it declares."""
    found = extract_python(fileobj, keywords, comment_tags, cast(Any, options))
    yield from cast(Iterator[Found], found)
    with (Path(__file__).parent.parent / "cli_web.py").open("rb") as web_commands:
        found = extract_python(web_commands, keywords, comment_tags, cast(Any, options))
        yield from cast(Iterator[Found], found)
    import typer.main

    from rummoli import cli

    seen: set[str] = set()
    for text in _help_texts(typer.main.get_command(cli.app)):
        if text not in seen:
            seen.add(text)
            yield 1, "_", text, []


def _help_texts(command: Any) -> Iterator[str]:
    for attribute in ("help", "short_help"):
        text = getattr(command, attribute, None)
        if text:
            yield text
    for param in command.params:
        text = getattr(param, "help", None)
        if text:
            yield text
    for sub in getattr(command, "commands", {}).values():
        yield from _help_texts(sub)


@_reads_the_file
def game_titles(fileobj: IO[bytes]) -> Iterator[Found]:
    """The name of the game described in ``games/<game>/description.py``."""
    yield 1, "pgettext", ("game", _described(fileobj).title), ["The game's name."]


def _described(fileobj: IO[bytes]) -> GameDescription:
    """The description declared in ``fileobj`` (``games/<game>/description.py``)."""
    game = Path(getattr(fileobj, "name", "")).parent.name
    module = importlib.import_module(f"rummoli.games.{game}.description")
    description: GameDescription = module.DESCRIPTION
    return description


def _collapse(text: str) -> str:
    """Text as ``static/js/i18n.js`` reads it from the page: whitespace collapsed."""
    return " ".join(text.split())


class _Marked(HTMLParser):
    """The ``data-i18n`` texts and ``data-i18n-attr`` attributes of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        line = self.getpos()[0]
        for name in (found.get("data-i18n-attr") or "").split():
            value = found.get(name)
            if value:
                self.found.append((line, _collapse(value)))
        if "data-i18n" in found:
            self._open.append((tag, line, []))

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _tag, line, parts = self._open.pop()
            text = _collapse("".join(parts))
            if text:
                self.found.append((line, text))


@_reads_the_file
def html(fileobj: IO[bytes]) -> Iterator[Found]:
    """A page's texts marked for translation: each element with ``data-i18n`` (its text,
    whitespace collapsed, is the message id) and each attribute ``data-i18n-attr``
    names."""
    parser = _Marked()
    parser.feed(fileobj.read().decode("utf-8"))
    parser.close()
    for line, text in parser.found:
        yield line, "_", text, []
