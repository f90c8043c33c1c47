"""The server's settings: one object, from the command line or the environment (``BACCARA_…``).

``DATABASE_URL`` (no prefix, as hosting platforms name it) chooses the database:
an SQLite file by default, ``postgresql+psycopg://…`` for PostgreSQL.
"""

from __future__ import annotations

import enum
import ipaddress

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from baccara.table.config import MAX_TIMER, MIN_TIMER

DEFAULT_DATABASE = "sqlite:///baccara.db"

MAX_REVEAL_DELAY_MS = 60_000
MIN_LEASE_SECONDS = 0.5
MAX_LEASE_SECONDS = 300
MAX_STARTING_BALANCE_CENTS = 10**12
"""Play money a new player may start with: at most 10,000,000,000.00."""
MAX_SCRAPE_ADDRESSES = 64
MAX_SIGN_UPS = 1_000_000
"""The most sign-ups an address may be allowed an hour or a day (a load test's)."""
DEFAULT_PROXIES = "127.0.0.1, ::1"
"""Whose ``X-Forwarded-For`` is believed unless told: a proxy on this host (uvicorn's own
default)."""


class LogLevel(enum.StrEnum):
    """The least severe event written to the log."""

    DEBUG = "debug"
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


class LogFormat(enum.StrEnum):
    """How each event is written: one JSON object a line (for a log collector), or a
    line a person reads in a terminal."""

    JSON = "json"
    CONSOLE = "console"


IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def scrape_networks(text: str) -> tuple[IpNetwork, ...]:
    """The addresses (``10.0.0.5``) and networks (``10.0.0.0/24``) of a comma-separated
    list, each checked; an empty list is none.

    >>> [str(n) for n in scrape_networks("127.0.0.1, 10.1.0.0/16")]
    ['127.0.0.1/32', '10.1.0.0/16']
    """
    items = [item.strip() for item in text.split(",")] if text.strip() else []
    if len(items) > MAX_SCRAPE_ADDRESSES:
        raise ValueError(f"at most {MAX_SCRAPE_ADDRESSES} addresses")
    networks = []
    for item in items:
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(
                "a comma-separated list of IP addresses or networks (10.0.0.0/24)"
            ) from None
    return tuple(networks)


def written(network: IpNetwork) -> str:
    """A network as uvicorn reads it: a single address without its prefix length.

    >>> written(ipaddress.ip_network("::1")), written(ipaddress.ip_network("10.0.0.0/8"))
    ('::1', '10.0.0.0/8')
    """
    if network.num_addresses == 1:
        return str(network.network_address)
    return str(network)


class Settings(BaseSettings):
    """Every knob of a casino server; the defaults are the ones ``make run`` uses."""

    model_config = SettingsConfigDict(env_prefix="BACCARA_", frozen=True)

    database_url: str = Field(
        DEFAULT_DATABASE, validation_alias=AliasChoices("DATABASE_URL", "BACCARA_DATABASE_URL")
    )
    betting_seconds: float = Field(15.0, ge=MIN_TIMER, le=MAX_TIMER)
    peek_seconds: float = Field(10.0, ge=MIN_TIMER, le=MAX_TIMER)
    choose_seconds: float = Field(10.0, ge=MIN_TIMER, le=MAX_TIMER)
    squeeze_seconds: float = Field(20.0, ge=MIN_TIMER, le=MAX_TIMER)
    """How long a squeeze lasts (Mini RedGreen's second hand, a Punto Banco table's hands)."""
    reveal_delay_ms: int = Field(600, ge=0, le=MAX_REVEAL_DELAY_MS)
    starting_balance_cents: int = Field(100_000, ge=0, le=MAX_STARTING_BALANCE_CENTS)
    token_hours: float = Field(12.0, gt=0, le=24 * 30)
    sign_ups_per_hour: int = Field(5, ge=1, le=MAX_SIGN_UPS)
    """New accounts one address may make through the API in an hour."""
    sign_ups_per_day: int = Field(20, ge=1, le=MAX_SIGN_UPS)
    """And in a day (see :mod:`baccara.server.domain.attempts`)."""
    default_tables: bool = True
    """Open one table of each game (and a live Punto Banco table) on a new database."""
    bet_lane: bool = True
    """Place well-formed bets without FastAPI's routing (:mod:`baccara.server.http.betlane`):
    the same answers for less processor time; off only to compare the two."""
    node_url: str = Field("", pattern=r"^(https?://[A-Za-z0-9.\-\[\]:]{1,200})?$")
    """Where the other server processes reach this one (``baccara serve`` sets it from
    its host and port); requests for a table another process deals are sent there."""
    upstream: str = Field("", pattern=r"^([0-9]{1,3}/[0-9]{1,3})?$")
    """This process's place among the servers of nginx's hashed upstream, ``INDEX/SERVERS``
    (``--upstream 2/3``): it deals the tables nginx routes to it, so their requests reach
    it straight (:mod:`baccara.server.cluster.placement`). Empty: tables shared fairly."""
    lease_seconds: float = Field(10.0, ge=MIN_LEASE_SECONDS, le=MAX_LEASE_SECONDS)
    """How long a table's lease lasts unrenewed: how soon another process takes over the
    tables of one that died."""

    log_level: LogLevel = LogLevel.INFO
    log_format: LogFormat | None = None
    """``None``: readable lines when standard error is a terminal, JSON lines otherwise."""
    metrics_scrape_addresses: str = Field("", max_length=4096)
    """Addresses or networks, comma-separated, that may read ``GET /metrics`` without a
    token (a Prometheus server); an admin's token reads it from anywhere."""

    forwarded_allow_ips: str = Field(
        DEFAULT_PROXIES,
        max_length=4096,
        validation_alias=AliasChoices("BACCARA_FORWARDED_ALLOW_IPS", "FORWARDED_ALLOW_IPS"),
    )
    """The proxies (addresses or networks, comma-separated) whose ``X-Forwarded-For`` names
    a request's client (``--forwarded-allow-ips``; ``FORWARDED_ALLOW_IPS``, uvicorn's own
    name, is read too). From any other address the header is ignored: a request's client
    is whoever connected, for the per-address limits and the scrape addresses alike. The
    proxies are also spared the connections cap per address, since every client behind
    them arrives from theirs (the proxy caps its clients itself)."""

    @field_validator("metrics_scrape_addresses")
    @classmethod
    def _scrape_addresses(cls, text: str) -> str:
        return ", ".join(str(network) for network in scrape_networks(text))

    @field_validator("upstream")
    @classmethod
    def _upstream(cls, text: str) -> str:
        if not text:
            return ""
        index, _, servers = text.partition("/")
        if not 1 <= int(index) <= int(servers):
            raise ValueError("the index counts from 1 to the number of servers, as in 2/3")
        return f"{int(index)}/{int(servers)}"  # as every process writes it: 01/2 is 1/2

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _proxies(cls, text: str) -> str:
        return ", ".join(written(network) for network in scrape_networks(text))

    @property
    def proxy_networks(self) -> tuple[IpNetwork, ...]:
        return scrape_networks(self.forwarded_allow_ips)

    @property
    def reveal_delay(self) -> float:
        return self.reveal_delay_ms / 1000

    @property
    def scrape_networks(self) -> tuple[IpNetwork, ...]:
        return scrape_networks(self.metrics_scrape_addresses)
