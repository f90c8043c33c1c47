"""Each server process's place in nginx's hashed upstream (``2/3``): the tables nginx
routes to a process are the ones it deals (``baccara serve --upstream``).

Processes that started before say nothing (an empty place) and share the tables fairly,
as before. A plain ADD COLUMN with a constant default, on SQLite as on PostgreSQL.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "nodes", sa.Column("upstream", sa.String(length=8), server_default="", nullable=False)
    )


def downgrade() -> None:
    with op.batch_alter_table("nodes", schema=None) as batch_op:
        batch_op.drop_column("upstream")
