"""The client layer: `TaskdeskClient` and the typed errors every call may raise."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.lazy_names import lazy_names, public_names

if TYPE_CHECKING:  # what type checkers see; tests/architecture checks it against _WHERE
    from app.client.api import TaskdeskClient as TaskdeskClient
    from app.client.errors import AgentGone as AgentGone
    from app.client.errors import BadPattern as BadPattern
    from app.client.errors import BadResponse as BadResponse
    from app.client.errors import BudgetExceeded as BudgetExceeded
    from app.client.errors import ChangeSetConflict as ChangeSetConflict
    from app.client.errors import ConnectionLost as ConnectionLost
    from app.client.errors import FileExists as FileExists
    from app.client.errors import InvalidRequest as InvalidRequest
    from app.client.errors import NoteEmbedded as NoteEmbedded
    from app.client.errors import NotFound as NotFound
    from app.client.errors import NotWritable as NotWritable
    from app.client.errors import Offline as Offline
    from app.client.errors import OperatorsOnly as OperatorsOnly
    from app.client.errors import RateLimited as RateLimited
    from app.client.errors import SaveUncertain as SaveUncertain
    from app.client.errors import ServerError as ServerError
    from app.client.errors import TaskdeskError as TaskdeskError
    from app.client.errors import TimedOut as TimedOut
    from app.client.errors import TooLarge as TooLarge
    from app.client.errors import Unauthorized as Unauthorized
    from app.client.errors import Unreachable as Unreachable
    from app.client.errors import VersionConflict as VersionConflict
    from app.client.runs import RunInfo as RunInfo
    from app.client.runs import RunNote as RunNote
    from app.client.runs import RunSummary as RunSummary
    from app.client.runs import TaskSource as TaskSource

# Loaded on first use: a module that only needs the typed errors (the window, before its first
# paint) must not pay for loading requests with the client.
_WHERE = {
    "app.client.api": ("TaskdeskClient",),
    "app.client.errors": (
        "AgentGone",
        "BadPattern",
        "BadResponse",
        "ChangeSetConflict",
        "BudgetExceeded",
        "ConnectionLost",
        "InvalidRequest",
        "FileExists",
        "NoteEmbedded",
        "NotFound",
        "NotWritable",
        "Offline",
        "OperatorsOnly",
        "RateLimited",
        "SaveUncertain",
        "ServerError",
        "TaskdeskError",
        "TimedOut",
        "TooLarge",
        "Unauthorized",
        "Unreachable",
        "VersionConflict",
    ),
    "app.client.runs": ("RunInfo", "RunNote", "RunSummary", "TaskSource"),
}


__getattr__ = lazy_names(__name__, _WHERE, globals())

__all__ = public_names(_WHERE)
