"""A server whose disk is full (507) is told as such, and the save is not taken as done."""

from __future__ import annotations

import pytest

from app.client import ServerError, TaskdeskClient
from tests.client.conftest import ANN
from tests.faultproxy import Fault, FaultProxy


def test_a_507_says_the_server_s_disk_is_full(proxy: FaultProxy) -> None:
    proxy.fault(Fault.STATUS, method="PUT", status=507, error="the server's disk is full", times=1)
    with TaskdeskClient(proxy.url, ANN) as client:
        live = client.get_task("a_writer")
        with pytest.raises(ServerError) as raised:
            client.put_task("a_writer", "a change", live.version)
    assert raised.value.status == 507
    assert "disk is full" in raised.value.message
    with TaskdeskClient(proxy.url, ANN) as client:
        assert client.get_task("a_writer").version == live.version
