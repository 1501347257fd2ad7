"""Asks which embeds reach their files: once for the whole org, or a few guilds at a time.

The reference server answers for every guild in one request (EXTENSION), so start-up costs
the same requests for 5 guilds as for 500. A server without it is asked per guild, at most
``PER_GUILD_AT_ONCE`` at a time, so the Task the operator opened is never queued behind a
request per guild on the network pool.

Each answer is asked with the last one's ETag (a 304 when unchanged) and kept as the offline
copy; when the server can't be reached, the copy marks the agents as they were last seen.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING

from app.desk.runner import Runner

if TYPE_CHECKING:  # the records load with the first connection, not before the first paint
    from app.connect.connection import Connection
    from app.core.models import AgentEmbedStatus
    from app.store.records import Cached

log = logging.getLogger(__name__)

PER_GUILD_AT_ONCE = 2
WHOLE_ORG = ""
"""The offline copy's key for the org-wide answer (a guild's answer is filed by its id)."""


class EmbedMarks:
    """Feeds ``on_answer`` with embed-status answers and ``on_failed`` with failures."""

    def __init__(
        self,
        runner: Runner,
        on_answer: Callable[[list[AgentEmbedStatus]], None],
        on_failed: Callable[[BaseException], None],
    ) -> None:
        self._runner = runner
        self._on_answer = on_answer
        self._on_failed = on_failed
        self._connection: Connection | None = None
        self._waiting: deque[str] = deque()
        self._in_flight = 0

    def refresh(self, connection: Connection, guild_ids: Iterable[str] | None = None) -> None:
        """Ask about ``guild_ids`` (after a save: the saved agent's guild), or about all."""
        if connection is not self._connection:
            self._connection = connection
            self._waiting.clear()
            self._in_flight = 0
        features = connection.features
        if guild_ids is None and features.agent_list and features.org_embed_status is not False:
            self._runner.submit(
                connection.client.org_embed_status,
                on_done=partial(self._answered, connection),
                on_error=partial(self._org_failed, connection),
            )
            return
        if guild_ids is None and connection.offline_as_of is not None:
            self._from_copy(connection, WHOLE_ORG)  # opened offline: the org copy, if any
        wanted = list(guild_ids) if guild_ids is not None else connection.guild_ids()
        self._waiting.extend(g for g in wanted if g not in self._waiting)
        self._next(connection)

    def _org_failed(self, connection: Connection, exc: BaseException) -> None:
        from app.connect.server_features import lacks_endpoint

        if connection is not self._connection:
            return
        if lacks_endpoint(exc):
            log.info("no org-wide embed status; asking per guild: %s", exc)
            connection.features.org_embed_status = False
            self.refresh(connection)
            return
        self._on_failed(exc)
        if _is_connection_trouble(exc):
            self._from_copy(connection, WHOLE_ORG)

    def _next(self, connection: Connection) -> None:
        while self._waiting and self._in_flight < PER_GUILD_AT_ONCE:
            guild_id = self._waiting.popleft()
            self._in_flight += 1
            self._runner.submit(
                partial(connection.client.embed_status, guild_id),
                on_done=partial(self._guild_answered, connection, guild_id),
                on_error=partial(self._guild_failed, connection, guild_id),
            )

    def _answered(self, connection: Connection, statuses: list[AgentEmbedStatus]) -> None:
        if connection is self._connection:
            connection.features.org_embed_status = True
            self._on_answer(statuses)
            self._keep_copy(connection, WHOLE_ORG, statuses)

    def _guild_answered(
        self, connection: Connection, guild_id: str, statuses: list[AgentEmbedStatus]
    ) -> None:
        if connection is not self._connection:
            return
        self._in_flight -= 1
        self._on_answer(statuses)
        self._keep_copy(connection, guild_id, statuses)
        self._next(connection)

    def _guild_failed(self, connection: Connection, guild_id: str, exc: BaseException) -> None:
        if connection is not self._connection:
            return
        self._in_flight -= 1
        self._on_failed(exc)
        if _is_connection_trouble(exc):
            self._from_copy(connection, guild_id)
        self._next(connection)

    # ---------------------------------------------------------------- the offline copy

    def _keep_copy(
        self, connection: Connection, key: str, statuses: list[AgentEmbedStatus]
    ) -> None:
        store, server = connection.store, connection.server_key
        self._runner.submit(
            lambda: store.put_embed_status(server, key, statuses),
            on_done=_ignore,
            on_error=lambda exc: log.info("no offline copy of the embed status: %s", exc),
            lane="disk",
        )

    def _from_copy(self, connection: Connection, key: str) -> None:
        """The marks as last seen, while the server can't be reached (a copy, if any)."""
        store, server = connection.store, connection.server_key

        def shown(cached: Cached[list[AgentEmbedStatus]] | None) -> None:
            if cached is not None and connection is self._connection:
                self._on_answer(list(cached.value))

        self._runner.submit(
            lambda: store.get_embed_status(server, key),
            on_done=shown,
            on_error=lambda exc: log.info("no offline copy of the embed status: %s", exc),
            lane="disk",
        )


def _ignore(_: object) -> None:
    pass


def _is_connection_trouble(exc: BaseException) -> bool:
    # The session's steps are loaded with the first failure: not on the way to the first
    # paint, which makes the window's embed marks.
    from app.desk.session_steps import is_connection_trouble

    return is_connection_trouble(exc)
