"""The human's choices: a short numbered menu, and reading what was typed.

A bid or a raise can have a hundred legal amounts; listing them would fill the screen, so
consecutive amounts become one entry with a range (``3) raise 2-91``) and the amount is
typed (``raise 30``) or asked for after the entry's number. Everything else is a numbered
entry that can also be typed by name (``check``, ``KH``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text

from rummoli.tui.cards import card, pack

#: Actions whose text is "<word> <amount>": consecutive amounts form one ranged entry.
AMOUNT_WORDS = ("bid", "raise")


class Command(enum.Enum):
    """Table commands accepted at any prompt besides the game's own choices."""

    QUIT = "quit"
    HELP = "help"
    END = "end"
    SAVE = "save"
    HINT = "hint"


COMMAND_WORDS = {
    "q": Command.QUIT,
    "quit": Command.QUIT,
    "exit": Command.QUIT,
    "h": Command.HELP,
    "help": Command.HELP,
    "?": Command.HINT,
    "hint": Command.HINT,
    "end": Command.END,
    "save": Command.SAVE,
}


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


@dataclass(frozen=True, slots=True)
class AskAmount:
    """The human picked a ranged entry by number: ask how much."""

    entry: Entry


Choice = int | Command | AskAmount


class Menu:
    """The entries for one decision, and the parser for what the human types."""

    def __init__(
        self,
        legal: Sequence[int],
        to_text: Callable[[int], str],
        from_text: Callable[[str], int],
    ) -> None:
        self.legal = list(legal)
        self._from_text = from_text
        self.entries = _entries(self.legal, to_text)

    def render(self) -> Text:
        """``1) check  2) fold  3) raise 2-91``, cards drawn as cards."""
        tokens = []
        for number, entry in enumerate(self.entries, start=1):
            token = Text(f"{number}) ", style="bold magenta")
            token.append_text(_label(entry.label))
            tokens.append(token)
        return pack(tokens, label="Choose ")

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
            number = int(lowered)
            if 1 <= number <= len(self.entries):
                entry = self.entries[number - 1]
                return AskAmount(entry) if entry.ranged else entry.actions[0]
            raise ValueError(f"there is no choice {number}. {self.hint()}")
        return self._typed(lowered, text)

    def _typed(self, lowered: str, text: str) -> int:
        try:
            action = self._from_text(lowered)
        except ValueError:
            action = -1
        if action in self.legal:
            return action
        word = lowered.split()[0]
        for entry in self.entries:
            same = word == entry.word or {word, entry.word} <= {"raise", "bet"}
            if entry.ranged and same:
                raise ValueError(f"{entry.word} from {entry.low} to {entry.high}, please.")
        problem = "is not a choice" if action < 0 else "is not allowed now"
        raise ValueError(f"{text!r} {problem}. {self.hint()}")

    def amount(self, entry: Entry, line: str) -> int:
        """The action for an amount typed after picking a ranged entry."""
        text = line.strip()
        if not text.isdigit() or not entry.low <= int(text) <= entry.high:
            raise ValueError(f"type a whole number from {entry.low} to {entry.high}")
        return self._from_text(f"{entry.word} {int(text)}")

    def hint(self) -> str:
        count = len(self.entries)
        numbers = "1" if count == 1 else f"1-{count}"
        ranged = [e for e in self.entries if e.ranged]
        example = f", or e.g. '{ranged[0].word} {ranged[0].low}'" if ranged else ""
        return f"Type {numbers}{example} (h: help)."


def _entries(legal: Sequence[int], to_text: Callable[[int], str]) -> list[Entry]:
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
        (first, low), (_, high) = run[0], run[-1]
        word = raise_word if run_word == "raise" else run_word
        to = " to" if word == "raise" else ""
        if len(run) == 1:
            entries.append(Entry(f"{word}{to} {low}", (first,)))
        else:
            actions = tuple(a for a, _ in run)
            entries.append(Entry(f"{word}{to} {low}-{high}", actions, word, low, high))
        run.clear()

    for action, text in zip(legal, texts, strict=True):
        word, _, amount = text.partition(" ")
        if word in AMOUNT_WORDS and amount.isdigit():
            if run and (word != run_word or int(amount) != run[-1][1] + 1):
                close()
            run_word = word
            run.append((action, int(amount)))
            continue
        close()
        entries.append(Entry(text, (action,)))
    close()
    return entries


def _label(label: str) -> Text:
    """An entry's label, with a card drawn as a card (``QC claim`` -> ``Q♣ claim``)."""
    word, _, rest = label.partition(" ")
    if len(word) == 2 and word[0] in "23456789TJQKA" and word[1] in "CDHS":
        text = card(word)
        if rest:
            text.append(" " + rest)
        return text
    return Text(label)
