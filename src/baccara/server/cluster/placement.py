"""Which process deals which table when nginx routes each table by its id.

Behind the shipped nginx configuration (``deploy/nginx/baccara.conf``) every request and
socket of one table — ``/api/tables/{id}/…``, ``/ws/tables/{id}`` — goes to the server
that ``hash $baccara_table`` picks in the ``baccara_tables`` upstream. A process started
with ``--upstream 2/3`` says it is the second of that upstream's three servers, and so
deals the tables nginx sends it: a bet is answered where it lands, never forwarded over
a second hop. The forwarder (:mod:`baccara.server.http.forward`) stays for what nginx
cannot know: a table whose process is down (nginx tries the next server), a round's
path, a table changing hands.

nginx's ``hash`` (without ``consistent``), every server of weight 1, picks server
``((crc32(key) >> 16) & 0x7fff) mod n`` — the formula of Perl's Cache::Memcached, with
which nginx's documentation says its hash is compatible. :func:`routed_to` computes the
same; ``tests/server/test_placement.py`` asks a real nginx for every table id it checks.

:func:`plan` decides, from the open tables and the live processes, what a process takes
and what it gives back: its own tables always, the tables no live process is routed
(its process stopped, or none says where it stands) by fair share, and never a table
another live process is routed — one it deals is handed back at the end of a round.
"""

from __future__ import annotations

import math
import re
import zlib
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from baccara.errors import BaccaraError

MAX_SERVERS = 999
"""Servers of one upstream, at most (nginx has no limit; a casino has far fewer)."""
_WRITTEN = re.compile(r"^([0-9]{1,3})/([0-9]{1,3})$")


def routed_to(table_id: int, servers: int) -> int:
    """The server (counted from 1) that nginx's ``hash`` sends table ``table_id`` to,
    in an upstream of ``servers`` servers of equal weight, all of them up.

    >>> [routed_to(table_id, 2) for table_id in range(1, 9)]
    [1, 2, 1, 1, 2, 1, 2, 1]
    """
    return ((zlib.crc32(str(table_id).encode()) >> 16) & 0x7FFF) % servers + 1


@dataclass(frozen=True)
class Upstream:
    """A process's place in nginx's ``baccara_tables`` upstream: server ``index`` (from 1,
    in the order the configuration lists them) of ``servers``."""

    index: int
    servers: int

    @classmethod
    def parse(cls, text: str) -> Upstream:
        """``"2/3"``: the second of three servers."""
        found = _WRITTEN.match(text.strip())
        if found is None:
            raise BaccaraError(
                "must be INDEX/SERVERS, this process's place among nginx's servers (2/3 for"
                f" the second of three), got {text!r}"
            )
        upstream = cls(int(found[1]), int(found[2]))
        if not 1 <= upstream.index <= upstream.servers <= MAX_SERVERS:
            raise BaccaraError(
                f"must be INDEX/SERVERS with the index from 1 to the number of servers"
                f" ({MAX_SERVERS} at most), got {text!r}"
            )
        return upstream

    def __str__(self) -> str:
        return f"{self.index}/{self.servers}"

    def routes(self, table_id: int) -> bool:
        """Whether nginx sends this table to this process."""
        return routed_to(table_id, self.servers) == self.index


@dataclass(frozen=True)
class Plan:
    """What one process does with the tables at one look (see :func:`plan`)."""

    take: tuple[int, ...]
    """Unheld tables to take now, in order."""
    give_back: tuple[int, ...]
    """Tables it deals that nginx routes to another live process: handed over at the end
    of their round in play."""
    spare: tuple[int, ...]
    """Tables it may hand over when between bets, to share the unrouted tables fairly."""
    spare_count: int
    """How many of :attr:`spare` to hand over."""


def plan(
    open_tables: Iterable[int],
    held: Collection[int],
    unheld: Sequence[int],
    me: Upstream | None,
    others: Collection[Upstream],
    processes: int,
) -> Plan:
    """What a process takes and gives back, from the open tables, those it deals
    (``held``), those nobody deals (``unheld``), its own place in the upstream (``me``),
    the places of the other live processes, and how many processes live (itself too).

    A table nginx routes to this process is taken whenever nobody deals it. A table
    routed to another live process is never taken, and given back if dealt here. The
    rest — no live process is routed them — are shared fairly, as without nginx: each
    process deals at most their number divided among the live processes, rounded up.
    """

    def mine(table_id: int) -> bool:
        return me is not None and me.routes(table_id)

    def elsewhere(table_id: int) -> bool:
        return routed_elsewhere(table_id, me, others)

    unrouted = [t for t in open_tables if not mine(t) and not elsewhere(t)]
    share = math.ceil(len(unrouted) / max(processes, 1))
    free = set(unrouted)
    dealt_free = sorted(t for t in held if t in free)
    room = max(share - len(dealt_free), 0)
    take = [t for t in unheld if mine(t)] + [t for t in unheld if t in free][:room]
    return Plan(
        take=tuple(take),
        give_back=tuple(sorted(t for t in held if elsewhere(t))),
        spare=tuple(dealt_free),
        spare_count=max(len(dealt_free) - share, 0),
    )


def routed_elsewhere(table_id: int, me: Upstream | None, others: Collection[Upstream]) -> bool:
    """Whether nginx routes ``table_id`` to another live process (at ``others``) and not
    to this one (at ``me``): that process deals it."""
    return not (me is not None and me.routes(table_id)) and any(
        other.routes(table_id) for other in others
    )


def misplaced(me: Upstream | None, others: Collection[Upstream]) -> list[str]:
    """What, in the places the live processes say they hold, tells of a casino whose
    nginx and processes disagree (each in words, for the log): two processes on one
    place, upstreams of different sizes, a process without a place beside ones with.
    Such a casino still deals every table once — the leases see to that — but forwards
    what nginx should have routed."""
    problems = []
    if me is None:
        if others:
            problems.append("other processes have places in nginx's upstream and this one"
                            " none: start each with --upstream N/M")  # fmt: skip
        return problems
    if me in others:
        problems.append(f"another live process also says it is server {me} of nginx's"
                        " upstream: the tables both are routed go to whichever took them")  # fmt: skip
    sizes = sorted({other.servers for other in others} - {me.servers})
    if sizes:
        problems.append(f"this process counts {me.servers} servers in nginx's upstream and"
                        f" another counts {', '.join(map(str, sizes))}: restart every process"
                        " with the same M when the upstream changes")  # fmt: skip
    return problems
