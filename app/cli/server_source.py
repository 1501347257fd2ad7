"""The ``--server`` org of ``references`` and ``check``: a live server read through the API."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

from app.cli.common import TOKEN_VARIABLE, UsageError
from app.cli.source_types import AgentInfo
from app.client import NotFound, TaskdeskClient, TaskdeskError, Unauthorized
from app.core.expander import task_display_path
from app.core.marker_reasons import EarlierFile, history_of
from app.core.models import OrgFile

T = TypeVar("T")


class ServerSource:
    """A live server, read through the API; each file is fetched once."""

    def __init__(
        self, url: str, token: str, history: tuple[EarlierFile, ...], runs: Sequence[str]
    ) -> None:
        self.url = url
        self.where = f"on {url}"
        self.client = TaskdeskClient(url, token)
        self._files: dict[str, OrgFile | None] = {}
        self._agents: list[AgentInfo] | None = None
        try:
            me = self._ask(self.client.me, "who the token belongs to (/api/me)")
            self.org_id = me.org_id
            if me.type != "operator":
                print(
                    f"taskdesk: signed in as {me.type} {me.name}: files this token may not "
                    "read show as missing",
                    file=sys.stderr,
                    flush=True,
                )
            self._history = history + tuple(
                earlier for run_id in runs for earlier in self._run_history(run_id)
            )
        except BaseException:
            self.client.close()
            raise

    def _ask(self, call: Callable[[], T], what: str) -> T:
        try:
            return call()
        except NotFound:
            raise UsageError(
                f"{self.url} does not say {what}: references need the reference server's "
                "extensions (see docs/REFERENCES.md)"
            ) from None
        except TaskdeskError as exc:
            raise self._refused(exc) from None

    def _refused(self, exc: TaskdeskError, doing: str = "") -> UsageError:
        """One line for a failed call; a refused token names where it came from (the app's
        "connection settings" mean nothing on the command line)."""
        if isinstance(exc, Unauthorized):
            return UsageError(
                f"{self.url} did not accept the token in {TOKEN_VARIABLE}: set it to an access "
                "token of this server (ask an operator for one)"
            )
        return UsageError(f"{self.url}: {doing}{exc.message}")

    def _run_history(self, run_id: str) -> tuple[EarlierFile, ...]:
        try:
            run = self.client.get_run(run_id)
        except NotFound:
            raise UsageError(f"no run {run_id!r} on {self.url}") from None
        except TaskdeskError as exc:
            raise self._refused(exc) from None
        source = run.task_source
        task = source.display_path
        notes = tuple(EarlierFile(n.display_path, n.version, run.id, task) for n in source.notes)
        return notes + tuple(EarlierFile(p, None, run.id, task) for p in source.collections)

    def agents(self) -> list[AgentInfo]:
        if self._agents is None:
            rows = self._ask(self.client.agents, "its agents (/api/org/agents)")
            self._agents = [AgentInfo(a.id, a.name, a.guild_id) for a in rows]
        return self._agents

    def task(self, agent_id: str) -> tuple[str, int]:
        try:
            doc = self.client.get_task(agent_id)
        except NotFound:
            raise UsageError(f"no agent {agent_id!r} on {self.url}") from None
        except TaskdeskError as exc:
            raise self._refused(exc) from None
        return doc.content, doc.version

    def lookup(self, path: str) -> OrgFile | None:
        if path not in self._files:
            try:
                self._files[path] = self.client.note(path)
            except NotFound:
                self._files[path] = None
            except TaskdeskError as exc:
                raise self._refused(exc, f"reading {path}: ") from None
        return self._files[path]

    def history(self, agent_id: str) -> tuple[EarlierFile, ...]:
        return history_of(self._history, task_display_path(self.org_id, agent_id))

    def close(self) -> None:
        self.client.close()
