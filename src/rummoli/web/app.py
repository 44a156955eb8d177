"""The FastAPI application: pages, the JSON API and the tables' WebSocket.

``create_app(db_url)`` builds an app bound to one database; ``rummoli serve`` runs it on
uvicorn, tests drive it in-process. Endpoints and the WebSocket protocol are described in
``docs/web.md``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Body, FastAPI, Header, HTTPException, Query, Request, Response, WebSocket
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from rummoli import i18n
from rummoli.engine.base import GameError
from rummoli.i18n import N_
from rummoli.i18n.terms import game_title, rules_document
from rummoli.web import games
from rummoli.web.access import Access, access, game_keys
from rummoli.web.broadcast import table_info
from rummoli.web.catalogue import UnknownLanguage, catalogue
from rummoli.web.chat import replay_chat
from rummoli.web.cluster import (
    Cluster,
    Forwarding,
    client_address,
    open_tables,
    owner_address,
    socket_origin,
    socket_url,
)
from rummoli.web.commands import Host
from rummoli.web.games import web_part
from rummoli.web.guard import MAX_BODY_BYTES, Guard
from rummoli.web.history import bot_list, bot_stats, game_summary, player_stats
from rummoli.web.hub import Hub
from rummoli.web.limits import Limits
from rummoli.web.ops import Draining, add_routes, drain
from rummoli.web.pages import STATIC, page_response
from rummoli.web.replay import record_of, replay_frames
from rummoli.web.room import Room
from rummoli.web.rulestext import rules_tree
from rummoli.web.seating import Timing
from rummoli.web.security import hosts_of, token_matches
from rummoli.web.settings import SettingsError, check_name, lobby_options, settings_from_request
from rummoli.web.socket import table_socket
from rummoli.web.storage import DEFAULT_DB_URL, OVER, Storage, StoredGame
from rummoli.web.wording import Refused

__all__ = ["MAX_BODY_BYTES", "STATIC", "create_app"]

_PAGES = {
    "lobby": "index.html",
    "table": "table.html",
    "history": "history.html",
    "replay": "replay.html",
    "player": "player.html",
    "rules": "rules.html",
}


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def _room_or_404(hub: Hub, table_id: str) -> Room:
    room = await hub.room(table_id)
    if room is None:
        raise Refused(404, N_("there is no such table"))
    return room


async def _game_or_404(hub: Hub, game_id: str) -> StoredGame:
    stored = await hub.db(hub.storage.load_game, game_id)
    if stored is None:
        raise Refused(404, N_("there is no such game"))
    return stored


def page_language(lang: str | None, accept: str | None) -> str:
    """The language an API answer is worded in: ``?lang=`` when it names a language the
    project has (``fr-CA`` is French), else the first of ``Accept-Language``'s that it
    has, else English. A page sends ``?lang=`` (the language its person chose)."""
    wanted = [lang] if lang else []
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip()
        if code and code != "*":
            wanted.append(code)
    for code in wanted:
        found = i18n.normalize(code)
        if found in i18n.languages():
            return found
    return i18n.DEFAULT


def _address(request: Request) -> str:
    return client_address(request)  # a sibling process's forward says whose it is


#: The headers that open a private game: a seat token, a table's secret, and for the
#: listings the ``id:secret`` pairs a browser keeps (:mod:`.access`).
TokenHeader = Annotated[str | None, Header(alias="x-rummoli-token")]
KeyHeader = Annotated[str | None, Header(alias="x-rummoli-key")]
GamesHeader = Annotated[str | None, Header(alias="x-rummoli-games")]


async def _visible(hub: Hub, games: str | None) -> set[str]:
    """The private games a listing shows this request: those whose secrets it brings."""
    keys = game_keys(games)
    return await hub.db(hub.storage.people_games, keys) if keys else set()


def _key_allows(room: Room, key: str | None) -> bool:
    """A visitor may see a private table with its invitation, spectator or host secret."""
    return room.key_allows(key) or (key is not None and token_matches(key, room.host_hash))


def create_app(
    db_url: str = DEFAULT_DB_URL,
    *,
    timing: Timing | None = None,
    allowed_origins: Collection[str] = (),
    allowed_hosts: Collection[str] = (),
    limits: Limits | None = None,
    api_docs: bool = False,
    cluster: Cluster | None = None,
) -> FastAPI:
    """The web server for one database.

    ``timing``: the computer's pauses (tests pass zeros). ``allowed_origins``: origins
    whose pages may open the WebSocket; empty means only the server's own origin. The
    ``Host`` header must be ``localhost``, an IP address, a host of ``allowed_origins``
    or one of ``allowed_hosts`` (DNS rebinding: :func:`.security.host_allowed`).
    ``limits``: per-address limits and expiry (:class:`.limits.Limits`). ``api_docs``:
    serve ``/api/docs`` and ``/openapi.json`` (off unless asked for: they map every
    endpoint for whoever looks). ``cluster``: this process shares the database with
    others (``rummoli serve --workers``, :mod:`.cluster`); None: it is alone.
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(db_url)
        hub = Hub(
            storage,
            timing,
            limits,
            shared=cluster is not None,
            address="" if cluster is None else cluster.address,
        )
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await drain(hub)  # done already after a SIGTERM (ops.DrainingServer)
            await hub.stop()
            storage.close()

    app = FastAPI(
        title="Rummoli",
        lifespan=lifespan,
        docs_url="/api/docs" if api_docs else None,
        openapi_url="/openapi.json" if api_docs else None,
        redoc_url=None,
    )
    app.state.cluster = cluster
    app.add_middleware(Forwarding)  # innermost: a draining process forwards nothing
    app.add_middleware(Draining)  # inside the Guard: its checks and headers come first
    app.add_middleware(
        Guard,
        allowed_hosts=hosts_of(allowed_origins) | {h.lower() for h in allowed_hosts},
        # Several processes: a page may open its table's socket at a sibling's origin.
        sockets=[] if cluster is None else [socket_origin(o) for o in allowed_origins],
    )

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    add_routes(app)  # /healthz, /readyz, /metrics

    def page(name: str) -> Response:
        return page_response(_PAGES[name])

    def endpoint(name: str) -> Callable[[], Awaitable[Response]]:
        """The route of one page (async, as every route here: served on the event loop)."""

        async def serve() -> Response:
            return page(name)

        return serve

    # A page is the same file whatever ids its path holds: its script reads them.
    for path, name in (
        ("/", "lobby"),
        ("/table/{table_id}", "table"),
        ("/history", "history"),
        ("/replay/{game_id}", "replay"),
        ("/player", "player"),
        ("/rules", "rules"),
    ):
        app.add_api_route(path, endpoint(name), methods=["GET"], include_in_schema=False)

    @app.exception_handler(StarletteHTTPException)
    async def not_found(request: Request, error: StarletteHTTPException) -> Response:
        """A person who follows a wrong link gets a page that says so and leads back; a
        program (the API, the WebSocket) gets the JSON error as before."""
        path = request.url.path
        if error.status_code == 404 and not path.startswith(("/api/", "/ws/", "/static/")):
            return page_response("404.html", status_code=404)
        answer: dict[str, Any] = {"detail": error.detail}
        # The sentence as a message id and its values, for the page (:mod:`.wording`).
        answer.update(getattr(error, "wording", None) or {})
        return JSONResponse(
            answer,
            status_code=error.status_code,
            headers=getattr(error, "headers", None),
        )

    # ------------------------------------------------------------------ the API

    @app.get("/api/catalogue/{lang}")
    async def catalogue_of(lang: str) -> JSONResponse:
        """The page's messages in ``lang`` (:mod:`.catalogue`), from the compiled web
        catalogue; 404 for a language the project has no catalogue for."""
        try:
            found = catalogue(lang)
        except UnknownLanguage as error:
            raise HTTPException(404, str(error)) from None
        return JSONResponse(found, headers={"Cache-Control": "public, max-age=300"})

    @app.get("/api/rules/{game}")
    async def rules_of(
        game: str,
        lang: str | None = None,
        accept: Annotated[str | None, Header(alias="accept-language")] = None,
    ) -> dict[str, Any]:
        """A game's rules as played, in the asked language: its own text as a tree of
        plain elements (:mod:`.rulestext`), which the page builds without parsing any
        HTML."""
        try:
            description = games.description(game)
        except GameError:
            raise Refused(404, N_("unknown game {game}"), game=repr(game)) from None
        language = page_language(lang, accept)
        with i18n.language(language):
            title = game_title(description)
        return {
            "game": description.name,
            "title": title,
            "language": language,
            "blocks": rules_tree(rules_document(description, language)),
        }

    @app.get("/api/options")
    async def options(
        lang: str | None = None,
        accept: Annotated[str | None, Header(alias="accept-language")] = None,
    ) -> dict[str, Any]:
        """House rules with defaults and help, presets, computer players, limits; the
        texts (titles, help, the words for a round) in the asked language."""
        return lobby_options(page_language(lang, accept))

    @app.get("/api/tables")
    async def tables(request: Request, here: bool = False) -> dict[str, Any]:
        """Public tables waiting for players or being played (never a private one); of
        every process sharing the database (``here``: this process's only)."""
        return {"tables": await open_tables(_hub(request), cluster, here)}

    @app.get("/api/tables/{table_id}/socket")
    async def table_socket_url(request: Request, table_id: str) -> dict[str, Any]:
        """Where the table's WebSocket is: ``url`` at the process that owns it, or None
        (this server's own ``/ws/{id}``)."""
        address = await owner_address(_hub(request), table_id)
        return {"url": None if address is None else socket_url(address, table_id)}

    @app.post("/api/tables", status_code=201)
    async def create_table(
        request: Request,
        payload: Annotated[dict[str, Any], Body()],
        lang: str | None = None,
        accept: Annotated[str | None, Header(alias="accept-language")] = None,
    ) -> dict[str, Any]:
        """A new table, private unless ``"public": true``. The answer holds the
        invitation secret (``invite``: the seat link is ``url#invite=...``) and the
        host's secret (``host``), each shown this once."""
        payload = dict(payload)
        # The creator's name, if given, is checked before anything exists, and he sits in
        # seat 1 in the same request: a refused name leaves no table behind.
        name = payload.pop("name", None)
        try:
            settings = settings_from_request(payload)
            if name is not None:
                name = check_name(name, [])
        except SettingsError as error:
            # The engine's own refusals are worded here, in the page's language.
            raise Refused.of(400, error, page_language(lang, accept)) from None
        hub = _hub(request)
        if not hub.addresses.may_create(_address(request)):
            raise Refused(
                429,
                N_("at most {n} new tables a minute: wait a little"),
                n=hub.limits.tables_per_minute,
            )
        room, invite, host = await hub.create(settings)
        answer: dict[str, Any] = {
            "id": room.id,
            "url": f"/table/{room.id}",
            "invite": invite,
            "invite_url": f"/table/{room.id}#invite={invite}",
            "host": host,
        }
        if name is not None:
            seat, token = await hub.join(room, 0, name)
            answer["seat"] = {"seat": seat, "token": token, "name": room.seats[seat].name}
        answer["table"] = table_info(room)
        return answer

    @app.get("/api/tables/{table_id}")
    async def table(
        request: Request,
        table_id: str,
        key: Annotated[str | None, Header(alias="x-rummoli-key")] = None,
    ) -> dict[str, Any]:
        """The table; a private one only with its invitation, spectator or host secret
        (header ``X-Rummoli-Key``)."""
        hub = _hub(request)
        room = await _room_or_404(hub, table_id)
        try:
            if not _key_allows(room, key):
                raise Refused(403, N_("this table is private: you need its invitation link"))
            return table_info(room)
        finally:
            hub.forget_if_idle(room)  # a finished game read over HTTP is not kept loaded

    @app.post("/api/tables/{table_id}/host")
    async def host(
        request: Request, table_id: str, payload: Annotated[dict[str, Any], Body()]
    ) -> dict[str, Any]:
        """The host's powers: ``{"host": secret, "do": "release", "seat": 2}``; ``start``
        (computer players in the empty seats, ``level`` optional), ``end`` (this round is
        the last), ``public``/``players_chat`` (``value``), ``invite_link``/``watch_link``
        (a new secret, the old one no longer works)."""
        hub = _hub(request)
        room = await _room_or_404(hub, table_id)
        secret = payload.get("host")
        if not isinstance(secret, str) or not token_matches(secret, room.host_hash):
            raise Refused(403, N_("only the table's host may do that"))
        what = payload.get("do")
        if not isinstance(what, str):
            raise Refused(400, N_("say what to do: do"))
        args = {k: v for k, v in payload.items() if k not in ("host", "do")}
        reply: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        room.submit(Host(what, reply, args))
        try:
            return await reply
        except SettingsError as error:
            raise Refused.of(409, error) from None

    @app.post("/api/tables/{table_id}/join")
    async def join(
        request: Request, table_id: str, payload: Annotated[dict[str, Any], Body()]
    ) -> dict[str, Any]:
        """Take a seat: the answer's token is shown once; keep it to come back. A
        private table's seats are taken only with its invitation (``invite``)."""
        hub = _hub(request)
        room = await _room_or_404(hub, table_id)
        invite = payload.get("invite")
        if not room.public and not (
            isinstance(invite, str) and token_matches(invite, room.invite_hash)
        ):
            raise Refused(403, N_("this table is private: you need its invitation link"))
        person = payload.get("person")
        if isinstance(person, str) and room.bans.browser_banned(person):
            raise Refused(403, N_("the host removed you from this table"))
        seat = payload.get("seat")
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(room.seats)
        ):
            raise Refused(400, N_("seat must be from 0 to {high}"), high=len(room.seats) - 1)
        try:
            seat, token = await hub.join(room, seat, payload.get("name"))  # type: ignore[arg-type]
        except SettingsError as error:
            raise Refused.of(409, error) from None
        return {"seat": seat, "token": token, "name": room.seats[seat].name}

    @app.get("/api/history")
    async def history(
        request: Request,
        limit: int = Query(50, ge=1, le=200),
        offset: int = Query(0, ge=0),
        mine: GamesHeader = None,
    ) -> dict[str, Any]:
        """Finished games: the public ones, and the private ones whose secrets the
        request brings (``X-Rummoli-Games``): a private game is listed to its people."""
        hub = _hub(request)
        visible = await _visible(hub, mine)
        games = await hub.db(hub.storage.finished_games, limit, offset, visible)
        return {"games": [game_summary(g) for g in games]}

    @app.get("/api/games/{game_id}/record")
    async def record(
        request: Request, game_id: str, token: TokenHeader = None, key: KeyHeader = None
    ) -> JSONResponse:
        """The game record (rules, setup, seed, actions) of a finished game, as a download.

        An unfinished game has none: its seed and actions would reveal every hidden card.
        A private game's is its people's: a seat token or the host's secret.
        """
        stored = await _game_or_404(_hub(request), game_id)
        if not access(stored, token, key).whole:
            raise Refused(403, N_("this game is private: its record is for its players"))
        if stored.status not in OVER:
            raise Refused(409, N_("the record is available once the game is over"))
        data = await asyncio.to_thread(record_of, stored)
        return JSONResponse(
            data,
            headers={"Content-Disposition": f'attachment; filename="{stored.game}-{game_id}.json"'},
        )

    @app.get("/api/games/{game_id}/replay")
    async def replay(
        request: Request,
        game_id: str,
        seat: int | None = Query(None, ge=0, le=7),
        token: TokenHeader = None,
        key: KeyHeader = None,
    ) -> dict[str, Any]:
        """Every step of a finished game from one seat's point of view (none: a
        spectator). With a player's seat token (header ``X-Rummoli-Token``), its chat
        too: the chat is kept for the players only. A private game's replays are its
        people's (a seat token, the host's secret); its spectators' replay also opens
        with its invitation or spectator link (``X-Rummoli-Key``)."""
        stored = await _game_or_404(_hub(request), game_id)
        allowed = access(stored, token, key)
        if not (allowed.whole if seat is not None else allowed.watching):
            raise Refused(403, N_("this game is private: its replays are for its players"))
        if stored.status not in OVER:
            raise Refused(409, N_("a game can be replayed once it is over"))
        try:
            frames = await asyncio.to_thread(replay_frames, stored, seat)
        except ValueError as error:
            raise HTTPException(400, str(error)) from None
        frames["game"] = game_summary(stored)
        frames["chat"] = replay_chat(stored.chat) if allowed is Access.PLAYER else None
        return frames

    @app.get("/api/players")
    async def players(
        request: Request,
        lang: str | None = None,
        accept: Annotated[str | None, Header(alias="accept-language")] = None,
        mine: GamesHeader = None,
    ) -> dict[str, Any]:
        """Names seen in finished games, and the computer levels that played (their
        labels and help in the asked language): public games, and the private ones whose
        secrets the request brings."""
        hub = _hub(request)
        visible = await _visible(hub, mine)
        names = await hub.db(hub.storage.player_names, 200, visible)
        seen = await hub.db(hub.storage.bot_levels, visible)
        with i18n.language(page_language(lang, accept)):
            bots = bot_list(seen)
        return {"players": [{"name": n, "games": g} for n, g in names], "bots": bots}

    @app.get("/api/bots/stats")
    async def bot_statistics(
        request: Request,
        game: str = Query(..., min_length=1, max_length=32),
        level: str = Query(..., min_length=1, max_length=32),
        lang: str | None = None,
        accept: Annotated[str | None, Header(alias="accept-language")] = None,
        mine: GamesHeader = None,
    ) -> dict[str, Any]:
        """One computer level of one game: its games, wins and chips (or points) won;
        its label and help in the asked language (public games, and the private ones
        whose secrets the request brings)."""
        if game not in games.games() or level not in games.levels(game):
            raise HTTPException(404, f"no computer player {level!r} for game {game!r}")
        hub = _hub(request)
        visible = await _visible(hub, mine)
        stored = await hub.db(hub.storage.games_of_player, "", bot=(game, level), visible=visible)
        with i18n.language(page_language(lang, accept)):  # the thread runs in this context
            return await asyncio.to_thread(bot_stats, game, level, stored)

    @app.get("/api/players/stats")
    async def stats(
        request: Request,
        name: str = Query(..., min_length=1, max_length=64),
        mine: GamesHeader = None,
    ) -> dict[str, Any]:
        """A person's statistics: public games, and the private ones whose secrets the
        request brings (his own, on his own browser)."""
        hub = _hub(request)
        visible = await _visible(hub, mine)
        games = await hub.db(hub.storage.games_of_player, name, visible=visible)
        # Games counted from their events (Rummy's hands) are loaded whole.
        ids = [g.id for g in games if web_part(g.game).whole_games]
        whole = {g.id: g for g in await hub.db(hub.storage.load_games, ids)} if ids else {}
        stored = [whole.get(g.id, g) for g in games]
        return await asyncio.to_thread(player_stats, name, stored)

    @app.websocket("/ws/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        await table_socket(websocket, table_id, websocket.app.state.hub, allowed_origins)

    return app
