"""The ``baccara`` command: thin Typer apps over the library, one module per command.

Every refusal (unknown game, bad option, malformed input) prints one line on
stderr and exits with status 2; no traceback reaches a user. Modules here import
only what their command needs, when it runs: ``baccara --help`` loads no numpy.
"""

from baccara.cli.app import app, main, run

__all__ = ["app", "main", "run"]
