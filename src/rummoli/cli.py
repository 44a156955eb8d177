"""The ``rummoli`` command: play in the terminal, run scenario files, replay records."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rummoli.cli_web import backup, serve
from rummoli.engine.base import GameError
from rummoli.engine.description import GameDescription
from rummoli.games import registry
from rummoli.i18n import _
from rummoli.i18n.sentences import error as error_text
from rummoli.i18n.terms import bot_label, game_title

#: The most seats any registered game has (each game checks its own range).
MAX_SEATS = max(d.max_players for d in registry.descriptions())


def _game_help(what: str) -> str:
    """``--game``'s help: the games of the registry, by name and title."""
    games = ", ".join(f"{d.name} ({d.title})" for d in registry.descriptions())
    return f"{what}: {games}"


def _describe(game: str | None) -> GameDescription:
    try:
        return registry.describe(game or registry.default_game())
    except GameError as error:
        raise typer.BadParameter(error_text(str(error)), param_hint="'--game'") from None


#: The options several commands take alike: the game (its default the registry's), a
#: house rule, a printed rule set (``play`` words its own rule and preset helps).
GameOption = Annotated[
    str | None,
    typer.Option("--game", "-g", help=_game_help("the game"), show_default=registry.default_game()),
]
RuleOption = Annotated[
    list[str] | None,
    typer.Option("--rule", "-r", help="a house rule as NAME=VALUE (repeatable)"),
]
PresetOption = Annotated[str | None, typer.Option(help="a printed rule set")]

app = typer.Typer(
    help="Rummoli, the Canadian family card game: play it, settle disputes, study it.",
    no_args_is_help=True,
    add_completion=False,
)


def version_text() -> str:
    """``rummoli 0.1.0 (compiled)``: the installed version, and whether the simulation's
    hot modules run compiled here (the figures are the same; the speed is not)."""
    from importlib.metadata import PackageNotFoundError, version

    from rummoli import __version__
    from rummoli.compiled import MODULES, compiled_modules

    try:
        installed = version("rummoli")
    except PackageNotFoundError:  # run from a source tree that is not installed
        installed = __version__
    done = len(compiled_modules())
    build = (
        _("compiled")
        if done == len(MODULES)
        else _("plain Python")
        if not done
        else _("{done} of {total} modules compiled").format(done=done, total=len(MODULES))
    )
    return _("rummoli {version} ({build})").format(version=installed, build=build)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="print the version (and whether it runs compiled) and exit",
        ),
    ] = False,
) -> None:
    pass


def _play_epilog() -> str:
    from rummoli.tui.rules import house_rules_help

    return house_rules_help()


@app.command(epilog=_play_epilog())
def play(
    game: GameOption = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            min=2,
            max=MAX_SEATS,
            help="seats, you included (default: the game's; its range: rummoli rules --game G)",
            show_default=False,
        ),
    ] = None,
    chips: Annotated[
        int | None,
        typer.Option(min=1, help="Rummoli: starting chips per player", show_default="100"),
    ] = None,
    rounds: Annotated[
        int | None,
        typer.Option(min=0, help="Rummoli: rounds to play (0: until you stop)", show_default="0"),
    ] = None,
    rule: Annotated[
        list[str] | None,
        typer.Option(
            "--rule",
            "-r",
            help="a house rule as NAME=VALUE (repeatable), e.g. Rummy's target=150",
        ),
    ] = None,
    preset: Annotated[str | None, typer.Option(help="Rummoli: a printed rule set")] = None,
    seed: Annotated[int | None, typer.Option(help="seed for the cards (default: random)")] = None,
    name: Annotated[str, typer.Option(help="your name at the table")] = "You",
    level: Annotated[
        str | None,
        typer.Option(
            "--level",
            "-l",
            help="level of every computer player: random, basic or strong (Rummoli "
            "default basic, Rummy default the strongest it has)",
            show_default=False,
        ),
    ] = None,
    pace: Annotated[
        float | None,
        typer.Option(
            min=0.0,
            max=5.0,
            help="seconds between the cards of a run (0: at once; default 0.35 at a "
            "terminal); Enter while a run is shown skips to the end of it",
            show_default=False,
        ),
    ] = None,
    opponents: Annotated[
        str | None,
        typer.Option(
            "--opponents",
            "-o",
            help="one level per computer player, in seat order, e.g. basic,strong,random "
            "(overrides --level)",
        ),
    ] = None,
) -> None:
    """Play Rummoli (or Basic Rummy, --game rummy) in the terminal against computer players.

    Rummoli: type ? (or hint) at any decision for the strong computer player's suggestion.

    Rummy: type moves (s, t, meld 7H 8H 9H, lay 5C on 2, d KS); ? lists them with a hint.
    """
    from rummoli.tui.game import PlayOptionError, PlayOptions, terminal_part

    description = _describe(game)
    part = terminal_part(description)
    if part is None:
        raise typer.BadParameter(
            _("{game} has no terminal table yet").format(game=game_title(description)),
            param_hint="'--game'",
        )
    options = PlayOptions(
        players=players,
        chips=chips,
        rounds=rounds,
        rules=rule or [],
        preset=preset,
        seed=seed,
        # Stored as given: the default "You" is a code each language shows as its own
        # "you" (rummoli.tui.phrases.shown_name), never a translated word in the record.
        name=name,
        level=level,
        opponents=opponents,
        pace=pace,
    )
    try:
        code = part.play(options)
    except PlayOptionError as error:
        raise typer.BadParameter(error_text(str(error)), param_hint=f"'{error.option}'") from None
    raise typer.Exit(code)


