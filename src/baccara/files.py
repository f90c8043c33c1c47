"""Reading a file a user names: only a regular file, and only so much of it.

A paytable (``--option paytable=FILE``) and a round record (``baccara verify FILE``)
are read here. ``/dev/zero`` would read without end, a FIFO with no writer would
wait for ever, a folder cannot be read at all: each is refused at once, and a file
larger than the caller's limit is refused after reading one byte past it.
"""

from __future__ import annotations

import os
import stat

from baccara.errors import BaccaraError, shown


class UnreadableFile(BaccaraError):
    """A file that was not read: ``reason`` says why, ``missing`` when there is none."""

    def __init__(self, path: str, reason: str, *, missing: bool = False) -> None:
        self.path = path
        self.reason = reason
        self.missing = missing
        super().__init__(f"cannot read {shown(path)}: {reason}")


def read_regular_file(path: str, limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes.

    Opened without blocking (a FIFO with no writer would wait for ever) and checked
    with ``fstat`` on the open file, so what is checked is what is read.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise UnreadableFile(path, "no such file", missing=True) from None
    except OSError as error:
        raise UnreadableFile(path, error.strerror or "cannot be opened") from None
    except ValueError:  # a NUL character: no file has that name
        raise UnreadableFile(path, "a path has no NUL character", missing=True) from None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise UnreadableFile(path, "not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(descriptor, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise UnreadableFile(path, error.strerror or "cannot be read") from None
    finally:
        os.close(descriptor)
    if size > limit:
        raise UnreadableFile(path, f"larger than {_size_text(limit)}")
    return b"".join(chunks)


def _size_text(limit: int) -> str:
    if limit % (1024 * 1024) == 0:
        return f"{limit // (1024 * 1024)} MiB"
    if limit % 1024 == 0:
        return f"{limit // 1024} KiB"
    return f"{limit:,} bytes"
