"""Who a client is, for every limit counted by address: one key for a connection, a failed
sign-in and a sign-up alike.

A limit counted by the full address string is no limit for a client with many: an IPv6
subscriber is given a whole /64 and picks any address in it at will. So a client is its
IPv4 address (also when a dual-stack listener writes it as IPv6, ``::ffff:a.b.c.d``), or
its IPv6 /64 — the same key whether the connections, the sign-ins or the sign-ups count it.
"""

from __future__ import annotations

import ipaddress

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def ip_of(host: str | None) -> IpAddress | None:
    """The IP address ``host`` is, an IPv4 one a dual-stack listener wrote as IPv6 read as
    IPv4; ``None`` if it is none (a Unix socket, a test client's name).

    >>> ip_of("::ffff:192.0.2.7"), ip_of("testclient")
    (IPv4Address('192.0.2.7'), None)
    """
    try:
        address = ipaddress.ip_address(host or "")
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def client_key(host: str | None) -> str:
    """What the limits count ``host`` by: its IPv4 address, its IPv6 /64, or, if it is no
    IP address, ``host`` as it is (``""`` for none).

    >>> client_key("2001:db8::1:2"), client_key("2001:db8::ffff:9")
    ('2001:db8::/64', '2001:db8::/64')
    >>> client_key("::ffff:192.0.2.7"), client_key("192.0.2.7"), client_key(None)
    ('192.0.2.7', '192.0.2.7', '')
    """
    address = ip_of(host)
    if address is None:
        return host or ""
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)
