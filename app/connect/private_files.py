"""Files only their owner reads (0600 in a 0700 folder): the token file, the local workspace.

No keyring here: the local workspace is prepared before the first paint, and keyring loads
slowly.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

PRIVATE_FILE_MODE = 0o600
PRIVATE_FOLDER_MODE = 0o700


def private_folder(folder: Path) -> None:
    """Create ``folder`` (and its parents) if needed, and let only its owner into it."""
    folder.mkdir(mode=PRIVATE_FOLDER_MODE, parents=True, exist_ok=True)
    if stat.S_IMODE(folder.stat().st_mode) != PRIVATE_FOLDER_MODE:
        os.chmod(folder, PRIVATE_FOLDER_MODE)


def make_private(path: Path) -> None:
    """Narrow an existing file to 0600 (a file made before files were kept private)."""
    with contextlib.suppress(FileNotFoundError):
        if stat.S_IMODE(path.stat().st_mode) & ~PRIVATE_FILE_MODE:
            os.chmod(path, PRIVATE_FILE_MODE)


def write_private_file(path: Path, body: bytes) -> None:
    """Write ``body`` to ``path`` atomically, 0600 from the first byte (no moment where
    others could read it). Raises OSError."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        private_folder(path.parent)
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
        with os.fdopen(fd, "wb") as fh:
            fh.write(body)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
