"""What the layers in front of the framework share: which requests they may take, and the
parts of the app they answer with (``kept_reads`` for GETs, ``quick_saves`` for PUTs)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from starlette.datastructures import State
from starlette.types import Scope

from app.server.db_open import Database
from app.server.http_guard import ConnectionBook
from app.server.task_answers import TaskAnswers, TaskView

TASK_FILE = re.compile(r"/api/agents/([^/]+)/files/task\.md")
"""The spec's task.md path, as the route matches it (``{agent_id}`` is one path segment)."""


@dataclass(frozen=True, slots=True)
class InFront:
    """The app's parts a layer in front of it uses, read from its ``state`` once it is whole
    (``server_config``)."""

    enabled: bool
    db: Database
    answers: TaskAnswers
    extensions: bool
    book: ConnectionBook | None

    @classmethod
    def of(cls, state: State) -> InFront:
        db: Database = state.db
        return cls(
            # A PostgreSQL read is a round trip, which the app makes in a thread: not here.
            # With the tests' fault hooks mounted (``kept_reads`` False) every request is the
            # app's, where the hooks are.
            enabled=getattr(state, "kept_reads", True) and db.on_loop,
            db=db,
            answers=state.task_answers,
            extensions=bool(getattr(state, "extensions", True)),
            book=getattr(state, "connection_book", None),
        )

    @property
    def plain_view(self) -> TaskView:
        """The answer a task.md request without a query string asks for."""
        return TaskView.FULL if self.extensions else TaskView.SPEC

    def task_agent(self, scope: Scope, method: str) -> str | None:
        """The agent whose task.md ``scope`` asks with ``method``, when a layer in front may
        take the request; else None (the app's)."""
        if (
            not self.enabled
            or scope["type"] != "http"
            or scope["method"] != method
            or scope.get("root_path")
        ):
            return None
        match = TASK_FILE.fullmatch(scope["path"])
        return match.group(1) if match is not None else None
