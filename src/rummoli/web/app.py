"""The FastAPI application: pages, the JSON API and the tables' WebSocket.

``create_app(db_url)`` builds an app bound to one database; ``rummoli serve`` runs it on
uvicorn, tests drive it in-process. Endpoints and the WebSocket protocol are described in
``docs/web.md``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, HTTPException, Query, Request, Response, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from rummoli.web.broadcast import table_info
from rummoli.web.games import web_part
from rummoli.web.history import game_summary, player_stats
from rummoli.web.hub import Hub
from rummoli.web.replay import record_of, replay_frames
from rummoli.web.room import Room, Timing
from rummoli.web.settings import SettingsError, lobby_options, settings_from_request
from rummoli.web.socket import table_socket
from rummoli.web.storage import DEFAULT_DB_URL, FINISHED, Storage, StoredGame

STATIC = Path(__file__).parent / "static"
#: Largest request body the API reads (a create-table request is under 2 KB).
MAX_BODY_BYTES = 64 * 1024

_PAGES = {
    "lobby": "index.html",
    "table": "table.html",
    "history": "history.html",
    "replay": "replay.html",
    "player": "player.html",
}


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def _room_or_404(hub: Hub, table_id: str) -> Room:
    room = await hub.room(table_id)
    if room is None:
        raise HTTPException(404, "there is no such table")
    return room


async def _game_or_404(hub: Hub, game_id: str) -> StoredGame:
    stored = await hub.db(hub.storage.load_game, game_id)
    if stored is None:
        raise HTTPException(404, "there is no such game")
    return stored


def _security_headers(response: Response, host: str) -> None:
    # Defence in depth behind textContent: even if a name slipped into markup somewhere,
    # no inline script could run, and no other site may frame the table.
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src 'self' ws://{host} wss://{host}; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'self'"
    )
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["X-Frame-Options"] = "DENY"


def create_app(
    db_url: str = DEFAULT_DB_URL,
    *,
    timing: Timing | None = None,
    allowed_origins: Collection[str] = (),
) -> FastAPI:
    """The web server for one database.

    ``timing``: the computer's pauses (tests pass zeros). ``allowed_origins``: origins
    whose pages may open the WebSocket; empty means only the server's own origin.
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(db_url)
        hub = Hub(storage, timing)
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            storage.close()

    app = FastAPI(title="Rummoli", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)

    @app.middleware("http")
    async def guard(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            return JSONResponse({"detail": "request too large"}, status_code=413)
        response = await call_next(request)
        _security_headers(response, request.headers.get("host", "127.0.0.1"))
        return response

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / _PAGES[name], media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return page("lobby")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page("table")

    @app.get("/history", include_in_schema=False)
    async def history_page() -> FileResponse:
        return page("history")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> FileResponse:
        return page("replay")

    @app.get("/player", include_in_schema=False)
    async def player_page() -> FileResponse:
        return page("player")

    # ------------------------------------------------------------------ the API

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        """House rules with defaults and help, presets, computer players, limits."""
        return lobby_options()

    @app.get("/api/tables")
    async def tables(request: Request) -> dict[str, Any]:
        """Tables waiting for players or being played."""
        return {"tables": _hub(request).open_tables()}

    @app.post("/api/tables", status_code=201)
    async def create_table(
        request: Request, payload: Annotated[dict[str, Any], Body()]
    ) -> dict[str, Any]:
        try:
            settings = settings_from_request(payload)
        except SettingsError as error:
            raise HTTPException(400, str(error)) from None
        room = await _hub(request).create(settings)
        return {"id": room.id, "url": f"/table/{room.id}", "table": table_info(room)}

    @app.get("/api/tables/{table_id}")
    async def table(request: Request, table_id: str) -> dict[str, Any]:
        return table_info(await _room_or_404(_hub(request), table_id))

    @app.post("/api/tables/{table_id}/join")
    async def join(
        request: Request, table_id: str, payload: Annotated[dict[str, Any], Body()]
    ) -> dict[str, Any]:
        """Take a seat: the answer's token is shown once; keep it to come back."""
        hub = _hub(request)
        room = await _room_or_404(hub, table_id)
        seat = payload.get("seat")
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(room.seats)
        ):
            raise HTTPException(400, f"seat must be from 0 to {len(room.seats) - 1}")
        try:
            seat, token = await hub.join(room, seat, payload.get("name"))  # type: ignore[arg-type]
        except SettingsError as error:
            raise HTTPException(409, str(error)) from None
        return {"seat": seat, "token": token, "name": room.seats[seat].name}

    @app.get("/api/history")
    async def history(
        request: Request, limit: int = Query(50, ge=1, le=200), offset: int = Query(0, ge=0)
    ) -> dict[str, Any]:
        hub = _hub(request)
        games = await hub.db(hub.storage.finished_games, limit, offset)
        return {"games": [game_summary(g) for g in games]}

    @app.get("/api/games/{game_id}/record")
    async def record(request: Request, game_id: str) -> JSONResponse:
        """The game record (rules, setup, seed, actions) of a finished game, as a download.

        An unfinished game has none: its seed and actions would reveal every hidden card.
        """
        stored = await _game_or_404(_hub(request), game_id)
        if stored.status != FINISHED:
            raise HTTPException(409, "the record is available once the game is over")
        data = await asyncio.to_thread(record_of, stored)
        return JSONResponse(
            data,
            headers={"Content-Disposition": f'attachment; filename="{stored.game}-{game_id}.json"'},
        )

    @app.get("/api/games/{game_id}/replay")
    async def replay(
        request: Request, game_id: str, seat: int | None = Query(None, ge=0, le=7)
    ) -> dict[str, Any]:
        """Every step of a finished game from one seat's point of view (none: a spectator)."""
        stored = await _game_or_404(_hub(request), game_id)
        if stored.status != FINISHED:
            raise HTTPException(409, "a game can be replayed once it is over")
        try:
            frames = await asyncio.to_thread(replay_frames, stored, seat)
        except ValueError as error:
            raise HTTPException(400, str(error)) from None
        frames["game"] = game_summary(stored)
        return frames

    @app.get("/api/players")
    async def players(request: Request) -> dict[str, Any]:
        hub = _hub(request)
        names = await hub.db(hub.storage.player_names)
        return {"players": [{"name": n, "games": g} for n, g in names]}

    @app.get("/api/players/stats")
    async def stats(
        request: Request, name: str = Query(..., min_length=1, max_length=64)
    ) -> dict[str, Any]:
        hub = _hub(request)
        games = await hub.db(hub.storage.games_of_player, name)
        # Games counted from their events (Rummy's hands) are loaded whole.
        ids = [g.id for g in games if web_part(g.game).whole_games]
        whole = {g.id: g for g in await hub.db(hub.storage.load_games, ids)} if ids else {}
        stored = [whole.get(g.id, g) for g in games]
        return await asyncio.to_thread(player_stats, name, stored)

    @app.websocket("/ws/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        await table_socket(websocket, table_id, websocket.app.state.hub, allowed_origins)

    return app
