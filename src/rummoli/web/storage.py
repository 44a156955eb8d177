"""Where tables live: games, seats and actions, by SQLAlchemy (SQLite or PostgreSQL).

A game is stored as what replays it: its rules, its setup (the names, once every seat is
taken), its secret seed and its actions in order. So every accepted action is one small
row, written before anyone is told of it, and after a restart each unfinished table is
rebuilt by replaying its actions: exactly where it was, forced moves and all. The table's
chat is stored beside it (``chat``), also before anyone reads it.

The writes a table's owner makes to its rows (seats, settings, start, end) are the
base class's, :class:`.owned.OwnedWrites`, each fenced by the owner's lease.

The schema is made and changed by Alembic migrations (:mod:`.migrate`,
``web/migrations/``): :class:`Storage` brings any database up to date when it opens it.

The methods are plain blocking calls; the rooms run them on one worker thread (see
:class:`rummoli.web.hub.Hub`), which keeps SQLite's single writer happy and the event
loop free.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, or_, select
from sqlalchemy.orm import Session

from rummoli.web.commit_sql import statements_for
from rummoli.web.engines import engine_for as _engine_for
from rummoli.web.leases import check_fence
from rummoli.web.owned import Fence, OwnedWrites
from rummoli.web.schema import (
    ABANDONED,
    EXPIRED,
    FINISHED,
    OVER,
    PLAYING,
    WAITING,
    ActionRow,
    ChatRow,
    GameRow,
    LeaseRow,
    SeatRow,
)

# The models and statuses live in .schema; these names stay importable from here.
from rummoli.web.schema import Base as Base
from rummoli.web.schema import utcnow as utcnow
from rummoli.web.seating import BaseSeat
from rummoli.web.security import hash_token as hash_secret

#: The embedded database used when no URL is given, relative to the working directory.
DEFAULT_DB_URL = "sqlite:///data/rummoli.db"


@dataclass(slots=True)
class StoredSeat(BaseSeat):
    """A seat as stored: who held it and, once the game is over, what it ended with."""

    final_chips: int | None = None


@dataclass(slots=True)
class ChatLine:
    """One line of a table's chat (or a reaction: ``kind == "emote"``)."""

    idx: int
    at: datetime
    channel: str
    sender: str
    name: str
    kind: str
    text: str
    step: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "chat",
            "n": self.idx,
            "at": self.at.isoformat(timespec="seconds") + "Z",
            "channel": self.channel,
            "from": self.sender,
            "name": self.name,
            "kind": self.kind,
            "text": self.text,
            "step": self.step,
        }


@dataclass(slots=True)
class StoredGame:
    """One game as stored. It holds the seed: never send it to a client as it is."""

    id: str
    status: str
    rules: dict[str, Any]
    seed: int
    seats: list[StoredSeat]
    turn_timer: float = 0.0
    time_limit: int = 0
    setup: dict[str, Any] | None = None
    end_requested_after: int | None = None
    created_at: datetime = field(default_factory=utcnow)
    started_at: datetime | None = None
    finished_at: datetime | None = None
    actions: list[int] = field(default_factory=list)
    #: The game of the table: ``rummoli`` or ``rummy`` (see :mod:`rummoli.web.games`).
    game: str = "rummoli"
    public: bool = False
    invite_hash: str | None = None
    watch_hash: str | None = None
    host_hash: str | None = None
    players_chat_public: bool = False
    rematch_id: str | None = None
    rematch_of: str | None = None
    rounds_played: int | None = None
    banned: dict[str, Any] | None = None
    #: The chat (loaded with whole games only).
    chat: list[ChatLine] = field(default_factory=list)


def _table_columns(row: GameRow) -> dict[str, Any]:
    """The table's own columns of a row (privacy, secrets' hashes, chat, rematch)."""
    return {
        "public": bool(row.public),
        "invite_hash": row.invite_hash,
        "watch_hash": row.watch_hash,
        "host_hash": row.host_hash,
        "players_chat_public": bool(row.players_chat_public),
        "rematch_id": row.rematch_id,
        "rematch_of": row.rematch_of,
        "rounds_played": row.rounds_played,
        "banned": row.banned,
    }


def _listed(visible: Collection[str]) -> Any:
    """The games a listing may show: the public ones, and the private ones of
    ``visible`` (a private game is listed to its people only)."""
    if not visible:
        return GameRow.public.is_(True)
    return or_(GameRow.public.is_(True), GameRow.id.in_(list(visible)))


