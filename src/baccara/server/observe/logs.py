"""The server's log: structlog events, one stream for the casino, uvicorn and the libraries.

:func:`configure` runs once, when ``baccara serve`` starts: every event goes to standard
error, as one JSON object a line (:attr:`~baccara.server.settings.LogFormat.JSON`, what a
log collector reads) or as a line a person reads in a terminal (``CONSOLE``). The standard
library's loggers — uvicorn's, SQLAlchemy's, the casino's own ``logging`` calls — are
rendered by the same formatter, so there is one stream in one format.

An event is a name and fields: ``log.info("round settled", table=3, round=17, bets=12)``.
The fields name the table, the round and the user where they apply. What a player must
not know yet never reaches the log: no card of a round in play, no server seed before
its round is over, no token, password, cookie or query string. The casino's own events
are written so; what others write (uvicorn names each WebSocket's path and query string,
where the browser's token travels) is cleaned by the handler before it is written
(:func:`hide`), and a traceback shows its frames, never their local variables.

The server's loggers are configured on their own (:func:`get_logger`): importing the
server leaves structlog's global configuration as it was.
"""

from __future__ import annotations

import logging
import re
import sys
from typing import TextIO

import structlog
from structlog.typing import Processor

from baccara.server.settings import LogFormat, LogLevel

NAME = "baccara.server"
"""The casino's logger: every event of its own is logged under this name."""

LEVELS = {
    LogLevel.DEBUG: logging.DEBUG,
    LogLevel.INFO: logging.INFO,
    LogLevel.WARNING: logging.WARNING,
    LogLevel.ERROR: logging.ERROR,
}
UVICORN = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")
"""uvicorn's loggers, at the casino's level; every other library's at warning or above
(an HTTP client's info line would hold a URL and its query string)."""


SHARED: list[Processor] = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_log_level,
    structlog.stdlib.add_logger_name,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
]
"""What every event gets, the casino's and the standard library's: its level, its
logger's name, the time (UTC)."""

EVENTS: list[Processor] = [
    structlog.stdlib.filter_by_level,
    *SHARED,
    structlog.stdlib.PositionalArgumentsFormatter(),
    structlog.processors.StackInfoRenderer(),
    structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
]
"""What the casino's own events go through on their way to the standard library's
logging, whose handler :func:`configure` installs: until then (a test, a library use of
the server) they are records like any other library's, handled as the program's own
logging configuration says."""


def get_logger(name: str = NAME) -> structlog.stdlib.BoundLogger:
    """A structlog logger: ``log.info(event, **fields)``.

    It is configured on its own (:data:`EVENTS`), not through structlog's global
    configuration, which stays as whoever imports the server package has it.
    """
    logger: structlog.stdlib.BoundLogger = structlog.wrap_logger(
        logging.getLogger(name),
        processors=EVENTS,
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    return logger


QUERY = re.compile(r"(/[^\s?\"'\\]*)\?[^\s\"'\\]+")
"""A path or URL and its query string (a WebSocket's token travels in it)."""
TOKEN = re.compile(r"(token=)[^\s&\"'\\]+", re.IGNORECASE)
"""``token=…`` anywhere else (a client's own text, an exception's message)."""
HIDDEN = "[hidden]"


def hide(text: str) -> str:
    """``text`` without the query string of any path or URL in it, nor any token."""
    return TOKEN.sub(r"\g<1>" + HIDDEN, QUERY.sub(r"\g<1>", text))


class _Hide(logging.Filter):
    """Takes every query string and token out of a record before it is written.

    uvicorn logs each WebSocket it accepts or refuses with its path and query string
    (``"WebSocket /ws/tables/1?token=…" [accepted]``), the browser's token included; a
    library may name a URL with its own. The record's message is rewritten, so no
    handler (no formatter, no test's capture) sees what it held.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, dict):  # a structlog event: its fields
            record.msg = {k: hide(v) if isinstance(v, str) else v for k, v in record.msg.items()}
            return True
        try:
            message = record.getMessage()
        except Exception:  # a malformed call: logging reports it as it would
            return True
        hidden = hide(message)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True


class _Formatter(structlog.stdlib.ProcessorFormatter):
    """The line as rendered, its traceback too, with no query string or token left."""

    def format(self, record: logging.LogRecord) -> str:
        return hide(super().format(record))


class _Handler(logging.StreamHandler[TextIO]):
    """The handler :func:`configure` installs (and replaces when called again)."""


_saved: dict[str, tuple[int, bool, list[logging.Handler]]] = {}
"""Each logger :func:`configure` changed, as it was before: its level, whether it
propagated, its handlers."""


def format_for(stream: TextIO, chosen: LogFormat | None) -> LogFormat:
    """``chosen``, or without one: readable lines on a terminal, JSON lines elsewhere."""
    if chosen is not None:
        return chosen
    return LogFormat.CONSOLE if stream.isatty() else LogFormat.JSON


def configure(
    level: LogLevel = LogLevel.INFO, chosen: LogFormat | None = None, stream: TextIO | None = None
) -> logging.Handler:
    """Send every event at ``level`` or above to ``stream`` (standard error) in one format.

    Called again, it replaces what it installed before (a test's stream, another level).
    Returns the handler, which :func:`unconfigure` takes away.
    """
    stream = stream or sys.stderr
    shape = format_for(stream, chosen)
    rendering: list[Processor] = [structlog.stdlib.ProcessorFormatter.remove_processors_meta]
    if shape is LogFormat.JSON:
        rendering += [structlog.processors.format_exc_info, structlog.processors.JSONRenderer()]
    else:
        # A plain traceback: rich's (structlog's default when rich is installed) prints
        # each frame's local variables, a token or a round's server seed among them.
        rendering.append(structlog.dev.ConsoleRenderer(
            colors=stream.isatty(), exception_formatter=structlog.dev.plain_traceback
        ))  # fmt: skip
    handler = _Handler(stream)
    handler.addFilter(_Hide())
    handler.setFormatter(_Formatter(foreign_pre_chain=SHARED, processors=rendering))
    unconfigure()
    for name in ("", "baccara", *UVICORN):
        logger = logging.getLogger(name)
        _saved[name] = (logger.level, logger.propagate, list(logger.handlers))
    root = logging.getLogger()
    root.addHandler(handler)
    chosen_level = LEVELS[level]
    root.setLevel(max(chosen_level, logging.WARNING))  # the libraries: their warnings
    logging.getLogger("baccara").setLevel(chosen_level)
    for name in UVICORN:  # uvicorn's own handlers would write a second stream
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
        logger.setLevel(chosen_level)
    # uvicorn's access line names the raw path and its query string (a WebSocket's
    # token): the casino's own "request" event replaces it.
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)
    return handler


def unconfigure() -> None:
    """Take away the handler :func:`configure` installed, if any, and put the loggers'
    levels and handlers back as they were."""
    root = logging.getLogger()
    for handler in [h for h in root.handlers if isinstance(h, _Handler)]:
        root.removeHandler(handler)
    for name, (level, propagate, handlers) in _saved.items():
        logger = logging.getLogger(name)
        logger.setLevel(level)
        logger.propagate = propagate
        logger.handlers[:] = [h for h in handlers if not isinstance(h, _Handler)]
    _saved.clear()
