"""Each table's squeeze: whether a Punto Banco table deals its hands for the highest
bettors to squeeze, and how long a squeeze lasts (Mini RedGreen's too).

Tables opened before the squeeze keep turning every card themselves (``false``) and take
the default 20 seconds should one be switched on. A plain ADD COLUMN with a constant
default, on SQLite as on PostgreSQL.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "casino_tables",
        sa.Column("squeeze", sa.Boolean(), server_default=sa.false(), nullable=False),
    )
    op.add_column(
        "casino_tables",
        sa.Column("squeeze_seconds", sa.Float(), server_default="20", nullable=False),
    )


def downgrade() -> None:
    with op.batch_alter_table("casino_tables", schema=None) as batch_op:
        batch_op.drop_column("squeeze_seconds")
        batch_op.drop_column("squeeze")
