"""One embedded note for its preview dialog: fetched and rendered off the GUI thread."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Protocol

from app.core.expander import level_of
from app.core.models import OrgFile, Reader, can_read
from app.desk.failures import failure_text
from app.desk.runner import Runner

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
    kind: str = "note"
    about: str = ""  # what a collection is, in place of a text it doesn't have

    @classmethod
    def unavailable(cls, path: str, reason: str) -> NoteView:
        return cls("", path, level_of(path), None, None, reason)


def about_collection(name: str, level: str) -> str:
    """What a collection is, for its preview: it has records, not a text."""
    return (
        f"A table (a collection) named “{name}”, at {level} level. Where a Task embeds it, "
        "a run gets the table's name in its place, not its records."
    )


def read_note_view(
    client: NoteReader, path: str, broken: Collection[str], reader: Reader | None = None
) -> NoteView:
    """Fetch and render the note at ``path``; ``broken``: the paths the agent can't reach;
    ``reader``: the agent, checked against the note's access list (None: not checked).

    Blocking (network): run it on the runner, never on the GUI thread.
    """
    note = client.note(path)
    level = level_of(path)
    readable = path not in broken and (reader is None or can_read(note.access, reader))
    if note.kind == "collection":
        name = note.title or path.rsplit("/", 1)[-1]
        return NoteView(
            name,
            path,
            level,
            None,
            note.version,
            "" if readable else AGENT_CANT_READ,
            kind="collection",
            about=about_collection(name, level) if readable else "",
        )
    from app.render import render_markdown  # on the runner: the renderer loads on first use

    html = render_markdown(note.text) if note.text is not None else None
    reachable = html is not None and readable
    return NoteView(
        note.title,
        path,
        level,
        html if reachable else None,
        note.version,
        "" if reachable else AGENT_CANT_READ,
        kind=note.kind,
    )


def load_note_view(
    runner: Runner,
    client: NoteReader,
    path: str,
    broken: Collection[str],
    on_done: Callable[[NoteView], None],
    reader: Reader | None = None,
) -> None:
    """``read_note_view`` on the runner; a failure becomes a view that says what went wrong."""
    runner.submit(
        lambda: read_note_view(client, path, broken, reader),
        on_done=on_done,
        on_error=lambda exc: on_done(NoteView.unavailable(path, failure_text(exc))),
    )
