"""What the host removed from a table (``remove``): names, seat tokens' and browsers'
hashes, as JSON, so that a removed person cannot sit again or watch, after a restart too.

Tables made before this revision have removed nobody (null).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("banned", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("banned")