@app.command()
def rules(
    game: GameOption = None,
    rule: RuleOption = None,
    preset: PresetOption = None,
) -> None:
    """Print the rules as played, with the house rules in force and what they mean."""
    from rich.console import Console

    from rummoli.sim.command import OptionError, build_rules
    from rummoli.tui.rules import print_rules

    description = _describe(game)
    try:
        table_rules = build_rules(rule or [], preset, description.name)
    except OptionError as error:
        raise typer.BadParameter(error_text(str(error)), param_hint=f"'{error.option}'") from None
    print_rules(Console(), description, table_rules)


@app.command()
def scenario(
    files: Annotated[
        list[str], typer.Argument(help="scenario files (JSON); '-' reads JSON Lines on stdin")
    ],
) -> None:
    """Play one round from each given position and print one JSON result per scenario."""
    from rummoli.scenario import run_paths

    raise typer.Exit(run_paths(files))


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="a game record (JSON)", exists=True)],
    json_output: Annotated[
        bool, typer.Option("--json", help="print where the game stands, as JSON, and stop")
    ] = False,
    seat: Annotated[int, typer.Option(min=0, help="whose view to replay (seat number)")] = 0,
    pace: Annotated[
        float,
        typer.Option(min=0.0, max=60.0, help="seconds between decisions, instead of Enter"),
    ] = 0.0,
) -> None:
    """Step through a saved game (Rummoli or Rummy) as one seat saw it; --json: the
    standings as JSON."""
    import json
    import sys

    from rich.console import Console

    text = record.read_text(encoding="utf-8")
    if not json_output:
        from rummoli.tui.replay import step_through
        from rummoli.tui.table import enable_line_editing

        interactive = sys.stdin.isatty() and pace == 0
        if interactive:
            enable_line_editing()
        raise typer.Exit(
            step_through(
                text,
                Console(highlight=False),
                seat=seat,
                read_line=input if interactive else None,
                pace=pace,
            )
        )
    try:
        state = registry.replay(text)
    except GameError as error:
        typer.echo(json.dumps({"error": str(error)}))
        raise typer.Exit(2) from None
    view = state.view(None)
    description = registry.describe(view["game"])
    # What each seat has now: the game's own amount (Rummoli's chips, Rummy's points).
    names = [p["name"] for p in view["players"]]
    standings = dict(zip(names, description.final_amounts(state), strict=True))
    typer.echo(
        json.dumps({"game": view["game"], "finished": state.is_terminal(), "standings": standings})
    )


