"""The fleet's reads for the window: every agent's health, a search, the audit.

Each is one request on the runner; the newest request wins (an older answer that comes back
late is dropped), and a failure comes back as one sentence. A server without the fleet
(a spec-only one answers 404) is said in one line, and the rest of the app goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

from PySide6.QtCore import QObject, Signal

from app.core.audit_csv import audit_csv
from app.core.fleet_models import AgentMatches, AuditEvent, HealthRow
from app.desk.failures import failure_text
from app.desk.qobject_alive import alive_check
from app.desk.runner import Runner

T = TypeVar("T")

NO_FLEET = (
    "This server has no fleet view (health, search across Tasks, change sets, audit): "
    "open the agents one at a time."
)


class Searcher(Protocol):
    """What a search needs: ``TaskdeskClient`` (the server's), or a member's
    ``LiveTaskSearch`` (app.desk.member_search)."""

    def search(
        self, query: str, *, in_prompt: bool = ..., regex: bool = ..., guild_id: str | None = ...
    ) -> list[AgentMatches]: ...


class FleetClient(Searcher, Protocol):
    """What the fleet's reads need of ``TaskdeskClient``."""

    def org_health(self) -> list[HealthRow]: ...

    def audit(
        self,
        *,
        since: str | None = ...,
        agent_id: str | None = ...,
        guild_id: str | None = ...,
        limit: int | None = ...,
    ) -> list[AuditEvent]: ...


def fleet_failure(exc: BaseException) -> str:
    """A 404 from a server without the extension is the server lacking the fleet."""
    from app.client.errors import NotFound

    return NO_FLEET if isinstance(exc, NotFound) else failure_text(exc)


class _NewestWins(QObject):
    """One request at a time counts: each new one makes the earlier answers stale."""

    failed = Signal(str)

    def __init__(self, runner: Runner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._asked = 0
        self._alive = alive_check(self)

    def _ask(self, fn: Callable[[], T], on_done: Callable[[T], None]) -> None:
        self._asked += 1
        ticket = self._asked

        def done(result: T) -> None:
            if self._alive() and ticket == self._asked:
                on_done(result)

        def failed(exc: BaseException) -> None:
            if self._alive() and ticket == self._asked:
                self.failed.emit(fleet_failure(exc))

        self._runner.submit(fn, on_done=done, on_error=failed)


class FleetHealth(_NewestWins):
    """``load()`` → ``loaded(list[HealthRow])``."""

    loaded = Signal(object)

    def __init__(self, runner: Runner, client: FleetClient, parent: QObject | None = None) -> None:
        super().__init__(runner, parent)
        self._client = client

    def load(self) -> None:
        self._ask(self._client.org_health, self.loaded.emit)


class FleetSearch(_NewestWins):
    """``search(...)`` → ``found(list[AgentMatches])``; a bad pattern is a ``failed``."""

    found = Signal(object)

    def __init__(self, runner: Runner, client: Searcher, parent: QObject | None = None) -> None:
        super().__init__(runner, parent)
        self._client = client

    def search(
        self, query: str, *, in_prompt: bool, regex: bool, guild_id: str | None = None
    ) -> None:
        if not query:
            self.failed.emit("Type what to find.")
            return
        client = self._client
        self._ask(
            lambda: client.search(query, in_prompt=in_prompt, regex=regex, guild_id=guild_id),
            self.found.emit,
        )


class FleetAudit(_NewestWins):
    """``load(...)`` → ``loaded(list[AuditEvent])``; ``export(path, events)`` writes them as
    CSV on the disk lane → ``exported(sentence)``."""

    loaded = Signal(object)
    exported = Signal(str)

    def __init__(self, runner: Runner, client: FleetClient, parent: QObject | None = None) -> None:
        super().__init__(runner, parent)
        self._client = client

    def load(
        self,
        *,
        agent_id: str | None = None,
        guild_id: str | None = None,
        since: str | None = None,
        limit: int = 5000,
    ) -> None:
        client = self._client
        self._ask(
            lambda: client.audit(since=since, agent_id=agent_id, guild_id=guild_id, limit=limit),
            self.loaded.emit,
        )

    def export(self, path: Path, events: list[AuditEvent]) -> None:
        text = audit_csv(events)

        def write() -> None:
            path.write_text(text, encoding="utf-8", newline="")

        def failed(exc: BaseException) -> None:
            if not self._alive():
                return
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.exported.emit(f"The audit could not be written to {path}: {why}.")

        def written(_: None) -> None:
            if self._alive():
                self.exported.emit(f"Exported {len(events):,} changes to {path}.")

        self._runner.submit(write, on_done=written, on_error=failed, lane="disk")
