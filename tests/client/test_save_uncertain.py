"""A save whose answer is lost: never re-sent; the live Task decides between done and uncertain."""

from __future__ import annotations

import pytest

from app.client import SaveUncertain, ServerError, TaskdeskClient, Unreachable
from tests.faultproxy import Fault, FaultProxy
from tests.live_server import LiveServer

TEXT = "# Writer\n\nDraft replies; an operator reviews each one.\n"


def puts(proxy: FaultProxy) -> int:
    return sum(1 for e in proxy.exchanges if e.method == "PUT")


def test_dropped_answer_of_a_landed_save_counts_as_done(
    proxy: FaultProxy, proxied: TaskdeskClient, client: TaskdeskClient
) -> None:
    before = client.get_task("a_writer")
    proxy.fault(Fault.DROP_RESPONSE, method="PUT", times=1)
    saved = proxied.put_task("a_writer", TEXT, before.version)
    assert (saved.content, saved.version) == (TEXT, before.version + 1)
    assert puts(proxy) == 1  # confirmed by reading, not by sending again
    assert proxy.last("GET").status == 200
    assert client.get_task("a_writer").version == before.version + 1


def test_reset_before_the_server_saw_it_is_uncertain_with_the_live_task(
    proxy: FaultProxy, proxied: TaskdeskClient, client: TaskdeskClient
) -> None:
    before = client.get_task("a_writer")
    proxy.fault(Fault.RESET, method="PUT", times=1)
    with pytest.raises(SaveUncertain) as caught:
        proxied.put_task("a_writer", TEXT, before.version)
    live = caught.value.live
    assert live is not None
    assert (live.content, live.version) == (before.content, before.version)
    assert f"version {before.version}" in caught.value.message
    assert "does not hold your text" in caught.value.message
    assert puts(proxy) == 1
    assert client.get_task("a_writer").version == before.version


def test_timed_out_save_that_never_landed_is_uncertain(
    proxy: FaultProxy, proxied: TaskdeskClient, client: TaskdeskClient
) -> None:
    before = client.get_task("a_writer")
    proxy.fault(Fault.HANG, method="PUT", times=1)
    with pytest.raises(SaveUncertain) as caught:
        proxied.put_task("a_writer", TEXT, before.version)
    assert caught.value.live is not None
    assert caught.value.live.content == before.content


def test_uncertain_with_nothing_known_when_the_check_fails_too(
    proxy: FaultProxy, proxied: TaskdeskClient, client: TaskdeskClient
) -> None:
    before = client.get_task("a_writer")
    proxy.fault(Fault.DROP_RESPONSE, method="PUT", times=1)
    proxy.add(Fault.RESET, method="GET")
    with pytest.raises(SaveUncertain) as caught:
        proxied.put_task("a_writer", TEXT, before.version)
    assert caught.value.live is None
    assert "could not be asked" in caught.value.message
    # It did land; the operator is told the truth: unknown, not failed.
    assert client.get_task("a_writer").content == TEXT


def test_a_save_that_never_left_is_offline_not_uncertain(
    proxy: FaultProxy, proxied: TaskdeskClient
) -> None:
    proxy.fault(Fault.REFUSE)
    with pytest.raises(Unreachable) as caught:
        proxied.put_task("a_writer", TEXT, None)
    assert "cannot be reached" in caught.value.message
    proxy.clear()  # the server is back on the same address
    assert proxied.put_task("a_writer", TEXT, None).content == TEXT


def test_a_save_cut_off_by_the_server_counts_as_done(
    server: LiveServer, client: TaskdeskClient
) -> None:
    """The server's own fault hook: the save lands, then the answer is cut in half."""
    before = client.get_task("a_writer")
    server.hook("cut", count=1, method="PUT")
    saved = client.put_task("a_writer", TEXT, before.version)
    assert (saved.content, saved.version) == (TEXT, before.version + 1)


def test_a_save_the_server_failed_is_not_confirmed_by_reading(
    server: LiveServer, client: TaskdeskClient
) -> None:
    """A 503 is an answer: the save did not happen, and the client says so, without a read."""
    server.hook("fail", status=503, count=1, retry_after=2, method="PUT")
    with pytest.raises(ServerError) as caught:
        client.put_task("a_writer", TEXT, None)
    assert caught.value.retry_after == 2.0
    assert client.get_task("a_writer").content != TEXT
