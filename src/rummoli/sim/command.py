"""``rummoli simulate``: options to a :class:`SimSpec`, a progress bar, the report.

The typer function in :mod:`rummoli.cli` only declares the options; everything else is
here, so it can be tested without a terminal. Ctrl-C while the simulation runs stops
the workers and prints the figures of the chunks finished so far (exit status 130, as
for any program stopped by Ctrl-C, so scripts can tell a partial run from a whole one).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from rummoli.compiled import compiled_modules
from rummoli.engine.base import GameError
from rummoli.engine.description import GameDescription
from rummoli.games import registry
from rummoli.i18n import NPN_, npgettext, pgettext
from rummoli.i18n import number as i18n_number
from rummoli.i18n.terms import game_title
from rummoli.sim.game import SimulationPart, simulation_part
from rummoli.sim.messages import error as sim_error
from rummoli.sim.messages import where_text
from rummoli.sim.report import write_json
from rummoli.sim.runner import (
    BACKENDS,
    LOCAL,
    RAY,
    BackendError,
    Chunks,
    Merger,
    import_ray,
    running,
)
from rummoli.sim.spec import GAMES, ROUNDS, SimSpec
from rummoli.tui.options import parse_house_rules

#: Rounds played when neither ``--rounds`` nor ``--games`` is given.
DEFAULT_ROUNDS = 10_000
#: Width of the report when it goes to a file or a pipe.
REPORT_WIDTH = 110
#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 130

#: Called with each chunk's index after it is merged, inside the progress loop. Tests set
#: it to raise KeyboardInterrupt there, which is exactly where a real Ctrl-C lands.
chunk_hook: Callable[[int], None] | None = None


class OptionError(ValueError):
    """A bad command-line option; ``option`` names it for the error message."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option


def check_outputs(json_path: Path | None, plot_dir: Path | None) -> None:
    """Refuse, before a run starts, a ``--json`` file or a ``--plot`` folder that could not
    be written at its end (a simulation can take hours): :class:`OptionError` naming the
    problem. The chart folder may be new (its parents are made), not a file."""
    if json_path is not None:
        if json_path.is_dir():
            why = pgettext("simulation", "{path} is a folder, not a file")
            raise OptionError("--json", why.format(path=repr(str(json_path))))
        _check_folder("--json", json_path.parent)
    if plot_dir is not None:
        if plot_dir.exists() and not plot_dir.is_dir():
            why = pgettext("simulation", "{path} is a file, not a folder")
            raise OptionError("--plot", why.format(path=repr(str(plot_dir))))
        existing = next((p for p in (plot_dir, *plot_dir.parents) if p.exists()), None)
        if existing is not None and existing != plot_dir and not existing.is_dir():
            why = pgettext("simulation", "{path} is a file, not a folder")
            raise OptionError("--plot", why.format(path=repr(str(existing))))
        if existing is not None:
            _check_folder("--plot", existing)


def _check_folder(option: str, folder: Path) -> None:
    folder = folder if str(folder) else Path(".")
    if not folder.is_dir():
        why = pgettext("simulation", "the folder {path} does not exist")
        raise OptionError(option, why.format(path=repr(str(folder))))
    if not os.access(folder, os.W_OK | os.X_OK):
        why = pgettext("simulation", "cannot write into {path}")
        raise OptionError(option, why.format(path=repr(str(folder))))


def describe_game(game: str | None) -> GameDescription:
    """The game ``--game`` names (None: the default game); an :class:`OptionError` lists
    the games there are."""
    try:
        return registry.describe(game or registry.default_game())
    except GameError as error:
        raise OptionError("--game", str(error)) from None  # translated with the engine's


def default_bots(game: str | None = None) -> str:
    """As many bots as the game's usual table (Rummoli four, Rummy two) of the best cheap
    level there is (``basic`` where it exists)."""
    description = describe_game(game)
    level = "basic" if "basic" in description.bots else description.levels()[0]
    return ",".join([level] * description.default_players)


