"""The tables as the server made them before it had migrations: games, seats, actions.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from rummoli.web.migrations.parts import create_table, game_key

revision = "0001"
down_revision = None


def upgrade() -> None:
    create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("turn_timer", sa.Float(), nullable=False),
        sa.Column("time_limit", sa.Integer(), nullable=False),
        sa.Column("end_requested_after", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        indexed=("status", "finished_at"),
    )
    create_table(
        "seats",
        game_key(),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("final_chips", sa.Integer(), nullable=True),
        indexed=("name",),
    )
    create_table(
        "actions",
        game_key(),
        sa.Column("idx", sa.Integer(), primary_key=True),
        sa.Column("action", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_table("games")
