"""`TaskdeskClient`: every endpoint of the Taskdesk API as a typed call."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote, urlencode

import orjson

from app.client.compact_notes import COMPACT
from app.client.errors import (
    BadResponse,
    ConnectionLost,
    InvalidRequest,
    NoSuchRevision,
    NotFound,
    OperatorsOnly,
    ProposalRefusal,
    ProposalRefused,
    SaveUncertain,
    TaskdeskError,
    TimedOut,
)
from app.client.fleet_parse import (
    audit_from,
    change_set_from,
    change_sets_from,
    health_from,
    live_tasks_from,
    search_from,
)
from app.client.note_answers import impact_from, note_doc_from, used_by_from
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
from app.client.proposals import (
    Proposal,
    Published,
    proposal_from,
    proposals_from,
    published_from,
)
from app.client.runs import RunInfo, RunSummary
from app.client.task_history import (
    SUMMARY_QUERY,
    Fetch,
    HistoryIncompleteError,
    KnownTexts,
    revision_text_from,
    with_texts,
)
from app.client.transport import DEFAULT_DEADLINE, DEFAULT_MAX_BODY_BYTES, Answer, Transport
from app.core.fleet_models import (
    AgentMatches,
    AuditEvent,
    ChangeSet,
    HealthRow,
    LiveTaskText,
    PlannedTaskChange,
)
from app.core.models import (
    AccessEntry,
    AgentEmbedStatus,
    AgentRow,
    EmbeddableNote,
    Guild,
    Me,
    OrgFile,
    TaskDoc,
)
from app.core.note_uses import NoteDoc, NoteImpact, UsedBy

log = logging.getLogger(__name__)

FLEET_READ_TIMEOUT = 60.0
"""Seconds the fleet's health and searches may take: a cold server works out every agent."""
FLEET_MAX_BODY_BYTES = 64 * 1024 * 1024
"""A search hitting every line of 5,000 Tasks answers several MB."""