def parse_bots(text: str, game: str | None = None) -> tuple[str, ...]:
    description = describe_game(game)
    known = description.levels()
    levels = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = sorted({level for level in levels if level not in known})
    if unknown:
        raise OptionError(
            "--bots",
            pgettext("error", "unknown bot level {levels} for {game}; levels are {known}").format(
                levels=", ".join(unknown), game=description.name, known=", ".join(sorted(known))
            ),
        )
    return levels


def build_rules(items: Sequence[str], preset: str | None, game: str | None = None) -> Any:
    """A game's house rules from NAME=VALUE items (the syntax of ``rummoli play --rule``),
    on top of a printed rule set if ``preset`` names one."""
    description = describe_game(game)
    try:
        data: dict[str, Any] = dict(parse_house_rules(items))
    except ValueError as error:
        raise OptionError("--rule", str(error)) from None
    if preset is not None:
        if not description.presets:
            raise OptionError(
                "--preset",
                pgettext("error", "{game} has no printed rule sets").format(
                    game=game_title(description)
                ),
            )
        if preset not in description.presets:
            raise OptionError(
                "--preset",
                pgettext(
                    "error", "unknown preset {preset} for {game}; presets are {presets}"
                ).format(
                    preset=repr(preset),
                    game=game_title(description),
                    presets=", ".join(description.presets),
                ),
            )
        data = {**description.presets[preset], **data}
    try:
        return description.rules(data)
    except (GameError, ValueError, TypeError) as error:
        raise OptionError("--rule", str(error)) from None


def build_spec(
    *,
    bots: str,
    rounds: int | None,
    games: int | None,
    rules: Sequence[str],
    preset: str | None,
    seed: int,
    rotate: bool,
    chunk_size: int = 0,
    full_table: bool = False,
    game: str | None = None,
) -> SimSpec:
    """The simulation the options describe; raises :class:`OptionError` if they don't.

    ``rounds`` and ``games`` count what the game calls them (Rummy: hands, matches)."""
    description = describe_game(game)
    part = simulation_part(description)
    if rounds is not None and games is not None:
        raise OptionError("--games", pgettext("error", "give --rounds or --games, not both"))
    if full_table and not part.full_table:
        raise OptionError(
            "--full-table",
            pgettext("error", "--full-table is not for {game}: {game} tables never shrink").format(
                game=game_title(description)
            ),
        )
    mode, total = (GAMES, games) if games is not None else (ROUNDS, rounds or DEFAULT_ROUNDS)
    levels = parse_bots(bots or default_bots(description.name), description.name)
    table_rules = build_rules(rules, preset, description.name)
    try:
        return SimSpec(
            levels,
            table_rules,
            mode,
            total,
            seed,
            rotate,
            chunk_size,
            full_table,
            description.name,
        )
    except ValueError as error:
        option = "--bots" if "bots" in str(error) else f"--{mode}"
        raise OptionError(option, sim_error(str(error))) from None


def check_backend(backend: str, address: str | None) -> None:
    if backend not in BACKENDS:
        raise OptionError(
            "--backend",
            pgettext("error", "unknown backend {backend}; backends are {backends}").format(
                backend=repr(backend), backends=", ".join(BACKENDS)
            ),
        )
    if address and backend != RAY:
        raise OptionError(
            "--address",
            pgettext("error", "--address is the Ray cluster: use it with --backend ray"),
        )
    if backend == RAY:
        try:
            import_ray()
        except BackendError as error:
            raise OptionError("--backend", sim_error(str(error))) from None


class RateColumn(ProgressColumn):
    """Rounds (Rummy: hands) per second since the start (chunks arrive in bursts, so the
    rolling speed rich computes would jump about); ``rate`` is the game's plural message
    ``"{n} rounds/s"`` (context ``simulation``)."""

    def __init__(
        self, rate: tuple[str, str] = NPN_("simulation", "{n} rounds/s", "{n} rounds/s")
    ) -> None:
        super().__init__()
        self.rate = rate

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        rounds = task.fields.get("rounds", 0)
        if not elapsed or not rounds:
            text = npgettext("simulation", *self.rate, 0).format(n="-")
        else:
            speed = round(rounds / elapsed)
            text = npgettext("simulation", *self.rate, speed).format(n=i18n_number(speed))
        return Text(text, style="progress.data.speed")


