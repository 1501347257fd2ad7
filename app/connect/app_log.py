"""The app's own log file: 0600 in a 0700 folder, rotated, libraries kept quiet unless asked.

The file opens after the window's first paint (its handler's module, ``logging.handlers``, and
the file itself cost ~7 ms before it); what is logged before then is held (``hold_early_log``)
and written to the file first when it opens.
"""

from __future__ import annotations

import logging
from pathlib import Path

from app.connect.private_files import make_private, private_folder

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
EARLY_RECORDS = 1000
"""Records held before the file opens, at most (start-up logs a handful)."""


class EarlyRecords(logging.Handler):
    """What is logged before the log file opens, kept for it in order."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if len(self.records) < EARLY_RECORDS:
            self.records.append(record)


def hold_early_log(level: str = "INFO", library_level: str = "INFO") -> None:
    """Log at the levels asked, holding the records until ``open_app_log`` has a file."""
    _set_levels(level, library_level)
    root = logging.getLogger()
    if not any(isinstance(h, EarlyRecords) for h in root.handlers):
        root.addHandler(EarlyRecords())


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
    from app.connect.private_log_file import PrivateRotatingFileHandler

    handler = PrivateRotatingFileHandler(
        path, maxBytes=LOG_FILE_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8", delay=True
    )
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    root = logging.getLogger()
    root.addHandler(handler)
    _set_levels(level, library_level)
    for record in _take_early_records():
        handler.handle(record)
    return handler


def drop_early_log() -> None:
    """No file after all (a read-only home): hold nothing more."""
    _take_early_records()


def _take_early_records() -> list[logging.LogRecord]:
    """What was held, in order; nothing is held from now on."""
    root = logging.getLogger()
    held: list[logging.LogRecord] = []
    for early in [h for h in root.handlers if isinstance(h, EarlyRecords)]:
        root.removeHandler(early)
        held += early.records
    return held


def _set_levels(level: str, library_level: str) -> None:
    logging.getLogger().setLevel(_level(library_level))
    for name in OWN_LOGGERS:
        logging.getLogger(name).setLevel(_level(level))


def _level(name: str) -> int:
    value = logging.getLevelName(name.upper())
    return value if isinstance(value, int) else logging.INFO
