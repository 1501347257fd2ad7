"""Every client call under every fault of the proxy: the right typed error and a clear message.

A put_task whose answer is lost is never re-sent: it reads the live Task instead, so for the
faults that forward the save (truncated, slow, dropped answer) it ends as done, and for those
that do not (reset, hang, a fake 200) as SaveUncertain with the unchanged live Task.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests

from app.client import (
    BadResponse,
    ConnectionLost,
    NotFound,
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
from app.core.models import TaskDoc
from app.server import ServerHandle, start_server
from tests.client.conftest import ANN
from tests.faultproxy import Fault, FaultProxy
from tests.figures import Figure
from tests.live_server import WORKSPACE_BASIC
from tests.server_hooks import install_test_hooks

ESCALATION = "org/o_acme/escalation.md"
OK = "ok"  # the call succeeds
SAVED = "saved"  # put_task confirms its save by reading the live Task
UNCERTAIN = "uncertain"  # put_task raises SaveUncertain with the unchanged live Task

Call = Callable[[TaskdeskClient, dict[str, str]], object]

CALLS: dict[str, Call] = {
    "me": lambda c, ctx: c.me(),
    "agents": lambda c, ctx: c.agents(),
    "guilds": lambda c, ctx: c.guilds(),
    "get_task": lambda c, ctx: c.get_task("a_scout"),
    "put_task": lambda c, ctx: c.put_task("a_scout", ctx["text"], None),
    "delete_task": lambda c, ctx: c.delete_task("a_scout"),
    "embed_status": lambda c, ctx: c.embed_status("guild_ops"),
    "embeddable_notes": lambda c, ctx: c.embeddable_notes(),
    "note": lambda c, ctx: c.note("org/o_acme/handbook.md"),
    "delete_note": lambda c, ctx: c.delete_note(ESCALATION),
    "create_run": lambda c, ctx: c.create_run("a_writer"),
    "get_run": lambda c, ctx: c.get_run(ctx["run_id"]),
}

DELETES = {"delete_task", "delete_note"}
# A 204 has no body to drip, so a slow body is no fault for it.
# A read can't conflict or be too large: 409 and 413 on a GET are answers that make no sense.
SPECIAL = {
    ("delete_note", "slow-body"): OK,
    ("create_run", "413"): TooLarge,
    ("create_run", "409-no-body"): VersionConflict,
}

# id: (fault, its parameters, the outcome for most calls, for put_task, for the deletes)
FAULTS: dict[str, tuple[Fault, dict[str, Any], object, object, object]] = {
    "500": (Fault.STATUS, {"status": 500}, ServerError, ServerError, ServerError),
    "502": (Fault.STATUS, {"status": 502}, ServerError, ServerError, ServerError),
    "503-retry-after": (
        Fault.STATUS,
        {"status": 503, "retry_after": "7"},
        ServerError,
        ServerError,
        ServerError,
    ),
    "401": (Fault.STATUS, {"status": 401}, Unauthorized, Unauthorized, Unauthorized),
    "404": (Fault.STATUS, {"status": 404}, NotFound, NotFound, NotFound),
    "413": (Fault.STATUS, {"status": 413}, BadResponse, TooLarge, TooLarge),
    "429": (
        Fault.STATUS,
        {"status": 429, "retry_after": "3"},
        RateLimited,
        RateLimited,
        RateLimited,
    ),
    "409-no-body": (Fault.CONFLICT_NO_BODY, {}, BadResponse, VersionConflict, VersionConflict),
    "malformed-json": (Fault.MALFORMED_JSON, {}, BadResponse, UNCERTAIN, OK),
    "wrong-shape": (Fault.WRONG_SHAPE, {}, BadResponse, UNCERTAIN, OK),
    "html-200": (Fault.HTML_200, {}, BadResponse, UNCERTAIN, OK),
    "truncated": (Fault.TRUNCATED, {}, BadResponse, SAVED, BadResponse),
    "reset": (Fault.RESET, {}, ConnectionLost, UNCERTAIN, ConnectionLost),
    "slow": (Fault.SLOW, {"delay": 0.05}, TimedOut, SAVED, TimedOut),
    "slow-body": (Fault.SLOW_BODY, {"delay": 0.05}, TimedOut, SAVED, TimedOut),
    "huge-declared": (Fault.HUGE, {}, BadResponse, UNCERTAIN, BadResponse),
    "huge-streamed": (
        Fault.HUGE,
        {"declare_length": False, "size": 50 * 1024 * 1024},
        BadResponse,
        UNCERTAIN,
        BadResponse,
    ),
    "hang": (Fault.HANG, {}, TimedOut, UNCERTAIN, TimedOut),
    "drop-response": (Fault.DROP_RESPONSE, {}, ConnectionLost, SAVED, ConnectionLost),
    "redirect": (Fault.REDIRECT, {}, BadResponse, BadResponse, BadResponse),
    "refuse": (Fault.REFUSE, {}, Unreachable, Unreachable, Unreachable),
}

RAW_WORDS = (
    "Traceback",
    "urllib3",
    "HTTPConnectionPool",
    "requests.exceptions",
    "Errno",
    "object at 0x",
)


def assert_clear(error: TaskdeskError) -> None:
    """A message for people: a sentence or more, no library internals."""
    assert len(error.message) >= 30, error.message
    assert not any(word in error.message for word in RAW_WORDS), error.message
    assert str(error) == error.message


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerHandle]:
    """One server for the whole matrix (starting 250 of them is most of the time); each
    test makes its own checks independent of the ones before it."""
    db = tmp_path_factory.mktemp("fault-matrix") / "server.sqlite"
    with start_server(WORKSPACE_BASIC, db, configure=install_test_hooks) as handle:
        yield handle


@pytest.fixture(scope="module")
def run_id(server: ServerHandle) -> str:
    with TaskdeskClient(server.url, ANN) as client:
        return client.create_run("a_writer").id


@pytest.fixture
def escalation_note(server: ServerHandle) -> None:
    """The note delete_note deletes, there again for every test."""
    answer = requests.put(
        f"{server.url}/__test__/notes/{ESCALATION}",
        json={"kind": "note", "title": "Escalation", "text": "Escalate outages.\n"},
        timeout=5,
    )
    assert answer.status_code == 200


@pytest.mark.parametrize("fault_id", list(FAULTS))
@pytest.mark.parametrize("call_name", list(CALLS))
def test_fault(
    call_name: str,
    fault_id: str,
    proxy: FaultProxy,
    proxied: TaskdeskClient,
    client: TaskdeskClient,
    run_id: str,
    escalation_note: None,
    figure: Figure,
) -> None:
    fault, params, expected, for_put, for_delete = FAULTS[fault_id]
    if call_name == "put_task":
        expected = for_put
    elif call_name in DELETES:
        expected = for_delete
    expected = SPECIAL.get((call_name, fault_id), expected)
    before = client.get_task("a_scout")
    text = f"# Scout\n\nA new rule from the fault matrix: {call_name} under {fault_id}.\n"
    proxy.fault(fault, times=1, **params)
    started = time.monotonic()
    outcome: object
    try:
        outcome = CALLS[call_name](proxied, {"run_id": run_id, "text": text})
    except TaskdeskError as error:
        outcome = error
    figure("client call under a fault", time.monotonic() - started, "s")
    proxy.clear()

    if expected is OK:
        assert not isinstance(outcome, Exception), outcome
    elif expected is SAVED:
        assert isinstance(outcome, TaskDoc), outcome
        assert outcome.content == text
        assert client.get_task("a_scout").content == text
    elif expected is UNCERTAIN:
        assert isinstance(outcome, SaveUncertain), outcome
        assert outcome.live is not None
        assert outcome.live.content == before.content != text
        assert f"version {before.version}" in outcome.message
        assert_clear(outcome)
    else:
        assert isinstance(expected, type)
        assert type(outcome) is expected, f"{call_name} under {fault_id} gave {outcome!r}"
        assert isinstance(outcome, TaskdeskError)
        assert_clear(outcome)
    if fault_id == "503-retry-after" and isinstance(outcome, ServerError):
        assert (outcome.status, outcome.retry_after) == (503, 7.0)
        assert "7 s" in outcome.message
    if fault_id == "429" and isinstance(outcome, RateLimited):
        assert outcome.retry_after == 3.0
    if fault_id == "409-no-body" and isinstance(outcome, VersionConflict):
        assert outcome.live_version is None
    if fault_id == "redirect" and isinstance(outcome, BadResponse):
        assert "http://127.0.0.1:9/elsewhere" in outcome.message
    if call_name == "put_task":
        puts = [e for e in proxy.exchanges if e.method == "PUT"]
        assert len(puts) <= 1, "a save was sent twice"
