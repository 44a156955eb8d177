"""``rummoli evaluate``: an agent's chips (points) per round against the computer
players, on duplicate deals, with 95% intervals.

The agent is named ``MODULE:NAME``: a policy of :mod:`rummoli.envs.policies` (a
callable of the seat's observation tensor and action mask, such as a trained network's,
or an object with ``act(table, seat)``), or a computer level (``random``, ``basic``,
``strong``). Each deal is played once with the agent in every seat and the ``--against``
level in the others (the same cards, the same first dealer, the same stock: the seats'
luck cancels out), and the agent's return is averaged over its seats: one figure a deal,
independent of the others, whose mean and 95% interval (1.96 standard errors) are
reported. ``--baseline`` plays another agent on the same deals and reports the paired
difference too (the interval of the two's difference on each deal).

Needs the ``rl`` extra (numpy, for the tensors); it is imported only by this command.
"""

from __future__ import annotations

import importlib
import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummoli.engine.base import GameError
from rummoli.engine.rng import SeededRandom
from rummoli.i18n import NP_, _, current, nformat, pgettext
from rummoli.i18n.terms import bot_label, game_title

#: The interval's width: 1.96 standard errors of the mean, a normal 95% interval.
Z95 = 1.96
#: The most deals one evaluation plays (each is played once from every seat).
MAX_ROUNDS = 1_000_000
#: What the figure is called, by the description's amount and round words; a game with
#: other words gets the English ones.
FIGURE_LABELS: Mapping[tuple[str, str], str] = {
    ("chips", "round"): NP_("evaluate", "chips per round"),
    ("points", "hand"): NP_("evaluate", "points per hand"),
}


class EvaluationError(ValueError):
    """A bad agent or setting for ``rummoli evaluate``: the message names it."""


