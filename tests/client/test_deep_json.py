"""Deeply nested JSON from a hostile server is "not valid JSON", never a RecursionError."""

from __future__ import annotations

import pytest

from app.client import BadResponse, TaskdeskClient
from tests.client.conftest import ANN
from tests.faultproxy import Fault, FaultProxy

DEPTH = 300_000  # 600 KB: over the 256 KB above which the notes list is decoded item by item


@pytest.mark.parametrize("compact", [False, True])
def test_a_deeply_nested_notes_list_is_not_valid_json(proxy: FaultProxy, compact: bool) -> None:
    proxy.fault(Fault.DEEP_JSON, path="embeddable-notes", size=DEPTH)
    with TaskdeskClient(proxy.url, ANN) as client:
        client.ask_compact_notes(compact)
        with pytest.raises(BadResponse) as raised:
            client.embeddable_notes()
    assert "is not valid JSON" in raised.value.message


def test_a_deeply_nested_task_is_not_valid_json(proxy: FaultProxy) -> None:
    proxy.fault(Fault.DEEP_JSON, path="task.md", size=DEPTH)
    with TaskdeskClient(proxy.url, ANN) as client, pytest.raises(BadResponse) as raised:
        client.get_task("a_writer")
    assert "is not valid JSON" in raised.value.message
