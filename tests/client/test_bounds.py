"""Bounds on every request: total deadline past a dripping server, body size, connect failures."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from app.client import BadResponse, TaskdeskClient, TimedOut, Unreachable
from app.client.transport import DEFAULT_MAX_BODY_BYTES
from tests.client.conftest import ANN
from tests.faultproxy import Fault, FaultProxy
from tests.figures import Figure

MiB = 1024 * 1024


@pytest.fixture
def patient(proxy: FaultProxy) -> Iterator[TaskdeskClient]:
    """A read timeout far longer than the deadline: only the deadline can end a drip."""
    with TaskdeskClient(proxy.url, ANN, read_timeout=5.0, deadline=1.0) as client:
        yield client


@pytest.mark.parametrize("fault", [Fault.SLOW, Fault.SLOW_BODY])
def test_a_dripping_answer_ends_at_the_deadline(
    fault: Fault, proxy: FaultProxy, patient: TaskdeskClient, figure: Figure
) -> None:
    """A byte every 20 ms never trips the 5 s read timeout: only the deadline can end it,
    and it does, long before the 2 KB answer has dripped through (that takes 40 s)."""
    proxy.fault(fault, delay=0.02)
    started = time.monotonic()
    with pytest.raises(TimedOut) as caught:
        patient.get_task("a_scout")
    figure("dripping answer cut at the 1 s deadline after", time.monotonic() - started, "s")
    assert "within 1 s" in caught.value.message
    assert proxy.last().bytes_sent < 1024  # the client hung up early in the answer


def test_a_silent_server_ends_at_the_read_timeout(proxy: FaultProxy, figure: Figure) -> None:
    proxy.fault(Fault.HANG)
    with TaskdeskClient(proxy.url, ANN, read_timeout=0.3, deadline=30) as client:
        started = time.monotonic()
        with pytest.raises(TimedOut) as caught:
            client.agents()
    figure(
        "silent server given up at the 0.3 s read timeout after", time.monotonic() - started, "s"
    )
    assert "0.3 s" in caught.value.message  # the read timeout ended it, not the 30 s deadline


def test_a_declared_huge_body_is_refused_before_reading(proxy: FaultProxy) -> None:
    proxy.fault(Fault.HUGE, size=200 * MiB)
    with TaskdeskClient(proxy.url, ANN) as client, pytest.raises(BadResponse) as caught:
        client.get_task("a_scout")
    assert "larger than 80 MiB" in caught.value.message  # the legal worst case, rounded up
    assert proxy.last().bytes_sent < 32 * MiB  # the client hung up at once


def test_a_streamed_huge_body_stops_at_the_bound(proxy: FaultProxy) -> None:
    proxy.fault(Fault.HUGE, size=200 * MiB, declare_length=False)
    with TaskdeskClient(proxy.url, ANN) as client, pytest.raises(BadResponse) as caught:
        client.embeddable_notes()
    assert "larger than 80 MiB" in caught.value.message  # the legal worst case, rounded up
    sent = proxy.last().bytes_sent
    # Read to the bound, not to the end (200 MiB). Beyond the bound, the proxy counts what
    # the kernel took before the client hung up: a loopback socket's receive buffer grows
    # to 32 MiB (tcp_rmem) and its send buffer to 4 MiB, so a client slowed by a busy machine
    # may leave ~36 MiB sent but never read.
    assert DEFAULT_MAX_BODY_BYTES < sent < DEFAULT_MAX_BODY_BYTES + 40 * MiB


def test_the_bound_is_configurable(proxy: FaultProxy) -> None:
    with TaskdeskClient(proxy.url, ANN, max_body_bytes=1000) as client:
        with pytest.raises(BadResponse):
            client.get_task("a_scout")  # about 2 KB
        assert client.me().id == "u_ann"  # small answers still pass


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_closed_port_is_unreachable_at_once() -> None:
    """Refused, not timed out: the client does not wait out a timeout or retry."""
    with (
        TaskdeskClient(f"http://127.0.0.1:{closed_port()}", ANN) as client,
        pytest.raises(Unreachable) as caught,
    ):
        client.me()
    assert "connection was refused" in caught.value.message


def test_an_unknown_host_is_unreachable() -> None:
    with (
        TaskdeskClient("http://taskdesk.invalid", ANN, connect_timeout=1.0) as client,
        pytest.raises(Unreachable) as caught,
    ):
        client.me()
    assert "taskdesk.invalid" in caught.value.message
