"""The ``rummoli`` command: play in the terminal, run scenario files, replay records."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    help="Rummoli, the Canadian family card game: play it, settle disputes, study it.",
    no_args_is_help=True,
    add_completion=False,
)


@app.command()
def play(
    players: Annotated[
        int, typer.Option("--players", "-p", min=2, max=8, help="seats at the table, you included")
    ] = 4,
    chips: Annotated[int, typer.Option(min=1, help="starting chips per player")] = 100,
    rounds: Annotated[int, typer.Option(min=0, help="rounds to play (0: until you stop)")] = 0,
    rule: Annotated[
        list[str] | None,
        typer.Option("--rule", "-r", help="a house rule as NAME=VALUE (repeatable)"),
    ] = None,
    preset: Annotated[str | None, typer.Option(help="a printed rule set")] = None,
    seed: Annotated[int | None, typer.Option(help="seed for the cards (default: random)")] = None,
    name: Annotated[str, typer.Option(help="your name at the table")] = "You",
) -> None:
    """Play Rummoli in the terminal against computer players."""
    from rummoli.tui.play import run_play

    raise typer.Exit(
        run_play(
            players=players,
            chips=chips,
            rounds=rounds,
            rules=rule or [],
            preset=preset,
            seed=seed,
            name=name,
        )
    )


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
) -> None:
    """Replay a game record and print the final chips (checks that it replays)."""
    import json

    from rummoli.engine.base import GameError
    from rummoli.games.registry import replay as replay_record

    try:
        state = replay_record(record.read_text(encoding="utf-8"))
    except GameError as error:
        typer.echo(json.dumps({"error": str(error)}))
        raise typer.Exit(2) from None
    view = state.view(None)
    chips = {player["name"]: player["chips"] for player in view["players"]}
    typer.echo(json.dumps({"finished": state.is_terminal(), "chips": chips}))


def main() -> None:
    app()
