"""The typed errors of the client: every failure the server or network can cause, once."""

# The names are the contract in docs/ARCHITECTURE.md (VersionConflict, Offline, …), read by
# the whole app: they name what happened, so the Error suffix would only add noise.
# ruff: noqa: N818

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the window's first paint needs the errors, not the records
    from app.core.models import TaskDoc


class TaskdeskError(Exception):
    """Base of every client error; ``message`` says what happened and what to do about it.

    Messages never hold the access token: they are shown to operators and written to logs.
    """

    default_message = "The request to the Taskdesk server failed."

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default_message
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


class VersionConflict(TaskdeskError):
    """Another save landed first; ``live_version`` is the server's version when it said so."""

    def __init__(self, live_version: int | None = None, message: str | None = None) -> None:
        self.live_version = live_version
        if message is None:
            where = f" (now version {live_version})" if live_version is not None else ""
            message = (
                f"Someone else saved this Task first{where}. Your text is kept: compare it "
                "with theirs, then keep yours or use theirs."
            )
        super().__init__(message)


class NotWritable(TaskdeskError):
    default_message = (
        "The server refused the change: only an operator can change this Task. "
        "Sign in with an operator's token to save."
    )


class OperatorsOnly(NotWritable):
    """422 "operators only": the route serves operators alone. Notes and the proposals'
    queue both answer it; the client method that knows the route words it further."""

    default_message = "Only operators can do that on this server."


class TooLarge(TaskdeskError):
    default_message = (
        "The Task is over 256 KB (counted in UTF-8 bytes). Shorten it, or move long rules "
        "into a note and embed it, then save again."
    )


class BudgetExceeded(TaskdeskError):
    default_message = (
        "The Task's embeds hold more than 64 KB of note text, so the agent cannot start a "
        "run. Cut down the embedded notes, then try again."
    )


class Unauthorized(TaskdeskError):
    default_message = (
        "The server did not accept your access token. Check the token in the connection "
        "settings, or ask an operator for a new one."
    )


class NotFound(TaskdeskError):
    default_message = (
        "The server has no such item; it may have been deleted. Refresh the list and try again."
    )


class AgentGone(NotFound):
    """The agent asked about does not exist (any more) on the server (404 "no such agent")."""

    default_message = "This agent no longer exists on the server."


class NoSuchRevision(NotFound):
    """An earlier version of a Task the server no longer keeps (EXTENSION: one revision)."""

    default_message = "The server no longer keeps that version of the Task."


class InvalidRequest(TaskdeskError):
    default_message = "The server refused the request as invalid."


class NoteEmbedded(TaskdeskError):
    """Deleting a note that a live Task embeds; ``agent_ids`` are the Tasks that embed it."""

    def __init__(self, agent_ids: tuple[str, ...] = (), message: str | None = None) -> None:
        self.agent_ids = agent_ids
        if message is None:
            who = ", ".join(agent_ids) if agent_ids else "an agent"
            message = (
                f"This note cannot be deleted: the Task of {who} embeds it. "
                "Remove the embed from that Task first."
            )
        super().__init__(message)


class FileExists(TaskdeskError):
    """Creating a note at a path that is taken."""

    default_message = (
        "A file already exists at that path. Choose another name, or open the existing note."
    )


class ChangeSetConflict(VersionConflict):
    """A change set refused whole: these Tasks moved since it was built (agent id, live
    version). Nothing of it was saved."""

    def __init__(self, conflicts: tuple[tuple[str, int], ...], message: str | None = None) -> None:
        self.conflicts = conflicts
        if message is None:
            count = len(conflicts)
            which = "1 Task was" if count == 1 else f"{count} Tasks were"
            message = (
                f"Nothing was saved: {which} saved by someone else since the preview. "
                "They are merged with the change and shown again."
            )
        super().__init__(None, message)


class BadPattern(InvalidRequest):
    default_message = (
        "The search pattern is not a regular expression Python can read. Check its brackets "
        "and escapes, or search for plain text."
    )


