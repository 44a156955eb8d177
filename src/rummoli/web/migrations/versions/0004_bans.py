"""What the host removed from a table (``remove``): names, seat tokens' and browsers'
hashes, as JSON, so that a removed person cannot sit again or watch, after a restart too.

Tables made before this revision have removed nobody (null).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa

from rummoli.web.migrations.parts import games_column

revision = "0004"
down_revision = "0003"

upgrade, downgrade = games_column("banned", sa.JSON())
