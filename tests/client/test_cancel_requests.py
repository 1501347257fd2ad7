"""Quitting cancels the requests in flight: a hung one ends at once, and nothing more goes out."""

from __future__ import annotations

import threading

import pytest

from app.client import TaskdeskClient, TaskdeskError
from tests.client.conftest import ANN
from tests.faultproxy import Fault, FaultProxy


def test_cancel_ends_a_hung_request_and_refuses_new_ones(proxy: FaultProxy) -> None:
    proxy.fault(Fault.HANG, path=r"task\.md")
    client = TaskdeskClient(proxy.url, ANN, read_timeout=60.0)
    ended: list[BaseException] = []
    done = threading.Event()

    def ask() -> None:
        try:
            client.get_task("a_writer")
        except TaskdeskError as exc:
            ended.append(exc)
        finally:
            done.set()

    asking = threading.Thread(target=ask)
    asking.start()
    assert proxy.wait_for_requests(1), "the request never reached the server"
    client.cancel_requests()
    assert done.wait(5.0), "the hung request was still running after the cancel"
    asking.join()
    assert ended, "a cancelled request must fail, not return"
    seen = len(proxy.exchanges)
    with pytest.raises(TaskdeskError):
        client.me()
    assert len(proxy.exchanges) == seen, "a request went out after the cancel"
    client.close()
