"""The session's pure transitions driven by hand: an editor to read, Tasks to answer with.

No Qt and no I/O: ``run`` performs ``Then`` and the editor effects the way the session does
and hands back the model and every other effect, in order, for the test to look at.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from app.core.models import Revision, TaskDoc
from app.desk import session_reads as reads
from app.desk.retry_backoff import RetryBackoff
from app.desk.session_effects import Effect, LoadEditor, RestoreEditor, Say, Then, Transition
from app.desk.session_model import SessionModel
from tests.factories import task_doc

AGENT = "a_writer"
NOW = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)


@dataclass
class Editor:
    """What the operator sees; the transitions read it, ``run`` replaces it as asked."""

    now: str = ""
    edits: int = 0

    def text(self) -> str:
        return self.now

    def type(self, text: str) -> None:
        self.now = text
        self.edits += 1


def doc(version: int, content: str, by: str | None = None, *, earlier: int = 0) -> TaskDoc:
    """The live Task at ``version``, with ``earlier`` revisions before it ("v<n> text")."""
    revisions = tuple(
        Revision(v, f"v{v} text", "2026-03-01T00:00:00Z", "Bob")
        for v in range(version - 1, version - 1 - earlier, -1)
    )
    return task_doc(AGENT, content, version, *revisions, updated_at=None, updated_by_name=by)


def run(
    model: SessionModel, transition: Transition, editor: Editor
) -> tuple[SessionModel, list[Effect]]:
    """Runs ``transition`` and every ``Then`` it asks for, as the session does."""
    step = transition(model, editor)
    model = step.model
    effects: list[Effect] = []
    for effect in step.effects:
        if isinstance(effect, Then):
            model, more = run(model, effect.transition, editor)
            effects.extend(more)
            continue
        if isinstance(effect, LoadEditor):
            editor.now = effect.doc.content
        elif isinstance(effect, RestoreEditor):
            editor.now = effect.text
            editor.edits += 1
        effects.append(effect)
    return model, effects


def said(effects: list[Effect]) -> list[str]:
    return [e.message.text for e in effects if isinstance(e, Say)]


def of(kind: type, effects: list[Effect]) -> list[Effect]:
    return [e for e in effects if isinstance(e, kind)]


def opened_on(live: TaskDoc, editor: Editor, backoff: RetryBackoff | None = None) -> SessionModel:
    """A session that opened ``AGENT`` and heard the server answer with ``live``."""
    start = SessionModel(backoff=backoff or RetryBackoff())
    model, _ = run(start, lambda m, ed: reads.open_agent(m, ed, AGENT, "Writer"), editor)
    model, _ = run(model, lambda m, ed: reads.local_read(m, ed, model.gen, None, None), editor)
    model, _ = run(model, lambda m, ed: reads.fetched(m, ed, model.gen, live, NOW), editor)
    return model
