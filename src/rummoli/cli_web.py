"""The web table's commands of ``rummoli``: ``serve`` (run the table) and ``backup``.

Declared here, registered on the command's Typer app by :mod:`rummoli.cli`; what they
run is imported inside each, so that the terminal's commands start without the web's
libraries.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from rummoli.i18n import _

if TYPE_CHECKING:
    from rummoli.web.backup import BackupError

#: The largest per-address limit ``serve`` takes: web.limits.MAX_PER_ADDRESS (not imported
#: here: the web's modules load only when a web command runs; a test checks they agree).
MAX_PER_ADDRESS = 1_000_000


def serve(
    host: Annotated[str, typer.Option(help="address to listen on (loopback by default)")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help="database URL (default: an SQLite file under ./data/)"),
    ] = None,
    origin: Annotated[
        list[str] | None,
        typer.Option(
            help="a public origin of the server (https://cards.example.org, repeatable): its "
            "pages may open the WebSocket, and its host name is accepted in Host headers"
        ),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(help="another host name accepted in Host headers (repeatable)"),
    ] = None,
    api_docs: Annotated[
        bool, typer.Option(help="serve the API's documentation at /api/docs and /openapi.json")
    ] = False,
    connections_per_address: Annotated[
        int,
        typer.Option(min=1, max=MAX_PER_ADDRESS, help="open WebSockets allowed from one address"),
    ] = 100,
    connects_per_minute: Annotated[
        int,
        typer.Option(
            min=1, max=MAX_PER_ADDRESS, help="new WebSockets one address may open a minute"
        ),
    ] = 300,
    tables_per_minute: Annotated[
        int,
        typer.Option(min=1, max=MAX_PER_ADDRESS, help="new tables one address may create a minute"),
    ] = 30,
    waiting_hours: Annotated[
        float, typer.Option(min=0.01, help="hours a table may wait for its players")
    ] = 6.0,
    log_format: Annotated[
        Literal["text", "json"],
        typer.Option(help="the log's lines: text, or json (one object a line, with its table)"),
    ] = "text",
    log_level: Annotated[
        Literal["debug", "info", "warning", "error"],
        typer.Option(help="the least important lines logged: debug, info, warning, error"),
    ] = "info",
    access_log: Annotated[
        bool, typer.Option(help="log every HTTP request (off: the reverse proxy logs them)")
    ] = False,
    shutdown_seconds: Annotated[
        float,
        typer.Option(
            min=1.0,
            max=300.0,
            help="on SIGTERM, seconds the tables get to finish the step under way "
            "(the server exits a few seconds after)",
        ),
    ] = 10.0,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help="server processes sharing the database, on --port, --port + 1, ... "
            "(each table is run by one of them)",
        ),
    ] = 1,
    shared: Annotated[
        bool,
        typer.Option(
            help="share the database with other server processes (on other machines: "
            "the same PostgreSQL URL and RUMMOLI_CLUSTER_SECRET); --workers implies it"
        ),
    ] = False,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="where browsers reach this process, http(s)://host:port (shared only; "
            "default: http://HOST:PORT)"
        ),
    ] = None,
    lease_seconds: Annotated[
        float,
        typer.Option(
            min=1.0,
            max=600.0,
            help="seconds a dead process's tables wait before another takes them over",
        ),
    ] = 10.0,
    ws_deflate: Annotated[
        bool,
        typer.Option(
            help="compress WebSocket frames (permessage-deflate): about a twentieth of the "
            "bytes for about twice the CPU per action; for players on slow links",
        ),
    ] = False,
) -> None:
    """Run the web table: play Rummoli in the browser with friends and computer players."""
    import os
    import sys

    from rummoli.web import logs
    from rummoli.web.app import create_app
    from rummoli.web.limits import Limits
    from rummoli.web.migrate import NewerDatabase
    from rummoli.web.ops import serve as serve_app
    from rummoli.web.ops import settle_collector
    from rummoli.web.storage import DEFAULT_DB_URL, refuse_newer_schema

    logs.configure(log_format, log_level)
    if workers > 1:
        from rummoli.web.supervisor import supervise

        raise typer.Exit(supervise(workers, host, port, sys.argv[1:]))
    cluster = None
    if shared:
        from rummoli.web.cluster import Cluster
        from rummoli.web.supervisor import SECRET_ENV

        shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        secret = os.environ.get(SECRET_ENV, "")
        address = public_url or f"http://{shown_host}:{port}"
        try:
            cluster = Cluster(address, secret)
        except ValueError:
            if len(secret) < 16:
                why = _(
                    "rummoli serve --shared: set {env} to one secret of at least 16 "
                    "characters, the same for every process"
                ).format(env=SECRET_ENV)
            else:
                why = _(
                    "rummoli serve: --public-url must be http(s)://host:port, without a path: {url}"
                ).format(url=address)
            typer.echo(why, err=True)
            raise typer.Exit(1) from None

    url = db or DEFAULT_DB_URL
    try:
        refuse_newer_schema(url)
    except NewerDatabase as error:
        typer.echo(
            _(
                "rummoli serve: the database {url} was written by a newer version of Rummoli "
                "(its schema is at revision {revision}, this version knows revisions up to "
                "{newest}): run that newer version, or give this one another database with --db"
            ).format(url=url, revision=error.revision, newest=error.newest),
            err=True,
        )
        raise typer.Exit(1) from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"Rummoli web table: open http://{shown}:{port}/  (database: {url})")
    allowed = list(origin or [])
    if allowed:
        allowed += [f"http://{host}:{port}", f"http://localhost:{port}"]
    settle_collector()
    limits = Limits(
        connections_per_address=connections_per_address,
        connects_per_minute=connects_per_minute,
        tables_per_minute=tables_per_minute,
        waiting_ttl=waiting_hours * 3600.0,
        lease_seconds=lease_seconds,
    )
    # The database's schema is brought up to date (Alembic migrations) as it opens.
    application = create_app(
        url,
        allowed_origins=allowed,
        allowed_hosts=list(allow_host or []) + ([] if host in ("0.0.0.0", "::") else [host]),
        limits=limits,
        api_docs=api_docs,
        cluster=cluster,
    )
    serve_app(
        application,
        shutdown_seconds,
        host=host,
        port=port,
        log_level=log_level,
        log_config=None,  # logs.configure's handler, in the format asked for
        access_log=access_log,
        # Off unless asked: deflating every frame (each seat's, every action) doubles the
        # CPU of an action, and loopback, LAN and broadband carry 3-4 KB frames at no
        # cost; on slow links a frame shrinks to a twentieth (docs/web.md, "Compression").
        ws_per_message_deflate=ws_deflate,
    )


def backup(
    destination: Annotated[
        Path, typer.Argument(help="the copy to write (a new file: never overwritten)")
    ],
    db: Annotated[
        str | None,
        typer.Option(help="database URL (default: an SQLite file under ./data/)"),
    ] = None,
) -> None:
    """Copy the web table's SQLite database, consistently, even while the server runs."""
    from rummoli.i18n import nformat, number
    from rummoli.web.backup import BackupError
    from rummoli.web.backup import backup as backup_database
    from rummoli.web.storage import DEFAULT_DB_URL

    try:
        made = backup_database(db or DEFAULT_DB_URL, destination)
    except BackupError as error:
        typer.echo(_backup_error(error), err=True)
        raise typer.Exit(1) from None
    typer.echo(
        _("backed up {source} to {destination}: {games}, {size} kB, in {seconds} s").format(
            source=made.source,
            destination=made.destination,
            games=nformat("{n} game", "{n} games", made.games),
            size=number(round(made.size / 1000)),
            seconds=number(round(made.seconds, 2)),
        )
    )


def _backup_error(error: BackupError) -> str:
    """Why ``rummoli backup`` made no copy, in the reader's language."""
    where = error.path
    texts = {
        "bad_url": _("{where} is not a database URL"),
        "not_sqlite": _(
            "rummoli backup copies SQLite databases; for {where}, use its own tool "
            "(PostgreSQL: pg_dump, see docs/deploy.md)"
        ),
        "no_file": _("{where} is not a database file (an in-memory database has no copy)"),
        "no_database": _("there is no database at {where}"),
        "exists": _("{where} exists already: a backup never overwrites a file"),
        "no_folder": _("there is no folder {where}"),
        "not_ours": _("{where} is not a database of the web table"),
        "damaged": _("the copy failed its integrity check: nothing was written to {where}"),
        "sqlite": _("SQLite could not copy the database: {where}"),
    }
    return _("no backup made: {why}").format(why=texts[error.code].format(where=where))
