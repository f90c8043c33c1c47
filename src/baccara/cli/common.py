"""What every command shares: the console, the game argument, reading ``--option KEY=VALUE``,
checking where output goes, and the exit codes."""

from __future__ import annotations

import functools
import os
import pathlib
import sys
from collections.abc import Callable
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from baccara.errors import BaccaraError, InvalidOption, shown
from baccara.games import GAMES, GameSpec
from baccara.options import field_of, known_options, option_name

EXIT_FAILURE = 1
"""The output could not be written (a full disk): not the user's input at fault."""
EXIT_USAGE = 2
"""Every refusal: one line on stderr and this status."""
EXIT_INTERRUPTED = 130
"""Ctrl-C, as shells report it."""

P = ParamSpec("P")
T = TypeVar("T")

GameArgument = Annotated[
    str,
    typer.Argument(
        metavar="GAME",
        help=f"The game: {', '.join(GAMES)}.",
        show_default=False,
    ),
]
"""The GAME every game command takes, its choices listed in ``--help``."""

RuleOptions = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", metavar="KEY=VALUE", help="A rule option (repeatable)."),
]
"""``--option KEY=VALUE``, read by :func:`rule_options`."""

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]


MIN_WIDTH = 40
"""The narrowest output the tables are laid out for."""


def console() -> Console:
    """Standard output for Rich: no emoji codes or highlighting read into the text printed,
    and never narrower than :data:`MIN_WIDTH` (``COLUMNS=0`` made Rich print nothing)."""
    out = Console(highlight=False, emoji=False)
    if out.width < MIN_WIDTH:
        out.width = MIN_WIDTH
    return out


class Interrupted(Exception):
    """Ctrl-C during a command. :func:`baccara.cli.app.main` says so in one line (status 130);
    Typer alone would exit 130 without a word."""


def interruptible(command: Callable[P, T]) -> Callable[P, T]:
    """``command`` with Ctrl-C turned into :class:`Interrupted` (its signature kept for Typer)."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return command(*args, **kwargs)
        except KeyboardInterrupt:
            raise Interrupted from None

    return wrapper


def parse_assignments(assignments: list[str] | None, flag: str = "--option") -> dict[str, str]:
    """``["decks=6", "tie-pays=9"]`` → ``{"decks": "6", "tie-pays": "9"}``; a key twice is refused.

    ``tie-pays`` and ``tie_pays`` are the same option, so giving both is giving it twice.
    ``flag`` is what the refusals call the option the assignments came with.
    """
    options: dict[str, str] = {}
    seen: dict[str, str] = {}
    for item in assignments or []:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise BaccaraError(f"{flag} wants KEY=VALUE, got {shown(item)}")
        field = key.replace("-", "_")
        if field in seen:
            raise InvalidOption(key, f"given twice ({flag} {seen[field]}=… and {flag} {key}=…)")
        seen[field] = key
        options[key] = value.strip()
    return options


def rule_options(
    spec: GameSpec, assignments: list[str] | None, given_by: str = "--option", **flags: str | None
) -> dict[str, Any]:
    """The rule options of a command for ``spec``'s game: its own flags, then each ``--option``
    (or each assignment of the option ``given_by`` names: a ``--variant``).

    A flag is named as typed (``--tie-pays``) when it is refused: for a value out of
    range, or for a game it does not apply to. An option given both as a flag and as
    ``--option`` is refused rather than one silently winning. ``--option
    paytable=FILE`` names a file; it is read here, at the command line, so the rules
    receive a paytable and never touch the file system.
    """
    from baccara.paytables import with_paytable_file

    parsers = spec.rules.OPTIONS
    options: dict[str, Any] = {}
    flagged: dict[str, str] = {}
    for field, value in flags.items():
        if value is None:
            continue
        flag = f"--{option_name(field)}"
        if field not in parsers:
            raise InvalidOption(
                flag, f"does not apply to {spec.id}; its options are: {known_options(parsers)}"
            )
        options[field] = parsers[field](flag, value)
        flagged[field] = flag
    for key, value in parse_assignments(assignments, given_by).items():
        field = field_of(spec.id, key, parsers)
        if field in flagged:
            raise InvalidOption(key, f"given twice ({flagged[field]} and {given_by} {key}=…)")
        options[key] = value
    return with_paytable_file(options)


def check_destination(
    path: pathlib.Path, flag: str, suffixes: tuple[str, ...] = ()
) -> pathlib.Path:
    """Refuse, before any work is done, a file that cannot be written.

    A folder, a file in a folder that does not exist or cannot be written, a name
    without one of ``suffixes`` (when given): each is refused at once, not after the work.
    """
    text = str(path)
    if "\0" in text:
        raise InvalidOption(flag, f"a file name has no NUL character, got {shown(text)}")
    if suffixes and path.suffix.lower() not in suffixes:
        raise InvalidOption(flag, f"write a {' or '.join(suffixes)} file, got {shown(path.name)}")
    try:
        if path.is_dir():
            raise InvalidOption(flag, f"{text!r} is a folder; name a file to write")
        if path.is_fifo() or path.is_socket():  # writing would wait for a reader for ever
            raise InvalidOption(flag, f"{text!r} is a pipe or a socket; name a file to write")
        folder = path.parent
        if not folder.is_dir():
            raise InvalidOption(flag, f"no folder {str(folder)!r} to write {path.name!r} in")
        writable = os.access(path if path.exists() else folder, os.W_OK)
    except OSError as error:  # a name too long for the file system, a loop of links
        raise InvalidOption(flag, f"cannot write {text!r}: {error.strerror}") from None
    if not writable:
        raise InvalidOption(flag, f"cannot write {text!r}: permission denied")
    return path


def write_file(path: pathlib.Path, text: str, flag: str) -> None:
    """Write ``text`` to ``path``; a failure (a full disk) is refused in one line naming ``flag``."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise InvalidOption(flag, f"cannot write {str(path)!r}: {error.strerror}") from None


def stdin_is_terminal() -> bool:
    """Whether a person types at standard input (``False`` when it is closed: ``<&-``)."""
    return sys.stdin is not None and sys.stdin.isatty()


def read_line(flag: str, limit: int, *, errors: str = "strict") -> str | None:
    """The next line of standard input without its line ending, or ``None`` at its end.

    No more than ``limit`` characters are read: a longer line is refused, never read
    whole (a line with no end would fill the memory), and so is a line that is not
    UTF-8 text — unless ``errors="replace"`` makes its stray bytes U+FFFD. Refusals
    name ``flag``, the option that reads the input.
    """
    stream = sys.stdin
    if stream is None:  # standard input closed
        return None
    binary = getattr(stream, "buffer", None)
    cap = 4 * limit + 2  # a character is at most 4 bytes in UTF-8; then "\r\n"
    if binary is None:  # text with no bytes behind it (a test's StringIO)
        line = stream.readline(cap)
    else:
        raw = binary.readline(cap)
        if len(raw) == cap and not raw.endswith(b"\n"):
            raise InvalidOption(flag, f"a line of standard input is over {limit} characters")
        try:
            line = raw.decode("utf-8", errors)
        except UnicodeDecodeError:
            raise InvalidOption(flag, "standard input is not UTF-8 text") from None
    if not line:
        return None
    text = line.removesuffix("\n").removesuffix("\r")
    if len(text) > limit:
        raise InvalidOption(flag, f"a line of standard input is over {limit} characters")
    return text
