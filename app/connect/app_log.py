"""The app's own log file: 0600 in a 0700 folder, rotated, libraries kept quiet unless asked."""

from __future__ import annotations

import io
import logging
import logging.handlers
import os
from pathlib import Path

from app.connect.private_files import PRIVATE_FILE_MODE, make_private, private_folder

LOG_FILE = "taskdesk.log"
LOG_FILE_BYTES = 1024 * 1024
"""One file's size before it is rotated: at DEBUG the app writes about 150 KB a second."""
LOG_BACKUPS = 3
"""Rotated files kept beside the live one: at most 4 MiB of log in all."""
OWN_LOGGERS = ("taskdesk", "app", "widgets")
"""The app's own loggers: the log level setting is theirs. Every other logger (markdown-it's
rule tracing, urllib3's every request) stays at ``library_log_level``, INFO by default: at
DEBUG markdown-it alone wrote 3.4 MB in 22 s, with every note path requested."""
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log whose every file is created 0600, never readable by others for a moment.

    The rotated files are the same files renamed, so they keep 0600 too.
    """

    def _open(self) -> io.TextIOWrapper:
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
        fd = os.open(self.baseFilename, flags, PRIVATE_FILE_MODE)
        return os.fdopen(fd, "a", encoding=self.encoding, errors=self.errors)


def open_app_log(
    folder: Path, level: str = "INFO", library_level: str = "INFO"
) -> logging.FileHandler:
    """Log the app at ``level`` and everything else at ``library_level`` to ``folder``'s
    taskdesk.log; returns the handler (its ``baseFilename`` is the path). Raises OSError
    when the folder can't be made private (a read-only home)."""
    private_folder(folder)
    path = folder / LOG_FILE
    for old in [path, *(path.with_name(f"{LOG_FILE}.{n}") for n in range(1, LOG_BACKUPS + 1))]:
        make_private(old)  # written by an earlier version, under the usual umask
    handler = PrivateRotatingFileHandler(
        path, maxBytes=LOG_FILE_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8", delay=True
    )
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(_level(library_level))
    for name in OWN_LOGGERS:
        logging.getLogger(name).setLevel(_level(level))
    return handler


def _level(name: str) -> int:
    value = logging.getLevelName(name.upper())
    return value if isinstance(value, int) else logging.INFO
