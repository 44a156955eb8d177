"""What the revisions of ``versions/`` share: the column that ties a row to its game, a
table made with its indexes, and a revision that only adds a column to ``games``.

A revision, once released, must make the same schema forever (a database upgraded by
it then and one upgraded now must not differ), and these helpers are part of every
revision that calls them: they never change either. A revision that needs something
else writes it out, or gets a helper of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

#: A revision's two functions, as Alembic calls them.
Step = Callable[[], None]


def game_key() -> sa.Column[str]:
    """``game_id``: the game a row is part of, the first part of the row's primary key;
    the row is deleted with its game. (A new column each call: a column belongs to one
    table.)"""
    return sa.Column(
        "game_id",
        sa.String(32),
        sa.ForeignKey("games.id", ondelete="CASCADE"),
        primary_key=True,
    )


def create_table(name: str, *columns: sa.Column[Any], indexed: Sequence[str] = ()) -> None:
    """Create the table ``name``, then an index on each column of ``indexed``, named
    ``ix_<table>_<column>`` as the models' ``index=True`` names it (so that the
    migrations and ``create_all`` make the same schema)."""
    op.create_table(name, *columns)
    for column in indexed:
        op.create_index(f"ix_{name}_{column}", name, [column])


def games_column(name: str, type_: sa.types.TypeEngine[Any]) -> tuple[Step, Step]:
    """The upgrade and the downgrade of a revision that adds the column ``name`` to
    ``games`` (null in the rows of before: they never had it) and drops it again."""

    def upgrade() -> None:
        with op.batch_alter_table("games") as batch:
            batch.add_column(sa.Column(name, type_, nullable=True))

    def downgrade() -> None:
        with op.batch_alter_table("games") as batch:
            batch.drop_column(name)

    return upgrade, downgrade


__all__ = ["Step", "create_table", "game_key", "games_column"]
