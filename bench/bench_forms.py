"""What terms in sentences cost (docs/i18n.md "Terms in sentences"): a message filled
with terms (``{other:acc}``, ``{space:def}``) beside the same message filled with plain
strings, and the terminal's narration of whole Rummoli games in Russian and French (every
event of every seat's view through the narrator: the hot path of ``rummoli play`` and
``rummoli replay``).

    PYTHONPATH=src python bench/bench_forms.py

Run it with another checkout's ``src`` first on the path for a before/after (the
narration part runs on any version; the first part needs rummoli.i18n.forms).
"""

from __future__ import annotations

import timeit
from typing import Any

from rummoli import i18n
from rummoli.bots import ask_bot, make_bot
from rummoli.engine.base import CHANCE, CHANCE_ACTION
from rummoli.games import registry

GAMES = 20


def events_of_games(count: int) -> list[list[dict[str, Any]]]:
    """Each game's events as seat 0 sees them (JSON form), played by basic bots."""
    description = registry.describe("rummoli")
    out = []
    for seed in range(count):
        names = ["You", "Bea", "Cy", "Di"]
        state = description.new_game(names, description.rules({"rounds": 3}), seed)
        bots = {s: make_bot("basic", seed + s, "rummoli") for s in range(4)}
        seen: list[dict[str, Any]] = []
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                action = CHANCE_ACTION
            else:
                action = ask_bot(bots[player], state, player).action
            seen += description.events_for(state.apply(action), 0, names)
        out.append(seen)
    return out


def best(stmt: Any, number: int, repeat: int = 5) -> float:
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def main() -> None:
    try:
        from rummoli.i18n.forms import Amount, Space, hand
    except ImportError:
        print("no rummoli.i18n.forms here: narration only")
    else:
        with i18n.language("ru"):
            terms = "{name} забирает банк покера: {hand} бьёт {other:acc}; {space:acc}: {chips}"
            plain = "{name} забирает банк покера: {hand} бьёт {other}; банк {space}: {chips}"
            values = dict(name="Bea", hand=hand("flush"), other=hand("pair"))
            values |= dict(space=Space("poker"), chips=Amount(21))
            strings = dict(name="Bea", hand="флеш", other="пара", space="покера", chips="21 фишка")
            t_terms = best(lambda: terms.format(**values), 20_000)
            t_plain = best(lambda: plain.format(**strings), 20_000)
            print(
                f"one message, four terms: {t_terms * 1e6:.2f} us; "
                f"plain strings: {t_plain * 1e6:.2f} us"
            )
    from rummoli.tui.stops.narrate import Narrator

    games = events_of_games(GAMES)
    count = sum(len(g) for g in games)
    for lang in ("ru", "fr"):
        with i18n.language(lang):

            def narrate() -> None:
                for events in games:
                    narrator = Narrator("You")
                    for event in events:
                        narrator.feed(event)
                    narrator.take()

            seconds = best(narrate, 1, repeat=5)
            print(
                f"{lang}: narrating {GAMES} games of 3 rounds ({count} events): "
                f"{seconds * 1e3:.1f} ms, {seconds / count * 1e6:.1f} us an event"
            )


if __name__ == "__main__":
    main()
