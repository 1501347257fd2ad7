"""`TaskdeskClient`: every endpoint of the Taskdesk API as a typed call."""

from __future__ import annotations

import logging
import threading
import time
from urllib.parse import quote

import orjson

from app.client.compact_notes import COMPACT
from app.client.errors import (
    BadResponse,
    ConnectionLost,
    InvalidRequest,
    SaveUncertain,
    TaskdeskError,
    TimedOut,
)
from app.client.parse import (
    agents_from,
    embed_status_from,
    embeddable_notes_from,
    guilds_from,
    me_from,
    note_from,
    parse_answer,
    run_from,
    runs_from,
    task_from,
)
from app.client.runs import RunInfo, RunSummary
from app.client.transport import DEFAULT_DEADLINE, DEFAULT_MAX_BODY_BYTES, Answer, Transport
from app.core.models import AgentEmbedStatus, AgentRow, EmbeddableNote, Guild, Me, OrgFile, TaskDoc

log = logging.getLogger(__name__)

HANDED_OVER_SECONDS = 5.0
"""How long a Task read for someone about to read it again stands for the server's answer."""


def _segment(value: str) -> str:
    """One path segment, escaped so an id can never reach another route."""
    return quote(value, safe="")


class TaskdeskClient:
    """A client of one Taskdesk server, for one token. Safe to share between threads.

    Every call either returns the server's answer as dataclasses or raises a
    `TaskdeskError` subclass (see `app.client.errors`).
    """

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        connect_timeout: float = 3.05,
        read_timeout: float = 10.0,
        deadline: float = DEFAULT_DEADLINE,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    ) -> None:
        self._http = Transport(
            base_url,
            token,
            connect_timeout=connect_timeout,
            read_timeout=read_timeout,
            deadline=deadline,
            max_body_bytes=max_body_bytes,
        )
        self._tasks: dict[str, TaskDoc] = {}  # last Task per agent with its ETag
        self._tasks_lock = threading.Lock()
        self._skipped_logged: set[str] = set()  # odd picker items already logged
        self._handed: dict[str, tuple[TaskDoc, float]] = {}  # see hand_over
        self._notes: tuple[str, tuple[EmbeddableNote, ...]] | None = None  # last list, its ETag
        self._compact_notes = False  # see ask_compact_notes

    @property
    def base_url(self) -> str:
        return self._http.base_url

    def __repr__(self) -> str:
        return f"TaskdeskClient({self._http.base_url!r})"

    def __enter__(self) -> TaskdeskClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    # ------------------------------------------------------------------ people and org

    def me(self) -> Me:
        answer = self._http.request("GET", "/api/me")
        return parse_answer(answer.body, "who you are", me_from, _type(answer))

    def agents(self) -> list[AgentRow]:
        answer = self._http.request("GET", "/api/org/agents")
        return parse_answer(answer.body, "the agent list", agents_from, _type(answer))

    def guilds(self) -> list[Guild]:
        answer = self._http.request("GET", "/api/org/guilds")
        return parse_answer(answer.body, "the guild list", guilds_from, _type(answer))

    # ------------------------------------------------------------------ the Task

    def _task_path(self, agent_id: str) -> str:
        return f"/api/agents/{_segment(agent_id)}/files/task.md"

    def cached_task(self, agent_id: str) -> TaskDoc | None:
        """The last Task this client read or saved for the agent, without asking the server."""
        with self._tasks_lock:
            return self._tasks.get(agent_id)

    def hand_over(self, doc: TaskDoc) -> None:
        """A Task just read for a caller that is about to read it again (looking an agent up
        by id, then opening it): the next `get_task` of that agent, within a few seconds,
        takes this answer instead of asking again."""
        with self._tasks_lock:
            self._handed[doc.agent_id] = (doc, time.monotonic())

    def get_task(self, agent_id: str) -> TaskDoc:
        """The agent's live Task. Asks with the last ETag, so an unchanged Task costs no body."""
        with self._tasks_lock:
            handed = self._handed.pop(agent_id, None)
        if handed is not None and time.monotonic() - handed[1] < HANDED_OVER_SECONDS:
            return handed[0]
        known = self.cached_task(agent_id)
        headers = {"If-None-Match": known.etag} if known is not None and known.etag else {}
        answer = self._http.request(
            "GET", self._task_path(agent_id), headers=headers, expect=(200, 304)
        )
        if answer.status == 304:
            if known is None:
                raise BadResponse(
                    "The server said the Task was unchanged, but nothing was asked about. "
                    "Try again; the server may be misconfigured.",
                    status=304,
                )
            return known
        return self._remember(agent_id, answer)

    def _remember(self, agent_id: str, answer: Answer) -> TaskDoc:
        etag = answer.headers.get("ETag")
        doc = parse_answer(answer.body, "the Task", task_from(agent_id, etag), _type(answer))
        with self._tasks_lock:
            if etag:
                self._tasks[agent_id] = doc
            else:
                self._tasks.pop(agent_id, None)
        return doc

    def put_task(self, agent_id: str, content: str, expected_version: int | None) -> TaskDoc:
        """Save the Task. Never re-sent blindly: when the answer is lost, the live Task is read
        and the save counts as done only if it holds exactly ``content``; otherwise
        `SaveUncertain` reports what was found."""
        payload: dict[str, object] = {"content": content}
        if expected_version is not None:
            payload["expected_version"] = expected_version
        try:
            body = orjson.dumps(payload)
        except orjson.JSONEncodeError:  # a lone surrogate: not valid UTF-8, not sendable
            raise InvalidRequest(
                "The Task holds a character that cannot be saved (a broken Unicode character, "
                "often from pasted text). Retype or delete the odd character, then save again."
            ) from None
        try:
            answer = self._http.request("PUT", self._task_path(agent_id), body=body)
            return self._remember(agent_id, answer)
        except (ConnectionLost, TimedOut) as lost:
            log.debug(
                "save of %s lost its answer (%s); reading the live Task",
                agent_id,
                type(lost).__name__,
            )
        except BadResponse as garbled:
            # Cut off, garbled or unparsable after a success status: the save may have landed.
            # A redirect (3xx) was never a save.
            if garbled.status is not None and not 200 <= garbled.status < 300:
                raise
            log.debug("save of %s answered unreadably; reading the live Task", agent_id)
        return self._confirm_save(agent_id, content)

    def _confirm_save(self, agent_id: str, content: str) -> TaskDoc:
        with self._tasks_lock:
            self._tasks.pop(agent_id, None)  # a fresh read, whatever was cached
        try:
            live = self.get_task(agent_id)
        except TaskdeskError:
            raise SaveUncertain(None) from None
        if live.content == content:
            return live
        raise SaveUncertain(live)

    def delete_task(self, agent_id: str) -> None:
        """Always refused by the server (the Task cannot be deleted): raises `NotWritable`."""
        self._http.request("DELETE", self._task_path(agent_id), expect=(200, 204))

    # ------------------------------------------------------------------ embeds and notes

    def embed_status(self, guild_id: str) -> list[AgentEmbedStatus]:
        answer = self._http.request("GET", f"/api/guilds/{_segment(guild_id)}/embed-status")
        return parse_answer(answer.body, "the embed status", embed_status_from, _type(answer))

    def org_embed_status(self) -> list[AgentEmbedStatus]:
        """Every agent's embed status in one answer (EXTENSION; a spec server answers 404)."""
        answer = self._http.request("GET", "/api/org/embed-status")
        return parse_answer(answer.body, "the embed status", embed_status_from, _type(answer))

    def ask_compact_notes(self, compact: bool = True) -> None:
        """Ask for the picker's notes in the compact form (an EXTENSION: only for a server
        known to have extensions; an answer in the spec's form is read all the same)."""
        self._compact_notes = compact

    def embeddable_notes(self) -> list[EmbeddableNote]:
        """The Insert picker's notes and collections; items it can't use are skipped and
        logged once per client. The list is asked again on every agent opened: with the ETag
        of the last one, so an unchanged list costs the server a 304 and no body."""
        with self._tasks_lock:
            known = self._notes
        headers = {"If-None-Match": known[0]} if known is not None else {}
        path = "/api/org/embeddable-notes"
        if self._compact_notes:
            path += "?form=" + COMPACT
        answer = self._http.request("GET", path, headers=headers, expect=(200, 304))
        if answer.status == 304:
            if known is None:
                raise BadResponse(
                    "The server said the notes to embed were unchanged, but nothing was "
                    "asked about. Try again; the server may be misconfigured.",
                    status=304,
                )
            return list(known[1])
        notes, skipped = parse_answer(
            answer.body,
            "the notes to embed",
            embeddable_notes_from,
            _type(answer),
            long_lists=("notes", "entries"),  # the spec's list, the compact form's
        )
        etag = answer.headers.get("ETag")
        with self._tasks_lock:
            self._notes = (etag, tuple(notes)) if etag else None
            new = [reason for reason in skipped if reason not in self._skipped_logged]
            self._skipped_logged.update(new)
        if new:
            log.warning(
                "the notes to embed: %d items skipped (the picker can't use them): %s",
                len(new),
                "; ".join(new),
            )
        return notes

    def _note_path(self, display_path: str) -> str:
        segments = display_path.split("/")
        if any(s in ("", ".", "..") for s in segments):
            # Escaped dots would still be normalised away by some servers and proxies.
            raise InvalidRequest(f"“{display_path}” is not a display path of a note.")
        return "/api/notes/" + "/".join(_segment(s) for s in segments)

    def note(self, display_path: str) -> OrgFile:
        answer = self._http.request("GET", self._note_path(display_path))
        return parse_answer(answer.body, "the note", note_from, _type(answer))

    def delete_note(self, display_path: str) -> None:
        """Delete a note; `NoteEmbedded` when a live Task embeds it."""
        self._http.request("DELETE", self._note_path(display_path), expect=(200, 204))

    # ------------------------------------------------------------------ presence

    def post_presence(self, agent_id: str, *, editing: bool) -> None:
        """Say the Task is open here (``editing``: with edits); lapses after 60 s (EXTENSION;
        `NotFound` where the server lacks it)."""
        body = orjson.dumps({"agent_id": agent_id, "editing": editing})
        self._http.request("POST", "/api/presence", body=body, expect=(200, 204))

    # ------------------------------------------------------------------ runs

    def create_run(self, agent_id: str) -> RunInfo:
        """Start a run; `BudgetExceeded` when the Task's embeds hold more than 64 KB."""
        answer = self._http.request(
            "POST", f"/api/agents/{_segment(agent_id)}/runs", body=b"{}", expect=(200, 201)
        )
        return parse_answer(answer.body, "the new run", run_from, _type(answer))

    def runs(self, agent_id: str) -> list[RunSummary]:
        """The agent's runs, newest first (EXTENSION; `NotFound` where the server lacks it)."""
        answer = self._http.request("GET", f"/api/agents/{_segment(agent_id)}/runs")
        return parse_answer(answer.body, "the runs", runs_from, _type(answer))

    def get_run(self, run_id: str) -> RunInfo:
        answer = self._http.request("GET", f"/api/runs/{_segment(run_id)}")
        return parse_answer(answer.body, "the run", run_from, _type(answer))


def _type(answer: Answer) -> str:
    return answer.headers.get("Content-Type", "")
