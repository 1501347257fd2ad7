"""StoreError: a local-store failure told in words an operator can act on."""

from __future__ import annotations

import errno
import re
import sqlite3
from enum import StrEnum
from pathlib import Path

_MISSING_SCHEMA = re.compile(r"no such (table|column|index)\b")


class StoreProblem(StrEnum):
    DISK_FULL = "disk_full"
    READ_ONLY = "read_only"
    CANNOT_OPEN = "cannot_open"
    LOCKED = "locked"
    DAMAGED = "damaged"
    SCHEMA_DAMAGED = "schema_damaged"
    TOO_NEW = "too_new"
    IO = "io"
    CLOSED = "closed"


class StoreError(Exception):
    """The local store could not do what was asked; ``message`` is for the operator.

    ``problem`` lets the app react (e.g. stop retrying a full disk every keystroke) without
    parsing the message.
    """

    def __init__(self, message: str, *, problem: StoreProblem, path: Path) -> None:
        super().__init__(message)
        self.message = message
        self.problem = problem
        self.path = path


_WHAT_WENT_WRONG: dict[StoreProblem, str] = {
    StoreProblem.DISK_FULL: "the disk is full",
    StoreProblem.READ_ONLY: "the folder is read-only",
    StoreProblem.CANNOT_OPEN: "the local store can't be opened",
    StoreProblem.LOCKED: "another Taskdesk window is busy with the local store",
    StoreProblem.DAMAGED: "the local store is damaged",
    StoreProblem.SCHEMA_DAMAGED: "the local store is damaged (part of its structure is missing)",
    StoreProblem.TOO_NEW: "the local store was made by a newer Taskdesk",
    StoreProblem.IO: "the disk reported an error",
    StoreProblem.CLOSED: "the local store is closed",
}


def _what_to_do(problem: StoreProblem, path: Path) -> str:
    folder = path.parent
    return {
        StoreProblem.DISK_FULL: "free some space",
        StoreProblem.READ_ONLY: (
            f"make {folder} writable, or start Taskdesk with TASKDESK_HOME set to a writable folder"
        ),
        StoreProblem.CANNOT_OPEN: f"check that {path} is a file in a folder you can write to",
        StoreProblem.LOCKED: "try again in a moment",
        StoreProblem.DAMAGED: (
            f"move {path} aside and restart Taskdesk (drafts kept in it can't be offered back)"
        ),
        StoreProblem.SCHEMA_DAMAGED: (
            f"move {path} aside and restart Taskdesk (drafts kept in it can't be offered back)"
        ),
        StoreProblem.TOO_NEW: "update Taskdesk, or start it with TASKDESK_HOME set elsewhere",
        StoreProblem.IO: "check the disk",
        StoreProblem.CLOSED: "restart Taskdesk",
    }[problem]


def store_error(
    action: str, problem: StoreProblem, path: Path, *, still_safe: str = ""
) -> StoreError:
    """Build the one-sentence message: what failed, why, where, what is safe, what to do.

    ``action`` completes "Can't …" (e.g. "save the draft"); ``still_safe`` reassures the
    operator about their work (e.g. "Your text is still in the editor").
    """
    fix = _what_to_do(problem, path)
    tail = f"{still_safe}; {fix}." if still_safe else f"{fix[0].upper()}{fix[1:]}."
    message = f"Can't {action}: {_WHAT_WENT_WRONG[problem]} ({path}). {tail}"
    return StoreError(message, problem=problem, path=path)


def problem_of(exc: BaseException) -> StoreProblem:
    """Classify an sqlite3 or OS error. The error's own text is never shown: it may hold
    SQL or data, and operators can't act on it."""
    if isinstance(exc, sqlite3.Error):
        name = getattr(exc, "sqlite_errorname", "") or ""
        if name.startswith("SQLITE_FULL"):
            return StoreProblem.DISK_FULL
        if name.startswith("SQLITE_READONLY"):
            return StoreProblem.READ_ONLY
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return StoreProblem.LOCKED
        if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
            return StoreProblem.DAMAGED
        if name.startswith("SQLITE_CANTOPEN"):
            return StoreProblem.CANNOT_OPEN
        if name.startswith(("SQLITE_IOERR", "SQLITE_PERM")):
            return StoreProblem.IO
        if _MISSING_SCHEMA.match(str(exc)):
            # A table or column the store made is gone: the file was changed behind its
            # back (or damaged), which no disk check will fix.
            return StoreProblem.SCHEMA_DAMAGED
        if isinstance(exc, sqlite3.ProgrammingError):
            return StoreProblem.CLOSED
        return StoreProblem.IO
    if isinstance(exc, OSError):
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return StoreProblem.DISK_FULL
        if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return StoreProblem.READ_ONLY
        if exc.errno in (errno.ENOTDIR, errno.EISDIR, errno.EEXIST, errno.ENOENT):
            return StoreProblem.CANNOT_OPEN
        return StoreProblem.IO
    return StoreProblem.IO