def make_progress(console: Console, mode: str, part: SimulationPart, total: int) -> Progress:
    """A progress bar counting what the game calls its rounds or games (Rummy: hands,
    matches), with the speed in rounds (hands) per second, in the language in force."""
    nouns = part.round_nouns if mode == ROUNDS else part.game_nouns
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(npgettext("simulation, after a number", *nouns, total)),
        RateColumn(part.rate),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


@dataclass
class Outcome:
    """What a run produced: its figures, how it ran, whether Ctrl-C stopped it."""

    figures: dict[str, Any]
    run: dict[str, Any]
    interrupted: bool


def simulate(
    spec: SimSpec,
    *,
    jobs: int | None = None,
    backend: str = LOCAL,
    address: str | None = None,
    progress_console: Console | None = None,
) -> Outcome:
    """Run ``spec`` with a progress bar; Ctrl-C ends it early with the figures so far.

    ``jobs`` None: every core here, or every CPU of the Ray cluster. The bar counts
    every finished chunk, whichever node ran it, and says where the work runs."""
    part = simulation_part(spec.game)
    merger = Merger(spec)
    console = progress_console or Console(stderr=True)
    interrupted = False
    start = time.perf_counter()
    where: Chunks | None = None
    try:
        with (
            running(spec, jobs=jobs, backend=backend, address=address) as finished,
            make_progress(console, spec.mode, part, spec.total) as progress,
        ):
            where = finished
            task = progress.add_task(
                pgettext("simulation", "simulating ({where})").format(
                    where=where_text(finished.where)
                ),
                total=spec.total,
                rounds=0,
            )
            for index, stats in finished:
                merger.add(index, stats)
                done = merger.rounds_done if spec.mode == ROUNDS else merger.games_done
                progress.update(task, completed=done, rounds=merger.rounds_done)
                if chunk_hook is not None:
                    chunk_hook(index)
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - start
    stats = merger.result()
    run: dict[str, Any] = {
        "backend": backend,
        "jobs": where.jobs if where is not None else jobs,
        "where": where.where if where is not None else None,
        "seconds": seconds,
        "rounds_per_second": stats.rounds / seconds if seconds else None,
        "interrupted": interrupted,
        # Whether this process ran the hot modules compiled (see rummoli.compiled): the
        # figures are the same either way, the speed is not.
        "compiled": bool(compiled_modules()),
    }
    if backend == RAY and where is not None:
        # Chunks each Ray worker ran compiled or plain (a node whose compiled modules do
        # not load runs the sources: the same figures, slower).
        run["chunks_compiled"] = where.chunks_compiled
        run["chunks_plain"] = where.chunks_plain
    return Outcome(part.summarize(stats, spec), run, interrupted)


def run_command(
    spec: SimSpec,
    *,
    jobs: int | None,
    backend: str,
    address: str | None,
    json_path: Path | None,
    plot_dir: Path | None,
) -> int:
    """The whole command after option checks: simulate, print, write; the exit status."""
    try:
        outcome = simulate(spec, jobs=jobs, backend=backend, address=address)
    except BackendError as error:
        Console(stderr=True).print(
            pgettext("simulation", "[bold red]Error:[/] {error}").format(
                error=escape(sim_error(str(error)))
            ),
            highlight=False,
        )
        return 1
    console = Console()
    if not console.is_terminal:
        console.width = REPORT_WIDTH  # not the 80 columns rich assumes for a pipe or file
    part = simulation_part(spec.game)
    part.print_report(console, outcome.figures, outcome.run)
    if json_path is not None:
        write_json(json_path, outcome.figures, outcome.run)
        console.print(
            pgettext("simulation", "figures written to {path}").format(path=escape(str(json_path)))
        )
    if plot_dir is not None and part.write_plots is not None and outcome.figures["rounds"]:
        for path in part.write_plots(outcome.figures, plot_dir):
            console.print(
                pgettext("simulation", "chart written to {path}").format(path=escape(str(path)))
            )
    return INTERRUPTED if outcome.interrupted else 0
