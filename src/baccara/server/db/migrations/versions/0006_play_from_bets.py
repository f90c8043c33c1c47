"""Play sessions counted from bets: each session keeps the time of its latest bet.

A session used to run from a player's first open table connection to their last, so
betting through the API alone never started one and a reconnection began a fresh one.
It now starts with a bet and lasts while bets keep coming; ``last_play_at`` is what
says when it ends. A session stored before keeps its end (or its start, if it never
ended) as its last play: it counts as it did, and is over.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "play_sessions",
        sa.Column("last_play_at", sa.Float(), server_default="0", nullable=False),
    )
    op.execute("UPDATE play_sessions SET last_play_at = COALESCE(ended_at, started_at)")
    op.execute("UPDATE play_sessions SET ended_at = last_play_at WHERE ended_at IS NULL")


def downgrade() -> None:
    with op.batch_alter_table("play_sessions", schema=None) as batch_op:
        batch_op.drop_column("last_play_at")