class Offline(TaskdeskError):
    """The server could not be reached, or the connection to it broke."""

    default_message = (
        "The Taskdesk server cannot be reached. Check the network or the server address, "
        "then try again."
    )


class Unreachable(Offline):
    """No connection was made (refused, unknown host, connect timeout, TLS refused): the
    request certainly did not reach the server."""


class ConnectionLost(Offline):
    """The connection broke after the request was sent: it may have reached the server."""


class TimedOut(Offline):
    """The server did not answer within the read timeout or the request's total deadline."""


class ServerError(TaskdeskError):
    """A 5xx answer; ``retry_after`` is in seconds when the server said when to retry."""

    def __init__(
        self, status: int = 500, retry_after: float | None = None, message: str | None = None
    ) -> None:
        self.status = status
        self.retry_after = retry_after
        if message is None:
            when = (
                f"try again in {retry_after:g} s" if retry_after is not None else "try again later"
            )
            message = f"The server had a problem (HTTP {status}); {when}."
        super().__init__(message)


class RateLimited(TaskdeskError):
    def __init__(self, retry_after: float | None = None, message: str | None = None) -> None:
        self.retry_after = retry_after
        if message is None:
            when = (
                f"Try again in {retry_after:g} s." if retry_after is not None else "Wait a moment."
            )
            message = f"The server is receiving too many requests. {when}"
        super().__init__(message)


class BadResponse(TaskdeskError):
    """The server's answer cannot be used (not JSON, wrong shape, cut off, too large, a
    redirect). ``status`` is the HTTP status it came with, when there was one."""

    def __init__(self, message: str | None = None, *, status: int | None = None) -> None:
        self.status = status
        super().__init__(message)

    default_message = (
        "The server sent an answer Taskdesk cannot read. Check that the server address "
        "points at a Taskdesk server."
    )


class SaveUncertain(TaskdeskError):
    """A save whose answer was lost and whose outcome the live Task does not confirm.

    ``live`` is the live Task read afterwards, or None when it could not be read.
    """

    def __init__(self, live: TaskDoc | None, message: str | None = None) -> None:
        self.live = live
        if message is None:
            if live is None:
                message = (
                    "The connection broke during the save and the server could not be asked "
                    "whether it landed. Your text is kept; save again when the server is back."
                )
            else:
                message = (
                    "The connection broke during the save, and the server's Task (version "
                    f"{live.version}) does not hold your text. Your text is kept; compare it "
                    "with the live Task, then save again."
                )
        super().__init__(message)


class ProposalRefusal(Enum):
    """Why the server refused a proposal, a revise, a decline or the org's queue."""

    NO_SUCH_BASE = (
        "The version this proposal is based on is no longer kept on the server. Reload the "
        "Task and propose again from the live version; your text stays in the editor."
    )
    TITLE = "Give the proposal a title of 1 to 200 characters."
    NOTE = "Shorten the proposal's note to at most 2,000 characters."
    CHANGES_NOTHING = (
        "This proposal changes nothing: its text is the same as the version it is based on."
    )
    TOO_MANY = (
        "This agent already has 20 open proposals. Withdraw one, or wait until an operator "
        "decides some, then submit again; your text stays in the editor."
    )
    NOT_YOURS = "Only the author of a proposal can revise or withdraw it."
    OPERATORS_ONLY = "Only an operator can see the org's queue of proposals."
    REASON = "Give a reason of 1 to 2,000 characters; the author will read it."


class ProposalRefused(TaskdeskError):
    """A proposal's contract refusal (422); ``why`` says which, ``message`` in one sentence."""

    def __init__(self, why: ProposalRefusal) -> None:
        self.why = why
        super().__init__(why.value)


class ProposalNotOpen(TaskdeskError):
    default_message = (
        "This proposal is no longer open: an operator decided it or its author withdrew it "
        "meanwhile. Refresh to see its outcome."
    )
