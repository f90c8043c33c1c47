"""``GET /metrics``: the casino's figures in Prometheus's text format.

They say how busy the casino is and how its players bet, so not everyone may read
them: an admin with their token, from anywhere, or — without a token — a scraper at
one of the addresses ``BACCARA_METRICS_SCRAPE_ADDRESSES`` names (none by default).
Anyone else gets the API's usual refusal: 401 without a valid token, 403 with a
token that is not an admin's. A request another server process forwarded (it carries
``X-Baccara-Forwarded``) comes from that process's address, not its client's: it is
refused (403), an admin's token or not — the metrics are read from each process itself.
An IPv4 client a dual-stack listener names as IPv6 (``::ffff:10.0.0.5``) is its IPv4
address.
"""

from __future__ import annotations

import ipaddress
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.security import HTTPAuthorizationCredentials
from starlette.responses import Response

from baccara.server.errors import AuthError, Forbidden
from baccara.server.http.api.deps import CasinoDep, bearer
from baccara.server.http.api.errors import refusals
from baccara.server.http.forward import FORWARDED
from baccara.server.observe.metrics import CONTENT_TYPE, Metrics

router = APIRouter(tags=["operations"])

ANSWERS: dict[int | str, dict[str, object]] = {
    200: {
        "description": "Every figure, in Prometheus's text exposition format",
        "content": {CONTENT_TYPE.split(";")[0]: {"schema": {"type": "string"}}},
    },
    **refusals(AuthError, Forbidden),
}


def from_scraper(request: Request, casino: CasinoDep) -> bool:
    """Whether the request comes from an address the settings let scrape without a token."""
    networks = casino.settings.scrape_networks
    if not networks or request.client is None:
        return False
    try:
        address = ipaddress.ip_address(request.client.host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in networks)


@router.get("/metrics", response_class=Response, responses=ANSWERS)
async def metrics(
    request: Request,
    casino: CasinoDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Response:
    """The casino's metrics: bets placed and refused, bet and settlement latencies, rounds
    by state, open WebSockets, group-commit batch sizes, database errors, tables held.
    An admin's token, or a scrape address of the settings without one."""
    if FORWARDED.decode() in request.headers:
        raise Forbidden("the metrics are read from each server process itself")
    if credentials is not None or not from_scraper(request, casino):
        user = await casino.authenticate(credentials.credentials if credentials else None)
        if user.role != "admin":
            raise Forbidden("only an admin or a scrape address may read the metrics")
    figures: Metrics = request.app.state.metrics
    return Response(figures.exposition(), media_type=CONTENT_TYPE)
