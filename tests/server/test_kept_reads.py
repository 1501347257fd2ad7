"""A kept task.md answer sent in front of the framework: the app's own bytes and headers, and
every other request handed to the app, which answers it as before."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from starlette.applications import Starlette
from starlette.types import Receive, Scope, Send

from app.server import start_server
from app.server.app_factory import create_app
from app.server.kept_reads import KeptReads
from tests.live_server import WORKSPACE_BASIC
from tests.server.asgi_calls import asgi_call

TASK = "/api/agents/a_scout/files/task.md"
TIMEOUT = 30.0


class Behind:
    """The API app, noting each request that reaches it."""

    def __init__(self, app: Starlette) -> None:
        self.app = app
        self.reached: list[str] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.reached.append(f"{scope['method']} {scope['path']}")
        await self.app(scope, receive, send)


@pytest.fixture
def behind(tmp_path: Path) -> Iterator[Behind]:
    app = create_app(tmp_path / "db.sqlite3", WORKSPACE_BASIC)
    yield Behind(app)
    app.state.db.close()


def asgi_get(asgi: Any, path: str = TASK, **asked: Any) -> tuple[int, dict[bytes, bytes], bytes]:
    """(status, headers, body) of one request to ``asgi`` (``asgi_call``'s arguments)."""
    return asyncio.run(asgi_call(asgi, path, **asked))


def test_a_kept_answer_is_sent_in_front_with_the_apps_own_bytes(behind: Behind) -> None:
    reads = KeptReads(behind, behind.app.state)
    built = asgi_get(reads)  # the first read builds the answer: the app's
    assert behind.reached == [f"GET {TASK}"]
    kept = asgi_get(reads)
    assert behind.reached == [f"GET {TASK}"], "the kept answer was sent in front of the app"
    by_app = asgi_get(behind.app)
    for status, headers, body in (kept, by_app):
        assert status == 200
        assert body == built[2]
        assert list(headers) == list(built[1])  # the same headers, in the same order
        assert headers[b"server-timing"].startswith(b"app;dur=")
        assert {k: v for k, v in headers.items() if k != b"server-timing"} == {
            k: v for k, v in built[1].items() if k != b"server-timing"
        }


@pytest.mark.parametrize(
    ("request_", "status"),
    [
        ({"query": b"revisions=full"}, 200),
        ({"query": b"revisions=summary&x=1"}, 200),
        ({"headers": [(b"if-none-match", b"*")]}, 304),
        ({"token": "nobody-secret"}, 401),
        ({"token": None}, 401),
        # Two tokens: the first is the one looked up, by the token gate and here alike.
        ({"headers": [(b"authorization", b"Bearer nobody-secret")]}, 401),
        ({"path": "/api/agents/a_nobody/files/task.md"}, 404),
        ({"path": TASK + "/"}, 404),
        ({"method": "HEAD"}, 405),
        ({"headers": [(b"content-length", b"2")], "body": b"{}"}, 200),
    ],
)
def test_every_other_request_is_the_apps(
    behind: Behind, request_: dict[str, Any], status: int
) -> None:
    reads = KeptReads(behind, behind.app.state)
    asgi_get(reads)  # kept from here on
    behind.reached.clear()
    answered, _, _ = asgi_get(reads, **request_)
    assert answered == status
    assert len(behind.reached) == 1


def test_the_summary_is_sent_in_front_too(behind: Behind) -> None:
    reads = KeptReads(behind, behind.app.state)
    built = asgi_get(reads, query=b"revisions=summary")
    kept = asgi_get(reads, query=b"revisions=summary")
    assert behind.reached == [f"GET {TASK}"]
    assert kept[2] == built[2] and b'"content":' in kept[2]
    assert kept[2] != asgi_get(reads)[2]  # the summary leaves the revisions' text out


def test_a_spec_only_server_sends_the_spec_answer_and_leaves_the_summary_to_the_app(
    tmp_path: Path,
) -> None:
    app = create_app(tmp_path / "db.sqlite3", WORKSPACE_BASIC, extensions=False)
    behind = Behind(app)
    reads = KeptReads(behind, app.state)
    try:
        built = asgi_get(reads)
        kept = asgi_get(reads)
        assert behind.reached == [f"GET {TASK}"]
        assert kept[2] == built[2] and b"etag" not in kept[1]
        assert asgi_get(reads, query=b"revisions=summary")[2] == built[2]  # ignored, as there
        assert len(behind.reached) == 2
    finally:
        app.state.db.close()


def test_an_answer_of_an_earlier_version_is_never_sent(behind: Behind) -> None:
    reads = KeptReads(behind, behind.app.state)
    _, before, _ = asgi_get(reads)
    db = behind.app.state.db
    with db.read() as tx:
        ann = tx.caller_for_token("ann-secret")
    with db.write() as tx:  # a save through another process: only the database knows
        tx.save_task("a_scout", "Saved elsewhere.\n", expected_version=None, by=ann)
    behind.reached.clear()
    _, headers, body = asgi_get(reads)
    assert behind.reached == [f"GET {TASK}"]
    assert b'"content":"Saved elsewhere.\\n"' in body
    version = int(before[b"etag"].split(b"-")[0].removeprefix(b'"v'))
    assert headers[b"etag"].startswith(b'"v%d-' % (version + 1))


def test_with_the_fault_hooks_mounted_every_request_is_the_apps(behind: Behind) -> None:
    behind.app.state.kept_reads = False
    reads = KeptReads(behind, behind.app.state)
    asgi_get(reads)
    asgi_get(reads)
    assert behind.reached == [f"GET {TASK}"] * 2


def test_the_served_answer_is_the_same_whichever_way_it_goes(tmp_path: Path) -> None:
    """Over HTTP, on the real server: the kept answer and the app's (a query string it ignores
    sends the request to the app) are the same bytes and headers but for the time."""
    with start_server(WORKSPACE_BASIC, tmp_path / "db.sqlite3") as handle:
        session = requests.Session()
        session.headers["Authorization"] = "Bearer mia-secret"  # a member reads it too
        first = session.get(handle.url + TASK, timeout=TIMEOUT)
        kept = session.get(handle.url + TASK, timeout=TIMEOUT)
        by_app = session.get(handle.url + TASK + "?unused=1", timeout=TIMEOUT)
    for answer in (first, kept, by_app):
        assert answer.status_code == 200
        assert answer.content == first.content
        assert {k for k in answer.headers if k.lower() not in ("date", "server-timing")} == {
            k for k in first.headers if k.lower() not in ("date", "server-timing")
        }
        assert answer.headers["ETag"] == first.headers["ETag"]
