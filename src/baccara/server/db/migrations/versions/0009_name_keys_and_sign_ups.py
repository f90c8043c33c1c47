"""Usernames unique without regard to case or look-alikes, and sign-ups counted per address.

Each user gets the key of their name (:func:`baccara.server.db.usernames.name_key`),
kept unique. Names made before that are kept as they are: where two existing users
share a key (``boss`` and ``BOSS``), the later one's key is suffixed with its id, so
both go on signing in and neither name can be taken again. The column is added without
NOT NULL, a plain ADD COLUMN on SQLite as on PostgreSQL: the table every wallet and bet
points at is never copied.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from baccara.server.db.usernames import name_key

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("name_key", sa.String(length=80), nullable=True))
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("username", sa.String),
                     sa.column("name_key", sa.String))  # fmt: skip
    connection = op.get_bind()
    taken: set[str] = set()
    for user_id, username in connection.execute(
        sa.select(users.c.id, users.c.username).order_by(users.c.id)
    ):
        key = name_key(username)
        if key in taken:
            key = f"{key}#{user_id}"
        taken.add(key)
        connection.execute(users.update().where(users.c.id == user_id).values(name_key=key))
    op.create_index("users_by_name_key", "users", ["name_key"], unique=True)
    op.create_table(
        "sign_ups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("sign_ups_by_address", "sign_ups", ["address", "at"], unique=False)


def downgrade() -> None:
    op.drop_index("sign_ups_by_address", table_name="sign_ups")
    op.drop_table("sign_ups")
    op.drop_index("users_by_name_key", table_name="users")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("name_key")
