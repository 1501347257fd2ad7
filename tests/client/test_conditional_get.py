"""The conditional GET: an unchanged Task comes back as 304 with no body, from the client's copy."""

from __future__ import annotations

from app.client import TaskdeskClient
from tests.client.conftest import BOB
from tests.faultproxy import FaultProxy
from tests.live_server import LiveServer


def test_second_fetch_of_an_unchanged_task_transfers_no_body(
    proxy: FaultProxy, proxied: TaskdeskClient
) -> None:
    first = proxied.get_task("a_scout")
    full = proxy.last("GET")
    assert (full.status, full.headers.get("if-none-match")) == (200, None)
    assert full.body_bytes_sent > len(first.content)

    second = proxied.get_task("a_scout")
    cheap = proxy.last("GET")
    assert cheap.headers.get("if-none-match") == first.etag
    assert (cheap.status, cheap.body_bytes_sent) == (304, 0)
    assert second is first


def test_a_save_elsewhere_is_fetched_in_full(
    proxy: FaultProxy, proxied: TaskdeskClient, server: LiveServer
) -> None:
    first = proxied.get_task("a_scout")
    with TaskdeskClient(server.url, BOB) as bob:
        bob.put_task("a_scout", "Bob changed it.", first.version)
    fresh = proxied.get_task("a_scout")
    assert proxy.last("GET").status == 200
    assert (fresh.content, fresh.version) == ("Bob changed it.", first.version + 1)
    assert fresh.etag != first.etag


def test_own_save_is_remembered(proxy: FaultProxy, proxied: TaskdeskClient) -> None:
    first = proxied.get_task("a_writer")
    saved = proxied.put_task("a_writer", "Ann's new rules.", first.version)
    assert proxied.cached_task("a_writer") == saved
    again = proxied.get_task("a_writer")
    assert proxy.last("GET").status == 304
    assert again == saved


def test_each_agent_has_its_own_copy(proxy: FaultProxy, proxied: TaskdeskClient) -> None:
    scout = proxied.get_task("a_scout")
    writer = proxied.get_task("a_writer")
    assert proxy.last("GET").status == 200
    assert proxied.get_task("a_scout") is scout
    assert proxied.get_task("a_writer") is writer