@app.command()
def games() -> None:
    """List the games: name (for --game), title, seats, computer levels and house rules."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=_("Games"), title_justify="left")
    for column in ("--game", _("title"), _("seats"), _("computer players"), _("house rules")):
        table.add_column(column)
    for d in registry.descriptions():
        table.add_row(
            d.name,
            game_title(d),
            f"{d.min_players}-{d.max_players}",
            ", ".join(f"{lv} ({bot_label(d, lv)[0]})" for lv in d.levels()),
            ", ".join(rule.name for rule in d.house_rules),
        )
    Console().print(table)


@app.command()
def simulate(
    game: Annotated[
        str | None,
        typer.Option(
            "--game",
            "-g",
            help=_game_help("the game to simulate"),
            show_default=registry.default_game(),
        ),
    ] = None,
    rounds: Annotated[
        int | None,
        typer.Option(
            min=1, help="rounds to play (default 10,000); Rummy: hands", show_default=False
        ),
    ] = None,
    hands: Annotated[
        int | None, typer.Option(min=1, help="Rummy: hands to play (the same as --rounds)")
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(min=1, help="whole games to play, instead of rounds; Rummy: matches"),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help="bot level of each seat, comma-separated; as many bots as seats "
            "(default: four basic bots; Rummy: two)",
            show_default=False,
        ),
    ] = "",
    rotate: Annotated[
        bool, typer.Option("--rotate", help="move the bots one seat round after each game")
    ] = False,
    full_table: Annotated[
        bool,
        typer.Option(
            "--full-table",
            help="count only rounds played by every seat: a game ends, without the "
            "settlement, when a player is out",
        ),
    ] = False,
    rule: RuleOption = None,
    preset: PresetOption = None,
    seed: Annotated[int, typer.Option(help="the same seed gives the same numbers")] = 0,
    chunk_size: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="rounds (or games) per unit of work (default 2,000 rounds or 10 games; "
            "Rummy: 200 hands or 5 matches); "
            "smaller gives slow bots a livelier progress bar, but changes the numbers",
            show_default=False,
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="chunks run at once (default: all cores; with Ray, all the cluster's CPUs)",
            show_default=False,
        ),
    ] = None,
    backend: Annotated[str, typer.Option(help="'local' (processes) or 'ray'")] = "local",
    address: Annotated[
        str | None,
        typer.Option(
            help="Ray cluster address, host:port of its head (default: RAY_ADDRESS, as "
            "`ray job submit` sets it; else start a local Ray)",
            show_default=False,
        ),
    ] = None,
    json_file: Annotated[
        Path | None, typer.Option("--json", help="write every figure to this JSON file")
    ] = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="write PNG charts into this directory")
    ] = None,
) -> None:
    """Play many rounds or games between bots and report what the rules do.

    With --game rummy: hands (or whole matches) of Basic Rummy, 2 to 4 bots."""
    from rummoli.sim.command import (
        OptionError,
        build_spec,
        check_backend,
        check_outputs,
        describe_game,
        run_command,
    )
    from rummoli.sim.game import simulation_part

    try:
        if hands is not None and rounds is not None:
            raise OptionError("--hands", _("--hands and --rounds are the same: give one"))
        description = describe_game(game)
        if plot is not None and simulation_part(description).write_plots is None:
            raise OptionError(
                "--plot",
                _("{game} simulations draw no charts").format(game=game_title(description)),
            )
        spec = build_spec(
            game=game,
            bots=bots,
            rounds=rounds if hands is None else hands,
            games=games,
            rules=rule or [],
            preset=preset,
            seed=seed,
            rotate=rotate,
            chunk_size=chunk_size or 0,
            full_table=full_table,
        )
        check_backend(backend, address)
        check_outputs(json_file, plot)
    except OptionError as error:
        raise typer.BadParameter(str(error), param_hint=f"'{error.option}'") from None
    raise typer.Exit(
        run_command(
            spec,
            jobs=jobs,
            backend=backend,
            address=address,
            json_path=json_file,
            plot_dir=plot,
        )
    )


@app.command()
def evaluate(
    agent: Annotated[
        str,
        typer.Option(
            help="the policy to evaluate, MODULE:NAME (a callable of observation and action "
            "mask, or an object with act(table, seat)), or a computer level"
        ),
    ],
    against: Annotated[
        str, typer.Option(help="the other seats: a computer level, or MODULE:NAME")
    ] = "strong",
    rounds: Annotated[
        int, typer.Option(min=1, help="duplicate deals, each played from every seat")
    ] = 1000,
    game: GameOption = None,
    players: Annotated[
        int | None, typer.Option(min=2, max=MAX_SEATS, help="seats (default: the game's)")
    ] = None,
    actions: Annotated[
        str, typer.Option(help="the agent's action space: exact or compact")
    ] = "exact",
    rule: RuleOption = None,
    baseline: Annotated[
        str | None,
        typer.Option(help="another agent on the same deals, and the difference"),
    ] = None,
    seed: Annotated[int, typer.Option(help="the same seed gives the same deals")] = 0,
) -> None:
    """Chips (points) per round of a policy against computer players, on duplicate
    deals, with its 95% CI. Needs the rl extra."""
    from rummoli.sim.evaluate import EvaluationError, run_evaluation
    from rummoli.tui.options import parse_house_rules

    try:
        rules = parse_house_rules(rule or [])
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="'--rule'") from None
    try:
        lines = run_evaluation(
            agent=agent,
            against=against,
            rounds=rounds,
            game=game,
            players=players,
            actions=actions,
            rules=rules,
            seed=seed,
            baseline=baseline,
        )
    except EvaluationError as error:
        raise typer.BadParameter(error_text(str(error))) from None
    for line in lines:
        typer.echo(line)


# The web table's commands (``serve``, ``backup``) live in :mod:`rummoli.cli_web`.
app.command()(serve)
app.command()(backup)


def main() -> None:
    # The language (--lang, else LC_ALL/LC_MESSAGES/LANG) and the help texts in it.
    from rummoli.i18n.command import run

    run(app, recompute={"play": {"epilog": _play_epilog}})
