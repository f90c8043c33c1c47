"""``python -m baccara`` runs the CLI."""

from baccara.cli import run

run()
