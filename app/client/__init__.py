"""The client layer: `TaskdeskClient` and the typed errors every call may raise."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.lazy_names import lazy_names

if TYPE_CHECKING:
    from app.client.api import TaskdeskClient
    from app.client.errors import (
        AgentGone,
        BadPattern,
        BadResponse,
        BudgetExceeded,
        ChangeSetConflict,
        ConnectionLost,
        FileExists,
        InvalidRequest,
        NoteEmbedded,
        NotFound,
        NotWritable,
        Offline,
        OperatorsOnly,
        RateLimited,
        SaveUncertain,
        ServerError,
        TaskdeskError,
        TimedOut,
        TooLarge,
        Unauthorized,
        Unreachable,
        VersionConflict,
    )
    from app.client.runs import RunInfo, RunNote, RunSummary, TaskSource

# Loaded on first use: a module that only needs the typed errors (the window, before its first
# paint) must not pay for loading requests with the client.
_WHERE = {
    "TaskdeskClient": "app.client.api",
    "AgentGone": "app.client.errors",
    "BadPattern": "app.client.errors",
    "BadResponse": "app.client.errors",
    "ChangeSetConflict": "app.client.errors",
    "BudgetExceeded": "app.client.errors",
    "ConnectionLost": "app.client.errors",
    "InvalidRequest": "app.client.errors",
    "FileExists": "app.client.errors",
    "NoteEmbedded": "app.client.errors",
    "NotFound": "app.client.errors",
    "NotWritable": "app.client.errors",
    "Offline": "app.client.errors",
    "OperatorsOnly": "app.client.errors",
    "RateLimited": "app.client.errors",
    "SaveUncertain": "app.client.errors",
    "ServerError": "app.client.errors",
    "TaskdeskError": "app.client.errors",
    "TimedOut": "app.client.errors",
    "TooLarge": "app.client.errors",
    "Unauthorized": "app.client.errors",
    "Unreachable": "app.client.errors",
    "VersionConflict": "app.client.errors",
    "RunInfo": "app.client.runs",
    "RunNote": "app.client.runs",
    "RunSummary": "app.client.runs",
    "TaskSource": "app.client.runs",
}


__getattr__ = lazy_names(__name__, _WHERE, globals())


__all__ = [
    "AgentGone",
    "BadPattern",
    "BadResponse",
    "BudgetExceeded",
    "ChangeSetConflict",
    "ConnectionLost",
    "FileExists",
    "InvalidRequest",
    "NotFound",
    "NotWritable",
    "NoteEmbedded",
    "Offline",
    "OperatorsOnly",
    "RateLimited",
    "RunInfo",
    "RunNote",
    "RunSummary",
    "SaveUncertain",
    "ServerError",
    "TaskSource",
    "TaskdeskClient",
    "TaskdeskError",
    "TimedOut",
    "TooLarge",
    "Unauthorized",
    "Unreachable",
    "VersionConflict",
]
