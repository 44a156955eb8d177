"""The human's choices: a short numbered menu, and reading what was typed.

A bid or a raise can have a hundred legal amounts; listing them would fill the screen, so
consecutive amounts become one entry with a range (``3) raise 2-91``) and the amount is
typed (``raise 30``) or asked for after the entry's number. Everything else is a numbered
entry that can also be typed by name (``check``, ``KH``).

Labels are shown in the language in force; what may be typed is the entry's number, the
engine's word (``check``), or that word in the language (``parole``, ``чек``: context
``typed word`` of the catalogue).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from rich.text import Text

from rummoli.i18n import NP_, _, number, pgettext
from rummoli.tui.cards import card, pack

#: Actions whose text is "<word> <amount>": consecutive amounts form one ranged entry.
AMOUNT_WORDS = ("bid", "raise")

#: The engine's words a person may type, and how each is typed in the language in force.
TYPED_WORDS = {
    "keep": NP_("typed word", "keep"),
    "exchange": NP_("typed word", "exchange"),
    "pass": NP_("typed word", "pass"),
    "check": NP_("typed word", "check"),
    "call": NP_("typed word", "call"),
    "fold": NP_("typed word", "fold"),
    "bid": NP_("typed word", "bid"),
    "raise": NP_("typed word", "raise"),
    "bet": NP_("typed word", "bet"),
    "claim": NP_("typed word", "claim"),
}

#: An amount entry's label by its word: (one amount, a range of amounts).
_AMOUNT_LABELS = {
    "bid": (NP_("menu", "bid {amount}"), NP_("menu", "bid {low}-{high}")),
    "bet": (NP_("menu", "bet {amount}"), NP_("menu", "bet {low}-{high}")),
    "raise": (NP_("menu", "raise to {amount}"), NP_("menu", "raise to {low}-{high}")),
}


class Command(enum.Enum):
    """Table commands accepted at any prompt besides the game's own choices."""

    QUIT = "quit"
    HELP = "help"
    END = "end"
    SAVE = "save"
    HINT = "hint"


C = TypeVar("C", bound=enum.Enum)

#: The short words of the commands every game's prompt accepts, besides their own.
SHORT_WORDS: Final = {"q": "quit", "exit": "quit", "h": "help"}


def command_words(commands: type[C], question: C) -> dict[str, C]:
    """The words typed for ``commands`` (an enum whose values are the commands' own
    words): each one's own word, the short words, and ``?`` for ``question``."""
    words = {command.value: command for command in commands}
    for short, word in SHORT_WORDS.items():
        words[short] = commands(word)
    words["?"] = question
    return words


COMMAND_WORDS: Final = command_words(Command, Command.HINT)


def typed_words() -> dict[str, str]:
    """What a person may type for each engine word, in the language in force, mapped to
    the engine's word (the English words are always understood)."""
    out = {word: word for word in TYPED_WORDS}
    for word, message in TYPED_WORDS.items():
        out.setdefault(pgettext("typed word", message).lower(), word)
    return out


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the menu: a single action, or a range of amounts of one word."""

    label: str
    actions: tuple[int, ...]
    word: str = ""
    low: int = 0
    high: int = 0

    @property
    def ranged(self) -> bool:
        return len(self.actions) > 1

    @property
    def typed_word(self) -> str:
        """The word to type for this entry's amounts, in the language in force."""
        return pgettext("typed word", TYPED_WORDS.get(self.word, self.word))


@dataclass(frozen=True, slots=True)
class AskAmount:
    """The human picked a ranged entry by number: ask how much."""

    entry: Entry


Choice = int | Command | AskAmount


