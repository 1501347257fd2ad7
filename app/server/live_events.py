"""The live event stream's parts: which org log rows a caller gets as which events, the
presence changes since the caller last looked, the text/event-stream framing, and the
wake-up that tells every open stream of this process to look again.

The stream tails the org's change log (``org_log``): a row's id is the event's id, which a
client sends back as ``Last-Event-ID`` to resume without a gap. Presence is not logged: a
stream sends who is there when it opens, then each change (a lapse is ``present`` false).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.server.callers import Caller
from app.server.org_log import OrgEvent
from app.server.presence_records import Presence

PROPOSAL_STATUS = {
    "proposal_opened": "open",
    "proposal_revised": "open",
    "proposal_published": "published",
    "proposal_declined": "declined",
    "proposal_withdrawn": "withdrawn",
}


@dataclass(frozen=True, slots=True)
class StreamEvent:
    name: str
    data: dict[str, Any]
    id: int | None = None  # org log rows only; presence has none (not resumed)

    def encoded(self) -> bytes:
        head = f"id: {self.id}\n" if self.id is not None else ""
        body = json.dumps(self.data, ensure_ascii=False, separators=(",", ":"))
        return f"{head}event: {self.name}\ndata: {body}\n\n".encode()


KEEP_ALIVE = b": keep-alive\n\n"


def events_of(
    row: OrgEvent, caller: Caller, can_read_note: Callable[[str], bool]
) -> list[StreamEvent]:
    """What ``caller`` is told of one log row (nothing, one event, or one per Task)."""
    if row.kind in ("task_saved", "task_restored"):
        return [
            StreamEvent(
                "task_saved",
                {"agent_id": agent_id, "version": row.data.get("version"), "by_name": row.by_name},
                row.id,
            )
            for agent_id in row.agent_ids[:1]
        ]
    if row.kind in ("change_set", "change_set_reverted"):
        # A change set saves many Tasks at once: one task_saved per version it made.
        versions = row.data.get("versions") or []
        return [
            StreamEvent(
                "task_saved",
                {"agent_id": v["agent_id"], "version": v["version"], "by_name": row.by_name},
                row.id,
            )
            for v in versions
            if isinstance(v, dict) and "agent_id" in v and "version" in v
        ]
    if row.kind in PROPOSAL_STATUS:
        if caller.type == "agent":  # an agent's token reads no proposals
            return []
        proposal = {
            "id": row.data.get("proposal_id"),
            "agent_id": row.agent_ids[0] if row.agent_ids else None,
            "status": PROPOSAL_STATUS[row.kind],
        }
        return [StreamEvent("proposal", proposal, row.id)]
    if row.kind in ("note_created", "note_saved"):
        path = str(row.data.get("display_path", ""))
        if not can_read_note(path):
            return []
        return [
            StreamEvent(
                "note_saved", {"display_path": path, "version": row.data.get("version")}, row.id
            )
        ]
    return []


PresenceKey = tuple[str, str]


def presence_changes(
    seen: dict[PresenceKey, Presence], now: list[Presence]
) -> tuple[list[StreamEvent], dict[PresenceKey, Presence]]:
    """The presence events that take a stream from ``seen`` to ``now``, and ``now`` keyed."""
    current = {(p.agent_id, p.person_id): p for p in now}
    events = [
        StreamEvent("presence", _presence_data(p, present=True))
        for key, p in current.items()
        if seen.get(key) != p
    ]
    events += [
        StreamEvent("presence", _presence_data(p, present=False))
        for key, p in seen.items()
        if key not in current
    ]
    return events, current


def _presence_data(p: Presence, *, present: bool) -> dict[str, Any]:
    return {
        "agent_id": p.agent_id,
        "person_id": p.person_id,
        "name": p.name,
        "editing": p.editing and present,
        "since": p.since,
        "present": present,
    }


class EventWake:
    """Rings every waiting stream of this process; safe to ring from any thread.

    A stream notes ``generation`` before it reads, then waits for a higher one, so a ring
    between its read and its wait is never missed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._generation = 0
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    @property
    def generation(self) -> int:
        return self._generation

    def ring(self) -> None:
        with self._lock:
            self._generation += 1
            waiters, self._waiters = self._waiters, []
        for loop, future in waiters:
            loop.call_soon_threadsafe(_settle, future)

    async def wait(self, seen: int, timeout: float) -> int:
        """Until the generation passes ``seen`` or ``timeout`` seconds pass; the generation."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if self._generation != seen:
                return self._generation
            self._waiters.append((loop, future))
        try:
            await asyncio.wait_for(future, timeout)
        except TimeoutError:
            with self._lock:
                if (loop, future) in self._waiters:
                    self._waiters.remove((loop, future))
        return self._generation


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
