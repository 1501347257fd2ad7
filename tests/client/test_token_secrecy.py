"""The token goes to the configured server only, and never shows in errors, reprs or logs."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from app.client import (
    BadResponse,
    BudgetExceeded,
    ConnectionLost,
    InvalidRequest,
    NoteEmbedded,
    NotFound,
    NotWritable,
    RateLimited,
    SaveUncertain,
    ServerError,
    TaskdeskClient,
    TaskdeskError,
    TimedOut,
    TooLarge,
    Unauthorized,
    Unreachable,
    VersionConflict,
)
from tests.client.conftest import ANN, FAST
from tests.client.test_fault_matrix import CALLS, FAULTS
from tests.faultproxy import Fault, FaultProxy
from tests.live_server import LiveServer


def assert_no_token(error: TaskdeskError) -> None:
    for shown in (str(error), repr(error), error.message, repr(error.args)):
        assert ANN not in shown
    live = getattr(error, "live", None)
    assert ANN not in repr(live)


@pytest.fixture
def run_id(client: TaskdeskClient) -> str:
    return client.create_run("a_writer").id


def test_no_error_kind_leaks_the_token(
    proxy: FaultProxy,
    proxied: TaskdeskClient,
    run_id: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    kinds: set[type] = set()
    for fault, params, *_ in FAULTS.values():
        if fault in (Fault.SLOW, Fault.SLOW_BODY, Fault.HANG):
            continue  # the timeouts are covered below, once, to keep this test quick
        for call in (CALLS["get_task"], CALLS["put_task"], CALLS["delete_note"]):
            proxy.fault(fault, times=1, **params)
            try:
                call(proxied, {"run_id": run_id, "text": "A save that meets a fault."})
            except TaskdeskError as error:
                kinds.add(type(error))
                assert_no_token(error)
            proxy.clear()
    proxy.fault(Fault.HANG, times=1)
    with pytest.raises(TaskdeskError) as timed_out:
        proxied.me()
    assert_no_token(timed_out.value)
    kinds.add(type(timed_out.value))
    for refusal in ("embed budget exceeded", "task is not writable", "content must be a string"):
        proxy.fault(Fault.STATUS, times=1, status=422, error=refusal)
        with pytest.raises(TaskdeskError) as refused:
            proxied.me()
        kinds.add(type(refused.value))
        assert_no_token(refused.value)
    with pytest.raises(TaskdeskError) as embedded:
        proxied.delete_note("org/o_acme/guilds/guild_ops/style-guide.md")
    kinds.add(type(embedded.value))
    assert_no_token(embedded.value)
    # The test really met every error kind it claims to check.
    assert kinds >= {
        VersionConflict,
        NotWritable,
        TooLarge,
        BudgetExceeded,
        Unauthorized,
        NotFound,
        InvalidRequest,
        Unreachable,
        ConnectionLost,
        TimedOut,
        ServerError,
        RateLimited,
        BadResponse,
        SaveUncertain,
        NoteEmbedded,
    }
    assert ANN not in caplog.text
    assert ANN not in repr(proxied)
    assert caplog.records, "DEBUG logging was on, so the client and urllib3 logged"


def test_server_text_that_echoes_the_token_is_redacted(
    proxy: FaultProxy, proxied: TaskdeskClient
) -> None:
    proxy.fault(Fault.STATUS, status=422, error=f"bad header: Bearer {ANN}")
    with pytest.raises(InvalidRequest) as caught:
        proxied.me()
    assert_no_token(caught.value)
    assert "bad header: Bearer •••" in caught.value.message


def test_an_error_from_the_real_server_holds_no_token(server: LiveServer) -> None:
    with (
        TaskdeskClient(server.url, "wrong-token-123") as client,
        pytest.raises(TaskdeskError) as caught,
    ):
        client.me()
    assert "wrong-token-123" not in repr(caught.value) + str(caught.value.args)


@pytest.fixture
def elsewhere(server: LiveServer) -> Iterator[FaultProxy]:
    """Another address that records what reaches it (it forwards to the same server)."""
    with FaultProxy(server.url) as other:
        yield other


def test_redirects_are_not_followed(
    proxy: FaultProxy, proxied: TaskdeskClient, elsewhere: FaultProxy
) -> None:
    target = f"{elsewhere.url}/api/me"
    for status in (301, 302, 307, 308):
        proxy.fault(Fault.REDIRECT, status=status, location=target)
        with pytest.raises(BadResponse) as caught:
            proxied.me()
        assert target in caught.value.message
        assert f"HTTP {status}" in caught.value.message
        with pytest.raises(BadResponse):
            proxied.put_task("a_writer", "text", None)
    assert elsewhere.exchanges == [], "a redirect carried a request elsewhere"
    assert all(e.headers.get("authorization") == f"Bearer {ANN}" for e in proxy.exchanges)


def test_client_and_transport_reprs_hide_the_token(server: LiveServer) -> None:
    with TaskdeskClient(server.url, ANN, **FAST) as client:
        assert ANN not in repr(client)
        assert ANN not in repr(vars(client))


def test_an_environment_proxy_never_sees_a_local_servers_token(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch, elsewhere: FaultProxy
) -> None:
    # `elsewhere` stands for a proxy an operator's environment names: it must stay unused.
    monkeypatch.setenv("HTTP_PROXY", elsewhere.url)
    monkeypatch.setenv("http_proxy", elsewhere.url)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    with TaskdeskClient(server.url, ANN) as client:
        assert client.me().id == "u_ann"
    assert elsewhere.exchanges == []
