"""What pytest collects: Alembic's env.py runs only inside a migration (``context.config``
exists nowhere else), so the doctest collection of ``src/baccara`` leaves it out."""

collect_ignore = ["src/baccara/server/migrations/env.py"]
