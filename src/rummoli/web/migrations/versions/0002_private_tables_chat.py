"""64-bit actions; private tables (invitation, spectator and host secrets); the chat.

Tables made before this revision were all listed in the lobby and open to anyone, so
they stay public; new tables are private unless their creator says otherwise.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from rummoli.web.migrations.parts import create_table, game_key

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.alter_column(
            "action", existing_type=sa.Integer(), type_=sa.BigInteger(), existing_nullable=False
        )
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("watch_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("host_hash", sa.String(64), nullable=True))
        batch.add_column(
            sa.Column(
                "players_chat_public", sa.Boolean(), nullable=False, server_default=sa.false()
            )
        )
        batch.add_column(sa.Column("rematch_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("rematch_of", sa.String(32), nullable=True))
    games = sa.table("games", sa.column("public", sa.Boolean()))
    op.execute(games.update().values(public=True))
    create_table(
        "chat",
        game_key(),
        sa.Column("idx", sa.Integer(), primary_key=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("sender", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("text", sa.String(1200), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat")
    with op.batch_alter_table("games") as batch:
        for name in (
            "rematch_of",
            "rematch_id",
            "players_chat_public",
            "host_hash",
            "watch_hash",
            "invite_hash",
            "public",
        ):
            batch.drop_column(name)
    with op.batch_alter_table("actions") as batch:
        batch.alter_column(
            "action", existing_type=sa.BigInteger(), type_=sa.Integer(), existing_nullable=False
        )
