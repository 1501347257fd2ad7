"""A small operator save made in front of the framework: the app's own answer, and every other
PUT handed to the app, with its body given to it again, which answers it as before."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from starlette.types import Message

from app.server import start_server
from app.server.app_factory import create_app
from app.server.quick_saves import QuickSaves
from app.server.task_saves import SAVE_AT_ONCE_BYTES
from tests.live_server import WORKSPACE_BASIC
from tests.server.asgi_calls import TASK, asgi_call
from tests.server.test_kept_reads import Behind

TIMEOUT = 30.0


@pytest.fixture
def behind(tmp_path: Path) -> Iterator[Behind]:
    app = create_app(tmp_path / "db.sqlite3", WORKSPACE_BASIC)
    yield Behind(app)
    app.state.db.close()


def put(asgi: Any, body: Any, *, sized: bool = True, **asked: Any) -> tuple[int, dict, bytes]:
    """(status, headers, body) of one PUT of ``body`` (JSON unless bytes) to ``asgi``."""
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    head = [*asked.pop("headers", []), *([(b"content-length", b"%d" % len(raw))] if sized else [])]
    return asyncio.run(
        asgi_call(asgi, asked.pop("path", TASK), method="PUT", headers=head, body=raw, **asked)
    )


def test_a_small_operator_save_is_made_in_front_with_the_apps_own_answer(
    behind: Behind, tmp_path: Path
) -> None:
    saves = QuickSaves(behind, behind.app.state)
    status, headers, body = put(saves, {"content": "Made in front.\n"})
    assert status == 200
    assert behind.reached == [], "the save was made in front of the app"
    # The same bytes a server that never saw the save builds from the database alone.
    other = create_app(tmp_path / "db.sqlite3", WORKSPACE_BASIC)
    try:
        fresh = asyncio.run(asgi_call(other))
    finally:
        other.state.db.close()
    assert fresh[0] == 200 and body == fresh[2]
    assert json.loads(body)["content"] == "Made in front.\n"
    # The head is the app's: the same headers in the same order, the ETag of the new version.
    by_app = put(behind.app, {"content": "Made by the app.\n"})
    assert by_app[0] == 200
    assert list(headers) == list(by_app[1])
    assert headers[b"etag"] == fresh[1][b"etag"]
    assert headers[b"server-timing"].startswith(b"app;dur=")


def test_saves_in_front_go_on_from_one_another_as_the_apps_do(behind: Behind) -> None:
    saves = QuickSaves(behind, behind.app.state)
    versions = []
    for n in range(3):
        _, _, body = put(saves, {"content": f"Save {n}.\n"})
        versions.append(json.loads(body)["version"])
    assert versions == [versions[0], versions[0] + 1, versions[0] + 2]
    assert behind.reached == []
    answer = json.loads(put(saves, {"content": "Save 3.\n", "expected_version": versions[2]})[2])
    assert answer["version"] == versions[2] + 1
    assert [r["content"] for r in answer["revisions"][:3]] == [
        "Save 2.\n",
        "Save 1.\n",
        "Save 0.\n",
    ]


BIG = "x" * (SAVE_AT_ONCE_BYTES + 1)


@pytest.mark.parametrize(
    ("name", "asked", "status", "error"),
    [
        (
            "a member",
            {"body": {"content": "A.\n"}, "token": "mia-secret"},
            422,
            "task is not writable",
        ),
        ("no token", {"body": {"content": "A.\n"}, "token": None}, 401, "unauthorized"),
        ("an unknown token", {"body": {"content": "A.\n"}, "token": "nobody"}, 401, "unauthorized"),
        (  # the first token is the one looked up, by the token gate and here alike
            "two tokens, the first unknown",
            {"body": {"content": "A.\n"}, "headers": [(b"authorization", b"Bearer nobody")]},
            401,
            "unauthorized",
        ),
        ("a query string", {"body": {"content": "A.\n"}, "query": b"revisions=summary"}, 200, None),
        ("a chunked body", {"body": {"content": "A.\n"}, "sized": False}, 200, None),
        (
            "a body that is not JSON",
            {"body": b'{"content": '},
            422,
            "request body is not valid JSON",
        ),
        (
            "a body that is not an object",
            {"body": ["A.\n"]},
            422,
            "request body must be a JSON object",
        ),
        ("content that is not text", {"body": {"content": 7}}, 422, "content must be a string"),
        (
            "a stale version",
            {"body": {"content": "A.\n", "expected_version": 1}},
            409,
            "version conflict",
        ),
        (
            "an unknown agent",
            {"body": {"content": "A.\n"}, "path": "/api/agents/a_nobody/files/task.md"},
            404,
            "no such agent",
        ),
        ("a larger Task", {"body": {"content": BIG}}, 200, None),
    ],
)
def test_every_other_put_is_the_apps_with_its_body_given_again(
    behind: Behind, name: str, asked: dict[str, Any], status: int, error: str | None
) -> None:
    saves = QuickSaves(behind, behind.app.state)
    put(saves, {"content": "Two versions, so that version 1 is stale.\n"})
    behind.reached.clear()
    answered, _, body = put(saves, **dict(asked))
    assert answered == status, body
    assert len(behind.reached) == 1, f"{name}: the app answered it"
    if error is not None:
        assert json.loads(body)["error"] == error
        # Word for word what the app says when it alone is asked.
        assert put(behind.app, **dict(asked))[2] == body
    else:
        assert json.loads(body)["content"] == asked["body"]["content"]


def test_a_client_gone_before_its_body_came_is_the_apps(behind: Behind) -> None:
    saves = QuickSaves(behind, behind.app.state)
    sent: list[Message] = []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "PUT",
        "scheme": "http",
        "path": TASK,
        "raw_path": TASK.encode(),
        "query_string": b"",
        "root_path": "",
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "headers": [(b"authorization", b"Bearer ann-secret"), (b"content-length", b"40")],
        "state": {},
    }
    arriving: list[Message] = [
        {"type": "http.request", "body": b'{"content": "half', "more_body": True},
        {"type": "http.disconnect"},
    ]

    async def receive() -> Message:
        return arriving.pop(0)

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(saves(scope, receive, send))
    assert behind.reached == [f"PUT {TASK}"] and sent == []  # the app noted it, quietly
    with behind.app.state.db.read() as tx:
        live = tx.task("a_scout", with_revisions=False)
    assert live is not None and "half" not in live.content


def test_with_the_fault_hooks_mounted_every_save_is_the_apps(behind: Behind) -> None:
    behind.app.state.kept_reads = False
    saves = QuickSaves(behind, behind.app.state)
    assert put(saves, {"content": "Through the app.\n"})[0] == 200
    assert behind.reached == [f"PUT {TASK}"]


def test_over_http_a_save_made_in_front_answers_as_one_made_by_the_app(tmp_path: Path) -> None:
    """On the real server: a save in front and one the app makes (a query string it ignores
    sends it there) have the same headers but for the time, and the GET after each is the
    PUT's answer."""
    with start_server(WORKSPACE_BASIC, tmp_path / "db.sqlite3") as handle:
        session = requests.Session()
        session.headers["Authorization"] = "Bearer ann-secret"
        answers = []
        for query in ("", "?unused=1"):
            saved = session.put(
                handle.url + TASK + query, json={"content": f"Saved{query}.\n"}, timeout=TIMEOUT
            )
            read = session.get(handle.url + TASK, timeout=TIMEOUT)
            assert saved.status_code == 200 and read.content == saved.content
            assert saved.headers["ETag"] == read.headers["ETag"]
            answers.append(saved)
    front, by_app = answers
    assert json.loads(by_app.content)["version"] == json.loads(front.content)["version"] + 1
    assert [k for k in front.headers if k.lower() not in ("date",)] == [
        k for k in by_app.headers if k.lower() not in ("date",)
    ]
