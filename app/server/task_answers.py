"""The Task GET's answer encoded once per version and shared by every reader of that version.

A Task's answer changes only with a save, yet it is the largest the server makes: 50 kept
revisions of a 256 KB Task may legally be 80 MB of JSON (control characters escape to six
bytes each). So the encoded body is kept per agent, view and version, and every reader of that
version is sent the same bytes, a slice at a time under the transport's flow control: a slow
reader holds one slice in its buffer, never a copy of the whole (``SharedBody``).

Each process keeps its own answers and checks them against the database's live version and
hash on every request (``live_stamp``), so a save made through another server process is
never missed. An archived revision never changes (its key is the agent and version), so a new
version's answer re-uses the encoded revisions of the one before and encodes only the new one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import orjson
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

WHOLE_BYTES = 4 * 1024 * 1024
"""A body up to this size is handed to the transport whole: no copy is made of it on the way
(h11 and asyncio pass a lone bytes object through), and a slow reader's buffer holds at
most this much."""

SLICE_BYTES = 1024 * 1024
"""A larger body is handed over this much at a time, each slice after the last has drained."""

DEFAULT_MAX_BYTES = 192 * 1024 * 1024
"""Encoded answers kept per process, at most: two worst-case 80 MB histories, or thousands
of ordinary ones. The least recently read go first."""


class TaskView(Enum):
    """Which answer of task.md: the reference server's, the spec's fields only, or the
    EXTENSION without the revisions' text (``?revisions=summary``)."""

    FULL = "full"
    SPEC = "spec"
    SUMMARY = "summary"


@dataclass(frozen=True, slots=True)
class EncodedTask:
    """One version's encoded answer and where each revision's JSON lies in it."""

    version: int
    hash: str
    etag: str
    body: bytes
    spans: Mapping[int, tuple[int, int]]  # each revision's JSON in ``body``, by version


Piece = bytes | tuple[int, int]
"""A revision's JSON: its bytes, or its span in the earlier answer's body (re-used as is)."""


def encode_with_revisions(
    body: Mapping[str, Any], revisions: Sequence[Piece], earlier: bytes = b""
) -> tuple[bytes, list[tuple[int, int]]]:
    """``orjson.dumps(body)`` with ``body["revisions"]`` given already encoded, one piece per
    revision: byte for byte what encoding it whole gives, and each piece's span in it.

    Pieces that lay side by side in ``earlier`` (its revisions but for the newest, after a
    save) are copied as one slice, commas and all: a 50-revision answer is then a few parts
    joined, not a hundred."""
    keys = list(body)
    cut = keys.index("revisions")
    before = {k: body[k] for k in keys[:cut]}
    after = {k: body[k] for k in keys[cut + 1 :]}
    head = (orjson.dumps(before)[:-1] + b"," if before else b"{") + b'"revisions":['
    tail = b"]" + (b"," + orjson.dumps(after)[1:] if after else b"}")
    # One join of every part: the body is copied once (a 50-revision answer is 430 KB and
    # more; a join and then a concatenation copied it twice).
    parts: list[bytes | memoryview] = [head]
    spans: list[tuple[int, int]] = []
    at = len(head)
    run_start = run_end = -1  # the slice of ``earlier`` being gathered
    shift = 0  # from a span in ``earlier`` to the same bytes here

    def end_run() -> None:
        if run_start >= 0:
            parts.append(memoryview(earlier)[run_start:run_end])

    for n, piece in enumerate(revisions):
        if isinstance(piece, tuple):
            start, end = piece
            if run_start >= 0 and start == run_end + 1:  # its comma is in the slice too
                run_end = end
                at += end - start + 1
            else:
                end_run()
                if n:
                    parts.append(b",")
                    at += 1
                run_start, run_end, shift = start, end, at - start
                at += end - start
            spans.append((start + shift, end + shift))
            continue
        end_run()
        run_start = -1
        if n:
            parts.append(b",")
            at += 1
        parts.append(piece)
        spans.append((at, at + len(piece)))
        at += len(piece)
    end_run()
    parts.append(tail)
    return b"".join(parts), spans


class TaskAnswers:
    """The encoded answers of one server process, bounded in bytes, least recently read out."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._answers: OrderedDict[tuple[str, TaskView], EncodedTask] = OrderedDict()
        self._bytes = 0

    def current(self, agent_id: str, view: TaskView, stamp: tuple[int, str]) -> EncodedTask | None:
        """The kept answer when it is of the live version ``stamp`` (version, hash)."""
        key = (agent_id, view)
        with self._lock:
            answer = self._answers.get(key)
            if answer is None or (answer.version, answer.hash) != stamp:
                return None
            self._answers.move_to_end(key)
            return answer

    def latest(self, agent_id: str, view: TaskView) -> EncodedTask | None:
        """The kept answer of any version (its revisions are still good to re-use)."""
        with self._lock:
            return self._answers.get((agent_id, view))

    def keep(self, agent_id: str, view: TaskView, answer: EncodedTask) -> None:
        key = (agent_id, view)
        with self._lock:
            old = self._answers.get(key)
            if old is not None:
                if old.version > answer.version:
                    return  # a slower reader built an older version; the newer one stays
                self._bytes -= len(old.body)
            self._answers[key] = answer
            self._answers.move_to_end(key)
            self._bytes += len(answer.body)
            while self._bytes > self.max_bytes and len(self._answers) > 1:
                _, dropped = self._answers.popitem(last=False)
                self._bytes -= len(dropped.body)

    def __len__(self) -> int:
        return len(self._answers)

    @property
    def bytes_kept(self) -> int:
        return self._bytes


def answer_head(answer: EncodedTask, view: TaskView) -> list[tuple[bytes, bytes]]:
    """The head of a task.md answer: its ETag (none in the spec's view), length and type.
    The app's answer (``task_routes.answer_response``) and the kept read's send this."""
    head = [] if view is TaskView.SPEC else [(b"etag", answer.etag.encode("latin-1"))]
    return [
        *head,
        (b"content-length", b"%d" % len(answer.body)),
        (b"content-type", b"application/json"),
    ]


class SharedBody(Response):
    """A JSON answer whose body many readers share: sent in slices, each awaited through the
    server's flow control, so what a slow reader costs is one slice, not the whole body."""

    media_type = "application/json"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send(
            {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
        )
        body = bytes(self.body)
        if len(body) <= WHOLE_BYTES:
            await send({"type": "http.response.body", "body": body})
            return
        view = memoryview(body)
        for start in range(0, len(body), SLICE_BYTES):
            end = start + SLICE_BYTES
            more = end < len(body)
            await send(
                {"type": "http.response.body", "body": bytes(view[start:end]), "more_body": more}
            )