def refuse_newer_schema(url: str) -> None:
    """Raise :class:`.migrate.NewerDatabase` if the database at ``url`` was written by a
    newer Rummoli (``rummoli serve`` asks before it starts the server, so the refusal is
    one sentence, not the server's failed start-up)."""
    from rummoli.web.migrate import current, refuse_newer

    engine = _engine_for(url)
    try:
        refuse_newer(current(engine))
    finally:
        engine.dispose()


class Storage(OwnedWrites):
    """The tables of the web server, in one database given by URL (the writes of a
    table's owner, fenced, are :class:`.owned.OwnedWrites`')."""

    def __init__(self, url: str = DEFAULT_DB_URL) -> None:
        from rummoli.web.migrate import upgrade

        self.url = url
        self.engine = _engine_for(url)
        upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ writing

    def create_game(
        self, game: StoredGame, owner: str | None = None, lease_until: datetime | None = None
    ) -> None:
        """Store a new table; with ``owner``, its lease too (epoch 1, in the same
        transaction: a new table is never an orphan another process could take)."""
        with self._session() as s:
            s.add(
                GameRow(
                    id=game.id,
                    game=game.game,
                    status=game.status,
                    rules=game.rules,
                    setup=game.setup,
                    seed=game.seed,
                    turn_timer=game.turn_timer,
                    time_limit=game.time_limit,
                    created_at=game.created_at,
                    public=game.public,
                    invite_hash=game.invite_hash,
                    watch_hash=game.watch_hash,
                    host_hash=game.host_hash,
                    players_chat_public=game.players_chat_public,
                    rematch_of=game.rematch_of,
                )
            )
            for seat in game.seats:
                s.add(SeatRow(game_id=game.id, seat=seat.seat, name=seat.name, bot=seat.bot))
            if owner is not None and lease_until is not None:
                s.flush()  # the game's row first: the lease refers to it
                s.add(LeaseRow(game_id=game.id, owner=owner, epoch=1, expires_at=lease_until))

    def append_chat(self, game_id: str, line: ChatLine) -> None:
        """Store one chat line; (game, idx) is the key, as for actions."""
        self.append_rows([], [(game_id, line)])

    def load_chat(self, game_id: str) -> list[ChatLine]:
        with self._session() as s:
            rows = s.scalars(
                select(ChatRow).where(ChatRow.game_id == game_id).order_by(ChatRow.idx)
            ).all()
            return [
                ChatLine(r.idx, r.at, r.channel, r.sender, r.name, r.kind, r.text, r.step)
                for r in rows
            ]

    def delete_game(self, game_id: str) -> None:
        """Forget a table entirely (tests and tools; the server expires, never deletes)."""
        with self._session() as s:
            s.execute(delete(GameRow).where(GameRow.id == game_id))

    def append_action(self, game_id: str, index: int, action: int) -> None:
        """Store one accepted action; (game, index) is the key, so a gap or a repeat fails."""
        self.append_rows([(game_id, index, action)])

    def append_actions(self, rows: Sequence[tuple[str, int, int]]) -> None:
        """Store the actions of several tables, ``(game_id, index, action)`` each, in one
        transaction: all of them or, if any row is refused, none (:meth:`append_rows`)."""
        self.append_rows(rows)

    def append_rows(
        self,
        actions: Sequence[tuple[str, int, int]],
        chat: Sequence[tuple[str, ChatLine]] = (),
        fence: Fence = None,
    ) -> None:
        """The group commit's transaction: actions and chat lines of several tables, all
        of them or, if any row is refused, none (:meth:`.hub.Hub.store_action`).

        ``fence``: the tables whose owner writes (id: the lease's epoch it holds); if any
        of them changed hands, :class:`.leases.StaleOwner` is raised and nothing is
        written (:func:`.leases.check_fence`).

        A plain transaction on a connection, not an ORM session (its unit of work was a
        fifth of the server's time), and the actions' insert in the driver's own SQL,
        compiled once (:mod:`.commit_sql`): this runs at every group commit."""
        with self.engine.begin() as connection:
            if actions:
                statements_for(connection.dialect).insert_actions(connection, actions)
            if chat:
                connection.execute(
                    insert(ChatRow),
                    [
                        {
                            "game_id": game_id,
                            "idx": line.idx,
                            "at": line.at,
                            "channel": line.channel,
                            "sender": line.sender,
                            "name": line.name,
                            "kind": line.kind,
                            "text": line.text,
                            "step": line.step,
                        }
                        for game_id, line in chat
                    ],
                )
            if fence:
                check_fence(connection, fence)

    # ------------------------------------------------------------------ reading

    def _load(self, s: Session, rows: Sequence[GameRow]) -> list[StoredGame]:
        ids = [row.id for row in rows]
        seats: dict[str, list[StoredSeat]] = {i: [] for i in ids}
        actions: dict[str, list[int]] = {i: [] for i in ids}
        chat: dict[str, list[ChatLine]] = {i: [] for i in ids}
        if ids:
            for seat in s.scalars(
                select(SeatRow).where(SeatRow.game_id.in_(ids)).order_by(SeatRow.seat)
            ):
                seats[seat.game_id].append(
                    StoredSeat(seat.seat, seat.name, seat.token_hash, seat.bot, seat.final_chips)
                )
            for game_id, action in s.execute(
                select(ActionRow.game_id, ActionRow.action)
                .where(ActionRow.game_id.in_(ids))
                .order_by(ActionRow.game_id, ActionRow.idx)
            ):
                actions[game_id].append(action)
            for r in s.scalars(
                select(ChatRow).where(ChatRow.game_id.in_(ids)).order_by(ChatRow.idx)
            ):
                chat[r.game_id].append(
                    ChatLine(r.idx, r.at, r.channel, r.sender, r.name, r.kind, r.text, r.step)
                )
        return [
            StoredGame(
                id=row.id,
                status=row.status,
                rules=dict(row.rules),
                seed=row.seed,
                seats=seats[row.id],
                turn_timer=row.turn_timer,
                time_limit=row.time_limit,
                setup=None if row.setup is None else dict(row.setup),
                end_requested_after=row.end_requested_after,
                created_at=row.created_at,
                started_at=row.started_at,
                finished_at=row.finished_at,
                actions=actions[row.id],
                game=row.game,
                chat=chat[row.id],
                **_table_columns(row),
            )
            for row in rows
        ]

    def load_game(self, game_id: str) -> StoredGame | None:
        with self._session() as s:
            row = s.get(GameRow, game_id)
            return None if row is None else self._load(s, [row])[0]

    def load_games(self, game_ids: Sequence[str]) -> list[StoredGame]:
        """Whole games (seeds and actions too: for the server's own replays only)."""
        with self._session() as s:
            rows = s.scalars(select(GameRow).where(GameRow.id.in_(list(game_ids)))).all()
            return self._load(s, rows)

    def load_unfinished(self) -> list[StoredGame]:
        """Every table waiting for players or being played: the server resumes them all."""
        with self._session() as s:
            rows = s.scalars(
                select(GameRow)
                .where(GameRow.status.in_((WAITING, PLAYING)))
                .order_by(GameRow.created_at)
            ).all()
            return self._load(s, rows)

    def _summaries(self, s: Session, rows: Sequence[GameRow]) -> list[StoredGame]:
        """Games with their seats, without tokens, seeds or actions: safe to list."""
        ids = [row.id for row in rows]
        seats: dict[str, list[StoredSeat]] = {i: [] for i in ids}
        if ids:
            for seat in s.scalars(
                select(SeatRow).where(SeatRow.game_id.in_(ids)).order_by(SeatRow.seat)
            ):
                seats[seat.game_id].append(
                    StoredSeat(seat.seat, seat.name, None, seat.bot, seat.final_chips)
                )
        return [
            StoredGame(
                id=row.id,
                status=row.status,
                rules=dict(row.rules),
                seed=0,
                seats=seats[row.id],
                turn_timer=row.turn_timer,
                time_limit=row.time_limit,
                created_at=row.created_at,
                started_at=row.started_at,
                finished_at=row.finished_at,
                game=row.game,
                public=row.public,
                rematch_of=row.rematch_of,
                rounds_played=row.rounds_played,
            )
            for row in rows
        ]

    def people_games(self, keys: Collection[tuple[str, str]]) -> set[str]:
        """Of the games named in ``keys`` (``(game id, secret)`` pairs, the secrets a
        browser keeps), those whose people hold the secret: one of its persons' seat
        tokens, or its host's secret. Their private games are listed to them."""
        wanted: dict[str, set[str]] = {}
        for game_id, secret in keys:
            wanted.setdefault(game_id, set()).add(hash_secret(secret))
        if not wanted:
            return set()
        found: set[str] = set()
        with self._session() as s:
            for game_id, host in s.execute(
                select(GameRow.id, GameRow.host_hash).where(GameRow.id.in_(list(wanted)))
            ):
                if host is not None and host in wanted[game_id]:
                    found.add(game_id)
            for game_id, token in s.execute(
                select(SeatRow.game_id, SeatRow.token_hash).where(
                    SeatRow.game_id.in_(list(wanted)),
                    SeatRow.bot.is_(None),
                    SeatRow.token_hash.is_not(None),
                )
            ):
                if token in wanted[game_id]:
                    found.add(game_id)
        return found

    def finished_games(
        self, limit: int = 50, offset: int = 0, visible: Collection[str] = ()
    ) -> list[StoredGame]:
        """Games that are over (abandoned ones too), the latest first, with seats (no
        seeds, tokens or actions): the public ones, and the private ones of ``visible``
        (those the asker's secrets open: :meth:`people_games`)."""
        with self._session() as s:
            rows = s.scalars(
                select(GameRow)
                .where(GameRow.status.in_(OVER), _listed(visible))
                .order_by(GameRow.finished_at.desc(), GameRow.id)
                .limit(limit)
                .offset(offset)
            ).all()
            return self._summaries(s, rows)

    def games_of_player(
        self,
        name: str,
        limit: int = 500,
        bot: tuple[str, str] | None = None,
        visible: Collection[str] = (),
    ) -> list[StoredGame]:
        """Finished games in which a person's seat had exactly this name, the latest
        first; with ``bot`` (game, level), those of that game with a computer player of
        that level instead (a computer is known by its level, not its seat's name).
        Public games, and the private ones of ``visible``."""
        with self._session() as s:
            ids = select(SeatRow.game_id).join(GameRow, GameRow.id == SeatRow.game_id)
            if bot is None:
                ids = ids.where(SeatRow.name == name, SeatRow.bot.is_(None))
            else:
                ids = ids.where(GameRow.game == bot[0], SeatRow.bot == bot[1])
            ids = ids.where(GameRow.status == FINISHED, _listed(visible))
            rows = s.scalars(
                select(GameRow)
                .where(GameRow.id.in_(ids))
                .order_by(GameRow.finished_at.desc())
                .limit(limit)
            ).all()
            return self._summaries(s, rows)

    def player_names(
        self, limit: int = 200, visible: Collection[str] = ()
    ) -> list[tuple[str, int]]:
        """People's names seen in finished games (public ones, and the private ones of
        ``visible``), with how many games each played, most first (computer players are
        counted apart: :meth:`bot_levels`)."""
        with self._session() as s:
            count = func.count(SeatRow.game_id)
            rows = s.execute(
                select(SeatRow.name, count)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(GameRow.status == FINISHED, SeatRow.name.is_not(None))
                .where(SeatRow.bot.is_(None), _listed(visible))
                .group_by(SeatRow.name)
                .order_by(count.desc(), SeatRow.name)
                .limit(limit)
            ).all()
            return [(str(name), int(n)) for name, n in rows]

    def bot_levels(self, visible: Collection[str] = ()) -> list[tuple[str, str, int]]:
        """Each game's computer levels seen in finished games (public ones, and the
        private ones of ``visible``): (game, level, seats)."""
        with self._session() as s:
            count = func.count(SeatRow.game_id)
            rows = s.execute(
                select(GameRow.game, SeatRow.bot, count)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(GameRow.status == FINISHED, SeatRow.bot.is_not(None), _listed(visible))
                .group_by(GameRow.game, SeatRow.bot)
                .order_by(GameRow.game, SeatRow.bot)
            ).all()
            return [(str(game), str(level), int(n)) for game, level, n in rows]


__all__ = [
    "ABANDONED",
    "DEFAULT_DB_URL",
    "EXPIRED",
    "FINISHED",
    "OVER",
    "PLAYING",
    "WAITING",
    "Base",
    "ChatLine",
    "Fence",
    "GameRow",
    "SeatRow",
    "Storage",
    "StoredGame",
    "StoredSeat",
    "refuse_newer_schema",
    "utcnow",
]
