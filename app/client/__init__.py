"""The client layer: `TaskdeskClient` and the typed errors every call may raise."""

from app.client.api import TaskdeskClient
from app.client.errors import (
    BadResponse,
    BudgetExceeded,
    ConnectionLost,
    InvalidRequest,
    NoteEmbedded,
    NotFound,
    NotWritable,
    Offline,
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

__all__ = [
    "BadResponse",
    "BudgetExceeded",
    "ConnectionLost",
    "InvalidRequest",
    "NotFound",
    "NotWritable",
    "NoteEmbedded",
    "Offline",
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
