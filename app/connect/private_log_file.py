"""A rotating log file created 0600, so it is never readable by others for a moment."""

from __future__ import annotations

import io
import logging.handlers
import os

from app.connect.private_files import PRIVATE_FILE_MODE


class PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log whose every file is created 0600, never readable by others for a moment.

    The rotated files are the same files renamed, so they keep 0600 too.
    """

    def _open(self) -> io.TextIOWrapper:
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
        fd = os.open(self.baseFilename, flags, PRIVATE_FILE_MODE)
        return os.fdopen(fd, "a", encoding=self.encoding, errors=self.errors)
