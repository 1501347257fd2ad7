"""A note's unsaved edits kept on disk, as a Task's are: in the local store, on the disk lane.

A note's draft is stored beside the Tasks' drafts under the key ``note:<display path>``
(``NOTE_DRAFT_PREFIX``); the start-up list of agents with drafts leaves those keys out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from app.desk.failures import failure_text
from app.desk.runner import Runner
from app.store.records import Draft

NOTE_DRAFT_PREFIX = "note:"


def draft_key(display_path: str) -> str:
    return NOTE_DRAFT_PREFIX + display_path


def is_note_draft(draft: Draft) -> bool:
    return draft.agent_id.startswith(NOTE_DRAFT_PREFIX)


class DraftStore(Protocol):
    """What it needs of ``LocalStore``."""

    def save_draft(
        self,
        server: str,
        agent_id: str,
        text: str,
        base_version: int | None,
        *,
        agent_name: str = "",
    ) -> Draft: ...

    def get_draft(self, server: str, agent_id: str) -> Draft | None: ...

    def remove_draft(self, server: str, agent_id: str, confirmed_text: str) -> bool: ...


class NoteDrafts:
    """Keep, find and drop one server's note drafts; a failure becomes one sentence."""

    def __init__(
        self, runner: Runner, store: DraftStore, server: str, on_failure: Callable[[str], None]
    ) -> None:
        self._runner = runner
        self._store = store
        self._server = server
        self._on_failure = on_failure

    def keep(self, path: str, text: str, base_version: int, title: str) -> None:
        store, server = self._store, self._server
        self._runner.submit(
            lambda: store.save_draft(server, draft_key(path), text, base_version, agent_name=title),
            on_done=lambda _draft: None,
            on_error=self._failed("keep the note's draft"),
            lane="disk",
        )

    def find(self, path: str, found: Callable[[Draft | None], None]) -> None:
        store, server = self._store, self._server
        self._runner.submit(
            lambda: store.get_draft(server, draft_key(path)),
            on_done=found,
            on_error=self._failed("read the note's draft"),
            lane="disk",
        )

    def drop(self, path: str, confirmed_text: str) -> None:
        store, server = self._store, self._server
        self._runner.submit(
            lambda: store.remove_draft(server, draft_key(path), confirmed_text),
            on_done=lambda _removed: None,
            on_error=self._failed("clear the note's draft"),
            lane="disk",
        )

    def _failed(self, action: str) -> Callable[[BaseException], None]:
        def report(exc: BaseException) -> None:
            self._on_failure(f"Taskdesk could not {action}: {failure_text(exc)}")

        return report
