"""One embedded note for its preview dialog: fetched and rendered off the GUI thread."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Protocol

from app.core.expander import level_of
from app.core.models import OrgFile
from app.desk.failures import failure_text
from app.desk.runner import Runner
from app.render import render_markdown

AGENT_CANT_READ = "The agent can't read it."
NO_NOTE_TEXT = "This server doesn't share note text, so the note can't be shown here."


class NoteReader(Protocol):
    """What the loader needs of ``TaskdeskClient``."""

    def note(self, display_path: str) -> OrgFile: ...


@dataclass(frozen=True, slots=True)
class NoteView:
    """What the note's dialog shows: ``html`` None means the note is not shown, and
    ``reason`` says why (empty when it is shown)."""

    title: str
    path: str
    level: str
    html: str | None
    version: int | None
    reason: str = ""

    @classmethod
    def unavailable(cls, path: str, reason: str) -> NoteView:
        return cls("", path, level_of(path), None, None, reason)


def read_note_view(client: NoteReader, path: str, broken: Collection[str]) -> NoteView:
    """Fetch and render the note at ``path``; ``broken``: the paths the agent can't reach.

    Blocking (network): run it on the runner, never on the GUI thread.
    """
    note = client.note(path)
    html = render_markdown(note.text) if note.text is not None else None
    reachable = html is not None and path not in broken
    return NoteView(
        note.title,
        path,
        level_of(path),
        html if reachable else None,
        note.version,
        "" if reachable else AGENT_CANT_READ,
    )


def load_note_view(
    runner: Runner,
    client: NoteReader,
    path: str,
    broken: Collection[str],
    on_done: Callable[[NoteView], None],
) -> None:
    """``read_note_view`` on the runner; a failure becomes a view that says what went wrong."""
    runner.submit(
        lambda: read_note_view(client, path, broken),
        on_done=on_done,
        on_error=lambda exc: on_done(NoteView.unavailable(path, failure_text(exc))),
    )
