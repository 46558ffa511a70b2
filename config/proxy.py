"""The client's network address, the one rate limits count by. The web server passes the address of
whoever opened the connection; ``X-Forwarded-For`` names the client only when that connection came from
a proxy the site trusts (``TRUSTED_PROXY_IPS``): any other client can write whatever it likes in the
header, and would otherwise get a fresh address (a fresh allowance) with every request."""

from __future__ import annotations

from ipaddress import IPv4Address, IPv6Address, ip_address, ip_network

from django.conf import settings

Address = IPv4Address | IPv6Address
#: Headers a proxy adds when it forwards a request (the deploy recipe's nginx sets X-Forwarded-For).
FORWARDING_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_FORWARDED", "HTTP_X_REAL_IP")


def _parse(text: str) -> Address | None:
    try:
        return ip_address(text.strip())
    except ValueError:
        return None


def trusted_networks(entries: list[str]):
    return [ip_network(entry.strip(), strict=False) for entry in entries if entry.strip()]


def client_address(peer: str, forwarded_for: str, trusted) -> str:
    """The client's address: the first address from the right of the forwarding chain that is not one
    of the trusted proxies (each proxy appends whom it heard from). ``peer`` when the connection did not
    come from a trusted proxy, or the chain names no valid address."""
    peer_address = _parse(peer)
    if peer_address is None or not any(peer_address in network for network in trusted):
        return peer
    hops = [hop for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        address = _parse(hop)
        if address is None:
            break  # a garbled chain: trust nothing of it
        if not any(address in network for network in trusted):
            return str(address)
    return peer


def is_local_caller(request) -> bool:
    """Whether the request comes from this machine itself, not through a proxy: its address (after
    :class:`TrustedProxyMiddleware`) is a loopback one and it carries no forwarding header. A proxy on this
    machine relays the outside world over loopback; with ``TRUSTED_PROXY_IPS`` unset the address stays the
    proxy's, and only the header tells."""
    meta = request.META
    address = _parse(meta.get("REMOTE_ADDR", ""))
    if address is None or any(meta.get(header) for header in FORWARDING_HEADERS):
        return False
    mapped = address.ipv4_mapped if isinstance(address, IPv6Address) else None
    return (mapped or address).is_loopback


class TrustedProxyMiddleware:
    """Sets ``REMOTE_ADDR`` to the client's address (see :func:`client_address`) before any view or rate
    limit reads it."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.trusted = trusted_networks(settings.TRUSTED_PROXY_IPS)

    def __call__(self, request):
        if self.trusted:
            meta = request.META
            meta["REMOTE_ADDR"] = client_address(
                meta.get("REMOTE_ADDR", ""), meta.get("HTTP_X_FORWARDED_FOR", ""), self.trusted
            )
        return self.get_response(request)
