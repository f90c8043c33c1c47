"""The live tables each dealer is assigned to: a dealer acts only at those.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dealer_tables",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("casino_tables.id"), primary_key=True),
        sa.Column("assigned_at", sa.Float(), nullable=False),
    )
    op.create_index("dealers_by_table", "dealer_tables", ["table_id"])


def downgrade() -> None:
    op.drop_index("dealers_by_table", table_name="dealer_tables")
    op.drop_table("dealer_tables")
