"""Tokens that can be revoked, and WebSocket tickets used once.

Each user gets a token generation (every existing user starts at 0, so the tokens
issued before keep working until they expire); a token signed out alone is kept in
``revoked_tokens`` until it would have expired, and a WebSocket ticket that opened a
socket in ``used_tickets`` until it expires.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "users",
        sa.Column("token_generation", sa.Integer(), server_default="0", nullable=False),
    )
    op.create_table(
        "revoked_tokens",
        sa.Column("token_id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("token_id"),
    )
    op.create_index("revoked_by_user", "revoked_tokens", ["user_id", "expires"])
    op.create_table(
        "used_tickets",
        sa.Column("nonce", sa.String(length=32), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("nonce"),
    )
    op.create_index("used_tickets_by_expiry", "used_tickets", ["expires"])


def downgrade() -> None:
    op.drop_index("used_tickets_by_expiry", table_name="used_tickets")
    op.drop_table("used_tickets")
    op.drop_index("revoked_by_user", table_name="revoked_tokens")
    op.drop_table("revoked_tokens")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("token_generation")
