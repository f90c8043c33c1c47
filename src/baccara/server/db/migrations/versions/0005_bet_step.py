"""Each table's bet step: every stake is a multiple of it.

Tables opened before there was a step keep taking any whole number of cents (1), as
they did, so their stored rounds and limits stay valid.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN with a constant default, on SQLite as on PostgreSQL: the table
    # the rounds, seats and leases point at is never copied.
    op.add_column(
        "casino_tables",
        sa.Column("bet_step_cents", sa.BigInteger(), server_default="1", nullable=False),
    )


def downgrade() -> None:
    with op.batch_alter_table("casino_tables", schema=None) as batch_op:
        batch_op.drop_column("bet_step_cents")
