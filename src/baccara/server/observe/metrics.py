"""The casino's figures for Prometheus, in a registry of its own.

Each app (each :class:`Metrics`) has its own :class:`~prometheus_client.CollectorRegistry`,
not the library's global one, so several casinos in one process — a test's — never
count into each other. ``GET /metrics`` serves :meth:`Metrics.exposition`.

Counters and histograms are updated as things happen; the gauges (rounds by state, open
WebSockets, tables held) are read from the casino when scraped (:meth:`Metrics.watch`),
so they are never out of step with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4, generate_latest
from prometheus_client.registry import Collector

CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4
"""The text format's media type: version 0.0.4, which every Prometheus server reads."""

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds: a bet answers in about a millisecond, a settlement of many bets in tens."""
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)


@dataclass(frozen=True)
class Gauges:
    """How to read the casino's state when scraped."""

    rounds: Callable[[], Mapping[str, int]]
    """Rounds in play at the tables this process deals, by state."""
    sockets: Callable[[], int]
    """WebSockets open on this process."""
    tables_held: Callable[[], int]
    """Tables whose lease this process holds (the tables it deals)."""


class _Read(Collector):
    """The gauges, read from the casino at each scrape."""

    def __init__(self) -> None:
        self.gauges: Gauges | None = None

    def collect(self) -> Iterator[Metric]:
        if self.gauges is None:
            return
        rounds = GaugeMetricFamily(
            "baccara_rounds", "Rounds at the tables this process deals, by state",
            labels=["state"],
        )  # fmt: skip
        for state, count in sorted(self.gauges.rounds().items()):
            rounds.add_metric([state], count)
        yield rounds
        yield GaugeMetricFamily(
            "baccara_websockets_open", "WebSockets open on this process",
            value=self.gauges.sockets(),
        )  # fmt: skip
        yield GaugeMetricFamily(
            "baccara_tables_held", "Tables whose lease this process holds",
            value=self.gauges.tables_held(),
        )  # fmt: skip


class Metrics:
    """Every figure the casino exports: counters and histograms updated as things happen,
    gauges read when scraped."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self.requests = Counter(
            "baccara_http_requests", "HTTP requests answered, by route template and status",
            ["method", "route", "status"], registry=registry,
        )  # fmt: skip
        self.request_seconds = Histogram(
            "baccara_http_request_seconds", "Time to answer an HTTP request, by route template",
            ["route"], buckets=LATENCY_BUCKETS, registry=registry,
        )  # fmt: skip
        self.bets_placed = Counter(
            "baccara_bets_placed", "Bets placed (committed), by table and game",
            ["table", "game"], registry=registry,
        )  # fmt: skip
        self.bets_refused = Counter(
            "baccara_bets_refused", "Bets refused, by the error code of the answer",
            ["reason"], registry=registry,
        )  # fmt: skip
        self.bet_seconds = Histogram(
            "baccara_bet_seconds", "Time to answer a bet that was placed",
            buckets=LATENCY_BUCKETS, registry=registry,
        )  # fmt: skip
        self.settlement_seconds = Histogram(
            "baccara_settlement_seconds",
            "Time from a round's settlement to its payouts committed",
            buckets=LATENCY_BUCKETS, registry=registry,
        )  # fmt: skip
        self.batch_size = Histogram(
            "baccara_group_commit_batch_size", "Transactions one SQLite commit carried",
            buckets=BATCH_BUCKETS, registry=registry,
        )  # fmt: skip
        self.forwarded = Counter(
            "baccara_forwarded_requests",
            "Requests sent on to the process that deals their table: behind nginx hashing on"
            " the table, a round's actions (peek, choice, void) and requests for a table"
            " changing hands or whose process is down",
            registry=registry,
        )  # fmt: skip
        self.database_errors = Counter(
            "baccara_database_errors", "Errors the database raised, by kind",
            ["kind"], registry=registry,
        )  # fmt: skip
        self._read = _Read()
        registry.register(self._read)

    def watch(self, gauges: Gauges) -> None:
        """Read the gauges with ``gauges`` from now on."""
        self._read.gauges = gauges

    def exposition(self) -> bytes:
        """Every figure in Prometheus's text format (:data:`CONTENT_TYPE`)."""
        return generate_latest(self.registry)

    def value(self, name: str, labels: Mapping[str, str] | None = None) -> float | None:
        """One sample's value (``baccara_bets_placed_total``), or ``None`` if it has none
        yet: what the tests read (Prometheus reads :meth:`exposition`)."""
        return self.registry.get_sample_value(name, dict(labels or {}))
