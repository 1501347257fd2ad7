"""Asks which embeds reach their files: once for the whole org, or a few guilds at a time.

The reference server answers for every guild in one request (EXTENSION), so start-up costs
the same requests for 5 guilds as for 500. A server without it is asked per guild, at most
``PER_GUILD_AT_ONCE`` at a time, so the Task the operator opened is never queued behind a
request per guild on the network pool.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING

from app.core.models import AgentEmbedStatus
from app.desk.runner import Runner

if TYPE_CHECKING:
    from app.connect.connection import Connection

log = logging.getLogger(__name__)

PER_GUILD_AT_ONCE = 2


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

    def _next(self, connection: Connection) -> None:
        while self._waiting and self._in_flight < PER_GUILD_AT_ONCE:
            guild_id = self._waiting.popleft()
            self._in_flight += 1
            self._runner.submit(
                partial(connection.client.embed_status, guild_id),
                on_done=partial(self._guild_answered, connection),
                on_error=partial(self._guild_failed, connection),
            )

    def _answered(self, connection: Connection, statuses: list[AgentEmbedStatus]) -> None:
        if connection is self._connection:
            connection.features.org_embed_status = True
            self._on_answer(statuses)

    def _guild_answered(self, connection: Connection, statuses: list[AgentEmbedStatus]) -> None:
        if connection is not self._connection:
            return
        self._in_flight -= 1
        self._on_answer(statuses)
        self._next(connection)

    def _guild_failed(self, connection: Connection, exc: BaseException) -> None:
        if connection is not self._connection:
            return
        self._in_flight -= 1
        self._on_failed(exc)
        self._next(connection)
