"""The migrations, in order. What several of them share lives here."""

from __future__ import annotations

from alembic import op


def append_only(table: str) -> None:
    """Make the database itself refuse to change or remove a row of ``table``."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            f"""
            CREATE FUNCTION {table}_append_only() RETURNS trigger AS $$
            BEGIN RAISE EXCEPTION '{table} rows are append-only'; END;
            $$ LANGUAGE plpgsql"""
        )
        op.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}"
            f" FOR EACH ROW EXECUTE FUNCTION {table}_append_only()"
        )
        return
    for action in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table}"
            f" BEGIN SELECT RAISE(ABORT, '{table} rows are append-only'); END"
        )
