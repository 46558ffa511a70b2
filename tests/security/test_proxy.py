"""Rate limits count by the client's address. ``X-Forwarded-For`` names it only on a connection from a
configured proxy (``TRUSTED_PROXY_IPS``): a client anywhere else, even on this machine, cannot give
itself a fresh address (a fresh allowance) with each request by writing the header."""

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django_ratelimit.core import get_usage

from config.proxy import client_address, trusted_networks

# (their tries must all fall in one of the limit's minutes)
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rate_limit_minute_held")]


def _join_tries_counted(address: str) -> int:
    request = RequestFactory().post(reverse("join"), REMOTE_ADDR=address)
    usage = get_usage(request, group="classrooms.views.join", key="ip", rate="1200/m", method="POST")
    return usage["count"]


def _post_join(client, class_7b, peer: str, forwarded: str) -> None:
    response = client.post(
        reverse("join"), {"code": class_7b.join_code}, REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded
    )
    assert response.status_code == 302


def test_a_spoofed_header_from_an_untrusted_client_changes_nothing(settings, class_7b):
    settings.TRUSTED_PROXY_IPS = []  # the default: nobody, not even a loopback client
    client = Client()
    for n in range(4):
        _post_join(client, class_7b, "127.0.0.1", f"198.51.100.{n}")
    assert _join_tries_counted("127.0.0.1") == 4
    assert _join_tries_counted("198.51.100.1") == 0


def test_a_client_that_is_not_the_configured_proxy_is_counted_by_its_own_address(settings, class_7b):
    settings.TRUSTED_PROXY_IPS = ["10.0.0.5"]
    client = Client()
    for n in range(3):
        _post_join(client, class_7b, "127.0.0.1", f"198.51.100.{n}")
    assert _join_tries_counted("127.0.0.1") == 3


def test_the_configured_proxys_header_names_the_client(settings, class_7b):
    settings.TRUSTED_PROXY_IPS = ["10.0.0.0/24"]
    client = Client()
    for _n in range(3):  # what the client wrote itself (the left part) is not believed
        _post_join(client, class_7b, "10.0.0.5", "6.6.6.6, 203.0.113.9")
    _post_join(client, class_7b, "10.0.0.5", "203.0.113.9, 10.0.0.7")  # through two of the school's proxies
    assert _join_tries_counted("203.0.113.9") == 4
    assert _join_tries_counted("10.0.0.5") == 0 and _join_tries_counted("6.6.6.6") == 0


@pytest.mark.parametrize(
    ("peer", "header", "expected"),
    [
        ("127.0.0.1", "1.2.3.4", "1.2.3.4"),
        ("192.0.2.1", "1.2.3.4", "192.0.2.1"),  # not a proxy
        ("127.0.0.1", "", "127.0.0.1"),  # no header
        ("127.0.0.1", "not-an-address", "127.0.0.1"),
        ("127.0.0.1", "2001:db8::1", "2001:db8::1"),
        ("127.0.0.1", "127.0.0.1", "127.0.0.1"),  # only proxies in the chain
    ],
)
def test_the_client_address_from_the_chain(peer, header, expected):
    assert client_address(peer, header, trusted_networks(["127.0.0.1"])) == expected
