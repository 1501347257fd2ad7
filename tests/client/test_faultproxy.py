"""The fault proxy itself: faithful forwarding, rules by count, path and method, clean stops."""

from __future__ import annotations

import contextlib
import threading

import pytest
import requests

from tests.client.conftest import ANN
from tests.faultproxy import Fault, FaultProxy
from tests.live_server import LiveServer

AUTH = {"Authorization": f"Bearer {ANN}"}


def get(base: str, path: str) -> requests.Response:
    return requests.get(base + path, headers=AUTH, timeout=5, allow_redirects=False)


def test_forwarding_is_faithful(server: LiveServer, proxy: FaultProxy) -> None:
    direct = get(server.url, "/api/agents/a_scout/files/task.md")
    through = get(proxy.url, "/api/agents/a_scout/files/task.md")
    assert (through.status_code, through.content) == (200, direct.content)
    assert through.headers["ETag"] == direct.headers["ETag"]
    seen = proxy.last()
    assert (seen.method, seen.path, seen.status) == (
        "GET",
        "/api/agents/a_scout/files/task.md",
        200,
    )
    assert seen.headers["authorization"] == f"Bearer {ANN}"
    assert seen.body_bytes_sent == len(direct.content)


def test_rules_by_count_path_and_method(proxy: FaultProxy) -> None:
    proxy.fault(Fault.STATUS, status=503, times=2, path=r"/guilds$", method="GET")
    assert get(proxy.url, "/api/me").status_code == 200  # other path
    assert get(proxy.url, "/api/org/guilds").status_code == 503
    assert get(proxy.url, "/api/org/guilds").status_code == 503
    assert get(proxy.url, "/api/org/guilds").status_code == 200  # used up


def test_refuse_then_come_back_on_the_same_port(proxy: FaultProxy) -> None:
    url = proxy.url
    proxy.fault(Fault.REFUSE)
    with pytest.raises(requests.ConnectionError):
        get(url, "/api/me")
    proxy.clear()
    assert proxy.url == url
    assert get(url, "/api/me").status_code == 200


def test_stop_ends_every_connection_and_thread(server: LiveServer) -> None:
    proxy = FaultProxy(server.url)
    with proxy:
        proxy.fault(Fault.HANG)
        hung = threading.Thread(target=lambda: _swallow(proxy.url), daemon=True)
        hung.start()
        assert proxy.wait_for_requests(1)
        assert proxy.exchanges[-1].fault is Fault.HANG
    hung.join(timeout=5)
    assert not hung.is_alive()
    assert not [t for t in threading.enumerate() if t.name.startswith(f"{proxy.name}-")]
    with pytest.raises(requests.ConnectionError):
        get(proxy.url, "/api/me")


def _swallow(url: str) -> None:
    with contextlib.suppress(requests.RequestException):  # the proxy's stop cuts it
        get(url, "/api/me")
