"""The casino: users, the ledger, tables, rounds and their logs, bets and payouts.

Ledger entries, transfers and payouts are append-only: triggers make the database
refuse any UPDATE or DELETE of them, whoever asks.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from baccara.server.db.migrations.versions import append_only

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


APPEND_ONLY = ("transfers", "ledger_entries", "payouts")


def upgrade() -> None:
    op.create_table(
        "casino_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("mode", sa.String(length=10), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("min_bet_cents", sa.BigInteger(), nullable=False),
        sa.Column("max_bet_cents", sa.BigInteger(), nullable=False),
        sa.Column("shoe", sa.String(length=12), nullable=False),
        sa.Column("penetration", sa.Float(), nullable=False),
        sa.Column("betting_seconds", sa.Float(), nullable=False),
        sa.Column("peek_seconds", sa.Float(), nullable=False),
        sa.Column("choose_seconds", sa.Float(), nullable=False),
        sa.Column("reveal_delay", sa.Float(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("shoe_started_nonce", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "settings",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=32), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("role", sa.String(length=10), nullable=False),
        sa.Column("client_seed", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.CheckConstraint("role IN ('admin', 'dealer', 'player')", name="role_known"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("username"),
    )
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("balance_cents", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("kind IN ('wallet', 'house', 'deposits', 'table')", name="kind_known"),
        sa.CheckConstraint(
            "kind NOT IN ('wallet', 'table') OR balance_cents >= 0", name="never_negative"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
        sa.UniqueConstraint("user_id"),
    )
    op.create_table(
        "idempotency_keys",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("response", sa.Text(), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("user_id", "key"),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("nonce", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("server_seed", sa.String(length=64), nullable=True),
        sa.Column("server_seed_hash", sa.String(length=64), nullable=True),
        sa.Column("client_seed", sa.String(length=64), nullable=True),
        sa.Column("opened_at", sa.Float(), nullable=False),
        sa.Column("ended_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["casino_tables.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "nonce", name="one_round_a_nonce"),
    )
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.create_index("rounds_by_table", ["table_id", "id"], unique=False)

    op.create_table(
        "seats",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["casino_tables.id"],
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("table_id", "seat"),
        sa.UniqueConstraint("table_id", "user_id", name="one_seat_a_player"),
    )
    op.create_table(
        "bets",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("spot", sa.String(length=20), nullable=False),
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.CheckConstraint("status IN ('placed', 'withdrawn')", name="status_known"),
        sa.CheckConstraint("amount_cents > 0", name="stake_positive"),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["rounds.id"],
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["casino_tables.id"],
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("bets", schema=None) as batch_op:
        batch_op.create_index("bets_by_round", ["round_id"], unique=False)
        batch_op.create_index("bets_by_user", ["user_id", "round_id"], unique=False)

    op.create_table(
        "round_events",
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["rounds.id"],
        ),
        sa.PrimaryKeyConstraint("round_id", "seq"),
    )
    op.create_table(
        "transfers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=120), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["rounds.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("transfer_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("balance_after", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
        ),
        sa.ForeignKeyConstraint(
            ["transfer_id"],
            ["transfers.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("ledger_entries", schema=None) as batch_op:
        batch_op.create_index("entries_by_account", ["account_id", "id"], unique=False)

    op.create_table(
        "payouts",
        sa.Column("bet_id", sa.String(length=32), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(length=10), nullable=False),
        sa.Column("won_cents", sa.BigInteger(), nullable=False),
        sa.Column("returned_cents", sa.BigInteger(), nullable=False),
        sa.Column("commission_cents", sa.BigInteger(), nullable=False),
        sa.Column("transfer_id", sa.Integer(), nullable=False),
        sa.CheckConstraint("returned_cents >= 0", name="returned_not_negative"),
        sa.ForeignKeyConstraint(
            ["bet_id"],
            ["bets.id"],
        ),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["rounds.id"],
        ),
        sa.ForeignKeyConstraint(
            ["transfer_id"],
            ["transfers.id"],
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("bet_id"),
        sa.UniqueConstraint("transfer_id"),
    )

    for table in APPEND_ONLY:
        append_only(table)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in APPEND_ONLY:
            op.execute(f"DROP TRIGGER {table}_append_only ON {table}")
            op.execute(f"DROP FUNCTION {table}_append_only()")
    op.drop_table("payouts")
    with op.batch_alter_table("ledger_entries", schema=None) as batch_op:
        batch_op.drop_index("entries_by_account")

    op.drop_table("ledger_entries")
    op.drop_table("transfers")
    op.drop_table("round_events")
    with op.batch_alter_table("bets", schema=None) as batch_op:
        batch_op.drop_index("bets_by_user")
        batch_op.drop_index("bets_by_round")

    op.drop_table("bets")
    op.drop_table("seats")
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_index("rounds_by_table")

    op.drop_table("rounds")
    op.drop_table("idempotency_keys")
    op.drop_table("accounts")
    op.drop_table("users")
    op.drop_table("settings")
    op.drop_table("casino_tables")
