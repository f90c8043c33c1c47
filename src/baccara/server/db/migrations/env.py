"""Alembic's entry point: migrate the database the server is given, from the models' metadata."""

from __future__ import annotations

from alembic import context

from baccara.server.db.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        from sqlalchemy import create_engine

        engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
        with engine.begin() as connection:
            context.configure(connection=connection, target_metadata=target_metadata,
                              render_as_batch=True)  # fmt: skip
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=True)  # fmt: skip
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