class Menu:
    """The entries for one decision, and the parser for what the human types.

    ``to_text`` is the engine's text of an action (``raise 30``), ``from_text`` its
    parser; ``label`` (default: the text) says a single action to people.
    """

    def __init__(
        self,
        legal: Sequence[int],
        to_text: Callable[[int], str],
        from_text: Callable[[str], int],
        label: Callable[[str], str] | None = None,
    ) -> None:
        self.legal = list(legal)
        self._from_text = from_text
        self._words = typed_words()
        self.entries = _entries(self.legal, to_text, label or (lambda text: text))

    def render(self) -> Text:
        """``1) check  2) fold  3) raise 2-91``, cards drawn as cards."""
        tokens = []
        for number_, entry in enumerate(self.entries, start=1):
            token = Text(f"{number_}) ", style="bold magenta")
            token.append_text(_label(entry.label))
            tokens.append(token)
        return pack(tokens, label=_("Choose "))

    def parse(self, line: str) -> Choice:
        """What the human typed, as an action, a command or a request for an amount.

        Raises ValueError with a short message saying what would have been accepted.
        """
        text = line.strip()
        lowered = text.lower()
        if not text:
            raise ValueError(self.hint())
        word = lowered.split(" ")[0]
        if word in COMMAND_WORDS:
            return COMMAND_WORDS[word]
        if lowered.isdigit():
            number_ = int(lowered)
            if 1 <= number_ <= len(self.entries):
                entry = self.entries[number_ - 1]
                return AskAmount(entry) if entry.ranged else entry.actions[0]
            message = _("there is no choice {number}.").format(number=number_)
            raise ValueError(f"{message} {self.hint()}")
        return self._typed(self._engine_words(lowered), text)

    def _engine_words(self, lowered: str) -> str:
        """What was typed with the language's words replaced by the engine's."""
        return " ".join(self._words.get(word, word) for word in lowered.split())

    def _typed(self, lowered: str, text: str) -> int:
        try:
            action = self._from_text(lowered)
        except ValueError:
            action = -1
        if action in self.legal:
            return action
        word = lowered.split()[0] if lowered.split() else ""
        for entry in self.entries:
            same = word == entry.word or {word, entry.word} <= {"raise", "bet"}
            if entry.ranged and same:
                raise ValueError(
                    _("{word} from {low} to {high}, please.").format(
                        word=entry.typed_word, low=number(entry.low), high=number(entry.high)
                    )
                )
        if action < 0:
            problem = _("{text} is not a choice.").format(text=repr(text))
        else:
            problem = _("{text} is not allowed now.").format(text=repr(text))
        raise ValueError(f"{problem} {self.hint()}")

    def amount(self, entry: Entry, line: str) -> int:
        """The action for an amount typed after picking a ranged entry."""
        text = line.strip()
        if not text.isdigit() or not entry.low <= int(text) <= entry.high:
            raise ValueError(
                _("type a whole number from {low} to {high}").format(
                    low=number(entry.low), high=number(entry.high)
                )
            )
        return self._from_text(f"{entry.word} {int(text)}")

    def hint(self) -> str:
        count = len(self.entries)
        numbers = "1" if count == 1 else f"1-{count}"
        ranged = [e for e in self.entries if e.ranged]
        if ranged:
            return _("Type {numbers}, or e.g. '{example}' (h: help).").format(
                numbers=numbers, example=f"{ranged[0].typed_word} {ranged[0].low}"
            )
        return _("Type {numbers} (h: help).").format(numbers=numbers)


def _entries(
    legal: Sequence[int], to_text: Callable[[int], str], label: Callable[[str], str]
) -> list[Entry]:
    """Single actions in order; runs of consecutive amounts merged into ranged entries."""
    texts = [to_text(a) for a in legal]
    # With no bet yet, a "raise to N" is a bet of N: say so (the engine reads both).
    raise_word = "bet" if "check" in texts else "raise"
    entries: list[Entry] = []
    run: list[tuple[int, int]] = []
    run_word = ""

    def close() -> None:
        if not run:
            return
        (first, low), (_last, high) = run[0], run[-1]
        word = raise_word if run_word == "raise" else run_word
        one, many = _AMOUNT_LABELS[word]
        if len(run) == 1:
            entries.append(Entry(pgettext("menu", one).format(amount=number(low)), (first,)))
        else:
            actions = tuple(a for a, _amount in run)
            shown = pgettext("menu", many).format(low=number(low), high=number(high))
            entries.append(Entry(shown, actions, word, low, high))
        run.clear()

    for action, text in zip(legal, texts, strict=True):
        word, _space, amount = text.partition(" ")
        if word in AMOUNT_WORDS and amount.isdigit():
            if run and (word != run_word or int(amount) != run[-1][1] + 1):
                close()
            run_word = word
            run.append((action, int(amount)))
            continue
        close()
        entries.append(Entry(label(text), (action,)))
    close()
    return entries


def _label(label: str) -> Text:
    """An entry's label, with a card drawn as a card (``QC claim`` -> ``Q♣ claim``)."""
    word, _space, rest = label.partition(" ")
    if len(word) == 2 and word[0] in "23456789TJQKA" and word[1] in "CDHS":
        text = card(word)
        if rest:
            text.append(" " + rest)
        return text
    return Text(label)
