"""The parts a session test puts together: a real server, a fault proxy, a store, an editor."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import requests

from app.client import TaskdeskClient
from app.core.models import TaskDoc
from app.core.user_message import UserMessage
from app.desk.retry_backoff import RetryBackoff
from app.desk.runner import Runner
from app.desk.session import TaskSession
from app.desk.session_state import SessionState
from app.server import ServerHandle, start_server
from app.store import LocalStore
from tests.faultproxy import Fault, FaultProxy
from tests.server_hooks import install_test_hooks

__all__ = ["Fault", "FaultProxy"]  # the tests reach the proxy through this module

TESTS = Path(__file__).resolve().parent.parent
WORKSPACE = TESTS / "data" / "workspace_basic.json"
SERVER_KEY = "http://taskdesk.test"
ANN = "ann-secret"
BOB = "bob-secret"


class TestHooks:
    """The reference server's fault-injection routes (mounted with ``test_hooks=True``)."""

    def __init__(self, url: str) -> None:
        self._url = url

    def _post(self, route: str, body: dict[str, object]) -> None:
        answer = requests.post(f"{self._url}/__test__/{route}", json=body, timeout=5)
        answer.raise_for_status()

    def delay(
        self, seconds: float, *, after: bool = False, path: str = "", method: str = ""
    ) -> None:
        self._post("delay", {"seconds": seconds, "after": after, "path": path, "method": method})

    def fail(
        self,
        status: int = 503,
        *,
        count: int = 1,
        retry_after: float | None = None,
        path: str = "",
        method: str = "",
    ) -> None:
        body: dict[str, object] = {"status": status, "count": count, "path": path, "method": method}
        if retry_after is not None:
            body["retry_after"] = retry_after
        self._post("fail", body)

    def cut(self, *, count: int = 1, path: str = "", method: str = "") -> None:
        self._post("cut", {"count": count, "path": path, "method": method})

    def reset(self) -> None:
        self._post("reset", {})


@contextmanager
def running_server(tmp: Path) -> Iterator[ServerHandle]:
    handle = start_server(WORKSPACE, tmp / "server.sqlite3", configure=install_test_hooks)
    try:
        yield handle
    finally:
        handle.stop()


@dataclass
class EditorText:
    """Our stand-in for the editor widget: holds the text, reports edits like textChanged."""

    text: str = ""
    session: TaskSession | None = None
    replaced: int = 0

    def __call__(self) -> str:
        return self.text

    def attach(self, session: TaskSession) -> None:
        self.session = session
        session.task_loaded.connect(self._on_task_loaded)
        session.text_restored.connect(self._replace)

    def _on_task_loaded(self, doc: TaskDoc) -> None:
        self._replace(doc.content)

    def _replace(self, text: str) -> None:
        # A real editor emits textChanged when the session replaces its text; so do we.
        self.replaced += 1
        self.text = text
        assert self.session is not None
        self.session.note_edited()

    def type(self, text: str) -> None:
        """The operator's keystrokes, ending with ``text`` in the editor."""
        self.text = text
        assert self.session is not None
        self.session.note_edited()


@dataclass
class Harness:
    """One session with everything it talks to, and what it said."""

    session: TaskSession
    editor: EditorText
    store: LocalStore
    runner: Runner
    messages: list[UserMessage] = field(default_factory=list)
    states: list[SessionState] = field(default_factory=list)

    @property
    def state(self) -> SessionState:
        return self.session.state()

    def said(self, level: str) -> list[str]:
        return [m.text for m in self.messages if m.severity.value == level]


def make_harness(
    *,
    client: TaskdeskClient,
    store: LocalStore,
    runner: Runner,
    poll_interval_ms: int = 60_000,
    backoff: RetryBackoff | None = None,
) -> Harness:
    editor = EditorText()
    session = TaskSession(
        client=client,
        store=store,
        runner=runner,
        server_key=SERVER_KEY,
        text_source=editor,
        poll_interval_ms=poll_interval_ms,
        backoff=backoff or RetryBackoff(first_s=0.1, cap_s=0.5),
    )
    editor.attach(session)
    harness = Harness(session, editor, store, runner)
    session.message.connect(harness.messages.append)
    session.state_changed.connect(harness.states.append)
    return harness


def client(url: str, token: str) -> TaskdeskClient:
    """A client with short timeouts: a test waits seconds, not minutes, for a dead server."""
    return TaskdeskClient(url, token, connect_timeout=1.0, read_timeout=5.0, deadline=10.0)