TASKS_PER_REQUEST = 200
"""Agents per ``GET /api/org/tasks``: the address stays a few KB, the answer under 1 MB."""

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
        self._text_hashes: dict[str, dict[int, str]] = {}  # per agent: its texts' SHA-256
        self._tasks_lock = threading.Lock()
        self._skipped_logged: set[str] = set()  # odd picker items already logged
        self._handed: dict[str, tuple[TaskDoc, float]] = {}  # see hand_over
        self._notes: tuple[str, tuple[EmbeddableNote, ...]] | None = None  # last list, its ETag
        self._statuses: dict[str, tuple[str, tuple[AgentEmbedStatus, ...]]] = {}  # by path
        self._compact_notes = False  # see ask_compact_notes
        # The fleet's org-wide reads work out every agent (seconds, cold, at 5,000 agents):
        # they get a read timeout of their own, on a session of their own.
        self._fleet_http = Transport(
            base_url,
            token,
            connect_timeout=connect_timeout,
            read_timeout=max(read_timeout, FLEET_READ_TIMEOUT),
            deadline=max(deadline, FLEET_READ_TIMEOUT),
            max_body_bytes=max(max_body_bytes, FLEET_MAX_BODY_BYTES),
        )

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
        self._fleet_http.close()

    def cancel_requests(self) -> None:
        """End the requests in flight and refuse new ones (the app is quitting)."""
        self._http.cancel_all()

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
        """The agent's live Task. Asks with the last ETag, so an unchanged Task costs no body;
        once a Task was read, asks for it without the earlier texts it already holds
        (``task_history``), so a long history crosses the wire once."""
        with self._tasks_lock:
            handed = self._handed.pop(agent_id, None)
        if handed is not None and time.monotonic() - handed[1] < HANDED_OVER_SECONDS:
            return handed[0]
        known = self.cached_task(agent_id)
        headers = {"If-None-Match": known.etag} if known is not None and known.etag else {}
        path = self._task_path(agent_id)
        try:
            answer = self._http.request(
                "GET",
                path + SUMMARY_QUERY if known is not None else path,
                headers=headers,
                expect=(200, 304),
            )
            if answer.status == 304:
                if known is None:
                    raise BadResponse(
                        "The server said the Task was unchanged, but nothing was asked about. "
                        "Try again; the server may be misconfigured.",
                        status=304,
                    )
                return known
            return self._remember(agent_id, answer, known, self._texts_or_whole(agent_id))
        except HistoryIncompleteError:
            log.debug(
                "%s: an earlier text could not be read on its own; reading it whole", agent_id
            )
            return self._remember(agent_id, self._http.request("GET", path))

    def _remember(
        self,
        agent_id: str,
        answer: Answer,
        known: TaskDoc | None = None,
        fetch: Fetch | None = None,
    ) -> TaskDoc:
        etag = answer.headers.get("ETag")
        build = task_from(agent_id, etag)
        texts: KnownTexts | None = None
        if known is not None and fetch is not None:
            with self._tasks_lock:
                hashes = self._text_hashes.get(agent_id)
            texts = KnownTexts(known, hashes)
            build = with_texts(build, texts, fetch)
        doc = parse_answer(answer.body, "the Task", build, _type(answer))
        with self._tasks_lock:
            if etag:
                self._tasks[agent_id] = doc
                if texts is not None:
                    self._text_hashes[agent_id] = texts.hashes
                else:  # read whole: no text of it was compared
                    self._text_hashes.pop(agent_id, None)
            else:
                self._tasks.pop(agent_id, None)
                self._text_hashes.pop(agent_id, None)
        return doc

    def task_revision_text(self, agent_id: str, version: int) -> str | None:
        """One earlier text of the Task (EXTENSION); None when the server no longer keeps it.
        A server without the route raises HistoryIncompleteError."""
        try:
            answer = self._http.request("GET", f"{self._task_path(agent_id)}/revisions/{version}")
        except NoSuchRevision:
            return None
        except NotFound:
            raise HistoryIncompleteError(version) from None
        what = "an earlier version of the Task"
        return parse_answer(answer.body, what, revision_text_from, _type(answer))

    def _texts_or_whole(self, agent_id: str) -> Fetch:
        """For a read: a text no longer kept is one the answer could not name, so the Task is
        read whole (HistoryIncompleteError) rather than shown with a gap."""

        def fetch(version: int) -> str:
            text = self.task_revision_text(agent_id, version)
            if text is None:
                raise HistoryIncompleteError(version)
            return text

        return fetch

    def put_task(
        self,
        agent_id: str,
        content: str,
        expected_version: int | None,
        *,
        restored_from: int | None = None,
    ) -> TaskDoc:
        """Save the Task. Never re-sent blindly: when the answer is lost, the live Task is read
        and the save counts as done only if it holds exactly ``content``; otherwise
        `SaveUncertain` reports what was found. ``restored_from``: the version a restore puts
        back (EXTENSION: the audit then lists a restore; other servers ignore it).

        This is the one place that decides what an unreadable answer means: a lost, cut-off
        or garbled success may have landed (read back here); a `BadResponse` raised from
        here (a redirect, an unexpected status) was never a save, and callers treat it as a
        refusal."""
        payload: dict[str, object] = {"content": content}
        if expected_version is not None:
            payload["expected_version"] = expected_version
        if restored_from is not None:
            payload["restored_from"] = restored_from
        try:
            body = orjson.dumps(payload)
        except orjson.JSONEncodeError:  # a lone surrogate: not valid UTF-8, not sendable
            raise InvalidRequest(
                "The Task holds a character that cannot be saved (a broken Unicode character, "
                "often from pasted text). Retype or delete the odd character, then save again."
            ) from None
        known = self.cached_task(agent_id)
        path = self._task_path(agent_id) + (SUMMARY_QUERY if known is not None else "")
        try:
            answer = self._http.request("PUT", path, body=body)
            # The text the save archived is the one last read: nothing need be fetched. One
            # that can't be read now is left out of the history; the next read asks again.
            return self._remember(agent_id, answer, known, self._texts_or_gaps(agent_id))
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

    def _texts_or_gaps(self, agent_id: str) -> Fetch:
        def fetch(version: int) -> str | None:
            try:
                return self.task_revision_text(agent_id, version)
            except HistoryIncompleteError:
                return None

        return fetch

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
        return self._embed_status(f"/api/guilds/{_segment(guild_id)}/embed-status")

    def org_embed_status(self) -> list[AgentEmbedStatus]:
        """Every agent's embed status in one answer (EXTENSION; a spec server answers 404)."""
        return self._embed_status("/api/org/embed-status")

    def _embed_status(self, path: str) -> list[AgentEmbedStatus]:
        """Asked again with the last answer's ETag (EXTENSION): the window asks on every poll,
        and an unchanged status costs a 304 and no body; the same list comes back."""
        with self._tasks_lock:
            known = self._statuses.get(path)
        headers = {"If-None-Match": known[0]} if known is not None else {}
        answer = self._http.request("GET", path, headers=headers, expect=(200, 304))
        if answer.status == 304:
            if known is None:
                raise BadResponse(
                    "The server said the embed status was unchanged, but nothing was asked "
                    "about. Try again; the server may be misconfigured.",
                    status=304,
                )
            return list(known[1])
        statuses = parse_answer(answer.body, "the embed status", embed_status_from, _type(answer))
        etag = answer.headers.get("ETag")
        with self._tasks_lock:
            if etag:
                self._statuses[path] = (etag, tuple(statuses))
            else:
                self._statuses.pop(path, None)
        return statuses

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

    # -------------------------------------------- notes written, their blast radius (EXTENSION)

    def note_doc(self, display_path: str) -> NoteDoc:
        """A note with its earlier texts, for its editor."""
        answer = self._http.request("GET", self._note_path(display_path))
        return parse_answer(answer.body, "the note", note_doc_from, _type(answer))

    def create_note(
        self, display_path: str, title: str, text: str, access: tuple[AccessEntry, ...]
    ) -> NoteDoc:
        """A new note (operators); `FileExists` when the path is taken."""
        payload: dict[str, object] = {
            "display_path": display_path,
            "title": title,
            "text": text,
            "access": [{"principal": e.principal, "role": e.role} for e in access],
        }
        answer = self._http.request(
            "POST", "/api/notes", body=_json(payload, "note"), expect=(201,)
        )
        return parse_answer(answer.body, "the new note", note_doc_from, _type(answer))

    def put_note(
        self, display_path: str, text: str, expected_version: int, title: str | None = None
    ) -> NoteDoc:
        """Save a note at the version last read; `VersionConflict` when someone saved since."""
        payload: dict[str, object] = {"text": text, "expected_version": expected_version}
        if title is not None:
            payload["title"] = title
        answer = self._http.request(
            "PUT", self._note_path(display_path), body=_json(payload, "note")
        )
        return parse_answer(answer.body, "the saved note", note_doc_from, _type(answer))

    def used_by(self, display_path: str) -> UsedBy:
        """Every agent whose run embeds the note (operators; `NotFound` for others)."""
        answer = self._http.request("GET", self._note_path(display_path) + "/used-by")
        return parse_answer(answer.body, "who uses the note", used_by_from, _type(answer))

    def note_impact(self, display_path: str, text: str) -> list[NoteImpact]:
        """What each run that reaches the note would get with ``text``; nothing is saved."""
        answer = self._http.request(
            "POST",
            self._note_path(display_path) + "/impact",
            body=_json({"text": text}, "note"),
        )
        return parse_answer(answer.body, "the edit's impact", impact_from, _type(answer))

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

    # ------------------------------------------------------------------ proposals (EXTENSION)

    def propose(
        self, agent_id: str, content: str, base_version: int, title: str, note: str = ""
    ) -> Proposal:
        """Open a proposal of the agent's whole Task against ``base_version``."""
        body = _json(
            {"content": content, "base_version": base_version, "title": title, "note": note}
        )
        answer = self._http.request(
            "POST", f"/api/agents/{_segment(agent_id)}/proposals", body=body, expect=(201,)
        )
        return parse_answer(answer.body, "the new proposal", proposal_from, _type(answer))

    def agent_proposals(self, agent_id: str) -> list[Proposal]:
        """The agent's proposals, newest first, without their content."""
        answer = self._http.request("GET", f"/api/agents/{_segment(agent_id)}/proposals")
        return parse_answer(answer.body, "the proposals", proposals_from, _type(answer))

    def org_proposals(self, status: str | None = "open") -> list[Proposal]:
        """The org's proposals (of ``status``; None for every one), oldest first."""
        query = f"?status={quote(status, safe='')}" if status else ""
        try:
            answer = self._http.request("GET", f"/api/org/proposals{query}")
        except OperatorsOnly:
            raise ProposalRefused(ProposalRefusal.OPERATORS_ONLY) from None
        return parse_answer(answer.body, "the proposals", proposals_from, _type(answer))

    def proposal(self, proposal_id: str, revision: int | None = None) -> Proposal:
        query = f"?revision={revision}" if revision is not None else ""
        answer = self._http.request("GET", f"/api/proposals/{_segment(proposal_id)}{query}")
        return parse_answer(answer.body, "the proposal", proposal_from, _type(answer))

    def revise_proposal(
        self,
        proposal_id: str,
        content: str,
        base_version: int,
        title: str | None = None,
        note: str | None = None,
    ) -> Proposal:
        payload: dict[str, object] = {"content": content, "base_version": base_version}
        if title is not None:
            payload["title"] = title
        if note is not None:
            payload["note"] = note
        answer = self._http.request(
            "PUT", f"/api/proposals/{_segment(proposal_id)}", body=_json(payload)
        )
        return parse_answer(answer.body, "the proposal", proposal_from, _type(answer))

    def publish_proposal(self, proposal_id: str, content: str, expected_version: int) -> Published:
        """Save ``content`` (what the operator accepted) as the Task, closing the proposal."""
        body = _json({"content": content, "expected_version": expected_version})
        answer = self._http.request(
            "POST", f"/api/proposals/{_segment(proposal_id)}/publish", body=body
        )
        published = parse_answer(answer.body, "the publish", published_from, _type(answer))
        with self._tasks_lock:
            self._tasks.pop(published.task.agent_id, None)
        return published

    def decline_proposal(self, proposal_id: str, reason: str) -> Proposal:
        answer = self._http.request(
            "POST",
            f"/api/proposals/{_segment(proposal_id)}/decline",
            body=_json({"reason": reason}),
        )
        return parse_answer(answer.body, "the proposal", proposal_from, _type(answer))

    def withdraw_proposal(self, proposal_id: str) -> Proposal:
        answer = self._http.request("POST", f"/api/proposals/{_segment(proposal_id)}/withdraw")
        return parse_answer(answer.body, "the proposal", proposal_from, _type(answer))

    # ------------------------------------------------------------------ the fleet (EXTENSION)

    def org_health(self) -> list[HealthRow]:
        """Every agent's health; `NotFound` where the server lacks the fleet."""
        with _fleet_refusals():
            answer = self._fleet_http.request("GET", "/api/org/health")
        return parse_answer(
            answer.body, "the fleet", health_from, _type(answer), long_lists=("agents",)
        )

    def live_tasks(self, agent_ids: list[str]) -> list[LiveTaskText]:
        """The live Tasks of these agents, a few hundred per request (EXTENSION; `NotFound`
        where the server lacks it: read them one by one with `get_task`)."""
        found: list[LiveTaskText] = []
        for start in range(0, len(agent_ids), TASKS_PER_REQUEST):
            chunk = agent_ids[start : start + TASKS_PER_REQUEST]
            path = "/api/org/tasks?" + urlencode([("agent", a) for a in chunk])
            answer = self._http.request("GET", path)
            found += parse_answer(
                answer.body, "the Tasks", live_tasks_from, _type(answer), long_lists=("tasks",)
            )
        return found

    def search(
        self,
        query: str,
        *,
        in_prompt: bool = False,
        regex: bool = False,
        guild_id: str | None = None,
    ) -> list[AgentMatches]:
        """Every matching line of every Task (or prompt); `BadPattern` for a bad regex."""
        params = {"q": query, "in": "prompt" if in_prompt else "task"}
        if regex:
            params["regex"] = "1"
        if guild_id:
            params["guild"] = guild_id
        with _fleet_refusals():
            answer = self._fleet_http.request("GET", "/api/org/search?" + urlencode(params))
        return parse_answer(
            answer.body, "the search", search_from, _type(answer), long_lists=("agents",)
        )

    def create_change_set(self, title: str, changes: list[PlannedTaskChange]) -> ChangeSet:
        """Save every change or none; `ChangeSetConflict` names the Tasks that moved. Never
        re-sent: a lost answer is for the caller to check in the change sets' list."""
        payload = {
            "title": title,
            "changes": [
                {
                    "agent_id": c.agent_id,
                    "expected_version": c.expected_version,
                    "content": c.content,
                }
                for c in changes
            ],
        }
        try:
            body = orjson.dumps(payload)
        except orjson.JSONEncodeError:
            raise InvalidRequest(
                "A Task of the change set holds a character that cannot be saved (a broken "
                "Unicode character). Untick that Task or fix it, then apply again."
            ) from None
        with _fleet_refusals():
            answer = self._fleet_http.request(
                "POST", "/api/org/change-sets", body=body, expect=(200, 201)
            )
        return parse_answer(answer.body, "the change set", change_set_from, _type(answer))

    def change_sets(self) -> list[ChangeSet]:
        with _fleet_refusals():
            answer = self._http.request("GET", "/api/org/change-sets")
        return parse_answer(answer.body, "the change sets", change_sets_from, _type(answer))

    def change_set(self, change_set_id: str) -> ChangeSet:
        with _fleet_refusals():
            answer = self._http.request("GET", f"/api/org/change-sets/{_segment(change_set_id)}")
        return parse_answer(answer.body, "the change set", change_set_from, _type(answer))

    def revert_change_set(self, change_set_id: str) -> ChangeSet:
        """A new change set putting the Tasks back; ``skipped`` the ones saved since."""
        with _fleet_refusals():
            answer = self._fleet_http.request(
                "POST",
                f"/api/org/change-sets/{_segment(change_set_id)}/revert",
                body=b"{}",
                expect=(200, 201),
            )
        return parse_answer(answer.body, "the revert", change_set_from, _type(answer))

    def audit(
        self,
        *,
        since: str | None = None,
        agent_id: str | None = None,
        guild_id: str | None = None,
        limit: int | None = None,
    ) -> list[AuditEvent]:
        params = {
            key: value
            for key, value in (
                ("since", since),
                ("agent", agent_id),
                ("guild", guild_id),
                ("limit", None if limit is None else str(limit)),
            )
            if value
        }
        path = "/api/org/audit" + ("?" + urlencode(params) if params else "")
        with _fleet_refusals():
            answer = self._http.request("GET", path)
        return parse_answer(
            answer.body, "the audit", audit_from, _type(answer), long_lists=("events",)
        )


_FLEET_OPERATORS_ONLY = "Only operators can see the fleet. Sign in as an operator."


@contextmanager
def _fleet_refusals() -> Iterator[None]:
    """The fleet's routes serve operators alone: their "operators only" says so of the fleet."""
    try:
        yield
    except OperatorsOnly:
        raise OperatorsOnly(_FLEET_OPERATORS_ONLY) from None


def _json(payload: dict[str, object], what: str = "text") -> bytes:
    try:
        return orjson.dumps(payload)
    except orjson.JSONEncodeError:  # a lone surrogate: not valid UTF-8, not sendable
        raise InvalidRequest(
            f"The {what} holds a character that cannot be sent (a broken Unicode character, "
            "often from pasted text). Retype or delete the odd character, then try again."
        ) from None


def _type(answer: Answer) -> str:
    return answer.headers.get("Content-Type", "")