def load_agent(spec: str, levels: Sequence[str]) -> tuple[Any, str]:
    """The policy ``spec`` names (``MODULE:NAME``, or a computer level) and its name.
    An :class:`EvaluationError` says what is wrong, changing nothing."""
    from rummoli.envs.policies import BotPolicy, TablePolicy

    if spec in levels:
        return BotPolicy(spec), spec
    module_name, colon, name = spec.partition(":")
    if not colon or not module_name or not name:
        raise EvaluationError(
            _("an agent is MODULE:NAME (a policy) or a level ({levels}), not {spec}").format(
                levels=", ".join(levels), spec=repr(spec)
            )
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise EvaluationError(
            _("cannot import the module {module}: {error}").format(module=module_name, error=error)
        ) from None
    policy = getattr(module, name, None)
    if policy is None:
        raise EvaluationError(
            _("the module {module} has no {name}").format(module=module_name, name=name)
        )
    if not (callable(policy) or isinstance(policy, TablePolicy)):
        raise EvaluationError(
            _(
                "{spec} is not a policy: a callable of an observation and an action mask, "
                "or an object with act(table, seat)"
            ).format(spec=spec)
        )
    return policy, spec


class DuplicateChance:
    """Chance the same for every seating of one deal: every outcome is the first of the
    node's outcomes in one shuffled order of the deck (and of the seats, for the first
    dealer), so the deal, the stock's order and the first dealer are the same whoever
    sits where. A node whose outcomes include a card drawn before (a fresh deck for a
    whole game's settlement, Basic Rummy's reshuffled pile) shuffles the order anew."""

    def __init__(self, seed: int) -> None:
        self._rng = SeededRandom(seed)
        self._shuffle()

    def _shuffle(self) -> None:
        order = list(range(52))
        self._rng.shuffle(order)
        self._rank = {card: i for i, card in enumerate(order)}
        self._drawn: set[int] = set()

    def pick(self, outcomes: Sequence[int]) -> int:
        if self._drawn.intersection(outcomes):
            self._shuffle()
        choice = min(outcomes, key=self._rank.__getitem__)
        self._drawn.add(choice)
        return choice


@dataclass
class Figures:
    """One agent's figure a deal (its return averaged over the seats it held)."""

    name: str
    values: list[float] = field(default_factory=list)

    def mean(self) -> float:
        return statistics.fmean(self.values)

    def half(self) -> float:
        """The 95% interval's half width (0 with one deal)."""
        if len(self.values) < 2:
            return 0.0
        return Z95 * statistics.stdev(self.values) / math.sqrt(len(self.values))


def play_deal(config: Any, agent: Any, against: Any, deal_seed: int, seed: int) -> float:
    """The agent's return on one deal, averaged over every seat it can hold; the other
    seats play ``against``: a level (its bots seeded by the deal, the same for every
    seating) or a policy."""
    from rummoli.envs.policies import BotPolicy, play
    from rummoli.envs.table import Table

    total = 0.0
    for seat in range(config.players):
        chance = DuplicateChance(deal_seed)
        others = (
            BotPolicy(against, seed * 7919 + deal_seed) if isinstance(against, str) else against
        )
        table = Table(config, keep_log=False)
        while not table.is_terminal():
            if table.is_chance():
                table.apply(chance.pick([o for o, _ in table.chance_outcomes()]))
                continue
            player = table.current_player()
            play(agent if player == seat else others, table, player)
        total += table.returns()[seat]
    return float(total / config.players)


def evaluate(
    agent: Any,
    against: Any,
    config: Any,
    rounds: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> list[float]:
    """The agent's figure on each of ``rounds`` duplicate deals (:func:`play_deal`)."""
    values = []
    for deal in range(rounds):
        values.append(play_deal(config, agent, against, seed * 1_000_003 + deal, seed))
        if progress is not None:
            progress(deal + 1)
    return values


def _interval(mean: float, half: float) -> str:
    numbers = current()
    return f"{numbers.fixed(mean, 2, sign=True)} ± {numbers.fixed(half, 2)}"


def report(
    description: Any,
    players: int,
    against: str,
    rounds: int,
    results: Sequence[Figures],
) -> list[str]:
    """The lines ``rummoli evaluate`` prints, in the language in force."""
    words = (description.amount, description.round_word)
    label = FIGURE_LABELS.get(words)
    figure = (
        pgettext("evaluate", label)
        if label is not None
        else f"{description.amount} per {description.round_word}"
    )
    levels = description.levels()
    against_name = bot_label(description, against)[0] if against in levels else against
    if against_name != against:
        against_name = f"{against_name} ({against})"
    lines = [
        nformat(
            "{game}, {n} player, against {level}",
            "{game}, {n} players, against {level}",
            players,
            game=game_title(description),
            level=against_name,
        ),
        nformat(
            "{n} duplicate deal, played with the agent in every seat",
            "{n} duplicate deals, each played with the agent in every seat",
            rounds,
        ),
    ]
    for result in results:
        lines.append(
            _("{agent}: {figure} {interval} (95% CI)").format(
                agent=result.name, figure=figure, interval=_interval(result.mean(), result.half())
            )
        )
    if len(results) == 2:
        first, second = results
        difference = Figures(
            f"{first.name} - {second.name}",
            [a - b for a, b in zip(first.values, second.values, strict=True)],
        )
        lines.append(
            _("{first} minus {second}, deal by deal: {interval} (95% CI)").format(
                first=first.name,
                second=second.name,
                interval=_interval(difference.mean(), difference.half()),
            )
        )
    return lines


def run_evaluation(
    *,
    agent: str,
    against: str,
    rounds: int,
    game: str | None,
    players: int | None,
    actions: str,
    rules: Mapping[str, Any],
    seed: int,
    baseline: str | None,
) -> list[str]:
    """The whole command: check the settings, play, and the report's lines."""
    from rummoli.envs.adapters import adapter_for
    from rummoli.games import registry

    if not 1 <= rounds <= MAX_ROUNDS:
        raise EvaluationError(
            _("--rounds must be from 1 to {most}, not {rounds}").format(
                most=current().number(MAX_ROUNDS), rounds=rounds
            )
        )
    try:
        adapter = adapter_for(game or registry.default_game())
        description = adapter.description()
        params: dict[str, Any] = {**rules, "actions": actions}
        if players is not None:
            params["players"] = players
        config = adapter.config(params)
    except GameError as error:
        raise EvaluationError(str(error)) from None
    levels = description.levels()
    opponents: Any = against if against in levels else load_agent(against, levels)[0]
    from rummoli.engine.base import IllegalActionError

    results = []
    for spec in [agent] + ([baseline] if baseline else []):
        policy, name = load_agent(spec, levels)
        try:
            values = evaluate(policy, opponents, config, rounds, seed)
        except IllegalActionError as error:
            raise EvaluationError(
                _("{agent} chose an illegal action: {error}").format(agent=name, error=error)
            ) from None
        results.append(Figures(name, values))
    return report(description, config.players, against, rounds, results)
