"""The operator's audit trail and the player's protections: loss limits, self-exclusion,
play sessions and reality checks.

The audit trail, the loss limits and the self-exclusions are append-only, like the
ledger: the database refuses to change or remove a row of them.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from baccara.server.db.migrations.versions import append_only

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


APPEND_ONLY = ("audit_log", "loss_limits", "self_exclusions")


def upgrade() -> None:
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("actor", sa.String(length=32), nullable=False),
        sa.Column("role", sa.String(length=10), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("target", sa.String(length=80), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("details", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.create_index("audit_by_time", ["at"], unique=False)

    op.create_table(
        "loss_limits",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("period", sa.String(length=5), nullable=False),
        sa.Column("limit_cents", sa.BigInteger(), nullable=True),
        sa.Column("set_at", sa.Float(), nullable=False),
        sa.Column("effective_at", sa.Float(), nullable=False),
        sa.CheckConstraint("period IN ('day', 'week', 'month')", name="period_known"),
        sa.CheckConstraint("limit_cents IS NULL OR limit_cents >= 0", name="limit_not_negative"),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("loss_limits", schema=None) as batch_op:
        batch_op.create_index("limits_by_user", ["user_id", "period", "effective_at"], unique=False)

    op.create_table(
        "play_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("ended_at", sa.Float(), nullable=True),
        sa.Column("acknowledged_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("play_sessions", schema=None) as batch_op:
        batch_op.create_index("sessions_by_user", ["user_id", "started_at"], unique=False)

    op.create_table(
        "self_exclusions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.Float(), nullable=False),
        sa.Column("ends_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("self_exclusions", schema=None) as batch_op:
        batch_op.create_index("exclusions_by_user", ["user_id", "ends_at"], unique=False)

    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reality_check_minutes", sa.Integer(), nullable=True))

    for table in APPEND_ONLY:
        append_only(table)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in APPEND_ONLY:
            op.execute(f"DROP TRIGGER {table}_append_only ON {table}")
            op.execute(f"DROP FUNCTION {table}_append_only()")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("reality_check_minutes")

    with op.batch_alter_table("self_exclusions", schema=None) as batch_op:
        batch_op.drop_index("exclusions_by_user")

    op.drop_table("self_exclusions")
    with op.batch_alter_table("play_sessions", schema=None) as batch_op:
        batch_op.drop_index("sessions_by_user")

    op.drop_table("play_sessions")
    with op.batch_alter_table("loss_limits", schema=None) as batch_op:
        batch_op.drop_index("limits_by_user")

    op.drop_table("loss_limits")
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_index("audit_by_time")

    op.drop_table("audit_log")
