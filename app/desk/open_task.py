"""OpenTask: the narrow view of the open agent that the Task's controllers and flows are given."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from app.core.expander import task_display_path
from app.core.models import AgentRow, Reader

if TYPE_CHECKING:
    from app.connect.connection import Connection
    from app.desk.session_state import SessionState
    from app.render.preview_notes import PreviewNotes
    from app.render.task_insight import TaskContext


class OpenTask(Protocol):
    """What a controller may know of the open Task: the agent and server, the session's
    state, the editor text and the preview's notes. The Task tab is one; a test may build
    another without a window (``runs`` in tests/gui/test_run_controller.py)."""

    @property
    def agent(self) -> AgentRow | None: ...

    @property
    def connection(self) -> Connection | None: ...

    @property
    def state(self) -> SessionState: ...

    @property
    def preview_notes(self) -> PreviewNotes | None: ...

    def editor_text(self) -> str: ...

    def has_unsaved(self) -> bool: ...


def task_context(task: OpenTask) -> TaskContext | None:
    """Who reads the open Task and where it lives, for References and the budget."""
    from app.render.task_insight import TaskContext

    agent, connection = task.agent, task.connection
    if agent is None or connection is None:
        return None
    org = connection.me.org_id
    return TaskContext(org, Reader(agent.id, agent.guild_id), task_display_path(org, agent.id))


def still_open(task: OpenTask, agent_id: str) -> bool:
    """The same agent is open: an answer for it may be shown."""
    return task.agent is not None and task.agent.id == agent_id
