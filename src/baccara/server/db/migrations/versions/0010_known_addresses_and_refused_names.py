"""The addresses a user signed in from, and sign-ups refused for their name, counted.

``sign_ins`` keeps each username's latest successful sign-in from each address, so an
address its owner uses is not made to wait while a username is under attack from others.
``sign_ups.refused`` marks a sign-up refused because its name was taken, a look-alike or
reserved: those are counted too (asking which names exist is limited), apart from the
accounts made. A plain ADD COLUMN on SQLite as on PostgreSQL.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sign_ins",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=64), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("sign_ins_by_username", "sign_ins", ["username", "address"], unique=False)
    op.add_column(
        "sign_ups", sa.Column("refused", sa.Boolean(), server_default="0", nullable=False)
    )


def downgrade() -> None:
    with op.batch_alter_table("sign_ups", schema=None) as batch_op:
        batch_op.drop_column("refused")
    op.drop_index("sign_ins_by_username", table_name="sign_ins")
    op.drop_table("sign_ins")
