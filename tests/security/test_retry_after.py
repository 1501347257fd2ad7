"""Retry-After per RFC 9110: delay-seconds or HTTP-date, clamped, and no header value can raise."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.client import TaskdeskClient
from app.client.errors import RateLimited, ServerError, TaskdeskError
from app.client.retry_after import RETRY_AFTER_MAX_S, retry_after_seconds
from app.client.status_errors import error_for_status
from tests.live_server import LiveServer

NOW = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("120", 120.0),
        (" 7\t", 7.0),
        ("0", 0.0),
        ("9" * 400, RETRY_AFTER_MAX_S),  # once "try again in inf s"
        ("86400", RETRY_AFTER_MAX_S),
        ("Thu, 01 Jan 2026 12:00:30 GMT", 30.0),  # IMF-fixdate
        ("Thursday, 01-Jan-26 12:01:00 GMT", 60.0),  # RFC 850
        ("Thu Jan  1 12:00:05 2026", 5.0),  # asctime
        ("Thu, 01 Jan 2026 11:00:00 GMT", 0.0),  # already past
        ("Fri, 01 Jan 2100 00:00:00 GMT", RETRY_AFTER_MAX_S),
    ],
)
def test_delay_seconds_and_all_three_date_forms(value: str, seconds: float) -> None:
    assert retry_after_seconds(value, now=NOW) == seconds


@pytest.mark.parametrize(
    "value",
    ["²", "¹²", "١٢", "１２", "-5", "1.5", "+3", "soon", "", "Thu, 31 Feb 2026 12:00:00 GMT",
     "Thu, 01 Jan 2026 25:00:00 GMT", "Thu, 01 Jan 2026 12:00:00 PST", "0x10"],
)  # fmt: skip
def test_values_that_are_neither_mean_the_server_did_not_say(value: str) -> None:
    assert retry_after_seconds(value, now=NOW) is None


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.text(),
        st.text(alphabet=st.characters(categories=["Nd", "No"])),  # digits of every script
        st.from_regex(r"\A[0-9 \t]{0,30}\Z"),
        st.datetimes().map(lambda d: d.strftime("%a, %d %b %Y %H:%M:%S GMT")),
    )
)
def test_no_retry_after_value_raises_and_every_answer_is_bounded(value: str) -> None:
    seconds = retry_after_seconds(value, now=NOW)
    assert seconds is None or 0.0 <= seconds <= RETRY_AFTER_MAX_S


header_values = st.text(
    alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=50
)


@settings(max_examples=300, deadline=None)
@given(
    status=st.sampled_from([301, 400, 401, 403, 404, 409, 413, 422, 429, 500, 503, 504, 599]),
    retry_after=header_values,
    # A redirect's message quotes its Location as sent: "inf" there is the server's word.
    location=header_values.filter(lambda s: "inf" not in s and "nan" not in s),
    body=st.binary(max_size=100),
)
def test_no_header_value_escapes_as_an_untyped_error(
    status: int, retry_after: str, location: str, body: bytes
) -> None:
    headers = {"Retry-After": retry_after, "Location": location}
    error = error_for_status(status, headers, body, server="http://example.test")
    assert isinstance(error, TaskdeskError)
    assert "inf" not in error.message and "nan" not in error.message


@pytest.mark.parametrize("value", ["²", "¹²", "9" * 400])
def test_a_hostile_retry_after_from_a_real_server_is_a_typed_error(
    live_server: LiveServer, value: str
) -> None:
    live_server.hook("fail", status=503, count=1, retry_after=value, path="/api/me")
    client = TaskdeskClient(live_server.url, live_server.token("ann"))
    with client, pytest.raises(ServerError) as raised:
        client.me()
    assert raised.value.retry_after in (None, RETRY_AFTER_MAX_S)
    assert " inf " not in raised.value.message


def test_a_429_with_a_date_waits_until_then(live_server: LiveServer) -> None:
    live_server.hook("fail", status=429, count=1, retry_after="Fri, 01 Jan 2100 00:00:00 GMT")
    client = TaskdeskClient(live_server.url, live_server.token("ann"))
    with client, pytest.raises(RateLimited) as raised:
        client.me()
    assert raised.value.retry_after == RETRY_AFTER_MAX_S
