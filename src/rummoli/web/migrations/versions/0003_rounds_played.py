"""The rounds a game played, kept when it ends (the history said the agreed number).

Games that ended before this revision keep no number (null): their history shows none,
rather than the agreed rounds, which a game ended early did not play.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rounds_played", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rounds_played")
