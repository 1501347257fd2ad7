"""The status table and Retry-After parsing, on their own (no network needed)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.client import (
    AgentGone,
    BadResponse,
    BudgetExceeded,
    InvalidRequest,
    NoteEmbedded,
    NotFound,
    NotWritable,
    RateLimited,
    ServerError,
    TimedOut,
    TooLarge,
    Unauthorized,
    VersionConflict,
)
from app.client.status_errors import error_for_status, retry_after_seconds


def error(status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> object:
    return error_for_status(status, headers or {}, body, server="tasks.example")


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        (409, b'{"error": "version conflict", "version": 7}', VersionConflict),
        (409, b"", VersionConflict),
        (409, b"<html>conflict</html>", VersionConflict),
        (409, b'{"error": "note is embedded in task (a_one, a_two)"}', NoteEmbedded),
        (422, b'{"error": "task is not writable"}', NotWritable),
        (422, b'{"error": "write exceeds 256 KB"}', TooLarge),
        (422, b'{"error": "embed budget exceeded"}', BudgetExceeded),
        (422, b'{"error": "cannot delete this file"}', NotWritable),
        (422, b'{"error": "expected_version must be an integer"}', InvalidRequest),
        (422, b"not json", InvalidRequest),
        (400, b"", InvalidRequest),
        (401, b"", Unauthorized),
        (403, b'{"error": "forbidden"}', Unauthorized),
        (404, b"", NotFound),
        (404, b'{"error": "no such agent"}', AgentGone),
        (404, b'{"error": "no such note"}', NotFound),
        (413, b"", TooLarge),
        (429, b"", RateLimited),
        (500, b"", ServerError),
        (503, b"", ServerError),
        (504, b"", TimedOut),
        (302, b"", BadResponse),
        (101, b"", BadResponse),
    ],
)
def test_each_status_maps_to_one_type(status: int, body: bytes, expected: type) -> None:
    assert type(error(status, body)) is expected


def test_conflict_details() -> None:
    live = error(409, b'{"error": "version conflict", "version": 7}')
    assert isinstance(live, VersionConflict) and live.live_version == 7
    odd = error(409, b'{"error": "version conflict", "version": true}')
    assert isinstance(odd, VersionConflict) and odd.live_version is None
    embedded = error(409, b'{"error": "note is embedded in task (a_one, a_two)"}')
    assert isinstance(embedded, NoteEmbedded) and embedded.agent_ids == ("a_one", "a_two")


def test_server_text_is_quoted_on_one_bounded_line() -> None:
    refused = error(422, b'{"error": "line one\\nline two' + b"x" * 500 + b'"}')
    assert isinstance(refused, InvalidRequest)
    assert "\n" not in refused.message
    assert "line one line two" in refused.message
    assert len(refused.message) < 400


def test_retry_after_in_seconds_or_as_a_date() -> None:
    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert retry_after_seconds("120", now=now) == 120.0
    assert retry_after_seconds("Thu, 01 Jan 2026 12:00:30 GMT", now=now) == 30.0
    assert retry_after_seconds("Thu, 01 Jan 2026 11:00:00 GMT", now=now) == 0.0
    assert retry_after_seconds("soon", now=now) is None
    assert retry_after_seconds(None) is None
    limited = error(429, headers={"Retry-After": "4"})
    assert isinstance(limited, RateLimited) and limited.retry_after == 4.0
    assert "4 s" in limited.message
