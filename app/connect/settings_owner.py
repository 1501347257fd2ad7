"""The settings' one owner: the file read once, changed in memory, written by one writer.

Everything Taskdesk keeps between starts (the last server and agent, agents opened by id,
Side by side, the window's place) is read from ``settings()`` and changed with
``change_settings(edit)``. The change is in memory at once, under a lock, so a read on any
thread sees it; the file is written by the owner's writer: synchronously until the window
installs one that puts each write on the runner's disk lane (``set_writer``). Writes are
coalesced: one pending write carries every change made before it runs.

Tests get a fresh owner each (``use_settings``, called by the ``_fresh_settings`` fixture in
tests/conftest.py), the way napari's tests get fresh settings.
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Callable
from pathlib import Path

from app.connect.settings import (
    LoadedSettings,
    Settings,
    SettingsError,
    load_settings,
    save_settings,
)

log = logging.getLogger(__name__)

Writer = Callable[[Callable[[], None]], None]
"""Runs a write (the owner's ``flush``) where writes belong: at once, or on the disk lane."""


def _at_once(write: Callable[[], None]) -> None:
    write()


class SettingsOwner:
    """The settings file at ``path``: loaded on first use, then kept in memory."""

    def __init__(self, path: Path, writer: Writer = _at_once) -> None:
        self.path = path
        self._writer = writer
        self._lock = threading.Lock()
        self._loaded: LoadedSettings | None = None
        self._pending = False  # a write is asked for and has not run yet

    def _current(self) -> Settings:
        if self._loaded is None:
            self._loaded = load_settings(self.path)  # a broken file reads as the defaults
        return self._loaded.settings

    @property
    def warning(self) -> str | None:
        """What reading the file went wrong with (None: nothing), for the window to say."""
        with self._lock:
            self._current()
            assert self._loaded is not None
            return self._loaded.warning

    def read(self) -> Settings:
        """A copy of the settings as they stand (changes made on any thread included)."""
        with self._lock:
            return copy.deepcopy(self._current())

    def change(self, edit: Callable[[Settings], bool]) -> None:
        """``edit`` the settings in memory (it returns whether it changed anything); the
        file follows through the writer."""
        with self._lock:
            if not edit(self._current()):
                return
            if self._pending:
                return  # the write already asked for will carry this change too
            self._pending = True
        self._writer(self.flush)

    def flush(self) -> None:
        """Write the settings as they stand now (the writer calls this; so may a test)."""
        with self._lock:
            self._pending = False
            snapshot = copy.deepcopy(self._current())
        try:
            save_settings(snapshot, self.path)
        except SettingsError as exc:
            log.warning("%s", exc.message)

    def set_writer(self, writer: Writer) -> None:
        self._writer = writer


_owner: SettingsOwner | None = None
_owner_lock = threading.Lock()


def settings_owner() -> SettingsOwner:
    """The process's one owner (of ``paths.settings_path()``, made on first use; a new one if
    the settings folder moved, which only a test's fresh home does)."""
    global _owner
    from app.connect.paths import settings_path

    path = settings_path()
    with _owner_lock:
        if _owner is None or _owner.path != path:
            _owner = SettingsOwner(path)
        return _owner


def use_settings(owner: SettingsOwner | None) -> None:
    """Make ``owner`` the one (None: a fresh one from the settings path on next use)."""
    global _owner
    with _owner_lock:
        _owner = owner


def settings() -> Settings:
    """A copy of the settings as they stand."""
    return settings_owner().read()


def change_settings(edit: Callable[[Settings], bool]) -> None:
    """Change the settings (``edit`` returns whether it changed anything)."""
    settings_owner().change(edit)
