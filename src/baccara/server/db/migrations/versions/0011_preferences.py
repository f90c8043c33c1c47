"""A player's preferences: sound on or off, its volume, the language of the pages.

One row per player who changed any of them (``preferences``); a player without a row has
the defaults (sound off, volume 60, the browser's language). A new table, the same on
SQLite as on PostgreSQL.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "preferences",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("sound", sa.Boolean(), server_default="0", nullable=False),
        sa.Column("volume", sa.Integer(), server_default="60", nullable=False),
        sa.Column("language", sa.String(length=16), nullable=True),
        sa.CheckConstraint("volume >= 0 AND volume <= 100", name="volume_in_range"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("user_id"),
    )


def downgrade() -> None:
    op.drop_table("preferences")
