"""The rounds a game played, kept when it ends (the history said the agreed number).

Games that ended before this revision keep no number (null): their history shows none,
rather than the agreed rounds, which a game ended early did not play.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa

from rummoli.web.migrations.parts import games_column

revision = "0003"
down_revision = "0002"

upgrade, downgrade = games_column("rounds_played", sa.Integer())
