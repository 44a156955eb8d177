"""Several server processes on one database: which process owns which unfinished table
(``leases``: owner, expiry, and the epoch every write of the table's actions is checked
against), and the processes alive (``workers``: address and load). See
:mod:`rummoli.web.leases`.

Tables of before have no lease: the first process to start takes them.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from rummoli.web.migrations.parts import create_table, game_key

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    create_table(
        "leases",
        game_key(),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        indexed=("owner", "expires_at"),
    )
    create_table(
        "workers",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("address", sa.String(200), nullable=False),
        sa.Column("tables", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.DateTime(), nullable=False),
        indexed=("seen_at",),
    )


def downgrade() -> None:
    op.drop_index("ix_workers_seen_at", "workers")
    op.drop_table("workers")
    op.drop_index("ix_leases_expires_at", "leases")
    op.drop_index("ix_leases_owner", "leases")
    op.drop_table("leases")
