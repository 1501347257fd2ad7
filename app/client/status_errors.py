"""The one place that turns an HTTP error status and its `{"error": …}` body into a typed error."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import orjson

from app.client.errors import (
    AgentGone,
    BadPattern,
    BadResponse,
    BudgetExceeded,
    ChangeSetConflict,
    FileExists,
    InvalidRequest,
    NoSuchRevision,
    NoteEmbedded,
    NotFound,
    NotWritable,
    OperatorsOnly,
    ProposalNotOpen,
    ProposalRefusal,
    ProposalRefused,
    RateLimited,
    ServerError,
    TaskdeskError,
    TimedOut,
    TooLarge,
    Unauthorized,
    VersionConflict,
)
from app.client.retry_after import retry_after_seconds

__all__ = ["error_body", "error_for_status", "quoted_server_text", "retry_after_seconds"]

SERVER_TEXT_MAX = 200
"""Server-provided text quoted in a message is cut here: messages are read by people."""

_PROPOSAL_REFUSALS = {
    "no such base version": ProposalRefusal.NO_SUCH_BASE,
    "title must be 1 to 200 characters": ProposalRefusal.TITLE,
    "note must be at most 2000 characters": ProposalRefusal.NOTE,
    "proposal changes nothing": ProposalRefusal.CHANGES_NOTHING,
    "too many open proposals": ProposalRefusal.TOO_MANY,
    "not your proposal": ProposalRefusal.NOT_YOURS,
    "reason must be 1 to 2000 characters": ProposalRefusal.REASON,
}
"""The proposals' 422 messages (API.md "Proposals") and what each one means."""
_EMBEDDED_IN = re.compile(r"note is embedded in task \((?P<ids>[^)]*)\)")
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f]+")


_NOTE_REFUSALS: dict[str, Callable[[], TaskdeskError]] = {
    "note is not writable": lambda: NotWritable(
        "Your access to this note is read only: ask an operator for write access, or to make "
        "the change."
    ),
    "not a note": lambda: InvalidRequest(
        "That path holds a collection or another file, not a note: only notes are edited here."
    ),
    "not a display path": lambda: InvalidRequest(
        "The path must be inside the org (org/<org id>/…), end in “.md”, and not be a Task."
    ),
    "bad access list": lambda: InvalidRequest(
        "The access list is not valid: each entry needs a principal (agent:<id>, guild:<id>, "
        "user:<id> or org) and a role (read or write)."
    ),
}
"""The notes' refusals (shared/spec/API.md, "Notes: write, used by, impact"), in words."""


def quoted_server_text(text: str) -> str:
    """Server text made safe to show: one line, no control characters, bounded length."""
    flat = _UNPRINTABLE.sub(" ", text).strip()
    return flat if len(flat) <= SERVER_TEXT_MAX else flat[: SERVER_TEXT_MAX - 1] + "…"


def error_body(body: bytes) -> tuple[str | None, dict[str, object]]:
    """The `error` message and the whole object of an error body; (None, {}) when unreadable."""
    if not body:
        return None, {}
    try:
        parsed = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None, {}
    if not isinstance(parsed, dict):
        return None, {}
    message = parsed.get("error")
    return (message if isinstance(message, str) else None), parsed


def said_brief(message: str | None) -> str:
    return f" (it said “{quoted_server_text(message)}”)" if message else ""


def error_for_status(
    status: int, headers: Mapping[str, str], body: bytes, *, server: str, method: str = "PUT"
) -> TaskdeskError:
    """The typed error for a non-success answer. ``server`` names the server in messages;
    ``method`` keeps write-only meanings (conflict, too large) off answers to reads."""
    message, parsed = error_body(body)
    said = f" The server said: “{quoted_server_text(message)}”." if message else ""
    if method == "GET" and status in (409, 413):
        # A read can't conflict or be too large: the answer itself is wrong.
        return BadResponse(
            f"The server at {server} answered a read with HTTP {status}, which makes no "
            f"sense for it.{said} Try again; if it keeps happening, the server needs a look.",
            status=status,
        )
    if status == 409:
        if message == "file exists":
            return FileExists()
        if message == "proposal is not open":
            return ProposalNotOpen()
        if message is not None and (found := _EMBEDDED_IN.search(message)):
            ids = tuple(i.strip() for i in found.group("ids").split(",") if i.strip())
            return NoteEmbedded(ids)
        conflicts = _conflicts(parsed.get("conflicts"))
        if conflicts is not None:
            return ChangeSetConflict(conflicts)
        live = parsed.get("version")
        # A 409 from a server without the extension (or with no body) still is a conflict.
        live_version = live if isinstance(live, int) and not isinstance(live, bool) else None
        return VersionConflict(live_version)
    if status == 422:
        if message == "task is not writable":
            return NotWritable()
        if message == "write exceeds 256 KB":
            return TooLarge()
        if message == "embed budget exceeded":
            return BudgetExceeded()
        if message == "bad pattern":
            return BadPattern()
        if message == "operators only":
            return OperatorsOnly()
        if message in _NOTE_REFUSALS:
            return _NOTE_REFUSALS[message]()
        if message in _PROPOSAL_REFUSALS:
            return ProposalRefused(_PROPOSAL_REFUSALS[message])
        if message == "cannot delete this file":
            return NotWritable(
                "The Task itself cannot be deleted. To empty it, clear the text and save."
            )
        return InvalidRequest(f"The server refused the request as invalid.{said}")
    if status in (401, 403):
        return (
            Unauthorized()
            if status == 401
            else Unauthorized(
                f"The server does not let this token do that (HTTP 403).{said} "
                "Sign in as an operator, or ask one to make the change."
            )
        )
    if status == 404 and message == "no such revision":
        return NoSuchRevision()
    if status == 404:
        if message == "no such agent":
            return AgentGone()
        return NotFound(
            f"The server has no such item{said_brief(message)}; it may have been deleted. "
            "Refresh the list and try again."
        )
    if status == 413:
        return TooLarge()
    if status == 429:
        return RateLimited(retry_after_seconds(headers.get("Retry-After")))
    if status == 504:
        return TimedOut(
            f"A gateway in front of {server} gave up waiting for it (HTTP 504). "
            "Try again in a moment."
        )
    if status == 507:  # the reference server's full disk (docs/SECURITY.md)
        return ServerError(
            507,
            retry_after_seconds(headers.get("Retry-After")),
            message="The server's disk is full, so it could not store this. Your text stays "
            "here; try again once the server has room.",
        )
    if 500 <= status <= 599:
        return ServerError(status, retry_after_seconds(headers.get("Retry-After")))
    if 300 <= status <= 399:
        where = headers.get("Location")
        target = f" to “{quoted_server_text(where)}”" if where else ""
        return BadResponse(
            f"The server at {server} answered with a redirect{target} (HTTP {status}). "
            "Taskdesk does not follow redirects, so your token only goes to the server you "
            "configured: put the final address in the connection settings.",
            status=status,
        )
    if 400 <= status <= 499:
        return InvalidRequest(f"The server refused the request (HTTP {status}).{said}")
    return BadResponse(
        f"The server at {server} sent an unexpected HTTP status {status}.", status=status
    )


def _conflicts(value: object) -> tuple[tuple[str, int], ...] | None:
    """A change set's 409 lists each Task that moved; None for any other 409."""
    if not isinstance(value, list):
        return None
    found = []
    for item in value:
        if not isinstance(item, dict):
            return None
        agent_id, version = item.get("agent_id"), item.get("version")
        if not isinstance(agent_id, str) or type(version) is not int:
            return None
        found.append((agent_id, version))
    return tuple(found)
